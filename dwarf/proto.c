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
 * name (a pointer to member, a nesting past DW_MAX_TYPE_HOPS).
 *
 * The call's side comes from the call site's DW_AT_type, which DWARF 5
 * permits ("the type of the called function").  GCC 12 and clang 14 do
 * not write it, so with them nothing is narrowed.
 */
#include "dwarf/internal.h"

#include <stdlib.h>
#include <string.h>

#include "common/strbuf.h"
#include "common/xalloc.h"


struct namer {
	struct dw_reader *r;
	struct sp_strbuf sb;
	bool failed;
};

static bool is_cplusplus(const struct dw_entry *e)
{
	struct dw_entry cu = *e;
	struct dw_val v;
	uint64_t lang = 0;

	if (dw_die_read(e->u, e->u->first_die, &cu.d) || !cu.d.ab ||
	    !dw_entry_attr(&cu, DW_AT_language, &v) || !dw_val_udata(&v, &lang))
		return false;
	return lang == DW_LANG_C_plus_plus || lang == DW_LANG_C_plus_plus_03 ||
	       lang == DW_LANG_C_plus_plus_11 || lang == DW_LANG_C_plus_plus_14;
}

/* C writes DW_AT_prototyped on what has a prototype; C++ always has one. */
static bool prototyped(const struct dw_entry *e)
{
	struct dw_val v;

	return (dw_entry_attr(e, DW_AT_prototyped, &v) && dw_val_flag(&v)) || is_cplusplus(e);
}

static void name_type(struct namer *n, uint64_t off, int depth);

static void name_tagged(struct namer *n, const struct dw_entry *e, const char *kind)
{
	const char *s = dw_entry_name(e);

	if (kind) {	/* an anonymous struct is "struct ?": they all agree */
		sp_strbuf_add(&n->sb, kind);
		sp_strbuf_add(&n->sb, " ");
		sp_strbuf_add(&n->sb, s ? s : "?");
	} else if (s) {
		sp_strbuf_add(&n->sb, s);
	}
	else
		n->failed = true;
}

/* "ret(a,b)" of a subprogram or subroutine type DIE. */
static void name_proto(struct namer *n, const struct dw_entry *fn, int depth)
{
	struct dw_kids k;
	struct dw_entry c;
	bool first = true;
	int res = 0;

	if (!prototyped(fn)) {
		n->failed = true;
		return;
	}
	name_type(n, dw_entry_ref(fn, DW_AT_type), depth + 1);
	sp_strbuf_add(&n->sb, "(");
	dw_kids_begin(fn, &k);
	while (!n->failed && (res = dw_kids_next(&k, &c)) > 0) {
		uint16_t tag = c.d.ab->tag;

		if (tag == DW_TAG_formal_parameter || tag == DW_TAG_unspecified_parameters)
			sp_strbuf_add(&n->sb, first ? "" : ",");
		if (tag == DW_TAG_formal_parameter) {
			uint64_t t = dw_entry_ref(&c, DW_AT_type);

			if (!t)
				n->failed = true;
			name_type(n, t, depth + 1);
			first = false;
		} else if (tag == DW_TAG_unspecified_parameters) {
			sp_strbuf_add(&n->sb, "...");
			first = false;
		}
	}
	if (!n->failed && res < 0)
		n->failed = true;
	sp_strbuf_add(&n->sb, ")");
}

static void name_die(struct namer *n, const struct dw_entry *e, int depth)
{
	uint16_t tag = e->d.ab->tag;

	if (dw_is_qualifier(tag)) {
		name_type(n, dw_entry_ref(e, DW_AT_type), depth + 1);
		return;
	}
	switch (tag) {
	case DW_TAG_pointer_type:
	case DW_TAG_reference_type:
	case DW_TAG_rvalue_reference_type:
	case DW_TAG_array_type:
		name_type(n, dw_entry_ref(e, DW_AT_type), depth + 1);
		sp_strbuf_add(&n->sb, tag == DW_TAG_pointer_type ? "*" :
			      tag == DW_TAG_reference_type ? "&" :
			      tag == DW_TAG_rvalue_reference_type ? "&&" : "[]");
		return;
	case DW_TAG_base_type:
	case DW_TAG_unspecified_type:
		name_tagged(n, e, NULL);
		return;
	case DW_TAG_structure_type:
	case DW_TAG_class_type:		/* one kind of type in C++ */
		name_tagged(n, e, "struct");
		return;
	case DW_TAG_union_type:
		name_tagged(n, e, "union");
		return;
	case DW_TAG_enumeration_type:
		name_tagged(n, e, "enum");
		return;
	case DW_TAG_subroutine_type:
		name_proto(n, e, depth);
		return;
	}
	n->failed = true;
}

