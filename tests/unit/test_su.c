/* Unit tests of su/parse.c: the .su line format and its failure modes. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/xalloc.h"
#include "su/su.h"

/* A set and its string table, fresh for each test. */
struct fixture {
	struct sp_strtab strs;
	struct su_set set;
	struct sp_err err;
	int warnings;
	char last_warning[1024];
};

static int setup(void **state)
{
	struct fixture *fx = sp_xcalloc(1, sizeof(*fx));

	sp_strtab_init(&fx->strs);
	su_set_init(&fx->set);
	*state = fx;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *fx = *state;

	su_set_release(&fx->set);
	sp_strtab_release(&fx->strs);
	free(fx);
	return 0;
}

static void count_warning(void *ctx, const char *msg)
{
	struct fixture *fx = ctx;

	fx->warnings++;
	snprintf(fx->last_warning, sizeof(fx->last_warning), "%s", msg);
}

static int parse_len(struct fixture *fx, const char *buf, size_t len, bool keep_going)
{
	fx->err.msg[0] = '\0';
	return su_parse_buffer(&fx->set, &fx->strs, "t.su", buf, len, keep_going,
			       count_warning, fx, &fx->err);
}

static int parse(struct fixture *fx, const char *buf, bool keep_going)
{
	return parse_len(fx, buf, strlen(buf), keep_going);
}

static const struct su_row *row(struct fixture *fx, size_t i)
{
	assert_true(i < fx->set.nrows);
	return &fx->set.rows[i];
}

static void test_qualifiers(void **state)
{
	struct fixture *fx = *state;

	assert_int_equal(parse(fx, "a.c:1:5:s\t16\tstatic\n"
				   "a.c:2:5:d\t32\tdynamic\n"
				   "a.c:3:5:b\t48\tdynamic,bounded\n", false), 0);
	assert_int_equal(fx->set.nrows, 3);
	assert_int_equal(row(fx, 0)->qual, SP_QUAL_STATIC);
	assert_int_equal(row(fx, 1)->qual, SP_QUAL_DYNAMIC);
	assert_int_equal(row(fx, 2)->qual, SP_QUAL_BOUNDED);
	assert_int_equal(row(fx, 2)->bytes, 48);
	assert_string_equal(row(fx, 2)->name, "b");
	assert_string_equal(row(fx, 2)->file, "a.c");
	assert_int_equal(row(fx, 2)->line, 3);
	assert_int_equal(row(fx, 2)->col, 5);
	assert_int_equal(row(fx, 2)->su_line, 3);
	assert_int_equal(row(fx, 2)->su_file, 0);
	assert_int_equal(fx->set.npaths, 1);
	assert_string_equal(fx->set.paths[0], "t.su");
	/* interned: equal strings are one pointer */
	assert_ptr_equal(row(fx, 0)->file, row(fx, 1)->file);
	assert_ptr_equal(row(fx, 0)->file, sp_strtab_intern(&fx->strs, "a.c", 3));
}

static void test_clang_without_column(void **state)
{
	struct fixture *fx = *state;

	assert_int_equal(parse(fx, "y.cc:526:_ZNSt6vectorIiSaIiEEC2Ev\t24\tstatic\n"
				   "x.c:5:vla\t24\tdynamic", false), 0);
	assert_int_equal(fx->set.nrows, 2);
	assert_int_equal(row(fx, 0)->line, 526);
	assert_int_equal(row(fx, 0)->col, 0);
	assert_string_equal(row(fx, 0)->name, "_ZNSt6vectorIiSaIiEEC2Ev");
	/* a last line without its newline counts */
	assert_string_equal(row(fx, 1)->name, "vla");
	assert_int_equal(row(fx, 1)->qual, SP_QUAL_DYNAMIC);
	/* Clang gives functions without a location no line at all */
	assert_int_equal(parse(fx, "y.cc:__clang_call_terminate\t8\tstatic\n", false), 0);
	assert_string_equal(row(fx, 2)->file, "y.cc");
	assert_int_equal(row(fx, 2)->line, 0);
	assert_string_equal(row(fx, 2)->name, "__clang_call_terminate");
}

