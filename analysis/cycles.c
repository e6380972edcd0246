/*
 * cycles.c - a cycle through each member of a large recursive component,
 * for the reasons, found once for the whole component.
 *
 * The reasons name a cycle through each recursion witness, and every
 * member of a recursive component is its own witness.  A search per
 * member from scratch (analysis/reasons.c, the shortest cycle) costs a
 * search of the component each: with --indirect=types' prototype calls
 * a kernel has one of ~30,000 functions, and a JSON report spent over a
 * minute there.  Here two searches serve them all: from a root to every
 * member, and from every member back to it (over the component's calls
 * reversed).  Member to root to member is a closed walk; cutting out the
 * loops where it meets itself leaves a simple cycle, not always the
 * shortest: the root is the member with the most calls both in and out
 * of the component, which keeps them short.  Small components keep the
 * shortest.
 */
#include "analysis/internal.h"

#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"

/* A cycle longer than twice this is left to the search per member,
 * when a reason asks for it: a ring has no other, and a cycle per
 * member of a long ring would be quadratic. */
#define MAX_HOPS 128

/* Below this many members a search per member is cheap enough (a
 * kernel's largest cycle without --indirect=types has ~1,000). */
#define SMALL_COMPONENT 2048

struct cycles {
	struct sp_graph *g;
	uint32_t *order;	/* function ids grouped by component */
	uint32_t *first;	/* per component: its start in order */
	uint32_t nscc;
	uint32_t *to_root;	/* per function: the next step towards the root */
	uint32_t *from_root;	/* per function: the step before it from the root */
	uint32_t *pos;		/* per function: its place in the walk, SP_NONE */
	uint32_t *rev_first, *rev;	/* the component's calls reversed */
	uint32_t root_pos;		/* the root's place in the component */
	uint32_t *queue, *walk;
	size_t nwalk;
};

static void group_components(struct cycles *c)
{
	struct sp_graph *g = c->g;
	uint32_t i, s;

	c->nscc = 0;
	for (i = 0; i < g->nfuncs; i++)
		if (g->funcs[i].res.scc != SP_NONE && g->funcs[i].res.scc >= c->nscc)
			c->nscc = g->funcs[i].res.scc + 1;
	c->first = sp_xcalloc((size_t)c->nscc + 1, sizeof(*c->first));
	for (i = 0; i < g->nfuncs; i++)
		if ((s = g->funcs[i].res.scc) != SP_NONE)
			c->first[s + 1]++;
	for (s = 0; s < c->nscc; s++)
		c->first[s + 1] += c->first[s];
	c->order = sp_xmalloc(((size_t)c->first[c->nscc] + 1) * sizeof(*c->order));
	/* first[s] walks up while filling, then is set back */
	for (i = 0; i < g->nfuncs; i++)
		if ((s = g->funcs[i].res.scc) != SP_NONE)
			c->order[c->first[s]++] = i;
	for (s = c->nscc; s > 0; s--)
		c->first[s] = c->first[s - 1];
	c->first[0] = 0;
}

static bool in_component(const struct sp_graph *g, uint32_t id, uint32_t scc)
{
	return g->funcs[id].res.scc == scc;
}

/* Breadth first from root: from_root[] for every member. */
static void search_from_root(struct cycles *c, uint32_t root, uint32_t scc)
{
	const struct sp_graph *g = c->g;
	const struct sp_edge *e;
	size_t head = 0, tail = 0;

	c->queue[tail++] = root;
	c->from_root[root] = root;
	while (head < tail) {
		uint32_t x = c->queue[head++];

		sp_func_for_each_edge(g, &g->funcs[x], e)
			if (in_component(g, e->to, scc) && c->from_root[e->to] == SP_NONE) {
				c->from_root[e->to] = x;
				c->queue[tail++] = e->to;
			}
	}
}

/* The component's calls reversed, members indexed by place in order[]:
 * rev[rev_first[k] ..) are the callers of order[lo + k]. */
