/*
 * solve.c - worst-case stack totals: Tarjan's strongly connected
 * components, then the longest path over the condensation.
 *
 * Tarjan emits components callees-first, so each one is solved the moment
 * it is emitted: every edge that leaves it reaches a finished function.
 * Both the DFS and the component stack live in arrays because the Linux
 * kernel's call graph is far deeper than any C stack.
 *
 * A once/nest function (sp_func.nest) comes solved: analysis/nest.c
 * solves it first, on the part of the graph below it, where the calls
 * that would re-enter it past its count are cut.  Here it is a leaf
 * that carries that result.
 */
#include "analysis/internal.h"
#include "analysis/assumed.h"

#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"

#define UNSEEN UINT32_MAX

struct dfs_frame {
	uint32_t node;
	uint32_t edge;		/* next edge of node to look at */
	size_t cursors;		/* its assumed set's, see as_visit() */
};

struct solver {
	struct sp_graph *g;
	const uint8_t *cut;	/* calls into these do not happen, or NULL */
	uint32_t *disc;		/* Tarjan discovery index, UNSEEN before */
	uint32_t *low;
	uint8_t *on_stack;
	uint32_t *stack;	/* Tarjan's stack of open components */
	size_t sp;
	struct dfs_frame *dfs;	/* the explicit call stack of the DFS */
	size_t depth;
	struct dfs_frame *order_dfs;	/* order_members()' own DFS */
	uint32_t *order_post;		/* its postorder */
	uint8_t *order_seen;
	uint16_t *own_mask;	/* per member of the component being solved: */
	uint32_t *own_nest;	/* own_causes(), and its first cut NEST callee */
	uint32_t ndisc, nscc;
	struct as_solver as;	/* --indirect=address-taken's sets */
};

static void solver_init(struct solver *s, struct sp_graph *g, const uint8_t *cut)
{
	size_t n = g->nfuncs ? g->nfuncs : 1;

	memset(s, 0, sizeof(*s));
	s->g = g;
	s->cut = cut;
	s->disc = sp_xmalloc(n * sizeof(*s->disc));
	memset(s->disc, 0xff, n * sizeof(*s->disc));
	s->low = sp_xmalloc(n * sizeof(*s->low));
	s->on_stack = sp_xcalloc(n, sizeof(*s->on_stack));
	s->stack = sp_xmalloc(n * sizeof(*s->stack));
	s->dfs = sp_xmalloc(n * sizeof(*s->dfs));
	s->order_dfs = sp_xmalloc(n * sizeof(*s->order_dfs));
	s->order_post = sp_xmalloc(n * sizeof(*s->order_post));
	s->order_seen = sp_xcalloc(n, sizeof(*s->order_seen));
	s->own_mask = sp_xmalloc(n * sizeof(*s->own_mask));
	s->own_nest = sp_xmalloc(n * sizeof(*s->own_nest));
	as_init(&s->as, g);
}

static void solver_release(struct solver *s)
{
	free(s->disc);
	free(s->low);
	free(s->on_stack);
	free(s->stack);
	free(s->dfs);
	free(s->order_dfs);
	free(s->order_post);
	free(s->order_seen);
	free(s->own_mask);
	free(s->own_nest);
	as_release(&s->as);
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
	/* an 'assume' line: what rests on it is said, as address-taken's */
	if (f->flags & SP_F_ASSUME)
		m |= 1u << SP_CAUSE_ASSUMPTION;
	if (f->qual == SP_QUAL_UNKNOWN)
		m |= 1u << SP_CAUSE_UNKNOWN;
	if (f->flags & SP_F_CALLS_INCOMPLETE)
		m |= 1u << SP_CAUSE_INCOMPLETE;
	return m;
}

/* A once/nest function is solved before the graph that calls it. */
static bool presolved(const struct sp_func *f)
{
	return f->nest != 0;
}

/* A call that would re-enter a once/nest function past its count. */
static bool edge_cut(const struct solver *s, const struct sp_edge *e)
{
	return s->cut && s->cut[e->to];
}

