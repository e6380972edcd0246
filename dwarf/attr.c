/*
 * attr.c - libdwarf's errors, references and attributes, each read one
 * way: every Dwarf_Error of the stage dies in dw_drop_error(), every
 * reference is followed by dw_ref().
 */
#include "dwarf/dwarf.h"

void dw_drop_error(Dwarf_Debug dbg, Dwarf_Error *derr)
{
	/* with no dbg, libdwarf malloc'ed the error on its own: ours to
	 * free all the same (found by fuzz_elf) */
	if (*derr)
		dwarf_dealloc_error(dbg, *derr);
	*derr = NULL;
}

int dw_error(const char *path, Dwarf_Debug dbg, Dwarf_Error *derr, struct sp_err *err,
	     const char *what)
{
	sp_err_set(err, "'%s': %s: %s", path, what,
		   *derr ? dwarf_errmsg(*derr) : "corrupt DWARF");
	dw_drop_error(dbg, derr);
	return -1;
}

Dwarf_Off dw_attr_ref(Dwarf_Debug dbg, Dwarf_Attribute a)
{
	Dwarf_Off off = 0;
	Dwarf_Error derr = NULL;

	if (dwarf_global_formref(a, &off, &derr) != DW_DLV_OK) {
		dw_drop_error(dbg, &derr);
		return 0;
	}
	return off;
}

bool dw_attr_offset(Dwarf_Debug dbg, Dwarf_Die die, Dwarf_Half at, uint64_t *off)
{
	Dwarf_Attribute a = NULL;
	Dwarf_Error derr = NULL;
	Dwarf_Off o = 0;
	bool ok = false;

	if (dwarf_attr(die, at, &a, &derr) == DW_DLV_OK) {
		ok = dwarf_global_formref(a, &o, &derr) == DW_DLV_OK;
		dwarf_dealloc(dbg, a, DW_DLA_ATTR);
	}
	dw_drop_error(dbg, &derr);
	*off = o;
	return ok;
}

Dwarf_Off dw_ref(Dwarf_Debug dbg, Dwarf_Die die, Dwarf_Half at)
{
	uint64_t off;

	return dw_attr_offset(dbg, die, at, &off) ? off : 0;
}

Dwarf_Die dw_die_at(Dwarf_Debug dbg, Dwarf_Off off)
{
	Dwarf_Die die = NULL;
	Dwarf_Error derr = NULL;

	/* no dbg: an image whose DWARF did not open again (dw_resume) */
	if (!dbg || !off || dwarf_offdie_b(dbg, off, true, &die, &derr) != DW_DLV_OK)
		die = NULL;
	dw_drop_error(dbg, &derr);
	return die;
}

Dwarf_Die dw_ref_die(Dwarf_Debug dbg, Dwarf_Die die, Dwarf_Half at)
{
	return dw_die_at(dbg, dw_ref(dbg, die, at));
}

Dwarf_Half dw_tag(Dwarf_Debug dbg, Dwarf_Die die)
{
	Dwarf_Half tag = 0;
	Dwarf_Error derr = NULL;

	if (dwarf_tag(die, &tag, &derr) != DW_DLV_OK)
		tag = 0;
	dw_drop_error(dbg, &derr);
	return tag;
}

uint64_t dw_attr_udata(Dwarf_Debug dbg, Dwarf_Attribute a)
{
	Dwarf_Unsigned v = 0;
	Dwarf_Signed sv = 0;
	Dwarf_Error derr = NULL;

	if (dwarf_formudata(a, &v, &derr) == DW_DLV_OK)
		return v;
	dw_drop_error(dbg, &derr);
	/* 20210528's formudata refuses DW_FORM_implicit_const, which GCC uses
	 * for decl_file and decl_column; formsdata reads it */
	if (dwarf_formsdata(a, &sv, &derr) == DW_DLV_OK && sv >= 0)
		return (uint64_t)sv;
	dw_drop_error(dbg, &derr);
	return 0;
}
