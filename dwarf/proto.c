/*
 * proto.c - prototypes of functions and of indirect calls, so that
 * --indirect=address-taken can tell that a call through an
 * int (*)(int) does not reach long f(long, long).
 *
 * A prototype is a string "ret(param,param)" built from the DWARF types,
 * interned so that two compare as pointers.  Typedefs and qualifiers are
 * stripped (`const char *` and `char *` agree): that can only add an
 * assumed edge, never lose one.  NULL means unknown, and an unknown
 * prototype on either side matches everything: a function without DWARF,
 * an unprototyped C declaration (`int f()`), a type this walk does not
 * name (a pointer to member, a nesting past MAX_TYPE_DEPTH).
 *
 * The call's side comes from the call site's DW_AT_type, which DWARF 5
 * permits ("the type of the called function").  GCC 12 and clang 14 do
 * not write it, so with them nothing is narrowed.
 */
#include "dwarf/internal.h"

#include <stdlib.h>
#include <string.h>

#include "common/strbuf.h"

#define MAX_TYPE_DEPTH 32	/* deeper is a reference cycle, or not worth it */

struct namer {
	Dwarf_Debug dbg;
	struct sp_strbuf sb;
	bool failed;
};

static bool is_cplusplus(Dwarf_Debug dbg, Dwarf_Die die)
{
	Dwarf_Error derr = NULL;
	Dwarf_Off cu_off = 0;
	Dwarf_Unsigned lang = 0;
	Dwarf_Die cu;

	if (dwarf_CU_dieoffset_given_die(die, &cu_off, &derr) != DW_DLV_OK) {
		dw_drop_error(dbg, &derr);
		return false;
	}
	cu = dw_die_at(dbg, cu_off);
	if (cu && dwarf_srclang(cu, &lang, &derr) != DW_DLV_OK)
		lang = 0;
	dw_drop_error(dbg, &derr);
	if (cu)
		dwarf_dealloc_die(cu);
	return lang == DW_LANG_C_plus_plus || lang == DW_LANG_C_plus_plus_03 ||
	       lang == DW_LANG_C_plus_plus_11 || lang == DW_LANG_C_plus_plus_14;
}

/* C writes DW_AT_prototyped on what has a prototype; C++ always has one. */
static bool prototyped(Dwarf_Debug dbg, Dwarf_Die die)
{
	Dwarf_Attribute a = NULL;
	Dwarf_Error derr = NULL;
	Dwarf_Bool yes = 0;

	if (dwarf_attr(die, DW_AT_prototyped, &a, &derr) == DW_DLV_OK) {
		if (dwarf_formflag(a, &yes, &derr) != DW_DLV_OK)
			yes = 0;
		dwarf_dealloc(dbg, a, DW_DLA_ATTR);
	}
	dw_drop_error(dbg, &derr);
	return yes || is_cplusplus(dbg, die);
}

static void name_type(struct namer *n, Dwarf_Off off, int depth);

static void name_tagged(struct namer *n, Dwarf_Die die, const char *kind)
{
	Dwarf_Error derr = NULL;
	char *s = NULL;

	if (dwarf_diename(die, &s, &derr) != DW_DLV_OK)
		s = NULL;
	dw_drop_error(n->dbg, &derr);
	if (kind)	/* an anonymous struct is "struct ?": they all agree */
		sp_strbuf_addf(&n->sb, "%s %s", kind, s ? s : "?");
	else if (s)
		sp_strbuf_addf(&n->sb, "%s", s);
	else
		n->failed = true;
}

/* "ret(a,b)" of a subprogram or subroutine type DIE. */
static void name_proto(struct namer *n, Dwarf_Die fn, int depth)
{
	Dwarf_Die c = NULL, next = NULL;
	Dwarf_Error derr = NULL;
	bool first = true;
	int res;

	if (!prototyped(n->dbg, fn)) {
		n->failed = true;
		return;
	}
	name_type(n, dw_ref(n->dbg, fn, DW_AT_type), depth + 1);
	sp_strbuf_addf(&n->sb, "(");
	res = dwarf_child(fn, &c, &derr);
	while (res == DW_DLV_OK && !n->failed) {
		Dwarf_Half tag = dw_tag(n->dbg, c);

		if (tag == DW_TAG_formal_parameter || tag == DW_TAG_unspecified_parameters)
			sp_strbuf_addf(&n->sb, first ? "" : ",");
		if (tag == DW_TAG_formal_parameter) {
			Dwarf_Off t = dw_ref(n->dbg, c, DW_AT_type);

			if (!t)
				n->failed = true;
			name_type(n, t, depth + 1);
			first = false;
		} else if (tag == DW_TAG_unspecified_parameters) {
			sp_strbuf_addf(&n->sb, "...");
			first = false;
		}
		res = dw_sibling(n->dbg, c, &next, &derr);
		dwarf_dealloc_die(c);
		c = res == DW_DLV_OK ? next : NULL;
	}
	if (c)
		dwarf_dealloc_die(c);
	if (res == DW_DLV_ERROR)
		n->failed = true;
	dw_drop_error(n->dbg, &derr);
	sp_strbuf_addf(&n->sb, ")");
}

