/* Unit tests of dwarf/lists.c: location lists of DWARF 4 (.debug_loc)
 * and DWARF 5 (.debug_loclists, by offset and by index), range lists
 * without a base address, either byte order, and cut or unknown
 * entries. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "dwarf/internal.h"
#include "tests/unit/bytes.h"

struct got {
	struct dw_span v[8];
	int n;
};

static void keep(void *ctx, const struct dw_span *s)
{
	struct got *g = ctx;

	g->v[g->n++] = *s;
}

static void sec(struct dw_section *s, const struct bytes *b)
{
	s->data = b->v;
	s->size = b->n;
}

static void unit(struct dw_unit *u, struct dw_secs *s, uint16_t version, bool msb)
{
	memset(u, 0, sizeof(*u));
	s->msb = msb;
	u->secs = s;
	u->version = version;
	u->addr_size = 8;
	u->off_size = 4;
	u->base = 0x1000;
	u->has_base = true;
}

/* DWARF 4: pairs from the unit's base until a base address selection. */
static void check_loc4(bool msb)
{
	struct bytes loc = { .msb = msb };
	struct dw_secs s = { 0 };
	struct dw_unit u;
	struct dw_val v = { .form = DW_FORM_sec_offset, .u = 8 };
	struct got g = { 0 };

	put(&loc, 0xdead, 8);		/* another list's bytes before it */
	put(&loc, 0x10, 8);
	put(&loc, 0x20, 8);
	put(&loc, 1, 2);
	put(&loc, DW_OP_reg5, 1);
	put(&loc, UINT64_MAX, 8);	/* base address selection */
	put(&loc, 0x9000, 8);
	put(&loc, 0x4, 8);
	put(&loc, 0x8, 8);
	put(&loc, 2, 2);
	put(&loc, DW_OP_fbreg, 1);
	put(&loc, 0x70, 1);
	put(&loc, 0, 16);
	unit(&u, &s, 4, msb);
	sec(&s.loc, &loc);
	assert_int_equal(dw_val_locations(&u, &v, keep, &g), 0);
	assert_int_equal(g.n, 2);
	assert_true(g.v[0].known);
	assert_int_equal(g.v[0].lo, 0x1010);
	assert_int_equal(g.v[0].hi, 0x1020);
	assert_int_equal(g.v[0].len, 1);
	assert_int_equal(g.v[0].expr[0], DW_OP_reg5);
	assert_int_equal(g.v[1].lo, 0x9004);
	assert_int_equal(g.v[1].hi, 0x9008);
	assert_int_equal(g.v[1].expr[0], DW_OP_fbreg);
	/* cut before its end entry: what was read, and -1 */
	loc.n -= 9;
	sec(&s.loc, &loc);
	g.n = 0;
	assert_int_equal(dw_val_locations(&u, &v, keep, &g), -1);
	assert_int_equal(g.n, 2);
	/* an offset past the section, a constant form in DWARF 4 */
	v.u = loc.n;
	assert_int_equal(dw_val_locations(&u, &v, keep, &g), -1);
	v.form = DW_FORM_data4;
	v.u = 8;
	assert_int_equal(dw_val_locations(&u, &v, keep, &g), -1);
}

static void test_loc4(void **state)
{
	(void)state;
	check_loc4(false);
}

static void test_loc4_msb(void **state)
{
	(void)state;
	check_loc4(true);
}

