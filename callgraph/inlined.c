/*
 * inlined.c - a node for the calls a function makes from inside the
 * inlined copies of one callee, for the annotations that name it
 * ("FUNC/CALLEE", cg_options.inlined).
 *
 * The state that bounds a cycle is sometimes set by a function GCC
 * inlined (Linux's wakeup_softirqd(), called only outside interrupts
 * and with them off): its calls are its caller's in the graph.  Each
 * copy's address ranges (DWARF, dwarf/inlined.c) tell which of the
 * caller's calls it makes, by the call's address; those go through the
 * node (frame 0), which then is an ancestor like any function.  A callee
 * the caller also calls from outside the copies keeps that edge too.
 * Only the functions an annotation names get nodes: a kernel inlines
 * millions of calls.
 */
#include "callgraph/internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/search.h"
#include "common/xalloc.h"

/* how a function calls one callee: from inside the copies, outside */
#define IN_CALL 1u
#define IN_TAIL 2u
#define OUTSIDE 4u

struct split {
	struct cg_image *img;
	uint32_t func;
	struct cg_range *in;	/* the copies' ranges (func unused) */
	size_t nin, in_cap;
	struct sp_u64map how;	/* callee -> IN_CALL | IN_TAIL | OUTSIDE */
	uint32_t *callees;	/* in the order first seen */
	size_t ncallees, callees_cap;
};

static void add_copy(void *ctx, uint64_t lo, uint64_t hi)
{
	struct split *s = ctx;

	SP_ALLOC_GROW(s->in, s->nin + 1, s->in_cap);
	s->in[s->nin++] = (struct cg_range){ .lo = lo, .hi = hi };
}

static bool inside(const struct split *s, uint64_t addr)
{
	size_t i;

	for (i = 0; i < s->nin; i++)
		if (addr >= s->in[i].lo && addr < s->in[i].hi)
			return true;
	return false;
}

/* A call to callee whose return address is site (0: not known, which
 * counts as outside: the node must not take a call it may not make). */
static void note(struct split *s, uint32_t callee, uint64_t site, enum sp_edge_kind kind)
{
	uint32_t how = sp_u64map_get(&s->how, callee);

	if (how == SP_NONE) {
		how = 0;
		SP_ALLOC_GROW(s->callees, s->ncallees + 1, s->callees_cap);
		s->callees[s->ncallees++] = callee;
	}
	if (site && inside(s, site - 1))
		how |= kind == SP_EDGE_TAIL ? IN_TAIL : IN_CALL;
	else
		how |= OUTSIDE;
	sp_u64map_put(&s->how, callee, how);
}

static uint64_t call_site(const void *base, size_t i)
{
	return ((const struct insn_call *)base)[i].site;
}

/* The calls the code shows in range r of the function: those DWARF
 * listed are edges already, but a second call to the same callee may
 * have been left out of the graph (build.c's merge_call). */
static void note_code(struct split *s, size_t r)
{
	const struct insn_calls *l = &s->img->code.calls;
	const struct cg_range *range = &s->img->ranges[r];
	size_t k = sp_search_first_ge(l->v, l->n, call_site, range->lo + 1);

	for (; k < l->n && l->v[k].site <= range->hi; k++) {
		const struct insn_call *c = &l->v[k];
		uint32_t callee;
		bool lost;

		if ((c->branch != INSN_BRANCH_CALL && c->branch != INSN_BRANCH_JUMP) ||
		    (c->switched && c->branch == INSN_BRANCH_CALL))
			continue;
		callee = cg_code_callee(s->img, c, s->func, r, &lost);
		if (callee != SP_NONE)
			note(s, callee, c->site,
			     c->branch == INSN_BRANCH_CALL ? SP_EDGE_CALL : SP_EDGE_TAIL);
	}
}

