/* Unit tests of analysis/: the solver, reasons and --entry resolution. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "graph_fixture.h"
#include "stackprof.h"
#include "common/xalloc.h"

/* ids[0..n) as "a b c", for comparing whole paths at once. */
static const char *labels_str(const struct sp_graph *g, const uint32_t *ids, size_t n)
{
	static char buf[512];
	size_t i, len = 0;

	buf[0] = '\0';
	for (i = 0; i < n; i++)
		len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s%s",
					i ? " " : "", sp_func_label(&g->funcs[ids[i]]));
	return buf;
}

/* The path of id's total (its certain lower bound's when unbounded). */
static const char *path_str(const struct sp_graph *g, uint32_t id)
{
	uint32_t ids[64];

	return labels_str(g, ids, sp_worst_path(g, id, ids, NULL, 64));
}

struct reasons {
	char text[8][256];
	size_t n;
};

static void collect_reason(void *ctx, const char *reason)
{
	struct reasons *r = ctx;

	assert_true(r->n < 8);
	snprintf(r->text[r->n++], sizeof(r->text[0]), "%s", reason);
}

static size_t reasons_of(const struct sp_graph *g, uint32_t id, struct reasons *r)
{
	size_t n;

	memset(r, 0, sizeof(*r));
	n = sp_reasons(g, id, collect_reason, r);
	assert_int_equal(n, r->n);
	return n;
}

/* A lower bound must be a real path: distinct frames summing to it. */
static void assert_simple_path_sums(const struct sp_graph *g, uint32_t id)
{
	uint32_t ids[64];
	uint8_t kinds[64];
	size_t n = sp_worst_path(g, id, ids, kinds, 64), i, j;
	uint64_t sum = 0;

	for (i = 0; i < n; i++) {
		for (j = 0; j < i; j++)
			assert_int_not_equal(ids[i], ids[j]);
		assert_int_equal(kinds[i], SP_EDGE_CALL);
		sum += g->funcs[ids[i]].self;
	}
	assert_int_equal(sum, res(g, id)->total);
}

static void test_chain(void **state)
{
	struct sp_graph g;
	uint32_t a, b, c;

	(void)state;
	sp_graph_init(&g);
	a = fs(&g, "a", 16);
	b = fs(&g, "b", 32);
	c = fs(&g, "c", 8);
	call(&g, a, b);
	call(&g, b, c);
	solve(&g);
	assert_int_equal(res(&g, c)->total, 8);
	assert_int_equal(res(&g, b)->total, 40);
	assert_int_equal(res(&g, a)->total, 56);
	assert_string_equal(path_str(&g, a), "a b c");
	assert_int_equal(res(&g, c)->next, SP_NONE);
	assert_true(res(&g, a)->bounded);
	assert_false(res(&g, a)->partial);
	assert_false(g.funcs[a].flags & SP_F_RECURSIVE);
	assert_int_not_equal(res(&g, a)->scc, res(&g, b)->scc);
	sp_graph_release(&g);
}

static void test_diamond(void **state)
{
	struct sp_graph g;
	uint32_t top, light, heavy, leaf;

	(void)state;
	sp_graph_init(&g);
	top = fs(&g, "top", 10);
	light = fs(&g, "light", 20);
	heavy = fs(&g, "heavy", 100);	/* higher id: not picked by order */
	leaf = fs(&g, "leaf", 5);
	call(&g, top, light);
	call(&g, top, heavy);
	call(&g, light, leaf);
	call(&g, heavy, leaf);
	solve(&g);
	assert_int_equal(res(&g, top)->total, 115);
	assert_string_equal(path_str(&g, top), "top heavy leaf");
	assert_int_equal(res(&g, light)->total, 25);
	sp_graph_release(&g);
}

static void test_tie_lowest_id(void **state)
{
	struct sp_graph g;
	uint32_t top, x, y;

	(void)state;
	sp_graph_init(&g);
	top = fs(&g, "top", 1);
	y = fs(&g, "y", 7);
	x = fs(&g, "x", 7);
	call(&g, top, x);
	call(&g, top, y);
	solve(&g);
	assert_int_equal(res(&g, top)->next, y);
	assert_int_equal(res(&g, top)->total, 8);
	(void)x;
	sp_graph_release(&g);
}

static void test_self_recursion(void **state)
{
	struct sp_graph g;
	struct reasons r;
	uint32_t main_, rec, leaf;

	(void)state;
	sp_graph_init(&g);
	main_ = fs(&g, "main", 16);
	rec = fs(&g, "rec", 24);
	leaf = fs(&g, "leaf", 8);
	call(&g, main_, rec);
	call(&g, rec, rec);
	call(&g, rec, leaf);
	solve(&g);
	assert_true(g.funcs[rec].flags & SP_F_RECURSIVE);
	assert_false(g.funcs[main_].flags & SP_F_RECURSIVE);
	assert_false(g.funcs[leaf].flags & SP_F_RECURSIVE);
	assert_false(res(&g, rec)->bounded);
	assert_false(res(&g, main_)->bounded);
	assert_true(res(&g, leaf)->bounded);
	assert_int_equal(res(&g, rec)->total, 32);
	assert_int_equal(res(&g, main_)->total, 48);
	assert_string_equal(path_str(&g, main_), "main rec leaf");
	assert_int_equal(res(&g, main_)->witness[SP_CAUSE_RECURSION], rec);
	assert_int_equal(reasons_of(&g, main_, &r), 1);
	assert_string_equal(r.text[0], "recursion rec -> rec");
	sp_graph_release(&g);
}

static void test_mutual_recursion(void **state)
{
	struct sp_graph g;
	struct reasons r;
	uint32_t even, odd, leaf;

	(void)state;
	sp_graph_init(&g);
	even = fs(&g, "even", 16);
	odd = fs(&g, "odd", 32);
	leaf = fs(&g, "leaf", 4);
	call(&g, even, odd);
	call(&g, odd, even);
	call(&g, odd, leaf);
	solve(&g);
	assert_true(g.funcs[even].flags & SP_F_RECURSIVE);
	assert_true(g.funcs[odd].flags & SP_F_RECURSIVE);
	assert_int_equal(res(&g, even)->scc, res(&g, odd)->scc);
	assert_int_not_equal(res(&g, even)->scc, res(&g, leaf)->scc);
	assert_false(res(&g, even)->bounded);
	assert_false(res(&g, odd)->bounded);
	assert_simple_path_sums(&g, even);
	assert_simple_path_sums(&g, odd);
	/* even is discovered first, so it may go through odd */
	assert_int_equal(res(&g, even)->total, 52);
	assert_string_equal(path_str(&g, even), "even odd leaf");
	assert_int_equal(res(&g, odd)->total, 36);
	assert_int_equal(reasons_of(&g, even, &r), 1);
	assert_string_equal(r.text[0], "recursion even -> odd -> even");
	assert_int_equal(reasons_of(&g, odd, &r), 1);
	assert_string_equal(r.text[0], "recursion odd -> even -> odd");
	sp_graph_release(&g);
}

/* The cycle's ids are lower than its caller's: Tarjan starts inside it. */
static void test_cycle_below_caller(void **state)
{
	struct sp_graph g;
	struct reasons r;
	uint32_t a, b, c, main_;

	(void)state;
	sp_graph_init(&g);
	a = fs(&g, "a", 16);
	b = fs(&g, "b", 16);
	c = fs(&g, "c", 16);
	main_ = fs(&g, "main", 8);
	call(&g, a, b);
	call(&g, b, c);
	call(&g, c, a);
	call(&g, main_, b);
	solve(&g);
	assert_false(g.funcs[main_].flags & SP_F_RECURSIVE);
	assert_false(res(&g, main_)->bounded);
	assert_false(res(&g, main_)->partial);
	assert_int_equal(res(&g, main_)->witness[SP_CAUSE_RECURSION], b);
	assert_simple_path_sums(&g, a);
	assert_simple_path_sums(&g, b);
	assert_simple_path_sums(&g, c);
	assert_simple_path_sums(&g, main_);
	assert_int_equal(res(&g, a)->total, 48);	/* a b c */
	assert_int_equal(res(&g, main_)->total, 8 + res(&g, b)->total);
	assert_int_equal(reasons_of(&g, main_, &r), 1);
	assert_string_equal(r.text[0], "recursion b -> c -> a -> b");
	sp_graph_release(&g);
}

static void test_tail_call(void **state)
{
	struct sp_graph g;
	uint32_t ids[8];
	uint8_t kinds[8];
	uint32_t small_caller, big, caller, small;

	(void)state;
	sp_graph_init(&g);
	small_caller = fs(&g, "small_caller", 10);
	big = fs(&g, "big", 500);
	caller = fs(&g, "caller", 100);
	small = fs(&g, "small", 10);
	tail(&g, small_caller, big);
	tail(&g, caller, small);
	call(&g, caller, small);
	solve(&g);
	/* max(10, 500), not 10 + 500 */
	assert_int_equal(res(&g, small_caller)->total, 500);
	assert_int_equal(sp_worst_path(&g, small_caller, ids, kinds, 8), 2);
	assert_int_equal(ids[1], big);
	assert_int_equal(kinds[0], SP_EDGE_CALL);
	assert_int_equal(kinds[1], SP_EDGE_TAIL);
	/* max(100 + 10, 10): the plain call wins */
	assert_int_equal(res(&g, caller)->total, 110);
	assert_int_equal(res(&g, caller)->next_kind, SP_EDGE_CALL);
	sp_graph_release(&g);
}

