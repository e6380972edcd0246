/*
 * nest.c - once/nest functions: their totals when a call back into a
 * function that is already on the stack as often as its annotation
 * allows does not happen.
 *
 * A context is a once/nest function entered with the counts of the
 * once/nest functions on the stack that can change something below it:
 * those of the once/nest functions it reaches (itself, when it reaches
 * itself), and of the ancestors and 'unless' functions of the 'below'
 * lines whose calls it reaches (see close_relevant()).  The others do
 * not change its result; keyed by them too, functions that reach each
 * other in many ways made a context per way of reaching them.  Its
 * result is the solver's over the region below the function: the
 * functions it reaches without passing another once/nest function, plus
 * one leaf per once/nest function they call.  A leaf carries the result of its own
 * context, its count one higher, or is cut when its count is reached.
 * Every path that context allows is a path of that sub-graph, so its
 * total is a sound bound; callers elsewhere see the function as a leaf
 * with its first context's result.  Contexts are memoized by function
 * and counts; each is solved once all its leaves are (an explicit stack,
 * as counts can be deep).  A region is built once, for all contexts.
 * Its solve reads only its leaves' results and cuts and its gates'
 * cuts, the same for many contexts (counts deeper than any path goes,
 * unbounded leaves that count their own frame alone): the solve of the
 * first is the others' too (solve_frame()), and a context costs its
 * leaves and gates, not its region.
 *
 * A copy that an 'ignore ... from' line made (sp_func.original) has a
 * region of its own, its calls being not quite its function's, but is
 * on the stack as its function: keys, cuts and 'below' ancestors read
 * one count for both (count_of), so a count on vfree bounds a cycle
 * whose stacks pass a copy of vfree too.
 *
 * A call that an 'ignore ... below' line drops while its ancestor is on
 * the stack goes through a gate in each region: a node of no frame that
 * makes the call, cut in the contexts that count the ancestor.  An
 * ancestor with no count of its own (SP_NEST_CONTEXT) counts as on the
 * stack or not; entered again below itself with the same counts, its
 * context would wait for itself: that leaf is a cycle, unbounded, as the
 * graph without the line says.
 *
 * 'nest FUNC per HOLDER...' (graph->pers): a key keeps FUNC's credit,
 * the activations of its holders below it less its own (see
 * key_plus()); a call into FUNC with none left is cut.  The holders are
 * once/nest functions without a count of their own, whose region root
 * gives the credit; one that is unbounded in every context is dropped
 * first (drop_unbounded_holders()).  The credit is exact at every
 * coarseness: neither FUNC nor a holder is pooled.
 *
 * Functions that reach each other in many ways need a context per
 * combination of their counts (a kernel's printk, WARN and scheduler
 * code: a million).  Past the limit the solve starts again coarser:
 * the counts of the once/nest functions that reach themselves (first
 * those no 'below' line reads, then all with a count) are pooled, and
 * a key keeps only how many activations of them all the stack may
 * still hold in the function's cycle (the once/nest functions whose
 * counts reach each other, see plan_cycles()), the sum of their counts
 * at first, one less for each on it; a stack leaves a cycle for good,
 * so the next cycle starts with all of its own (budget_left()); on
 * Debian's kernel with linux-assumed.ann and scratch lines, the largest
 * is 92 activations where one budget for all was 1160.  Every stack
 * holds at most that many of each cycle's, so every path the exact
 * contexts allow is one the budgets allow; a pooled function's
 * own count is not known, so nothing that only it would cut is cut (a
 * 'below' gate of a pooled ancestor stays, one with a pooled 'unless'
 * function too), but for the root of a context, which is on the stack:
 * a 'once' root's call into itself is cut.  Past the limit again (the
 * 'below' ancestors on the stack or not still make a context per set),
 * the next attempt (TIER_STRETCH) keeps an ancestor only since the
 * last activation of a pooled function: entering one drops every such
 * ancestor from the key (drop_since()), as if it were not on the stack,
 * which only keeps calls its gates would drop.  A cycle that activates
 * a pooled function is bounded by the budget however many calls stay;
 * one that does not (a kernel's try_to_wake_up -> ... ->
 * raise_softirq_irqoff -> wake_up_process -> try_to_wake_up) still
 * meets its gate with its ancestor known.  An 'unless' function cannot
 * be forgotten that way (a RESET taken for absent would cut a call that
 * happens): its presence stays for good, and a pooled one's is kept
 * beside the budget (POOL_SEEN), which also cuts a pooled 'once'
 * function entered again while the key shows it.  The keys are a
 * function of the keys above them, as before, so memoized contexts stay
 * right; every path the exact contexts allow is one this attempt
 * allows.  Past its limit too, the last attempt forgets the ancestors
 * for good: their gates stay but in their own regions.  The totals are
 * the same or higher, and each pooled or forgotten function says so in
 * its reason (SP_F_NEST_POOLED).
 *
 * A leaf that the root reaches only through gates its context cuts is
 * on no path of that context: it is given no context (LEAF_OFF), which
 * a walk of the region per set of gates cut finds (leaves_reached();
 * the sets a region meets are few).  Its context would change nothing
 * the root shows, but it was made, memoized, and made the contexts
 * below it: on Debian's kernel with linux.ann, the exact attempt's
 * 410,322 contexts plain, 8,540 typed, of which 293,692 and 4,635 are
 * on a path, the JSON byte-identical.  Such a context could also come
 * back to a frame still waiting for its leaves: a cycle (LEAF_CYCLE),
 * and an unbounded result, though no stack takes it.  Memoized, that
 * result would stand for the context everywhere (a wakeup's ancestor,
 * solved below its own gate, was unbounded for good).  So an unbounded
 * context that rests on a frame on the stack (struct ctx.low) is
 * dropped once that frame is solved bounded (settle()), and solved
 * again, with the frame's result, if needed; a bounded one reaches no
 * such leaf, and stays, and for a frame solved unbounded the cycle
 * stood for an unbounded leaf (the same totals: both end the path at
 * the leaf's own frame).  With the leaves off every path left out, a
 * cycle leaf is on a path of each context between it and the frame,
 * which are then unbounded, so none is dropped; settle() stays for
 * what that argument misses.
 *
 * The credits stay exact there too, and a holder in a pooled cycle
 * gives one more each time a stack goes round it: keys then pair each
 * budget with each credit the turns before it gave.  On Debian's kernel
 * with linux-assumed.ann and 'nest __vunmap 5', 'nest __vmalloc_node
 * 4', warn_alloc() (a holder) is in the cycle of 367 activations that
 * vmalloc() and printk() make: the last attempt takes 2.9 million
 * contexts (budgets 0-367 against credits 1-64, the last of them no
 * bound), 1.0 GB, so it has a limit of its own (MAX_CONTEXTS_LAST).
 * The attempts before it make over 4 million each (the ancestors they
 * keep times the credits), and stop at theirs.  Capping a credit low
 * would be unsound (a stack with more holders below nests FUNC more
 * often), and a low cap that meant no bound would leave FUNC's own
 * cycle unbounded (Linux's %pV inside %pV), which only the credit
 * bounds.  Nor does the credit follow from the budget: va_format()
 * nests itself there without a pooled function between, so a stack
 * spends credit without budget.  TIER_STRETCH, with the ancestors kept
 * only since the last pooled activation, still passes 4 million there,
 * so it keeps the limit of the attempts before it and fails fast.
 *
 * Where FUNC is unbounded whatever its credit, the credit changes no
 * total: each attempt first keeps credits as none or one, and stands
 * when every FUNC context came out unbounded (credit_one_holds()).  On
 * that kernel's direct-calls view (linux-assumed.ann) va_format() is
 * unbounded in all 63,504 of its contexts of the last attempt, and no
 * key's result differed by its credit alone: the last attempt takes
 * 105,483 contexts instead of 3,141,957, the JSON unchanged.
 * TIER_STRETCH passes 4 million even so (1.9 million keys without the
 * credit by then): the 'below' ancestors kept since the last pooled
 * activation, not the credit, are what it multiplies.
 */
#include "analysis/internal.h"

#include <stdlib.h>
#include <string.h>

#include "common/u64map.h"
#include "common/xalloc.h"

/* Contexts and sub-graph work before counting coarser (or, pooled
 * too, giving up): functions that reach each other make a context for
 * each combination of counts (Debian's kernel with linux.ann, plain:
 * 410,309 exact ones, 5 s).  sp_graph.nest_limit lowers the first for every
 * attempt but the last (tests).  The last attempt has room for more:
 * it is the last, and a 'nest ... per' credit stays exact in it, one
 * more for each holder a pooled cycle passes (see the top of this
 * file); a context costs about 250 bytes. */
#define MAX_CONTEXTS	(1u << 19)
#define MAX_CONTEXTS_LAST	(1u << 22)
#define MAX_WORK	(1ull << 30)

/* How coarse the counts are: exact, then pooled but for the functions
 * 'below' lines read, then pooled but for those without a count (and
 * those never below themselves), then those kept only since the last
 * pooled activation ('unless' functions for good), then forgotten. */
enum nest_tier {
	TIER_EXACT, TIER_GATES_EXACT, TIER_POOLED, TIER_STRETCH, TIER_FORGET, TIER__COUNT
};

/* What a key keeps of a function (struct nest.pooled): its count; none,
 * the count in the budget; nothing; the budget and whether it is on the
 * stack (SEEN); whether it is on the stack since the last activation
 * of a pooled function, with its count in the budget or not (SINCE). */
enum { POOL_EXACT, POOL_BUDGET, POOL_FORGOTTEN, POOL_SEEN, POOL_SINCE, POOL_BUDGET_SINCE };

struct region {
	struct sp_graph sub;	/* 0: the function, the body below it, its
				 * gates from gate_first, then the leaves from
				 * nbody on */
	uint32_t nbody, gate_first;
	uint32_t *global;	/* sub id -> graph id (a gate: its callee) */
	uint32_t *gate_below;	/* per gate: its first entry in nest.belows */
	uint8_t *cut;		/* per sub id, set for each context */
	bool built;
	uint32_t *leaves;	/* graph ids of the leaves, kept when the rest
				 * is released (see release_region()) */
	uint32_t nleaves;
	uint8_t *reach_cut;	/* per gate set met: its gates' cuts */
	uint64_t *reach_leaf;	/* ... and the leaves the root reaches past
				 * them, a bit each (see leaves_reached()) */
	uint32_t nreach;
	size_t reach_cut_cap, reach_leaf_cap;
};

struct ctx {
	uint32_t fn;		/* index into nest.fids */
	size_t key;		/* counts: pool[key ..) as (fn, count) pairs */
	uint32_t keylen;
	uint32_t chain;		/* next context with the same hash */
	uint32_t low;		/* the frame it took for a cycle, by its
				 * depth on the stack (SP_NONE: none, the
				 * result is final; CTX_STALE: dropped) */
	struct sp_result res;	/* in graph ids */
};

/* A context whose result took a frame that has since been solved for a
 * cycle: not found again, but solved again when needed. */
#define CTX_STALE (SP_NONE - 1)

/* A leaf whose context is the one being solved below it: a cycle. */
#define LEAF_CYCLE (SP_NONE - 1)

/* A leaf that the root reaches only through gates the context cuts:
 * on no path, it needs no context (see leaves_reached()). */
#define LEAF_OFF (SP_NONE - 2)

/* A leaf's result as its region's solve reads it (see same_leaf()). */
struct leaf_class {
	struct sp_result res;
	uint32_t chain;		/* next class with the same hash */
};

/* A solve of a region's sub-graph, for the next context whose inputs
 * are the same (see solve_frame()). */
struct solved {
	uint32_t fn;
	uint32_t ctx;		/* the context it solved: its result */
	uint32_t end[2];	/* per path (worst, certain): the leaf it ends
				 * at, SP_NONE */
	uint32_t chain;		/* next solve with the same hash */
	size_t in;		/* its inputs: nest.inputs[in ..), one per
				 * gate and leaf */
};

