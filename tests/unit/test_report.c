/* Unit tests of report/ (JSON, budget, text) and common/size.c. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "common/size.h"
#include "report/report.h"
#include "stackprof.h"

struct fixture {
	struct sp_graph g;
	uint32_t main_, even, odd, memset_, big, leaf, nocode, start;
};

static uint32_t fn(struct sp_graph *g, const char *name, uint64_t self, enum sp_qual q,
		   const char *file, uint32_t line, uint32_t col)
{
	uint32_t id = sp_graph_add_func(g);
	struct sp_func *f = &g->funcs[id];

	f->name = sp_intern(g, name);
	f->self = self;
	f->qual = q;
	f->src = q == SP_QUAL_UNKNOWN ? SP_SRC_NONE : SP_SRC_SU;
	f->file = file ? sp_intern(g, file) : NULL;
	f->line = line;
	f->col = col;
	f->flags = SP_F_HAS_CODE;
	return id;
}

/*
 *   main(16) -> even(16) <-> odd(32) -> leaf(8)
 *   main -> memset (external, no frame)
 *   big(4000, dynamic,bounded) -tail-> leaf
 *   _start (symbol only, no frame, an indirect call) -> main
 */
static int setup(void **state)
{
	struct fixture *fx = calloc(1, sizeof(*fx));
	struct sp_graph *g = &fx->g;
	struct sp_err err;

	sp_graph_init(g);
	g->binary = sp_intern(g, "bin/prog");
	g->su_files = 3;
	g->su_rows = 9;
	g->su_matched = 7;
	fx->main_ = fn(g, "main", 16, SP_QUAL_STATIC, "src/main.c", 10, 5);
	g->funcs[fx->main_].symbol = sp_intern(g, "main");
	g->funcs[fx->main_].addr = 0xffffffff81000010ull;	/* past INT64_MAX */
	fx->even = fn(g, "even", 16, SP_QUAL_STATIC, "rec.c", 3, 0);
	fx->odd = fn(g, "odd", 32, SP_QUAL_STATIC, "rec.c", 9, 1);
	fx->memset_ = fn(g, "memset", 0, SP_QUAL_UNKNOWN, NULL, 0, 0);
	g->funcs[fx->memset_].flags = SP_F_EXTERNAL;
	fx->big = fn(g, "big", 4000, SP_QUAL_BOUNDED, "big.c", 20, 0);
	g->funcs[fx->big].dyn_cause = sp_intern(g, "alloca at big.c:22");
	fx->leaf = fn(g, "leaf", 8, SP_QUAL_STATIC, NULL, 0, 0);
	fx->nocode = fn(g, "nocode", 1, SP_QUAL_STATIC, "x.c", 1, 1);
	g->funcs[fx->nocode].flags = 0;
	fx->start = fn(g, "_start", 0, SP_QUAL_UNKNOWN, NULL, 0, 0);
	g->funcs[fx->start].flags |= SP_F_SYMTAB_ONLY | SP_F_CALLS_INCOMPLETE;
	g->funcs[fx->start].n_indirect = 1;
	sp_graph_add_edge(g, fx->start, fx->main_, SP_EDGE_CALL, 0);
	sp_graph_add_edge(g, fx->main_, fx->even, SP_EDGE_CALL, 0);
	sp_graph_add_edge(g, fx->main_, fx->memset_, SP_EDGE_CALL, 0);
	sp_graph_add_edge(g, fx->even, fx->odd, SP_EDGE_CALL, 0);
	sp_graph_add_edge(g, fx->odd, fx->even, SP_EDGE_CALL, 0);
	sp_graph_add_edge(g, fx->odd, fx->leaf, SP_EDGE_CALL, 0);
	sp_graph_add_edge(g, fx->big, fx->leaf, SP_EDGE_TAIL, 0);
	sp_graph_finalize(g);
	if (sp_analyze(g, &err))
		return -1;
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

/* Run a report into memory; returns the malloc'ed text. */
static char *capture(int (*report)(const struct sp_graph *, const struct sp_report_opts *,
				   FILE *, struct sp_err *),
		     const struct sp_graph *g, const struct sp_report_opts *o)
{
	struct sp_err err = { { 0 } };
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	assert_non_null(fp);
	assert_int_equal(report(g, o, fp, &err), 0);
	fclose(fp);
	return buf;
}

static char *capture_budget(const struct sp_graph *g, const struct sp_report_opts *o,
			    size_t expect_over)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	assert_non_null(fp);
	assert_int_equal(sp_report_budget(g, o, fp), expect_over);
	fclose(fp);
	return buf;
}