/*
 * Inside a component only edges to a later-discovered member count: they
 * were solved first, and following them keeps the worst path a real,
 * simple path, which is the finite lower bound of a recursive total.
 */
static bool edge_usable(const struct solver *s, const struct sp_edge *e)
{
	const struct sp_func *fn = s->g->funcs;

	if (edge_cut(s, e))
		return false;
	return fn[e->to].res.scc != fn[e->from].res.scc || s->disc[e->to] > s->disc[e->from];
}

/* The flags of f's own CALL edge to, all of them when it has none. */
static uint8_t own_call_flags(const struct sp_graph *g, const struct sp_func *f, uint32_t to)
{
	const struct sp_edge *e;

	sp_func_for_each_edge(g, f, e)
		if (e->to == to && e->kind == SP_EDGE_CALL)
			return e->flags;
	return 0xff;
}

/* The same for the path over certain calls: e is one, r its callee's. */
static void consider_certain(struct sp_func *f, uint64_t self, const struct sp_edge *e,
			     const struct sp_result *r)
{
	bool overflow = false;
	uint64_t cand = e->kind == SP_EDGE_TAIL ? r->certain :
			add_saturating(self, r->certain, &overflow);

	if (cand > f->res.certain ||
	    (cand == f->res.certain && f->res.certain_next == SP_NONE)) {
		f->res.certain = cand;
		f->res.certain_next = e->to;
		f->res.certain_kind = e->kind;
		f->res.certain_flags = e->flags;
		f->res.certain_how = e->how;
	}
}

/* The edge e as a candidate for v's worst path: it wins when it goes
 * deeper, or when nothing was chosen yet. */
