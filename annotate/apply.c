/*
 * apply.c - put what an annotation file says into the graph, and the
 * --indirect=address-taken assumption.
 */
#include "annotate/annotate.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "common/search.h"
#include "common/xalloc.h"

/* Every function spec names (an error naming file:line when none). */
static int resolve(const struct sp_graph *g, const struct sp_annot *x,
		   const char *spec, uint32_t **ids,
		   size_t *n, struct sp_err *err)
{
	size_t cap = 0;

	*ids = NULL;
	*n = 0;
	if (sp_find_entries(g, spec, ids, n, &cap, NULL) || !*n) {
		free(*ids);
		*ids = NULL;
		return sp_err_set(err, "%s:%u: unknown function '%s'",
				  x->file, x->line, spec);
	}
	return 0;
}

static void add_flagged_edge(struct sp_graph *g, uint32_t from, uint32_t to, uint8_t flags)
{
	sp_graph_add_edge(g, from, to, SP_EDGE_CALL, 0);
	g->edges[g->nedges - 1].flags = flags;
}

static bool in_ids(const uint32_t *ids, size_t n, uint32_t id);

/* The annotation replaces what --indirect=address-taken assumed. */
static void drop_assumed(struct sp_graph *g, const uint32_t *from, size_t nfrom)
{
	uint32_t i, out = 0;

	for (i = 0; i < g->nedges; i++) {
		const struct sp_edge *e = &g->edges[i];

		if ((e->flags & SP_EDGE_F_ASSUMED) && in_ids(from, nfrom, e->from))
			continue;
		g->edges[out++] = *e;
	}
	g->nedges = out;
	g->finalized = false;
}

static uint64_t isite_func(const void *base, size_t i)
{
	return ((const struct sp_isite *)base)[i].func;
}

/* --indirect=types: the indirect call sites of the annotated functions
 * now call the annotation's targets. */
static void annotated_sites(struct sp_graph *g, const uint32_t *from, size_t nfrom,
			    const uint32_t *to, size_t nto)
{
	size_t i, k;

	for (i = 0; i < nfrom; i++) {
		k = sp_search_first_ge(g->isites, g->nisites, isite_func, from[i]);
		for (; k < g->nisites && g->isites[k].func == from[i]; k++) {
			g->isites[k].how = SP_RES_ANNOTATION;
			g->isites[k].type = NULL;
			sp_graph_set_isite_targets(g, &g->isites[k], to, (uint32_t)nto);
		}
	}
}

static int apply_calls(struct sp_graph *g, const struct sp_annot *x,
		       const uint32_t *from, size_t nfrom,
		       struct sp_err *err)
{
	uint32_t *to;
	size_t nto, i, j, k;

	uint32_t *all = NULL;
	size_t nall = 0, cap = 0;

	for (k = 0; k < x->nnames; k++) {
		if (resolve(g, x, x->names[k], &to, &nto, err)) {
			free(all);
			return -1;
		}
		for (i = 0; i < nfrom; i++)
			for (j = 0; j < nto; j++)
				add_flagged_edge(g, from[i], to[j], SP_EDGE_F_ANNOTATED);
		SP_ALLOC_GROW(all, nall + nto, cap);
		for (j = 0; j < nto; j++)
			all[nall++] = to[j];
		free(to);
	}
	annotated_sites(g, from, nfrom, all, nall);
	free(all);
	for (i = 0; i < nfrom; i++) {
		g->funcs[from[i]].flags |= SP_F_INDIRECT_ANNOTATED;
		g->funcs[from[i]].flags &= ~(SP_F_INDIRECT_ASSUMED | SP_F_INDIRECT_TYPED);
	}
	drop_assumed(g, from, nfrom);
	return 0;
}

static bool in_ids(const uint32_t *ids, size_t n, uint32_t id)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (ids[i] == id)
			return true;
	return false;
}

/* Drop every call from one of from to one of to.  No such call is an
 * error: the line is stale. */
static int apply_ignore(struct sp_graph *g, const struct sp_annot *x,
			const uint32_t *from, size_t nfrom,
			struct sp_err *err)
{
	uint32_t *to, i, out = 0;
	size_t nto;

	if (resolve(g, x, x->names[0], &to, &nto, err))
		return -1;
	for (i = 0; i < g->nedges; i++) {
		const struct sp_edge *e = &g->edges[i];

		if (in_ids(from, nfrom, e->from) && in_ids(to, nto, e->to))
			continue;
		g->edges[out++] = *e;
	}
	free(to);
	if (out == g->nedges)
		return sp_err_set(err, "%s:%u: no call from '%s' to '%s'",
				  x->file, x->line, x->func, x->names[0]);
	g->nedges = out;
	g->finalized = false;
	return 0;
}

