/*
 * vars.c - the variables at fixed addresses (globals, static locals),
 * for --indirect=types: what the data that holds function pointers is,
 * and where (see indirect/).
 *
 * The walk hands each DW_TAG_variable it meets to dw_read_var.  Most are
 * locals located by a location list, or declarations: only a variable
 * whose DW_AT_location is one expression can be at a fixed address, and
 * which attributes and forms a DIE has is its abbreviation's, so that is
 * asked once per abbreviation code; the expression itself must be
 * DW_OP_addr alone.  The type is read later, from the DIE.
 */
#include "dwarf/dwarf.h"

#include <string.h>

#include "common/xalloc.h"

/* The address a DW_OP_addr location names; 0 for any other location. */
static uint64_t fixed_address(Dwarf_Debug dbg, Dwarf_Attribute a, bool *exprloc)
{
	Dwarf_Unsigned len = 0;
	Dwarf_Ptr p = NULL;
	Dwarf_Error derr = NULL;
	Dwarf_Half form = 0;
	const unsigned char *b;
	uint64_t v = 0;
	int i;

	*exprloc = false;
	if (dwarf_whatform(a, &form, &derr) != DW_DLV_OK || form != DW_FORM_exprloc ||
	    dwarf_formexprloc(a, &len, &p, &derr) != DW_DLV_OK) {
		dw_drop_error(dbg, &derr);
		return 0;
	}
	*exprloc = true;
	b = p;
	if (!b || len != 9 || b[0] != DW_OP_addr)
		return 0;
	for (i = 8; i >= 1; i--)	/* little-endian targets only, as walk.c */
		v = v << 8 | b[i];
	return v;
}

int dw_read_var(struct dw_image *dw, Dwarf_Die die, uint8_t *by_abbrev)
{
	int code = dwarf_die_abbrev_code(die);
	bool cached = by_abbrev && code > 0 && code < DW_VAR_ABBREVS, exprloc = false;
	Dwarf_Attribute a = NULL;
	Dwarf_Error derr = NULL;
	Dwarf_Off off = 0;
	uint64_t addr = 0;

	if (cached && by_abbrev[code] == DW_VAR_NO)
		return 0;
	if (dwarf_attr(die, DW_AT_location, &a, &derr) == DW_DLV_OK) {
		addr = fixed_address(dw->dbg, a, &exprloc);
		dwarf_dealloc(dw->dbg, a, DW_DLA_ATTR);
	}
	dw_drop_error(dw->dbg, &derr);
	if (cached)
		by_abbrev[code] = exprloc ? DW_VAR_MAYBE : DW_VAR_NO;
	if (!addr || dwarf_dieoffset(die, &off, &derr) != DW_DLV_OK) {
		dw_drop_error(dw->dbg, &derr);
		return 0;
	}
	SP_ALLOC_GROW(dw->vars, dw->nvars + 1, dw->vars_cap);
	dw->vars[dw->nvars].addr = addr;
	dw->vars[dw->nvars++].die = off;
	return 0;
}