static json_object *member(json_object *o, const char *key)
{
	json_object *v = NULL;

	assert_true(json_object_object_get_ex(o, key, &v));
	return v;
}

static const char *str_member(json_object *o, const char *key)
{
	json_object *v = member(o, key);

	assert_true(json_object_is_type(v, json_type_string));
	return json_object_get_string(v);
}

static int64_t int_member(json_object *o, const char *key)
{
	json_object *v = member(o, key);

	assert_true(json_object_is_type(v, json_type_int));
	return json_object_get_int64(v);
}

static bool bool_member(json_object *o, const char *key)
{
	json_object *v = member(o, key);

	assert_true(json_object_is_type(v, json_type_boolean));
	return json_object_get_boolean(v);
}

static void assert_null_member(json_object *o, const char *key)
{
	assert_null(member(o, key));
}

static void assert_string_array(json_object *a, const char *const *want, size_t n)
{
	size_t i;

	assert_true(json_object_is_type(a, json_type_array));
	assert_int_equal(json_object_array_length(a), n);
	for (i = 0; i < n; i++)
		assert_string_equal(json_object_get_string(json_object_array_get_idx(a, i)),
				    want[i]);
}

static json_object *func_named(json_object *funcs, const char *name)
{
	size_t i;

	for (i = 0; i < json_object_array_length(funcs); i++) {
		json_object *f = json_object_array_get_idx(funcs, i);

		if (!strcmp(str_member(f, "name"), name))
			return f;
	}
	fail_msg("no function '%s' in the JSON", name);
	return NULL;
}

static void check_json_main(json_object *f)
{
	static const char *const path[] = { "main", "even", "odd", "leaf" };
	static const char *const reasons[] = {
		"recursion even -> odd -> even", "unknown frame size for memset",
	};
	json_object *detail, *d;

	assert_string_equal(str_member(f, "symbol"), "main");
	assert_string_equal(str_member(f, "address"), "0xffffffff81000010");
	assert_string_equal(str_member(f, "file"), "src/main.c");
	assert_int_equal(int_member(f, "line"), 10);
	assert_int_equal(int_member(f, "col"), 5);
	assert_int_equal(int_member(f, "self"), 16);
	assert_string_equal(str_member(f, "qualifier"), "static");
	assert_string_equal(str_member(f, "frame_source"), "su");
	assert_null_member(f, "dynamic_cause");
	assert_null_member(f, "total");
	assert_int_equal(int_member(f, "lower_bound"), 16 + 16 + 32 + 8);
	assert_false(bool_member(f, "bounded"));
	assert_true(bool_member(f, "partial"));
	assert_false(bool_member(f, "recursive"));
	assert_string_array(member(f, "path"), path, 4);
	assert_string_array(member(f, "reasons"), reasons, 2);
	detail = member(f, "path_detail");
	assert_int_equal(json_object_array_length(detail), 4);
	d = json_object_array_get_idx(detail, 2);
	assert_string_equal(str_member(d, "name"), "odd");
	assert_string_equal(str_member(d, "file"), "rec.c");
	assert_int_equal(int_member(d, "line"), 9);
	assert_int_equal(int_member(d, "self"), 32);
	assert_false(bool_member(d, "tail"));
	assert_null_member(json_object_array_get_idx(detail, 3), "file");
}