/* DWARF 5 as GCC and Clang write it, through a loclistx index. */
static void test_loclists5(void **state)
{
	struct bytes ll = { 0 }, addr = { 0 };
	struct dw_secs s = { 0 };
	struct dw_unit u;
	struct dw_val v = { .form = DW_FORM_loclistx, .u = 0 };
	struct got g = { 0 };

	(void)state;
	put(&addr, 0, 8);		/* header */
	put(&addr, 0x4000, 8);		/* index 0 */
	put(&ll, 0, 4);			/* header: length, version, sizes, count */
	put(&ll, 5, 2);
	put(&ll, 8, 1);
	put(&ll, 0, 1);
	put(&ll, 1, 4);
	put(&ll, 4, 4);			/* list 0, from the base (12) */
	put(&ll, DW_LLE_offset_pair, 1);
	put_uleb(&ll, 0x10);
	put_uleb(&ll, 0x18);
	put_uleb(&ll, 1);
	put(&ll, DW_OP_reg3, 1);
	put(&ll, DW_LLE_base_address, 1);
	put(&ll, 0x8000, 8);
	put(&ll, DW_LLE_offset_pair, 1);
	put_uleb(&ll, 0x2);
	put_uleb(&ll, 0x6);
	put_uleb(&ll, 1);
	put(&ll, DW_OP_reg4, 1);
	put(&ll, DW_LLE_startx_length, 1);
	put_uleb(&ll, 0);
	put_uleb(&ll, 0x20);
	put_uleb(&ll, 1);
	put(&ll, DW_OP_reg6, 1);
	put(&ll, DW_LLE_startx_length, 1);	/* an index past .debug_addr */
	put_uleb(&ll, 9);
	put_uleb(&ll, 0x20);
	put_uleb(&ll, 1);
	put(&ll, DW_OP_reg7, 1);
	put(&ll, DW_LLE_start_end, 1);
	put(&ll, 0x5000, 8);
	put(&ll, 0x5004, 8);
	put_uleb(&ll, 1);
	put(&ll, DW_OP_reg0, 1);
	put(&ll, DW_LLE_end_of_list, 1);
	set_len(&ll, 0, ll.n - 4);
	unit(&u, &s, 5, false);
	u.addr_base = 8;
	u.loclists_base = 12;
	sec(&s.loclists, &ll);
	sec(&s.addr, &addr);
	assert_int_equal(dw_val_locations(&u, &v, keep, &g), 0);
	assert_int_equal(g.n, 5);
	assert_int_equal(g.v[0].lo, 0x1010);
	assert_int_equal(g.v[0].hi, 0x1018);
	assert_int_equal(g.v[1].lo, 0x8002);
	assert_int_equal(g.v[1].hi, 0x8006);
	assert_int_equal(g.v[2].lo, 0x4000);
	assert_int_equal(g.v[2].hi, 0x4020);
	assert_true(g.v[2].known);
	assert_false(g.v[3].known);
	assert_int_equal(g.v[4].lo, 0x5000);
	assert_int_equal(g.v[4].expr[0], DW_OP_reg0);

	/* by its offset, in a unit without a base address: the first pair
	 * has no addresses, the one after the base address has */
	v.form = DW_FORM_sec_offset;
	v.u = 16;
	u.has_base = false;
	g.n = 0;
	assert_int_equal(dw_val_locations(&u, &v, keep, &g), 0);
	assert_false(g.v[0].known);
	assert_true(g.v[1].known);

	/* GCC's DW_LLE_view_pair, of no DWARF version: unreadable */
	ll.v[16] = 0x09;
	g.n = 0;
	assert_int_equal(dw_val_locations(&u, &v, keep, &g), -1);
	assert_int_equal(g.n, 0);
}

/* An expression of its own is one entry over every address. */
static void test_expression(void **state)
{
	static const unsigned char expr[] = { DW_OP_breg5, 0, DW_OP_stack_value };
	struct dw_secs s = { 0 };
	struct dw_unit u;
	struct dw_val v = { .form = DW_FORM_exprloc, .block = expr, .len = sizeof(expr) };
	struct got g = { 0 };

	(void)state;
	unit(&u, &s, 5, false);
	assert_int_equal(dw_val_locations(&u, &v, keep, &g), 0);
	assert_int_equal(g.n, 1);
	assert_int_equal(g.v[0].lo, 0);
	assert_int_equal(g.v[0].hi, UINT64_MAX);
	assert_int_equal(g.v[0].len, 3);
}

struct ranges {
	uint64_t lo[4], hi[4];
	int n;
};

static void add_range(void *ctx, uint64_t lo, uint64_t hi)
{
	struct ranges *r = ctx;

	r->lo[r->n] = lo;
	r->hi[r->n++] = hi;
}

/* DWARF 5 ranges in a big-endian object; an offset pair before any
 * base address in a unit without one has no addresses. */
static void test_rnglists_msb(void **state)
{
	struct bytes rl = { .msb = true };
	struct dw_secs s = { 0 };
	struct dw_unit u;
	struct dw_val v = { .form = DW_FORM_sec_offset, .u = 0 };
	struct ranges r = { 0 };

	(void)state;
	put(&rl, DW_RLE_offset_pair, 1);
	put_uleb(&rl, 1);
	put_uleb(&rl, 2);
	put(&rl, DW_RLE_base_address, 1);
	put(&rl, 0x20000, 8);
	put(&rl, DW_RLE_offset_pair, 1);
	put_uleb(&rl, 0x10);
	put_uleb(&rl, 0x30);
	put(&rl, DW_RLE_start_length, 1);
	put(&rl, 0x30000, 8);
	put_uleb(&rl, 0x40);
	put(&rl, DW_RLE_end_of_list, 1);
	unit(&u, &s, 5, true);
	u.has_base = false;
	u.base = 0;
	sec(&s.rnglists, &rl);
	assert_int_equal(dw_val_ranges(&u, &v, add_range, &r), 0);
	assert_int_equal(r.n, 2);
	assert_int_equal(r.lo[0], 0x20010);
	assert_int_equal(r.hi[0], 0x20030);
	assert_int_equal(r.lo[1], 0x30000);
	assert_int_equal(r.hi[1], 0x30040);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_loc4),
		cmocka_unit_test(test_loc4_msb),
		cmocka_unit_test(test_loclists5),
		cmocka_unit_test(test_expression),
		cmocka_unit_test(test_rnglists_msb),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
