/*
 * attr.c - libdwarf's errors, references and attributes, each read one
 * way: every Dwarf_Error of the stage dies in dw_drop_error(), every
 * reference is followed by dw_ref().
 */
#include "dwarf/internal.h"

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

/* ---- siblings: libdwarf's, made safe ---- */

static int die_off(Dwarf_Debug dbg, Dwarf_Die die, Dwarf_Off *off)
{
	Dwarf_Error derr = NULL;

	if (dwarf_dieoffset(die, off, &derr) == DW_DLV_OK)
		return 0;
	dw_drop_error(dbg, &derr);
	return -1;
}

static bool has_sibling(Dwarf_Debug dbg, Dwarf_Die die)
{
	Dwarf_Error derr = NULL;
	Dwarf_Bool yes = false;

	if (dwarf_hasattr(die, DW_AT_sibling, &yes, &derr) != DW_DLV_OK) {
		dw_drop_error(dbg, &derr);
		return false;
	}
	return yes;
}

static int next_sibling(Dwarf_Debug dbg, Dwarf_Die die, bool checked, Dwarf_Die *next,
			Dwarf_Error *derr, int depth);

/* Whether libdwarf can step over die's subtree without looping.  To find
 * the sibling of a DIE with children and no DW_AT_sibling, libdwarf
 * 20210528 walks the subtree, jumping over each inner DIE's children by
 * its DW_AT_sibling; one that points at its own DIE sends it round
 * forever (found by fuzz_elf).  GCC omits DW_AT_sibling only on a last
 * child, and the caller has usually been through those already (checked),
 * so on real DWARF this walks small subtrees: call sites' parameters. */
static bool subtree_skippable(Dwarf_Debug dbg, Dwarf_Die die, int depth)
{
	Dwarf_Die child = NULL, next;
	Dwarf_Error derr = NULL;
	Dwarf_Half has_children = 0;
	int res;

	if (dwarf_die_abbrev_children_flag(die, &has_children) != DW_DLV_OK ||
	    !has_children)
		return true;
	if (depth > DW_MAX_DIE_DEPTH)
		return false;
	/* libdwarf jumps by die's own DW_AT_sibling; next_sibling checks where */
	if (has_sibling(dbg, die))
		return true;
	res = dwarf_child(die, &child, &derr);
	while (res == DW_DLV_OK) {
		res = next_sibling(dbg, child, false, &next, &derr, depth + 1);
		dwarf_dealloc_die(child);
		child = next;
	}
	dw_drop_error(dbg, &derr);
	return res == DW_DLV_NO_ENTRY;
}

/* libdwarf 20210528 refuses a DW_AT_sibling that points before its DIE
 * but follows one pointing at the DIE itself forever, at the top
 * (offsets that only grow end every walk) or deep inside a subtree it
 * skips (subtree_skippable).  checked: every child of die was stepped
 * over by this function already, so its subtree is known to be safe. */
static int next_sibling(Dwarf_Debug dbg, Dwarf_Die die, bool checked, Dwarf_Die *next,
			Dwarf_Error *derr, int depth)
{
	Dwarf_Off here = 0, there = 0;
	int res;

	*next = NULL;
	if (die && !checked && !subtree_skippable(dbg, die, depth))
		return DW_DLV_ERROR;
	res = dwarf_siblingof_b(dbg, die, true, next, derr);
	if (res != DW_DLV_OK || !die)
		return res;
	if (!die_off(dbg, die, &here) && !die_off(dbg, *next, &there) && there > here)
		return DW_DLV_OK;
	dwarf_dealloc_die(*next);
	*next = NULL;
	return DW_DLV_ERROR;
}

int dw_sibling(Dwarf_Debug dbg, Dwarf_Die die, Dwarf_Die *next, Dwarf_Error *derr)
{
	return next_sibling(dbg, die, false, next, derr, 0);
}

int dw_sibling_checked(Dwarf_Debug dbg, Dwarf_Die die, bool checked, Dwarf_Die *next,
		       Dwarf_Error *derr)
{
	return next_sibling(dbg, die, checked, next, derr, 0);
}
