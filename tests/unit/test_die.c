/* Unit tests of dwarf/die.c: units, DIEs and values read from hand-made
 * .debug_info and .debug_abbrev bytes, DWARF 4 and 5 (the indexed forms
 * Clang writes), range lists, and what corrupt bytes give. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "dwarf/internal.h"
#include "tests/unit/bytes.h"


static void sec(struct dw_section *s, const struct bytes *b)
{
	s->data = b->v;
	s->size = b->n;
}

/*
 * DWARF 4: a CU with a structure (children, no DW_AT_sibling: stepped
 * over), a subprogram with a DW_AT_sibling and a call site, and a
 * variable.  Offsets of the DIEs in *off: struct, member, sub, site, var.
 */
static struct bytes info4, abbrev4, str4;

static void build_v4(uint64_t off[5], uint32_t sibling)
{
	memset(&info4, 0, sizeof(info4));
	memset(&abbrev4, 0, sizeof(abbrev4));
	memset(&str4, 0, sizeof(str4));
	put_str(&str4, "");
	put_str(&str4, "work");
	abbrev(&abbrev4, 1, DW_TAG_compile_unit, true, DW_AT_name, DW_FORM_string,
	       DW_AT_low_pc, DW_FORM_addr, 0);
	abbrev(&abbrev4, 2, DW_TAG_structure_type, true, DW_AT_byte_size, DW_FORM_data1, 0);
	abbrev(&abbrev4, 3, DW_TAG_member, false, DW_AT_name, DW_FORM_string, 0);
	abbrev(&abbrev4, 4, DW_TAG_subprogram, true, DW_AT_sibling, DW_FORM_ref4,
	       DW_AT_name, DW_FORM_strp, DW_AT_low_pc, DW_FORM_addr, DW_AT_high_pc,
	       DW_FORM_data4, DW_AT_decl_file, DW_FORM_implicit_const, 0);
	/* implicit_const's value follows its form: patch it in */
	abbrev4.n -= 2;
	put(&abbrev4, 3, 1);
	put(&abbrev4, 0, 2);
	abbrev(&abbrev4, 5, DW_TAG_call_site, false, DW_AT_call_return_pc, DW_FORM_addr,
	       DW_AT_call_origin, DW_FORM_ref4, DW_AT_call_tail_call, DW_FORM_flag_present, 0);
	abbrev(&abbrev4, 6, DW_TAG_variable, false, DW_AT_location, DW_FORM_exprloc, 0);
	put(&abbrev4, 0, 1);

	info4.n = 4;
	put(&info4, 4, 2);
	put(&info4, 0, 4);	/* abbrev offset */
	put(&info4, 8, 1);
	put(&info4, 1, 1);	/* the CU */
	put_str(&info4, "a.c");
	put(&info4, 0x1000, 8);
	off[0] = info4.n;
	put(&info4, 2, 1);
	put(&info4, 16, 1);
	off[1] = info4.n;
	put(&info4, 3, 1);
	put_str(&info4, "m");
	put(&info4, 0, 1);	/* the structure's children end */
	off[2] = info4.n;
	put(&info4, 4, 1);
	put(&info4, sibling, 4);	/* patched below when 0 */
	put(&info4, 1, 4);	/* "work" in .debug_str */
	put(&info4, 0x1010, 8);
	put(&info4, 0x20, 4);
	off[3] = info4.n;
	put(&info4, 5, 1);
	put(&info4, 0x1015, 8);
	put(&info4, (uint32_t)off[2], 4);
	put(&info4, 0, 1);	/* the subprogram's children end */
	off[4] = info4.n;
	if (!sibling)
		set_len(&info4, off[2] + 1, off[4]);
	put(&info4, 6, 1);
	put(&info4, 9, 1);
	put(&info4, DW_OP_addr, 1);
	put(&info4, 0x2000, 8);
	put(&info4, 0, 1);	/* the CU's children end */
	set_len(&info4, 0, info4.n - 4);
}

static struct dw_secs secs4(void)
{
	struct dw_secs s = { 0 };