static void check_json_others(json_object *funcs)
{
	json_object *big = func_named(funcs, "big"), *even = func_named(funcs, "even"), *d;

	assert_int_equal(int_member(big, "total"), 4000);
	assert_int_equal(int_member(big, "lower_bound"), 4000);
	assert_string_equal(str_member(big, "qualifier"), "dynamic,bounded");
	assert_string_equal(str_member(big, "dynamic_cause"), "alloca at big.c:22");
	assert_true(bool_member(big, "bounded"));
	assert_false(bool_member(big, "partial"));
	assert_null_member(big, "symbol");
	assert_int_equal(json_object_array_length(member(big, "reasons")), 0);
	/* big's own frame beats the tail call: its path is itself */
	assert_int_equal(json_object_array_length(member(big, "path")), 1);

	assert_true(bool_member(even, "recursive"));
	d = json_object_array_get_idx(member(even, "path_detail"), 0);
	assert_string_equal(str_member(d, "name"), "even");
}

/* f's worst path by its worst_callee chain (no segments here), which
 * must be the path it writes; the ids in funcs are the array's. */
static void check_worst_chain(json_object *funcs, json_object *f)
{
	json_object *path = member(f, "path"), *at = f;
	size_t i, n = json_object_array_length(path);

	for (i = 0; i < n; i++) {
		json_object *next = member(at, "worst_callee"), *call;

		assert_string_equal(str_member(at, "name"),
				    json_object_get_string(json_object_array_get_idx(path, i)));
		if (i + 1 == n) {
			assert_null(next);
			assert_null_member(at, "worst_call");
			break;
		}
		call = json_object_array_get_idx(member(at, "calls"), int_member(at, "worst_call"));
		assert_int_equal(int_member(call, "id"), json_object_get_int64(next));
		at = json_object_array_get_idx(funcs, json_object_get_int64(next));
		assert_int_equal(int_member(at, "id"), json_object_get_int64(next));
	}
}

static void test_json(void **state)
{
	struct fixture *fx = *state;
	struct sp_report_opts o = { .top = 10 };
	char *text = capture(sp_report_json, &fx->g, &o);
	json_object *root = json_tokener_parse(text), *funcs, *su, *memset_;
	static const char *const order[] = { "big", "main", "even", "odd", "leaf", "memset" };
	size_t i;

	assert_non_null(root);
	assert_int_equal(int_member(root, "version"), 2);
	assert_string_equal(str_member(root, "binary"), "bin/prog");
	assert_string_equal(str_member(root, "paths"), "shown");
	assert_int_equal(json_object_array_length(member(root, "segments")), 0);
	su = member(root, "su");
	assert_int_equal(int_member(su, "files"), 3);
	assert_int_equal(int_member(su, "rows"), 9);
	assert_int_equal(int_member(su, "matched"), 7);
	funcs = member(root, "functions");
	/* the selected ones sorted by lower bound, then what they reach:
	 * memset has no code, so main's call lists it; nocode and _start
	 * are neither selected nor reached */
	assert_int_equal(json_object_array_length(funcs), 6);
	for (i = 0; i < 6; i++) {
		json_object *f = json_object_array_get_idx(funcs, i);

		assert_string_equal(str_member(f, "name"), order[i]);
		assert_int_equal(int_member(f, "id"), i);
		assert_int_equal(bool_member(f, "selected"), i < 5);
	}
	check_json_main(func_named(funcs, "main"));
	check_json_others(funcs);
	for (i = 0; i < 5; i++)
		check_worst_chain(funcs, json_object_array_get_idx(funcs, i));
	/* a function that is only reached has no path written (--top 10
	 * shows the five selected) */
	memset_ = func_named(funcs, "memset");
	assert_false(json_object_object_get_ex(memset_, "path", NULL));
	json_object_put(root);
	free(text);
}

/* The report is JSON, each function one line that is json-c's plain
 * printing of that function. */