/* A context waiting for its leaves' contexts. */
struct frame {
	uint32_t fn, keylen;
	size_t key;
	uint32_t leaf;		/* the next leaf to resolve */
	uint32_t *leaf_ctx;	/* per leaf: its context, SP_NONE when cut */
	uint32_t reach;		/* its gates' entry in the region's
				 * reach_leaf, SP_NONE: every leaf */
	uint32_t low;		/* the lowest frame its leaves took for a
				 * cycle, its own depth when none */
	size_t first_ctx;	/* nest.nctx when it was pushed */
};

struct nest {
	struct sp_graph *g;
	uint32_t *fn_of;	/* graph id -> index into fids, SP_NONE */
	uint32_t *fids;		/* the once/nest functions */
	uint32_t *count_of;	/* per fn: the fn whose count it is on the
				 * stack as, its original's for a 'from'
				 * copy (sp_func.original), else itself */
	uint32_t nfn;
	size_t fids_cap;
	struct region *regions;
	uint32_t *local;	/* graph id -> sub id while a region is built */
	struct ctx *ctxs;
	size_t nctx, ctx_cap;
	uint32_t *pool;		/* context keys */
	size_t npool, pool_cap;
	uint32_t *scratch;	/* a key being looked up */
	size_t scratch_cap;
	struct sp_u64map memo;	/* key hash -> last context with it */
	struct frame *stack;
	size_t depth, stack_cap;
	uint32_t *tentative;	/* contexts whose low is a frame still on
				 * the stack, in the order they were made */
	size_t ntentative, tentative_cap;
	uint64_t work;
	uint32_t *parent;	/* graph id -> BFS parent (the edge), SP_NONE */
	uint8_t *doomed;	/* per fn: unbounded in every context, see
				 * root_cycles() */
	uint32_t *prior;	/* per doomed fn: its last round's context */
	struct sp_below *belows;	/* graph->belows by call, ancestor as an
					 * index into fids */
	uint32_t nbelows;
	uint32_t *edge_below;	/* per graph edge: its first entry in belows,
				 * SP_NONE (NULL when no line has 'below') */
	uint64_t *rel;		/* per fn, nwords words: the once/nest
				 * functions whose counts its key keeps,
				 * see close_relevant(); bit nfn: the
				 * budget of the pooled ones */
	uint32_t nwords;
	const uint8_t *pooled;	/* per fn: POOL_*, what keys keep of its
				 * count (NULL: every count exact) */
	const uint32_t *room;	/* per fn: the pooled counts of its cycle
				 * it reaches, summed (NULL when none
				 * pooled) */
	const uint32_t *cycle;	/* per fn: its cycle, the functions that
				 * reach it and that it reaches (its least
				 * one) */
	const uint32_t *cycle_budget;	/* per fn: the pooled counts of its
					 * cycle, summed */
	uint32_t *hold_first;	/* per fn + 1: its entries in hold_of */
	uint32_t *hold_of;	/* the 'per' FUNCs each fn is a holder of */
	struct leaf_class *classes;	/* the leaf results met */
	size_t nclass, class_cap;
	struct sp_u64map class_memo;	/* hash -> last class with it */
	uint32_t *inputs;	/* the solves' inputs, and the one being
				 * looked up at the end */
	size_t ninputs, inputs_cap;
	struct solved *solved;
	size_t nsolved, solved_cap;
	size_t nsolves;		/* solves of a sub-graph, every round's */
	struct sp_u64map solved_memo;	/* inputs' hash -> last solve */
	uint32_t max_ctx;
	uint64_t max_work;
	bool over;		/* stopped at the limits */
	bool credit_one;	/* 'per' credits kept as none or one (see
				 * credit_one_holds()) */
};

/*
 * A region's sub-graph, once no frame needs it: a doomed function's is
 * solved once for its guess and once a round, and with the prototype
 * calls each is most of a kernel (18 MB on Debian's), so holding every
 * one of them doubled the peak.  Built again, it is the same.
 */
static void release_region(struct region *r)
{
	sp_graph_release(&r->sub);
	free(r->global);
	free(r->gate_below);
	free(r->cut);
	free(r->reach_cut);
	free(r->reach_leaf);
	r->global = r->gate_below = NULL;
	r->cut = r->reach_cut = NULL;
	r->reach_leaf = NULL;
	r->nreach = 0;
	r->reach_cut_cap = r->reach_leaf_cap = 0;
	r->built = false;
}

static void nest_release(struct nest *n)
{
	uint32_t i;

	for (i = 0; i < n->nfn; i++) {
		release_region(&n->regions[i]);
		free(n->regions[i].leaves);
	}
	for (i = 0; i < n->depth; i++)
		free(n->stack[i].leaf_ctx);
	free(n->regions);
	free(n->fn_of);
	free(n->fids);
	free(n->count_of);
	free(n->local);
	free(n->ctxs);
	free(n->pool);
	free(n->scratch);
	free(n->stack);
	free(n->tentative);
	free(n->parent);
	free(n->doomed);
	free(n->prior);
	free(n->belows);
	free(n->edge_below);
	free(n->rel);
	free(n->hold_first);
	free(n->hold_of);
	free(n->classes);
	free(n->inputs);
	free(n->solved);
	sp_u64map_release(&n->memo);
	sp_u64map_release(&n->class_memo);
	sp_u64map_release(&n->solved_memo);
}

/* The functions of a region as it is found: the body, then the leaves. */
struct region_list {
	uint32_t *body, *leaves;
	size_t nbody, nleaves, body_cap, leaves_cap;
};

/* Place graph function id below the region's root: once/nest functions
 * (the root too) are leaves, numbered apart from the body. */
static void region_add(struct nest *n, struct region_list *l, uint32_t id)
{
	if (n->local[id] != SP_NONE)
		return;
	if (n->fn_of[id] != SP_NONE) {	/* funcs[id].nest, in a smaller array */
		SP_ALLOC_GROW(l->leaves, l->nleaves + 1, l->leaves_cap);
		l->leaves[l->nleaves] = id;
		n->local[id] = (uint32_t)l->nleaves++;
		return;
	}
	SP_ALLOC_GROW(l->body, l->nbody + 1, l->body_cap);
	l->body[l->nbody] = id;
	n->local[id] = (uint32_t)l->nbody++;
}

static void copy_func(struct sp_graph *sub, const struct sp_func *f, bool root)
{
	uint32_t id = sp_graph_add_func(sub);

	sub->funcs[id] = *f;
	sub->funcs[id].edge_first = sub->funcs[id].edge_count = 0;
	sp_reset_result(&sub->funcs[id]);
	if (root)
		sub->funcs[id].nest = 0;	/* solved here, not given */
}

static uint64_t call_key(uint32_t from, uint32_t to)
{
	return (uint64_t)from << 32 | to;
}

/* The fn whose count graph function id is on the stack as (see
 * nest.count_of), SP_NONE when it is no once/nest function. */
static uint32_t counter(const struct nest *n, uint32_t id)
{
	return n->fn_of[id] == SP_NONE ? SP_NONE : n->count_of[n->fn_of[id]];
}

/* Does fn's key keep other's count? */
static bool relevant(const struct nest *n, uint32_t fn, uint32_t other)
{
	return n->rel[(size_t)fn * n->nwords + other / 64] >> (other % 64) & 1;
}

static void set_relevant(struct nest *n, uint32_t fn, uint32_t other)
{
	n->rel[(size_t)fn * n->nwords + other / 64] |= 1ull << (other % 64);
}

/* Does a key keep this count in the budget (struct nest.pooled)? */
static bool pool_budget(uint8_t pooled)
{
	return pooled == POOL_BUDGET || pooled == POOL_SEEN || pooled == POOL_BUDGET_SINCE;
}

/* Is fn's count in the budget rather than in the keys? */
static bool is_pooled(const struct nest *n, uint32_t fn)
{
	return n->pooled && pool_budget(n->pooled[fn]);
}

/* Does a key that keeps fn say for good whether fn is on the stack
 * (more, its count when exact)? */
static bool is_seen(const struct nest *n, uint32_t fn)
{
	return !n->pooled || n->pooled[fn] == POOL_EXACT || n->pooled[fn] == POOL_SEEN;
}

/* Does a key keep fn as on the stack or not only since the last pooled
 * activation (none: not, or not known)? */
static bool is_since(const struct nest *n, uint32_t fn)
{
	return n->pooled && (n->pooled[fn] == POOL_SINCE || n->pooled[fn] == POOL_BUDGET_SINCE);
}

/* Does a key keep only whether fn is on the stack, not its count? */
static bool is_presence(const struct nest *n, uint32_t fn)
{
	return n->g->funcs[n->fids[fn]].nest == SP_NEST_CONTEXT ||
	       (n->pooled && n->pooled[fn] != POOL_EXACT);
}

/* Is fn's count not in the keys, pooled or forgotten? */
static bool is_unknown(const struct nest *n, uint32_t fn)
{
	return n->pooled && n->pooled[fn] != POOL_EXACT;
}

/* fn's key keeps leaf's count, or for a pooled leaf the budget; a
 * holder without a count of its own has none to keep (its calls change
 * the credit of what it holds for, which its FUNC's leaf makes kept). */
static void keep_leaf(struct nest *n, uint32_t fn, uint32_t leaf)
{
	if (n->g->funcs[n->fids[leaf]].nest == SP_NEST_HOLDER)
		return;
	if (!is_unknown(n, leaf))
		set_relevant(n, fn, n->count_of[leaf]);
	else if (is_pooled(n, leaf))
		set_relevant(n, fn, n->nfn);
}

/*
 * What the budget lets fn's context entered below a context of from
 * (SP_NONE: none) with key spend: the last pair of that key in fn's
 * cycle, else the whole budget of fn's cycle.  A stack leaves a cycle
 * for good (coming back would make one cycle of both), so each cycle's
 * pooled functions are on it in one stretch, which its own budget
 * bounds: a function and its 'from' copies share one count, and the
 * cycles their activations are in are each given all of it.
 */
static uint32_t budget_left(const struct nest *n, uint32_t from, const uint32_t *key,
			    uint32_t keylen, uint32_t fn)
{
	if (from != SP_NONE && n->cycle[from] == n->cycle[fn] && keylen >= 2 &&
	    key[keylen - 2] == n->nfn)
		return key[keylen - 1];
	return n->cycle_budget[fn];
}

/* The first 'below' entry of the call e, SP_NONE when it has none. */
static uint32_t below_of(const struct nest *n, const struct sp_edge *e)
{
	return n->edge_below ? n->edge_below[e - n->g->edges] : SP_NONE;
}

/* A gate: no frame, one call to the callee, standing for it in a path;
 * its call is the edge after the body's at slot *next - gate_first. */
static uint32_t add_gate(struct nest *n, struct region *r, const struct sp_edge *e,
			 uint32_t to, uint32_t *next, size_t nbody_edges)
{
	uint32_t id = (*next)++, k = id - r->gate_first;
	struct sp_func *gate = &r->sub.funcs[id];

	r->global[id] = e->to;
	r->gate_below[k] = below_of(n, e);
	gate->edge_first = (uint32_t)nbody_edges + k;
	gate->edge_count = 1;
	r->sub.edges[gate->edge_first] = (struct sp_edge){ .from = id, .to = to,
		.kind = SP_EDGE_CALL, .how = SP_RES_NONE, .pc = e->pc };
	return id;
}

/*
 * Body function q's calls, in local ids, as sp_graph_finalize() orders
 * them (by callee, kind, pc): the graph's are unique by (caller, callee,
 * kind) and a region's ids are one per graph id, so only the order
 * changes; each function's own are sorted, not the whole region's.
 */
static void fill_calls(struct nest *n, struct region *r, uint32_t q, uint32_t gid,
		       uint32_t *next_gate, size_t nbody_edges)
{
	const struct sp_graph *g = n->g;
	struct sp_func *f = &r->sub.funcs[q];
	const struct sp_edge *e;
	struct sp_edge *out;

	f->edge_first = r->sub.nedges;
	sp_func_for_each_edge(g, &g->funcs[gid], e) {
		uint32_t to = n->local[e->to];

		if (n->fn_of[e->to] != SP_NONE)
			to += r->nbody;
		if (below_of(n, e) != SP_NONE)
			to = add_gate(n, r, e, to, next_gate, nbody_edges);
		out = &r->sub.edges[r->sub.nedges++];
		*out = *e;
		out->from = q;
		out->to = to;
	}
	f->edge_count = r->sub.nedges - f->edge_first;
	if (f->edge_count > 1)
		qsort(r->sub.edges + f->edge_first, f->edge_count, sizeof(*out),
		      sp_edge_cmp);
	if (!f->edge_count)
		f->edge_first = 0;
}

