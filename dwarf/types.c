/*
 * types.c - types: what is under a type's typedefs and qualifiers, and
 * an interrupt handler known by its DWARF type.
 *
 * request_irq() takes an irq_handler_t, "irqreturn_t (*)(int, void *)":
 * a function of exactly that shape is a handler (or a threaded one),
 * whatever it is called.  The irq core's own helpers that return
 * irqreturn_t take a struct irq_desc * and are left out.
 */
#include "dwarf/internal.h"

#include <string.h>

bool dw_is_qualifier(uint16_t tag)
{
	return tag == DW_TAG_typedef || tag == DW_TAG_const_type ||
	       tag == DW_TAG_volatile_type || tag == DW_TAG_restrict_type ||
	       tag == DW_TAG_atomic_type;
}

bool dw_type_strip(struct dw_reader *r, uint64_t off, struct dw_entry *e,
		   const char **typedef_name)
{
	int hops;

	if (typedef_name)
		*typedef_name = NULL;
	for (hops = 0; off && hops < DW_MAX_TYPE_HOPS; hops++) {
		uint16_t tag;

		if (!dw_entry_at(r, off, e))
			return false;
		tag = e->d.ab->tag;
		if (!dw_is_qualifier(tag))
			return true;
		if (tag == DW_TAG_typedef && typedef_name && !*typedef_name)
			*typedef_name = dw_entry_name(e);
		off = dw_entry_ref(e, DW_AT_type);
	}
	return false;
}

/* Is e's type a tag (with that name, if name is non-NULL)? */
static bool type_is(struct dw_reader *r, const struct dw_entry *e, uint16_t tag,
		    const char *name)
{
	struct dw_entry t;
	const char *s;

	if (!dw_entry_at_ref(r, e, DW_AT_type, &t) || t.d.ab->tag != tag)
		return false;
	return !name || ((s = dw_entry_name(&t)) && !strcmp(s, name));
}

/* (int, void *) or (int, T *): the parameters of an irq_handler_t. */
static bool params_are_handlers(struct dw_reader *r, const struct dw_entry *fn)
{
	struct dw_kids k;
	struct dw_entry c;
	int n = 0;
	bool ok = true;

	dw_kids_begin(fn, &k);
	while (ok && dw_kids_next(&k, &c) > 0) {
		if (c.d.ab->tag != DW_TAG_formal_parameter)
			continue;
		ok = n == 0 ? type_is(r, &c, DW_TAG_base_type, "int") :
		     n == 1 ? type_is(r, &c, DW_TAG_pointer_type, NULL) : false;
		n++;
	}
	return ok && n == 2;
}

bool dw_is_irq_handler(struct dw_reader *r, uint64_t off)
{
	struct dw_entry e;
	bool yes;

	dw_reader_begin(r);
	yes = dw_entry_at(r, off, &e) && type_is(r, &e, DW_TAG_typedef, "irqreturn_t") &&
	      params_are_handlers(r, &e);
	dw_reader_end(r);
	return yes;
}

void dw_irq_params(struct dw_reader *r, uint64_t off, int *thread_fn, int *handler)
{
	struct dw_entry e, c;
	struct dw_kids k;
	int n = 0;

	*thread_fn = *handler = -1;
	dw_reader_begin(r);
	if (dw_entry_at(r, off, &e)) {
		dw_kids_begin(&e, &k);
		while (dw_kids_next(&k, &c) > 0) {
			const char *name;

			if (c.d.ab->tag != DW_TAG_formal_parameter)
				continue;
			name = dw_entry_name(&c);
			if (name && type_is(r, &c, DW_TAG_typedef, "irq_handler_t")) {
				if (!strcmp(name, "thread_fn"))
					*thread_fn = n;
				else if (!strcmp(name, "handler"))
					*handler = n;
			}
			n++;
		}
	}
	dw_reader_end(r);
}

/* ---- types as --indirect=types reads them ---- */

/* A constant that is not a location: an attribute whose form is a
 * block, an expression or a section offset gives none; any other form
 * gives its unsigned value, or 0 when it is not a number. */
static bool constant(const struct dw_entry *e, uint16_t at, uint64_t *n)
{
	struct dw_val v;

	if (!dw_entry_attr(e, at, &v) || v.form == DW_FORM_exprloc ||
	    v.form == DW_FORM_block1 || v.form == DW_FORM_sec_offset)
		return false;
	if (!dw_val_udata(&v, n))
		*n = 0;
	return true;
}

