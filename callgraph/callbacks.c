/*
 * callbacks.c - a library calling back into the program: qsort's
 * comparator, bsearch's, a tree walk's visitor.  The program's call into
 * the library says what it passes (DW_TAG_call_site_parameter:
 * DW_OP_addr of one of its functions, dw_call_arg); the library calls
 * such a function through a pointer somewhere below the entry it was
 * passed to, so each function of the library with an indirect call that
 * the entry reaches gets it as an assumed target (SP_EDGE_F_ASSUMED,
 * resolved by "argument").  The call stays indirect: without --indirect
 * the total is unbounded and the path through the comparator is said
 * apart ("assumed: at least"); --indirect adds the call's other targets.
 *
 * A library that only keeps the function for later (atexit, signal)
 * reaches no indirect call that runs it there, and adds nothing: the
 * handler stays a root.  pthread_create's start routine runs on the new
 * thread's stack, not the caller's: it stays a root too.
 */
#include "callgraph/internal.h"

#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"

/* Entries whose callbacks run on another stack. */
static const char *const other_stack[] = { "pthread_create" };

struct callback {
	uint32_t entry, func;	/* the library function, the program's passed to it */
};

struct cbs {
	struct sp_graph *g;		/* finalized: each function's edges together */
	struct callback *v;
	size_t n, cap;
};

/* The library function a call to id enters: id, or what a lazily bound
 * slot's stub goes on to; SP_NONE when not a library's. */
static uint32_t library_entry(const struct cbs *c, uint32_t id)
{
	const struct sp_graph *g = c->g;
	const struct sp_edge *e;

	if (g->funcs[id].flags & SP_F_LAZY)
		sp_func_for_each_edge(g, &g->funcs[id], e)
			if (e->kind == SP_EDGE_TAIL)
				id = e->to;
	return g->funcs[id].lib && !(g->funcs[id].flags & SP_F_LAZY) ? id : SP_NONE;
}

static bool runs_elsewhere(const struct sp_func *f)
{
	size_t i;

	for (i = 0; i < sizeof(other_stack) / sizeof(other_stack[0]); i++)
		if (f->name && !strcmp(f->name, other_stack[i]))
			return true;
	return false;
}

/* The program's functions the call edge e of img passes to the library. */
static void passed(struct cbs *c, struct cg_image *img, struct dw_reader *r,
		   const struct sp_edge *e)
{
	const struct sp_func *caller = &c->g->funcs[e->from];
	uint32_t entry = library_entry(c, e->to), regs = img->elf.arch->arg_regs;
	uint8_t reg;

	if (entry == SP_NONE || runs_elsewhere(&c->g->funcs[entry]) || !caller->die || !e->pc)
		return;
	for (reg = 0; regs >> reg; reg++) {
		struct dw_call_arg a;
		uint32_t id;

		if (!(regs >> reg & 1))
			continue;
		a = dw_call_arg(r, caller->die, e->pc, reg);
		if (a.kind != DW_ARG_ADDR || !a.addr ||
		    (id = sp_u64map_get(&img->func_by_addr, a.addr)) == SP_NONE)
			continue;
		SP_ALLOC_GROW(c->v, c->n + 1, c->cap);
		c->v[c->n].entry = entry;
		c->v[c->n++].func = id;
	}
}

/* The program img's calls into the libraries, and what they pass. */
static void scan_program(struct cbs *c, struct cg_image *img)
{
	struct dw_reader *r;
	uint32_t f;

	if (img->lib || !img->dw.ncus || !img->elf.arch->arg_regs ||
	    !(r = dw_reader(cg_dwarf(img))))
		return;
	for (f = img->func_first; f < img->func_end; f++) {
		const struct sp_edge *e;

		sp_func_for_each_edge(c->g, &c->g->funcs[f], e)
			if (!e->flags)
				passed(c, img, r, e);
	}
	cg_dwarf_done(img);
}

/* Every function of the library with an indirect call that entry
 * reaches without leaving the library, into *out. */
static uint32_t reached_icalls(const struct cbs *c, uint32_t entry, uint8_t *seen,
			       uint32_t *queue, uint32_t *out)
{
	const struct sp_graph *g = c->g;
	uint32_t head = 0, tail = 0, n = 0;
	const struct sp_edge *e;

	seen[entry] = 1;
	queue[tail++] = entry;
	while (head < tail) {
		uint32_t f = queue[head++];

		if (g->funcs[f].n_indirect)
			out[n++] = f;
		sp_func_for_each_edge(g, &g->funcs[f], e)
			if (!seen[e->to] && g->funcs[e->to].lib) {
				seen[e->to] = 1;
				queue[tail++] = e->to;
			}
	}
	while (tail)
		seen[queue[--tail]] = 0;
	return n;
}

static int by_entry(const void *pa, const void *pb)
{
	const struct callback *a = pa, *b = pb;

	if (a->entry != b->entry)
		return (a->entry > b->entry) - (a->entry < b->entry);
	return (a->func > b->func) - (a->func < b->func);
}

static uint32_t add_edges(struct cbs *c)
{
	struct sp_graph *g = c->g;
	uint8_t *seen = sp_xcalloc(g->nfuncs + 1, 1);
	uint32_t *queue = sp_xmalloc((g->nfuncs + 1) * sizeof(*queue));
	uint32_t *sites = sp_xmalloc((g->nfuncs + 1) * sizeof(*sites));
	uint32_t nsites = 0, added = 0, s, nedges = g->nedges;
	size_t i;

	qsort(c->v, c->n, sizeof(*c->v), by_entry);
	for (i = 0; i < c->n; i++) {
		if (i && c->v[i].entry == c->v[i - 1].entry && c->v[i].func == c->v[i - 1].func)
			continue;
		if (!i || c->v[i].entry != c->v[i - 1].entry)
			nsites = reached_icalls(c, c->v[i].entry, seen, queue, sites);
		for (s = 0; s < nsites; s++) {
			sp_graph_add_edge(g, sites[s], c->v[i].func, SP_EDGE_CALL, 0);
			g->edges[g->nedges - 1].flags = SP_EDGE_F_ASSUMED;
			g->edges[g->nedges - 1].how = SP_RES_ARGUMENT;
		}
	}
	added = g->nedges - nedges;
	free(seen);
	free(queue);
	free(sites);
	return added;
}

uint32_t cg_lib_callbacks(struct cg_image *const *imgs, size_t n, struct sp_graph *g)
{
	struct cbs c = { .g = g };
	uint32_t added = 0;
	size_t i;

	sp_graph_finalize(g);
	for (i = 0; i < n; i++)
		scan_program(&c, imgs[i]);
	if (c.n)
		added = add_edges(&c);
	free(c.v);
	return added;
}