	sec(&s.info, &info4);
	sec(&s.abbrev, &abbrev4);
	sec(&s.str, &str4);
	return s;
}

typedef int unit_opener(const struct dw_secs *s, uint64_t off, struct dw_unit *u);

/* The v4 unit read through a unit that open opened: eager, or lazy
 * (dw_unit_open_lookup), where each abbreviation is read at its first
 * DIE; lazy also when the subprogram's DIE is read before the CU's. */
static void check_v4_unit(unit_opener *open, bool sub_first)
{
	struct dw_secs s;
	struct dw_unit u;
	struct dw_die d;
	struct dw_attr_iter it;
	struct dw_val v;
	uint64_t off[5], next, n;

	build_v4(off, 0);
	s = secs4();
	assert_int_equal(open(&s, 0, &u), 0);
	if (sub_first) {
		assert_int_equal(dw_die_read(&u, off[2], &d), 0);
		assert_true(dw_die_attr(&u, &d, DW_AT_high_pc, &v));
		assert_true(dw_val_udata(&v, &n));
		assert_int_equal(n, 0x20);
	}
	assert_int_equal(u.version, 4);
	assert_int_equal(u.addr_size, 8);
	assert_int_equal(u.end, info4.n);
	assert_int_equal(dw_die_read(&u, u.first_die, &d), 0);
	assert_int_equal(d.ab->tag, DW_TAG_compile_unit);
	dw_attrs_begin(&it, &u, &d);
	assert_int_equal(dw_attrs_next(&it, &v), 1);
	assert_string_equal(dw_val_string(&u, &v), "a.c");
	assert_int_equal(dw_attrs_next(&it, &v), 1);
	assert_true(dw_val_addr(&u, &v, &n));
	assert_int_equal(n, 0x1000);
	assert_int_equal(dw_attrs_next(&it, &v), 0);
	assert_int_equal(dw_attrs_end(&it), off[0]);

	/* the structure has no DW_AT_sibling: its member is stepped over */
	assert_int_equal(dw_die_read(&u, off[0], &d), 0);
	assert_int_equal(dw_die_next(&u, &d, 0, &next, 0), 0);
	assert_int_equal(next, off[2]);

	/* the subprogram's values, and its DW_AT_sibling past the site */
	assert_int_equal(dw_die_read(&u, off[2], &d), 0);
	assert_int_equal(d.ab->tag, DW_TAG_subprogram);
	dw_attrs_begin(&it, &u, &d);
	assert_int_equal(dw_attrs_next(&it, &v), 1);
	assert_int_equal(dw_val_ref(&u, &v), off[4]);
	assert_int_equal(dw_attrs_next(&it, &v), 1);
	assert_string_equal(dw_val_string(&u, &v), "work");
	assert_int_equal(dw_attrs_next(&it, &v), 1);
	assert_int_equal(dw_attrs_next(&it, &v), 1);
	assert_true(dw_val_udata(&v, &n));
	assert_int_equal(n, 0x20);
	assert_int_equal(dw_attrs_next(&it, &v), 1);
	assert_true(dw_val_udata(&v, &n));
	assert_int_equal(n, 3);		/* the abbreviation's implicit constant */
	assert_int_equal(dw_attrs_next(&it, &v), 0);
	assert_int_equal(dw_attrs_end(&it), off[3]);
	assert_int_equal(dw_die_next(&u, &d, 0, &next, 0), 0);
	assert_int_equal(next, off[4]);

	/* the call site: a reference relative to the unit, a present flag */
	assert_int_equal(dw_die_read(&u, off[3], &d), 0);
	dw_attrs_begin(&it, &u, &d);
	assert_int_equal(dw_attrs_next(&it, &v), 1);
	assert_int_equal(dw_attrs_next(&it, &v), 1);
	assert_int_equal(dw_val_ref(&u, &v), off[2]);
	assert_int_equal(dw_attrs_next(&it, &v), 1);
	assert_true(dw_val_flag(&v));

	/* past the last DIE: the CU's null entry, then the unit's end */
	assert_int_equal(dw_die_read(&u, off[4], &d), 0);
	assert_int_equal(dw_die_next(&u, &d, 0, &next, 0), 0);
	assert_int_equal(dw_die_read(&u, next, &d), 0);
	assert_null(d.ab);
	assert_int_equal(dw_die_read(&u, u.end, &d), -1);
	dw_unit_close(&u);
	assert_int_equal(open(&s, info4.n, &u), 1);
}