static void test_tail_loses_to_own_frame(void **state)
{
	struct sp_graph g;
	uint32_t caller, callee;

	(void)state;
	sp_graph_init(&g);
	caller = fs(&g, "caller", 200);
	callee = fs(&g, "callee", 50);
	tail(&g, caller, callee);
	solve(&g);
	assert_int_equal(res(&g, caller)->total, 200);
	assert_int_equal(res(&g, caller)->next, SP_NONE);
	sp_graph_release(&g);
}

static void test_unknown_callee(void **state)
{
	struct sp_graph g;
	struct reasons r;
	uint32_t main_, memset_;

	(void)state;
	sp_graph_init(&g);
	main_ = fs(&g, "main", 16);
	memset_ = fn(&g, "memset", 999, SP_QUAL_UNKNOWN);
	g.funcs[memset_].flags = SP_F_EXTERNAL;
	call(&g, main_, memset_);
	solve(&g);
	assert_int_equal(res(&g, memset_)->total, 0);
	assert_int_equal(res(&g, main_)->total, 16);
	assert_true(res(&g, main_)->bounded);
	assert_true(res(&g, main_)->partial);
	assert_true(res(&g, memset_)->partial);
	assert_int_equal(res(&g, main_)->witness[SP_CAUSE_UNKNOWN], memset_);
	assert_int_equal(reasons_of(&g, main_, &r), 1);
	assert_string_equal(r.text[0], "unknown frame size for memset");
	sp_graph_release(&g);
}

static void test_indirect_and_incomplete(void **state)
{
	struct sp_graph g;
	struct reasons r;
	uint32_t main_, heavy, tiny, ind;

	(void)state;
	sp_graph_init(&g);
	main_ = fs(&g, "main", 8);
	heavy = fs(&g, "heavy", 1000);
	tiny = fs(&g, "tiny", 8);
	ind = fs(&g, "ind", 32);
	g.funcs[ind].n_indirect = 2;
	g.funcs[main_].flags |= SP_F_CALLS_INCOMPLETE;
	call(&g, main_, heavy);
	call(&g, main_, tiny);
	call(&g, tiny, ind);
	solve(&g);
	/* the cause is off the worst path, yet makes main unbounded */
	assert_string_equal(path_str(&g, main_), "main heavy");
	assert_false(res(&g, main_)->bounded);
	assert_true(res(&g, main_)->partial);
	assert_true(res(&g, heavy)->bounded);
	assert_false(res(&g, heavy)->partial);
	assert_int_equal(reasons_of(&g, main_, &r), 2);
	assert_string_equal(r.text[0], "indirect call in ind");
	assert_string_equal(r.text[1], "calls not listed in DWARF in main");
	sp_graph_release(&g);
}

static void test_dynamic_vs_bounded(void **state)
{
	struct sp_graph g;
	struct reasons r;
	uint32_t vla, bnd, user;

	(void)state;
	sp_graph_init(&g);
	vla = fn(&g, "vla", 64, SP_QUAL_DYNAMIC);
	g.funcs[vla].file = sp_intern(&g, "a.c");
	g.funcs[vla].line = 5;
	g.funcs[vla].dyn_cause = sp_intern(&g, "VLA 'buf' at a.c:5");
	bnd = fn(&g, "bnd", 48, SP_QUAL_BOUNDED);
	user = fs(&g, "user", 16);
	call(&g, user, bnd);
	solve(&g);
	assert_false(res(&g, vla)->bounded);
	assert_int_equal(res(&g, vla)->total, 64);
	assert_int_equal(reasons_of(&g, vla, &r), 1);
	assert_string_equal(r.text[0], "dynamic frame in vla at a.c:5 (VLA 'buf' at a.c:5)");
	assert_true(res(&g, bnd)->bounded);
	assert_true(res(&g, user)->bounded);
	assert_int_equal(res(&g, user)->total, 64);
	assert_int_equal(reasons_of(&g, user, &r), 0);
	sp_graph_release(&g);
}

/* A member of a cycle sees the causes found anywhere in the cycle. */
static void test_scc_shares_causes(void **state)
{
	struct sp_graph g;
	uint32_t a, b, vla;

	(void)state;
	sp_graph_init(&g);
	a = fs(&g, "a", 8);
	b = fs(&g, "b", 8);
	vla = fn(&g, "vla", 8, SP_QUAL_DYNAMIC);
	call(&g, a, b);
	call(&g, b, a);
	call(&g, b, vla);
	solve(&g);
	assert_int_equal(res(&g, a)->witness[SP_CAUSE_DYNAMIC], vla);
	assert_int_equal(res(&g, b)->witness[SP_CAUSE_DYNAMIC], vla);
	assert_int_equal(res(&g, a)->witness[SP_CAUSE_UNKNOWN], SP_NONE);
	sp_graph_release(&g);
}

#define DEEP 200000

static void test_deep_chain(void **state)
{
	struct sp_graph g;
	uint32_t i, *path;

	(void)state;
	sp_graph_init(&g);
	for (i = 0; i < DEEP; i++)
		fs(&g, NULL, 1 + (i & 1));
	for (i = 0; i + 1 < DEEP; i++)
		call(&g, i, i + 1);
	solve(&g);
	assert_int_equal(res(&g, 0)->total, DEEP / 2 * 3);
	assert_true(res(&g, 0)->bounded);
	path = malloc(DEEP * sizeof(*path));
	assert_non_null(path);
	assert_int_equal(sp_worst_path(&g, 0, path, NULL, DEEP), DEEP);
	assert_int_equal(path[DEEP - 1], DEEP - 1);
	assert_int_equal(sp_worst_path(&g, 0, path, NULL, 3), 3);
	assert_int_equal(sp_worst_path(&g, 0, NULL, NULL, SIZE_MAX), DEEP);
	free(path);
	sp_graph_release(&g);
}

/* One deep cycle: a single component, its lower bound the whole ring. */
static void test_deep_ring(void **state)
{
	struct sp_graph g;
	uint32_t i;

	(void)state;
	sp_graph_init(&g);
	for (i = 0; i < DEEP; i++)
		fs(&g, NULL, 2);
	for (i = 0; i < DEEP; i++)
		call(&g, i, (i + 1) % DEEP);
	solve(&g);
	assert_int_equal(res(&g, 0)->total, 2 * DEEP);
	assert_int_equal(res(&g, 0)->scc, res(&g, DEEP - 1)->scc);
	assert_true(g.funcs[DEEP / 2].flags & SP_F_RECURSIVE);
	assert_false(res(&g, 7)->bounded);
	assert_int_equal(sp_worst_path(&g, 0, NULL, NULL, SIZE_MAX), DEEP);
	sp_graph_release(&g);
}

static void test_overflow_saturates(void **state)
{
	struct sp_graph g;
	uint32_t top, mid, leaf, ok;

	(void)state;
	sp_graph_init(&g);
	top = fs(&g, "top", 5);
	mid = fs(&g, "mid", UINT64_MAX - 10);
	leaf = fs(&g, "leaf", 100);
	ok = fs(&g, "ok", 7);
	call(&g, top, mid);
	call(&g, mid, leaf);
	call(&g, ok, leaf);
	solve(&g);
	assert_true(res(&g, mid)->total == UINT64_MAX);
	assert_true(res(&g, mid)->overflow);
	assert_true(res(&g, top)->total == UINT64_MAX);
	assert_true(res(&g, top)->overflow);
	assert_false(res(&g, leaf)->overflow);
	assert_false(res(&g, ok)->overflow);
	assert_int_equal(res(&g, ok)->total, 107);
	sp_graph_release(&g);
}

/* The reason names where the sum left 64 bits, and the caller sees it. */
static void test_overflow_reason(void **state)
{
	struct sp_graph g;
	struct reasons r;
	uint32_t top, mid, leaf;

	(void)state;
	sp_graph_init(&g);
	top = fs(&g, "top", 5);
	mid = fs(&g, "mid", UINT64_MAX - 10);
	leaf = fs(&g, "leaf", 100);
	call(&g, top, mid);
	call(&g, mid, leaf);
	solve(&g);
	assert_true(res(&g, top)->bounded);
	assert_int_equal(reasons_of(&g, top, &r), 1);
	assert_string_equal(r.text[0], "the sum overflows 64 bits at mid (frame "
			    "18446744073709551605 bytes): saturated at 18446744073709551615");
	assert_int_equal(reasons_of(&g, leaf, &r), 0);
	sp_graph_release(&g);
}