static int apply_one(struct sp_graph *g, const struct sp_annot *x, struct sp_err *err)
{
	uint32_t *ids;
	size_t n, i;
	int ret = 0;

	if (resolve(g, x, x->func, &ids, &n, err))
		return -1;
	switch (x->kind) {
	case SP_ANNOT_FRAME:	/* sp_annot_frames' */
		break;
	case SP_ANNOT_CALLS:
		ret = apply_calls(g, x, ids, n, err);
		break;
	case SP_ANNOT_RECURSION:
		for (i = 0; i < n; i++)
			g->funcs[ids[i]].rec_depth = (uint32_t)x->value;
		break;
	case SP_ANNOT_ENTRY:
		for (i = 0; i < n; i++) {
			g->funcs[ids[i]].flags |= SP_F_BUDGET;
			g->funcs[ids[i]].budget = x->value;
		}
		break;
	case SP_ANNOT_IGNORE:
		ret = apply_ignore(g, x, ids, n, err);
		break;
	}
	free(ids);
	return ret;
}

/* Every name a line gives resolves: checked in file order, so that the
 * first bad line is the one named whichever pass would have used it. */
static int check_names(const struct sp_graph *g, const struct sp_annot *x, struct sp_err *err)
{
	uint32_t *ids;
	size_t n, k;

	if (resolve(g, x, x->func, &ids, &n, err))
		return -1;
	free(ids);
	for (k = 0; x->kind != SP_ANNOT_RECURSION && x->kind != SP_ANNOT_ENTRY &&
		    k < x->nnames; k++) {
		if (resolve(g, x, x->names[k], &ids, &n, err))
			return -1;
		free(ids);
	}
	return 0;
}

int sp_annot_frames(const struct sp_annots *a, const struct sp_graph *g,
		    struct sp_frames *out, struct sp_err *err)
{
	size_t i, k;

	for (i = 0; i < a->n; i++) {
		const struct sp_annot *x = &a->v[i];
		uint32_t *ids;
		size_t n;

		if (check_names(g, x, err))
			return -1;
		if (x->kind != SP_ANNOT_FRAME)
			continue;
		resolve(g, x, x->func, &ids, &n, err);
		for (k = 0; k < n; k++)
			sp_frames_add(out, ids[k], SP_QUAL_STATIC, x->value);
		free(ids);
	}
	return 0;
}

int sp_annot_apply(const struct sp_annots *a, struct sp_graph *g, struct sp_err *err)
{
	size_t i;
	int ret = 0;

	/* names resolve without the edge index: sp_analyze() indexes the
	 * edges once, whatever the lines added or removed */
	for (i = 0; i < a->n && !ret; i++)
		ret = apply_one(g, &a->v[i], err);
	return ret;
}

static int icall_cmp(const void *pa, const void *pb)
{
	const struct sp_icall *a = pa, *b = pb;

	if (a->func != b->func)
		return a->func < b->func ? -1 : 1;
	return ((uintptr_t)a->proto > (uintptr_t)b->proto) -
	       ((uintptr_t)a->proto < (uintptr_t)b->proto);
}

/* Can one of the call prototypes sites[0..n) reach f?  An unknown
 * prototype matches every one. */
static bool proto_matches(const struct sp_func *f, const struct sp_icall *sites, uint32_t n)
{
	uint32_t k;

	if (!f->proto)
		return true;
	for (k = 0; k < n; k++)
		if (sites[k].proto == f->proto)
			return true;
	return false;
}

uint32_t sp_assume_address_taken(struct sp_graph *g, const uint8_t *taken)
{
	uint32_t i, j, nfuncs = g->nfuncs, added = 0, k = 0;

	/* by caller: the typed sites of function i are one run */
	if (g->nicalls)
		qsort(g->icalls, g->nicalls, sizeof(*g->icalls), icall_cmp);
	for (i = 0; i < nfuncs; i++) {
		struct sp_func *f = &g->funcs[i];
		const struct sp_icall *sites;
		uint32_t n = 0;

		while (k < g->nicalls && g->icalls[k].func < i)
			k++;
		sites = g->icalls + k;
		while (k + n < g->nicalls && g->icalls[k + n].func == i)
			n++;
		if (!f->n_indirect || (f->flags & SP_F_INDIRECT_ANNOTATED))
			continue;
		f->flags |= SP_F_INDIRECT_ASSUMED;
		/* one site without a type may call anything */
		if (n >= f->n_indirect)
			f->flags |= SP_F_INDIRECT_TYPED;
		for (j = 0; j < nfuncs; j++)
			if (taken[j] && (n < f->n_indirect || proto_matches(&g->funcs[j], sites, n))) {
				add_flagged_edge(g, i, j, SP_EDGE_F_ASSUMED);
				added++;
			}
	}
	return added;
}
