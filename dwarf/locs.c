/*
 * locs.c - which parameter or variable a register holds, by pc: the
 * locations of one function's DIE subtree (its own, and those of the
 * functions inlined into it), and the type a declaration has.
 *
 * Only a location that is the register itself, or its value plus an
 * offset, counts (dw_expr_reg_plus), or a place in memory whose address
 * is loaded through a register (dw_expr_mem_path: a variable GCC keeps
 * where the code loaded it from, `rft = of->kn->priv`).  A
 * location list that cannot be read to its end, or one of whose
 * expressions does not read, locates nothing; an entry whose addresses
 * cannot be had is left out; nothing else changes.
 *
 * And what a call passes in a register (DW_TAG_call_site_parameter).
 */
#include "dwarf/internal.h"

#include <stdlib.h>

#include "common/xalloc.h"

#define MAX_SCOPE_DEPTH 64	/* lexical blocks and inlined subroutines */

uint64_t dw_decl_type(struct dw_reader *r, uint64_t off)
{
	struct dw_entry e;
	uint64_t type;

	dw_reader_begin(r);
	type = dw_entry_follow(r, off, DW_AT_type, &e) == 1 ? dw_entry_ref(&e, DW_AT_type) : 0;
	dw_reader_end(r);
	return type;
}

/* The origins' types kept for the unit of cu only: a unit's inlined
 * copies name its own abstract DIEs, and a map of one unit's stays in
 * the caches, where the whole kernel's missed them at each lookup. */
static void origins_of_unit(struct dw_reader *r, uint32_t cu)
{
	if (r->origin_type.nslots && r->origin_cu == cu)
		return;
	if (r->origin_type.nslots)
		sp_u64map_release(&r->origin_type);
	sp_u64map_init(&r->origin_type, 256);
	r->ntypes_of = 0;
	r->origin_cu = cu;
}

/* A variable's type: its own DW_AT_type, or its abstract origin's (the
 * same for every copy inlined: kept by the reader). */
static uint64_t var_type(struct dw_reader *r, const struct dw_entry *e)
{
	uint64_t type = dw_entry_ref(e, DW_AT_type), origin;
	struct dw_entry decl;
	uint32_t k;

	if (type)
		return type;
	origin = dw_entry_ref(e, DW_AT_abstract_origin);
	if (!origin)
		return 0;
	origins_of_unit(r, e->cu);
	k = sp_u64map_get(&r->origin_type, origin);
	if (k != SP_NONE)
		return r->types_of[k];
	type = dw_entry_follow(r, origin, DW_AT_type, &decl) == 1 ?
	       dw_entry_ref(&decl, DW_AT_type) : 0;
	SP_ALLOC_GROW(r->types_of, r->ntypes_of + 1, r->types_of_cap);
	r->types_of[r->ntypes_of] = type;
	sp_u64map_put(&r->origin_type, origin, (uint32_t)r->ntypes_of++);
	return type;
}

/* The entries of one location description, kept until it is known to
 * read to its end. */
struct spans {
	struct dw_span *v;
	size_t n, cap;
	struct dw_opsizes z;
	bool bad;
};

static void keep_span(void *ctx, const struct dw_span *s)
{
	struct spans *l = ctx;

	if (!dw_expr_valid(s->expr, s->len, &l->z))
		l->bad = true;
	SP_ALLOC_GROW(l->v, l->n + 1, l->cap);
	l->v[l->n++] = *s;
}

/* [lo, hi) of a scope's one range; false when it has none (DW_AT_ranges). */
static bool scope_range(const struct dw_entry *e, uint64_t *lo, uint64_t *hi)
{
	struct dw_val v;

	if (!dw_entry_attr(e, DW_AT_low_pc, &v) || !dw_val_addr(e->u, &v, lo) ||
	    !dw_entry_attr(e, DW_AT_high_pc, &v))
		return false;
	if (dw_val_udata(&v, hi))
		*hi += *lo;	/* a constant: the size */
	else if (!dw_val_addr(e->u, &v, hi))
		return false;
	return true;
}