static void consider(struct solver *s, uint32_t v, uint64_t self, const struct sp_edge *e)
{
	struct sp_func *f = &s->g->funcs[v];
	const struct sp_result *r = &s->g->funcs[e->to].res;
	bool overflow = r->overflow || f->res.overflow;
	uint64_t cand;

	if (!edge_usable(s, e))
		return;
	if (!(e->flags & SP_EDGE_F_ASSUMED))
		consider_certain(f, self, e, r);
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

/*
 * v's assumed targets against what its own edges chose: the best of the
 * set (the largest total, the lowest id among equals) is the first of
 * them in the edges' order to give the largest sum, and the order
 * decides a tie with an own edge; an own CALL edge to it is the same
 * edge.  Returns false when the sum overflows: the saturated sums tie,
 * and only the edges one by one find the first.
 */
static bool consider_assumed(struct solver *s, uint32_t v, uint64_t self, bool overflow)
{
	struct sp_func *f = &s->g->funcs[v];
	struct as_best b = as_best_target(&s->as, v);
	uint64_t cand;

	if (b.id == SP_NONE)
		return true;
	overflow |= s->g->funcs[b.id].res.overflow;
	cand = add_saturating(self, b.total, &overflow);
	if (overflow)
		return false;
	if (cand < f->res.total ||
	    (cand == f->res.total && f->res.next != SP_NONE && f->res.next < b.id))
		return true;
	if (cand == f->res.total && f->res.next == b.id && f->res.next_kind == SP_EDGE_CALL) {
		f->res.next_flags &= SP_EDGE_F_ASSUMED;
		return true;
	}
	f->res.total = cand;
	f->res.next = b.id;
	f->res.next_kind = SP_EDGE_CALL;
	f->res.next_flags = SP_EDGE_F_ASSUMED & own_call_flags(s->g, f, b.id);
	f->res.next_how = SP_RES_NONE;
	f->res.overflow = false;
	return true;
}

static void start_total(struct sp_func *f, uint64_t self, bool overflow)
{
	f->res.total = self;
	f->res.next = SP_NONE;
	f->res.next_kind = SP_EDGE_CALL;
	f->res.next_flags = 0;
	f->res.next_how = SP_RES_NONE;
	f->res.overflow = overflow;
	f->res.certain = self;
	f->res.certain_next = SP_NONE;
	f->res.certain_kind = SP_EDGE_CALL;
	f->res.certain_flags = 0;
	f->res.certain_how = SP_RES_NONE;
}

/* Does the worst path chosen take an assumed call, here or below? */
static void mark_via_assumed(struct sp_graph *g, struct sp_func *f)
{
	f->res.via_assumed = f->res.next != SP_NONE &&
			     ((f->res.next_flags & SP_EDGE_F_ASSUMED) ||
			      g->funcs[f->res.next].res.via_assumed);
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
	/* a huge .su frame plus its red zone saturates already */
	bool overflow = f->qual != SP_QUAL_UNKNOWN && f->self > UINT64_MAX - f->red_zone;
	struct sp_calls it;
	struct sp_edge call;

	start_total(f, self, overflow);
	sp_func_for_each_edge(g, f, e)
		consider(s, v, self, e);
	if (!consider_assumed(s, v, self, overflow)) {
		/* a sum through the set saturates: every call, in the edges' order */
		start_total(f, self, overflow);
		sp_calls_begin(&it, g, v, NULL);
		while (sp_calls_next(&it, &call))
			consider(s, v, self, &call);
		sp_calls_end(&it);
	}
	mark_via_assumed(g, f);
}

/*
 * What v shows of cause c by itself: v, or for NEST the once/nest
 * function that one of its calls would have re-entered past its count
 * (the witness is that function, whose annotation bounds the cycle).
 */
static uint32_t own_witness(const struct solver *s, uint32_t v, int c)
{
	if (s->own_mask[v] & (1u << c))
		return v;
	return c == SP_CAUSE_NEST ? s->own_nest[v] : SP_NONE;
}

_Static_assert(SP_CAUSE__COUNT <= 16, "own_mask holds a bit per cause");

/* What each member shows by itself, for own_witness(): asked for a
 * member once per call into it and cause, it was worked out each time
 * (a kernel's cycle has 30,000 members); own_nest[] is the DFS's. */
static void own_members(struct solver *s, const uint32_t *members, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		s->own_mask[members[i]] = (uint16_t)own_causes(&s->g->funcs[members[i]]);
}

/* What a member sees through edge e for cause c, or SP_NONE. */
static uint32_t witness_via(const struct solver *s, const struct sp_edge *e,
			    int c, const uint32_t *shared)
{
	const struct sp_func *to = &s->g->funcs[e->to];
	uint32_t w;

	if (edge_cut(s, e))
		return SP_NONE;
	if (to->res.scc != s->g->funcs[e->from].res.scc)
		return to->res.witness[c];
	/* a fellow member: itself if it has the cause, else the component's */
	w = own_witness(s, e->to, c);
	return w != SP_NONE ? w : shared[c];
}

/*
 * Without assumed sets, what the causes the members do not show
 * themselves come from: for each, the first call (members in order,
 * each one's calls in order) out of the component into a function that
 * shows it.  One pass for all of them: a cause that nothing below
 * shows was a pass over every call of the component each.
 */
static void shared_exits(const struct solver *s, const uint32_t *members, size_t n,
			 uint32_t *shared)
{
	const struct sp_graph *g = s->g;
	const struct sp_edge *e;
	unsigned need = 0;
	size_t i;
	int c;

	for (c = 0; c < SP_CAUSE__COUNT; c++)
		if (shared[c] == SP_NONE)
			need |= 1u << c;
	for (i = 0; i < n && need; i++) {
		const struct sp_func *f = &g->funcs[members[i]];

		sp_func_for_each_edge(g, f, e) {
			const uint32_t *w = g->funcs[e->to].res.witness;

			if (edge_cut(s, e) || g->funcs[e->to].res.scc == f->res.scc)
				continue;
			for (c = 0; c < SP_CAUSE__COUNT; c++)
				if ((need & (1u << c)) && w[c] != SP_NONE) {
					shared[c] = w[c];
					need &= ~(1u << c);
				}
			if (!need)
				break;
		}
	}
}

/*
 * The 'assume' lines the members rest on: the union of their own and of
 * those of every call out of the component that is not cut, assumed
 * sets' included.  Every member reaches every other, so all share it
 * (a witness names the nearest function; these name every line).
 */
static void solve_assume_lines(const struct solver *s, const uint32_t *members, size_t n)
{
	struct sp_graph *g = s->g;
	const struct sp_edge *e;
	uint64_t lines = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		const struct sp_func *f = &g->funcs[members[i]];

		lines |= f->assume_bits | as_exit_lines(&s->as, members[i]);
		sp_func_for_each_edge(g, f, e)
			if (!edge_cut(s, e) && g->funcs[e->to].res.scc != f->res.scc)
				lines |= g->funcs[e->to].res.assume_lines;
	}
	for (i = 0; i < n; i++)
		g->funcs[members[i]].res.assume_lines = lines;
}