/* An array's element count: the product of its subranges' counts. */
static uint64_t array_count(const struct dw_entry *array)
{
	uint64_t count = 1, n, lower;
	struct dw_kids k;
	struct dw_entry c;
	int res = 0;

	dw_kids_begin(array, &k);
	while (count && (res = dw_kids_next(&k, &c)) > 0) {
		if (c.d.ab->tag != DW_TAG_subrange_type)
			continue;
		if (constant(&c, DW_AT_count, &n))
			;
		else if (constant(&c, DW_AT_upper_bound, &n) && n < UINT32_MAX)
			n = n + 1 - (constant(&c, DW_AT_lower_bound, &lower) && lower <= n ?
				     lower : 0);
		else
			n = 0;	/* a flexible array, or a bound computed at run time */
		count = n && count <= UINT64_MAX / n ? count * n : 0;
	}
	return res < 0 ? 0 : count;
}

static const char *intern(struct sp_graph *g, const char *s)
{
	return s ? sp_intern(g, s) : NULL;
}

bool dw_type_of(struct dw_reader *r, struct sp_graph *g, uint64_t off, struct dw_type *out)
{
	const char *typedef_name;
	struct dw_entry e;
	bool ok;

	memset(out, 0, sizeof(*out));
	dw_reader_begin(r);
	ok = dw_type_strip(r, off, &e, &typedef_name);
	if (ok) {
		uint16_t tag = e.d.ab->tag;

		out->die = e.d.off;
		constant(&e, DW_AT_byte_size, &out->size);
		if (tag == DW_TAG_structure_type || tag == DW_TAG_class_type ||
		    tag == DW_TAG_union_type) {
			out->kind = DW_TYPE_STRUCT;
			out->is_union = tag == DW_TAG_union_type;
			out->name = intern(g, dw_entry_name(&e));
			if (!out->name)
				out->name = intern(g, typedef_name);
		} else if (tag == DW_TAG_pointer_type || tag == DW_TAG_reference_type ||
			   tag == DW_TAG_rvalue_reference_type) {
			out->kind = DW_TYPE_POINTER;
			out->target = dw_entry_ref(&e, DW_AT_type);
		} else if (tag == DW_TAG_array_type) {
			out->kind = DW_TYPE_ARRAY;
			out->target = dw_entry_ref(&e, DW_AT_type);
			out->count = array_count(&e);
		} else if (tag == DW_TAG_subroutine_type) {
			out->kind = DW_TYPE_FUNC;
		}
	}
	dw_reader_end(r);
	return ok;
}

/* DW_AT_data_member_location: a constant, or DW_OP_plus_uconst N
 * (DWARF 2's expression); 0 when absent (a union's members). */
static bool member_offset(const struct dw_entry *e, uint64_t *off)
{
	struct dw_opsizes z = dw_unit_opsizes(e->u);
	const unsigned char *p;
	struct dw_val v;
	uint64_t len;

	*off = 0;
	if (!dw_entry_attr(e, DW_AT_data_member_location, &v))
		return true;
	if (dw_val_block(&v, &p, &len))
		return dw_expr_plus_uconst(p, len, &z, off);
	if (!dw_val_udata(&v, off))
		*off = 0;
	return true;
}

/* The members of a struct (bit fields aside: no pointer is one). */
static bool members(struct dw_reader *r, uint64_t die, dw_member_fn *fn, void *ctx)
{
	struct dw_entry e, c;
	struct dw_kids k;
	struct dw_val v;
	bool ok = true;
	int res;

	if (!dw_entry_at(r, die, &e))
		return false;
	dw_kids_begin(&e, &k);
	while ((res = dw_kids_next(&k, &c)) > 0) {
		struct dw_member m;

		if ((c.d.ab->tag != DW_TAG_member && c.d.ab->tag != DW_TAG_inheritance) ||
		    dw_entry_attr(&c, DW_AT_bit_size, &v) ||
		    dw_entry_attr(&c, DW_AT_data_bit_offset, &v))
			continue;
		if (!member_offset(&c, &m.off)) {
			ok = false;
			continue;
		}
		m.type = dw_entry_ref(&c, DW_AT_type);
		m.die = c.d.off;
		fn(ctx, &m);
	}
	return ok && res == 0;
}