static void test_json_lines(void **state)
{
	struct fixture *fx = *state;
	struct sp_report_opts o = { .top = 1 };
	struct sp_graph empty;
	char *text[2];
	int i;

	text[0] = capture(sp_report_json, &fx->g, &o);
	sp_graph_init(&empty);
	text[1] = capture(sp_report_json, &empty, &o);
	for (i = 0; i < 2; i++) {
		json_object *root = json_tokener_parse(text[i]), *funcs;
		size_t k;

		assert_non_null(root);
		funcs = member(root, "functions");
		assert_int_equal(json_object_array_length(funcs), i ? 0 : 6);
		for (k = 0; k < json_object_array_length(funcs); k++) {
			const char *line = json_object_to_json_string_ext(
				json_object_array_get_idx(funcs, k),
				JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE);
			char *want = malloc(strlen(line) + 8);

			sprintf(want, "\n    %s%s\n", line,
				k + 1 < json_object_array_length(funcs) ? "," : "");
			assert_non_null(strstr(text[i], want));
			free(want);
		}
		/* --top 1: only the first has its path */
		for (k = 0; k < json_object_array_length(funcs); k++)
			assert_int_equal(json_object_object_get_ex(json_object_array_get_idx(funcs, k),
								   "path", NULL), k == 0);
		json_object_put(root);
		free(text[i]);
	}
	sp_graph_release(&empty);
}

static void test_json_entries(void **state)
{
	struct fixture *fx = *state;
	uint32_t entries[] = { fx->leaf, fx->memset_, fx->even, fx->leaf };
	struct sp_report_opts o = { .top = 1, .entries = entries, .nentries = 4 };
	char *text = capture(sp_report_json, &fx->g, &o);
	json_object *root = json_tokener_parse(text), *funcs, *ms, *odd;

	assert_non_null(root);
	funcs = member(root, "functions");
	/* each entry once, even without code, in report order; then odd,
	 * which even reaches */
	assert_int_equal(json_object_array_length(funcs), 4);
	assert_string_equal(str_member(json_object_array_get_idx(funcs, 0), "name"), "even");
	assert_string_equal(str_member(json_object_array_get_idx(funcs, 1), "name"), "leaf");
	ms = json_object_array_get_idx(funcs, 2);
	assert_string_equal(str_member(ms, "name"), "memset");
	assert_null_member(ms, "self");
	assert_null_member(ms, "file");
	assert_null_member(ms, "frame_source");
	assert_string_equal(str_member(ms, "qualifier"), "unknown");
	assert_int_equal(int_member(ms, "total"), 0);
	assert_true(bool_member(ms, "bounded"));
	assert_true(bool_member(ms, "partial"));
	assert_true(bool_member(ms, "selected"));
	odd = json_object_array_get_idx(funcs, 3);
	assert_string_equal(str_member(odd, "name"), "odd");
	assert_false(bool_member(odd, "selected"));
	/* every entry has its path, whatever --top says; odd has none */
	check_worst_chain(funcs, json_object_array_get_idx(funcs, 0));
	assert_int_equal(json_object_array_length(member(ms, "path")), 1);
	assert_false(json_object_object_get_ex(odd, "path", NULL));
	json_object_put(root);
	free(text);
}

static void test_budget_lines(void **state)
{
	struct fixture *fx = *state;
	struct sp_report_opts o = { .has_budget = true, .budget = 64 };
	char *out;

	out = capture_budget(&fx->g, &o, 4);
	assert_string_equal(out,
		"big.c:20:1: error: stack budget exceeded: 4000 > 64 bytes via big\n"
		"src/main.c:10:5: error: stack usage unbounded (recursion even -> odd -> even), "
		"at least 72 bytes via main \u2192 even \u2192 odd \u2192 leaf\n"
		"rec.c:3:1: error: stack usage unbounded (recursion even -> odd -> even), "
		"at least 56 bytes via even \u2192 odd \u2192 leaf\n"
		"rec.c:9:1: error: stack usage unbounded (recursion odd -> even -> odd), "
		"at least 40 bytes via odd \u2192 leaf\n");
	free(out);

	/* lower bounds against the budget: only main's 72 is over */
	o.allow_unbounded = true;
	o.budget = 4000;
	out = capture_budget(&fx->g, &o, 0);
	assert_string_equal(out, "");
	free(out);
	o.budget = 70;
	out = capture_budget(&fx->g, &o, 2);
	assert_string_equal(out,
		"big.c:20:1: error: stack budget exceeded: 4000 > 70 bytes via big\n"
		"src/main.c:10:5: error: stack budget exceeded: 72 > 70 bytes via "
		"main \u2192 even \u2192 odd \u2192 leaf\n");
	free(out);
}