/* Every member of a component shares the union of its causes. */
static void shared_witnesses(const struct solver *s, const uint32_t *members,
			     size_t n, uint32_t *shared)
{
	const struct sp_graph *g = s->g;
	const struct sp_edge *e;
	size_t i;
	int c;

	for (c = 0; c < SP_CAUSE__COUNT; c++) {
		shared[c] = SP_NONE;
		for (i = 0; i < n && shared[c] == SP_NONE; i++)
			shared[c] = own_witness(s, members[i], c);
	}
	if (!as_on(&s->as)) {
		shared_exits(s, members, n, shared);
		return;
	}
	for (c = 0; c < SP_CAUSE__COUNT; c++) {
		for (i = 0; i < n && shared[c] == SP_NONE; i++) {
			const struct sp_func *f = &g->funcs[members[i]];
			/* the first assumed target outside with the cause */
			uint32_t set = as_first_witness(&s->as, members[i], c);

			sp_func_for_each_edge(g, f, e) {
				if (set < e->to)
					break;
				if (edge_cut(s, e) || g->funcs[e->to].res.scc == f->res.scc)
					continue;
				shared[c] = g->funcs[e->to].res.witness[c];
				if (shared[c] != SP_NONE)
					break;
			}
			if (shared[c] == SP_NONE && set != SP_NONE)
				shared[c] = g->funcs[set].res.witness[c];
		}
	}
}

/* The first of v's assumed targets, in id order, through which v sees
 * cause c (its witness in *w): one outside v's component with it, or,
 * when the component shares it, the lowest one inside.  SP_NONE if none. */
static uint32_t assumed_witness(const struct solver *s, uint32_t v, int c,
				const uint32_t *shared, uint32_t *w)
{
	const struct sp_graph *g = s->g;
	uint32_t out = as_first_witness(&s->as, v, c);
	uint32_t in = shared[c] != SP_NONE ? as_lowest_inside(&s->as, v) : SP_NONE;

	if (out == SP_NONE && in == SP_NONE)
		return SP_NONE;
	if (out < in) {
		*w = g->funcs[out].res.witness[c];
		return out;
	}
	*w = own_causes(&g->funcs[in]) & (1u << c) ? in : shared[c];
	return in;
}

/*
 * solve_witnesses() without assumed sets, all causes in one pass over
 * v's calls: a cause v does not show itself comes from its first call
 * that is not cut and goes to a fellow member (which gives its own or
 * the component's) or out to a function that shows it.  A cause the
 * component does not share is shown by no member and no call out of
 * it.
 */
