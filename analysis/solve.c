/*
 * solve.c - worst-case stack totals: Tarjan's strongly connected
 * components, then the longest path over the condensation.
 *
 * Tarjan emits components callees-first, so each one is solved the moment
 * it is emitted: every edge that leaves it reaches a finished function.
 * Both the DFS and the component stack live in arrays because the Linux
 * kernel's call graph is far deeper than any C stack.
 */
#include "analysis/analysis.h"

#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"

#define UNSEEN UINT32_MAX

struct dfs_frame {
	uint32_t node;
	uint32_t edge;		/* next edge of node to look at */
};

struct solver {
	struct sp_graph *g;
	uint32_t *disc;		/* Tarjan discovery index, UNSEEN before */
	uint32_t *low;
	uint8_t *on_stack;
	uint32_t *stack;	/* Tarjan's stack of open components */
	size_t sp;
	struct dfs_frame *dfs;	/* the explicit call stack of the DFS */
	size_t depth;
	uint32_t ndisc, nscc;
};

static void solver_init(struct solver *s, struct sp_graph *g)
{
	size_t n = g->nfuncs ? g->nfuncs : 1;

	memset(s, 0, sizeof(*s));
	s->g = g;
	s->disc = sp_xmalloc(n * sizeof(*s->disc));
	memset(s->disc, 0xff, n * sizeof(*s->disc));
	s->low = sp_xmalloc(n * sizeof(*s->low));
	s->on_stack = sp_xcalloc(n, sizeof(*s->on_stack));
	s->stack = sp_xmalloc(n * sizeof(*s->stack));
	s->dfs = sp_xmalloc(n * sizeof(*s->dfs));
}

static void solver_release(struct solver *s)
{
	free(s->disc);
	free(s->low);
	free(s->on_stack);
	free(s->stack);
	free(s->dfs);
}

/* A frame without data counts 0 (and is reported as an UNKNOWN cause);
 * a leaf's red zone adds to its frame. */
static uint64_t frame_self(const struct sp_func *f)
{
	return sp_frame_bytes(f);
}

static uint64_t add_saturating(uint64_t a, uint64_t b, bool *overflow)
{
	if (a > UINT64_MAX - b) {
		*overflow = true;
		return UINT64_MAX;
	}
	return a + b;
}

/* The causes f exhibits by itself, as a bit mask over enum sp_cause. */
static unsigned own_causes(const struct sp_func *f)
{
	unsigned m = 0;

	if (f->qual == SP_QUAL_DYNAMIC)
		m |= 1u << SP_CAUSE_DYNAMIC;
	if ((f->flags & SP_F_RECURSIVE) && !(f->flags & SP_F_DEPTH_BOUNDED))
		m |= 1u << SP_CAUSE_RECURSION;
	if (f->flags & SP_F_DEPTH_BOUNDED)
		m |= 1u << SP_CAUSE_DEPTH;
	/* an annotation lists the targets of all its indirect calls; an
	 * assumption (address-taken) bounds them but is said */
	if (f->n_indirect && !(f->flags & (SP_F_INDIRECT_ANNOTATED | SP_F_INDIRECT_ASSUMED)))
		m |= 1u << SP_CAUSE_INDIRECT;
	if (f->n_indirect && (f->flags & SP_F_INDIRECT_ASSUMED) &&
	    !(f->flags & SP_F_INDIRECT_ANNOTATED))
		m |= 1u << SP_CAUSE_ASSUMED;
	if (f->qual == SP_QUAL_UNKNOWN)
		m |= 1u << SP_CAUSE_UNKNOWN;
	if (f->flags & SP_F_CALLS_INCOMPLETE)
		m |= 1u << SP_CAUSE_INCOMPLETE;
	return m;
}

/*
 * Inside a component only edges to a later-discovered member count: they
 * were solved first, and following them keeps the worst path a real,
 * simple path, which is the finite lower bound of a recursive total.
 */