static void test_budget_unknown_file(void **state)
{
	struct fixture *fx = *state;
	uint32_t entries[] = { fx->leaf };
	struct sp_report_opts o = { .has_budget = true, .budget = 7,
				    .entries = entries, .nentries = 1 };
	char *out = capture_budget(&fx->g, &o, 1);

	assert_string_equal(out, "bin/prog: error: stack budget exceeded: 8 > 7 bytes via leaf\n");
	free(out);
	o.budget = 8;
	out = capture_budget(&fx->g, &o, 0);
	assert_string_equal(out, "");
	free(out);
}

/* The line of the table that names fn, NULL if none. */
static const char *row_of(const char *text, const char *fn)
{
	const char *p = text;
	size_t n = strlen(fn);

	while ((p = strstr(p, fn))) {
		if (p[-1] == ' ' && p[n] == ' ') {
			while (p > text && p[-1] != '\n')
				p--;
			return p;
		}
		p += n;
	}
	return NULL;
}

static void test_text(void **state)
{
	struct fixture *fx = *state;
	struct sp_report_opts o = { .top = 2 };
	char *text = capture(sp_report_text, &fx->g, &o);
	const char *main_row = row_of(text, "main"), *big_row = row_of(text, "big");
	const char *leaf_row = row_of(text, "leaf");

	assert_non_null(strstr(text, "bin/prog"));
	assert_non_null(main_row);
	assert_non_null(big_row);
	assert_non_null(leaf_row);
	assert_true(big_row < main_row && main_row < leaf_row);
	assert_non_null(strstr(main_row, ">= 72+"));
	assert_non_null(strstr(big_row, "4000 "));
	/* the columns line up: FUNCTION starts at the same offset everywhere */
	assert_int_equal(strstr(main_row, "main") - main_row, strstr(big_row, "big") - big_row);
	/* two paths (top = 2): big, then main with its frames and reasons */
	assert_non_null(strstr(text, "#1 big: 4000 bytes"));
	assert_non_null(strstr(text, "#2 main: at least 72 bytes, unbounded"));
	assert_null(strstr(text, "#3 "));
	assert_non_null(strstr(text, "[dynamic]"));
	assert_non_null(strstr(text, "[recursive]"));
	assert_non_null(strstr(text, "reason: recursion even -> odd -> even"));
	assert_non_null(strstr(text, "reason: unknown frame size for memset"));
	free(text);

	/* an unknown frame: '?' for its self, partial total */
	o.entries = &fx->memset_;
	o.nentries = 1;
	text = capture(sp_report_text, &fx->g, &o);
	assert_non_null(strstr(text, "0+     ?  unknown"));
	assert_non_null(strstr(text, "#1 memset: 0 bytes or more (partial)"));
	assert_non_null(strstr(text, "[unknown]"));
	free(text);
}

