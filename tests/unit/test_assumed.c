/*
 * test_assumed.c - --indirect=address-taken's sets against the edges
 * they stand for: random graphs are solved once with the sets as they
 * are and once with every set expanded into one edge per target (what
 * the sets replaced), and every result, flag and reason must agree.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "annotate/annotate.h"
#include "graph_fixture.h"
#include "stackprof.h"

#define MAX_FUNCS 48

struct rng {
	uint64_t s;
};

static uint32_t rnd(struct rng *r, uint32_t n)
{
	r->s = r->s * 6364136223846793005ULL + 1442695040888963407ULL;
	return (uint32_t)(r->s >> 33) % n;
}

static const char *const names[MAX_FUNCS] = {
	"f0", "f1", "f2", "f3", "f4", "f5", "f6", "f7", "f8", "f9", "f10", "f11",
	"f12", "f13", "f14", "f15", "f16", "f17", "f18", "f19", "f20", "f21", "f22",
	"f23", "f24", "f25", "f26", "f27", "f28", "f29", "f30", "f31", "f32", "f33",
	"f34", "f35", "f36", "f37", "f38", "f39", "f40", "f41", "f42", "f43", "f44",
	"f45", "f46", "f47",
};

/*
 * The graph of seed: frames (some unknown, dynamic, or near 2^64 so
 * that sums saturate), calls and tail calls, indirect calls, some typed,
 * prototypes, annotated recursion depths; taken[] its address-taken
 * functions.  The same seed builds the same graph.
 */
static void build(struct sp_graph *g, uint64_t seed, uint8_t *taken)
{
	static const char *const protos[] = { "int(int)", "void(void*)", "long(long)" };
	struct rng r = { seed };
	uint32_t n = 2 + rnd(&r, MAX_FUNCS - 1), nedges = rnd(&r, 3 * n), i;

	sp_graph_init(g);
	for (i = 0; i < n; i++) {
		uint32_t kind = rnd(&r, 20);
		uint64_t self = 8 * rnd(&r, 40);
		uint32_t id;

		if (kind == 0)
			self = UINT64_MAX - rnd(&r, 64);
		id = fn(g, names[i], self, kind == 1 ? SP_QUAL_UNKNOWN :
			kind == 2 ? SP_QUAL_DYNAMIC : SP_QUAL_STATIC);
		if (rnd(&r, 3) == 0)
			g->funcs[id].n_indirect = 1 + rnd(&r, 3);
		if (rnd(&r, 3))
			g->funcs[id].proto = sp_intern(g, protos[rnd(&r, 3)]);
		if (rnd(&r, 12) == 0)
			g->funcs[id].rec_depth = 1 + rnd(&r, 3);
		if (rnd(&r, 10) == 0)
			g->funcs[id].flags |= SP_F_CALLS_INCOMPLETE;
		taken[id] = rnd(&r, 2);
	}
	for (i = 0; i < nedges; i++) {
		uint32_t from = rnd(&r, n), to = rnd(&r, n);

		if (rnd(&r, 4) == 0)
			tail(g, from, to);
		else
			call(g, from, to);
	}
	for (i = 0; i < n; i++) {
		uint32_t k, typed = rnd(&r, 2) ? g->funcs[i].n_indirect : 0;

		/* all of its sites typed (the set narrows) or some (it does not) */
		if (typed && rnd(&r, 4) == 0)
			typed--;
		for (k = 0; k < typed; k++)
			sp_graph_add_icall(g, i, sp_intern(g, protos[rnd(&r, 3)]));
	}
}

struct reasons {
	char text[512];
	size_t len;
};

static void join_reason(void *ctx, const char *reason)
{
	struct reasons *r = ctx;
	int k = snprintf(r->text + r->len, sizeof(r->text) - r->len, "%s; ", reason);

	if (k > 0 && (size_t)k < sizeof(r->text) - r->len)
		r->len += (size_t)k;
}

static void assert_same(const struct sp_graph *a, const struct sp_graph *b, uint64_t seed)
{
	uint32_t i;

	assert_int_equal(a->nfuncs, b->nfuncs);
	for (i = 0; i < a->nfuncs; i++) {
		const struct sp_result *x = &a->funcs[i].res, *y = &b->funcs[i].res;
		struct reasons rx = { .len = 0 }, ry = { .len = 0 };

		if (memcmp(x, y, sizeof(*x)) || a->funcs[i].flags != b->funcs[i].flags)
			print_error("seed %llu: function %u: total %llu/%llu next %u/%u "
				    "kind %u/%u flags %u/%u scc %u/%u\n",
				    (unsigned long long)seed, i, (unsigned long long)x->total,
				    (unsigned long long)y->total, x->next, y->next,
				    x->next_kind, y->next_kind, x->next_flags, y->next_flags,
				    x->scc, y->scc);
		assert_memory_equal(x, y, sizeof(*x));
		assert_int_equal(a->funcs[i].flags, b->funcs[i].flags);
		sp_reasons(a, i, join_reason, &rx);
		sp_reasons(b, i, join_reason, &ry);
		assert_string_equal(rx.text, ry.text);
	}
}

