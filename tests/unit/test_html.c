/*
 * Unit tests of report/html.c: the page of a hand-built graph, read back
 * as text: the embedded data parses (json-c) to the names given, even
 * names that would end a <script> element, and the SVG is inline.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <json-c/json.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "graph_fixture.h"
#include "report/html.h"

#define DATA_OPEN "<script type=\"application/json\" id=\"stackprof-data\">"

static const char hostile[] = "op</script><!--<script>alert(1)</script>";

static char *page_of(struct sp_gv *gv, const struct sp_graph *g)
{
	struct sp_report_opts ro = { .top = 10 };
	struct sp_gv_opts go = { .top = 1 };
	struct sp_err err = { { 0 } };
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	assert_non_null(fp);
	assert_int_equal(sp_report_html(gv, g, &ro, &go, fp, &err), 0);
	assert_int_equal(fclose(fp), 0);
	return buf;
}

/* main(16) -> "op</script>..."(64): a name no C compiler makes, but a
 * symbol table can hold anything */
static void build(struct sp_graph *g)
{
	uint32_t m, h;

	sp_graph_init(g);
	m = fs(g, "main", 16);
	h = fs(g, hostile, 64);
	g->funcs[h].file = sp_intern(g, "dir</b>/x.c");
	call(g, m, h);
	solve(g);
}

/* The JSON between the data element's tags, parsed back. */
static json_object *data_of(const char *page)
{
	const char *start = strstr(page, DATA_OPEN), *end;
	char *text;
	json_object *o;

	assert_non_null(start);
	start += strlen(DATA_OPEN);
	end = strstr(start, "</script>");
	assert_non_null(end);
	text = strndup(start, (size_t)(end - start));
	assert_null(strchr(text, '<'));		/* every '<' is \u003c */
	o = json_tokener_parse(text);
	free(text);
	assert_non_null(o);
	return o;
}

/* a row of the page's "functions" (report/html_data.c) */
enum { ROW_NAME = 0, ROW_FILE = 1, ROW_TOTAL = 5, ROW_WORST = 9 };

static const char *row_string(json_object *data, json_object *row, int field)
{
	int k = json_object_get_int(json_object_array_get_idx(row, field));

	return json_object_get_string(json_object_array_get_idx(
		json_object_object_get(data, "strings"), k));
}

static void test_hostile_names(void **state)
{
	struct sp_graph g;
	char *page;
	json_object *data, *funcs, *f, *worst;
	const char *name;
	size_t i, n;
	bool found = false;

	build(&g);
	page = page_of(*state, &g);
	data = data_of(page);
	funcs = json_object_object_get(data, "functions");
	n = json_object_array_length(funcs);
	assert_int_equal(n, 2);
	for (i = 0; i < n; i++) {
		f = json_object_array_get_idx(funcs, i);
		name = json_object_get_string(json_object_array_get_idx(f, ROW_NAME));
		if (strcmp(name, "main"))
			continue;
		/* its worst callee: the hostile name, whose file is hostile too */
		worst = json_object_array_get_idx(funcs, json_object_get_int(
			json_object_array_get_idx(f, ROW_WORST)));
		assert_string_equal(json_object_get_string(
			json_object_array_get_idx(worst, ROW_NAME)), hostile);
		assert_string_equal(row_string(data, worst, ROW_FILE), "dir</b>/x.c");
		assert_int_equal(json_object_get_uint64(
			json_object_array_get_idx(f, ROW_TOTAL)), 80);
		found = true;
	}
	assert_true(found);
	json_object_put(data);
	/* the page's own elements: one data element, then one script */
	assert_non_null(strstr(page, "<!DOCTYPE html>"));
	assert_null(strstr(strstr(page, DATA_OPEN) + 1, DATA_OPEN));
	free(page);
	sp_graph_release(&g);
}

static void test_inline_svg(void **state)
{
	struct sp_graph g;
	char *page, *svg;

	build(&g);
	page = page_of(*state, &g);
	svg = strstr(page, "<svg");
	assert_non_null(svg);
	assert_null(strstr(svg + 1, "<svg"));
	assert_non_null(strstr(svg, "</svg>"));
	assert_true(strstr(page, DATA_OPEN) > svg);
	/* graphviz's prolog names its DTD by URL: it must not be there */
	assert_null(strstr(page, "<?xml"));
	assert_null(strstr(page, "<!DOCTYPE svg"));
	assert_null(strstr(page, "svg11.dtd"));
	free(page);
	sp_graph_release(&g);
}

static int group_setup(void **state)
{
	struct sp_err err = { { 0 } };

	*state = sp_gv_new(&err);
	return *state ? 0 : -1;
}

static int group_teardown(void **state)
{
	sp_gv_free(*state);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hostile_names),
		cmocka_unit_test(test_inline_svg),
	};

	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