/* The sub-graph of what l found: the body's functions and calls, the
 * gates of the calls 'below' lines name, then the leaves, each a copy of
 * its once/nest function without calls. */
static void region_fill(struct nest *n, struct region *r, const struct region_list *l,
			size_t nedges, uint32_t ngates)
{
	const struct sp_graph *g = n->g;
	uint32_t next_gate = (uint32_t)l->nbody, id;
	size_t q, nsub = l->nbody + ngates + l->nleaves;

	r->gate_first = (uint32_t)l->nbody;
	r->nbody = (uint32_t)l->nbody + ngates;
	r->global = sp_xmalloc(nsub * sizeof(*r->global));
	r->gate_below = sp_xmalloc((ngates ? ngates : 1) * sizeof(*r->gate_below));
	sp_graph_init(&r->sub);
	sp_graph_reserve(&r->sub, nsub, nedges + ngates);
	for (q = 0; q < l->nbody; q++) {
		r->global[q] = l->body[q];
		copy_func(&r->sub, &g->funcs[l->body[q]], q == 0);
	}
	for (q = 0; q < ngates; q++) {
		id = sp_graph_add_func(&r->sub);
		r->sub.funcs[id].qual = SP_QUAL_STATIC;	/* no frame, not unknown */
	}
	for (q = 0; q < l->nleaves; q++) {
		r->global[r->nbody + q] = l->leaves[q];
		copy_func(&r->sub, &g->funcs[l->leaves[q]], false);
	}
	for (q = 0; q < l->nbody; q++)
		fill_calls(n, r, (uint32_t)q, l->body[q], &next_gate, nedges);
	r->sub.nedges += ngates;
	r->sub.finalized = true;
	r->cut = sp_xcalloc(nsub, 1);
}

static uint32_t key_count(const uint32_t *key, uint32_t keylen, uint32_t fn);

/* Is one of the functions of b's 'unless' on the stack (counted)? */
static bool unless_counted(const struct nest *n, const struct sp_below *b,
			   const uint32_t *key, uint32_t keylen)
{
	uint32_t k, fn;

	for (k = 0; k < b->nunless; k++) {
		fn = counter(n, n->g->below_unless[b->unless_first + k]);
		/* one not known may be on the stack: the call happens */
		if (fn != SP_NONE && (!is_seen(n, fn) || key_count(key, keylen, fn)))
			return true;
	}
	return false;
}

/* Cut each gate whose call does not happen with these counts: one of its
 * ancestors is on the stack, and none of that line's 'unless'.  The
 * root of the region is on it, even pooled. */
static void set_gates(const struct nest *n, struct region *r, uint32_t root,
		      const uint32_t *key, uint32_t keylen)
{
	uint32_t id, b;

	for (id = r->gate_first; id < r->nbody; id++) {
		const struct sp_below *first = &n->belows[r->gate_below[id - r->gate_first]];

		r->cut[id] = 0;
		for (b = r->gate_below[id - r->gate_first];
		     b < n->nbelows && n->belows[b].from == first->from && n->belows[b].to == first->to;
		     b++)
			if ((n->belows[b].ancestor == n->count_of[root] ||
			     key_count(key, keylen, n->belows[b].ancestor)) &&
			    !unless_counted(n, &n->belows[b], key, keylen))
				r->cut[id] = SP_CUT_QUIET;
	}
}

/* fn's key keeps the counts that decide call e when e's gate is in its
 * region: each ancestor's and each 'unless' function's with a count,
 * but for pooled ones, which are not known (see set_gates()). */
static void mark_gate(struct nest *n, uint32_t fn, const struct sp_edge *e)
{
	uint32_t b = below_of(n, e), k, other;

	for (; b < n->nbelows && n->belows[b].from == e->from && n->belows[b].to == e->to; b++) {
		if (is_seen(n, n->belows[b].ancestor) || is_since(n, n->belows[b].ancestor))
			set_relevant(n, fn, n->belows[b].ancestor);
		for (k = 0; k < n->belows[b].nunless; k++) {
			other = counter(n, n->g->below_unless[n->belows[b].unless_first + k]);
			if (other != SP_NONE && is_seen(n, other))
				set_relevant(n, fn, other);
		}
	}
}

/* Everything reachable from the root without passing a once/nest
 * function; the root's slot is 0 in the body.  The first build marks
 * what fn's key keeps for its own region: its leaves and gates. */
static void build_region(struct nest *n, uint32_t fn)
{
	const struct sp_graph *g = n->g;
	struct region *r = &n->regions[fn];
	struct region_list l = { 0 };
	const struct sp_edge *e;
	size_t nedges = 0, q;
	uint32_t ngates = 0;

	SP_ALLOC_GROW(l.body, 1, l.body_cap);
	l.body[l.nbody++] = n->fids[fn];
	for (q = 0; q < l.nbody; q++)
		sp_func_for_each_edge(g, &g->funcs[l.body[q]], e) {
			region_add(n, &l, e->to);
			if (below_of(n, e) != SP_NONE) {
				ngates++;
				mark_gate(n, fn, e);
			}
			nedges++;
		}
	region_fill(n, r, &l, nedges, ngates);
	if (!r->leaves) {
		r->leaves = sp_xmalloc((l.nleaves ? l.nleaves : 1) * sizeof(*r->leaves));
		if (l.nleaves)	/* a region without leaves has no list to copy */
			memcpy(r->leaves, l.leaves, l.nleaves * sizeof(*r->leaves));
		r->nleaves = (uint32_t)l.nleaves;
		for (q = 0; q < l.nleaves; q++)
			keep_leaf(n, fn, n->fn_of[l.leaves[q]]);
	}
	for (q = 0; q < l.nbody; q++)
		n->local[l.body[q]] = SP_NONE;
	for (q = 0; q < l.nleaves; q++)
		n->local[l.leaves[q]] = SP_NONE;
	r->built = true;
	free(l.body);
	free(l.leaves);
}

/* How many times fn is on the stack in a key. */
static uint32_t key_count(const uint32_t *key, uint32_t keylen, uint32_t fn)
{
	uint32_t i;

	for (i = 0; i < keylen; i += 2)
		if (key[i] == fn)
			return key[i + 1];
	return 0;
}

/* The budget below fn entered with left of it: one less for a pooled
 * fn (next_leaf() cut it at none), and no more than the pooled
 * functions fn reaches can spend: their counts, less fn's own one. */
static uint32_t budget_below(const struct nest *n, uint32_t left, uint32_t fn)
{
	uint32_t room = n->room[fn];

	if (is_pooled(n, fn)) {	/* on the stack, and in a cycle */
		left--;
		room--;
	}
	return left < room ? left : room;
}

/* A credit of 'nest FUNC per' this high is no bound: more holders than
 * any real stack nests, and every further one would make contexts
 * without end (a holder below itself).  It stays, and does not cut. */
#define CREDIT_NONE	64

/* The activations of a 'per' FUNC that the holders below allow, at its
 * own entry: spent by one, none when no more, unless no bound. */
static uint32_t credit_spent(uint32_t credit)
{
	return credit == CREDIT_NONE ? credit : credit - 1;
}

static uint32_t credit_given(uint32_t credit)
{
	return credit == CREDIT_NONE ? credit : credit + 1;
}

/* The pairs at p (np of them) without those of the functions keys keep
 * only since the last pooled activation: one is on the stack again. */
static uint32_t drop_since(const struct nest *n, uint32_t *p, uint32_t np)
{
	uint32_t i, out = 0;

	for (i = 0; i < np; i++)
		if (!is_since(n, p[2 * i])) {
			p[2 * out] = p[2 * i];
			p[2 * out + 1] = p[2 * i + 1];
			out++;
		}
	return out;
}

/* The pair of f in the pairs at p (*np of them), else a new one (f, 0). */
static uint32_t *pair_of(uint32_t *p, uint32_t *np, uint32_t f)
{
	uint32_t i;

	for (i = 0; i < *np; i++)
		if (p[2 * i] == f)
			return &p[2 * i];
	p[2 * i] = f;
	p[2 * i + 1] = 0;
	++*np;
	return &p[2 * i];
}

static void sort_pairs(uint32_t *p, uint32_t np)
{
	uint32_t i, j, f, c;

	for (i = 1; i < np; i++) {
		f = p[2 * i];
		c = p[2 * i + 1];
		for (j = i; j && p[2 * (j - 1)] > f; j--) {
			p[2 * j] = p[2 * (j - 1)];
			p[2 * j + 1] = p[2 * (j - 1) + 1];
		}
		p[2 * j] = f;
		p[2 * j + 1] = c;
	}
}

/*
 * The key of fn's context entered below a context of key: key with fn
 * once more and only the counts fn's key keeps, in n->scratch, sorted by
 * function, then the budget when it keeps it; an ancestor without a
 * count of its own is on the stack once at most.  A 'per' FUNC's pair
 * is its credit instead, what its holders below allow and it has not
 * spent: fn one of its holders gives one more, fn itself spends one.
 * Entered with no credit in the key, the FUNC's context is its first
 * (key_plus(NULL)): its callers elsewhere have no holder below, and
 * never call it, so counting it as under one is a bound.
 */
static uint32_t key_plus(struct nest *n, uint32_t from, const uint32_t *key, uint32_t keylen,
			 uint32_t fn)
{
	uint32_t most = is_presence(n, n->count_of[fn]) ? 1 : SP_NONE;
	uint32_t counts = keylen && key[keylen - 2] == n->nfn ? keylen - 2 : keylen;
	uint32_t np = counts / 2, nholds = n->hold_first[fn + 1] - n->hold_first[fn];
	uint32_t i, out = 0, *c;

	SP_ALLOC_GROW(n->scratch, (size_t)keylen + 2 * nholds + 4, n->scratch_cap);
	if (counts)
		memcpy(n->scratch, key, counts * sizeof(*key));
	if (is_pooled(n, fn))
		np = drop_since(n, n->scratch, np);
	c = pair_of(n->scratch, &np, n->count_of[fn]) + 1;
	if (n->g->funcs[n->fids[fn]].nest == SP_NEST_PER)	/* none: the first */
		*c = credit_spent(*c ? *c : 1);
	else
		*c = *c < most ? *c + 1 : 1;
	for (i = n->hold_first[fn]; i < n->hold_first[fn + 1]; i++) {
		c = pair_of(n->scratch, &np, n->hold_of[i]) + 1;
		*c = n->credit_one ? 1 : credit_given(*c);
	}
	sort_pairs(n->scratch, np);
	for (i = 0; i < np; i++)
		if (n->scratch[2 * i + 1] && relevant(n, fn, n->scratch[2 * i])) {
			n->scratch[out++] = n->scratch[2 * i];
			n->scratch[out++] = n->scratch[2 * i + 1];
		}
	if (relevant(n, fn, n->nfn)) {
		n->scratch[out++] = n->nfn;
		n->scratch[out++] = budget_below(n, budget_left(n, from, key, keylen, fn), fn);
	}
	return out;
}

static uint64_t key_hash(uint32_t fn, const uint32_t *key, uint32_t keylen)
{
	uint64_t h = 1469598103934665603ull ^ fn;
	uint32_t i;

	for (i = 0; i < keylen; i++) {
		h ^= key[i];
		h *= 1099511628211ull;
	}
	return h;
}

static uint32_t lookup(const struct nest *n, uint32_t fn, const uint32_t *key,
		       uint32_t keylen)
{
	uint32_t c = sp_u64map_get(&n->memo, key_hash(fn, key, keylen));

	for (; c != SP_NONE; c = n->ctxs[c].chain)
		if (n->ctxs[c].fn == fn && n->ctxs[c].keylen == keylen && n->ctxs[c].low != CTX_STALE &&
		    !memcmp(n->pool + n->ctxs[c].key, key, keylen * sizeof(*key)))
			return c;
	return SP_NONE;
}

