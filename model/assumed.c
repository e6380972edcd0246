/*
 * assumed.c - the sets of --indirect=address-taken (struct sp_assumed):
 * membership, the union of a caller's blocks, and the calls out of a
 * function as they would be with the sets expanded into edges.
 */
#include "stackprof.h"

#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"

const uint32_t *sp_assumed_blocks(const struct sp_graph *g, const struct sp_func *f)
{
	return f->assumed != SP_NONE && f->assumed < g->assumed.nlists ?
	       g->assumed.lists + f->assumed : NULL;
}

bool sp_assumes(const struct sp_graph *g, uint32_t from, uint32_t to)
{
	const struct sp_assumed *a = &g->assumed;
	const uint32_t *b = sp_assumed_blocks(g, &g->funcs[from]);

	if (!b || to >= a->nfuncs || a->block_of[to] == SP_NONE)
		return false;
	for (; *b != SP_NONE; b++)
		if (*b == SP_ASSUMED_ALL || *b == a->block_of[to])
			return true;
	return false;
}

static int id_cmp(const void *pa, const void *pb)
{
	uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;

	return (a > b) - (a < b);
}

size_t sp_assumed_targets(const struct sp_graph *g, uint32_t from, const uint8_t *skip,
			  uint32_t **out)
{
	const struct sp_assumed *a = &g->assumed;
	const uint32_t *b = sp_assumed_blocks(g, &g->funcs[from]), *k;
	size_t n = 0, nblocks = 0;

	*out = NULL;
	for (k = b; k && *k != SP_NONE; k++)
		if (!skip || !skip[*k]) {
			n += a->first[*k + 1] - a->first[*k];
			nblocks++;
		}
	if (!n)
		return 0;
	*out = sp_xmalloc(n * sizeof(**out));
	n = 0;
	for (k = b; *k != SP_NONE; k++) {
		uint32_t len = a->first[*k + 1] - a->first[*k];

		if (skip && skip[*k])
			continue;
		memcpy(*out + n, a->ids + a->first[*k], len * sizeof(**out));
		n += len;
	}
	/* the blocks of one list are disjoint: one sort makes the union */
	if (nblocks > 1)
		qsort(*out, n, sizeof(**out), id_cmp);
	return n;
}

void sp_calls_begin(struct sp_calls *it, const struct sp_graph *g, uint32_t from,
		    const uint8_t *skip)
{
	const struct sp_func *f = &g->funcs[from];

	it->e = f->edge_count ? g->edges + f->edge_first : NULL;
	it->end = it->e ? it->e + f->edge_count : NULL;
	it->ntargets = sp_assumed_targets(g, from, skip, &it->targets);
	it->next = 0;
	it->from = from;
}

/*
 * Edges are sorted by (to, kind): an assumed target comes before the
 * own edges to a later function, and merges with an own CALL edge to
 * itself as sp_graph_finalize() merges duplicates: the first (pc 0, the
 * assumed one) stays, with the flags both share.
 */
bool sp_calls_next(struct sp_calls *it, struct sp_edge *out)
{
	bool own = it->e && it->e < it->end;
	bool set = it->next < it->ntargets;

	if (set && (!own || it->targets[it->next] <= it->e->to)) {
		uint32_t to = it->targets[it->next++];

		out->from = it->from;
		out->to = to;
		out->kind = SP_EDGE_CALL;
		out->flags = SP_EDGE_F_ASSUMED;
		out->how = SP_RES_NONE;
		out->pc = 0;
		if (own && it->e->to == to && it->e->kind == SP_EDGE_CALL)
			out->flags &= (it->e++)->flags;
		return true;
	}
	if (!own)
		return false;
	*out = *it->e++;
	return true;
}

void sp_calls_end(struct sp_calls *it)
{
	free(it->targets);
	it->targets = NULL;
	it->ntargets = 0;
}

uint64_t sp_assumed_edges(const struct sp_graph *g)
{
	uint64_t n = 0;
	uint32_t i;

	for (i = 0; i < g->nfuncs; i++) {
		const struct sp_func *f = &g->funcs[i];
		const uint32_t *b = sp_assumed_blocks(g, f);
		const struct sp_edge *e;

		for (; b && *b != SP_NONE; b++)
			n += g->assumed.first[*b + 1] - g->assumed.first[*b];
		if (!sp_assumed_blocks(g, f))
			continue;
		/* an own CALL edge to an assumed target is one edge, not two */
		sp_func_for_each_edge(g, f, e)
			if (e->kind == SP_EDGE_CALL && sp_assumes(g, i, e->to))
				n--;
	}
	return n;
}

static void expand_one(struct sp_graph *g, uint32_t id)
{
	uint32_t *t;
	size_t n = sp_assumed_targets(g, id, NULL, &t), k;

	for (k = 0; k < n; k++) {
		sp_graph_add_edge(g, id, t[k], SP_EDGE_CALL, 0);
		g->edges[g->nedges - 1].flags = SP_EDGE_F_ASSUMED;
	}
	free(t);
	g->funcs[id].assumed = SP_NONE;
}

void sp_graph_expand_assumed(struct sp_graph *g, uint32_t id)
{
	uint32_t i;

	if (id != SP_NONE) {
		if (sp_assumed_blocks(g, &g->funcs[id]))
			expand_one(g, id);
		return;
	}
	for (i = 0; i < g->nfuncs; i++)
		if (sp_assumed_blocks(g, &g->funcs[i]))
			expand_one(g, i);
	if (!g->finalized)
		sp_graph_finalize(g);
}

void sp_assumed_release(struct sp_assumed *a)
{
	free(a->ids);
	free(a->first);
	free(a->block_of);
	free(a->lists);
	memset(a, 0, sizeof(*a));
}