/* A frame plus its red zone saturates on its own: flagged, not wrapped. */
static void test_red_zone_overflow(void **state)
{
	struct sp_graph g;
	uint32_t top, leaf;

	(void)state;
	sp_graph_init(&g);
	top = fs(&g, "top", 16);
	leaf = fs(&g, "leaf", UINT64_MAX - 5);
	g.funcs[leaf].red_zone = 120;
	call(&g, top, leaf);
	solve(&g);
	assert_true(res(&g, leaf)->total == UINT64_MAX);
	assert_true(res(&g, leaf)->overflow);
	assert_true(res(&g, top)->total == UINT64_MAX);
	assert_true(res(&g, top)->overflow);
	sp_graph_release(&g);
}

/* A worst path through a component: every function once, summing to the
 * total (tail edges add nothing), and no longer than the component. */
static void assert_path_simple(const struct sp_graph *g, uint32_t id, size_t limit)
{
	uint32_t *ids = malloc((g->nfuncs + 1) * sizeof(*ids));
	uint8_t *kinds = malloc(g->nfuncs + 1);
	size_t n, i, j;
	uint64_t sum = 0;
	bool overflow = false;

	assert_non_null(ids);
	assert_non_null(kinds);
	n = sp_worst_path(g, id, ids, kinds, g->nfuncs + 1);
	assert_true(n >= 1 && n <= limit);
	for (i = 0; i < n; i++) {
		for (j = 0; j < i; j++)
			assert_int_not_equal(ids[i], ids[j]);
		if (i + 1 < n && kinds[i + 1] == SP_EDGE_TAIL)
			continue;	/* replaced by its tail callee */
		if (sum > UINT64_MAX - g->funcs[ids[i]].self)
			overflow = true;
		sum += g->funcs[ids[i]].self;
	}
	if (overflow)
		assert_true(res(g, id)->overflow && res(g, id)->total == UINT64_MAX);
	else
		assert_true(sum == res(g, id)->total);
	free(kinds);
	free(ids);
}

/* Cycles never loop: zero frames, tail calls only, a self tail call. */
static void test_zero_frame_tail_cycle(void **state)
{
	struct sp_graph g;
	uint32_t a, b, c;

	(void)state;
	sp_graph_init(&g);
	a = fs(&g, "a", 0);
	b = fs(&g, "b", 0);
	c = fs(&g, "c", 0);
	tail(&g, a, b);
	tail(&g, b, a);
	tail(&g, c, c);
	call(&g, c, a);
	solve(&g);
	assert_int_equal(res(&g, a)->total, 0);
	assert_false(res(&g, a)->bounded);
	assert_true(g.funcs[c].flags & SP_F_RECURSIVE);
	assert_path_simple(&g, a, 2);
	assert_path_simple(&g, c, 3);
	sp_graph_release(&g);
}

/* Every function calls every other (and itself): one component, solved
 * in one pass; each worst path a real simple path. */
#define DENSE 300

static void test_dense_component(void **state)
{
	struct sp_graph g;
	uint32_t i, j;

	(void)state;
	sp_graph_init(&g);
	for (i = 0; i < DENSE; i++)
		fs(&g, NULL, 1 + (i * 7919) % 101);
	for (i = 0; i < DENSE; i++)
		for (j = 0; j < DENSE; j++) {
			if ((i + j) % 3)
				call(&g, i, j);
			else
				tail(&g, i, j);
		}
	solve(&g);
	for (i = 0; i < DENSE; i++) {
		assert_int_equal(res(&g, i)->scc, res(&g, 0)->scc);
		assert_false(res(&g, i)->bounded);
		assert_path_simple(&g, i, DENSE);
	}
	sp_graph_release(&g);
}

/* A ring of huge frames: saturated, flagged, and still a finite path. */
static void test_overflow_in_cycle(void **state)
{
	struct sp_graph g;
	uint32_t i;

	(void)state;
	sp_graph_init(&g);
	for (i = 0; i < 3; i++)
		fs(&g, NULL, UINT64_MAX / 2);
	for (i = 0; i < 3; i++)
		call(&g, i, (i + 1) % 3);
	solve(&g);
	for (i = 0; i < 3; i++) {
		assert_true(g.funcs[i].flags & SP_F_RECURSIVE);
		assert_path_simple(&g, i, 3);
	}
	assert_true(res(&g, 0)->overflow);
	sp_graph_release(&g);
}

/* Edges added or removed since the last finalize are indexed by the
 * solver itself: a -> b (twice), then b -> c after a first analysis. */
static void test_finalized_by_analysis(void **state)
{
	struct sp_graph g;
	struct sp_err err = { { 0 } };
	uint32_t a, b, c;

	(void)state;
	sp_graph_init(&g);
	a = fs(&g, "a", 1);
	b = fs(&g, "b", 10);
	c = fs(&g, "c", 100);
	call(&g, a, b);
	call(&g, a, b);
	assert_false(g.finalized);
	assert_int_equal(sp_analyze(&g, &err), 0);
	assert_true(g.finalized);
	assert_int_equal(g.nedges, 1);
	assert_int_equal(res(&g, a)->total, 11);
	call(&g, b, c);
	assert_false(g.finalized);
	assert_int_equal(sp_analyze(&g, &err), 0);
	assert_int_equal(res(&g, a)->total, 111);
	assert_int_equal(g.funcs[b].edge_count, 1);
	sp_graph_release(&g);
}

static void test_reanalyze_is_idempotent(void **state)
{
	struct sp_graph g;
	struct sp_err err;
	uint32_t a, b;

	(void)state;
	sp_graph_init(&g);
	a = fs(&g, "a", 4);
	b = fs(&g, "b", 4);
	call(&g, a, b);
	call(&g, b, a);
	solve(&g);
	g.edges[1].to = b;	/* b -> a becomes b -> b: a leaves the cycle */
	sp_graph_finalize(&g);
	assert_int_equal(sp_analyze(&g, &err), 0);
	assert_false(g.funcs[a].flags & SP_F_RECURSIVE);
	assert_true(g.funcs[b].flags & SP_F_RECURSIVE);
	assert_int_equal(res(&g, a)->total, 8);
	sp_graph_release(&g);
}

static uint32_t fn_at(struct sp_graph *g, const char *name, const char *file)
{
	uint32_t id = fs(g, name, 8);

	g->funcs[id].file = sp_intern(g, file);
	return id;
}

/*
 * once: the stack protector's failure path.  scf -> panic -> printk ->
 * scf again cannot happen below scf; every path that enters scf once
 * still counts, and printk -> scf -> panic -> printk is one of them.
 */
static void test_once_cuts_only_below(void **state)
{
	struct sp_graph g;
	struct reasons r;
	uint32_t scf, panic, printk, foo, bar;

	(void)state;
	sp_graph_init(&g);
	scf = fs(&g, "scf", 8);
	panic = fs(&g, "panic", 100);
	printk = fs(&g, "printk", 50);
	foo = fs(&g, "foo", 16);
	bar = fs(&g, "bar", 32);
	call(&g, scf, panic);
	call(&g, panic, printk);
	call(&g, printk, scf);
	call(&g, foo, scf);
	call(&g, bar, printk);
	solve(&g);
	/* without the annotation all of it is unbounded */
	assert_false(res(&g, foo)->bounded);
	assert_true(g.funcs[printk].flags & SP_F_RECURSIVE);

	g.funcs[scf].nest = 1;
	solve(&g);
	assert_int_equal(res(&g, scf)->total, 8 + 100 + 50);
	assert_string_equal(path_str(&g, scf), "scf panic printk");
	/* entered at printk: printk, scf, panic, then printk once more */
	assert_int_equal(res(&g, printk)->total, 50 + 158);
	assert_string_equal(path_str(&g, printk), "printk scf panic printk");
	assert_int_equal(res(&g, panic)->total, 100 + 50 + 158);
	assert_string_equal(path_str(&g, panic), "panic printk scf panic printk");
	assert_int_equal(res(&g, foo)->total, 16 + 158);
	assert_int_equal(res(&g, bar)->total, 32 + 208);
	assert_string_equal(path_str(&g, bar), "bar printk scf panic printk");
	assert_true(res(&g, bar)->bounded);
	assert_false(g.funcs[printk].flags & SP_F_RECURSIVE);
	assert_false(g.funcs[scf].flags & SP_F_RECURSIVE);
	assert_int_equal(res(&g, bar)->witness[SP_CAUSE_NEST], scf);
	assert_int_equal(res(&g, bar)->witness[SP_CAUSE_RECURSION], SP_NONE);
	assert_int_equal(reasons_of(&g, bar, &r), 1);
	assert_string_equal(r.text[0], "recursion scf -> panic -> printk -> scf bounded "
			    "by annotation: scf at most once on a stack");
	sp_graph_release(&g);
}

/* nest: at most 3 activations of f, however they are reached. */
static void test_nest_depth(void **state)
{
	struct sp_graph g;
	struct reasons r;
	uint32_t f, gg, main_;

	(void)state;
	sp_graph_init(&g);
	f = fs(&g, "f", 10);
	gg = fs(&g, "g", 20);
	main_ = fs(&g, "main", 1);
	call(&g, f, gg);
	call(&g, gg, f);
	call(&g, main_, gg);
	g.funcs[f].nest = 3;
	solve(&g);
	assert_int_equal(res(&g, f)->total, 3 * (10 + 20));
	assert_string_equal(path_str(&g, f), "f g f g f g");
	assert_true(res(&g, f)->bounded);
	/* g is not limited: it comes once more than f */
	assert_int_equal(res(&g, gg)->total, 20 + 90);
	assert_string_equal(path_str(&g, main_), "main g f g f g f g");
	assert_int_equal(res(&g, main_)->total, 1 + 110);
	assert_int_equal(reasons_of(&g, main_, &r), 1);
	assert_string_equal(r.text[0], "recursion f -> g -> f bounded by annotation: "
			    "f at most 3 deep");
	sp_graph_release(&g);
}