/* The words of a region's leaf bit set. */
static size_t leaf_words(const struct region *r)
{
	return (size_t)(r->sub.nfuncs - r->nbody) / 64 + 1;
}

/* The leaves the root of r reaches with its gates cut as r->cut says,
 * as entry r->nreach - 1 of reach_leaf: a walk of the body that does
 * not pass a cut gate. */
static void walk_to_leaves(struct region *r)
{
	size_t words = leaf_words(r), head = 0, tail = 0;
	uint8_t *seen = sp_xcalloc(r->nbody, 1);
	uint32_t *queue = sp_xmalloc(r->nbody * sizeof(*queue)), x;
	uint64_t *bits;
	const struct sp_edge *e;

	SP_ALLOC_GROW(r->reach_leaf, (r->nreach + 1) * words, r->reach_leaf_cap);
	bits = r->reach_leaf + r->nreach * words;
	memset(bits, 0, words * sizeof(*bits));
	queue[tail++] = 0;
	seen[0] = 1;
	while (head < tail) {
		x = queue[head++];
		sp_func_for_each_edge(&r->sub, &r->sub.funcs[x], e) {
			if (e->to >= r->nbody)
				bits[(e->to - r->nbody) / 64] |= 1ull << ((e->to - r->nbody) % 64);
			else if (!seen[e->to] && !(e->to >= r->gate_first && r->cut[e->to])) {
				seen[e->to] = 1;
				queue[tail++] = e->to;
			}
		}
	}
	r->nreach++;
	free(seen);
	free(queue);
}

/*
 * The entry of reach_leaf for the gates fn's context cuts with key,
 * SP_NONE when its region has no gate.  A leaf behind cut gates alone
 * is on no path of the context: its own context, were it made, would
 * change nothing the root shows, and may come back to a frame on the
 * stack (a wakeup below its own gate), a cycle whose context is then
 * made again (see settle()).  The gate sets met are few per region:
 * each is walked once.
 */
static uint32_t leaves_reached(const struct nest *n, struct region *r, uint32_t fn,
			       const uint32_t *key, uint32_t keylen)
{
	size_t ngates = r->nbody - r->gate_first;
	uint32_t i;

	if (!ngates)
		return SP_NONE;
	set_gates(n, r, fn, key, keylen);
	for (i = 0; i < r->nreach; i++)
		if (!memcmp(r->reach_cut + i * ngates, r->cut + r->gate_first, ngates))
			return i;
	SP_ALLOC_GROW(r->reach_cut, (r->nreach + 1) * ngates, r->reach_cut_cap);
	memcpy(r->reach_cut + r->nreach * ngates, r->cut + r->gate_first, ngates);
	walk_to_leaves(r);
	return r->nreach - 1;
}

/* Does fr's root reach leaf past the gates its context leaves open? */
static bool leaf_reached(const struct nest *n, const struct frame *fr, uint32_t leaf)
{
	const struct region *r = &n->regions[fr->fn];

	return fr->reach == SP_NONE ||
	       (r->reach_leaf[fr->reach * leaf_words(r) + leaf / 64] >> (leaf % 64) & 1);
}

/* Start solving fn's context for the key in n->scratch. */
static void push_frame(struct nest *n, uint32_t fn, uint32_t keylen)
{
	struct frame *fr;

	if (!n->regions[fn].built)
		build_region(n, fn);
	SP_ALLOC_GROW(n->pool, n->npool + keylen, n->pool_cap);
	memcpy(n->pool + n->npool, n->scratch, keylen * sizeof(*n->pool));
	SP_ALLOC_GROW(n->stack, n->depth + 1, n->stack_cap);
	fr = &n->stack[n->depth++];
	fr->fn = fn;
	fr->key = n->npool;
	fr->keylen = keylen;
	fr->leaf = 0;
	fr->low = (uint32_t)(n->depth - 1);
	fr->first_ctx = n->nctx;
	fr->leaf_ctx = sp_xmalloc(((size_t)n->regions[fn].sub.nfuncs - n->regions[fn].nbody + 1) *
				  sizeof(*fr->leaf_ctx));
	fr->reach = leaves_reached(n, &n->regions[fn], fn, n->pool + n->npool, keylen);
	n->npool += keylen;
}

/* Graph ids inside a sub-graph: the sub's own, then the graph's shifted
 * past them (a leaf's witnesses are graph ids). */
static uint32_t to_sub(const struct region *r, uint32_t id)
{
	return id == SP_NONE ? SP_NONE : id + r->sub.nfuncs;
}

static uint32_t to_graph(const struct region *r, uint32_t id)
{
	if (id == SP_NONE)
		return SP_NONE;
	return id < r->sub.nfuncs ? r->global[id] : id - r->sub.nfuncs;
}

/* A leaf's context that stays unbounded: its path ends at the leaf. */
static bool ends_path(const struct nest *n, uint32_t ctx)
{
	return ctx == LEAF_CYCLE || !n->ctxs[ctx].res.bounded;
}

/* A leaf that re-enters the context being solved: recursion, with only
 * its own frame counted, as a leaf of an unbounded context. */
static void set_cycle_leaf(struct region *r, uint32_t id)
{
	struct sp_result *res = &r->sub.funcs[id].res;

	res->total = res->certain = sp_frame_bytes(&r->sub.funcs[id]);
	res->bounded = false;
	res->witness[SP_CAUSE_RECURSION] = id;
}

/*
 * A leaf carries its context's result; a call into a function already on
 * the stack is the annotation at work, so the leaf is its NEST witness.
 * When that result is unbounded its total is only a lower bound, and
 * chaining such bounds context after context makes paths of hundreds of
 * frames that revisit the same functions (a kernel's panic path): the
 * leaf counts its own frame instead, a shorter but still real path.
 */
static void set_leaf(struct nest *n, struct region *r, const struct frame *fr, uint32_t leaf)
{
	uint32_t id = r->nbody + leaf;
	struct sp_result *res = &r->sub.funcs[id].res;
	int c;

	r->cut[id] = fr->leaf_ctx[leaf] == SP_NONE ? SP_CUT_NEST :
		     fr->leaf_ctx[leaf] == LEAF_OFF ? SP_CUT_QUIET : 0;
	sp_reset_result(&r->sub.funcs[id]);
	if (r->cut[id])
		return;
	if (fr->leaf_ctx[leaf] == LEAF_CYCLE) {
		set_cycle_leaf(r, id);
		return;
	}
	*res = n->ctxs[fr->leaf_ctx[leaf]].res;
	if (ends_path(n, fr->leaf_ctx[leaf])) {
		res->total = res->certain = sp_frame_bytes(&r->sub.funcs[id]);
		res->overflow = false;
		res->via_assumed = false;
	}
	res->next = res->certain_next = SP_NONE;
	res->scc = SP_NONE;
	res->seg = res->certain_seg = SP_NONE;
	for (c = 0; c < SP_CAUSE__COUNT; c++)
		res->witness[c] = to_sub(r, res->witness[c]);
	/* an ancestor without a count is bounded, if at all, by another
	 * function's count, which names itself where it cuts; a pooled
	 * one's may be on the stack, and the budget is at work */
	if ((is_pooled(n, n->fn_of[r->global[id]]) ||
	     key_count(n->pool + fr->key, fr->keylen, counter(n, r->global[id]))) &&
	    sp_nest_counted(r->sub.funcs[id].nest))
		res->witness[SP_CAUSE_NEST] = id;
}

/* The segment that goes on below leaf (SP_NONE: none) of fr's region
 * on the path over every call, or over certain ones when certain: its
 * context's, unless that ends the path.  A doomed guess has no leaf
 * contexts: only its own re-entry, a cycle, is not cut. */
static uint32_t leaf_cont(const struct nest *n, const struct frame *fr, uint32_t leaf,
			  bool certain)
{
	uint32_t ctx = fr->leaf_ctx && leaf != SP_NONE ? fr->leaf_ctx[leaf] : SP_NONE;

	if (ctx == SP_NONE || ctx == LEAF_OFF || ends_path(n, ctx))
		return SP_NONE;
	return certain ? n->ctxs[ctx].res.certain_seg : n->ctxs[ctx].res.seg;
}

/* The root's worst path in the sub-graph (its path over certain calls
 * when certain) as a segment of the graph; a gate is no step, its
 * callee comes by the call into the gate.  *end: the leaf it ends at,
 * SP_NONE when it ends in the body. */
static uint32_t record_path(struct nest *n, const struct region *r, const struct frame *fr,
			    bool certain, uint32_t *end)
{
	struct sp_graph *g = n->g;
	const struct sp_result *at = &r->sub.funcs[0].res, *via = at;
	struct sp_path_seg *seg;
	uint32_t id = certain ? at->certain_next : at->next, steps = 0;

	SP_ALLOC_GROW(g->segs, (size_t)g->nsegs + 1, g->segs_cap);
	seg = &g->segs[g->nsegs];
	seg->first = g->nsteps;
	seg->n = 0;
	seg->cont = SP_NONE;
	*end = SP_NONE;
	/* next never repeats a function in a solved graph */
	while (id != SP_NONE && steps++ < r->sub.nfuncs) {
		struct sp_path_step *st;

		if (id >= r->gate_first && id < r->nbody) {
			id = certain ? r->sub.funcs[id].res.certain_next : r->sub.funcs[id].res.next;
			continue;
		}
		SP_ALLOC_GROW(g->steps, (size_t)g->nsteps + 1, g->steps_cap);
		st = &g->steps[g->nsteps++];
		st->func = r->global[id];
		st->kind = certain ? via->certain_kind : via->next_kind;
		st->flags = certain ? via->certain_flags : via->next_flags;
		st->how = certain ? via->certain_how : via->next_how;
		seg->n++;
		if (id >= r->nbody) {
			*end = id - r->nbody;
			seg->cont = leaf_cont(n, fr, *end, certain);
			break;
		}
		at = via = &r->sub.funcs[id].res;
		id = certain ? at->certain_next : at->next;
	}
	return g->nsegs++;
}

/* Past the limits: sp_nest_solve() counts coarser, or gives up. */
static int too_many(struct nest *n)
{
	n->over = true;
	return -1;
}

/* A new context of fn with result res; no key. */
static struct ctx *new_ctx(struct nest *n, uint32_t fn, const struct sp_result *res)
{
	struct ctx *c;

	SP_ALLOC_GROW(n->ctxs, n->nctx + 1, n->ctx_cap);
	c = &n->ctxs[n->nctx++];
	memset(c, 0, sizeof(*c));
	c->fn = fn;
	c->chain = SP_NONE;
	c->low = SP_NONE;
	c->res = *res;
	return c;
}

/* A new context of fn with the root's result in its region's sub-graph,
 * in graph ids; no key, no path. */
static struct ctx *add_ctx(struct nest *n, uint32_t fn)
{
	const struct region *r = &n->regions[fn];
	struct ctx *c = new_ctx(n, fn, &r->sub.funcs[0].res);
	int k;

	c->res.next = to_graph(r, c->res.next);
	c->res.certain_next = to_graph(r, c->res.certain_next);
	c->res.scc = SP_NONE;
	c->res.seg = SP_NONE;
	c->res.certain_seg = SP_NONE;
	for (k = 0; k < SP_CAUSE__COUNT; k++)
		c->res.witness[k] = to_graph(r, c->res.witness[k]);
	return c;
}

static uint64_t hash_u64(uint64_t h, uint64_t v)
{
	return (h ^ v) * 1099511628211ull;
}

/* What a region's solve reads of a leaf: its totals and how they were
 * reached, the causes it shows and the 'assume' lines it rests on (the
 * rest, its path and component, is the solve's own). */
static bool same_leaf(const struct sp_result *a, const struct sp_result *b)
{
	return a->total == b->total && a->certain == b->certain &&
	       a->overflow == b->overflow && a->via_assumed == b->via_assumed &&
	       a->assume_lines == b->assume_lines &&
	       !memcmp(a->witness, b->witness, sizeof(a->witness));
}

