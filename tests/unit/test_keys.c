/* Unit tests of indirect/keys.c: ind_unique_ids, the sorted set of a
 * list of function ids (each site's and each key's targets). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "indirect/internal.h"

static int cmp_u32(const void *pa, const void *pb)
{
	uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;

	return (a > b) - (a < b);
}

/* ind_unique_ids(v, n) against qsort and a pass that drops repeats. */
static void expect_unique(const uint32_t *in, uint32_t n)
{
	uint32_t *got = malloc((n ? n : 1) * sizeof(*got));
	uint32_t *want = malloc((n ? n : 1) * sizeof(*want));
	uint32_t i, nwant = 0, ngot;

	if (n) {
		memcpy(got, in, n * sizeof(*in));
		memcpy(want, in, n * sizeof(*in));
		qsort(want, n, sizeof(*want), cmp_u32);
	}
	for (i = 0; i < n; i++)
		if (!nwant || want[nwant - 1] != want[i])
			want[nwant++] = want[i];
	ngot = ind_unique_ids(got, n);
	assert_int_equal(ngot, nwant);
	for (i = 0; i < ngot; i++)
		assert_int_equal(got[i], want[i]);
	free(got);
	free(want);
}

/* Empty, short (insertion), sorted with repeats, and long lists of ids
 * of one to four bytes (each byte a pass of the radix sort). */
static void test_unique_ids(void **state)
{
	static const uint32_t few[] = { 7, 3, 7, 0, 3, 9 };
	static const uint32_t sorted[] = { 1, 1, 2, 5, 5, 5, 8 };
	uint32_t *v = malloc(5000 * sizeof(*v)), seed = 12345, i;
	static const uint32_t masks[] = { 0xff, 0xffff, 0xffffff, 0xffffffff };
	size_t m;

	(void)state;
	expect_unique(NULL, 0);
	expect_unique(few, 1);
	expect_unique(few, 6);
	expect_unique(sorted, 7);
	for (m = 0; m < sizeof(masks) / sizeof(masks[0]); m++) {
		for (i = 0; i < 5000; i++) {
			seed = seed * 1103515245u + 12345u;
			v[i] = (seed ^ (seed >> 13) * 2654435761u) & masks[m];
		}
		expect_unique(v, 33);
		expect_unique(v, 5000);
	}
	for (i = 0; i < 5000; i++)
		v[i] = 5000 - i;	/* descending */
	expect_unique(v, 5000);
	free(v);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_unique_ids),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
