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

static bool die_attr(Dwarf_Debug dbg, Dwarf_Die die, Dwarf_Half at, Dwarf_Attribute *a)
{
	Dwarf_Error derr = NULL;

	if (dwarf_attr(die, at, a, &derr) == DW_DLV_OK)
		return true;
	dw_drop_error(dbg, &derr);
	return false;
}

/* ---- the bound of a subrange ---- */

/* What a bound says, worst last: an array is a VLA when any bound is
 * more than a constant of a data form. */
enum bound {
	BOUND_FIXED = 0,	/* a constant of a data form, or none: not a VLA */
	BOUND_FOLDED,		/* an expression or variable that is a constant */
	BOUND_FRAME,		/* read from a frame slot (-O0) */
	BOUND_RUNTIME,		/* computed at run time */
};

static enum bound expr_bound(const struct dw_image *dw, const unsigned char *p, size_t len,
			     int64_t *v)
{
	/* libdwarf gives the bytes: the unit's sizes are not at hand, and a
	 * bound's operations have no address or offset operands */
	struct dw_opsizes z = { .addr = dw->obj.elf64 ? 8 : 4, .off = 4, .version = 5,
				.msb = dw->obj.msb };

	if (dw_expr_constant(p, len, &z, v))
		return BOUND_FOLDED;
	if (dw_expr_frame_slot(p, len, &z))
		return BOUND_FRAME;
	return BOUND_RUNTIME;
}

static enum bound attr_expr_bound(struct dw_image *dw, Dwarf_Attribute a,
				  Dwarf_Half form, int64_t *v)
{
	Dwarf_Unsigned len = 0;
	Dwarf_Ptr ptr = NULL;
	Dwarf_Block *blk = NULL;
	Dwarf_Error derr = NULL;
	enum bound b = BOUND_RUNTIME;

	if (form == DW_FORM_exprloc) {
		if (dwarf_formexprloc(a, &len, &ptr, &derr) == DW_DLV_OK)
			b = expr_bound(dw, ptr, (size_t)len, v);
	} else if (dwarf_formblock(a, &blk, &derr) == DW_DLV_OK) {
		b = expr_bound(dw, blk->bl_data, (size_t)blk->bl_len, v);
		dwarf_dealloc(dw->dbg, blk, DW_DLA_BLOCK);
	}
	dw_drop_error(dw->dbg, &derr);
	return b;
}

/* A bound that names a variable: GCC's artificial one at -O2, clang's
 * __vla_expr.  Folded when the variable is a DW_AT_const_value. */
static enum bound ref_bound(struct dw_image *dw, Dwarf_Die sub, Dwarf_Half at, int64_t *v)
{
	Dwarf_Die var = dw_ref_die(dw->dbg, sub, at);
	Dwarf_Attribute a;
	Dwarf_Error derr = NULL;
	enum bound b = BOUND_RUNTIME;

	if (!var)
		return b;
	if (die_attr(dw->dbg, var, DW_AT_const_value, &a)) {
		Dwarf_Signed sv = 0;

		if (dwarf_formsdata(a, &sv, &derr) == DW_DLV_OK) {
			*v = (int64_t)sv;
			b = BOUND_FOLDED;
		}
		dw_drop_error(dw->dbg, &derr);
		dwarf_dealloc(dw->dbg, a, DW_DLA_ATTR);
	}
	dwarf_dealloc_die(var);
	return b;
}

/* One subrange: the kind of its bound and, when constant, its element
 * count (*count, 0 when unknown). */
static enum bound subrange_bound(struct dw_image *dw, Dwarf_Die sub, uint64_t *count)
{
	static const Dwarf_Half ats[] = { DW_AT_upper_bound, DW_AT_count };
	size_t i;