/* A cycle that does not pass the once function stays unbounded. */
static void test_once_keeps_other_cycles(void **state)
{
	struct sp_graph g;
	struct reasons r;
	uint32_t a, b, c;

	(void)state;
	sp_graph_init(&g);
	a = fs(&g, "a", 1);
	b = fs(&g, "b", 2);
	c = fs(&g, "c", 4);
	call(&g, a, b);
	call(&g, b, c);
	call(&g, c, b);
	g.funcs[a].nest = 1;
	solve(&g);
	assert_false(res(&g, a)->bounded);
	assert_int_equal(res(&g, a)->total, 7);
	assert_int_equal(res(&g, a)->witness[SP_CAUSE_NEST], SP_NONE);
	assert_true(g.funcs[b].flags & SP_F_RECURSIVE);
	assert_false(g.funcs[a].flags & SP_F_RECURSIVE);
	assert_int_equal(reasons_of(&g, a, &r), 1);
	assert_string_equal(r.text[0], "recursion b -> c -> b");
	sp_graph_release(&g);
}

/*
 * A once function's region numbers its functions in the order it finds
 * them, and a tie between two callees goes to the first in that order,
 * as in a graph finalized with those ids: below r, p's calls to z and w
 * tie, and z (found before w there, after it in the graph) wins; p
 * solved in the graph picks w.
 */
static void test_once_region_order(void **state)
{
	struct sp_graph g;
	uint32_t w, r, a, b, z, p;

	(void)state;
	sp_graph_init(&g);
	w = fs(&g, "w", 10);
	r = fs(&g, "r", 1);
	a = fs(&g, "a", 1);
	b = fs(&g, "b", 1);
	z = fs(&g, "z", 10);
	p = fs(&g, "p", 100);
	call(&g, r, a);
	call(&g, r, b);
	call(&g, r, p);
	call(&g, a, z);
	call(&g, b, w);
	call(&g, p, w);
	call(&g, p, z);
	g.funcs[r].nest = 1;
	solve(&g);
	assert_int_equal(res(&g, r)->total, 1 + 100 + 10);
	assert_string_equal(path_str(&g, r), "r p z");
	assert_string_equal(path_str(&g, p), "p w");
	sp_graph_release(&g);
}

/*
 * Two once functions that reach each other: below a, b is entered with a
 * on the stack, so neither comes back; c, not limited, may come twice.
 */
static void test_once_pair(void **state)
{
	struct sp_graph g;
	uint32_t a, b, c;

	(void)state;
	sp_graph_init(&g);
	a = fs(&g, "a", 1);
	b = fs(&g, "b", 2);
	c = fs(&g, "c", 4);
	call(&g, a, b);
	call(&g, b, a);
	call(&g, a, c);
	call(&g, c, b);
	g.funcs[a].nest = 1;
	g.funcs[b].nest = 1;
	solve(&g);
	assert_int_equal(res(&g, a)->total, 1 + 4 + 2);
	assert_string_equal(path_str(&g, a), "a c b");
	assert_int_equal(res(&g, b)->total, 2 + 1 + 4);
	assert_string_equal(path_str(&g, b), "b a c");
	assert_int_equal(res(&g, c)->total, 4 + 2 + 1 + 4);
	assert_string_equal(path_str(&g, c), "c b a c");
	assert_true(res(&g, c)->bounded);
	assert_int_equal(res(&g, c)->witness[SP_CAUSE_NEST], b);
	sp_graph_release(&g);
}

/* A tail call inside a once function's region keeps its meaning, and
 * the path says which calls were tail calls. */
static void test_once_tail(void **state)
{
	struct sp_graph g;
	uint32_t ids[8];
	uint8_t kinds[8], flags[8];
	uint32_t f, t, h;

	(void)state;
	sp_graph_init(&g);
	f = fs(&g, "f", 10);
	t = fs(&g, "t", 100);
	h = fs(&g, "h", 5);
	tail(&g, f, t);
	call(&g, t, h);
	call(&g, h, f);
	g.funcs[f].nest = 1;
	solve(&g);
	/* t replaces f's frame: 100 + 5, f's call back is cut */
	assert_int_equal(res(&g, f)->total, 105);
	assert_int_equal(sp_worst_path_flags(&g, f, ids, kinds, flags, NULL, 8), 3);
	assert_int_equal(kinds[1], SP_EDGE_TAIL);
	assert_int_equal(kinds[2], SP_EDGE_CALL);
	assert_int_equal(flags[1], 0);
	/* h -> f -> t -> h */
	assert_int_equal(res(&g, h)->total, 5 + 105);
	assert_string_equal(path_str(&g, h), "h f t h");
	sp_graph_release(&g);
}

/*
 * Below a once function, another one whose total stays unbounded ends
 * the path (its frame counts, not its lower bound): lower bounds do not
 * chain context after context.
 */
static void test_once_unbounded_leaf(void **state)
{
	struct sp_graph g;
	uint32_t a, b, c, d;

	(void)state;
	sp_graph_init(&g);
	a = fs(&g, "a", 1);
	b = fs(&g, "b", 2);
	c = fs(&g, "c", 4);
	d = fs(&g, "d", 3);
	call(&g, a, b);
	call(&g, b, c);
	call(&g, c, c);
	call(&g, a, d);
	g.funcs[a].nest = 1;
	g.funcs[b].nest = 1;
	solve(&g);
	assert_false(res(&g, b)->bounded);
	assert_int_equal(res(&g, b)->total, 2 + 4);
	assert_string_equal(path_str(&g, b), "b c");
	assert_false(res(&g, a)->bounded);
	assert_int_equal(res(&g, a)->witness[SP_CAUSE_RECURSION], c);
	assert_int_equal(res(&g, a)->total, 1 + 3);
	assert_string_equal(path_str(&g, a), "a d");
	sp_graph_release(&g);
}

/* Eight once functions that all call each other: the worst path from any
 * of them holds each exactly once. */
static void test_once_all_pairs(void **state)
{
	struct sp_graph g;
	uint32_t f[8], i, j;
	char name[8];

	(void)state;
	sp_graph_init(&g);
	for (i = 0; i < 8; i++) {
		snprintf(name, sizeof(name), "f%u", i);
		f[i] = fs(&g, name, 1u << i);
		g.funcs[f[i]].nest = 1;
	}
	for (i = 0; i < 8; i++)
		for (j = 0; j < 8; j++)
			if (i != j)
				call(&g, f[i], f[j]);
	solve(&g);
	for (i = 0; i < 8; i++) {
		assert_int_equal(res(&g, f[i])->total, 255);
		assert_true(res(&g, f[i])->bounded);
		assert_int_equal(sp_worst_path(&g, f[i], NULL, NULL, 64), 8);
	}
	sp_graph_release(&g);
}

/* once functions that all call each other make a context per subset:
 * past the limit the solver counts them in one budget, the sum of their
 * counts (20 activations), which here allows no more than the counts do:
 * each once on the path, 20 * 8 bytes, and every total says it is
 * coarse. */
static void test_once_pooled_contexts(void **state)
{
	struct sp_graph g;
	struct reasons r;
	uint32_t f[20], i, j;
	char name[8];

	(void)state;
	sp_graph_init(&g);
	for (i = 0; i < 20; i++) {
		snprintf(name, sizeof(name), "f%u", i);
		f[i] = fs(&g, name, 8);
		g.funcs[f[i]].nest = 1;
	}
	for (i = 0; i < 20; i++)
		for (j = 0; j < 20; j++)
			if (i != j)
				call(&g, f[i], f[j]);
	solve(&g);
	assert_int_equal(g.nest.exact_limit, 524288);
	assert_int_equal(g.nest.pooled, 20);
	assert_int_equal(g.nest.budget, 20);
	assert_true(g.nest.contexts < 1000);
	for (i = 0; i < 20; i++) {
		assert_int_equal(res(&g, f[i])->total, 20 * 8);
		assert_true(res(&g, f[i])->bounded);
		assert_true(g.funcs[f[i]].flags & SP_F_NEST_POOLED);
	}
	assert_int_equal(reasons_of(&g, f[0], &r), 1);
	assert_non_null(strstr(r.text[0], " bounded by annotation: f1 at most once on a stack "
			       "(coarse: 20 once/nest functions counted in one budget per cycle, of at most 20 "
			       "activations, over the limit of 524288 contexts of exact counts; "
			       "the total may be above the exact one)"));
	sp_graph_release(&g);
}

