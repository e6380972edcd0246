/*
 * Unit tests of the JSON written and read a piece at a time: report/jsonw.c
 * (arrays spliced into an envelope printed by json-c) and report/jsonr.c
 * with the --diff reader (report/diff.c) on reports far larger than its
 * 64 KiB buffer, so that values cross its edges.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>

#include "report/diff.h"
#include "report/jsonr.h"
#include "report/jsonw.h"

static char *written(void (*fill)(FILE *))
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	assert_non_null(fp);
	fill(fp);
	assert_int_equal(fclose(fp), 0);
	return buf;
}

/* {"a": [1, 2], "empty": [], "b": ["x"], "tail": 3} with a, empty and b
 * spliced */
static void three_arrays(FILE *out)
{
	json_object *root = json_object_new_object(), *a = json_object_new_array();
	json_object *e = json_object_new_array(), *b = json_object_new_array();
	struct sp_jsonw w;

	json_object_array_add(a, sp_jsonw_marker());
	json_object_array_add(e, sp_jsonw_marker());
	json_object_array_add(b, sp_jsonw_marker());
	/* a string that reads like a marker is a member's value, kept */
	sp_json_put(root, "decoy", json_object_new_string("\001stackprof\001"));
	sp_json_put(root, "a", a);
	sp_json_put(root, "empty", e);
	sp_json_put(root, "b", b);
	sp_json_put(root, "tail", json_object_new_int(3));
	sp_jsonw_begin(&w, root, out);
	sp_jsonw_add(&w, json_object_new_int(1));
	sp_jsonw_add(&w, json_object_new_int(2));
	sp_jsonw_next(&w);
	sp_jsonw_next(&w);
	sp_jsonw_add(&w, json_object_new_string("x"));
	sp_jsonw_end(&w);
}

static void test_splice(void **state)
{
	char *text = written(three_arrays);
	json_object *root = json_tokener_parse(text), *want;

	(void)state;
	assert_non_null(root);
	want = json_tokener_parse("{\"decoy\": \"\\u0001stackprof\\u0001\", \"a\": [1, 2], "
				  "\"empty\": [], \"b\": [\"x\"], \"tail\": 3}");
	assert_true(json_object_equal(root, want));
	/* each element on a line of its own, at its array's indentation */
	assert_non_null(strstr(text, "\"a\":[\n    1,\n    2\n  ],"));
	assert_non_null(strstr(text, "\"empty\":[\n  ],"));
	json_object_put(root);
	json_object_put(want);
	free(text);
}

/* A version 2 report of n functions f0..f(n-1), f7's lower bound grown
 * by grow, and one function that is only reached ("selected": false). */
static char *report_file(int version, size_t n, int grow)
{
	char path[] = "/tmp/stackprof-test-jsonio-XXXXXX";
	int fd = mkstemp(path);
	FILE *fp;
	size_t i;

	assert_true(fd >= 0);
	fp = fdopen(fd, "w");
	assert_non_null(fp);
	fprintf(fp, "{ \"version\": %d, \"binary\": \"p\", \"kernel\": {\"x\": [1, {\"y\": 2}]},\n"
		"  \"functions\": [\n", version);
	for (i = 0; i < n; i++)
		fprintf(fp, "    {\"id\": %zu, \"name\": \"f%zu\", \"file\": \"dir/file%zu.c\", "
			"\"self\": %zu, \"qualifier\": \"static\", \"lower_bound\": %zu, "
			"\"bounded\": true, \"recursive\": false, \"selected\": true, "
			"\"reasons\": [\"%s\"]},\n", i, i, i % 7, i % 100,
			1000 + i + (i == 7 ? (size_t)grow : 0), i % 3 ? "" : "a reason \\u00e9 \\\"quoted\\\"");
	fprintf(fp, "    {\"name\": \"memset\", \"file\": null, \"self\": null, "
		"\"lower_bound\": 0, \"selected\": %s}\n  ]\n}\n", version == 1 ? "true" : "false");
	assert_int_equal(fclose(fp), 0);
	return strdup(path);
}

static void test_diff_large(void **state)
{
	/* ~230 bytes a function: 2,000 of them cross the buffer's edge */
	char *a = report_file(2, 2000, 0), *b = report_file(2, 2000, 64);
	char *c = report_file(1, 2000, 0);
	struct sp_diff d;
	struct sp_err err = { { 0 } };

	(void)state;
	sp_diff_init(&d);
	assert_int_equal(sp_diff_load(&d, a, a, &err), 0);
	assert_int_equal(d.n, 0);
	sp_diff_release(&d);
	assert_int_equal(sp_diff_load(&d, a, b, &err), 0);
	assert_int_equal(d.n, 1);
	assert_string_equal(d.rows[0].name, "f7");
	assert_int_equal(d.rows[0].growth, 64);
	assert_int_equal(d.max_growth, 64);
	sp_diff_release(&d);
	/* version 1 lists memset among its functions, version 2 as only
	 * reached: a removed function, since the v1 writer listed it */
	assert_int_equal(sp_diff_load(&d, c, a, &err), 0);
	assert_int_equal(d.n, 1);
	assert_string_equal(d.rows[0].name, "memset");
	assert_false(d.rows[0].new.present);
	sp_diff_release(&d);
	unlink(a);
	unlink(b);
	unlink(c);
	free(a);
	free(b);
	free(c);
}

/* A value the file cuts short, a number at the very end, a bad byte. */
static void test_reader_edges(void **state)
{
	char path[] = "/tmp/stackprof-test-jsonio-XXXXXX";
	int fd = mkstemp(path);
	struct sp_jsonr r;
	struct sp_err err = { { 0 } };
	json_object *v;

	(void)state;
	assert_true(fd >= 0);
	assert_int_equal(write(fd, " 12 [1, 2", 9), 9);
	close(fd);
	assert_int_equal(sp_jsonr_open(&r, path, &err), 0);
	assert_int_equal(sp_jsonr_value(&r, &v, &err), 0);
	assert_int_equal(json_object_get_int(v), 12);
	json_object_put(v);
	assert_true(sp_jsonr_eat(&r, '['));
	assert_int_equal(sp_jsonr_value(&r, &v, &err), 0);
	json_object_put(v);
	assert_true(sp_jsonr_eat(&r, ','));
	/* 2 ends the file: the number is whole */
	assert_int_equal(sp_jsonr_value(&r, &v, &err), 0);
	assert_int_equal(json_object_get_int(v), 2);
	json_object_put(v);
	assert_int_equal(sp_jsonr_peek(&r), EOF);
	assert_int_equal(sp_jsonr_value(&r, &v, &err), -1);
	assert_non_null(strstr(err.msg, "unexpected end of file"));
	sp_jsonr_close(&r);

	fd = open(path, O_WRONLY | O_TRUNC);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "{\"a\": [1, tru", 13), 13);
	close(fd);
	assert_int_equal(sp_jsonr_open(&r, path, &err), 0);
	assert_int_equal(sp_jsonr_value(&r, &v, &err), -1);
	assert_non_null(strstr(err.msg, "cannot read JSON"));
	sp_jsonr_close(&r);
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_splice),
		cmocka_unit_test(test_diff_large),
		cmocka_unit_test(test_reader_edges),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