static void test_v4_unit(void **state)
{
	(void)state;
	check_v4_unit(dw_unit_open, false);
}

static void test_v4_unit_lookup(void **state)
{
	(void)state;
	check_v4_unit(dw_unit_open_lookup, false);
	check_v4_unit(dw_unit_open_lookup, true);
}

/* The slot shared by the readers of an image (one per unit). */
static dw_abbrevs_slot shared_slot;

static int open_shared(const struct dw_secs *s, uint64_t off, struct dw_unit *u)
{
	return dw_unit_open_shared(s, off, &shared_slot, u);
}

/* A unit opened through a shared slot reads as one of its own, the
 * first opening parses its table into the slot, a later one (another
 * reader's) borrows it, and closing either leaves it to the slot. */
static void test_v4_unit_shared(void **state)
{
	struct dw_abbrevs *t;
	struct dw_secs s;
	struct dw_unit u;
	size_t i;

	(void)state;
	shared_slot = NULL;
	check_v4_unit(open_shared, false);
	t = shared_slot;
	assert_non_null(t);
	check_v4_unit(open_shared, true);
	assert_ptr_equal(shared_slot, t);
	s = secs4();
	assert_int_equal(open_shared(&s, 0, &u), 0);
	assert_ptr_equal(u.ab.specs, t->specs);
	assert_true(u.ab_shared);
	dw_unit_close(&u);
	/* parsed whole, each one's specs read (no other thread writes
	 * them), its arrays cut to the six abbreviations */
	assert_int_equal(t->n, 6);
	assert_int_equal(t->cap, 6);
	for (i = 0; i < t->n; i++)
		assert_true(t->list[i].read);
	assert_false(t->lazy);
	dw_abbrevs_free(shared_slot);
	shared_slot = NULL;
}

/* A lazy table is checked whole when its unit is opened, as an eager
 * one: an attribute past 16 bits in an abbreviation no DIE uses. */
static void test_lookup_checks(void **state)
{
	struct dw_secs s;
	struct dw_unit u;
	uint64_t off[5];

	(void)state;
	build_v4(off, 0);
	/* the variable's abbreviation, last: DW_AT_location as 0x10000 */
	abbrev4.n -= 5;
	put_uleb(&abbrev4, 0x10000);
	put_uleb(&abbrev4, DW_FORM_exprloc);
	put(&abbrev4, 0, 2);
	put(&abbrev4, 0, 1);
	s = secs4();
	assert_int_equal(dw_unit_open(&s, 0, &u), -1);
	dw_unit_close(&u);
	assert_int_equal(dw_unit_open_lookup(&s, 0, &u), -1);
	dw_unit_close(&u);
}

/* A DW_AT_sibling at its own DIE, before it or past the unit is -2. */
static void test_bad_siblings(void **state)
{
	struct dw_secs s;
	struct dw_unit u;
	struct dw_die d;
	uint64_t off[5], next;

	(void)state;
	build_v4(off, 0);
	s = secs4();
	set_len(&info4, off[2] + 1, off[2]);
	assert_int_equal(dw_unit_open(&s, 0, &u), 0);
	assert_int_equal(dw_die_read(&u, off[2], &d), 0);
	assert_int_equal(dw_die_next(&u, &d, 0, &next, 0), -2);
	/* also when the caller walked the children: the attribute is wrong */
	assert_int_equal(dw_die_next(&u, &d, off[4], &next, 0), -2);
	set_len(&info4, off[2] + 1, off[0]);
	assert_int_equal(dw_die_next(&u, &d, 0, &next, 0), -2);
	set_len(&info4, off[2] + 1, info4.n + 40);
	assert_int_equal(dw_die_next(&u, &d, 0, &next, 0), -2);
	dw_unit_close(&u);
}