/*
 * 'once a' and 'nest b 3' with a -> b, b -> a, b -> b: exactly, a's
 * worst stack is a b b b (a + 3b); pooled, the budget of 4 lets a come
 * back once b is on the stack: a b a b (2a + 2b), above the exact
 * total, never below it.  A call of a once root into itself is cut all
 * the same: c -> c, c once, pooled.  Within the limit the totals are the
 * exact ones.
 */
static void test_nest_pooled_above_exact(void **state)
{
	uint32_t limit[2] = { 0, 1 }, k, a, b, c;
	uint64_t want_a[2] = { 100 + 3 * 1, 2 * 100 + 2 * 1 };
	struct sp_graph g;

	(void)state;
	for (k = 0; k < 2; k++) {
		sp_graph_init(&g);
		g.nest_limit = limit[k];
		a = fs(&g, "a", 100);
		b = fs(&g, "b", 1);
		c = fs(&g, "c", 10);
		call(&g, a, b);
		call(&g, b, a);
		call(&g, b, b);
		call(&g, c, c);
		call(&g, c, a);
		g.funcs[a].nest = g.funcs[c].nest = 1;
		g.funcs[b].nest = 3;
		solve(&g);
		assert_int_equal(res(&g, a)->total, want_a[k]);
		assert_true(res(&g, a)->bounded);
		assert_int_equal(res(&g, c)->total, 10 + want_a[k]);
		assert_int_equal(g.nest.pooled, k ? 3 : 0);
		assert_int_equal(!!(g.funcs[a].flags & SP_F_NEST_POOLED), k);
		sp_graph_release(&g);
	}
}

/*
 * Three once functions in a ring, each also in a cycle of its own below
 * it (so each is unbounded in every context and solved once, in rounds):
 * a's causes come from c, two leaves away, whose frame is dynamic.  The
 * first round sees only b's own causes; the rounds go on until c's
 * reach a.
 */
static void test_once_doomed_rounds(void **state)
{
	struct sp_graph g;
	uint32_t a, b, c, la, lb, lc, dyn;

	(void)state;
	sp_graph_init(&g);
	a = fs(&g, "a", 1);
	b = fs(&g, "b", 2);
	c = fs(&g, "c", 4);
	la = fs(&g, "la", 8);
	lb = fs(&g, "lb", 16);
	lc = fs(&g, "lc", 32);
	dyn = fn(&g, "dyn", 64, SP_QUAL_DYNAMIC);
	call(&g, a, b);
	call(&g, b, c);
	call(&g, c, a);
	call(&g, a, la);
	call(&g, la, la);
	call(&g, b, lb);
	call(&g, lb, lb);
	call(&g, c, lc);
	call(&g, lc, lc);
	call(&g, c, dyn);
	g.funcs[a].nest = g.funcs[b].nest = g.funcs[c].nest = 1;
	solve(&g);
	assert_false(res(&g, a)->bounded);
	assert_int_equal(res(&g, a)->witness[SP_CAUSE_RECURSION], la);
	assert_int_equal(res(&g, a)->witness[SP_CAUSE_DYNAMIC], dyn);
	assert_int_equal(res(&g, b)->witness[SP_CAUSE_DYNAMIC], dyn);
	assert_int_equal(res(&g, c)->witness[SP_CAUSE_DYNAMIC], dyn);
	/* an unbounded leaf counts its frame: a la, not a b (1 + 2) */
	assert_int_equal(res(&g, a)->total, 1 + 8);
	assert_string_equal(path_str(&g, a), "a la");
	assert_int_equal(res(&g, c)->total, 4 + 64);
	sp_graph_release(&g);
}

/*
 * A doomed once function (a, in a cycle of its own below it) calls one
 * that is not (b): b's context is solved with its counts, a's in rounds,
 * and a sees the dynamic frame only b reaches; b sees a's cycle.
 */
static void test_once_doomed_and_not(void **state)
{
	struct sp_graph g;
	uint32_t a, b, la, dyn;

	(void)state;
	sp_graph_init(&g);
	a = fs(&g, "a", 1);
	b = fs(&g, "b", 2);
	la = fs(&g, "la", 8);
	dyn = fn(&g, "dyn", 64, SP_QUAL_DYNAMIC);
	call(&g, a, la);
	call(&g, la, la);
	call(&g, a, b);
	call(&g, b, dyn);
	call(&g, b, a);
	g.funcs[a].nest = g.funcs[b].nest = 1;
	solve(&g);
	assert_false(res(&g, a)->bounded);
	assert_int_equal(res(&g, a)->witness[SP_CAUSE_RECURSION], la);
	assert_int_equal(res(&g, a)->witness[SP_CAUSE_DYNAMIC], dyn);
	/* b's context is unbounded: as a leaf it counts its frame */
	assert_int_equal(res(&g, a)->total, 1 + 8);
	assert_string_equal(path_str(&g, a), "a la");
	assert_int_equal(res(&g, b)->witness[SP_CAUSE_RECURSION], la);
	assert_int_equal(res(&g, b)->total, 2 + 64);
	assert_string_equal(path_str(&g, b), "b dyn");
	sp_graph_release(&g);
}

/* A call --indirect=types guessed from a prototype. */
static void guessed(struct sp_graph *g, uint32_t from, uint32_t to)
{
	call(g, from, to);
	g->edges[g->nedges - 1].flags = SP_EDGE_F_ASSUMED;
	g->edges[g->nedges - 1].how = SP_RES_PROTOTYPE;
}

/*
 * Inside a cycle the path climbs the members' order.  Tarjan's search
 * enters it at v and reaches k only through the guessed calls below v,
 * so in discovery order k's own call to v closes the cycle and k's path
 * would stop at k; ordered by the known calls, k -> v is kept.
 */
static void test_cycle_order_follows_known_calls(void **state)
{
	struct sp_graph g;
	uint32_t p, v, hub, k, sys;

	(void)state;
	sp_graph_init(&g);
	p = fs(&g, "p", 1);
	v = fs(&g, "v", 100);
	hub = fs(&g, "hub", 0);
	k = fs(&g, "k", 10);
	sys = fs(&g, "sys", 1000);
	call(&g, p, v);
	guessed(&g, v, hub);
	guessed(&g, hub, k);
	call(&g, k, v);
	call(&g, sys, k);
	solve(&g);
	assert_false(res(&g, sys)->bounded);
	assert_string_equal(path_str(&g, sys), "sys k v");
	assert_int_equal(res(&g, sys)->total, 1000 + 10 + 100);
	assert_simple_path_sums(&g, sys);
	sp_graph_release(&g);
}

/* The worst path over every call, assumed ones too. */
static const char *assumed_path_str(const struct sp_graph *g, uint32_t id)
{
	uint32_t ids[64];

	return labels_str(g, ids, sp_assumed_path_flags(g, id, ids, NULL, NULL, NULL, 64));
}

/* The lower bound's path takes no assumed call, and sums to the total. */
static void assert_certain_path(const struct sp_graph *g, uint32_t id)
{
	uint32_t ids[64];
	uint8_t kinds[64], flags[64];
	size_t n = sp_worst_path_flags(g, id, ids, kinds, flags, NULL, 64), i;
	uint64_t sum = 0;

	for (i = 0; i < n; i++) {
		assert_false(flags[i] & SP_EDGE_F_ASSUMED);
		if (i + 1 == n || kinds[i + 1] != SP_EDGE_TAIL)
			sum += g->funcs[ids[i]].self;
	}
	assert_int_equal(sum, res(g, id)->total);
}

/*
 * top -> rec (recursive: unbounded) -> mid -guessed-> big, rec -> small:
 * the lower bound stops at mid, the path through big is assumed; mid
 * alone is bounded, by assumption, through big.
 */
static void test_lower_bound_certain(void **state)
{
	struct sp_graph g;
	uint32_t top, rec, mid, big, small;

	(void)state;
	sp_graph_init(&g);
	top = fs(&g, "top", 10);
	rec = fs(&g, "rec", 20);
	mid = fs(&g, "mid", 30);
	big = fs(&g, "big", 1000);
	small = fs(&g, "small", 5);
	call(&g, top, rec);
	call(&g, rec, rec);
	call(&g, rec, mid);
	call(&g, rec, small);
	guessed(&g, mid, big);
	solve(&g);
	assert_false(res(&g, top)->bounded);
	assert_int_equal(res(&g, top)->total, 10 + 20 + 30);
	assert_string_equal(path_str(&g, top), "top rec mid");
	assert_certain_path(&g, top);
	assert_int_equal(res(&g, top)->assumed_lb, 10 + 20 + 30 + 1000);
	assert_string_equal(assumed_path_str(&g, top), "top rec mid big");
	assert_int_equal(res(&g, rec)->total, 20 + 30);
	assert_int_equal(res(&g, rec)->assumed_lb, 20 + 30 + 1000);
	/* a bounded total keeps its worst path, assumed calls and all */
	assert_true(res(&g, mid)->bounded);
	assert_int_equal(res(&g, mid)->total, 30 + 1000);
	assert_int_equal(res(&g, mid)->assumed_lb, 0);
	assert_string_equal(path_str(&g, mid), "mid big");
	sp_graph_release(&g);
}

