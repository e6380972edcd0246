/*
 * inlined.c - where a function holds the inlined copies of one callee.
 *
 * Read from the function's DIE subtree again, for the few functions an
 * annotation names ("FUNC/CALLEE"), not in the main walk: each
 * DW_TAG_inlined_subroutine whose abstract origin is named CALLEE gives
 * its DW_AT_low_pc/DW_AT_high_pc or DW_AT_ranges.  Nested copies count
 * (a copy inside another inlined callee is still inside FUNC's code).
 */
#include "dwarf/internal.h"

#include <string.h>

#define MAX_DEPTH 64

/* The name along e's abstract_origin/specification chain. */
static const char *origin_name(struct dw_reader *r, const struct dw_entry *e)
{
	struct dw_entry cur = *e, up;
	const char *name;
	int hops;

	for (hops = 0; hops < DW_MAX_ORIGIN_HOPS; hops++) {
		if ((name = dw_entry_name(&cur)))
			return name;
		if (dw_entry_origin(r, &cur, &up) <= 0)
			return NULL;
		cur = up;
	}
	return NULL;
}

struct span_sink {
	dw_span_range_fn *add;
	void *ctx;
};

static void add_span(void *ctx, uint64_t lo, uint64_t hi)
{
	struct span_sink *s = ctx;

	if (hi > lo)
		s->add(s->ctx, lo, hi);
}

/* The ranges of one inlined copy: low/high pc, or its range list. */
static void copy_ranges(const struct dw_entry *e, struct span_sink *s)
{
	struct dw_val v;
	uint64_t lo = 0, hi = 0;

	if (dw_entry_attr(e, DW_AT_ranges, &v)) {
		dw_val_ranges(e->u, &v, add_span, s);
		return;
	}
	if (!dw_entry_attr(e, DW_AT_low_pc, &v) || !dw_val_addr(e->u, &v, &lo) ||
	    !dw_entry_attr(e, DW_AT_high_pc, &v))
		return;
	/* a constant is the size from low_pc (DWARF 4 on) */
	if (dw_val_udata(&v, &hi))
		hi += lo;
	else if (!dw_val_addr(e->u, &v, &hi))
		return;
	add_span(s, lo, hi);
}

static void walk_copies(struct dw_reader *r, const struct dw_entry *parent, const char *callee,
			int depth, struct span_sink *s)
{
	struct dw_kids k;
	struct dw_entry c;

	if (depth > MAX_DEPTH)
		return;
	dw_kids_begin(parent, &k);
	while (dw_kids_next(&k, &c) > 0) {
		uint16_t tag = c.d.ab->tag;
		const char *name;

		if (tag != DW_TAG_inlined_subroutine && tag != DW_TAG_lexical_block)
			continue;
		if (tag == DW_TAG_inlined_subroutine && (name = origin_name(r, &c)) &&
		    !strcmp(name, callee)) {
			copy_ranges(&c, s);
			continue;	/* the copies inside it are inside its ranges */
		}
		walk_copies(r, &c, callee, depth + 1, s);
	}
}

struct copies_walk {
	const char *callee;
	struct span_sink sink;
};

static void func_copies(struct dw_reader *r, const struct dw_entry *e, void *ctx)
{
	struct copies_walk *w = ctx;

	walk_copies(r, e, w->callee, 0, &w->sink);
}

bool dw_func_inlined(struct dw_image *dw, uint32_t func, const char *callee,
		     dw_span_range_fn *add, void *ctx)
{
	struct copies_walk w = { callee, { add, ctx } };

	return dw_func_die(dw, func, func_copies, &w);
}
