/*
 * sort.h - the one radix sort of records by a 64-bit key: stable, as
 * glibc's qsort (a merge sort) is, so that records of equal keys stay
 * in the order they were made, and with no call of a comparison per
 * pair (qsort's were most of the sorting of a kernel's arrays).
 */
#ifndef SP_SORT_H
#define SP_SORT_H

#include <stddef.h>

/* v[0..n), records of size bytes, in increasing order of the uint64_t
 * at key bytes into each (an offsetof), equal keys in their order. */
void sp_sort_by_key(void *v, size_t n, size_t size, size_t key);

#endif