static void member_witnesses(const struct solver *s, uint32_t v, const uint32_t *shared)
{
	struct sp_graph *g = s->g;
	struct sp_func *f = &g->funcs[v];
	const struct sp_edge *e;
	unsigned need = 0;
	int c;

	for (c = 0; c < SP_CAUSE__COUNT; c++) {
		f->res.witness[c] = shared[c] == SP_NONE ? SP_NONE : own_witness(s, v, c);
		if (shared[c] != SP_NONE && f->res.witness[c] == SP_NONE)
			need |= 1u << c;
	}
	sp_func_for_each_edge(g, f, e) {
		const struct sp_func *to = &g->funcs[e->to];

		if (!need)
			break;
		if (edge_cut(s, e))
			continue;
		for (c = 0; c < SP_CAUSE__COUNT; c++) {
			if (!(need & (1u << c)))
				continue;
			if (to->res.scc == f->res.scc)
				f->res.witness[c] = witness_via(s, e, c, shared);
			else if (to->res.witness[c] != SP_NONE)
				f->res.witness[c] = to->res.witness[c];
			if (f->res.witness[c] != SP_NONE)
				need &= ~(1u << c);
		}
	}
}

/* The nearest witness of each cause: v itself, else the first callee's. */
static void solve_witnesses(const struct solver *s, uint32_t v, const uint32_t *shared)
{
	struct sp_graph *g = s->g;
	struct sp_func *f = &g->funcs[v];
	const struct sp_edge *e;
	int c;

	for (c = 0; c < SP_CAUSE__COUNT && as_on(&s->as); c++) {
		uint32_t w, set_w = SP_NONE, set;

		w = own_witness(s, v, c);
		set = w != SP_NONE ? SP_NONE : assumed_witness(s, v, c, shared, &set_w);

		if (w == SP_NONE)
			sp_func_for_each_edge(g, f, e) {
				if (set < e->to)
					break;
				if ((w = witness_via(s, e, c, shared)) != SP_NONE)
					break;
			}
		f->res.witness[c] = w != SP_NONE ? w : set_w;
	}
	if (!as_on(&s->as))
		member_witnesses(s, v, shared);
	f->res.bounded = f->res.witness[SP_CAUSE_DYNAMIC] == SP_NONE &&
			 f->res.witness[SP_CAUSE_RECURSION] == SP_NONE &&
			 f->res.witness[SP_CAUSE_INDIRECT] == SP_NONE;
	f->res.partial = f->res.witness[SP_CAUSE_UNKNOWN] != SP_NONE ||
			 f->res.witness[SP_CAUSE_INCOMPLETE] != SP_NONE;
	f->res.assumed = sp_result_assumed(&f->res);
}