	*count = 0;
	for (i = 0; i < sizeof(ats) / sizeof(ats[0]); i++) {
		Dwarf_Attribute a;
		Dwarf_Half form = 0;
		Dwarf_Error derr = NULL;
		enum Dwarf_Form_Class cls;
		enum bound b = BOUND_FIXED;
		int64_t v = -1;
		Dwarf_Signed sv = -1;

		if (!die_attr(dw->dbg, sub, ats[i], &a))
			continue;
		if (dwarf_whatform(a, &form, &derr) != DW_DLV_OK)
			dw_drop_error(dw->dbg, &derr);
		cls = dwarf_get_form_class(5, ats[i], 8, form);
		if (cls == DW_FORM_CLASS_REFERENCE)
			b = ref_bound(dw, sub, ats[i], &v);
		else if (cls == DW_FORM_CLASS_EXPRLOC || cls == DW_FORM_CLASS_BLOCK)
			b = attr_expr_bound(dw, a, form, &v);
		else if (dwarf_formsdata(a, &sv, &derr) == DW_DLV_OK)
			v = (int64_t)sv;
		dw_drop_error(dw->dbg, &derr);
		dwarf_dealloc(dw->dbg, a, DW_DLA_ATTR);
		/* count = upper_bound + 1: C arrays start at 0 */
		if (v >= 0 && (ats[i] == DW_AT_count || v < INT64_MAX))
			*count = (uint64_t)v + (ats[i] == DW_AT_upper_bound);
		return b;
	}
	return BOUND_FIXED;
}

static bool is_qualifier(Dwarf_Half tag)
{
	return tag == DW_TAG_volatile_type || tag == DW_TAG_const_type ||
	       tag == DW_TAG_restrict_type || tag == DW_TAG_typedef;
}

/* The type of die with its qualifiers and typedefs taken off: a
 * "volatile char v[n]" is a volatile_type over the array type. */
static Dwarf_Die bare_type(struct dw_image *dw, Dwarf_Die die)
{
	Dwarf_Die type = dw_ref_die(dw->dbg, die, DW_AT_type), next;
	int depth;

	for (depth = 0; type && depth < MAX_DEPTH; depth++) {
		if (!is_qualifier(dw_tag(dw->dbg, type)))
			break;
		next = dw_ref_die(dw->dbg, type, DW_AT_type);
		dwarf_dealloc_die(type);
		type = next;
	}
	return type;
}

static uint64_t type_bytes(struct dw_image *dw, Dwarf_Die die)
{
	Dwarf_Die type = bare_type(dw, die);
	Dwarf_Attribute a;
	uint64_t bytes = 0;

	if (!type)
		return 0;
	if (die_attr(dw->dbg, type, DW_AT_byte_size, &a)) {
		bytes = dw_attr_udata(dw->dbg, a);
		dwarf_dealloc(dw->dbg, a, DW_DLA_ATTR);
	}
	dwarf_dealloc_die(type);
	return bytes;
}

/* Fold the bounds of an array's subranges: the worst kind, and the
 * element count when every bound is constant (0 otherwise). */
static enum bound array_bound(struct dw_image *dw, Dwarf_Die array, uint64_t *elems)
{
	Dwarf_Die child = NULL, next;
	Dwarf_Error derr = NULL;
	enum bound worst = BOUND_FIXED;
	int n;

	*elems = 1;
	if (dwarf_child(array, &child, &derr) != DW_DLV_OK) {
		dw_drop_error(dw->dbg, &derr);
		return BOUND_FIXED;
	}
	for (n = 0; n < MAX_DEPTH; n++) {
		uint64_t count;

		if (dw_tag(dw->dbg, child) == DW_TAG_subrange_type) {
			enum bound b = subrange_bound(dw, child, &count);

			if (b > worst)
				worst = b;
			if (__builtin_mul_overflow(*elems, count, elems))
				*elems = 0;
		}
		if (dw_sibling(dw->dbg, child, &next, &derr) != DW_DLV_OK)
			break;
		dwarf_dealloc_die(child);
		child = next;
	}
	dwarf_dealloc_die(child);
	dw_drop_error(dw->dbg, &derr);
	return worst;
}

/* Is var's type (qualifiers off) an array with a bound beyond a data
 * constant?  Fills v->kind and, for a folded bound, v->bytes. */
static bool type_is_vla(struct dw_image *dw, Dwarf_Die var, struct sp_vla *v)
{
	static const enum sp_vla_kind kinds[] = {
		[BOUND_FOLDED] = SP_VLA_CONSTANT, [BOUND_FRAME] = SP_VLA_FRAME,
		[BOUND_RUNTIME] = SP_VLA_RUNTIME,
	};
	Dwarf_Die type = bare_type(dw, var);
	enum bound b = BOUND_FIXED;
	uint64_t elems = 0;

	if (!type)
		return false;
	if (dw_tag(dw->dbg, type) == DW_TAG_array_type)
		b = array_bound(dw, type, &elems);
	if (b != BOUND_FIXED) {
		v->kind = kinds[b];
		v->bytes = 0;
		if (b == BOUND_FOLDED &&
		    __builtin_mul_overflow(elems, type_bytes(dw, type), &v->bytes))
			v->bytes = 0;
	}
	dwarf_dealloc_die(type);
	return b != BOUND_FIXED;
}