static uint64_t leaf_hash(const struct sp_result *res)
{
	uint64_t h = hash_u64(1469598103934665603ull, res->total);
	int c;

	h = hash_u64(h, res->certain);
	h = hash_u64(h, (uint64_t)res->overflow << 1 | res->via_assumed);
	h = hash_u64(h, res->assume_lines);
	for (c = 0; c < SP_CAUSE__COUNT; c++)
		h = hash_u64(h, res->witness[c]);
	return h;
}

/* The class of a leaf's result: the same number for the same result. */
static uint32_t leaf_class(struct nest *n, const struct sp_result *res)
{
	uint64_t h = leaf_hash(res);
	uint32_t c = sp_u64map_get(&n->class_memo, h);

	for (; c != SP_NONE; c = n->classes[c].chain)
		if (same_leaf(&n->classes[c].res, res))
			return c;
	SP_ALLOC_GROW(n->classes, n->nclass + 1, n->class_cap);
	n->classes[n->nclass].res = *res;
	n->classes[n->nclass].chain = sp_u64map_swap(&n->class_memo, h, (uint32_t)n->nclass);
	return (uint32_t)n->nclass++;
}

/* A region's inputs once its leaves and gates are set, at the end of
 * nest.inputs: per gate and leaf its cut, else 0 and the leaf's class
 * above it.  Everything else of the sub-graph is the same in every
 * context of the region.  Returns their hash. */
static uint64_t region_inputs(struct nest *n, const struct region *r, uint32_t fn)
{
	uint32_t id, k = r->sub.nfuncs - r->gate_first, *in;
	uint64_t h = hash_u64(1469598103934665603ull, fn);

	SP_ALLOC_GROW(n->inputs, n->ninputs + k, n->inputs_cap);
	in = n->inputs + n->ninputs;
	for (id = r->gate_first; id < r->sub.nfuncs; id++) {
		*in = r->cut[id];
		if (!r->cut[id] && id >= r->nbody)
			*in = (leaf_class(n, &r->sub.funcs[id].res) + 1) << 8;
		h = hash_u64(h, *in++);
	}
	return h;
}

/* The solve of fn's region with the inputs at the end of nest.inputs,
 * SP_NONE when there was none. */
static uint32_t find_solved(const struct nest *n, const struct region *r, uint32_t fn,
			    uint64_t h)
{
	size_t k = r->sub.nfuncs - r->gate_first;
	uint32_t s = sp_u64map_get(&n->solved_memo, h);

	for (; s != SP_NONE; s = n->solved[s].chain)
		if (n->solved[s].fn == fn &&
		    !memcmp(n->inputs + n->solved[s].in, n->inputs + n->ninputs,
			    k * sizeof(*n->inputs)))
			return s;
	return SP_NONE;
}

/* Keep the inputs at the end of nest.inputs as the solve of context c. */
static void add_solved(struct nest *n, const struct region *r, uint64_t h, uint32_t c,
		       const uint32_t end[2])
{
	struct solved *s;

	SP_ALLOC_GROW(n->solved, n->nsolved + 1, n->solved_cap);
	s = &n->solved[n->nsolved];
	s->fn = n->ctxs[c].fn;
	s->ctx = c;
	s->end[0] = end[0];
	s->end[1] = end[1];
	s->in = n->ninputs;
	s->chain = sp_u64map_swap(&n->solved_memo, h, (uint32_t)n->nsolved++);
	n->ninputs += r->sub.nfuncs - r->gate_first;
}

/* A copy of segment seg going on at cont: the same steps. */
static uint32_t copy_seg(struct sp_graph *g, uint32_t seg, uint32_t cont)
{
	SP_ALLOC_GROW(g->segs, (size_t)g->nsegs + 1, g->segs_cap);
	g->segs[g->nsegs] = g->segs[seg];
	g->segs[g->nsegs].cont = cont;
	return g->nsegs++;
}

/* A new context of fr's with the result of solve s, whose inputs were
 * fr's: its paths are s's, going on below fr's own leaf contexts. */
static struct ctx *reuse_solved(struct nest *n, const struct frame *fr, const struct solved *s)
{
	struct sp_result res = n->ctxs[s->ctx].res;

	res.seg = copy_seg(n->g, res.seg, leaf_cont(n, fr, s->end[0], false));
	res.certain_seg = copy_seg(n->g, res.certain_seg, leaf_cont(n, fr, s->end[1], true));
	return new_ctx(n, fr->fn, &res);
}

/* A new context of fr's by a solve of its region's sub-graph. */
static struct ctx *solve_region(struct nest *n, const struct frame *fr, uint64_t h)
{
	struct region *r = &n->regions[fr->fn];
	uint32_t i, end[2];
	struct ctx *c;

	n->work += (uint64_t)r->sub.nfuncs + r->sub.nedges;
	for (i = 0; i < r->nbody; i++)
		sp_reset_result(&r->sub.funcs[i]);
	sp_solve(&r->sub, r->cut);
	n->nsolves++;
	c = add_ctx(n, fr->fn);
	/* the calls its 'below' lines drop below it stay deeper down: say
	 * so where nothing pooled does */
	if (is_unknown(n, fr->fn) && c->res.witness[SP_CAUSE_NEST] == SP_NONE)
		c->res.witness[SP_CAUSE_NEST] = n->fids[fr->fn];
	c->res.seg = record_path(n, r, fr, false, &end[0]);
	c->res.certain_seg = record_path(n, r, fr, true, &end[1]);
	add_solved(n, r, h, (uint32_t)(c - n->ctxs), end);
	return c;
}

/*
 * The context of the frame on top, all its leaves' known.  Contexts
 * that differ in counts often give their region the same inputs: the
 * same leaves cut, the others with the same results, the same gates cut
 * (counts deeper than any path goes, unbounded leaves that count their
 * own frame alone).  The solve, O(region), is then the same, and each
 * is made once: a context costs its leaves and gates, and its paths
 * are the first one's steps, going on below its own leaves.
 */
static int solve_frame(struct nest *n, const struct frame *fr, uint32_t *out)
{
	struct region *r = &n->regions[fr->fn];
	uint32_t i, s;
	struct ctx *c;
	uint64_t h;

	n->work += (uint64_t)r->sub.nfuncs - r->gate_first;
	if (n->nctx >= n->max_ctx || n->work > n->max_work)
		return too_many(n);
	for (i = 0; i + r->nbody < r->sub.nfuncs; i++)
		set_leaf(n, r, fr, i);
	set_gates(n, r, fr->fn, n->pool + fr->key, fr->keylen);
	h = region_inputs(n, r, fr->fn);
	s = find_solved(n, r, fr->fn, h);
	c = s != SP_NONE ? reuse_solved(n, fr, &n->solved[s]) : solve_region(n, fr, h);
	c->key = fr->key;
	c->keylen = fr->keylen;
	c->chain = sp_u64map_swap(&n->memo, key_hash(c->fn, n->pool + c->key, c->keylen),
				  (uint32_t)(n->nctx - 1));
	*out = (uint32_t)(n->nctx - 1);
	return 0;
}

/* The depth of fn's context for key on the stack, waiting for its
 * leaves, else SP_NONE.  Only an ancestor without a count (whose count
 * does not grow) comes back to the same key. */
static uint32_t solving(const struct nest *n, uint32_t fn, const uint32_t *key, uint32_t keylen)
{
	size_t d;

	for (d = 0; d < n->depth; d++)
		if (n->stack[d].fn == fn && n->stack[d].keylen == keylen &&
		    !memcmp(n->pool + n->stack[d].key, key, keylen * sizeof(*key)))
			return (uint32_t)d;
	return SP_NONE;
}

/* fr's result rests on the frame at depth low being a cycle. */
static void rests_on(struct frame *fr, uint32_t low)
{
	if (low < fr->low)
		fr->low = low;
}

/*
 * The frame on top was solved as context c.  When c is bounded, the
 * contexts made below it that took it for a cycle (a leaf on the way
 * back into it, behind a gate that its own key cuts, where the cycle
 * is none) are dropped: needed again, they are solved again, with its
 * result.  When c is unbounded, a cycle stood for an unbounded leaf,
 * as before: they stay, resting on what c rests on.  c itself is final
 * unless it rests on a frame further down and is unbounded: bounded,
 * no path reaches a leaf that was taken for a cycle (that leaf is
 * unbounded), nor one that rests on it.
 */
static void settle(struct nest *n, const struct frame *fr, uint32_t c)
{
	uint32_t d = (uint32_t)(n->depth - 1);
	size_t i, keep;

	for (i = n->ntentative; i && n->tentative[i - 1] >= fr->first_ctx; i--)
		;
	for (keep = i; i < n->ntentative; i++) {
		struct ctx *t = &n->ctxs[n->tentative[i]];

		if (t->low == d && n->ctxs[c].res.bounded)
			t->low = CTX_STALE;
		else if (t->low == d)	/* a cycle into an unbounded one */
			t->low = fr->low < d ? fr->low : SP_NONE;
		if (t->low != SP_NONE && t->low != CTX_STALE)
			n->tentative[keep++] = n->tentative[i];
	}
	n->ntentative = keep;
	if (fr->low < d && !n->ctxs[c].res.bounded) {
		n->ctxs[c].low = fr->low;
		SP_ALLOC_GROW(n->tentative, n->ntentative + 1, n->tentative_cap);
		n->tentative[n->ntentative++] = c;
	}
}

/* Is the call into once/nest function to cut below fr: its count
 * reached, or pooled, the budget spent or a 'once' root's own? */
static bool leaf_cut(const struct nest *n, const struct frame *fr, uint32_t to)
{
	const uint32_t *key = n->pool + fr->key;
	uint32_t most = n->g->funcs[n->fids[to]].nest;

	if (most == SP_NEST_PER)	/* no credit left */
		return !key_count(key, fr->keylen, n->count_of[to]);
	if (!is_pooled(n, to))
		return key_count(key, fr->keylen, n->count_of[to]) >= most;
	return !budget_left(n, fr->fn, key, fr->keylen, to) ||
	       (n->count_of[to] == n->count_of[fr->fn] && most == 1) ||
	       (most == 1 && is_presence(n, n->count_of[to]) &&
		relevant(n, fr->fn, n->count_of[to]) &&
		key_count(key, fr->keylen, n->count_of[to]));
}

/* The context of the frame on top for its next leaf: known, cut, a
 * cycle, or a new frame to solve first. */
static int next_leaf(struct nest *n)
{
	struct frame *fr = &n->stack[n->depth - 1];
	const struct region *r = &n->regions[fr->fn];
	uint32_t to = n->fn_of[r->global[r->nbody + fr->leaf]], keylen, c, d;

	if (!leaf_reached(n, fr, fr->leaf)) {
		fr->leaf_ctx[fr->leaf++] = LEAF_OFF;
		return 0;
	}
	if (leaf_cut(n, fr, to)) {
		fr->leaf_ctx[fr->leaf++] = SP_NONE;
		return 0;
	}
	if (n->doomed[to]) {
		fr->leaf_ctx[fr->leaf++] = n->prior[to];
		return 0;
	}
	keylen = key_plus(n, fr->fn, n->pool + fr->key, fr->keylen, to);
	c = lookup(n, to, n->scratch, keylen);
	if (c != SP_NONE && n->ctxs[c].low != SP_NONE)
		rests_on(fr, n->ctxs[c].low);
	if (c == SP_NONE && (d = solving(n, to, n->scratch, keylen)) != SP_NONE) {
		rests_on(fr, d);
		c = LEAF_CYCLE;
	}
	if (c != SP_NONE) {
		fr->leaf_ctx[fr->leaf++] = c;
		return 0;
	}
	if (n->nctx + n->depth >= n->max_ctx)
		return too_many(n);
	push_frame(n, to, keylen);
	return 0;
}