static void name_die(struct namer *n, Dwarf_Die die, int depth)
{
	switch (dw_tag(n->dbg, die)) {
	case DW_TAG_typedef:
	case DW_TAG_const_type:
	case DW_TAG_volatile_type:
	case DW_TAG_restrict_type:
	case DW_TAG_atomic_type:
		name_type(n, dw_ref(n->dbg, die, DW_AT_type), depth + 1);
		return;
	case DW_TAG_pointer_type:
	case DW_TAG_reference_type:
	case DW_TAG_rvalue_reference_type:
	case DW_TAG_array_type: {
		Dwarf_Half tag = dw_tag(n->dbg, die);

		name_type(n, dw_ref(n->dbg, die, DW_AT_type), depth + 1);
		sp_strbuf_addf(&n->sb, "%s", tag == DW_TAG_pointer_type ? "*" :
			       tag == DW_TAG_reference_type ? "&" :
			       tag == DW_TAG_rvalue_reference_type ? "&&" : "[]");
		return;
	}
	case DW_TAG_base_type:
	case DW_TAG_unspecified_type:
		name_tagged(n, die, NULL);
		return;
	case DW_TAG_structure_type:
	case DW_TAG_class_type:		/* one kind of type in C++ */
		name_tagged(n, die, "struct");
		return;
	case DW_TAG_union_type:
		name_tagged(n, die, "union");
		return;
	case DW_TAG_enumeration_type:
		name_tagged(n, die, "enum");
		return;
	case DW_TAG_subroutine_type:
		name_proto(n, die, depth);
		return;
	}
	n->failed = true;
}

/* Append the name of the type at off (0: void) to n->sb. */
static void name_type(struct namer *n, Dwarf_Off off, int depth)
{
	Dwarf_Die die;

	if (n->failed)
		return;
	if (!off) {
		sp_strbuf_addf(&n->sb, "void");
		return;
	}
	if (depth > MAX_TYPE_DEPTH || !(die = dw_die_at(n->dbg, off))) {
		n->failed = true;
		return;
	}
	name_die(n, die, depth);
	dwarf_dealloc_die(die);
}

static const char *finish(struct namer *n, struct sp_graph *g)
{
	const char *s = n->failed || !n->sb.buf ? NULL : sp_intern(g, n->sb.buf);

	free(n->sb.buf);
	return s;
}

/* The call site's type: a subroutine type, maybe behind typedefs,
 * qualifiers and a pointer. */
const char *dw_call_proto(Dwarf_Debug dbg, struct sp_graph *g, Dwarf_Off off)
{
	struct namer n = { .dbg = dbg };
	int hops;

	for (hops = 0; off && hops < MAX_TYPE_DEPTH; hops++) {
		Dwarf_Die die = dw_die_at(dbg, off);
		Dwarf_Half tag;

		if (!die)
			break;
		tag = dw_tag(dbg, die);
		if (tag == DW_TAG_subroutine_type) {
			name_proto(&n, die, 0);
			dwarf_dealloc_die(die);
			return finish(&n, g);
		}
		off = tag == DW_TAG_typedef || tag == DW_TAG_pointer_type ||
		      tag == DW_TAG_const_type || tag == DW_TAG_volatile_type ?
		      dw_ref(dbg, die, DW_AT_type) : 0;
		dwarf_dealloc_die(die);
	}
	return NULL;
}

/* A function's prototype, from the DIE its origin and specification
 * chain ends at: out-of-line copies' parameters have no types. */
const char *dw_func_proto(Dwarf_Debug dbg, struct sp_graph *g, Dwarf_Off off)
{
	struct namer n = { .dbg = dbg };
	Dwarf_Die die = off ? dw_die_at(dbg, off) : NULL;
	int hops;

	for (hops = 0; die && hops < DW_MAX_ORIGIN_HOPS; hops++) {
		Dwarf_Off up = dw_ref(dbg, die, DW_AT_abstract_origin);

		if (!up)
			up = dw_ref(dbg, die, DW_AT_specification);
		if (!up)
			break;
		dwarf_dealloc_die(die);
		die = dw_die_at(dbg, up);
	}
	if (!die || hops == DW_MAX_ORIGIN_HOPS || dw_tag(dbg, die) != DW_TAG_subprogram) {
		if (die)
			dwarf_dealloc_die(die);
		return NULL;
	}
	name_proto(&n, die, 0);
	dwarf_dealloc_die(die);
	return finish(&n, g);
}