/*
 * Tail calls: t -tail-> r (recursive), r -> c, r -guessed tail-> big:
 * the certain bound is r's frame and c's, the assumed one big's alone,
 * which replaces r's frame.  No assumed path deeper: no assumed bound.
 */
static void test_lower_bound_tail(void **state)
{
	struct sp_graph g;
	uint32_t t, r, c, big, u;

	(void)state;
	sp_graph_init(&g);
	t = fs(&g, "t", 50);
	r = fs(&g, "r", 8);
	c = fs(&g, "c", 100);
	big = fs(&g, "big", 1000);
	u = fs(&g, "u", 2);
	tail(&g, t, r);
	call(&g, r, r);
	call(&g, r, c);
	tail(&g, r, big);
	g.edges[g.nedges - 1].flags = SP_EDGE_F_ASSUMED;
	g.edges[g.nedges - 1].how = SP_RES_PROTOTYPE;
	call(&g, u, r);
	solve(&g);
	assert_int_equal(res(&g, t)->total, 8 + 100);
	assert_string_equal(path_str(&g, t), "t r c");
	assert_certain_path(&g, t);
	assert_int_equal(res(&g, t)->assumed_lb, 1000);
	assert_string_equal(assumed_path_str(&g, t), "t r big");
	assert_int_equal(res(&g, u)->total, 2 + 8 + 100);
	assert_int_equal(res(&g, u)->assumed_lb, 2 + 1000);
	sp_graph_release(&g);
}

/*
 * A cycle closed only by a guessed call (a -> b -guessed-> a) is still
 * recursion, unbounded; the bound follows the known calls a -> b -> c,
 * the assumed path goes on to c's guessed callee x.
 */
static void test_lower_bound_guessed_cycle(void **state)
{
	struct sp_graph g;
	uint32_t a, b, c, x;

	(void)state;
	sp_graph_init(&g);
	a = fs(&g, "a", 10);
	b = fs(&g, "b", 20);
	c = fs(&g, "c", 7);
	x = fs(&g, "x", 500);
	call(&g, a, b);
	guessed(&g, b, a);
	call(&g, b, c);
	guessed(&g, c, x);
	solve(&g);
	assert_false(res(&g, a)->bounded);
	assert_int_equal(res(&g, a)->total, 10 + 20 + 7);
	assert_string_equal(path_str(&g, a), "a b c");
	assert_certain_path(&g, a);
	assert_int_equal(res(&g, a)->assumed_lb, 10 + 20 + 7 + 500);
	assert_string_equal(assumed_path_str(&g, a), "a b c x");
	sp_graph_release(&g);
}

/*
 * once: scf -> panic -> printk -> scf (cut below scf), panic -> d (a
 * dynamic frame: everything unbounded), printk -guessed-> big.  The
 * certain bound goes through scf's segment and stops at printk; the
 * assumed one takes big.
 */
static void test_lower_bound_once(void **state)
{
	struct sp_graph g;
	uint32_t scf, panic, printk, d, big, foo;

	(void)state;
	sp_graph_init(&g);
	scf = fs(&g, "scf", 8);
	panic = fs(&g, "panic", 100);
	printk = fs(&g, "printk", 50);
	d = fn(&g, "d", 4, SP_QUAL_DYNAMIC);
	big = fs(&g, "big", 1000);
	foo = fs(&g, "foo", 16);
	call(&g, scf, panic);
	call(&g, panic, printk);
	call(&g, panic, d);
	call(&g, printk, scf);
	guessed(&g, printk, big);
	call(&g, foo, scf);
	g.funcs[scf].nest = 1;
	solve(&g);
	assert_false(res(&g, foo)->bounded);
	assert_int_equal(res(&g, scf)->total, 8 + 100 + 50);
	assert_string_equal(path_str(&g, scf), "scf panic printk");
	assert_int_equal(res(&g, scf)->assumed_lb, 8 + 100 + 50 + 1000);
	assert_int_equal(res(&g, foo)->total, 16 + 158);
	assert_string_equal(path_str(&g, foo), "foo scf panic printk");
	assert_certain_path(&g, foo);
	assert_int_equal(res(&g, foo)->assumed_lb, 16 + 1158);
	assert_string_equal(assumed_path_str(&g, foo), "foo scf panic printk big");
	sp_graph_release(&g);
}

/* Is there a call from a to b? */
static bool calls(const struct sp_graph *g, uint32_t a, uint32_t b)
{
	const struct sp_edge *e;

	sp_func_for_each_edge(g, &g->funcs[a], e)
		if (e->to == b)
			return true;
	return false;
}

/*
 * A component too large to search once per member (a ring of 3,000 with
 * chords between every 7th member and a hub): each member's reason names
 * a real cycle through it, every step a call, no function twice, and the
 * chords keep it short.
 */
static void test_large_cycle_reasons(void **state)
{
	enum { N = 3000 };
	struct sp_graph g;
	struct reasons r;
	uint32_t i, k;
	char name[16];

	(void)state;
	sp_graph_init(&g);
	for (i = 0; i < N; i++) {
		snprintf(name, sizeof(name), "r%u", i);
		fs(&g, name, 8);
	}
	for (i = 0; i < N; i++) {
		call(&g, i, (i + 1) % N);
		if (i % 7 == 0 && i != N / 2) {
			call(&g, i, N / 2);
			call(&g, N / 2, i);
		}
	}
	solve(&g);
	for (i = 0; i < N; i++) {
		const struct sp_func *f = &g.funcs[i];
		const struct sp_path_seg *seg;
		uint32_t prev = i;
		uint8_t *seen = sp_xcalloc(N, 1);

		assert_int_equal(f->res.witness[SP_CAUSE_RECURSION], i);
		assert_true(f->res.cycle < g.nsegs);
		seg = &g.segs[f->res.cycle];
		assert_true(seg->n >= 1 && seg->n < 20);
		for (k = 0; k < seg->n; k++) {
			uint32_t x = g.steps[seg->first + k].func;

			assert_true(calls(&g, prev, x));
			assert_false(seen[x]);
			seen[x] = 1;
			prev = x;
		}
		assert_int_equal(prev, i);
		free(seen);
	}
	reasons_of(&g, 5, &r);
	assert_string_equal(r.text[0], "recursion r5 -> r6 -> r7 -> r1500 -> r0 -> r1 -> r2 "
			    "-> r3 -> r4 -> r5");
	sp_graph_release(&g);
}

static void test_find_entries(void **state)
{
	struct sp_graph g;
	struct sp_err err = { { 0 } };
	uint32_t *ids = NULL;
	size_t n = 0, cap = 0;
	uint32_t ha, hb, main_, clone, cu;

	(void)state;
	sp_graph_init(&g);
	ha = fn_at(&g, "helper", "a.c");
	hb = fn_at(&g, "helper", "src/b.c");
	main_ = fn_at(&g, "main", "src/main.c");
	g.funcs[main_].symbol = sp_intern(&g, "main_sym");
	clone = fn_at(&g, "work.constprop", "src/b.c");
	cu = sp_graph_add_cu(&g);
	g.cus[cu].comp_dir = sp_intern(&g, "/home/me/proj");
	g.funcs[hb].cu = cu;
	solve(&g);

	assert_int_equal(sp_find_entries(&g, "helper", &ids, &n, &cap, &err), 0);
	assert_int_equal(n, 2);
	assert_int_equal(ids[0], ha);
	assert_int_equal(ids[1], hb);

	n = 0;
	assert_int_equal(sp_find_entries(&g, "b.c:helper", &ids, &n, &cap, &err), 0);
	assert_int_equal(n, 1);
	assert_int_equal(ids[0], hb);
	assert_int_equal(sp_find_entries(&g, "src/b.c:helper", &ids, &n, &cap, &err), 0);
	assert_int_equal(sp_find_entries(&g, "/home/me/proj/src/b.c:helper", &ids, &n,
					 &cap, &err), 0);
	assert_int_equal(sp_find_entries(&g, "proj/src/b.c:helper", &ids, &n, &cap, &err), 0);
	assert_int_equal(n, 4);
	assert_int_equal(ids[3], hb);

	/* a suffix that cuts a component is no match */
	assert_int_equal(sp_find_entries(&g, "rc/b.c:helper", &ids, &n, &cap, &err), -1);
	assert_string_equal(err.msg, "no function named 'rc/b.c:helper'");
	assert_int_equal(sp_find_entries(&g, "/other/proj/src/b.c:helper", &ids, &n,
					 &cap, &err), -1);
	assert_int_equal(sp_find_entries(&g, "a.c:main", &ids, &n, &cap, &err), -1);
	assert_int_equal(sp_find_entries(&g, "nosuch", &ids, &n, &cap, &err), -1);
	assert_string_equal(err.msg, "no function named 'nosuch'");
	assert_int_equal(n, 4);

	/* the symbol name, and GCC clones by their source name */
	n = 0;
	assert_int_equal(sp_find_entries(&g, "main_sym", &ids, &n, &cap, &err), 0);
	assert_int_equal(sp_find_entries(&g, "b.c:work", &ids, &n, &cap, &err), 0);
	assert_int_equal(n, 2);
	assert_int_equal(ids[0], main_);
	assert_int_equal(ids[1], clone);
	assert_int_equal(sp_find_entries(&g, "wor", &ids, &n, &cap, &err), -1);
	free(ids);
	sp_graph_release(&g);
}