/* The context of function fn entered with nothing else on the stack. */
static int solve_first(struct nest *n, uint32_t fn, uint32_t *out)
{
	uint32_t c = SP_NONE, keylen = key_plus(n, SP_NONE, NULL, 0, fn);

	if ((*out = lookup(n, fn, n->scratch, keylen)) != SP_NONE)
		return 0;
	push_frame(n, fn, keylen);
	while (n->depth) {
		struct frame *fr = &n->stack[n->depth - 1];
		const struct region *r = &n->regions[fr->fn];

		if (fr->leaf + r->nbody < r->sub.nfuncs) {
			if (next_leaf(n))
				return -1;
			continue;
		}
		if (solve_frame(n, fr, &c))
			return -1;
		settle(n, fr, c);
		free(fr->leaf_ctx);
		n->depth--;
		if (n->depth) {
			fr = &n->stack[n->depth - 1];
			fr->leaf_ctx[fr->leaf++] = c;
			if (n->ctxs[c].low != SP_NONE)
				rests_on(fr, n->ctxs[c].low);
		}
	}
	*out = c;
	return 0;
}

static int below_cmp(const void *pa, const void *pb)
{
	const struct sp_below *a = pa, *b = pb;
	uint64_t ka = call_key(a->from, a->to), kb = call_key(b->from, b->to);

	if (ka != kb)
		return ka < kb ? -1 : 1;
	return (a->ancestor > b->ancestor) - (a->ancestor < b->ancestor);
}

/* graph->belows by call, the ancestors as once/nest indexes, and where
 * each call's entries start. */
static void index_belows(struct nest *n)
{
	const struct sp_graph *g = n->g;
	uint32_t i, b;

	if (!g->nbelows)
		return;
	n->belows = sp_xmalloc(g->nbelows * sizeof(*n->belows));
	for (i = 0; i < g->nbelows; i++) {
		n->belows[n->nbelows] = g->belows[i];
		n->belows[n->nbelows].ancestor = counter(n, g->belows[i].ancestor);
		n->nbelows += n->belows[n->nbelows].ancestor != SP_NONE;
	}
	qsort(n->belows, n->nbelows, sizeof(*n->belows), below_cmp);
	if (!n->nbelows)
		return;
	/* both in call order: each edge meets its call's first entry */
	n->edge_below = sp_xmalloc((g->nedges ? g->nedges : 1) * sizeof(*n->edge_below));
	for (i = 0, b = 0; i < g->nedges; i++) {
		uint64_t key = call_key(g->edges[i].from, g->edges[i].to);

		while (b < n->nbelows && call_key(n->belows[b].from, n->belows[b].to) < key)
			b++;
		n->edge_below[i] = b < n->nbelows &&
				   call_key(n->belows[b].from, n->belows[b].to) == key ? b : SP_NONE;
	}
}

/*
 * What the coarser attempts pool, worked out from the exact one's
 * regions (the same in every attempt): which once/nest functions each
 * reaches through the others, which ones a 'below' line reads.
 */
struct pool_plan {
	uint64_t *reach;	/* per fn, nwords words: the once/nest
				 * functions below it, itself when in a cycle */
	uint32_t nwords;
	uint8_t *read;		/* per fn: an ancestor or 'unless' of a line */
	uint8_t *unless;	/* per fn: an 'unless' function of a line */
	uint8_t *pooled;	/* per fn, for the attempt */
	uint32_t *room;		/* per fn: the pooled counts of its cycle it
				 * reaches */
	uint32_t *cycle;	/* per fn: its cycle (struct nest.cycle) */
	uint32_t *cycle_budget;	/* per fn: its cycle's pooled counts */
	uint32_t npooled, nforgotten, nsince, budget;	/* budget: the largest one */
};

static bool plan_reaches(const struct pool_plan *p, uint32_t fn, uint32_t other)
{
	return p->reach[(size_t)fn * p->nwords + other / 64] >> (other % 64) & 1;
}

/* Each function's set of once/nest functions (nwords words per function
 * in sets) takes its leaves' sets, until none grows: what a function's
 * leaves reach, it reaches. */
static void close_over_leaves(const struct nest *n, uint64_t *sets)
{
	bool changed = true;
	uint32_t fn, k, w;

	while (changed) {
		changed = false;
		for (fn = 0; fn < n->nfn; fn++)
			for (k = 0; k < n->regions[fn].nleaves; k++) {
				const uint64_t *from = sets + (size_t)n->fn_of[n->regions[fn].leaves[k]] *
							      n->nwords;
				uint64_t *to = sets + (size_t)fn * n->nwords;

				for (w = 0; w < n->nwords; w++) {
					changed |= (from[w] & ~to[w]) != 0;
					to[w] |= from[w];
				}
			}
	}
}

/* Each function's leaves, then theirs, until none is new. */
static void plan_reach(struct pool_plan *p, const struct nest *n)
{
	uint32_t fn, k, w;

	p->nwords = n->nwords;
	p->reach = sp_xcalloc((size_t)n->nfn * p->nwords + 1, sizeof(*p->reach));
	for (fn = 0; fn < n->nfn; fn++)
		for (k = 0; k < n->regions[fn].nleaves; k++) {
			uint32_t leaf = n->fn_of[n->regions[fn].leaves[k]];

			p->reach[(size_t)fn * p->nwords + leaf / 64] |= 1ull << (leaf % 64);
		}
	close_over_leaves(n, p->reach);
	p->read = sp_xcalloc(n->nfn ? n->nfn : 1, 1);
	p->unless = sp_xcalloc(n->nfn ? n->nfn : 1, 1);
	for (k = 0; k < n->nbelows; k++) {
		const struct sp_below *b = &n->belows[k];

		p->read[b->ancestor] = 1;
		for (w = 0; w < b->nunless; w++) {
			uint32_t u = counter(n, n->g->below_unless[b->unless_first + w]);

			if (u != SP_NONE)
				p->read[u] = p->unless[u] = 1;
		}
	}
}

/*
 * Each function's cycle: the least function whose count's class (a
 * function and its copies, one count) and its own reach each other,
 * where a class reaches what any of its functions reaches.  A count
 * shared by functions of different cycles would be spent in each.
 */
static void plan_cycles(struct pool_plan *p, const struct nest *n)
{
	uint8_t *cr = sp_xcalloc((size_t)n->nfn * n->nfn + 1, 1);
	uint32_t fn, f, k;

	/* class reach: each function's, then closed (Warshall's) */
	for (fn = 0; fn < n->nfn; fn++)
		for (f = 0; f < n->nfn; f++)
			if (plan_reaches(p, fn, f))
				cr[(size_t)n->count_of[fn] * n->nfn + n->count_of[f]] = 1;
	for (k = 0; k < n->nfn; k++)
		for (fn = 0; fn < n->nfn; fn++)
			for (f = 0; cr[(size_t)fn * n->nfn + k] && f < n->nfn; f++)
				cr[(size_t)fn * n->nfn + f] |= cr[(size_t)k * n->nfn + f];
	for (fn = 0; fn < n->nfn; fn++) {
		uint32_t a = n->count_of[fn], b;

		for (f = 0; f < fn; f++) {
			b = n->count_of[f];
			if (a == b || (cr[(size_t)a * n->nfn + b] && cr[(size_t)b * n->nfn + a]))
				break;
		}
		p->cycle[fn] = f;
	}
	free(cr);
}

/* Has the class of count c (a function and its copies) a member in
 * fn's cycle, one that fn reaches when reached? */
static bool class_in_cycle(const struct pool_plan *p, const struct nest *n, uint32_t c,
			   uint32_t fn, bool reached)
{
	uint32_t f;

	for (f = 0; f < n->nfn; f++)
		if (n->count_of[f] == c && p->cycle[f] == p->cycle[fn] &&
		    (!reached || plan_reaches(p, fn, f)))
			return true;
	return false;
}

/* Each function's cycle's budget, the counts of its pooled classes, and
 * its room, those of the classes it reaches in it (and its own, which
 * budget_below() takes one of). */
static void plan_budgets(struct pool_plan *p, const struct nest *n)
{
	uint32_t fn, c, most;

	p->budget = 0;
	for (fn = 0; fn < n->nfn; fn++) {
		p->room[fn] = p->cycle_budget[fn] = 0;
		for (c = 0; c < n->nfn; c++) {
			if (n->count_of[c] != c || !pool_budget(p->pooled[c]))
				continue;
			most = n->g->funcs[n->fids[c]].nest;
			if (!class_in_cycle(p, n, c, fn, false))
				continue;
			p->cycle_budget[fn] += most;
			if (c == n->count_of[fn] || class_in_cycle(p, n, c, fn, true))
				p->room[fn] += most;
		}
		if (p->cycle_budget[fn] > p->budget)
			p->budget = p->cycle_budget[fn];
	}
}

/*
 * Pool the functions with a count that reach themselves (the others
 * are never entered below themselves: their counts cut nothing), but at
 * TIER_GATES_EXACT those a 'below' line reads; at TIER_STRETCH the
 * ancestors are kept only since the last pooled activation, the
 * 'unless' functions for good (a pooled one beside the budget); at
 * TIER_FORGET the keys keep no count at all: the others, which only
 * 'below' lines read (an ancestor on the stack or not), are forgotten.
 * A 'per' FUNC's credit stays whatever reads it.  A function and its
 * 'from' copies share one count: pooled together, it is in the budget
 * once.  False when that keeps no less than the attempt before.
 */
static bool plan_tier(struct pool_plan *p, const struct nest *n, enum nest_tier tier)
{
	uint32_t fn, c, before = p->npooled + p->nforgotten;

	p->npooled = p->nforgotten = p->nsince = 0;
	for (fn = 0; fn < n->nfn; fn++)
		p->pooled[fn] = POOL_EXACT;
	for (fn = 0; fn < n->nfn; fn++) {
		uint32_t most = n->g->funcs[n->fids[fn]].nest;

		c = n->count_of[fn];
		if (sp_nest_counted(most) && plan_reaches(p, fn, fn) &&
		    (tier != TIER_GATES_EXACT || !p->read[c]))
			p->pooled[c] = tier != TIER_STRETCH || !p->read[c] ? POOL_BUDGET :
				       p->unless[c] ? POOL_SEEN : POOL_BUDGET_SINCE;
		else if (tier >= TIER_STRETCH && p->read[c] && p->pooled[c] == POOL_EXACT &&
			 n->g->funcs[n->fids[c]].nest != SP_NEST_PER)	/* a credit */
			p->pooled[c] = tier == TIER_FORGET ? POOL_FORGOTTEN :
				       p->unless[c] ? POOL_EXACT : POOL_SINCE;
	}
	for (fn = 0; fn < n->nfn; fn++) {
		c = n->count_of[fn];
		p->pooled[fn] = p->pooled[c];
		p->nforgotten += p->pooled[fn] == POOL_FORGOTTEN;
		p->nsince += p->pooled[fn] == POOL_SINCE || p->pooled[fn] == POOL_BUDGET_SINCE;
		p->npooled += pool_budget(p->pooled[fn]);
	}
	plan_budgets(p, n);
	if (tier == TIER_STRETCH)	/* no coarser than the last but for them */
		return p->nsince > 0;
	return p->npooled + p->nforgotten > before;
}

static int per_cmp(const void *pa, const void *pb)
{
	const struct sp_nest_per *a = pa, *b = pb;

	if (a->holder != b->holder)
		return a->holder < b->holder ? -1 : 1;
	return (a->func > b->func) - (a->func < b->func);
}

/* graph->pers by holder, as once/nest indexes: the 'per' FUNCs each
 * function gives credit to, each once however often the lines say it. */
static void index_holders(struct nest *n)
{
	const struct sp_graph *g = n->g;
	struct sp_nest_per *v = sp_xmalloc((g->npers ? g->npers : 1) * sizeof(*v));
	uint32_t i, k = 0;

	uint32_t nv = 0;

	/* a holder drop_unbounded_holders() dropped holds nothing */
	for (i = 0; i < g->npers; i++)
		if (n->fn_of[g->pers[i].holder] != SP_NONE)
			v[nv++] = (struct sp_nest_per){ counter(n, g->pers[i].func),
							n->fn_of[g->pers[i].holder] };
	qsort(v, nv, sizeof(*v), per_cmp);
	n->hold_first = sp_xcalloc((size_t)n->nfn + 1, sizeof(*n->hold_first));
	n->hold_of = sp_xmalloc((nv ? nv : 1) * sizeof(*n->hold_of));
	for (i = 0; i < nv; i++) {
		if (i && !per_cmp(&v[i], &v[i - 1]))
			continue;
		n->hold_of[k++] = v[i].func;
		n->hold_first[v[i].holder + 1] = k;
	}
	/* the holders without an entry start where the one before ends */
	for (i = 1; i <= n->nfn; i++)
		if (n->hold_first[i] < n->hold_first[i - 1])
			n->hold_first[i] = n->hold_first[i - 1];
	free(v);
}