static bool edge_usable(const struct solver *s, uint32_t from, uint32_t to)
{
	const struct sp_func *fn = s->g->funcs;

	return fn[to].res.scc != fn[from].res.scc || s->disc[to] > s->disc[from];
}

/*
 * total = max(self + max over CALL edges, max over TAIL edges): a tail
 * callee replaces the caller's frame.  Ties go to the lowest callee id
 * (edges are sorted by callee), and an edge beats ending the path here.
 */
static void solve_total(struct solver *s, uint32_t v)
{
	struct sp_graph *g = s->g;
	struct sp_func *f = &g->funcs[v];
	const struct sp_edge *e;
	uint64_t self = frame_self(f);

	f->res.total = self;
	f->res.next = SP_NONE;
	f->res.next_kind = SP_EDGE_CALL;
	f->res.next_flags = 0;
	f->res.next_how = SP_RES_NONE;
	/* a huge .su frame plus its red zone saturates already */
	f->res.overflow = f->qual != SP_QUAL_UNKNOWN && f->self > UINT64_MAX - f->red_zone;
	sp_func_for_each_edge(g, f, e) {
		const struct sp_result *r = &g->funcs[e->to].res;
		bool overflow = r->overflow || f->res.overflow;
		uint64_t cand;

		if (!edge_usable(s, v, e->to))
			continue;
		cand = e->kind == SP_EDGE_TAIL ? r->total :
			add_saturating(self, r->total, &overflow);
		if (cand > f->res.total ||
		    (cand == f->res.total && f->res.next == SP_NONE)) {
			f->res.total = cand;
			f->res.next = e->to;
			f->res.next_kind = e->kind;
			f->res.next_flags = e->flags;
			f->res.next_how = e->how;
			f->res.overflow = overflow;
		}
	}
}

/* What a member sees through edge e for cause c, or SP_NONE. */
static uint32_t witness_via(const struct sp_graph *g, const struct sp_edge *e,
			    enum sp_cause c, const uint32_t *shared)
{
	const struct sp_func *to = &g->funcs[e->to];

	if (to->res.scc != g->funcs[e->from].res.scc)
		return to->res.witness[c];
	/* a fellow member: itself if it has the cause, else the component's */
	return own_causes(to) & (1u << c) ? e->to : shared[c];
}

/* Every member of a component shares the union of its causes. */
static void shared_witnesses(const struct sp_graph *g, const uint32_t *members,
			     size_t n, uint32_t *shared)
{
	const struct sp_edge *e;
	size_t i;
	int c;

	for (c = 0; c < SP_CAUSE__COUNT; c++) {
		shared[c] = SP_NONE;
		for (i = 0; i < n && shared[c] == SP_NONE; i++)
			if (own_causes(&g->funcs[members[i]]) & (1u << c))
				shared[c] = members[i];
		for (i = 0; i < n && shared[c] == SP_NONE; i++) {
			const struct sp_func *f = &g->funcs[members[i]];

			sp_func_for_each_edge(g, f, e) {
				if (g->funcs[e->to].res.scc == f->res.scc)
					continue;
				shared[c] = g->funcs[e->to].res.witness[c];
				if (shared[c] != SP_NONE)
					break;
			}
		}
	}
}

/* The nearest witness of each cause: v itself, else the first callee's. */
static void solve_witnesses(struct sp_graph *g, uint32_t v, const uint32_t *shared)
{
	struct sp_func *f = &g->funcs[v];
	unsigned own = own_causes(f);
	const struct sp_edge *e;
	int c;

	for (c = 0; c < SP_CAUSE__COUNT; c++) {
		uint32_t w = SP_NONE;

		if (own & (1u << c))
			w = v;
		else
			sp_func_for_each_edge(g, f, e)
				if ((w = witness_via(g, e, c, shared)) != SP_NONE)
					break;
		f->res.witness[c] = w;
	}
	f->res.bounded = f->res.witness[SP_CAUSE_DYNAMIC] == SP_NONE &&
			 f->res.witness[SP_CAUSE_RECURSION] == SP_NONE &&
			 f->res.witness[SP_CAUSE_INDIRECT] == SP_NONE;
	f->res.partial = f->res.witness[SP_CAUSE_UNKNOWN] != SP_NONE ||
			 f->res.witness[SP_CAUSE_INCOMPLETE] != SP_NONE;
	f->res.assumed = f->res.witness[SP_CAUSE_ASSUMED] != SP_NONE;
}