static void test_cxx_names(void **state)
{
	struct fixture *fx = *state;

	assert_int_equal(parse(fx,
		"y.cc:2:20:int ns::f(int, char*)\t16\tstatic\n"
		"/usr/include/c++/12/new:174:33:void* operator new(std::size_t, void*)\t16\tstatic\n"
		"v.h:1293:7:void std::vector<_Tp, _Alloc>::push_back(const int&) [with _Tp = int]\t32\tstatic\n"
		"y.cc:2:74:int ns::S::operator()(int)\t8\tstatic\n", false), 0);
	assert_int_equal(fx->set.nrows, 4);
	assert_string_equal(row(fx, 0)->name, "int ns::f(int, char*)");
	assert_string_equal(row(fx, 1)->file, "/usr/include/c++/12/new");
	assert_int_equal(row(fx, 1)->line, 174);
	assert_int_equal(row(fx, 1)->col, 33);
	assert_string_equal(row(fx, 1)->name, "void* operator new(std::size_t, void*)");
	assert_string_equal(row(fx, 2)->name,
		"void std::vector<_Tp, _Alloc>::push_back(const int&) [with _Tp = int]");
	assert_string_equal(row(fx, 3)->name, "int ns::S::operator()(int)");
	assert_int_equal(row(fx, 3)->col, 74);
}

static void test_colon_in_path(void **state)
{
	struct fixture *fx = *state;

	assert_int_equal(parse(fx, "C:/src/a.c:7:3:f\t8\tstatic\n"
				   "odd:name/b.c:9:g\t8\tstatic\n", false), 0);
	assert_string_equal(row(fx, 0)->file, "C:/src/a.c");
	assert_int_equal(row(fx, 0)->line, 7);
	assert_int_equal(row(fx, 0)->col, 3);
	assert_string_equal(row(fx, 1)->file, "odd:name/b.c");
	assert_int_equal(row(fx, 1)->line, 9);
	assert_int_equal(row(fx, 1)->col, 0);
	assert_string_equal(row(fx, 1)->name, "g");
}

static void test_clone_suffixes(void **state)
{
	struct fixture *fx = *state;
	static const char *const names[] = {
		"foo.constprop", "foo.isra", "foo.part", "foo.constprop.isra", "foo",
	};
	char buf[512] = "";
	size_t i;

	for (i = 0; i < 5; i++) {
		size_t n = strlen(buf);

		snprintf(buf + n, sizeof(buf) - n, "a.c:3:12:%s\t%zu\tstatic\n",
			 names[i], 8 * (i + 1));
	}
	assert_int_equal(parse(fx, buf, false), 0);
	assert_int_equal(fx->set.nrows, 5);
	for (i = 0; i < 5; i++) {
		assert_string_equal(row(fx, i)->name, names[i]);
		assert_int_equal(row(fx, i)->bytes, 8 * (i + 1));
	}
}

static void test_empty_file(void **state)
{
	struct fixture *fx = *state;

	assert_int_equal(parse(fx, "", false), 0);
	assert_int_equal(fx->set.nrows, 0);
	assert_int_equal(fx->set.npaths, 1);
}

static void expect_malformed(struct fixture *fx, const char *buf, size_t len,
			     const char *msg)
{
	size_t before = fx->set.nrows;

	assert_int_equal(parse_len(fx, buf, len, false), -1);
	assert_string_equal(fx->err.msg, msg);
	assert_int_equal(fx->set.nrows, before);
}