static void nest_init(struct nest *n, struct sp_graph *g, const struct pool_plan *p,
		      enum nest_tier tier)
{
	uint32_t i;

	memset(n, 0, sizeof(*n));
	n->g = g;
	n->max_ctx = tier == TIER_FORGET ? MAX_CONTEXTS_LAST : MAX_CONTEXTS;
	n->max_work = MAX_WORK;
	if (tier != TIER_EXACT) {
		n->pooled = p->pooled;
		n->room = p->room;
		n->cycle = p->cycle;
		n->cycle_budget = p->cycle_budget;
	}
	if (tier != TIER_FORGET && g->nest_limit && g->nest_limit < n->max_ctx)
		n->max_ctx = g->nest_limit;
	n->fn_of = sp_xmalloc(g->nfuncs * sizeof(*n->fn_of));
	n->local = sp_xmalloc(g->nfuncs * sizeof(*n->local));
	memset(n->fn_of, 0xff, g->nfuncs * sizeof(*n->fn_of));
	memset(n->local, 0xff, g->nfuncs * sizeof(*n->local));
	for (i = 0; i < g->nfuncs; i++)
		if (g->funcs[i].nest) {
			SP_ALLOC_GROW(n->fids, (size_t)n->nfn + 1, n->fids_cap);
			n->fn_of[i] = n->nfn;
			n->fids[n->nfn++] = i;
		}
	n->count_of = sp_xmalloc((n->nfn ? n->nfn : 1) * sizeof(*n->count_of));
	for (i = 0; i < n->nfn; i++) {
		uint32_t orig = g->funcs[n->fids[i]].original;

		n->count_of[i] = orig != SP_NONE && n->fn_of[orig] != SP_NONE ? n->fn_of[orig] : i;
	}
	n->regions = sp_xcalloc(n->nfn, sizeof(*n->regions));
	n->nwords = (n->nfn + 64) / 64;	/* and the budget's bit */
	n->rel = sp_xcalloc((size_t)n->nfn * n->nwords + 1, sizeof(*n->rel));
	SP_ALLOC_GROW(n->scratch, 2, n->scratch_cap);
	SP_ALLOC_GROW(n->pool, 2, n->pool_cap);	/* an empty key is no NULL */
	sp_u64map_init(&n->memo, 64);
	sp_u64map_init(&n->class_memo, 64);
	sp_u64map_init(&n->solved_memo, 64);
	index_belows(n);
	index_holders(n);
}

static bool any_nest(const struct sp_graph *g)
{
	uint32_t i;

	for (i = 0; i < g->nfuncs; i++)
		if (g->funcs[i].nest)
			return true;
	return false;
}

static void add_step(struct sp_graph *g, struct sp_path_seg *seg, const struct sp_edge *e)
{
	struct sp_path_step *st;

	SP_ALLOC_GROW(g->steps, (size_t)g->nsteps + 1, g->steps_cap);
	st = &g->steps[g->nsteps++];
	st->func = e->to;
	st->kind = e->kind;
	st->flags = e->flags;
	st->how = e->how;
	seg->n++;
}

/* Does a 'below' line drop call e while fn is on the stack, whatever
 * else is?  (Not one with 'unless': a cycle through its functions keeps
 * the call.) */
static bool dropped_below(const struct nest *n, const struct sp_edge *e, uint32_t fn)
{
	uint32_t b = below_of(n, e);

	for (; b < n->nbelows && n->belows[b].from == e->from && n->belows[b].to == e->to; b++)
		if (n->belows[b].ancestor == fn && !n->belows[b].nunless)
			return true;
	return false;
}

/*
 * The shortest cycle through once/nest function fn, by BFS over the
 * whole graph (its cycles pass other once/nest functions too), for the
 * reasons: one search per function here instead of one per report row.
 */
static void record_cycle(struct nest *n, uint32_t fn)
{
	struct sp_graph *g = n->g;
	uint32_t root = n->fids[fn], *queue, *chain, head = 0, tail = 0, nchain = 0;
	uint32_t last = SP_NONE, i;
	const struct sp_edge *e;
	struct sp_path_seg *seg;

	if (!n->parent) {
		n->parent = sp_xmalloc(g->nfuncs * sizeof(*n->parent));
		memset(n->parent, 0xff, g->nfuncs * sizeof(*n->parent));
	}
	queue = sp_xmalloc(g->nfuncs * sizeof(*queue));
	queue[tail++] = root;
	while (head < tail && last == SP_NONE) {
		uint32_t x = queue[head++];

		sp_func_for_each_edge(g, &g->funcs[x], e) {
			if (dropped_below(n, e, fn))
				continue;
			if (e->to == root) {
				last = (uint32_t)(e - g->edges);
				break;
			}
			if (n->parent[e->to] != SP_NONE)
				continue;
			n->parent[e->to] = (uint32_t)(e - g->edges);
			queue[tail++] = e->to;
		}
	}
	/* the edges back from the one that closes the cycle */
	chain = sp_xmalloc((tail + 1) * sizeof(*chain));
	for (i = last; i != SP_NONE; i = n->parent[g->edges[i].from])
		chain[nchain++] = i;
	if (last != SP_NONE) {
		SP_ALLOC_GROW(g->segs, (size_t)g->nsegs + 1, g->segs_cap);
		seg = &g->segs[g->nsegs];
		seg->first = g->nsteps;
		seg->n = 0;
		seg->cont = SP_NONE;
		while (nchain--)
			add_step(g, seg, &g->edges[chain[nchain]]);
		g->funcs[root].res.cycle = g->nsegs++;
	}
	for (i = 1; i < tail; i++)
		n->parent[queue[i]] = SP_NONE;
	free(chain);
	free(queue);
}

/*
 * Does the root of fn's region reach a cycle that no once/nest function
 * is on and no 'recursion' line bounds?  Then every context of fn is
 * unbounded whatever the counts, and only the causes it shows differ
 * from one to the next.  The leaves are cut for this one solve (they
 * are set again for each context), which gives fn's first guess.
 */
static bool root_cycles(struct nest *n, uint32_t fn)
{
	struct region *r = &n->regions[fn];
	uint32_t i, first[2] = { n->count_of[fn], 1 };

	if (!r->built)
		build_region(n, fn);
	for (i = r->nbody; i < r->sub.nfuncs; i++) {
		uint32_t most = n->g->funcs[r->global[i]].nest;
		bool context = most == SP_NEST_CONTEXT || most == SP_NEST_HOLDER;

		/* an ancestor without a count is cut for the guess, not by an
		 * annotation; entered below itself, it is a cycle */
		r->cut[i] = context ? SP_CUT_QUIET : SP_CUT_NEST;
		sp_reset_result(&r->sub.funcs[i]);
		if (context && counter(n, r->global[i]) == n->count_of[fn]) {
			r->cut[i] = 0;
			set_cycle_leaf(r, i);
		}
	}
	set_gates(n, r, fn, first, 2);
	sp_solve(&r->sub, r->cut);
	return r->sub.funcs[0].res.witness[SP_CAUSE_RECURSION] != SP_NONE;
}

/* The causes a result shows, as a bit mask. */
static unsigned cause_mask(const struct sp_result *res)
{
	unsigned m = 0;
	int k;

	for (k = 0; k < SP_CAUSE__COUNT; k++)
		if (res->witness[k] != SP_NONE)
			m |= 1u << k;
	return m;
}

/* Forget the contexts of the last round; its doomed results stay, and
 * so do its solves (and their paths): a region whose inputs did not
 * change since is not solved again. */
static void next_round(struct nest *n)
{
	sp_u64map_release(&n->memo);
	sp_u64map_init(&n->memo, 64);
}

/* Does every leaf of every doomed function's region belong to a doomed
 * function?  Then no context with counts is needed at all. */
static bool only_doomed_leaves(const struct nest *n)
{
	uint32_t i, k;

	for (i = 0; i < n->nfn; i++) {
		const struct region *r = &n->regions[i];

		for (k = 0; n->doomed[i] && k < r->nleaves; k++)
			if (!n->doomed[n->fn_of[r->leaves[k]]])
				return false;
	}
	return true;
}

/* res takes each cause it lacks from from, with from's witness. */
static bool take_causes(struct sp_result *res, const struct sp_result *from)
{
	bool changed = false;
	int k;

	for (k = 0; k < SP_CAUSE__COUNT; k++)
		if (res->witness[k] == SP_NONE && from->witness[k] != SP_NONE) {
			res->witness[k] = from->witness[k];
			changed = true;
		}
	if (from->assume_lines & ~res->assume_lines) {
		res->assume_lines |= from->assume_lines;
		changed = true;
	}
	res->partial = res->witness[SP_CAUSE_UNKNOWN] != SP_NONE ||
		       res->witness[SP_CAUSE_INCOMPLETE] != SP_NONE;
	res->assumed = sp_result_assumed(res);
	return changed;
}

/*
 * When doomed functions reach only each other (a kernel's: the big
 * cycle holds them all), each one's result is its region's with the
 * leaves cut (root_cycles()), which keeps the path off them, plus the
 * causes its leaves show, passed along until none is new: a doomed
 * leaf counts only its own frame (see set_leaf()), so a path through it
 * is no deeper, and its causes are the leaf's result's.  No context is
 * solved; with --indirect=types that halved the time of the once/nest
 * lines on Debian's kernel (each region is most of the kernel).
 */
static void solve_doomed_alone(struct nest *n)
{
	bool changed = true;
	uint32_t i, k;

	while (changed) {
		changed = false;
		for (i = 0; i < n->nfn; i++) {
			const struct region *r = &n->regions[i];

			for (k = 0; n->doomed[i] && k < r->nleaves; k++)
				changed |= take_causes(&n->ctxs[n->prior[i]].res,
						       &n->ctxs[n->prior[n->fn_of[r->leaves[k]]]].res);
		}
	}
}

/*
 * A context's result depends only on the counts of the once/nest
 * functions whose count is read below it: each leaf's (cut when
 * reached, or a witness), each gate's ancestor's and 'unless'
 * functions', in its region and in the regions of every leaf below.
 * Its key keeps those alone, so that contexts differing only in the
 * counts of functions above them that they cannot reach are one: keyed
 * by every count on the stack, 35 once/nest functions of a kernel that
 * reach each other made more than 65536 contexts.  A leaf's set is part
 * of its caller's (what the leaf reaches, the caller reaches), so no
 * count dropped on the way down is needed again further down.  Each
 * region's own were marked when it was built: here each takes its
 * leaves', until none grows.
 */
static void close_relevant(struct nest *n)
{
	close_over_leaves(n, n->rel);
}

/*
 * A doomed function (see root_cycles()) has one context, its first,
 * whatever the counts: the others would differ only by cutting more, so
 * its first shows every cause they show, and solving a context per
 * count, each over a region that is most of a kernel under
 * --indirect=types' prototype calls, took minutes.  Doomed functions
 * call each other as leaves, so they are solved in rounds, each leaf
 * taking the last round's result (cut at first), until no result shows
 * a new cause; a doomed leaf counts only its own frame whatever its
 * result (see set_leaf()), so totals and paths do not change.
 */
