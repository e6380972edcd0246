/*
 * die.c - the few libdwarf reads the stage makes that dwarf/ does not,
 * each wrapped once: on hostile DWARF an error only means that the
 * attribute is absent, and the site it was for falls back.
 */
#include "indirect/internal.h"


bool ind_udata(Dwarf_Debug dbg, Dwarf_Die die, Dwarf_Half at, uint64_t *out)
{
	Dwarf_Attribute a = NULL;
	Dwarf_Error derr = NULL;
	Dwarf_Half form = 0;
	bool ok = false;

	if (dwarf_attr(die, at, &a, &derr) != DW_DLV_OK) {
		dw_drop_error(dbg, &derr);
		return false;
	}
	/* a location expression or a reference is not a constant */
	if (dwarf_whatform(a, &form, &derr) == DW_DLV_OK && form != DW_FORM_exprloc &&
	    form != DW_FORM_block1 && form != DW_FORM_sec_offset) {
		*out = dw_attr_udata(dbg, a);
		ok = true;
	}
	dwarf_dealloc(dbg, a, DW_DLA_ATTR);
	dw_drop_error(dbg, &derr);
	return ok;
}

bool ind_has(Dwarf_Debug dbg, Dwarf_Die die, Dwarf_Half at)
{
	Dwarf_Bool yes = 0;
	Dwarf_Error derr = NULL;

	if (dwarf_hasattr(die, at, &yes, &derr) != DW_DLV_OK)
		yes = 0;
	dw_drop_error(dbg, &derr);
	return yes;
}

const char *ind_name(Dwarf_Debug dbg, struct sp_graph *g, Dwarf_Die die)
{
	Dwarf_Error derr = NULL;
	char *s = NULL;

	if (dwarf_diename(die, &s, &derr) != DW_DLV_OK)
		s = NULL;
	dw_drop_error(dbg, &derr);
	return s ? sp_intern(g, s) : NULL;
}

Dwarf_Off ind_decl_type(Dwarf_Debug dbg, Dwarf_Off off)
{
	int hops;

	for (hops = 0; off && hops < DW_MAX_ORIGIN_HOPS; hops++) {
		Dwarf_Die die = dw_die_at(dbg, off);
		Dwarf_Off type;

		if (!die)
			return 0;
		type = dw_ref(dbg, die, DW_AT_type);
		off = type ? 0 : dw_ref(dbg, die, DW_AT_abstract_origin);
		if (!type && !off)
			off = dw_ref(dbg, die, DW_AT_specification);
		dwarf_dealloc_die(die);
		if (type)
			return type;
	}
	return 0;
}

/* libdwarf 20210528 finds the unit of the DIE dwarf_offdie_b asks for by
 * walking its list of units from the first, unless the DIE is in the
 * unit its header iterator is at: at a kernel's 2,000 units and a
 * million DIEs read, that walk was most of the run.  So the work goes in
 * DIE order and the iterator is moved along to the unit of each. */
void ind_cursor_seek(struct ind_cursor *c, Dwarf_Off off)
{
	int wraps = 0;

	if (c->broken || (off >= c->lo && off < c->hi))
		return;
	while (wraps < 2) {
		Dwarf_Unsigned hlen, abbrev_off, typeoff, next;
		Dwarf_Half version, asize, lsize, esize, cutype;
		Dwarf_Sig8 sig;
		Dwarf_Error derr = NULL;
		Dwarf_Die cu = NULL;
		Dwarf_Off cu_off = 0;
		int res = dwarf_next_cu_header_d(c->dbg, true, &hlen, &version, &abbrev_off,
						 &asize, &lsize, &esize, &sig, &typeoff, &next,
						 &cutype, &derr);

		if (res == DW_DLV_NO_ENTRY) {
			wraps++;	/* the next call starts over at the first unit */
			continue;
		}
		if (res != DW_DLV_OK ||
		    dwarf_siblingof_b(c->dbg, NULL, true, &cu, &derr) != DW_DLV_OK ||
		    dwarf_dieoffset(cu, &cu_off, &derr) != DW_DLV_OK) {
			dw_drop_error(c->dbg, &derr);
			if (cu)
				dwarf_dealloc_die(cu);
			c->broken = true;
			return;
		}
		dwarf_dealloc_die(cu);
		c->lo = cu_off;
		c->hi = next;
		if (off >= c->lo && off < c->hi)
			return;
	}
}