static void reverse_calls(struct cycles *c, uint32_t lo, uint32_t n, uint32_t scc)
{
	const struct sp_graph *g = c->g;
	const struct sp_edge *e;
	uint32_t k;

	memset(c->rev_first, 0, ((size_t)n + 1) * sizeof(*c->rev_first));
	for (k = 0; k < n; k++)
		c->pos[c->order[lo + k]] = k;
	for (k = 0; k < n; k++)
		sp_func_for_each_edge(g, &g->funcs[c->order[lo + k]], e)
			if (in_component(g, e->to, scc))
				c->rev_first[c->pos[e->to] + 1]++;
	for (k = 0; k < n; k++)
		c->rev_first[k + 1] += c->rev_first[k];
	c->rev = sp_xmalloc(((size_t)c->rev_first[n] + 1) * sizeof(*c->rev));
	for (k = 0; k < n; k++)
		sp_func_for_each_edge(g, &g->funcs[c->order[lo + k]], e)
			if (in_component(g, e->to, scc))
				c->rev[c->rev_first[c->pos[e->to]]++] = c->order[lo + k];
	for (k = n; k > 0; k--)
		c->rev_first[k] = c->rev_first[k - 1];
	c->rev_first[0] = 0;
}

/* The member with the most calls both in and out of the component:
 * cycles through it are short. */
static uint32_t pick_root(struct cycles *c, uint32_t lo, uint32_t n, uint32_t scc)
{
	const struct sp_graph *g = c->g;
	const struct sp_edge *e;
	uint32_t k, best = 0, best_deg = 0;

	for (k = 0; k < n; k++) {
		uint32_t out = 0, in = c->rev_first[k + 1] - c->rev_first[k];

		sp_func_for_each_edge(g, &g->funcs[c->order[lo + k]], e)
			out += in_component(g, e->to, scc);
		if ((in < out ? in : out) > best_deg) {
			best_deg = in < out ? in : out;
			best = k;
		}
	}
	c->root_pos = best;
	return c->order[lo + best];
}

/* Breadth first from root over the reversed calls: to_root[] for every
 * member.  pos[] holds the members' places until it is reset here. */
static void search_to_root(struct cycles *c, uint32_t root, uint32_t lo, uint32_t n)
{
	size_t head = 0, tail = 0;
	uint32_t k;

	c->queue[tail++] = root;
	c->to_root[root] = root;
	while (head < tail) {
		uint32_t x = c->queue[head++], p = c->pos[x];

		for (k = c->rev_first[p]; k < c->rev_first[p + 1]; k++)
			if (c->to_root[c->rev[k]] == SP_NONE) {
				c->to_root[c->rev[k]] = x;
				c->queue[tail++] = c->rev[k];
			}
	}
	for (k = 0; k < n; k++)
		c->pos[c->order[lo + k]] = SP_NONE;
}

/* Add x to the walk; if it is there already, the loop since is cut. */
static void walk_add(struct cycles *c, uint32_t x)
{
	if (c->pos[x] != SP_NONE) {
		while (c->nwalk > c->pos[x] + 1)
			c->pos[c->walk[--c->nwalk]] = SP_NONE;
		return;
	}
	c->pos[x] = (uint32_t)c->nwalk;
	c->walk[c->nwalk++] = x;
}

/* The steps from the root down to t, t included, the root not. */
static void walk_from_root(struct cycles *c, uint32_t root, uint32_t t)
{
	size_t n = 0, i;
	uint32_t x;

	for (x = t; x != root; x = c->from_root[x])
		c->queue[n++] = x;
	for (i = n; i-- > 0;)
		walk_add(c, c->queue[i]);
}

/* Is x at most MAX_HOPS steps of next[] from the root? */
static bool near_root(const uint32_t *next, uint32_t x, uint32_t root)
{
	uint32_t hops;

	for (hops = 0; x != root; x = next[x])
		if (++hops > MAX_HOPS)
			return false;
	return true;
}

/*
 * w -> ... -> root -> ... -> w, loops cut, as a segment of the steps
 * after w (the last is w again) in w's result.cycle.  The root goes
 * down to a caller of its own, then back.  Cutting a loop keeps the
 * last step, so the walk still ends at a caller of w.
 */
