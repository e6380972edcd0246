/* Unit tests of dwarf/lines.c: a unit's file names from hand-made line
 * table headers, DWARF 4 and 5, joined as dwarf_srcfiles joins them. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dwarf/internal.h"
#include "tests/unit/bytes.h"


/* The unit length, once the rest is written after 4 bytes at 0. */
static void close_unit(struct bytes *b)
{
	size_t n = b->n;

	b->n = 0;
	put(b, n - 4, 4);
	b->n = n;
}

struct names {
	char v[8][64];
	int n;
};

static void collect(void *ctx, const char *path)
{
	struct names *l = ctx;

	snprintf(l->v[l->n++], sizeof(l->v[0]), "%s", path);
}

/* A DWARF 5 header: directories inline, files in .debug_line_str with a
 * directory index; file 3's index is bad_dir when not 0. */
static void v5_header(struct bytes *b, struct bytes *strs, unsigned bad_dir)
{
	static const char *const dirs[] = { "/abs/comp", "inc/", "/usr/include" };
	static const char *const files[] = { "a.c", "b.h", "c.h", "/x/d.h" };
	static const unsigned file_dir[] = { 0, 1, 2, 1 };
	unsigned i;

	b->n = 4;
	put(b, 5, 2);
	put(b, 8, 1);		/* address size */
	put(b, 0, 1);		/* segment selector size */
	put(b, 0, 4);		/* header_length, not read */
	put(b, 0x0101fb01, 4);	/* min_inst_length .. line_base */
	put(b, 14, 1);		/* line_range */
	put(b, 13, 1);		/* opcode_base */
	for (i = 1; i < 13; i++)
		put(b, 0, 1);
	put(b, 1, 1);		/* directory format: path as a string */
	put(b, DW_LNCT_path, 1);
	put(b, DW_FORM_string, 1);
	put(b, 3, 1);
	for (i = 0; i < 3; i++)
		put_str(b, dirs[i]);
	put(b, 2, 1);		/* file format: path in .debug_line_str, dir */
	put(b, DW_LNCT_path, 1);
	put(b, DW_FORM_line_strp, 1);
	put(b, DW_LNCT_directory_index, 1);
	put(b, DW_FORM_udata, 1);
	put(b, 4, 1);
	for (i = 0; i < 4; i++) {
		put(b, strs->n, 4);
		put_str(strs, files[i]);
		put(b, i == 3 && bad_dir ? bad_dir : file_dir[i], 1);
	}
	close_unit(b);
}

static int read_names(const struct bytes *b, const struct bytes *strs, struct names *out)
{
	struct dw_secs s = { 0 };

	s.msb = b->msb;
	s.line.data = b->v;
	s.line.size = b->n;
	s.line_str.data = strs ? strs->v : NULL;
	s.line_str.size = strs ? strs->n : 0;
	memset(out, 0, sizeof(*out));
	return dw_line_files(&s, 0, "/abs/comp", collect, out);
}

static void test_v5(void **state)
{
	struct bytes b = { 0 }, strs = { 0 };
	struct names l;

	(void)state;
	v5_header(&b, &strs, 0);
	assert_int_equal(read_names(&b, &strs, &l), 0);
	assert_int_equal(l.n, 4);
	assert_string_equal(l.v[0], "/abs/comp/a.c");
	/* a relative directory goes under comp_dir, one '/' after "inc/" */
	assert_string_equal(l.v[1], "/abs/comp/inc/b.h");
	assert_string_equal(l.v[2], "/usr/include/c.h");
	assert_string_equal(l.v[3], "/x/d.h");
}

/* A file naming a directory past the table, a string outside
 * .debug_line_str, a header cut short: -1, for libdwarf to judge. */
static void test_v5_bad(void **state)
{
	struct bytes b = { 0 }, strs = { 0 };
	struct names l;

	(void)state;
	v5_header(&b, &strs, 3);
	assert_int_equal(read_names(&b, &strs, &l), -1);
	strs.n = 0;
	v5_header(&b, &strs, 0);
	strs.n = 5;		/* "b.h" and on are past its end */
	assert_int_equal(read_names(&b, &strs, &l), -1);
	strs.n = 0;
	v5_header(&b, &strs, 0);
	b.n -= 3;
	close_unit(&b);
	assert_int_equal(read_names(&b, &strs, &l), -1);
	b.n = 2;
	assert_int_equal(read_names(&b, &strs, &l), -1);
}

/* The same tables in a big-endian object. */
static void test_msb(void **state)
{
	struct bytes b = { .msb = true }, strs = { 0 };
	struct names l;

	(void)state;
	v5_header(&b, &strs, 0);
	assert_int_equal(read_names(&b, &strs, &l), 0);
	assert_int_equal(l.n, 4);
	assert_string_equal(l.v[1], "/abs/comp/inc/b.h");
	assert_string_equal(l.v[3], "/x/d.h");
	b.msb = false;		/* read the other way round, the lengths lie */
	assert_int_equal(read_names(&b, &strs, &l), -1);
}

static void v4_header(struct bytes *b, unsigned last_dir)
{
	unsigned i;

	b->n = 4;
	put(b, 4, 2);
	put(b, 0, 4);		/* header_length, not read */
	put(b, 0x0101fb01, 4);	/* min_inst_length .. line_base */
	put(b, 14, 1);
	put(b, 13, 1);
	for (i = 1; i < 13; i++)
		put(b, 0, 1);
	put_str(b, "inc");
	put_str(b, "/usr/include");
	put_str(b, "");
	put_str(b, "a.c");
	put(b, 0, 3);		/* directory 0: comp_dir; time, length */
	put_str(b, "b.h");
	put(b, 1, 1);
	put(b, 0, 2);
	put_str(b, "c.h");
	put(b, last_dir, 1);
	put(b, 0, 2);
	put_str(b, "");
	close_unit(b);
}

static void test_v4(void **state)
{
	struct bytes b = { 0 };
	struct names l;

	(void)state;
	v4_header(&b, 2);
	assert_int_equal(read_names(&b, NULL, &l), 0);
	assert_int_equal(l.n, 3);
	assert_string_equal(l.v[0], "/abs/comp/a.c");
	assert_string_equal(l.v[1], "/abs/comp/inc/b.h");
	assert_string_equal(l.v[2], "/usr/include/c.h");
	v4_header(&b, 3);	/* two include directories: 3 is none */
	assert_int_equal(read_names(&b, NULL, &l), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_v5),
		cmocka_unit_test(test_v5_bad),
		cmocka_unit_test(test_msb),
		cmocka_unit_test(test_v4),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
