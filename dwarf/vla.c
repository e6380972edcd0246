/*
 * vla.c - the variable-length arrays in a function's frame, from DWARF.
 *
 * A VLA is an array type whose subrange bound is not a constant: read
 * from the function's DIE subtree again, for the few functions whose
 * frame is dynamic (or for --vla), not in the main walk.  Inlined
 * callees count: their VLAs live in this frame.
 */
#include "dwarf/internal.h"

#include <stdint.h>
#include <string.h>

#define MAX_DEPTH 64

/* ---- the bound of a subrange ---- */

/* What a bound says, worst last: an array is a VLA when any bound is
 * more than a constant of a data form. */
enum bound {
	BOUND_FIXED = 0,	/* a constant of a data form, or none: not a VLA */
	BOUND_FOLDED,		/* an expression or variable that is a constant */
	BOUND_FRAME,		/* read from a frame slot (-O0) */
	BOUND_RUNTIME,		/* computed at run time */
};

static enum bound expr_bound(const struct dw_entry *e, const struct dw_val *v, int64_t *n)
{
	struct dw_opsizes z = dw_unit_opsizes(e->u);
	const unsigned char *p = NULL;
	uint64_t len = 0;

	if (!dw_val_block(v, &p, &len))
		return BOUND_RUNTIME;
	if (dw_expr_constant(p, len, &z, n))
		return BOUND_FOLDED;
	/* -O0 keeps every variable in the frame, the bound too */
	if (dw_expr_frame_slot(p, len, &z))
		return BOUND_FRAME;
	return BOUND_RUNTIME;
}

/* A bound that names a variable: GCC's artificial one at -O2, clang's
 * __vla_expr.  Folded when the variable is a DW_AT_const_value. */
static enum bound ref_bound(struct dw_reader *r, const struct dw_entry *sub,
			    const struct dw_val *v, int64_t *n)
{
	struct dw_entry var;
	struct dw_val c;

	if (!dw_entry_at(r, dw_val_ref(sub->u, v), &var) ||
	    !dw_entry_attr(&var, DW_AT_const_value, &c) || !dw_val_sdata(&c, n))
		return BOUND_RUNTIME;
	return BOUND_FOLDED;
}

static bool is_ref_form(uint16_t form)
{
	switch (form) {
	case DW_FORM_ref1: case DW_FORM_ref2: case DW_FORM_ref4: case DW_FORM_ref8:
	case DW_FORM_ref_udata: case DW_FORM_ref_addr: case DW_FORM_ref_sig8:
	case DW_FORM_ref_sup4: case DW_FORM_ref_sup8: case DW_FORM_GNU_ref_alt:
		return true;
	}
	return false;
}

/* One subrange: the kind of its bound and, when constant, its element
 * count (*count, 0 when unknown). */
static enum bound subrange_bound(struct dw_reader *r, const struct dw_entry *sub,
				 uint64_t *count)
{
	static const uint16_t ats[] = { DW_AT_upper_bound, DW_AT_count };
	const unsigned char *p;
	uint64_t len;
	size_t i;

	*count = 0;
	for (i = 0; i < sizeof(ats) / sizeof(ats[0]); i++) {
		enum bound b = BOUND_FIXED;
		struct dw_val v;
		int64_t n = -1;

		if (!dw_entry_attr(sub, ats[i], &v))
			continue;
		if (is_ref_form(v.form))
			b = ref_bound(r, sub, &v, &n);
		else if (dw_val_block(&v, &p, &len))
			b = expr_bound(sub, &v, &n);
		else if (!dw_val_sdata(&v, &n))
			n = -1;
		/* count = upper_bound + 1: C arrays start at 0 */
		if (n >= 0 && (ats[i] == DW_AT_count || n < INT64_MAX))
			*count = (uint64_t)n + (ats[i] == DW_AT_upper_bound);
		return b;
	}
	return BOUND_FIXED;
}

static uint64_t type_bytes(struct dw_reader *r, const struct dw_entry *array)
{
	struct dw_entry elem;
	struct dw_val v;
	uint64_t bytes = 0;

	if (!dw_type_strip(r, dw_entry_ref(array, DW_AT_type), &elem, NULL) ||
	    !dw_entry_attr(&elem, DW_AT_byte_size, &v) || !dw_val_udata(&v, &bytes))
		return 0;
	return bytes;
}

/* Fold the bounds of an array's subranges: the worst kind, and the
 * element count when every bound is constant (0 otherwise). */
static enum bound array_bound(struct dw_reader *r, const struct dw_entry *array,
			      uint64_t *elems)
{
	enum bound worst = BOUND_FIXED;
	struct dw_kids k;
	struct dw_entry c;
	int n;

	*elems = 1;
	dw_kids_begin(array, &k);
	for (n = 0; n < MAX_DEPTH && dw_kids_next(&k, &c) > 0; n++) {
		uint64_t count;

		if (c.d.ab->tag == DW_TAG_subrange_type) {
			enum bound b = subrange_bound(r, &c, &count);

			if (b > worst)
				worst = b;
			if (__builtin_mul_overflow(*elems, count, elems))
				*elems = 0;
		}
	}
	return worst;
}