/* Cut and unknown bytes: the unit, an abbreviation code, a form. */
static void test_corrupt(void **state)
{
	struct dw_secs s;
	struct dw_unit u;
	struct dw_die d;
	struct dw_attr_iter it;
	struct dw_val v;
	uint64_t off[5];

	(void)state;
	build_v4(off, 0);
	s = secs4();
	s.info.size = info4.n - 1;	/* the unit's length runs past */
	assert_int_equal(dw_unit_open(&s, 0, &u), -1);
	dw_unit_close(&u);
	s = secs4();
	assert_int_equal(dw_unit_open(&s, 0, &u), 0);
	info4.v[off[0]] = 99;		/* no such abbreviation */
	assert_int_equal(dw_die_read(&u, off[0], &d), -1);
	info4.v[off[0]] = 2;
	/* a DIE whose attribute runs past the unit's end */
	assert_int_equal(dw_die_read(&u, off[4], &d), 0);
	info4.v[off[4] + 1] = 200;	/* exprloc length */
	dw_attrs_begin(&it, &u, &d);
	assert_int_equal(dw_attrs_next(&it, &v), -1);
	dw_unit_close(&u);
	/* a form of no DWARF version in the abbreviations */
	build_v4(off, 0);
	s = secs4();
	abbrev4.v[abbrev4.n - 4] = 0x7e;	/* the variable's DW_FORM_exprloc */
	assert_int_equal(dw_unit_open(&s, 0, &u), 0);
	assert_int_equal(dw_die_read(&u, off[4], &d), 0);
	dw_attrs_begin(&it, &u, &d);
	assert_int_equal(dw_attrs_next(&it, &v), -1);
	dw_unit_close(&u);
	/* a version this reader does not know */
	build_v4(off, 0);
	s = secs4();
	info4.v[4] = 6;
	assert_int_equal(dw_unit_open(&s, 0, &u), -1);
	dw_unit_close(&u);
}

/* Abbreviation codes past the dense table are found by a search. */
static void test_big_codes(void **state)
{
	struct bytes info = { 0 }, ab = { 0 };
	struct dw_secs s = { 0 };
	struct dw_unit u;
	struct dw_die d;
	uint64_t die;

	(void)state;
	abbrev(&ab, 1, DW_TAG_compile_unit, true, 0);
	abbrev(&ab, 100000, DW_TAG_subprogram, false, 0);
	abbrev(&ab, 70000, DW_TAG_variable, false, 0);
	abbrev(&ab, 100000, DW_TAG_member, false, 0);	/* the first one wins */
	put(&ab, 0, 1);
	info.n = 4;
	put(&info, 4, 2);
	put(&info, 0, 4);
	put(&info, 8, 1);
	put(&info, 1, 1);
	die = info.n;
	put_uleb(&info, 70000);
	put_uleb(&info, 100000);
	put_uleb(&info, 90000);
	put(&info, 0, 1);
	set_len(&info, 0, info.n - 4);
	sec(&s.info, &info);
	sec(&s.abbrev, &ab);
	assert_int_equal(dw_unit_open(&s, 0, &u), 0);
	assert_int_equal(dw_die_read(&u, die, &d), 0);
	assert_int_equal(d.ab->tag, DW_TAG_variable);
	assert_int_equal(dw_die_read(&u, d.attrs, &d), 0);
	assert_int_equal(d.ab->tag, DW_TAG_subprogram);
	assert_int_equal(dw_die_read(&u, d.attrs, &d), -1);
	dw_unit_close(&u);
}

/* Past a DIE by decoding each of its values, the way taken when some
 * value's size varies. */
static uint64_t decoded_end(const struct dw_unit *u, uint64_t off)
{
	struct dw_attr_iter it;
	struct dw_die d;
	struct dw_val v;

	assert_int_equal(dw_die_read(u, off, &d), 0);
	dw_attrs_begin(&it, u, &d);
	while (dw_attrs_next(&it, &v) > 0)
		;
	return dw_attrs_end(&it);
}