/* A symbol-only function is a default root once it has frame data. */
static void test_select_symtab_only(void **state)
{
	struct fixture *fx = *state;
	struct sp_report_opts o = { .top = 0 };
	uint32_t *ids, entries[1];
	size_t n, i;

	n = sp_report_select(&fx->g, &o, &ids);
	assert_int_equal(n, 5);
	for (i = 0; i < n; i++)
		assert_int_not_equal(ids[i], fx->start);
	free(ids);

	/* named by --entry it is reported, with everything that makes it unbounded */
	entries[0] = fx->start;
	o.entries = entries;
	o.nentries = 1;
	assert_int_equal(sp_report_select(&fx->g, &o, &ids), 1);
	assert_int_equal(ids[0], fx->start);
	free(ids);
	assert_false(fx->g.funcs[fx->start].res.bounded);
	assert_int_equal(fx->g.funcs[fx->start].res.total, 72);

	/* an annotated assembly function has a frame: a root again */
	fx->g.funcs[fx->start].qual = SP_QUAL_STATIC;
	fx->g.funcs[fx->start].self = 8;
	o.entries = NULL;
	o.nentries = 0;
	n = sp_report_select(&fx->g, &o, &ids);
	assert_int_equal(n, 6);
	for (i = 0; i < n && ids[i] != fx->start; i++)
		;
	assert_true(i < n);
	free(ids);
}

/* Equal totals list by name as strcmp orders them (bytes unsigned, a
 * prefix first), then by file: names that differ in their first 8 bytes
 * are told apart by a number, the rest by the strings. */
static void test_select_name_order(void **state)
{
	static const char *const names[] = { "b", "abcdefgh2", "\xc3\xa9t\xc3\xa9",
					     "abcdefg", "Z", "a", "dup", "abcdefgh1",
					     "ab", "dup" };
	static const char *const files[] = { "t.c", "t.c", "t.c", "t.c", "t.c", "t.c",
					     "y.c", "t.c", "t.c", "x.c" };
	static const char *const order[] = { "Z", "a", "ab", "abcdefg", "abcdefgh1",
					     "abcdefgh2", "b", "dup", "dup",
					     "\xc3\xa9t\xc3\xa9" };
	struct sp_report_opts o = { .top = 0 };
	struct sp_err err;
	struct sp_graph g;
	uint32_t *ids;
	size_t i, n;

	(void)state;
	sp_graph_init(&g);
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		fn(&g, names[i], 16, SP_QUAL_STATIC, files[i], (uint32_t)i + 1, 1);
	sp_graph_finalize(&g);
	assert_int_equal(sp_analyze(&g, &err), 0);
	n = sp_report_select(&g, &o, &ids);
	assert_int_equal(n, sizeof(order) / sizeof(order[0]));
	for (i = 0; i < n; i++)
		assert_string_equal(g.funcs[ids[i]].name, order[i]);
	assert_string_equal(g.funcs[ids[7]].file, "x.c");
	assert_string_equal(g.funcs[ids[8]].file, "y.c");
	free(ids);
	sp_graph_release(&g);
}

/* A tail call's frame replaces its caller's in the cumulative column. */
static void test_text_tail_cumulative(void **state)
{
	struct sp_graph g;
	struct sp_err err;
	struct sp_report_opts o = { .top = 1 };
	uint32_t a, b;
	char *text;

	(void)state;
	sp_graph_init(&g);
	a = fn(&g, "caller", 10, SP_QUAL_STATIC, "t.c", 1, 1);
	b = fn(&g, "callee", 300, SP_QUAL_STATIC, "t.c", 5, 1);
	sp_graph_add_edge(&g, a, b, SP_EDGE_TAIL, 0);
	sp_graph_finalize(&g);
	assert_int_equal(sp_analyze(&g, &err), 0);
	text = capture(sp_report_text, &g, &o);
	assert_non_null(strstr(text, "#1 callee: 300 bytes"));
	o.entries = &a;
	o.nentries = 1;
	free(text);
	text = capture(sp_report_text, &g, &o);
	assert_non_null(strstr(text, "#1 caller: 300 bytes"));
	/* self 300, stack 300 (not 310), marked as a tail call */
	assert_non_null(strstr(text, "300    300  callee"));
	assert_non_null(strstr(text, "[tail]"));
	free(text);
	sp_graph_release(&g);
}

/* A table of thousands of rows is formatted in two halves, the second on
 * another core: the rows stay in order, each once, and the widest name,
 * which sorts into the second half, still sets the column for the first. */