/* Is var's type (qualifiers off) an array with a bound beyond a data
 * constant?  Fills v->kind and, for a folded bound, v->bytes. */
static bool type_is_vla(struct dw_reader *r, const struct dw_entry *var, struct sp_vla *v)
{
	static const enum sp_vla_kind kinds[] = {
		[BOUND_FOLDED] = SP_VLA_CONSTANT, [BOUND_FRAME] = SP_VLA_FRAME,
		[BOUND_RUNTIME] = SP_VLA_RUNTIME,
	};
	enum bound b = BOUND_FIXED;
	struct dw_entry type;
	uint64_t elems = 0;

	if (!dw_type_strip(r, dw_entry_ref(var, DW_AT_type), &type, NULL))
		return false;
	if (type.d.ab->tag == DW_TAG_array_type)
		b = array_bound(r, &type, &elems);
	if (b != BOUND_FIXED) {
		v->kind = kinds[b];
		v->bytes = 0;
		if (b == BOUND_FOLDED &&
		    __builtin_mul_overflow(elems, type_bytes(r, &type), &v->bytes))
			v->bytes = 0;
	}
	return b != BOUND_FIXED;
}

static uint32_t attr_udata(const struct dw_entry *e, uint16_t at)
{
	struct dw_val v;
	uint64_t n = 0;

	return dw_entry_attr(e, at, &v) && dw_val_udata(&v, &n) ? (uint32_t)n : 0;
}

static void describe_var(struct dw_image *dw, struct dw_reader *r, uint32_t cu,
			 const struct dw_entry *var, struct sp_vla *out)
{
	struct dw_entry origin;
	const struct dw_entry *named = var;
	struct dw_val v;
	uint64_t file = 0;
	const char *name;

	if (dw_entry_at_ref(r, var, DW_AT_abstract_origin, &origin))
		named = &origin;
	if ((name = dw_entry_name(named)))
		out->name = sp_intern(dw->g, name);
	out->line = attr_udata(named, DW_AT_decl_line);
	out->col = attr_udata(named, DW_AT_decl_column);
	if (dw_entry_attr(named, DW_AT_decl_file, &v)) {
		if (!dw_val_udata(&v, &file))
			file = 0;
		out->file = dw_cu_file(dw, cu, file);
	}
}

static bool var_is_vla(struct dw_reader *r, const struct dw_entry *var, struct sp_vla *v)
{
	struct dw_entry origin;

	return type_is_vla(r, var, v) ||
	       (dw_entry_at_ref(r, var, DW_AT_abstract_origin, &origin) &&
		type_is_vla(r, &origin, v));
}

/* The VLAs of a function's DIE subtree: its blocks and the callees
 * inlined into it (their VLAs live in this frame). */
static bool walk_vlas(struct dw_image *dw, struct dw_reader *r, uint32_t func, uint32_t cu,
		      const struct dw_entry *parent, int depth, dw_vla_fn *fn, void *ctx)
{
	struct dw_kids k;
	struct dw_entry c;
	bool stop = false;

	if (depth > MAX_DEPTH)
		return false;
	dw_kids_begin(parent, &k);
	while (!stop && dw_kids_next(&k, &c) > 0) {
		uint16_t tag = c.d.ab->tag;
		struct sp_vla v = { .func = func };

		if (tag == DW_TAG_variable && var_is_vla(r, &c, &v)) {
			describe_var(dw, r, cu, &c, &v);
			stop = fn(ctx, &v);
		} else if (tag == DW_TAG_lexical_block || tag == DW_TAG_inlined_subroutine) {
			stop = walk_vlas(dw, r, func, cu, &c, depth + 1, fn, ctx);
		}
	}
	return stop;
}

struct vla_walk {
	struct dw_image *dw;
	uint32_t func;
	dw_vla_fn *fn;
	void *ctx;
};

static void func_vlas(struct dw_reader *r, const struct dw_entry *e, void *ctx)
{
	struct vla_walk *w = ctx;

	walk_vlas(w->dw, r, w->func, w->dw->g->funcs[w->func].cu, e, 0, w->fn, w->ctx);
}

bool dw_func_vlas(struct dw_image *dw, uint32_t i, dw_vla_fn *fn, void *ctx)
{
	struct vla_walk w = { dw, i, fn, ctx };

	return dw_func_die(dw, i, func_vlas, &w);
}

bool dw_func_die(struct dw_image *dw, uint32_t func, dw_func_die_fn *fn, void *ctx)
{
	const struct sp_func *f = &dw->g->funcs[func];
	struct dw_reader *r;
	struct dw_entry e;
	bool found;

	if (!f->die || f->cu == SP_NONE || !(r = dw_reader(dw)))
		return false;
	dw_reader_begin(r);
	found = dw_entry_at(r, f->die, &e);
	if (found)
		fn(r, &e, ctx);
	dw_reader_end(r);
	return found;
}

void dw_done_reading(const struct dw_image *dw)
{
	uint64_t from = 0;

	dw_obj_info_done(&dw->st->obj, &from, dw->st->obj.info_size);
}