/* The name of the type at off, named before at a depth of at least
 * depth, or NULL. */
static const char *known_name(const struct dw_reader *r, uint64_t off, int depth)
{
	uint32_t i = r->name_of.nslots ? sp_u64map_get(&r->name_of, off) : SP_NONE;

	return i != SP_NONE && depth <= r->names[i].depth ? r->names_text + r->names[i].start :
	       NULL;
}

/* Keep name, the type at off's, as read at depth. */
static void keep_name(struct dw_reader *r, uint64_t off, int depth, const char *name)
{
	size_t len = strlen(name) + 1;

	if (!r->name_of.nslots)
		sp_u64map_init(&r->name_of, 4096);
	SP_ALLOC_GROW(r->names_text, r->names_len + len, r->names_text_cap);
	memcpy(r->names_text + r->names_len, name, len);
	SP_ALLOC_GROW(r->names, r->nnames + 1, r->names_cap);
	r->names[r->nnames].start = r->names_len;
	r->names[r->nnames].depth = depth;
	sp_u64map_put(&r->name_of, off, (uint32_t)r->nnames++);
	r->names_len += len;
}

/* Append the name of the type at off (0: void) to n->sb.  A unit's
 * prototypes name the same types again and again: each is read once
 * (by offset, so a reader keeps them whatever unit it reads). */
static void name_type(struct namer *n, uint64_t off, int depth)
{
	const char *known;
	struct dw_entry e;
	size_t from = n->sb.len;

	if (n->failed)
		return;
	if (!off) {
		sp_strbuf_add(&n->sb, "void");
		return;
	}
	if ((known = known_name(n->r, off, depth))) {
		sp_strbuf_add(&n->sb, known);
		return;
	}
	if (depth > DW_MAX_TYPE_HOPS || !dw_entry_at(n->r, off, &e)) {
		n->failed = true;
		return;
	}
	name_die(n, &e, depth);
	if (!n->failed && n->sb.buf)
		keep_name(n->r, off, depth, n->sb.buf + from);
}

static const char *finish(struct namer *n, struct sp_graph *g)
{
	const char *s = n->failed || !n->sb.buf ? NULL : sp_intern(g, n->sb.buf);

	free(n->sb.buf);
	return s;
}

/* The call site's type: a subroutine type, maybe behind typedefs,
 * qualifiers and a pointer. */
static const char *call_proto(struct dw_reader *r, struct sp_graph *g, uint64_t off)
{
	struct namer n = { .r = r };
	struct dw_entry e;
	int hops;

	for (hops = 0; off && hops < DW_MAX_TYPE_HOPS && dw_entry_at(r, off, &e); hops++) {
		uint16_t tag = e.d.ab->tag;

		if (tag == DW_TAG_subroutine_type) {
			name_proto(&n, &e, 0);
			return finish(&n, g);
		}
		off = dw_is_qualifier(tag) || tag == DW_TAG_pointer_type ?
		      dw_entry_ref(&e, DW_AT_type) : 0;
	}
	return NULL;
}

const char *dw_call_proto(struct dw_reader *r, struct sp_graph *g, uint64_t off)
{
	const char *s;

	dw_reader_begin(r);
	s = call_proto(r, g, off);
	dw_reader_end(r);
	return s;
}

/* A function's prototype, from the DIE its origin and specification
 * chain ends at: out-of-line copies' parameters have no types. */
const char *dw_func_proto(struct dw_reader *r, struct sp_graph *g, uint64_t off)
{
	struct namer n = { .r = r };
	const char *s = NULL;
	struct dw_entry e;

	dw_reader_begin(r);
	if (off && dw_entry_follow(r, off, 0, &e) == 1 && e.d.ab->tag == DW_TAG_subprogram) {
		name_proto(&n, &e, 0);
		s = finish(&n, g);
	}
	dw_reader_end(r);
	return s;
}
