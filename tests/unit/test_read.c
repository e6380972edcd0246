/* Unit tests of dwarf/read.c: fixed-size numbers in either byte order,
 * LEB128 at its limits, and a stretch of bytes that goes bad once a
 * field does not fit. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "dwarf/internal.h"
#include "tests/unit/bytes.h"

static void test_fixed(void **state)
{
	static const unsigned char p[] = { 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08 };
	unsigned char out[8];

	(void)state;
	assert_int_equal(dw_read_uint(p, 1, false), 0x01);
	assert_int_equal(dw_read_uint(p, 2, false), 0x0201);
	assert_int_equal(dw_read_uint(p, 3, false), 0x030201);
	assert_int_equal(dw_read_uint(p, 4, false), 0x04030201);
	assert_int_equal(dw_read_uint(p, 8, false), 0x0807060504030201);
	assert_int_equal(dw_read_uint(p, 2, true), 0x0102);
	assert_int_equal(dw_read_uint(p, 3, true), 0x010203);
	assert_int_equal(dw_read_uint(p, 4, true), 0x01020304);
	assert_int_equal(dw_read_uint(p, 8, true), 0x0102030405060708);
	dw_write_uint(out, 4, 0x0a0b0c0d, true);
	assert_int_equal(dw_read_uint(out, 4, true), 0x0a0b0c0d);
	assert_int_equal(out[0], 0x0a);
	dw_write_uint(out, 8, 0x1122334455667788, false);
	assert_int_equal(out[0], 0x88);
	assert_int_equal(dw_read_uint(out, 8, false), 0x1122334455667788);
}

static void test_leb(void **state)
{
	struct bytes b = { 0 };
	const unsigned char *p, *end;
	uint64_t u;
	int64_t s;

	(void)state;
	put_uleb(&b, 624485);
	put_sleb(&b, -123456);
	put_uleb(&b, UINT64_MAX);
	put_sleb(&b, INT64_MIN);
	p = b.v;
	end = b.v + b.n;
	assert_true(dw_read_uleb(&p, end, &u));
	assert_int_equal(u, 624485);
	assert_true(dw_read_sleb(&p, end, &s));
	assert_int_equal(s, -123456);
	assert_true(dw_read_uleb(&p, end, &u));
	assert_int_equal(u, UINT64_MAX);
	assert_true(dw_read_sleb(&p, end, &s));
	assert_int_equal(s, INT64_MIN);
	assert_ptr_equal(p, end);
	/* cut: the last byte still says more follows */
	b.n = 0;
	put_uleb(&b, 300);
	p = b.v;
	assert_false(dw_read_uleb(&p, b.v + 1, &u));
	/* longer than 64 bits */
	memset(b.v, 0x80, 11);
	b.v[11] = 0;
	p = b.v;
	assert_false(dw_read_uleb(&p, b.v + 12, &u));
	p = b.v;
	assert_false(dw_read_sleb(&p, b.v + 12, &s));
}

static void test_stretch(void **state)
{
	struct bytes b = { .msb = true };
	struct dw_bytes r;

	(void)state;
	put(&b, 0xfffe, 2);
	put_str(&b, "ab");
	put_uleb(&b, 5);
	put(&b, 0x80, 1);
	dw_bytes_init(&r, b.v, b.n, true);
	assert_int_equal(dw_bytes_sint(&r, 2), -2);
	assert_string_equal(dw_bytes_string(&r), "ab");
	assert_int_equal(dw_bytes_uleb(&r), 5);
	assert_int_equal(dw_bytes_left(&r), 1);
	/* a field that does not fit: 0, and nothing after it reads */
	assert_int_equal(dw_bytes_uint(&r, 2), 0);
	assert_true(r.bad);
	assert_int_equal(dw_bytes_uint(&r, 1), 0);
	assert_null(dw_bytes_skip(&r, 0));
	assert_int_equal(dw_bytes_left(&r), 0);
	/* a string without its NUL */
	dw_bytes_init(&r, (const unsigned char *)"abc", 3, false);
	assert_null(dw_bytes_string(&r));
	assert_true(r.bad);
	/* an unfinished LEB128 */
	dw_bytes_init(&r, b.v + b.n - 1, 1, false);
	assert_int_equal(dw_bytes_uleb(&r), 0);
	assert_true(r.bad);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fixed),
		cmocka_unit_test(test_leb),
		cmocka_unit_test(test_stretch),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