static void test_malformed_lines(void **state)
{
	struct fixture *fx = *state;
	static const char *const bad[] = {
		"garbage\n",
		"a.c:1:5:f\t16\n",			/* no qualifier */
		"a.c:1:5:f 16 static\n",		/* spaces, not tabs */
		"a.c:1:5:\t16\tstatic\n",		/* no name */
		"a.c\t16\tstatic\n",			/* no location */
		":f\t16\tstatic\n",			/* no file */
		"a.c:\t16\tstatic\n",			/* no name */
		":1:5:f\t16\tstatic\n",			/* no file */
		"a.c:1:5:f\t\tstatic\n",		/* no bytes */
		"a.c:1:5:f\t-16\tstatic\n",		/* negative */
		"a.c:1:5:f\t1x\tstatic\n",		/* junk */
		"a.c:1:5:f\t18446744073709551616\tstatic\n",	/* UINT64_MAX + 1 */
		"a.c:1:5:f\t000000000000000000016\tstatic\n",	/* 21 digits */
		"a.c:99999999999:5:f\t16\tstatic\n",	/* line overflows */
		"   \n",				/* whitespace only */
		"a.c:1:5\t16\tstatic\n",		/* name would be a number */
	};
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		expect_malformed(fx, bad[i], strlen(bad[i]), "t.su:1: malformed .su line");
	/* the line number is the failing one */
	expect_malformed(fx, "a.c:1:5:f\t16\tstatic\n\nb.c:2:1:g\t8\tstatic\n", 40,
			 "t.su:2: malformed .su line");
}

static void test_biggest_bytes(void **state)
{
	struct fixture *fx = *state;

	assert_int_equal(parse(fx, "a.c:1:5:f\t18446744073709551615\tstatic\n", false), 0);
	assert_true(row(fx, 0)->bytes == UINT64_MAX);
}

static void test_unknown_qualifier(void **state)
{
	struct fixture *fx = *state;
	char *buf;
	size_t n;

	expect_malformed(fx, "a.c:1:5:f\t16\tstatic,bounded\n", 28,
			 "t.su:1: unknown qualifier 'static,bounded'");
	expect_malformed(fx, "a.c:1:5:f\t16\tStatic\n", 20,
			 "t.su:1: unknown qualifier 'Static'");
	/* a long qualifier is cut short, control bytes hidden */
	buf = sp_xmalloc(5000);
	n = (size_t)sprintf(buf, "a.c:1:5:f\t16\t\x1b");
	memset(buf + n, 'q', 4000);
	n += 4000;
	buf[n++] = '\n';
	assert_int_equal(parse_len(fx, buf, n, false), -1);
	assert_non_null(strstr(fx->err.msg, "unknown qualifier '?qqq"));
	assert_non_null(strstr(fx->err.msg, "...'"));
	assert_true(strlen(fx->err.msg) < 100);
	free(buf);
}

static void test_nul_byte(void **state)
{
	struct fixture *fx = *state;
	static const char buf[] = "a.c:1:5:f\0oo\t16\tstatic\n";

	expect_malformed(fx, buf, sizeof(buf) - 1, "t.su:1: malformed .su line");
	static const char qual[] = "a.c:1:5:f\t16\tstatic\0\n";

	expect_malformed(fx, qual, sizeof(qual) - 1, "t.su:1: malformed .su line");
}

static void test_very_long_line(void **state)
{
	struct fixture *fx = *state;
	size_t len = 1 << 20, n;
	char *buf = sp_xmalloc(len + 64);

	n = (size_t)sprintf(buf, "a.c:1:5:");
	memset(buf + n, 'x', len);
	n += len;
	n += (size_t)sprintf(buf + n, "\t16\tstatic\n");
	assert_int_equal(parse_len(fx, buf, n, false), 0);
	assert_int_equal(strlen(row(fx, 0)->name), len);
	/* and one that is long garbage */
	memset(buf, ':', n);
	assert_int_equal(parse_len(fx, buf, n, false), -1);
	assert_string_equal(fx->err.msg, "t.su:1: malformed .su line");
	free(buf);
}

static void test_keep_going(void **state)
{
	struct fixture *fx = *state;

	assert_int_equal(parse(fx, "a.c:1:5:f\t16\tstatic\n"
				   "junk\n"
				   "a.c:2:5:g\t8\twhat\n"
				   "a.c:3:5:h\t-1\tstatic\n"
				   "a.c:4:5:i\t24\tdynamic\n", true), 0);
	assert_int_equal(fx->warnings, 3);
	assert_string_equal(fx->last_warning, "t.su:4: malformed .su line");
	assert_int_equal(fx->set.nrows, 2);
	assert_string_equal(row(fx, 0)->name, "f");
	assert_string_equal(row(fx, 1)->name, "i");
	assert_int_equal(row(fx, 1)->su_line, 5);
}