/* The name index finds what the scan finds, in the same order: a name
 * and a symbol of one function match once, clones only without an
 * exact match, FILE: parts as before. */
static void test_find_entries_indexed(void **state)
{
	static const char *const specs[] = {
		"x", "y", "z", "x_y", "w", "b.c:x", "a.c:y", "src/b.c:w", "v", "nosuch", "x.",
	};
	struct sp_graph g;
	struct sp_name_index ix;
	uint32_t *a = NULL, *b = NULL, f;
	size_t na, nb, cap_a = 0, cap_b = 0, i;

	(void)state;
	sp_graph_init(&g);
	fn_at(&g, "x.constprop.0", "b.c");
	f = fn_at(&g, "y", "a.c");
	g.funcs[f].symbol = sp_intern(&g, "y");
	fn_at(&g, "x_y", "a.c");
	f = fn_at(&g, "w.isra.0", "src/b.c");
	g.funcs[f].symbol = sp_intern(&g, "x.part.1");
	fn_at(&g, "x.cold", "a.c");
	fn_at(&g, "z", "a.c");
	f = fn_at(&g, "v.part.0", "a.c");
	g.funcs[f].symbol = sp_intern(&g, "z");
	fn_at(&g, "w.constprop.1", "a.c");
	fn_at(&g, "y", "b.c");
	sp_name_index_build(&ix, &g);
	for (i = 0; i < sizeof(specs) / sizeof(specs[0]); i++) {
		na = nb = 0;
		assert_int_equal(sp_find_entries(&g, specs[i], &a, &na, &cap_a, NULL),
				 sp_find_entries_in(&g, &ix, specs[i], &b, &nb, &cap_b, NULL));
		assert_int_equal(na, nb);
		assert_memory_equal(a, b, na * sizeof(*a));
	}
	/* x: its clones and a symbol, in id order */
	na = 0;
	assert_int_equal(sp_find_entries_in(&g, &ix, "x", &a, &na, &cap_a, NULL), 0);
	assert_int_equal(na, 3);
	assert_int_equal(a[0], 0);
	assert_int_equal(a[1], 3);
	assert_int_equal(a[2], 4);
	/* a function added later ('from' copies) is found as the scan finds it */
	f = fn_at(&g, "x.part.2", "a.c");
	g.funcs[f].symbol = sp_intern(&g, "y");
	sp_name_index_add(&ix, &g, f);
	for (i = 0; i < sizeof(specs) / sizeof(specs[0]); i++) {
		na = nb = 0;
		assert_int_equal(sp_find_entries(&g, specs[i], &a, &na, &cap_a, NULL),
				 sp_find_entries_in(&g, &ix, specs[i], &b, &nb, &cap_b, NULL));
		assert_int_equal(na, nb);
		assert_memory_equal(a, b, na * sizeof(*a));
	}
	sp_name_index_release(&ix);
	free(a);
	free(b);
	sp_graph_release(&g);
}

/* A call that does not happen while anc is on the stack below it. */
static void below(struct sp_graph *g, uint32_t from, uint32_t to, uint32_t anc)
{
	SP_ALLOC_GROW(g->belows, (size_t)g->nbelows + 1, g->belows_cap);
	g->belows[g->nbelows++] = (struct sp_below){ from, to, anc, 0, 0 };
	if (!g->funcs[anc].nest)
		g->funcs[anc].nest = SP_NEST_CONTEXT;
}

/*
 * Four once functions t0..t3 that call each other; t0 calls x, and x
 * sleep, a call that a 'below' line drops while a, which calls t0, is
 * on the stack.  Exactly, below a nothing sleeps: a is 1000 + 4 * 10.
 * Past a limit of exact contexts, the t's are pooled (a budget of 4)
 * and whether a is on the stack is kept: the 4 activations may end in
 * t0 again (t0 t1 t2 t0), which calls x, but not sleep: 1000 + 40 + 1.
 * Past it again, the last attempt forgets a: below t0 the call stays:
 * 1000 + 40 + 1 + 500, above the exact total, and a's reason says so.
 */
static void test_pooled_below(void **state)
{
	uint32_t limit[3] = { 0, 30, 2 }, t[4], k, i, j, a, x, sleep;
	uint64_t want_a[3] = { 1040, 1041, 1541 };
	uint32_t forgotten[3] = { 0, 0, 1 }, pooled[3] = { 0, 4, 4 };
	struct sp_graph g;
	struct reasons r;
	char name[8];

	(void)state;
	for (k = 0; k < 3; k++) {
		sp_graph_init(&g);
		g.nest_limit = limit[k];
		for (i = 0; i < 4; i++) {
			snprintf(name, sizeof(name), "t%u", i);
			t[i] = fs(&g, name, 10);
			g.funcs[t[i]].nest = 1;
		}
		a = fs(&g, "a", 1000);
		x = fs(&g, "x", 1);
		sleep = fs(&g, "sleep", 500);
		for (i = 0; i < 4; i++)
			for (j = 0; j < 4; j++)
				if (i != j)
					call(&g, t[i], t[j]);
		call(&g, a, t[0]);
		call(&g, t[0], x);
		call(&g, x, sleep);
		below(&g, x, sleep, a);
		solve(&g);
		assert_int_equal(res(&g, a)->total, want_a[k]);
		assert_true(res(&g, a)->bounded);
		assert_int_equal(res(&g, t[0])->total, k ? 10 + 10 + 10 + 10 + 1 + 500 : 10 + 1 + 500);
		assert_int_equal(g.nest.pooled, pooled[k]);
		assert_int_equal(g.nest.forgotten, forgotten[k]);
		assert_int_equal(!!(g.funcs[a].flags & SP_F_NEST_POOLED), forgotten[k]);
		if (forgotten[k]) {
			assert_int_equal(reasons_of(&g, a, &r), 1);
			/* t0's, pooled, comes first (texts end at 255 bytes) */
			assert_non_null(strstr(r.text[0], " bounded by annotation: t0 at most once on a "
					       "stack (coarse: 4 once/nest functions counted in "
					       "one budget per cycle, of at most 4 activations, 1 ancestors of "
					       "'below' lines not known, over the limit of 2 "));
		}
		sp_graph_release(&g);
	}
}

/*
 * Only 'below' ancestors: a1 -> a2 -> x, x -> s1 dropped below a1, x ->
 * s2 below a2.  Exactly, a1's stack is a1 a2 x: both calls dropped.
 * With a limit of 1 context the last attempt forgets both: a2's own
 * region still drops s2 (a2 is on the stack there), s1 stays: a1 a2 x
 * s1, and the reason says which ancestor was not known.
 */
static void test_forgotten_ancestors(void **state)
{
	uint32_t a1, a2, x, s1, s2, k;
	struct sp_graph g;
	struct reasons r;

	(void)state;
	for (k = 0; k < 2; k++) {
		sp_graph_init(&g);
		g.nest_limit = k;
		a1 = fs(&g, "a1", 1);
		a2 = fs(&g, "a2", 2);
		x = fs(&g, "x", 4);
		s1 = fs(&g, "s1", 100);
		s2 = fs(&g, "s2", 1000);
		call(&g, a1, a2);
		call(&g, a2, x);
		call(&g, x, s1);
		call(&g, x, s2);
		below(&g, x, s1, a1);
		below(&g, x, s2, a2);
		solve(&g);
		assert_int_equal(res(&g, a1)->total, k ? 1 + 2 + 4 + 100 : 1 + 2 + 4);
		assert_int_equal(res(&g, a2)->total, 2 + 4 + 100);
		assert_int_equal(g.nest.forgotten, k ? 2 : 0);
		assert_int_equal(g.nest.pooled, 0);
		assert_int_equal(reasons_of(&g, a1, &r), k);
		if (k)
			assert_string_equal(r.text[0], "the calls 'below' lines drop while a2 is "
					    "on the stack kept (coarse: 2 ancestors of 'below' "
					    "lines not known, over the limit of 1 contexts of "
					    "exact counts; the total may be above the exact one)");
		sp_graph_release(&g);
	}
}

/*
 * below: panic leaves the console unblanked by trylock, so below it
 * unblank does not take the sleeping lock; called elsewhere, it does.
 */
static void test_below_drops_only_below(void **state)
{
	struct sp_graph g;
	uint32_t panic, unblank, lock, sleep, other, main_;

	(void)state;
	sp_graph_init(&g);
	panic = fs(&g, "panic", 100);
	unblank = fs(&g, "unblank", 10);
	lock = fs(&g, "lock", 20);
	sleep = fs(&g, "sleep", 500);
	other = fs(&g, "other", 1);
	main_ = fs(&g, "main", 2);
	call(&g, panic, unblank);
	call(&g, unblank, lock);
	call(&g, lock, sleep);
	call(&g, other, unblank);
	call(&g, main_, panic);
	call(&g, main_, other);
	below(&g, unblank, lock, panic);
	solve(&g);
	assert_int_equal(res(&g, panic)->total, 110);
	assert_string_equal(path_str(&g, panic), "panic unblank");
	assert_int_equal(res(&g, unblank)->total, 530);
	assert_int_equal(res(&g, other)->total, 531);
	assert_int_equal(res(&g, main_)->total, 533);
	assert_string_equal(path_str(&g, main_), "main other unblank lock sleep");
	assert_true(res(&g, main_)->bounded);
	sp_graph_release(&g);
}