static int solve_doomed(struct nest *n)
{
	uint32_t i, c, end;
	bool changed = true, any = false;
	struct frame none = { .leaf_ctx = NULL };

	n->doomed = sp_xcalloc(n->nfn ? n->nfn : 1, sizeof(*n->doomed));
	n->prior = sp_xmalloc((n->nfn ? n->nfn : 1) * sizeof(*n->prior));
	for (i = 0; i < n->nfn; i++) {
		n->prior[i] = SP_NONE;
		if (root_cycles(n, i)) {
			n->doomed[i] = 1;
			n->prior[i] = (uint32_t)(add_ctx(n, i) - n->ctxs);
			/* the leaves are cut, but for a cycle back into it */
			n->ctxs[n->prior[i]].res.seg = record_path(n, &n->regions[i], &none,
								   false, &end);
			n->ctxs[n->prior[i]].res.certain_seg =
				record_path(n, &n->regions[i], &none, true, &end);
			release_region(&n->regions[i]);
			any = true;
		}
	}
	close_relevant(n);
	if (any && only_doomed_leaves(n)) {
		solve_doomed_alone(n);
		return 0;
	}
	while (any && changed) {
		uint32_t *now = sp_xmalloc(n->nfn * sizeof(*now));

		changed = false;
		next_round(n);
		for (i = 0; i < n->nfn; i++)
			if (n->doomed[i]) {
				if (solve_first(n, i, &now[i])) {
					free(now);
					return -1;
				}
				/* no doomed leaf pushes a frame: this was its
				 * only one */
				release_region(&n->regions[i]);
			}
		for (i = 0; i < n->nfn; i++)
			if (n->doomed[i]) {
				c = now[i];
				changed |= cause_mask(&n->ctxs[c].res) !=
					   cause_mask(&n->ctxs[n->prior[i]].res) ||
					   n->ctxs[c].res.assume_lines !=
					   n->ctxs[n->prior[i]].res.assume_lines;
				n->prior[i] = c;
			}
		free(now);
	}
	return 0;
}

/* Every once/nest function's result at one coarseness; -1 past the
 * limits. */
static int nest_run(struct nest *n)
{
	struct sp_graph *g = n->g;
	uint32_t i, c;
	int ret = solve_doomed(n);

	for (i = 0; i < n->nfn && !ret; i++) {
		c = n->doomed[i] ? n->prior[i] : SP_NONE;
		if (c == SP_NONE)
			ret = solve_first(n, i, &c);
		if (!ret)
			g->funcs[n->fids[i]].res = n->ctxs[c].res;
	}
	/* a holder with no count of its own cuts nothing: no reason names
	 * its cycle */
	for (i = 0; i < n->nfn && !ret; i++)
		if (g->funcs[n->fids[i]].nest != SP_NEST_HOLDER)
			record_cycle(n, i);
	return ret;
}

/*
 * Keyed with every credit of one or more as one, a stack that has
 * more nests a 'per' FUNC less often: its credit is spent at the first
 * activation and the next call is cut.  Every stack whose key says
 * less than its credit is below such an activation, whose own context
 * is a FUNC's; the other keys are exact.  When every FUNC context is
 * unbounded anyway, more credit (more paths) is unbounded too, and so
 * is every caller through it: the totals stand, but for lower bounds,
 * which are paths that happen, if not the deepest.  Otherwise the
 * attempt is made again with the credits exact.  On Debian's kernel
 * with linux-assumed.ann, va_format() reaches the cycles the gates keep
 * and is unbounded in every context, and credits 1-64 made ~40 contexts
 * of each key.
 */
static bool credit_one_holds(const struct nest *n)
{
	size_t c;

	for (c = 0; c < n->nctx; c++)
		if (n->ctxs[c].low != CTX_STALE && n->ctxs[c].res.bounded &&
		    n->g->funcs[n->fids[n->ctxs[c].fn]].nest == SP_NEST_PER)
			return false;
	return true;
}

static void plan_release(struct pool_plan *p)
{
	free(p->reach);
	free(p->read);
	free(p->unless);
	free(p->pooled);
	free(p->room);
	free(p->cycle);
	free(p->cycle_budget);
}

/* The plan from the exact attempt, whose regions all were built. */
static void plan_init(struct pool_plan *p, const struct nest *n)
{
	memset(p, 0, sizeof(*p));
	plan_reach(p, n);
	p->pooled = sp_xcalloc(n->nfn ? n->nfn : 1, 1);
	p->room = sp_xcalloc(n->nfn ? n->nfn : 1, sizeof(*p->room));
	p->cycle = sp_xcalloc(n->nfn ? n->nfn : 1, sizeof(*p->cycle));
	p->cycle_budget = sp_xcalloc(n->nfn ? n->nfn : 1, sizeof(*p->cycle_budget));
	plan_cycles(p, n);
}

static void mark_pooled(struct sp_graph *g, const struct nest *n)
{
	uint32_t i;

	for (i = 0; i < n->nfn; i++)
		if (is_unknown(n, i))
			g->funcs[n->fids[i]].flags |= SP_F_NEST_POOLED;
}

/* Is fn a holder of 'nest ... per' with no count of its own? */
static bool pure_holder(const struct nest *n, uint32_t fn)
{
	return n->g->funcs[n->fids[fn]].nest == SP_NEST_HOLDER;
}

/* The sub-graph below every pure holder at once: what their calls reach
 * without passing a once/nest function, which are leaves (the holders
 * too); n->local keeps its ids for the caller. */
static void build_below_holders(struct nest *n, struct region *r, struct region_list *l)
{
	const struct sp_graph *g = n->g;
	const struct sp_edge *e;
	size_t nedges = 0, q;
	uint32_t fn, ngates = 0;

	for (fn = 0; fn < n->nfn; fn++)
		if (pure_holder(n, fn))
			sp_func_for_each_edge(g, &g->funcs[n->fids[fn]], e)
				region_add(n, l, e->to);
	for (q = 0; q < l->nbody; q++)
		sp_func_for_each_edge(g, &g->funcs[l->body[q]], e) {
			region_add(n, l, e->to);
			ngates += below_of(n, e) != SP_NONE;
			nedges++;
		}
	region_fill(n, r, l, nedges, ngates);
}

/* Does holder fn call itself back within the sub-graph (stamp: per sub
 * id, the last holder that visited it)? */
static bool holder_reenters(const struct nest *n, const struct region *r, uint32_t fn,
			    uint32_t *stamp, uint32_t *queue)
{
	const struct sp_graph *g = n->g;
	uint32_t self = n->local[n->fids[fn]] + r->nbody, head = 0, tail = 0, x;
	const struct sp_edge *e;

	sp_func_for_each_edge(g, &g->funcs[n->fids[fn]], e) {
		x = n->fn_of[e->to] == SP_NONE ? n->local[e->to] : n->local[e->to] + r->nbody;
		if (x == self)
			return true;
		if (x < r->nbody && stamp[x] != fn) {
			stamp[x] = fn;
			queue[tail++] = x;
		}
	}
	while (head < tail) {
		x = queue[head++];
		sp_func_for_each_edge(&r->sub, &r->sub.funcs[x], e) {
			if (e->to == self)
				return true;
			if (e->to < r->nbody && stamp[e->to] != fn) {
				stamp[e->to] = fn;
				queue[tail++] = e->to;
			}
		}
	}
	return false;
}

/* Does a call of holder fn reach a cycle that no once/nest function is
 * on, as root_cycles() would find in its region? */
static bool holder_doomed(const struct nest *n, const struct region *r, uint32_t fn,
			  uint32_t *stamp, uint32_t *queue)
{
	const struct sp_graph *g = n->g;
	const struct sp_edge *e;

	sp_func_for_each_edge(g, &g->funcs[n->fids[fn]], e)
		if (n->fn_of[e->to] == SP_NONE &&
		    r->sub.funcs[n->local[e->to]].res.witness[SP_CAUSE_RECURSION] != SP_NONE)
			return true;
	return holder_reenters(n, r, fn, stamp, queue);
}

/*
 * A holder with no count of its own whose region reaches a cycle that
 * no once/nest function is on (or itself) is unbounded in every context,
 * and so is every caller's total through it: the credit it gives bounds
 * none, and it is dropped, to be a function like any other.  One solve
 * of what all holders reach, with every once/nest function cut, finds
 * them, instead of a region each: a kernel's holders (dev_err() and its
 * kind) each reach most of it under --indirect=types, and their regions
 * took a quarter of the run.  With every holder still cut the sub-graph
 * has fewer cycles than any region of the final solve, so a holder
 * found unbounded here is unbounded there too.
 */
static void drop_unbounded_holders(struct sp_graph *g)
{
	struct region r = { 0 };
	struct region_list l = { 0 };
	struct pool_plan none = { 0 };
	struct nest n;
	uint32_t fn, i, *stamp, *queue;
	size_t q;

	nest_init(&n, g, &none, TIER_EXACT);
	build_below_holders(&n, &r, &l);
	for (i = r.nbody; i < r.sub.nfuncs; i++)
		r.cut[i] = SP_CUT_QUIET;
	sp_solve(&r.sub, r.cut);
	stamp = sp_xmalloc((r.nbody ? r.nbody : 1) * sizeof(*stamp));
	queue = sp_xmalloc((r.nbody ? r.nbody : 1) * sizeof(*queue));
	memset(stamp, 0xff, (r.nbody ? r.nbody : 1) * sizeof(*stamp));
	for (fn = 0; fn < n.nfn; fn++)
		if (pure_holder(&n, fn) && holder_doomed(&n, &r, fn, stamp, queue))
			g->funcs[n.fids[fn]].nest = 0;
	for (q = 0; q < l.nbody; q++)
		n.local[l.body[q]] = SP_NONE;
	for (q = 0; q < l.nleaves; q++)
		n.local[l.leaves[q]] = SP_NONE;
	free(stamp);
	free(queue);
	free(l.body);
	free(l.leaves);
	release_region(&r);
	nest_release(&n);
}

/*
 * Exact counts first; past the limits, again with the functions that
 * reach themselves pooled but for the ones 'below' lines read, then
 * with those too (see the top of this file).  Each attempt starts from
 * the same graph: the results and segments of the last are dropped.
 */
int sp_nest_solve(struct sp_graph *g, struct sp_err *err)
{
	struct pool_plan plan = { 0 };
	uint32_t nsegs = g->nsegs, nsteps = g->nsteps, i;
	enum nest_tier tier = TIER_EXACT;
	struct nest n;
	int ret = -1;

	memset(&g->nest, 0, sizeof(g->nest));
	for (i = 0; i < g->nfuncs; i++)
		g->funcs[i].flags &= ~SP_F_NEST_POOLED;
	if (!any_nest(g))
		return 0;
	/* a sub-graph shifts graph ids past its own */
	if (g->nfuncs >= UINT32_MAX / 2)
		return sp_err_set(err, "once/nest: more than %u functions", UINT32_MAX / 2);
	if (g->npers)
		drop_unbounded_holders(g);
	for (; tier < TIER__COUNT; tier++) {
		/* the last one runs whatever the last plan was: its limit
		 * is the default one */
		if (tier != TIER_EXACT && !plan_tier(&plan, &n, tier) && tier != TIER_FORGET)
			continue;
		if (tier != TIER_EXACT)
			nest_release(&n);
		g->nsegs = nsegs;
		g->nsteps = nsteps;
		nest_init(&n, g, &plan, tier);
		n.credit_one = g->npers > 0;
		ret = nest_run(&n);
		if (n.credit_one && !ret && !credit_one_holds(&n)) {
			nest_release(&n);
			g->nsegs = nsegs;
			g->nsteps = nsteps;
			nest_init(&n, g, &plan, tier);
			ret = nest_run(&n);
		}
		g->nest.functions = n.nfn;
		g->nest.contexts = (uint32_t)n.nctx;
		g->nest.solves = (uint32_t)n.nsolves;
		if (!ret)
			break;
		if (tier == TIER_EXACT) {
			g->nest.exact_limit = n.max_ctx;
			plan_init(&plan, &n);
		}
	}
	if (!ret) {
		mark_pooled(g, &n);
		g->nest.pooled = plan.npooled;
		g->nest.forgotten = plan.nforgotten;
		g->nest.since = plan.nsince;
		g->nest.budget = plan.budget;
	} else {
		sp_err_set(err, "once/nest: the %u annotated functions reach each other "
			   "in over %u combinations of counts, even with %u of them counted "
			   "as one and %u not kept; annotate fewer of them", n.nfn, n.max_ctx,
			   plan.npooled, plan.nforgotten);
	}
	nest_release(&n);
	plan_release(&plan);
	return ret;
}