/*
 * A DIE whose values all have fixed sizes is stepped over whole, and its
 * DW_AT_sibling read where it is (GCC writes it last): the same offsets
 * as decoding each value gives, and -1 when those bytes run past the
 * unit.  A block with a name (a string) before its DW_AT_sibling, and a
 * variable, are decoded.
 */
static void test_fixed_sizes(void **state)
{
	struct bytes info = { 0 }, ab = { 0 };
	struct dw_secs s = { 0 };
	struct dw_unit u;
	struct dw_die d;
	uint64_t block, site, named, var, x, next, end;
	size_t sib_a, sib_b;

	(void)state;
	abbrev(&ab, 1, DW_TAG_compile_unit, true, 0);
	abbrev(&ab, 2, DW_TAG_lexical_block, true, DW_AT_low_pc, DW_FORM_addr,
	       DW_AT_high_pc, DW_FORM_data4, DW_AT_sibling, DW_FORM_ref4, 0);
	abbrev(&ab, 3, DW_TAG_variable, false, DW_AT_name, DW_FORM_string,
	       DW_AT_type, DW_FORM_ref4, 0);
	abbrev(&ab, 4, DW_TAG_call_site, false, DW_AT_call_return_pc, DW_FORM_addr,
	       DW_AT_call_origin, DW_FORM_ref4, DW_AT_call_tail_call, DW_FORM_flag_present, 0);
	abbrev(&ab, 5, DW_TAG_lexical_block, true, DW_AT_name, DW_FORM_string,
	       DW_AT_sibling, DW_FORM_ref4, 0);
	put(&ab, 0, 1);
	info.n = 4;
	put(&info, 4, 2);
	put(&info, 0, 4);
	put(&info, 8, 1);
	put(&info, 1, 1);	/* the CU */
	block = info.n;
	put(&info, 2, 1);
	put(&info, 0x1000, 8);
	put(&info, 0x40, 4);
	sib_a = info.n;
	put(&info, 0, 4);	/* patched below */
	site = info.n;
	put(&info, 4, 1);
	put(&info, 0x1010, 8);
	put(&info, (uint32_t)block, 4);
	end = info.n;
	put(&info, 0, 1);	/* the block's children end */
	named = info.n;
	set_len(&info, sib_a, named);
	put(&info, 5, 1);
	put_str(&info, "b");
	sib_b = info.n;
	put(&info, 0, 4);
	var = info.n;
	put(&info, 3, 1);
	put_str(&info, "v");
	put(&info, (uint32_t)block, 4);
	put(&info, 0, 1);	/* the named block's children end */
	x = info.n;
	set_len(&info, sib_b, x);
	put(&info, 3, 1);
	put_str(&info, "x");
	put(&info, (uint32_t)var, 4);
	put(&info, 0, 1);	/* the CU's children end */
	set_len(&info, 0, info.n - 4);
	sec(&s.info, &info);
	sec(&s.abbrev, &ab);
	assert_int_equal(dw_unit_open(&s, 0, &u), 0);

	/* what each abbreviation's values take, when fixed */
	assert_int_equal(dw_die_read(&u, block, &d), 0);
	assert_int_equal(d.ab->size, 16);
	assert_int_equal(dw_die_attrs_end(&u, &d, &next), 0);
	assert_int_equal(next, site);
	assert_int_equal(next, decoded_end(&u, block));
	assert_int_equal(dw_die_next(&u, &d, 0, &next, 0), 0);
	assert_int_equal(next, named);
	assert_int_equal(dw_die_read(&u, site, &d), 0);
	assert_int_equal(d.ab->size, 12);
	assert_int_equal(dw_die_attrs_end(&u, &d, &next), 0);
	assert_int_equal(next, end);
	assert_int_equal(next, decoded_end(&u, site));
	assert_int_equal(dw_die_next(&u, &d, 0, &next, 0), 0);
	assert_int_equal(next, end);

	/* a string before them: decoded */
	assert_int_equal(dw_die_read(&u, named, &d), 0);
	assert_int_equal(d.ab->size, DW_POS_VARIES);
	assert_int_equal(dw_die_next(&u, &d, 0, &next, 0), 0);
	assert_int_equal(next, x);
	assert_int_equal(dw_die_read(&u, var, &d), 0);
	assert_int_equal(d.ab->size, DW_POS_VARIES);
	assert_int_equal(dw_die_attrs_end(&u, &d, &next), 0);
	assert_int_equal(next, x - 1);
	assert_int_equal(next, decoded_end(&u, var));

	/* the fixed values cut by the unit's end */
	assert_int_equal(dw_die_read(&u, site, &d), 0);
	u.end = site + 12;
	assert_int_equal(dw_die_attrs_end(&u, &d, &next), -1);
	assert_int_equal(dw_die_read(&u, block, &d), 0);
	u.end = block + 16;	/* the DW_AT_sibling's last byte past it */
	assert_int_equal(dw_die_next(&u, &d, 0, &next, 0), -1);
	assert_int_equal(dw_die_attrs_end(&u, &d, &next), -1);
	dw_unit_close(&u);
}