/*
 * The call that closes a cycle through the ancestor, dropped below it:
 * panic -> printk -> putcred -> panic is no cycle, and a path through
 * panic enters it once; a cycle that keeps its calls stays unbounded,
 * named by the reasons.
 */
static void test_below_cuts_cycle(void **state)
{
	struct sp_graph g;
	struct reasons r;
	uint32_t panic, printk, putcred, warn, foo;

	(void)state;
	sp_graph_init(&g);
	panic = fs(&g, "panic", 100);
	printk = fs(&g, "printk", 50);
	putcred = fs(&g, "putcred", 10);
	warn = fs(&g, "warn", 30);
	foo = fs(&g, "foo", 1);
	call(&g, panic, printk);
	call(&g, printk, putcred);
	call(&g, putcred, panic);
	call(&g, foo, printk);
	below(&g, putcred, panic, panic);
	solve(&g);
	assert_true(res(&g, panic)->bounded);
	assert_int_equal(res(&g, panic)->total, 160);
	assert_string_equal(path_str(&g, panic), "panic printk putcred");
	assert_int_equal(res(&g, foo)->total, 1 + 50 + 10 + 160);
	assert_string_equal(path_str(&g, foo), "foo printk putcred panic printk putcred");
	assert_false(g.funcs[printk].flags & SP_F_RECURSIVE);
	assert_int_equal(reasons_of(&g, foo, &r), 0);

	call(&g, printk, warn);
	call(&g, warn, panic);
	solve(&g);
	assert_false(res(&g, panic)->bounded);
	assert_false(res(&g, foo)->bounded);
	assert_int_equal(reasons_of(&g, foo, &r), 1);
	assert_string_equal(r.text[0], "recursion panic -> printk -> warn -> panic");
	sp_graph_release(&g);
}

/* Below a once function entered with the ancestor on the stack, its
 * calls drop too; entered without it, they stay. */
static void test_below_through_once(void **state)
{
	struct sp_graph g;
	uint32_t anc, f, once, h, big, top;

	(void)state;
	sp_graph_init(&g);
	anc = fs(&g, "anc", 1);
	f = fs(&g, "f", 2);
	once = fs(&g, "once_g", 4);
	h = fs(&g, "h", 8);
	big = fs(&g, "big", 1000);
	top = fs(&g, "top", 16);
	call(&g, anc, f);
	call(&g, f, once);
	call(&g, once, h);
	call(&g, h, big);
	call(&g, top, anc);
	call(&g, top, once);
	g.funcs[once].nest = 1;
	below(&g, h, big, anc);
	solve(&g);
	assert_int_equal(res(&g, anc)->total, 1 + 2 + 4 + 8);
	assert_string_equal(path_str(&g, anc), "anc f once_g h");
	assert_int_equal(res(&g, once)->total, 4 + 8 + 1000);
	assert_int_equal(res(&g, f)->total, 2 + 1012);
	assert_int_equal(res(&g, top)->total, 16 + 1012);
	sp_graph_release(&g);
}

/* An ancestor entered below itself through a nest function: bounded by
 * that count, which the reasons name, not by the ancestor. */
static void test_below_ancestor_through_nest(void **state)
{
	struct sp_graph g;
	struct reasons r;
	uint32_t panic, store, ub, lock, foo;

	(void)state;
	sp_graph_init(&g);
	panic = fs(&g, "panic", 100);
	store = fs(&g, "store", 10);
	ub = fs(&g, "unblank", 1);
	lock = fs(&g, "lock", 1000);
	foo = fs(&g, "foo", 2);
	call(&g, panic, store);
	call(&g, store, panic);
	call(&g, panic, ub);
	call(&g, ub, lock);
	call(&g, foo, panic);
	g.funcs[store].nest = 2;
	below(&g, ub, lock, panic);
	solve(&g);
	assert_true(res(&g, foo)->bounded);
	assert_int_equal(res(&g, panic)->total, 3 * 100 + 2 * 10 + 1);
	assert_int_equal(res(&g, foo)->total, 2 + 321);
	assert_int_equal(reasons_of(&g, foo, &r), 1);
	assert_string_equal(r.text[0], "recursion store -> panic -> store bounded by "
			    "annotation: store at most 2 deep");
	sp_graph_release(&g);
}

/*
 * A once function's key keeps the counts of the gates it reaches even
 * where it cannot reach their functions: below anc, h's call of big
 * drops unless u is on the stack too, and o, below both, reaches
 * neither.  Its context under u and anc is not the one under anc alone.
 */
static void test_below_unless_above(void **state)
{
	struct sp_graph g;
	uint32_t top1, top2, u, anc, o, h, big;

	(void)state;
	sp_graph_init(&g);
	top1 = fs(&g, "top1", 16);
	top2 = fs(&g, "top2", 32);
	u = fs(&g, "u", 1);
	anc = fs(&g, "anc", 2);
	o = fs(&g, "o", 4);
	h = fs(&g, "h", 8);
	big = fs(&g, "big", 1000);
	call(&g, top1, u);
	call(&g, u, anc);
	call(&g, top2, anc);
	call(&g, anc, o);
	call(&g, o, h);
	call(&g, h, big);
	g.funcs[o].nest = 1;
	g.funcs[u].nest = SP_NEST_CONTEXT;
	below(&g, h, big, anc);
	SP_ALLOC_GROW(g.below_unless, (size_t)g.nbelow_unless + 1, g.below_unless_cap);
	g.belows[g.nbelows - 1].unless_first = g.nbelow_unless;
	g.belows[g.nbelows - 1].nunless = 1;
	g.below_unless[g.nbelow_unless++] = u;
	solve(&g);
	assert_int_equal(res(&g, top1)->total, 16 + 1 + 2 + 4 + 8 + 1000);
	assert_string_equal(path_str(&g, top1), "top1 u anc o h big");
	assert_int_equal(res(&g, top2)->total, 32 + 2 + 4 + 8);
	assert_string_equal(path_str(&g, top2), "top2 anc o h");
	assert_int_equal(res(&g, o)->total, 4 + 8 + 1000);
	sp_graph_release(&g);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_chain),
		cmocka_unit_test(test_diamond),
		cmocka_unit_test(test_tie_lowest_id),
		cmocka_unit_test(test_self_recursion),
		cmocka_unit_test(test_mutual_recursion),
		cmocka_unit_test(test_cycle_below_caller),
		cmocka_unit_test(test_tail_call),
		cmocka_unit_test(test_tail_loses_to_own_frame),
		cmocka_unit_test(test_unknown_callee),
		cmocka_unit_test(test_indirect_and_incomplete),
		cmocka_unit_test(test_dynamic_vs_bounded),
		cmocka_unit_test(test_scc_shares_causes),
		cmocka_unit_test(test_deep_chain),
		cmocka_unit_test(test_deep_ring),
		cmocka_unit_test(test_overflow_saturates),
		cmocka_unit_test(test_overflow_reason),
		cmocka_unit_test(test_red_zone_overflow),
		cmocka_unit_test(test_zero_frame_tail_cycle),
		cmocka_unit_test(test_dense_component),
		cmocka_unit_test(test_overflow_in_cycle),
		cmocka_unit_test(test_finalized_by_analysis),
		cmocka_unit_test(test_reanalyze_is_idempotent),
		cmocka_unit_test(test_once_cuts_only_below),
		cmocka_unit_test(test_nest_depth),
		cmocka_unit_test(test_once_keeps_other_cycles),
		cmocka_unit_test(test_once_region_order),
		cmocka_unit_test(test_once_pair),
		cmocka_unit_test(test_once_tail),
		cmocka_unit_test(test_once_unbounded_leaf),
		cmocka_unit_test(test_once_all_pairs),
		cmocka_unit_test(test_once_pooled_contexts),
		cmocka_unit_test(test_nest_pooled_above_exact),
		cmocka_unit_test(test_pooled_below),
		cmocka_unit_test(test_forgotten_ancestors),
		cmocka_unit_test(test_once_doomed_rounds),
		cmocka_unit_test(test_once_doomed_and_not),
		cmocka_unit_test(test_below_drops_only_below),
		cmocka_unit_test(test_below_cuts_cycle),
		cmocka_unit_test(test_below_through_once),
		cmocka_unit_test(test_below_ancestor_through_nest),
		cmocka_unit_test(test_below_unless_above),
		cmocka_unit_test(test_cycle_order_follows_known_calls),
		cmocka_unit_test(test_lower_bound_certain),
		cmocka_unit_test(test_lower_bound_tail),
		cmocka_unit_test(test_lower_bound_guessed_cycle),
		cmocka_unit_test(test_lower_bound_once),
		cmocka_unit_test(test_large_cycle_reasons),
		cmocka_unit_test(test_find_entries),
		cmocka_unit_test(test_find_entries_indexed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