bool dw_type_members(struct dw_reader *r, uint64_t die, dw_member_fn *fn, void *ctx)
{
	bool ok;

	dw_reader_begin(r);
	ok = members(r, die, fn, ctx);
	dw_reader_end(r);
	return ok;
}

const char *dw_member_name(struct dw_reader *r, struct sp_graph *g, uint64_t die)
{
	struct dw_entry e;
	const char *name = NULL;

	dw_reader_begin(r);
	if (dw_entry_at(r, die, &e))
		name = intern(g, dw_entry_name(&e));
	dw_reader_end(r);
	return name;
}

const char *dw_die_name(struct dw_reader *r, struct sp_graph *g, uint64_t off)
{
	struct dw_entry e;
	const char *name = NULL;

	struct dw_entry up;
	int hops;

	dw_reader_begin(r);
	/* a definition's name is on its declaration (DW_AT_specification) */
	if (dw_entry_at(r, off, &e))
		for (hops = 0; !(name = intern(g, dw_entry_name(&e))) && hops < DW_MAX_ORIGIN_HOPS &&
			       dw_entry_origin(r, &e, &up) > 0; hops++)
			e = up;
	dw_reader_end(r);
	return name;
}

/* ---- every type of a unit ---- */

#define MAX_TYPE_NEST 64	/* structs in structs, blocks in functions */

static bool is_struct_tag(uint16_t tag)
{
	return tag == DW_TAG_structure_type || tag == DW_TAG_class_type ||
	       tag == DW_TAG_union_type;
}

/* Can a DIE of this tag have a type defined among its children?  An
 * inlined copy's are its abstract origin's, and a call site's children
 * are its parameters: their subtrees, most of a unit, are stepped over
 * (DW_AT_sibling). */
static bool holds_types(uint16_t tag)
{
	return tag != DW_TAG_inlined_subroutine && tag != DW_TAG_call_site &&
	       tag != DW_TAG_GNU_call_site && tag != DW_TAG_formal_parameter &&
	       tag != DW_TAG_variable;
}

/* A struct's members (bit fields aside) to q, and the types below e. */
static bool unit_kids(const struct dw_entry *e, const struct dw_unit_types *q, int depth);

static bool unit_members(const struct dw_entry *s, const struct dw_unit_types *q)
{
	struct dw_entry c;
	struct dw_kids k;
	struct dw_val v;
	uint64_t off;
	int res;

	dw_kids_begin(s, &k);
	while ((res = dw_kids_next(&k, &c)) > 0) {
		if ((c.d.ab->tag != DW_TAG_member && c.d.ab->tag != DW_TAG_inheritance) ||
		    dw_entry_attr(&c, DW_AT_bit_size, &v) ||
		    dw_entry_attr(&c, DW_AT_data_bit_offset, &v))
			continue;
		if (!member_offset(&c, &off))
			return false;
		q->member(q->ctx, s->d.off, off, dw_entry_ref(&c, DW_AT_type));
	}
	return res == 0;
}

static bool unit_kids(const struct dw_entry *e, const struct dw_unit_types *q, int depth)
{
	struct dw_entry c;
	struct dw_kids k;
	int res;

	if (depth > MAX_TYPE_NEST)
		return false;
	dw_kids_begin(e, &k);
	while ((res = dw_kids_next(&k, &c)) > 0) {
		uint16_t tag = c.d.ab->tag;

		if (dw_is_qualifier(tag))
			q->alias(q->ctx, c.d.off, dw_entry_ref(&c, DW_AT_type), false);
		else if (tag == DW_TAG_array_type)
			q->alias(q->ctx, c.d.off, dw_entry_ref(&c, DW_AT_type), true);
		else if (is_struct_tag(tag) && !dw_entry_has(&c, DW_AT_declaration) &&
			 !unit_members(&c, q))
			return false;
		if (c.d.ab->children && holds_types(tag) && !unit_kids(&c, q, depth + 1))
			return false;
	}
	return res == 0;
}

bool dw_unit_types(struct dw_reader *r, uint64_t off, const struct dw_unit_types *q,
		   uint64_t *lo, uint64_t *hi)
{
	struct dw_entry e, root;
	bool ok = false;

	dw_reader_begin(r);
	if (dw_entry_at(r, off, &e) && dw_entry_at(r, e.u->first_die, &root)) {
		*lo = e.u->off;
		*hi = e.u->end;
		ok = unit_kids(&root, q, 0);
	}
	dw_reader_end(r);
	return ok;
}