static void describe_var(struct dw_image *dw, uint32_t cu, Dwarf_Die var, struct sp_vla *out)
{
	Dwarf_Die named = var, origin = dw_ref_die(dw->dbg, var, DW_AT_abstract_origin);
	Dwarf_Attribute a;
	Dwarf_Error derr = NULL;
	char *name = NULL;

	if (origin)
		named = origin;
	if (dwarf_diename(named, &name, &derr) == DW_DLV_OK)
		out->name = sp_intern(dw->g, name);
	dw_drop_error(dw->dbg, &derr);
	if (die_attr(dw->dbg, named, DW_AT_decl_line, &a)) {
		out->line = (uint32_t)dw_attr_udata(dw->dbg, a);
		dwarf_dealloc(dw->dbg, a, DW_DLA_ATTR);
	}
	if (die_attr(dw->dbg, named, DW_AT_decl_column, &a)) {
		out->col = (uint32_t)dw_attr_udata(dw->dbg, a);
		dwarf_dealloc(dw->dbg, a, DW_DLA_ATTR);
	}
	if (die_attr(dw->dbg, named, DW_AT_decl_file, &a)) {
		out->file = dw_cu_file(dw, cu, dw_attr_udata(dw->dbg, a));
		dwarf_dealloc(dw->dbg, a, DW_DLA_ATTR);
	}
	if (origin)
		dwarf_dealloc_die(origin);
}

static bool var_is_vla(struct dw_image *dw, Dwarf_Die var, struct sp_vla *v)
{
	Dwarf_Die origin;
	bool vla = type_is_vla(dw, var, v);

	if (vla)
		return true;
	origin = dw_ref_die(dw->dbg, var, DW_AT_abstract_origin);
	if (origin) {
		vla = type_is_vla(dw, origin, v);
		dwarf_dealloc_die(origin);
	}
	return vla;
}

/* The VLAs of a function's DIE subtree: its blocks and the callees
 * inlined into it (their VLAs live in this frame). */
static bool walk_vlas(struct dw_image *dw, uint32_t func, uint32_t cu, Dwarf_Die parent,
		      int depth, dw_vla_fn *fn, void *ctx)
{
	Dwarf_Die child = NULL, next;
	Dwarf_Error derr = NULL;
	bool stop = false;

	if (depth > MAX_DEPTH || dwarf_child(parent, &child, &derr) != DW_DLV_OK) {
		dw_drop_error(dw->dbg, &derr);
		return false;
	}
	while (!stop) {
		Dwarf_Half tag = dw_tag(dw->dbg, child);
		struct sp_vla v = { .func = func };

		if (tag == DW_TAG_variable && var_is_vla(dw, child, &v)) {
			describe_var(dw, cu, child, &v);
			stop = fn(ctx, &v);
		} else if (tag == DW_TAG_lexical_block || tag == DW_TAG_inlined_subroutine) {
			stop = walk_vlas(dw, func, cu, child, depth + 1, fn, ctx);
		}
		if (dw_sibling(dw->dbg, child, &next, &derr) != DW_DLV_OK)
			break;
		dwarf_dealloc_die(child);
		child = next;
	}
	dwarf_dealloc_die(child);
	dw_drop_error(dw->dbg, &derr);
	return stop;
}

bool dw_func_vlas(struct dw_image *dw, uint32_t i, dw_vla_fn *fn, void *ctx)
{
	const struct sp_func *f = &dw->g->funcs[i];
	Dwarf_Die die;

	if (!f->die || f->cu == SP_NONE || !(die = dw_die_at(dw->dbg, f->die)))
		return false;
	walk_vlas(dw, i, f->cu, die, 0, fn, ctx);
	dwarf_dealloc_die(die);
	return true;
}

void dw_done_reading(const struct dw_image *dw)
{
	uint64_t from = 0;

	dw_obj_info_done(&dw->obj, &from, dw->obj.info_size);
}