struct scope {
	struct dw_reader *r;
	const uint64_t *pcs;
	size_t npcs;
	const struct dw_reg_vars *q;
	struct spans spans;
	bool cfa;		/* the frame base is DW_OP_call_frame_cfa */
	uint64_t lo, hi;	/* the innermost scope's range, all when unknown */
};

/* A span of variable e in the frame (DW_OP_fbreg), to s->q: one
 * expression for the whole scope lives only in the scope (two scopes
 * apart may share the slot). */
static bool in_frame(struct scope *s, const struct dw_span *x, uint64_t type)
{
	uint64_t lo = x->lo, hi = x->hi;
	int64_t off;

	if (!s->cfa || !s->q->in_frame || !dw_expr_fbreg(x->expr, x->len, &s->spans.z, &off))
		return false;
	if (lo < s->lo)
		lo = s->lo;
	if (hi > s->hi)
		hi = s->hi;
	if (hi > lo)
		s->q->in_frame(s->q->ctx, lo, hi, off, type);
	return true;
}

/* A variable whose value was the entry's register reg plus off where it
 * is DW_OP_entry_value(reg) + off, each such span saying the same: each
 * span where it is located at all, to q (clamped to its scope). */
static void at_entry(struct scope *s, uint64_t type)
{
	const struct spans *l = &s->spans;
	uint8_t reg = DW_REG_NONE, r;
	int64_t off = 0, o;
	size_t i;

	for (i = 0; i < l->n; i++) {
		const struct dw_span *x = &l->v[i];

		if (!x->known ||
		    (r = dw_expr_entry_plus(x->expr, x->len, &l->z, &o)) == DW_REG_NONE)
			continue;
		/* assigned twice: which value holds where is not known */
		if (reg != DW_REG_NONE && (r != reg || o != off))
			return;
		reg = r;
		off = o;
	}
	for (i = 0; reg != DW_REG_NONE && i < l->n; i++) {
		uint64_t lo = l->v[i].lo > s->lo ? l->v[i].lo : s->lo;
		uint64_t hi = l->v[i].hi < s->hi ? l->v[i].hi : s->hi;

		if (l->v[i].known && hi > lo)
			s->q->at_entry(s->q->ctx, lo, hi, reg, off, type);
	}
}

/* Where the variable e (of type type) is a register or a frame slot, to q. */
static void locate(struct scope *s, const struct dw_entry *e, uint64_t type)
{
	const struct dw_reg_vars *q = s->q;
	struct spans *l = &s->spans;
	int64_t path[DW_MEM_PATH];
	struct dw_val v;
	size_t i;
	int n;

	if (!dw_entry_attr(e, DW_AT_location, &v))
		return;
	l->n = 0;
	l->bad = false;
	l->z = dw_unit_opsizes(e->u);
	if (dw_val_locations(e->u, &v, keep_span, l) || l->bad)
		return;
	for (i = 0; i < l->n; i++) {
		const struct dw_span *x = &l->v[i];
		uint8_t reg;
		int64_t off;

		if (!x->known || x->hi <= x->lo || in_frame(s, x, type))
			continue;
		if ((reg = dw_expr_reg_plus(x->expr, x->len, &l->z, &off)) != DW_REG_NONE)
			q->found(q->ctx, x->lo, x->hi, reg, off, type);
		else if (q->in_memory &&
			 (reg = dw_expr_mem_path(x->expr, x->len, &l->z, path, DW_MEM_PATH,
						 &n)) != DW_REG_NONE)
			q->in_memory(q->ctx, x->lo, x->hi, reg, path, n, 0, type);
		else if (q->in_memory &&
			 (reg = dw_expr_mem_value(x->expr, x->len, &l->z, path, DW_MEM_PATH,
						  &n, &off)) != DW_REG_NONE)
			q->in_memory(q->ctx, x->lo, x->hi, reg, path, n, off, type);
	}
	if (q->at_entry)
		at_entry(s, type);
}

static bool holds_pc(uint64_t lo, uint64_t hi, const uint64_t *pcs, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (pcs[i] >= lo && pcs[i] < hi)
			return true;
	return false;
}