static bool has_self_edge(const struct sp_graph *g, uint32_t v)
{
	const struct sp_func *f = &g->funcs[v];
	const struct sp_edge *e;

	sp_func_for_each_edge(g, f, e)
		if (e->to == v)
			return true;
	return sp_assumes(g, v, v);
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
static void bound_cycle(const struct solver *s, const uint32_t *members, size_t n,
			uint32_t depth)
{
	struct sp_graph *g = s->g;
	uint64_t sum = 0, exit_total = 0, set_total = 0, bound;
	bool overflow = false;
	const struct sp_edge *e;
	size_t i;

	for (i = 0; i < n; i++) {
		const struct sp_func *f = &g->funcs[members[i]];

		sum = add_saturating(sum, frame_self(f), &overflow);
		sp_func_for_each_edge(g, f, e) {
			const struct sp_result *r = &g->funcs[e->to].res;

			if (edge_cut(s, e) || r->scc == f->res.scc)
				continue;
			if (r->total > exit_total)
				exit_total = r->total;
			overflow |= r->overflow;
		}
		if (as_exit(&s->as, members[i], &set_total, &overflow) && set_total > exit_total)
			exit_total = set_total;
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

/* A call the binary shows, or that a table, a struct member or an
 * annotation names: not one guessed from a prototype (a tracepoint's
 * probes and a BPF program's helpers are, in part) or from every
 * address the image takes. */
static bool edge_known(const struct sp_edge *e)
{
	return e->how != SP_RES_PROTOTYPE && e->how != SP_RES_ADDRESS_TAKEN &&
	       e->how != SP_RES_TRACEPOINT && e->how != SP_RES_BPF;
}

/* The next known call of fr's node to a member not yet seen, or NULL. */
static const struct sp_edge *next_known_member(struct solver *s, struct dfs_frame *fr)
{
	const struct sp_func *f = &s->g->funcs[fr->node];
	const struct sp_edge *e;

	while (fr->edge < f->edge_first + f->edge_count) {
		e = &s->g->edges[fr->edge++];
		if (edge_known(e) && !edge_cut(s, e) && !s->order_seen[e->to] &&
		    s->g->funcs[e->to].res.scc == f->res.scc)
			return e;
	}
	return NULL;
}

/*
 * Does a member call through a prototype's or every address-taken
 * function (--indirect=types' fallbacks)?  Only then is the order
 * changed: --indirect=address-taken's sets are solved in discovery
 * order, and must give what the same calls as edges give.
 */
static bool has_guessed_call(const struct sp_graph *g, const uint32_t *members, size_t n)
{
	const struct sp_edge *e;
	size_t i;

	for (i = 0; i < n; i++)
		sp_func_for_each_edge(g, &g->funcs[members[i]], e)
			if (!edge_known(e))
				return true;
	return false;
}

/*
 * Inside a cycle a path may only climb the members' order (see
 * edge_usable()), so the order decides how deep the lower bound goes.
 * Tarjan's discovery order drops every cross edge, and once calls
 * guessed from a prototype or from every address taken join thousands
 * of functions into one cycle, it follows them as readily as the known
 * calls, so a syscall's path wanders through them.  The reverse
 * postorder of a DFS over the known calls alone keeps every known call
 * that closes no cycle of known calls usable: the path shown follows
 * what the code does.  Members get new indices in that order, inside
 * the range of their discovery indices (only members compare them).
 */
static void order_members(struct solver *s, uint32_t *members, size_t n)
{
	uint32_t base = s->disc[members[0]], npost = 0;
	size_t i, depth = 0;

	for (i = 0; i < n; i++) {
		if (s->order_seen[members[i]])
			continue;
		s->order_seen[members[i]] = 1;
		s->order_dfs[depth++] = (struct dfs_frame){ .node = members[i],
			.edge = s->g->funcs[members[i]].edge_first };
		while (depth) {
			struct dfs_frame *fr = &s->order_dfs[depth - 1];
			const struct sp_edge *e = next_known_member(s, fr);

			if (!e) {
				s->order_post[npost++] = fr->node;
				depth--;
				continue;
			}
			s->order_seen[e->to] = 1;
			s->order_dfs[depth++] = (struct dfs_frame){ .node = e->to,
				.edge = s->g->funcs[e->to].edge_first };
		}
	}
	for (i = 0; i < n; i++) {
		members[i] = s->order_post[n - 1 - i];
		s->disc[members[i]] = base + (uint32_t)i;
		s->order_seen[members[i]] = 0;
	}
}

/*
 * Members come in increasing discovery order, then order_members()'s;
 * solving them from the last backwards means every usable in-component
 * edge is solved.
 */
static void solve_scc(struct solver *s, uint32_t *members, size_t n)
{
	struct sp_graph *g = s->g;
	uint32_t shared[SP_CAUSE__COUNT];
	bool recursive;
	size_t i;

	if (n == 1 && presolved(&g->funcs[members[0]])) {
		g->funcs[members[0]].res.scc = s->nscc++;
		return;
	}
	recursive = n > 1 || has_self_edge(g, members[0]);
	for (i = 0; i < n; i++) {
		g->funcs[members[i]].res.scc = s->nscc;
		if (recursive)
			g->funcs[members[i]].flags |= SP_F_RECURSIVE;
	}
	s->nscc++;
	if (n > 1 && has_guessed_call(g, members, n))
		order_members(s, members, n);
	as_scc_begin(&s->as, members, n);
	for (i = n; i-- > 0;) {
		solve_total(s, members[i]);
		as_solved(&s->as, members[i]);
	}
	if (recursive && scc_depth(g, members, n))
		bound_cycle(s, members, n, scc_depth(g, members, n));
	own_members(s, members, n);
	shared_witnesses(s, members, n, shared);
	for (i = 0; i < n; i++)
		solve_witnesses(s, members[i], shared);
	solve_assume_lines(s, members, n);
	as_scc_end(&s->as, members, n);
}

/* v is the root of a component: it and everything above it on the stack. */
static void emit_scc(struct solver *s, uint32_t v)
{
	size_t start = s->sp, i;

	while (s->stack[--start] != v)
		;
	for (i = start; i < s->sp; i++) {
		s->on_stack[s->stack[i]] = 0;
		as_pop(&s->as, s->stack[i]);
	}
	solve_scc(s, s->stack + start, s->sp - start);
	s->sp = start;
}

/* A presolved function's calls are not followed: they are in its result. */
static void tarjan_visit(struct solver *s, uint32_t v)
{
	const struct sp_func *f = &s->g->funcs[v];

	s->disc[v] = s->low[v] = s->ndisc++;
	s->own_nest[v] = SP_NONE;
	s->stack[s->sp++] = v;
	s->on_stack[v] = 1;
	s->dfs[s->depth].node = v;
	s->dfs[s->depth].edge = presolved(f) ? f->edge_first + f->edge_count : f->edge_first;
	s->dfs[s->depth].cursors = as_visit(&s->as, v, s->disc, &s->low[v]);
	s->depth++;
}

/* The next callee of fr's node in the edges' order: its own edges merged
 * with the targets of its assumed set not yet seen (a seen one lowers
 * low[] only as as_visit() did already).  SP_NONE when none is left. */
static uint32_t next_callee(struct solver *s, struct dfs_frame *fr)
{
	const struct sp_func *f = &s->g->funcs[fr->node];
	uint32_t end = f->edge_first + f->edge_count, own = SP_NONE, set;

	while (fr->edge < end && edge_cut(s, &s->g->edges[fr->edge])) {
		/* the first, for own_witness(): every call of a function
		 * the DFS enters passes here or is followed */
		if (s->cut[s->g->edges[fr->edge].to] == SP_CUT_NEST &&
		    s->own_nest[fr->node] == SP_NONE)
			s->own_nest[fr->node] = s->g->edges[fr->edge].to;
		fr->edge++;
	}
	if (fr->edge < end)
		own = s->g->edges[fr->edge].to;
	set = as_next(&s->as, fr->node, fr->cursors);

	if (own != SP_NONE && own <= set) {
		fr->edge++;
		return own;
	}
	return set;
}

static void tarjan_from(struct solver *s, uint32_t root)
{
	tarjan_visit(s, root);
	while (s->depth) {
		struct dfs_frame *fr = &s->dfs[s->depth - 1];
		uint32_t v = fr->node, w = next_callee(s, fr);

		if (w != SP_NONE) {
			if (s->disc[w] == UNSEEN)
				tarjan_visit(s, w);
			else if (s->on_stack[w] && s->disc[w] < s->low[v])
				s->low[v] = s->disc[w];
			continue;
		}
		as_finish(&s->as, fr->cursors);
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

void sp_reset_result(struct sp_func *f)
{
	sp_result_init(&f->res);
	f->flags &= ~(SP_F_RECURSIVE | SP_F_DEPTH_BOUNDED);
}

void sp_solve(struct sp_graph *g, const uint8_t *cut)
{
	struct solver s;
	uint32_t v;

	solver_init(&s, g, cut);
	for (v = 0; v < g->nfuncs; v++)
		if (s.disc[v] == UNSEEN && !(cut && cut[v]))
			tarjan_from(&s, v);
	solver_release(&s);
}

/*
 * An unbounded total has no bound, only paths that prove it is at least
 * so deep: the one it reports must be certain, so its total becomes the
 * certain path's, and a deeper worst path that takes an assumed call
 * is kept apart as what may be.  A cycle's annotated depth raises the
 * worst total without a path (bound_cycle()): no assumed bound then.
 */
static void settle_lower_bound(struct sp_result *r)
{
	r->assumed_lb = 0;
	if (r->bounded)
		return;
	if (r->via_assumed && r->total > r->certain)
		r->assumed_lb = r->total;
	r->total = r->certain;
	r->overflow = r->certain == UINT64_MAX;
}

int sp_analyze(struct sp_graph *g, struct sp_err *err)
{
	uint32_t v;

	if (check_graph(g, err))
		return -1;
	for (v = 0; v < g->nfuncs; v++)
		sp_reset_result(&g->funcs[v]);
	g->nsegs = g->nsteps = 0;
	if (sp_nest_solve(g, err))
		return -1;
	sp_solve(g, NULL);
	sp_index_cycles(g);
	for (v = 0; v < g->nfuncs; v++)
		settle_lower_bound(&g->funcs[v].res);
	return 0;
}

/*
 * Below a once/nest function the path is its segment, which may end in
 * another once/nest function whose segment goes on: each segment's
 * context holds more functions than the last, so the walk ends.
 */
static size_t walk_path(const struct sp_graph *g, uint32_t id, bool certain, uint32_t *out,
			uint8_t *kinds, uint8_t *flags, uint8_t *hows, size_t max)
{
	uint8_t kind = SP_EDGE_CALL, fl = 0, how = SP_RES_NONE;
	uint32_t seg = SP_NONE, pos = 0, plain = 0, segs = 0;
	size_t n = 0;

	while (id < g->nfuncs && n < max) {
		const struct sp_result *r = &g->funcs[id].res;

		if (out)
			out[n] = id;
		if (kinds)
			kinds[n] = kind;
		if (flags)
			flags[n] = fl;
		if (hows)
			hows[n] = how;
		n++;
		if (seg == SP_NONE && (certain ? r->certain_seg : r->seg) == SP_NONE) {
			/* next only climbs discovery order or leaves for a
			 * finished component, so the walk ends; the nfuncs cap
			 * guards a graph that was edited after sp_analyze() */
			if (++plain >= g->nfuncs)
				break;
			kind = certain ? r->certain_kind : r->next_kind;
			fl = certain ? r->certain_flags : r->next_flags;
			how = certain ? r->certain_how : r->next_how;
			id = certain ? r->certain_next : r->next;
			continue;
		}
		if (seg == SP_NONE) {
			seg = certain ? r->certain_seg : r->seg;
			pos = 0;
		}
		while (seg < g->nsegs && pos >= g->segs[seg].n && segs++ <= g->nsegs) {
			seg = g->segs[seg].cont;
			pos = 0;
		}
		if (seg >= g->nsegs || segs > g->nsegs)
			break;
		id = g->steps[g->segs[seg].first + pos].func;
		kind = g->steps[g->segs[seg].first + pos].kind;
		fl = g->steps[g->segs[seg].first + pos].flags;
		how = g->steps[g->segs[seg].first + pos].how;
		pos++;
	}
	return n;
}

size_t sp_worst_path_flags(const struct sp_graph *g, uint32_t id, uint32_t *out,
			   uint8_t *kinds, uint8_t *flags, uint8_t *hows, size_t max)
{
	bool certain = id < g->nfuncs && !g->funcs[id].res.bounded;

	return walk_path(g, id, certain, out, kinds, flags, hows, max);
}

size_t sp_assumed_path_flags(const struct sp_graph *g, uint32_t id, uint32_t *out,
			     uint8_t *kinds, uint8_t *flags, uint8_t *hows, size_t max)
{
	return walk_path(g, id, false, out, kinds, flags, hows, max);
}

size_t sp_certain_path_flags(const struct sp_graph *g, uint32_t id, uint32_t *out,
			     uint8_t *kinds, uint8_t *flags, uint8_t *hows, size_t max)
{
	return walk_path(g, id, true, out, kinds, flags, hows, max);
}

size_t sp_worst_path(const struct sp_graph *g, uint32_t id, uint32_t *out,
		     uint8_t *kinds, size_t max)
{
	return sp_worst_path_flags(g, id, out, kinds, NULL, NULL, max);
}
