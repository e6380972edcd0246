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
	assert_int_equal(read_names(&b, &strs, &l), 0);	/* DW_AT_decl_file 0 is a.c */
	assert_int_equal(l.n, 4);
	assert_string_equal(l.v[0], "/abs/comp/a.c");
	/* a relative directory goes under comp_dir, one '/' after "inc/" */
	assert_string_equal(l.v[1], "/abs/comp/inc/b.h");
	assert_string_equal(l.v[2], "/usr/include/c.h");
	assert_string_equal(l.v[3], "/x/d.h");
}

/* A file naming a directory past the table, a string outside
 * .debug_line_str, a header cut short: -1 (the unit has no file names). */
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

/* A header of version 4, or of 3 (no maximum_operations_per_instruction). */
static void v4_header(struct bytes *b, unsigned version, unsigned last_dir)
{
	unsigned i;

	b->n = 4;
	put(b, version, 2);
	put(b, 0, 4);		/* header_length, not read */
	if (version >= 4)
		put(b, 0x0101fb01, 4);	/* min_inst_length .. line_base */
	else
		put(b, 0xfb0101, 3);	/* min_inst_length, default_is_stmt, line_base */
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
	v4_header(&b, 4, 2);
	assert_int_equal(read_names(&b, NULL, &l), 1);	/* DW_AT_decl_file 1 is a.c */
	assert_int_equal(l.n, 3);
	assert_string_equal(l.v[0], "/abs/comp/a.c");
	assert_string_equal(l.v[1], "/abs/comp/inc/b.h");
	assert_string_equal(l.v[2], "/usr/include/c.h");
	v4_header(&b, 4, 3);	/* two include directories: 3 is none */
	assert_int_equal(read_names(&b, NULL, &l), -1);
}

/* A version 3 table counts its files from 1 whatever its unit's version
 * (arm-none-eabi-gcc 12's DWARF 5 units have such tables). */
static void test_v3(void **state)
{
	struct bytes b = { 0 };
	struct names l;

	(void)state;
	v4_header(&b, 3, 2);
	assert_int_equal(read_names(&b, NULL, &l), 1);
	assert_int_equal(l.n, 3);
	assert_string_equal(l.v[0], "/abs/comp/a.c");
	assert_string_equal(l.v[2], "/usr/include/c.h");
}

/*
 * A line number program after a DWARF 4 header (opcode_base 13,
 * line_base -5, line_range 14, min_inst_length 1): two sequences, the
 * second at lower addresses, every kind of opcode GCC writes.
 */