/* Does a block or an inlined call hold one of the pcs asked about?  Its
 * variables live only there.  One with DW_AT_ranges is entered. */
static bool scope_wanted(const struct dw_entry *e, const uint64_t *pcs, size_t n)
{
	uint64_t lo, hi;

	return !scope_range(e, &lo, &hi) || holds_pc(lo, hi, pcs, n);
}

/* The variables of the block or inlined call c, when it holds one of
 * the pcs, read inside its range (all of it with DW_AT_ranges). */
static void read_scope(struct scope *s, const struct dw_entry *scope, int depth,
		       uint64_t *end);

static void enter_scope(struct scope *s, const struct dw_entry *c, int depth, uint64_t *end)
{
	uint64_t lo = s->lo, hi = s->hi, clo, chi;
	bool ranged = scope_range(c, &clo, &chi);

	if (ranged && !holds_pc(clo, chi, s->pcs, s->npcs))
		return;
	s->lo = ranged ? clo : 0;
	s->hi = ranged ? chi : UINT64_MAX;
	read_scope(s, c, depth, end);
	s->lo = lo;
	s->hi = hi;
}

/* The variables of scope and of the scopes in it that hold the pcs;
 * past scope's children into *end, 0 when they were not read to it. */
static void read_scope(struct scope *s, const struct dw_entry *scope, int depth,
		       uint64_t *end)
{
	struct dw_kids k;
	struct dw_entry c;
	uint64_t type;

	*end = 0;
	if (depth > MAX_SCOPE_DEPTH)
		return;
	dw_kids_begin(scope, &k);
	while (dw_kids_next(&k, &c) > 0) {
		switch (c.d.ab->tag) {
		case DW_TAG_formal_parameter:
		case DW_TAG_variable:
			/* most of an inlined copy's have no location: their
			 * types (through the abstract origin) are not read */
			if (!dw_entry_has(&c, DW_AT_location))
				break;
			type = var_type(s->r, &c);
			if (type && s->q->wanted(s->q->ctx, type))
				locate(s, &c, type);
			break;
		case DW_TAG_lexical_block:
		case DW_TAG_inlined_subroutine:
			enter_scope(s, &c, depth + 1, &k.after);
			break;
		}
	}
	*end = k.state == 0 ? k.end : 0;
}

void dw_func_reg_vars(struct dw_reader *r, uint64_t die, const uint64_t *pcs, size_t npcs,
		      const struct dw_reg_vars *q)
{
	struct scope s = { .r = r, .pcs = pcs, .npcs = npcs, .q = q, .hi = UINT64_MAX };
	struct dw_entry e;
	struct dw_val v;
	const unsigned char *b;
	uint64_t end, len;

	dw_reader_begin(r);
	if (dw_entry_at(r, die, &e)) {
		struct dw_opsizes z = dw_unit_opsizes(e.u);

		s.cfa = dw_entry_attr(&e, DW_AT_frame_base, &v) && dw_val_block(&v, &b, &len) &&
			dw_expr_is_cfa(b, len, &z);
		read_scope(&s, &e, 0, &end);
	}
	dw_reader_end(r);
	free(s.spans.v);
}

/* ---- what a call passes ---- */

/* The value a DW_AT_call_value expression [p, p + len) is. */
static struct dw_call_arg arg_value(const unsigned char *p, uint64_t len,
				    const struct dw_opsizes *z)
{
	struct dw_call_arg a = { .kind = DW_ARG_UNKNOWN, .reg = DW_REG_NONE };
	struct dw_bytes b;
	struct dw_op op;
	int64_t c;

	if (dw_expr_addr(p, len, z, &a.addr) || (dw_expr_constant(p, len, z, &c) && !c)) {
		a.kind = DW_ARG_ADDR;	/* NULL is address 0 */
		return a;
	}
	dw_bytes_init(&b, p, len, z->msb);
	if (!dw_op_read(&b, z, &op) || dw_bytes_left(&b) ||
	    (op.code != DW_OP_entry_value && op.code != DW_OP_GNU_entry_value))
		return a;
	a.reg = dw_expr_reg(op.block, op.len, z);
	if (a.reg != DW_REG_NONE)
		a.kind = DW_ARG_ENTRY;
	return a;
}