static bool has_self_edge(const struct sp_graph *g, uint32_t v)
{
	const struct sp_func *f = &g->funcs[v];
	const struct sp_edge *e;

	sp_func_for_each_edge(g, f, e)
		if (e->to == v)
			return true;
	return false;
}

static uint64_t mul_saturating(uint64_t a, uint64_t b, bool *overflow)
{
	if (a && b > UINT64_MAX / a) {
		*overflow = true;
		return UINT64_MAX;
	}
	return a * b;
}

/* The annotated depth of a cycle: the largest any member was given. */
static uint32_t scc_depth(const struct sp_graph *g, const uint32_t *members, size_t n)
{
	uint32_t d = 0;
	size_t i;

	for (i = 0; i < n; i++)
		if (g->funcs[members[i]].rec_depth > d)
			d = g->funcs[members[i]].rec_depth;
	return d;
}

/*
 * A cycle with a depth annotation D (each member active at most D times
 * at once) is bounded by D * S + X for every member, S the sum of all the
 * members' frames and X the worst total of a callee outside the cycle:
 * any chain inside it holds at most D frames of each member, and it
 * leaves the cycle at most once.  That is an upper bound, not the exact
 * worst case (the heaviest cycle may skip some members): sound first.
 * The worst path shown stays the real simple path below it.
 */
static void bound_cycle(struct sp_graph *g, const uint32_t *members, size_t n,
			uint32_t depth)
{
	uint64_t sum = 0, exit_total = 0, bound;
	bool overflow = false;
	const struct sp_edge *e;
	size_t i;

	for (i = 0; i < n; i++) {
		const struct sp_func *f = &g->funcs[members[i]];

		sum = add_saturating(sum, frame_self(f), &overflow);
		sp_func_for_each_edge(g, f, e) {
			const struct sp_result *r = &g->funcs[e->to].res;

			if (r->scc == f->res.scc)
				continue;
			if (r->total > exit_total)
				exit_total = r->total;
			overflow |= r->overflow;
		}
	}
	bound = add_saturating(mul_saturating(depth, sum, &overflow), exit_total,
			       &overflow);
	for (i = 0; i < n; i++) {
		struct sp_func *f = &g->funcs[members[i]];

		f->flags |= SP_F_DEPTH_BOUNDED;
		if (bound > f->res.total)
			f->res.total = bound;
		f->res.overflow |= overflow;
	}
}

/*
 * Members are in increasing discovery order; solving them from the last
 * discovered backwards means every usable in-component edge is solved.
 */
static void solve_scc(struct solver *s, const uint32_t *members, size_t n)
{
	struct sp_graph *g = s->g;
	uint32_t shared[SP_CAUSE__COUNT];
	bool recursive = n > 1 || has_self_edge(g, members[0]);
	size_t i;

	for (i = 0; i < n; i++) {
		g->funcs[members[i]].res.scc = s->nscc;
		if (recursive)
			g->funcs[members[i]].flags |= SP_F_RECURSIVE;
	}
	s->nscc++;
	for (i = n; i-- > 0;)
		solve_total(s, members[i]);
	if (recursive && scc_depth(g, members, n))
		bound_cycle(g, members, n, scc_depth(g, members, n));
	shared_witnesses(g, members, n, shared);
	for (i = 0; i < n; i++)
		solve_witnesses(g, members[i], shared);
}

