/*
 * search.h - the one binary search: the first entry of a sorted array
 * whose 64-bit key reaches a value ("the function at or after an
 * address", "the range that starts at or before it" is the entry before).
 *
 * key_of reads entry i's key; inline, so that a search over one kind of
 * array costs what a search written for it would.
 */
#ifndef SP_SEARCH_H
#define SP_SEARCH_H

#include <stddef.h>
#include <stdint.h>

typedef uint64_t sp_key_fn(const void *base, size_t i);

/* The index of the first of base[0..n) whose key is >= key; n if none. */
static inline size_t sp_search_first_ge(const void *base, size_t n, sp_key_fn *key_of,
					uint64_t key)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (key_of(base, mid) < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The index of the last entry whose key is <= key; n if none. */
static inline size_t sp_search_last_le(const void *base, size_t n, sp_key_fn *key_of,
				       uint64_t key)
{
	size_t i = key == UINT64_MAX ? n : sp_search_first_ge(base, n, key_of, key + 1);

	return i ? i - 1 : n;
}

/* The key of a plain sorted array of uint64_t, and its qsort order. */
static inline uint64_t sp_u64_at(const void *base, size_t i)
{
	return ((const uint64_t *)base)[i];
}

static inline int sp_u64_cmp(const void *pa, const void *pb)
{
	uint64_t a = *(const uint64_t *)pa, b = *(const uint64_t *)pb;

	return (a > b) - (a < b);
}

#endif
