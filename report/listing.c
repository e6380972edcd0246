/* listing.c - see listing.h */
#include "report/listing.h"

#include <stdlib.h>
#include <string.h>

#include "common/search.h"
#include "common/xalloc.h"

/* Put id on the list (and the stack, to list what it reaches). */
static void list_one(struct sp_listing *l, uint32_t id, uint32_t *stack, uint32_t *depth)
{
	if (l->id[id] != SP_NONE)
		return;
	l->id[id] = l->n;
	l->order[l->n++] = id;
	stack[(*depth)++] = id;
}

static uint64_t isite_func(const void *base, size_t i)
{
	return ((const struct sp_isite *)base)[i].func;
}

/* What the listed functions reach: their callees, what they call on
 * another stack and, for the sites of --indirect=types (sorted by
 * caller), the targets. */
static void list_reached(struct sp_listing *l, const struct sp_graph *g, uint32_t *stack,
			 uint32_t depth)
{
	while (depth) {
		uint32_t id = stack[--depth], k;
		const struct sp_edge *e;
		size_t i;

		sp_func_for_each_edge(g, &g->funcs[id], e)
			list_one(l, e->to, stack, &depth);
		/* a few dozen in a kernel, in no order */
		for (k = 0; k < g->nswitches; k++)
			if (g->switches[k].from == id)
				list_one(l, g->switches[k].to, stack, &depth);
		i = sp_search_first_ge(g->isites, g->nisites, isite_func, id);
		for (; i < g->nisites && g->isites[i].func == id; i++) {
			const struct sp_isite *s = &g->isites[i];

			for (k = 0; s->first != SP_NONE && k < s->ntargets; k++)
				list_one(l, g->isite_targets[s->first + k], stack, &depth);
		}
	}
}

static void list_functions(struct sp_listing *l, const struct sp_graph *g,
			   const struct sp_report_opts *o)
{
	uint32_t *sel, *stack = sp_xmalloc((g->nfuncs + 1) * sizeof(*stack)), depth = 0, i;
	size_t n = sp_report_select(g, o, &sel), k;
	int c;

	l->order = sp_xmalloc((g->nfuncs + 1) * sizeof(*l->order));
	l->id = sp_xmalloc((g->nfuncs + 1) * sizeof(*l->id));
	memset(l->id, 0xff, (g->nfuncs + 1) * sizeof(*l->id));
	for (k = 0; k < n; k++)
		list_one(l, sel[k], stack, &depth);
	l->nselected = l->n;
	for (c = 0; c < SP_KCLASS__COUNT; c++)
		for (k = 0; k < l->kernel.n[c]; k++)
			list_one(l, l->kernel.ids[c][k], stack, &depth);
	list_reached(l, g, stack, depth);
	sp_report_sort(g, l->order + l->nselected, l->n - l->nselected);
	for (i = l->nselected; i < l->n; i++)
		l->id[l->order[i]] = i;
	free(stack);
	free(sel);
}

/* Whose whole path the report shows: all, or the entries (else the
 * first --top of the selection) and the --top worst entries of each
 * kernel class, as the text report shows them. */
static void mark_shown(struct sp_listing *l, const struct sp_graph *g,
		       const struct sp_report_opts *o)
{
	uint32_t i;
	size_t k;
	int c;

	l->shown = sp_xcalloc(g->nfuncs + 1, 1);
	for (i = 0; i < l->nselected; i++)
		if (o->all_paths || o->nentries || i < o->top)
			l->shown[l->order[i]] = 1;
	for (i = l->nselected; o->all_paths && i < l->n; i++)
		l->shown[l->order[i]] = 1;
	for (c = 0; c < SP_KCLASS__COUNT; c++)
		for (k = 0; k < l->kernel.n[c] && k < o->top; k++)
			l->shown[l->kernel.ids[c][k]] = 1;
}

static void list_segment(struct sp_listing *l, const struct sp_graph *g, uint32_t s)
{
	while (s < g->nsegs && l->seg_id[s] == SP_NONE) {
		l->seg_id[s] = l->nsegs;
		l->segs[l->nsegs++] = s;
		s = g->segs[s].cont;
	}
}

/* The segments the listed functions start (either way), and those they
 * go on to. */
static void list_segments(struct sp_listing *l, const struct sp_graph *g)
{
	uint32_t i;

	l->seg_id = sp_xmalloc((g->nsegs + 1) * sizeof(*l->seg_id));
	l->segs = sp_xmalloc((g->nsegs + 1) * sizeof(*l->segs));
	memset(l->seg_id, 0xff, (g->nsegs + 1) * sizeof(*l->seg_id));
	for (i = 0; i < l->n; i++) {
		const struct sp_result *r = &g->funcs[l->order[i]].res;

		list_segment(l, g, r->seg);
		list_segment(l, g, r->certain_seg);
	}
}

void sp_listing_init(struct sp_listing *l, const struct sp_graph *g,
		     const struct sp_report_opts *o)
{
	memset(l, 0, sizeof(*l));
	if (o->kernel_summary)
		sp_kernel_entries(g, &l->kernel);
	list_functions(l, g, o);
	mark_shown(l, g, o);
	list_segments(l, g);
}

void sp_listing_release(struct sp_listing *l)
{
	sp_kernel_entries_release(&l->kernel);
	free(l->order);
	free(l->id);
	free(l->shown);
	free(l->segs);
	free(l->seg_id);
	memset(l, 0, sizeof(*l));
}

void sp_listing_step(const struct sp_listing *l, const struct sp_graph *g, uint32_t id,
		     bool certain, struct sp_listing_step *st)
{
	const struct sp_func *f = &g->funcs[id];
	const struct sp_edge *e;
	uint32_t ids[2], seg = certain ? f->res.certain_seg : f->res.seg;
	uint8_t kinds[2], flags[2], hows[2];
	size_t n = (certain ? sp_certain_path_flags : sp_assumed_path_flags)(g, id, ids, kinds,
									     flags, hows, 2);

	memset(st, 0, sizeof(*st));
	st->next = n < 2 ? SP_NONE : ids[1];
	st->seg = seg < g->nsegs ? l->seg_id[seg] : SP_NONE;
	st->call = -1;
	if (n < 2)
		return;
	st->kind = kinds[1];
	st->flags = flags[1];
	st->how = hows[1];
	sp_func_for_each_edge(g, f, e)
		if (e->to == ids[1] && e->kind == kinds[1]) {
			st->call = e - (g->edges + f->edge_first);
			break;
		}
}

bool sp_listing_steps(const struct sp_listing *l, const struct sp_graph *g, uint32_t id,
		      struct sp_listing_step *own, struct sp_listing_step *other)
{
	bool bounded = g->funcs[id].res.bounded;

	sp_listing_step(l, g, id, !bounded, own);
	sp_listing_step(l, g, id, bounded, other);
	return own->next != other->next || own->seg != other->seg ||
	       own->kind != other->kind || own->flags != other->flags || own->how != other->how;
}