/* The parameter of the call site e that is register reg. */
static struct dw_call_arg site_arg(const struct dw_entry *site, uint8_t reg)
{
	struct dw_call_arg none = { .kind = DW_ARG_UNKNOWN, .reg = DW_REG_NONE };
	struct dw_opsizes z = dw_unit_opsizes(site->u);
	struct dw_kids k;
	struct dw_entry c;
	struct dw_val v;
	const unsigned char *p;
	uint64_t len;

	dw_kids_begin(site, &k);
	while (dw_kids_next(&k, &c) > 0) {
		uint16_t tag = c.d.ab->tag;

		if ((tag != DW_TAG_call_site_parameter && tag != DW_TAG_GNU_call_site_parameter) ||
		    !dw_entry_attr(&c, DW_AT_location, &v) || !dw_val_block(&v, &p, &len) ||
		    dw_expr_reg(p, len, &z) != reg)
			continue;
		if ((dw_entry_attr(&c, DW_AT_call_value, &v) ||
		     dw_entry_attr(&c, DW_AT_GNU_call_site_value, &v)) &&
		    dw_val_block(&v, &p, &len))
			return arg_value(p, len, &z);
		return none;
	}
	return none;
}

static bool site_returns_to(const struct dw_entry *e, uint64_t ret_pc)
{
	struct dw_val v;
	uint64_t pc;

	return (dw_entry_attr(e, DW_AT_call_return_pc, &v) || dw_entry_attr(e, DW_AT_low_pc, &v)) &&
	       dw_val_addr(e->u, &v, &pc) && pc == ret_pc;
}

/* The call site under scope that returns to ret_pc into *out. */
static bool find_site(const struct dw_entry *scope, uint64_t ret_pc, int depth,
		      struct dw_entry *out)
{
	uint64_t call = ret_pc - 1;
	struct dw_kids k;
	struct dw_entry c;

	if (depth > MAX_SCOPE_DEPTH)
		return false;
	dw_kids_begin(scope, &k);
	while (dw_kids_next(&k, &c) > 0) {
		switch (c.d.ab->tag) {
		case DW_TAG_call_site:
		case DW_TAG_GNU_call_site:
			if (site_returns_to(&c, ret_pc)) {
				*out = c;
				return true;
			}
			break;
		case DW_TAG_lexical_block:
		case DW_TAG_inlined_subroutine:
			if (scope_wanted(&c, &call, 1) && find_site(&c, ret_pc, depth + 1, out))
				return true;
			break;
		}
	}
	return false;
}

uint64_t dw_call_type(struct dw_reader *r, uint64_t die, uint64_t ret_pc)
{
	struct dw_entry e, site;
	uint64_t origin = 0;

	/* the chains of the stores into what one call returned (p =
	 * kzalloc(); p->a = f; p->b = g) ask about that call in turn */
	if (r->call_type_pc && r->call_type_pc == ret_pc && r->call_type_die == die)
		return r->call_type;
	dw_reader_begin(r);
	if (ret_pc && dw_entry_at(r, die, &e) && find_site(&e, ret_pc, 0, &site) &&
	    !(origin = dw_entry_ref(&site, DW_AT_call_origin)))
		origin = dw_entry_ref(&site, DW_AT_abstract_origin);	/* GNU's */
	dw_reader_end(r);
	r->call_type_die = die;
	r->call_type_pc = ret_pc;
	r->call_type = origin ? dw_decl_type(r, origin) : 0;
	return r->call_type;
}

struct dw_call_arg dw_call_arg(struct dw_reader *r, uint64_t die, uint64_t ret_pc, uint8_t reg)
{
	struct dw_call_arg a = { .kind = DW_ARG_UNKNOWN, .reg = DW_REG_NONE };
	struct dw_entry e, site;

	dw_reader_begin(r);
	if (ret_pc && dw_entry_at(r, die, &e) && find_site(&e, ret_pc, 0, &site))
		a = site_arg(&site, reg);
	dw_reader_end(r);
	return a;
}
