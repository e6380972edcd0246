/*
 * folded.c - --folded: worst paths as folded stacks for flame graphs
 * (see report.h).
 */
#include "report/report.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "common/strbuf.h"
#include "common/u64map.h"
#include "common/xalloc.h"
#include "report/path.h"

/* Without entries: the selected functions that nothing else calls. */
static size_t folded_roots(const struct sp_graph *g, const struct sp_report_opts *o,
			   uint32_t **ids)
{
	size_t n = sp_report_select(g, o, ids), i, out = 0;
	uint8_t *called;
	uint32_t e;

	if (o->entries && o->nentries)
		return n;
	called = sp_xcalloc((size_t)g->nfuncs + 1, 1);
	for (e = 0; e < g->nedges; e++)
		if (g->edges[e].from != g->edges[e].to && g->edges[e].to < g->nfuncs)
			called[g->edges[e].to] = 1;
	for (i = 0; i < n; i++)
		if (!called[(*ids)[i]])
			(*ids)[out++] = (*ids)[i];
	free(called);
	return out;
}

/* How many of the roots bear each name (names are interned: by pointer). */
static void count_names(const struct sp_graph *g, const uint32_t *ids, size_t n,
			struct sp_u64map *names)
{
	size_t i;

	sp_u64map_init(names, n);
	for (i = 0; i < n; i++) {
		uint64_t key = (uint64_t)(uintptr_t)sp_func_label(&g->funcs[ids[i]]);
		uint32_t seen = sp_u64map_get(names, key);

		sp_u64map_put(names, key, seen == UINT32_MAX ? 1 : seen + 1);
	}
}

/* A frame's name with the separators of the format ("; ") kept out of it. */
static void add_frame(struct sp_strbuf *b, const char *name)
{
	size_t from = b->len;
	char *c;

	sp_strbuf_addf(b, "%s", name);
	for (c = b->buf + from; *c; c++)
		if (*c == ';')
			*c = ':';
}

static void put_root(const struct sp_graph *g, uint32_t root, bool shared_name,
		     struct sp_strbuf *stack, FILE *out)
{
	const struct sp_func *f = &g->funcs[root];
	struct sp_path p;
	size_t i;

	sp_path_load(g, root, &p);
	stack->len = 0;
	add_frame(stack, sp_func_label(f));
	if (shared_name && f->file)
		sp_strbuf_addf(stack, " [%s]", f->file);
	for (i = 0; i < p.n; i++) {
		uint64_t w = sp_path_weight(g, &p, i);

		if (i) {
			sp_strbuf_addf(stack, ";");
			add_frame(stack, sp_func_label(&g->funcs[p.ids[i]]));
		}
		if (w)
			fprintf(out, "%s %" PRIu64 "\n", stack->buf, w);
	}
	sp_path_release(&p);
}

int sp_report_folded(const struct sp_graph *g, const struct sp_report_opts *o,
		     FILE *out, struct sp_err *err)
{
	struct sp_strbuf stack = { 0 };
	struct sp_u64map names;
	uint32_t *ids;
	size_t n = folded_roots(g, o, &ids), i;

	count_names(g, ids, n, &names);
	for (i = 0; i < n; i++) {
		const char *name = sp_func_label(&g->funcs[ids[i]]);

		put_root(g, ids[i], sp_u64map_get(&names, (uint64_t)(uintptr_t)name) > 1,
			 &stack, out);
	}
	sp_u64map_release(&names);
	free(stack.buf);
	free(ids);
	if (ferror(out))
		return sp_err_set(err, "cannot write the folded stacks");
	return 0;
}
