/*
 * unknown.c - which unknown frames make the most totals partial (-v):
 * a kernel's one unreadable frame deep in the scheduler can make three
 * totals in four partial, and the reasons name only the nearest.
 */
#include "analysis/analysis.h"

#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"

/* The edges into each function: into[first[t] .. first[t + 1]) are the
 * callers of t. */
struct callers {
	uint32_t *first, *from;
};

static void callers_build(const struct sp_graph *g, struct callers *c)
{
	uint32_t i;

	c->first = sp_xcalloc((size_t)g->nfuncs + 2, sizeof(*c->first));
	c->from = sp_xmalloc(((size_t)g->nedges + 1) * sizeof(*c->from));
	for (i = 0; i < g->nedges; i++)
		c->first[g->edges[i].to + 2]++;
	for (i = 2; i < g->nfuncs + 2; i++)
		c->first[i] += c->first[i - 1];
	for (i = 0; i < g->nedges; i++)
		c->from[c->first[g->edges[i].to + 1]++] = g->edges[i].from;
}

/* The functions from which id is reached, id included. */
static uint32_t reaching(const struct sp_graph *g, const struct callers *c, uint32_t id,
			 uint8_t *seen, uint32_t *queue)
{
	uint32_t head = 0, tail = 0, k;

	memset(seen, 0, g->nfuncs);
	seen[id] = 1;
	queue[tail++] = id;
	while (head < tail) {
		uint32_t t = queue[head++];

		for (k = c->first[t]; k < c->first[t + 1]; k++)
			if (!seen[c->from[k]]) {
				seen[c->from[k]] = 1;
				queue[tail++] = c->from[k];
			}
	}
	return tail;
}

static int by_totals(const void *a, const void *b)
{
	const struct sp_unknown_rank *x = a, *y = b;

	if (x->totals != y->totals)
		return x->totals < y->totals ? 1 : -1;
	return x->func < y->func ? -1 : x->func > y->func;
}

size_t sp_unknown_ranking(const struct sp_graph *g, struct sp_unknown_rank *out, size_t max)
{
	uint32_t *nearest = sp_xcalloc((size_t)g->nfuncs + 1, sizeof(*nearest));
	struct sp_unknown_rank *all = NULL;
	size_t nall = 0, cap = 0, i;
	struct callers c;
	uint8_t *seen;
	uint32_t *queue;

	/* ranked first by how many totals name each as nearest, so that
	 * only the few worth it are walked back */
	for (i = 0; i < g->nfuncs; i++) {
		uint32_t w = g->funcs[i].res.witness[SP_CAUSE_UNKNOWN];

		/* a call's stand-in for a function of another image, its
		 * calls linked to the definition, is no one's frame */
		if (w == i && (g->funcs[i].flags & SP_F_EXTERNAL))
			continue;
		if (g->funcs[i].res.partial && w != SP_NONE && !nearest[w]++) {
			SP_ALLOC_GROW(all, nall + 1, cap);
			all[nall++] = (struct sp_unknown_rank){ w, 0 };
		}
	}
	if (!nall) {
		free(nearest);
		return 0;
	}
	for (i = 0; i < nall; i++)
		all[i].totals = nearest[all[i].func];
	qsort(all, nall, sizeof(*all), by_totals);
	callers_build(g, &c);
	seen = sp_xmalloc(g->nfuncs + 1);
	queue = sp_xmalloc(((size_t)g->nfuncs + 1) * sizeof(*queue));
	for (i = 0; i < nall && i < 4 * max; i++)
		all[i].totals = reaching(g, &c, all[i].func, seen, queue) - 1;
	qsort(all, i, sizeof(*all), by_totals);
	memcpy(out, all, (i < max ? i : max) * sizeof(*out));
	free(queue);
	free(seen);
	free(c.first);
	free(c.from);
	free(all);
	free(nearest);
	return nall;
}
