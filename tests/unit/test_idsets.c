/* Unit tests of indirect/idsets.c: sets of function ids filed under a
 * 64-bit key (layers.c's functions the loose objects hold, by call
 * offset), and the meet of two sorted id lists. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>

#include "indirect/run.h"

static void expect_set(const struct ind_idsets *c, uint64_t key, const uint32_t *want,
		       uint32_t nwant)
{
	const uint32_t *v = NULL;
	uint32_t n = UINT32_MAX, i;

	assert_true(ind_idsets_get(c, key, &v, &n));
	assert_int_equal(n, nwant);
	for (i = 0; i < n; i++)
		assert_int_equal(v[i], want[i]);
}

/* An empty set is filed (an offset where no loose object holds a
 * function is not read again); a key never put is not; the all-zero
 * struct is empty and released as is. */
static void test_empty_and_absent(void **state)
{
	struct ind_idsets c = { 0 };
	const uint32_t *v;
	uint32_t n;

	(void)state;
	assert_false(ind_idsets_get(&c, 0, &v, &n));
	assert_null(ind_idsets_put(&c, 16, NULL, 0));
	expect_set(&c, 16, NULL, 0);
	assert_false(ind_idsets_get(&c, 0, &v, &n));
	assert_false(ind_idsets_get(&c, 8, &v, &n));
	ind_idsets_release(&c);
	assert_false(ind_idsets_get(&c, 16, &v, &n));
	ind_idsets_release(&c);
}

/* Each key keeps its own copy: the caller's array changes after the put,
 * the map grows and the pool moves as hundreds of sets follow, and the
 * first sets read back unchanged; keys past 32 bits are their own. */
static void test_many_keys(void **state)
{
	struct ind_idsets c = { 0 };
	uint32_t a[3] = { 3, 7, 9 }, b[1] = { 5 }, big[4], k, i;
	const uint32_t want_a[3] = { 3, 7, 9 }, want_b[1] = { 5 };

	(void)state;
	ind_idsets_put(&c, 8, a, 3);
	a[0] = 100;
	ind_idsets_put(&c, (1ULL << 32) | 8, b, 1);
	for (k = 0; k < 500; k++) {
		for (i = 0; i < 4; i++)
			big[i] = k * 10 + i;
		ind_idsets_put(&c, 1000 + 8 * (uint64_t)k, big, 4);
	}
	expect_set(&c, 8, want_a, 3);
	expect_set(&c, (1ULL << 32) | 8, want_b, 1);
	for (k = 0; k < 500; k += 97) {
		for (i = 0; i < 4; i++)
			big[i] = k * 10 + i;
		expect_set(&c, 1000 + 8 * (uint64_t)k, big, 4);
	}
	assert_int_equal(c.nspan, 502);
	ind_idsets_release(&c);
}

/* The meet appends what both lists hold, in order, after what out has:
 * both ends, a list running out first, and none in common. */
static void test_meet(void **state)
{
	const uint32_t a[] = { 1, 4, 6, 8, 20 }, b[] = { 1, 2, 6, 7, 8, 9 };
	const uint32_t c[] = { 0, 2, 3 }, d[] = { 20, 21 };
	struct ids out = { 0 };

	(void)state;
	ids_add(&out, 99);
	ind_ids_meet(a, 5, b, 6, &out);
	assert_int_equal(out.n, 4);
	assert_int_equal(out.v[0], 99);
	assert_int_equal(out.v[1], 1);
	assert_int_equal(out.v[2], 6);
	assert_int_equal(out.v[3], 8);
	out.n = 0;
	ind_ids_meet(a, 5, c, 3, &out);
	assert_int_equal(out.n, 0);
	ind_ids_meet(d, 2, a, 5, &out);
	assert_int_equal(out.n, 1);
	assert_int_equal(out.v[0], 20);
	ind_ids_meet(a, 5, NULL, 0, &out);
	ind_ids_meet(NULL, 0, b, 6, &out);
	assert_int_equal(out.n, 1);
	free(out.v);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_empty_and_absent),
		cmocka_unit_test(test_many_keys),
		cmocka_unit_test(test_meet),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
