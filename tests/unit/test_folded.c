/*
 * Unit tests of report/folded.c (--folded): the lines of a hand-built
 * graph, worked out by hand: tail calls weigh nothing for the frame they
 * replace, every root's lines add up to its total, names stay apart.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/report.h"
#include "graph_fixture.h"

struct fixture {
	struct sp_graph g;
	uint32_t a, b, c, d, dup1, dup2;
};

/*
 *   a(16) -> b(32) -tail-> c(100, red zone 20)
 *   "x;y"(8) -> c
 *   dup (f1.c, 4), dup (f2.c, 4): no calls
 *
 * c 120; b max(32, 120) = 120 through the tail call; a 16 + 120 = 136;
 * x;y 8 + 120 = 128.
 */
static int setup(void **state)
{
	struct fixture *fx = calloc(1, sizeof(*fx));
	struct sp_graph *g;

	if (!fx)
		return -1;
	g = &fx->g;
	sp_graph_init(g);
	fx->a = fs(g, "a", 16);
	fx->b = fs(g, "b", 32);
	fx->c = fs(g, "c", 100);
	g->funcs[fx->c].red_zone = 20;
	fx->d = fs(g, "x;y", 8);
	fx->dup1 = fs(g, "dup", 4);
	fx->dup2 = fs(g, "dup", 4);
	g->funcs[fx->dup1].file = sp_intern(g, "f1.c");
	g->funcs[fx->dup2].file = sp_intern(g, "f2.c");
	call(g, fx->a, fx->b);
	tail(g, fx->b, fx->c);
	call(g, fx->d, fx->c);
	solve(g);
	assert_int_equal(res(g, fx->a)->total, 136);
	*state = fx;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *fx = *state;

	sp_graph_release(&fx->g);
	free(fx);
	return 0;
}

static char *folded(const struct sp_graph *g, const struct sp_report_opts *o)
{
	struct sp_err err = { { 0 } };
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	assert_non_null(fp);
	assert_int_equal(sp_report_folded(g, o, fp, &err), 0);
	assert_int_equal(fclose(fp), 0);
	return buf;
}

static void test_roots(void **state)
{
	struct fixture *fx = *state;
	struct sp_report_opts o = { .top = 10 };
	char *out = folded(&fx->g, &o);

	/* b and c are called: not roots; b's line weighs 0 and is left out */
	assert_string_equal(out,
		"a 16\n"
		"a;b;c 120\n"
		"x:y 8\n"
		"x:y;c 120\n"
		"dup [f1.c] 4\n"
		"dup [f2.c] 4\n");
	free(out);
}

static void test_entries(void **state)
{
	struct fixture *fx = *state;
	uint32_t entries[] = { fx->b, fx->c };
	struct sp_report_opts o = { .top = 10, .entries = entries, .nentries = 2 };
	char *out = folded(&fx->g, &o);

	/* called functions are roots when named; ties sort by name */
	assert_string_equal(out,
		"b;c 120\n"
		"c 120\n");
	free(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_roots, setup, teardown),
		cmocka_unit_test_setup_teardown(test_entries, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