static void test_crlf(void **state)
{
	struct fixture *fx = *state;

	assert_int_equal(parse(fx, "a.c:1:5:f\t16\tstatic\r\n", false), 0);
	assert_int_equal(row(fx, 0)->qual, SP_QUAL_STATIC);
}

/* ---- files ---- */

static char *data_path(const char *name)
{
	const char *slash = strrchr(__FILE__, '/');
	size_t dir = slash ? (size_t)(slash - __FILE__) : 0;
	char *p = sp_xmalloc(dir + strlen(name) + 32);

	sprintf(p, "%.*s%s../data/su/%s", (int)dir, __FILE__, dir ? "/" : "", name);
	return p;
}

static void test_real_compiler_output(void **state)
{
	struct fixture *fx = *state;
	static const struct {
		const char *file;
		size_t rows;
	} files[] = {
		{ "gxx-templates.su", 56 },
		{ "clang-mangled.su", 54 },
		{ "gcc-clones.su", 12 },
		{ "gcc-dynamic.su", 6 },
	};
	size_t i, total = 0;

	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		char *p = data_path(files[i].file);

		assert_int_equal(su_parse_file(&fx->set, &fx->strs, p, false, NULL, NULL,
					       &fx->err), 0);
		total += files[i].rows;
		assert_int_equal(fx->set.nrows, total);
		free(p);
	}
	assert_int_equal(fx->set.npaths, 4);
	assert_string_equal(row(fx, 0)->file, "/usr/include/c++/12/new");
	assert_string_equal(row(fx, 0)->name, "void* operator new(std::size_t, void*)");
	assert_int_equal(row(fx, 56)->col, 0);
	assert_string_equal(row(fx, 56 + 54 + 1)->name, "rec.constprop");
	assert_string_equal(row(fx, 56 + 54 + 3)->name, "hin.constprop.isra");
}

static void test_unreadable(void **state)
{
	struct fixture *fx = *state;
	char dir[] = "/tmp/test_su.XXXXXX";

	assert_int_equal(su_parse_file(&fx->set, &fx->strs, "/nonexistent/x.su", false,
				       NULL, NULL, &fx->err), -1);
	assert_string_equal(fx->err.msg,
			    "cannot read '/nonexistent/x.su': No such file or directory");
	assert_int_equal(su_add_path(&fx->set, &fx->strs, "/nonexistent", false,
				     NULL, NULL, &fx->err), -1);
	assert_non_null(mkdtemp(dir));
	assert_int_equal(su_parse_file(&fx->set, &fx->strs, dir, false, NULL, NULL,
				       &fx->err), -1);
	assert_non_null(strstr(fx->err.msg, "Is a directory"));
	assert_int_equal(fx->set.npaths, 0);
	rmdir(dir);
}

static void write_file(const char *dir, const char *name, const char *text)
{
	char path[512];
	FILE *fp;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fp = fopen(path, "w");
	assert_non_null(fp);
	fputs(text, fp);
	fclose(fp);
}