static void record(struct cycles *c, uint32_t root, uint32_t w)
{
	struct sp_graph *g = c->g;
	struct sp_path_seg *seg;
	uint32_t x, t = w == root ? c->rev[c->rev_first[c->root_pos]] : c->from_root[w];
	size_t i;

	if (!near_root(c->to_root, w, root) || !near_root(c->from_root, t, root))
		return;
	c->nwalk = 0;
	walk_add(c, w);
	for (x = w; x != root; x = c->to_root[x])
		walk_add(c, c->to_root[x]);
	walk_from_root(c, root, t);
	SP_ALLOC_GROW(g->segs, (size_t)g->nsegs + 1, g->segs_cap);
	seg = &g->segs[g->nsegs];
	seg->first = g->nsteps;
	seg->n = 0;
	seg->cont = SP_NONE;
	for (i = 1; i <= c->nwalk; i++) {
		struct sp_path_step *st;

		SP_ALLOC_GROW(g->steps, (size_t)g->nsteps + 1, g->steps_cap);
		st = &g->steps[g->nsteps++];
		*st = (struct sp_path_step){ .func = i < c->nwalk ? c->walk[i] : w,
					     .kind = SP_EDGE_CALL };
		seg->n++;
	}
	for (i = 0; i < c->nwalk; i++)
		c->pos[c->walk[i]] = SP_NONE;
	g->funcs[w].res.cycle = g->nsegs++;
}

static void cycles_init(struct cycles *c, struct sp_graph *g)
{
	size_t n = g->nfuncs ? g->nfuncs : 1;

	memset(c, 0, sizeof(*c));
	c->g = g;
	group_components(c);
	c->to_root = sp_xmalloc(n * sizeof(*c->to_root));
	c->from_root = sp_xmalloc(n * sizeof(*c->from_root));
	c->pos = sp_xmalloc(n * sizeof(*c->pos));
	memset(c->to_root, 0xff, n * sizeof(*c->to_root));
	memset(c->from_root, 0xff, n * sizeof(*c->from_root));
	memset(c->pos, 0xff, n * sizeof(*c->pos));
	c->rev_first = sp_xmalloc((n + 1) * sizeof(*c->rev_first));
	c->queue = sp_xmalloc(n * sizeof(*c->queue));
	c->walk = sp_xmalloc(n * sizeof(*c->walk));
}

static void cycles_release(struct cycles *c)
{
	free(c->order);
	free(c->first);
	free(c->to_root);
	free(c->from_root);
	free(c->pos);
	free(c->rev_first);
	free(c->queue);
	free(c->walk);
}

void sp_index_cycles(struct sp_graph *g)
{
	struct cycles c;
	uint32_t s, k;

	/* --indirect=address-taken's sets are calls no edge lists */
	if (g->assumed.nblocks)
		return;
	cycles_init(&c, g);
	for (s = 0; s < c.nscc; s++) {
		uint32_t lo = c.first[s], n = c.first[s + 1] - lo, root;

		if (n < SMALL_COMPONENT)
			continue;
		reverse_calls(&c, lo, n, s);
		root = pick_root(&c, lo, n, s);
		search_from_root(&c, root, s);
		search_to_root(&c, root, lo, n);
		for (k = 0; k < n; k++)
			record(&c, root, c.order[lo + k]);
		free(c.rev);
	}
	cycles_release(&c);
}

/* An open cycle: one its members' totals are unbounded by, which no
 * 'recursion' line bounds (solve.c gives such a member the cause). */
static bool open_member(const struct sp_func *f)
{
	return (f->flags & SP_F_RECURSIVE) && !(f->flags & SP_F_DEPTH_BOUNDED);
}

void sp_cycle_stats(const struct sp_graph *g, struct sp_cycle_stats *out)
{
	uint32_t nscc = 0, *size, *open, i;

	*out = (struct sp_cycle_stats){ .largest_root = SP_NONE };
	for (i = 0; i < g->nfuncs; i++) {
		if (g->funcs[i].res.scc != SP_NONE && g->funcs[i].res.scc >= nscc)
			nscc = g->funcs[i].res.scc + 1;
		if (g->funcs[i].res.witness[SP_CAUSE_RECURSION] != SP_NONE)
			out->unbounded++;
	}
	size = sp_xcalloc((size_t)nscc + 1, sizeof(*size));
	open = sp_xcalloc((size_t)nscc + 1, sizeof(*open));
	for (i = 0; i < g->nfuncs; i++) {
		uint32_t s = g->funcs[i].res.scc;

		if (s == SP_NONE || !open_member(&g->funcs[i]))
			continue;
		if (!open[s]++)
			out->components++;
		/* a function with code names it rather than a hub node */
		if (++size[s] > out->largest ||
		    (size[s] == out->largest && !g->funcs[out->largest_root].addr)) {
			out->largest = size[s];
			out->largest_root = i;
		}
	}
	free(open);
	free(size);
}