/* v is the root of a component: it and everything above it on the stack. */
static void emit_scc(struct solver *s, uint32_t v)
{
	size_t start = s->sp, i;

	while (s->stack[--start] != v)
		;
	for (i = start; i < s->sp; i++)
		s->on_stack[s->stack[i]] = 0;
	solve_scc(s, s->stack + start, s->sp - start);
	s->sp = start;
}

static void tarjan_visit(struct solver *s, uint32_t v)
{
	s->disc[v] = s->low[v] = s->ndisc++;
	s->stack[s->sp++] = v;
	s->on_stack[v] = 1;
	s->dfs[s->depth].node = v;
	s->dfs[s->depth].edge = s->g->funcs[v].edge_first;
	s->depth++;
}

static void tarjan_from(struct solver *s, uint32_t root)
{
	const struct sp_graph *g = s->g;

	tarjan_visit(s, root);
	while (s->depth) {
		struct dfs_frame *fr = &s->dfs[s->depth - 1];
		uint32_t v = fr->node;
		const struct sp_func *f = &g->funcs[v];

		if (fr->edge < f->edge_first + f->edge_count) {
			uint32_t w = g->edges[fr->edge++].to;

			if (s->disc[w] == UNSEEN)
				tarjan_visit(s, w);
			else if (s->on_stack[w] && s->disc[w] < s->low[v])
				s->low[v] = s->disc[w];
			continue;
		}
		s->depth--;
		if (s->low[v] == s->disc[v])
			emit_scc(s, v);
		else if (s->low[v] < s->low[s->dfs[s->depth - 1].node])
			s->low[s->dfs[s->depth - 1].node] = s->low[v];
	}
}

/* Untrusted loaders could leave an edge pointing nowhere: refuse it here,
 * then index the edges if they changed since the last time. */
static int check_graph(struct sp_graph *g, struct sp_err *err)
{
	uint32_t i;

	for (i = 0; i < g->nedges; i++)
		if (g->edges[i].from >= g->nfuncs || g->edges[i].to >= g->nfuncs)
			return sp_err_set(err, "call graph edge %u -> %u: no such function",
					  g->edges[i].from, g->edges[i].to);
	if (!g->finalized)
		sp_graph_finalize(g);
	for (i = 0; i < g->nfuncs; i++)
		if ((uint64_t)g->funcs[i].edge_first + g->funcs[i].edge_count > g->nedges)
			return sp_err_set(err, "call graph: edges of function %u out of range", i);
	return 0;
}

static void reset_results(struct sp_graph *g)
{
	uint32_t i;
	int c;

	for (i = 0; i < g->nfuncs; i++) {
		struct sp_func *f = &g->funcs[i];

		memset(&f->res, 0, sizeof(f->res));
		f->res.next = SP_NONE;
		f->res.scc = SP_NONE;
		for (c = 0; c < SP_CAUSE__COUNT; c++)
			f->res.witness[c] = SP_NONE;
		f->flags &= ~(SP_F_RECURSIVE | SP_F_DEPTH_BOUNDED);
	}
}

int sp_analyze(struct sp_graph *g, struct sp_err *err)
{
	struct solver s;
	uint32_t v;

	if (check_graph(g, err))
		return -1;
	reset_results(g);
	solver_init(&s, g);
	for (v = 0; v < g->nfuncs; v++)
		if (s.disc[v] == UNSEEN)
			tarjan_from(&s, v);
	solver_release(&s);
	return 0;
}

size_t sp_worst_path(const struct sp_graph *g, uint32_t id, uint32_t *out,
		     uint8_t *kinds, size_t max)
{
	uint8_t kind = SP_EDGE_CALL;
	size_t n = 0;

	/* next only climbs discovery order or leaves for a finished
	 * component, so the walk ends; the nfuncs cap guards a graph that
	 * was edited after sp_analyze() */
	while (id < g->nfuncs && n < max && n < g->nfuncs) {
		if (out)
			out[n] = id;
		if (kinds)
			kinds[n] = kind;
		n++;
		kind = g->funcs[id].res.next_kind;
		id = g->funcs[id].res.next;
	}
	return n;
}