struct ranges {
	uint64_t lo[8], hi[8];
	int n;
};

static void add_range(void *ctx, uint64_t lo, uint64_t hi)
{
	struct ranges *r = ctx;

	r->lo[r->n] = lo;
	r->hi[r->n++] = hi;
}

/* DWARF 5 as Clang writes it: strx1 and addrx1 through the unit's bases,
 * which its DIE names after them; DW_AT_ranges by rnglistx. */
static void test_v5_indexed(void **state)
{
	struct bytes info = { 0 }, ab = { 0 }, str = { 0 }, stroff = { 0 }, addr = { 0 },
		     rng = { 0 };
	struct dw_secs s = { 0 };
	struct ranges r = { 0 };
	struct dw_unit u;
	struct dw_die d;
	struct dw_attr_iter it;
	struct dw_val v, name, low, ranges;
	uint64_t n;

	(void)state;
	put_str(&str, "b.c");
	put_str(&str, "clang");
	put(&stroff, 8 + 4, 4);		/* header: length */
	put(&stroff, 5, 2);
	put(&stroff, 0, 2);
	put(&stroff, 4, 4);		/* index 0: "clang" */
	put(&stroff, 0, 4);		/* index 1: "b.c" */
	put(&addr, 4 + 16, 4);		/* header: length, version, sizes */
	put(&addr, 5, 2);
	put(&addr, 8, 1);
	put(&addr, 0, 1);
	put(&addr, 0x4000, 8);		/* index 0 */
	put(&addr, 0x5000, 8);		/* index 1 */
	/* .debug_rnglists: header, one offset, then the list */
	put(&rng, 0, 4);
	put(&rng, 5, 2);
	put(&rng, 8, 1);
	put(&rng, 0, 1);
	put(&rng, 1, 4);		/* offset entry count */
	put(&rng, 4, 4);		/* list 0, from the base (12) */
	put(&rng, DW_RLE_base_addressx, 1);
	put(&rng, 1, 1);
	put(&rng, DW_RLE_offset_pair, 1);
	put(&rng, 0x10, 1);
	put(&rng, 0x20, 1);
	put(&rng, DW_RLE_startx_length, 1);
	put(&rng, 0, 1);
	put(&rng, 0x8, 1);
	put(&rng, DW_RLE_end_of_list, 1);
	set_len(&rng, 0, rng.n - 4);

	abbrev(&ab, 1, DW_TAG_compile_unit, false, DW_AT_producer, DW_FORM_strx1,
	       DW_AT_name, DW_FORM_strx1, DW_AT_low_pc, DW_FORM_addrx1,
	       DW_AT_ranges, DW_FORM_rnglistx, DW_AT_str_offsets_base, DW_FORM_sec_offset,
	       DW_AT_addr_base, DW_FORM_sec_offset, DW_AT_rnglists_base, DW_FORM_sec_offset, 0);
	put(&ab, 0, 1);
	info.n = 4;
	put(&info, 5, 2);
	put(&info, DW_UT_compile, 1);
	put(&info, 8, 1);
	put(&info, 0, 4);
	put(&info, 1, 1);
	put(&info, 0, 1);		/* producer: string index 0 */
	put(&info, 1, 1);		/* name: index 1 */
	put(&info, 0, 1);		/* low_pc: address index 0 */
	put(&info, 0, 1);		/* ranges: list 0 */
	put(&info, 8, 4);
	put(&info, 8, 4);
	put(&info, 12, 4);
	set_len(&info, 0, info.n - 4);
	sec(&s.info, &info);
	sec(&s.abbrev, &ab);
	sec(&s.str, &str);
	sec(&s.str_offsets, &stroff);
	sec(&s.addr, &addr);
	sec(&s.rnglists, &rng);

	assert_int_equal(dw_unit_open(&s, 0, &u), 0);
	assert_int_equal(u.version, 5);
	assert_int_equal(dw_die_read(&u, u.first_die, &d), 0);
	dw_attrs_begin(&it, &u, &d);
	assert_int_equal(dw_attrs_next(&it, &v), 1);
	assert_int_equal(dw_attrs_next(&it, &name), 1);
	assert_int_equal(dw_attrs_next(&it, &low), 1);
	assert_int_equal(dw_attrs_next(&it, &ranges), 1);
	while (dw_attrs_next(&it, &v) > 0) {
		assert_true(dw_val_offset(&v, &n));
		if (v.at == DW_AT_str_offsets_base)
			u.str_offsets_base = n;
		else if (v.at == DW_AT_addr_base)
			u.addr_base = n;
		else
			u.rnglists_base = n;
	}
	assert_string_equal(dw_val_string(&u, &name), "b.c");
	assert_true(dw_val_addr(&u, &low, &n));
	assert_int_equal(n, 0x4000);
	assert_int_equal(dw_val_ranges(&u, &ranges, add_range, &r), 0);
	assert_int_equal(r.n, 2);
	assert_int_equal(r.lo[0], 0x5010);
	assert_int_equal(r.hi[0], 0x5020);
	assert_int_equal(r.lo[1], 0x4000);
	assert_int_equal(r.hi[1], 0x4008);
	/* an index past .debug_addr's end is no address */
	low.u = 7;
	assert_false(dw_val_addr(&u, &low, &n));
	dw_unit_close(&u);
}