static void program(struct bytes *b, bool cut)
{
	size_t hlen_at;
	unsigned i;

	b->n = 4;
	put(b, 4, 2);
	hlen_at = b->n;
	put(b, 0, 4);		/* header_length, patched below */
	put(b, 1, 1);		/* min_inst_length */
	put(b, 1, 1);		/* max_ops_per_inst */
	put(b, 1, 1);		/* default_is_stmt */
	put(b, (uint8_t)-5, 1);	/* line_base */
	put(b, 14, 1);
	put(b, 13, 1);
	for (i = 1; i < 13; i++)	/* standard_opcode_lengths */
		put(b, i == DW_LNS_advance_pc || i == DW_LNS_advance_line ||
		       i == DW_LNS_set_file || i == DW_LNS_set_column || i == DW_LNS_set_isa, 1);
	put_str(b, "");
	put_str(b, "a.c");
	put(b, 0, 3);
	put_str(b, "");
	set_len(b, hlen_at, b->n - hlen_at - 4);
	put(b, 0, 1);		/* DW_LNE_set_address 0x1000 */
	put_uleb(b, 9);
	put(b, DW_LNE_set_address, 1);
	put(b, 0x1000, 8);
	put(b, 13 + (8 - -5) + 14 * 0, 1);	/* special: line 9, addr +0 */
	put(b, DW_LNS_advance_line, 1);
	put_sleb(b, -3);
	put(b, DW_LNS_advance_pc, 1);
	put_uleb(b, 4);
	put(b, DW_LNS_copy, 1);			/* line 6 at 0x1004 */
	put(b, DW_LNS_set_column, 1);
	put_uleb(b, 7);
	put(b, DW_LNS_const_add_pc, 1);		/* (255 - 13) / 14 = 17 */
	put(b, DW_LNS_fixed_advance_pc, 1);
	put(b, 3, 2);
	put(b, DW_LNS_set_file, 1);
	put_uleb(b, 2);
	put(b, 13 + (1 - -5) + 14 * 2, 1);	/* special: line 7 at 0x101a */
	put(b, 0, 1);				/* a discriminator: nothing */
	put_uleb(b, 2);
	put(b, DW_LNE_set_discriminator, 1);
	put(b, 1, 1);
	put(b, DW_LNS_advance_pc, 1);
	put_uleb(b, 8);
	put(b, 0, 1);				/* DW_LNE_end_sequence */
	put_uleb(b, 1);
	put(b, DW_LNE_end_sequence, 1);
	put(b, 0, 1);
	put_uleb(b, 9);
	put(b, DW_LNE_set_address, 1);
	put(b, 0x800, 8);
	put(b, DW_LNS_copy, 1);			/* line 1 at 0x800, file 1 again */
	if (!cut) {
		put(b, 0, 1);
		put_uleb(b, 1);
		put(b, DW_LNE_end_sequence, 1);
	} else {
		put(b, DW_LNS_advance_pc, 1);
		put(b, 0x80, 1);		/* a LEB128 the table's end cuts */
	}
	close_unit(b);
}

static void check_rows(bool msb)
{
	static const struct dw_line_row want[] = {
		{ 0x800, 1, 1 }, { 0x800, 0, 1 }, { 0x1000, 9, 1 }, { 0x1004, 6, 1 },
		{ 0x101a, 7, 2 }, { 0x1022, 0, 2 },
	};
	struct bytes b = { .msb = msb };
	struct dw_secs s = { .msb = msb };
	struct dw_lines l = { 0 };
	size_t i;

	program(&b, false);
	s.line.data = b.v;
	s.line.size = b.n;
	assert_int_equal(dw_line_rows(&s, 0, &l), 0);
	assert_int_equal(l.n, sizeof(want) / sizeof(want[0]));
	for (i = 0; i < l.n; i++) {
		assert_int_equal(l.v[i].addr, want[i].addr);
		assert_int_equal(l.v[i].line, want[i].line);
		assert_int_equal(l.v[i].file, want[i].file);
	}
	/* a program cut short gives no rows */
	program(&b, true);
	s.line.size = b.n;
	assert_int_equal(dw_line_rows(&s, 0, &l), -1);
	assert_int_equal(l.n, 0);
	dw_lines_release(&l);
}

static void test_program(void **state)
{
	struct dw_secs s = { 0 };
	struct dw_lines l = { 0 };
	struct bytes b = { 0 }, strs = { 0 };

	(void)state;
	check_rows(false);
	check_rows(true);
	/* DWARF 5: a row before any DW_LNS_set_file is file 0's */
	v5_header(&b, &strs, 0);
	set_len(&b, 8, b.n - 12);	/* header_length: the program follows */
	put(&b, DW_LNS_copy, 1);
	put(&b, 0, 1);
	put_uleb(&b, 1);
	put(&b, DW_LNE_end_sequence, 1);
	close_unit(&b);
	s.line.data = b.v;
	s.line.size = b.n;
	assert_int_equal(dw_line_rows(&s, 0, &l), 0);
	assert_int_equal(l.n, 2);
	assert_int_equal(l.v[0].file, 0);
	assert_int_equal(l.v[0].line, 1);
	dw_lines_release(&l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_v5),
		cmocka_unit_test(test_v5_bad),
		cmocka_unit_test(test_msb),
		cmocka_unit_test(test_v4),
		cmocka_unit_test(test_v3),
		cmocka_unit_test(test_program),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
