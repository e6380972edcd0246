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