static void test_directory_sorted_and_once(void **state)
{
	struct fixture *fx = *state;
	char dir[] = "/tmp/test_su.XXXXXX", sub[64], path[128];

	assert_non_null(mkdtemp(dir));
	snprintf(sub, sizeof(sub), "%s/sub", dir);
	assert_int_equal(mkdir(sub, 0700), 0);
	write_file(dir, "b.su", "b.c:1:1:b\t8\tstatic\n");
	write_file(dir, "a.su", "a.c:1:1:a\t8\tstatic\n");
	write_file(dir, "notes.txt", "not a .su file\n");
	write_file(sub, "c.su", "c.c:1:1:c\t8\tstatic\n");
	assert_int_equal(su_add_path(&fx->set, &fx->strs, dir, false, NULL, NULL,
				     &fx->err), 0);
	assert_int_equal(fx->set.npaths, 3);
	assert_int_equal(fx->set.nrows, 3);
	assert_string_equal(row(fx, 0)->name, "a");
	assert_string_equal(row(fx, 1)->name, "b");
	assert_string_equal(row(fx, 2)->name, "c");
	/* the same file again, also by another spelling, is not read twice */
	snprintf(path, sizeof(path), "%s/sub/../a.su", dir);
	assert_int_equal(su_add_path(&fx->set, &fx->strs, path, false, NULL, NULL,
				     &fx->err), 0);
	assert_int_equal(su_add_path(&fx->set, &fx->strs, dir, false, NULL, NULL,
				     &fx->err), 0);
	assert_int_equal(fx->set.npaths, 3);
	assert_int_equal(fx->set.nrows, 3);
	/* a malformed file fails the whole directory unless keep_going */
	write_file(sub, "d.su", "bad\n");
	snprintf(path, sizeof(path), "%s/d.su", sub);
	assert_int_equal(su_add_path(&fx->set, &fx->strs, sub, false, NULL, NULL,
				     &fx->err), -1);
	assert_non_null(strstr(fx->err.msg, "d.su:1: malformed .su line"));
	remove(path);
	snprintf(path, sizeof(path), "%s/c.su", sub);
	remove(path);
	rmdir(sub);
	snprintf(path, sizeof(path), "%s/a.su", dir);
	remove(path);
	snprintf(path, sizeof(path), "%s/b.su", dir);
	remove(path);
	snprintf(path, sizeof(path), "%s/notes.txt", dir);
	remove(path);
	rmdir(dir);
}

static void test_normalize(void **state)
{
	static const struct {
		const char *dir, *path, *want;
	} cases[] = {
		{ "/src/linux", "kernel/fork.c", "/src/linux/kernel/fork.c" },
		{ "/src/linux", "./kernel//fork.c", "/src/linux/kernel/fork.c" },
		{ "/src/linux/build", "../kernel/fork.c", "/src/linux/kernel/fork.c" },
		{ "/src", "/abs/a.c", "/abs/a.c" },
		{ "/", "../../a.c", "/a.c" },
		{ "rel", "../../a.c", "../a.c" },
		{ "/a/b", "c/../../d", "/a/d" },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *p = su_path_normalize(cases[i].dir, cases[i].path);

		assert_string_equal(p, cases[i].want);
		free(p);
	}
	assert_int_equal(su_path_stem_len("/a.b/c"), 6);
	assert_int_equal(su_path_stem_len("/a/fork.c"), 7);
	assert_int_equal(su_path_stem_len("/a/.hidden"), 10);
	assert_int_equal(su_path_common_suffix("/x/kernel/fork", 14, "/y/kernel/fork", 14), 2);
	assert_int_equal(su_path_common_suffix("a.c", 3, "b.c", 3), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_qualifiers, setup, teardown),
		cmocka_unit_test_setup_teardown(test_clang_without_column, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cxx_names, setup, teardown),
		cmocka_unit_test_setup_teardown(test_colon_in_path, setup, teardown),
		cmocka_unit_test_setup_teardown(test_clone_suffixes, setup, teardown),
		cmocka_unit_test_setup_teardown(test_empty_file, setup, teardown),
		cmocka_unit_test_setup_teardown(test_malformed_lines, setup, teardown),
		cmocka_unit_test_setup_teardown(test_biggest_bytes, setup, teardown),
		cmocka_unit_test_setup_teardown(test_unknown_qualifier, setup, teardown),
		cmocka_unit_test_setup_teardown(test_nul_byte, setup, teardown),
		cmocka_unit_test_setup_teardown(test_very_long_line, setup, teardown),
		cmocka_unit_test_setup_teardown(test_keep_going, setup, teardown),
		cmocka_unit_test_setup_teardown(test_crlf, setup, teardown),
		cmocka_unit_test_setup_teardown(test_real_compiler_output, setup, teardown),
		cmocka_unit_test_setup_teardown(test_unreadable, setup, teardown),
		cmocka_unit_test_setup_teardown(test_directory_sorted_and_once, setup, teardown),
		cmocka_unit_test(test_normalize),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