static void solve_one(uint64_t seed, bool expand, struct sp_graph *g)
{
	uint8_t taken[MAX_FUNCS] = { 0 };
	struct sp_err err = { { 0 } };

	build(g, seed, taken);
	sp_assume_address_taken(g, taken);
	if (expand)
		sp_graph_expand_assumed(g, SP_NONE);
	assert_int_equal(sp_analyze(g, &err), 0);
}

static void test_sets_solve_as_edges(void **state)
{
	uint64_t seed;

	(void)state;
	for (seed = 1; seed <= 4000; seed++) {
		struct sp_graph sets, edges;

		solve_one(seed, false, &sets);
		solve_one(seed, true, &edges);
		assert_same(&sets, &edges, seed);
		assert_int_equal(sets.nedges + sp_assumed_edges(&sets), edges.nedges);
		sp_graph_release(&sets);
		sp_graph_release(&edges);
	}
}

/* An 'ignore' line takes one target out of a caller's set. */
static void test_ignore_assumed_target(void **state)
{
	struct sp_graph g;
	struct sp_err err = { { 0 } };
	struct sp_annots a;
	uint8_t taken[3] = { 0, 1, 1 };
	uint32_t d, x, y;

	(void)state;
	sp_graph_init(&g);
	d = fs(&g, "dispatch", 16);
	x = fs(&g, "op_x", 100);
	y = fs(&g, "op_y", 300);
	g.funcs[d].n_indirect = 1;
	assert_int_equal(sp_assume_address_taken(&g, taken), 2);
	sp_annots_init(&a);
	assert_int_equal(sp_annot_parse(&a, "t.ann", "ignore dispatch op_y\n", 21, &err), 0);
	assert_int_equal(sp_annot_apply(&a, &g, &err), 0);
	sp_annots_release(&a);
	assert_int_equal(sp_analyze(&g, &err), 0);
	assert_int_equal(g.funcs[d].res.total, 16 + 100);
	assert_int_equal(g.funcs[d].res.next, x);
	assert_int_equal(g.funcs[d].res.next_flags, SP_EDGE_F_ASSUMED);
	assert_true(g.funcs[d].res.assumed);
	(void)y;
	sp_graph_release(&g);
}

/* Prototype classes: object pointers are one ("void*"), pointers to
 * functions keep their class, strings that do not parse are their own. */
static void test_proto_class(void **state)
{
	static const char *const cases[][2] = {
		{ "int(void*,enum style,char*,...)", "int(void*,int,void*,...)" },
		{ "int(struct buf*,enum style,char*,...)", "int(void*,int,void*,...)" },
		{ "int(int(int)*,enum style,char*,...)", "int(int(int)*,int,void*,...)" },
		{ "enum e(unsigned int,const long int)", "int(int,long int)" },
		{ "void(void(struct a*,int)*)", "void(void(void*,int)*)" },
		{ "char**(int(int)**,long[]*,struct x&,int&&)", "void*(void*,void*,void*,void*)" },
		{ "void()", "void()" },
		{ "int(int)", "int(int)" },
		{ "void(struct timer*)", "void(void*)" },
		{ "int(union u*,...)", "int(void*,...)" },
		{ "struct s(struct s)", "struct s(struct s)" },
		{ "int(int))", "int(int))" },
		{ "int(int", "int(int" },
	};
	struct sp_graph g;
	size_t i;

	(void)state;
	sp_graph_init(&g);
	assert_null(sp_proto_class(&g, NULL));
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		assert_string_equal(sp_proto_class(&g, sp_intern(&g, cases[i][0])), cases[i][1]);
	assert_ptr_equal(sp_proto_class(&g, sp_intern(&g, "int(struct a*)")),
			 sp_proto_class(&g, sp_intern(&g, "int(const char*)")));
	sp_graph_release(&g);
}

/* A kernel's prototypes: object pointers keep their type (C's checks,
 * kCFI), qualifiers go, an enum is an int as C may make it. */
static void test_proto_strict(void **state)
{
	static const char *const cases[][2] = {
		{ "void(struct timer*)", "void(struct timer*)" },
		{ "int(const char*,volatile int*)", "int(char*,int*)" },
		{ "enum irqreturn(int,void*)", "int(int,void*)" },
		{ "void(unsigned int,enum kind,long unsigned int)", "void(int,int,long unsigned int)" },
		{ "void(void(struct a*,const enum b)*)", "void(void(struct a*,int)*)" },
		{ "void()", "void()" },
		{ "int(int", "int(int" },
	};
	struct sp_graph g;
	size_t i;

	(void)state;
	sp_graph_init(&g);
	assert_null(sp_proto_strict(&g, NULL));
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		assert_string_equal(sp_proto_strict(&g, sp_intern(&g, cases[i][0])), cases[i][1]);
	assert_ptr_not_equal(sp_proto_strict(&g, sp_intern(&g, "void(struct a*)")),
			     sp_proto_strict(&g, sp_intern(&g, "void(void*)")));
	sp_graph_release(&g);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sets_solve_as_edges),
		cmocka_unit_test(test_ignore_assumed_target),
		cmocka_unit_test(test_proto_class),
		cmocka_unit_test(test_proto_strict),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