static void test_text_many_rows(void **state)
{
	enum { N = 10000 };
	static const char longest[] = "a_function_name_wider_than_the_others";
	struct sp_report_opts o = { .top = 0 };
	struct sp_graph g;
	struct sp_err err;
	const char *row, *end;
	char name[32], *text;
	uint64_t last = UINT64_MAX;
	long name_col = -1;
	unsigned i, rows = 0;

	(void)state;
	sp_graph_init(&g);
	for (i = 0; i < N; i++) {
		snprintf(name, sizeof(name), "f%u", i);
		fn(&g, i == 7 ? longest : name, 16 + 16 * (uint64_t)i, SP_QUAL_STATIC,
		   "t.c", i + 1, 1);
	}
	sp_graph_finalize(&g);
	assert_int_equal(sp_analyze(&g, &err), 0);
	text = capture(sp_report_text, &g, &o);
	row = strstr(text, "LOCATION\n");
	assert_non_null(row);
	for (row = strchr(row, '\n') + 1; *row == ' ' && row[2] != '\0'; row = end + 1) {
		uint64_t total = strtoull(row, NULL, 10);
		const char *fn_name = strstr(row, "  f");

		end = strchr(row, '\n');
		assert_non_null(end);
		if (fn_name && fn_name < end)
			fn_name += 2;
		else
			fn_name = strstr(row, longest);
		assert_true(fn_name && fn_name < end);
		if (name_col < 0)
			name_col = fn_name - row;
		assert_int_equal(fn_name - row, name_col);
		assert_true(total <= last);
		last = total;
		rows++;
	}
	assert_int_equal(rows, N);
	/* the column is as wide as the longest name, found in the last rows */
	assert_non_null(strstr(text, "f9999                                  "));
	free(text);
	sp_graph_release(&g);
}

static void test_parse_size(void **state)
{
	static const char *const bad[] = {
		"", "-1", "+1", " 1", "1 ", "K", "4KB", "4x", "0x10", "1.5K", "4KK",
		"18446744073709551616", "18014398509481984K", "17179869184G",
	};
	uint64_t v = 12345;
	size_t i;

	(void)state;
	assert_int_equal(sp_parse_size("4096", &v), 0);
	assert_int_equal(v, 4096);
	assert_int_equal(sp_parse_size("0", &v), 0);
	assert_int_equal(v, 0);
	assert_int_equal(sp_parse_size("4K", &v), 0);
	assert_int_equal(v, 4096);
	assert_int_equal(sp_parse_size("4k", &v), 0);
	assert_int_equal(v, 4096);
	assert_int_equal(sp_parse_size("1M", &v), 0);
	assert_int_equal(v, 1048576);
	assert_int_equal(sp_parse_size("1G", &v), 0);
	assert_int_equal(v, 1073741824);
	assert_int_equal(sp_parse_size("18446744073709551615", &v), 0);
	assert_true(v == UINT64_MAX);
	assert_int_equal(sp_parse_size("18014398509481983K", &v), 0);
	assert_true(v == 18014398509481983ull * 1024);
	v = 777;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(sp_parse_size(bad[i], &v), -1);
		assert_int_equal(v, 777);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_json, setup, teardown),
		cmocka_unit_test_setup_teardown(test_json_lines, setup, teardown),
		cmocka_unit_test_setup_teardown(test_json_entries, setup, teardown),
		cmocka_unit_test_setup_teardown(test_budget_lines, setup, teardown),
		cmocka_unit_test_setup_teardown(test_budget_unknown_file, setup, teardown),
		cmocka_unit_test_setup_teardown(test_text, setup, teardown),
		cmocka_unit_test_setup_teardown(test_select_symtab_only, setup, teardown),
		cmocka_unit_test(test_select_name_order),
		cmocka_unit_test(test_text_tail_cumulative),
		cmocka_unit_test(test_text_many_rows),
		cmocka_unit_test(test_parse_size),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