/* DWARF 4's .debug_ranges: offsets from the unit's base address until
 * a base address selection entry changes it. */
static void test_v4_ranges(void **state)
{
	struct bytes rng = { 0 };
	struct dw_secs s = { 0 };
	struct dw_unit u = { 0 };
	struct dw_val v = { .form = DW_FORM_sec_offset, .u = 0 };
	struct ranges r = { 0 };

	(void)state;
	put(&rng, 0x10, 8);
	put(&rng, 0x18, 8);
	put(&rng, UINT64_MAX, 8);
	put(&rng, 0x9000, 8);
	put(&rng, 0x4, 8);
	put(&rng, 0x8, 8);
	put(&rng, 0, 16);
	sec(&s.ranges, &rng);
	u.secs = &s;
	u.version = 4;
	u.addr_size = 8;
	u.base = 0x1000;
	assert_int_equal(dw_val_ranges(&u, &v, add_range, &r), 0);
	assert_int_equal(r.n, 2);
	assert_int_equal(r.lo[0], 0x1010);
	assert_int_equal(r.hi[0], 0x1018);
	assert_int_equal(r.lo[1], 0x9004);
	assert_int_equal(r.hi[1], 0x9008);
	/* a list cut before its end entry */
	rng.n -= 16;
	sec(&s.ranges, &rng);
	r.n = 0;
	assert_int_equal(dw_val_ranges(&u, &v, add_range, &r), -1);
	assert_int_equal(r.n, 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_v4_unit),
		cmocka_unit_test(test_v4_unit_lookup),
		cmocka_unit_test(test_v4_unit_shared),
		cmocka_unit_test(test_lookup_checks),
		cmocka_unit_test(test_bad_siblings),
		cmocka_unit_test(test_corrupt),
		cmocka_unit_test(test_big_codes),
		cmocka_unit_test(test_fixed_sizes),
		cmocka_unit_test(test_v5_indexed),
		cmocka_unit_test(test_v4_ranges),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