static void note_calls(struct split *s)
{
	const struct sp_graph *g = s->img->g;
	uint32_t i;
	size_t r;

	for (i = s->img->edge_first; i < g->nedges; i++)
		if (g->edges[i].from == s->func)
			note(s, g->edges[i].to, g->edges[i].pc, (enum sp_edge_kind)g->edges[i].kind);
	for (r = 0; r < s->img->nranges; r++)
		if (s->img->ranges[r].func == s->func)
			note_code(s, r);
}

static uint32_t new_node(struct sp_graph *g, uint32_t func, const char *callee)
{
	uint32_t id = sp_graph_add_func(g);
	struct sp_func *n = &g->funcs[id];
	const struct sp_func *f = &g->funcs[func];
	const char *name = f->name ? f->name : f->symbol ? f->symbol : "?";
	size_t len = strlen(name) + strlen(callee) + 2;
	char *buf = sp_xmalloc(len);

	snprintf(buf, len, "%s/%s", name, callee);
	n->name = sp_intern(g, buf);
	free(buf);
	n->file = f->file;
	n->line = f->line;
	n->cu = f->cu;
	n->flags = SP_F_INLINED;
	n->qual = SP_QUAL_STATIC;
	n->src = SP_SRC_INLINED;
	SP_ALLOC_GROW(g->inlined, (size_t)g->ninlined + 1, g->inlined_cap);
	g->inlined[g->ninlined++] = (struct sp_inlined){ func, sp_intern(g, callee), id };
	return id;
}

/* The calls only the copies make move to the node; the callees called
 * from outside them as well are called from both. */
static void move_calls(struct split *s, uint32_t node)
{
	struct sp_graph *g = s->img->g;
	uint32_t i, into = 0;
	size_t k;

	for (i = s->img->edge_first; i < g->nedges; i++) {
		struct sp_edge *e = &g->edges[i];
		uint32_t how = e->from == s->func ? sp_u64map_get(&s->how, e->to) : 0;

		if (how != SP_NONE && how && !(how & OUTSIDE))
			e->from = node;
	}
	for (k = 0; k < s->ncallees; k++) {
		uint32_t how = sp_u64map_get(&s->how, s->callees[k]);

		if (how & IN_CALL)
			sp_graph_add_edge(g, node, s->callees[k], SP_EDGE_CALL, 0);
		if (how & IN_TAIL)
			sp_graph_add_edge(g, node, s->callees[k], SP_EDGE_TAIL, 0);
		into |= how;
	}
	/* a tail call from the copy leaves nothing of the caller's frame */
	if (into & (IN_CALL | IN_TAIL))
		sp_graph_add_edge(g, s->func, node,
				  into & IN_CALL ? SP_EDGE_CALL : SP_EDGE_TAIL, 0);
	g->finalized = false;
}

static void split_func(struct cg_image *img, uint32_t func, const char *callee)
{
	struct split s = { .img = img, .func = func };

	if (!dw_func_inlined(&img->dw, func, callee, add_copy, &s) || !s.nin) {
		free(s.in);
		return;
	}
	sp_u64map_init(&s.how, 16);
	note_calls(&s);
	move_calls(&s, new_node(img->g, func, callee));
	sp_u64map_release(&s.how);
	free(s.callees);
	free(s.in);
}

/* NAME itself, or a GCC clone of it ("NAME.constprop.0"), as --entry. */
static bool names(const char *s, const char *name)
{
	size_t n = strlen(name);

	return s && !strncmp(s, name, n) && (s[n] == '\0' || s[n] == '.');
}

void cg_inlined_nodes(struct cg_image *img)
{
	const struct cg_inline_req *q = img->opts.inlined;
	uint32_t i, end = img->g->nfuncs;
	size_t k;

	for (k = 0; k < img->opts.ninlined; k++)
		for (i = img->func_first; i < end; i++) {
			const struct sp_func *f = &img->g->funcs[i];

			if (f->die && (f->flags & SP_F_HAS_CODE) &&
			    (names(f->name, q[k].func) || names(f->symbol, q[k].func)))
				split_func(img, i, q[k].callee);
		}
}
