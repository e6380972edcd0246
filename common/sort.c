/*
 * sort.c - a radix sort from the lowest byte of the key, one pass per
 * byte in which the keys differ (a unit's DIE offsets differ in two or
 * three).
 */
#include "common/sort.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"

static uint64_t key_at(const unsigned char *v, size_t i, size_t size, size_t key)
{
	uint64_t x;

	memcpy(&x, v + i * size + key, sizeof(x));
	return x;
}

/* One pass: from[] into to[] by byte b of the key, stably. */
static void pass(const unsigned char *from, unsigned char *to, size_t n, size_t size,
		 size_t key, unsigned b)
{
	size_t count[256] = { 0 }, i, c, sum;

	for (i = 0; i < n; i++)
		count[(key_at(from, i, size, key) >> b) & 0xff]++;
	for (c = 0, sum = 0; c < 256; c++) {
		size_t k = count[c];

		count[c] = sum;
		sum += k;
	}
	for (i = 0; i < n; i++)
		memcpy(to + count[(key_at(from, i, size, key) >> b) & 0xff]++ * size,
		       from + i * size, size);
}

void sp_sort_by_key(void *v, size_t n, size_t size, size_t key)
{
	unsigned char *from = v, *to, *swap, *tmp;
	uint64_t k0, diff = 0;
	size_t i;
	unsigned b;

	if (n < 2)
		return;
	k0 = key_at(from, 0, size, key);
	for (i = 1; i < n; i++)
		diff |= key_at(from, i, size, key) ^ k0;
	if (!diff)
		return;
	to = tmp = sp_xmalloc(n * size);
	for (b = 0; b < 64; b += 8) {
		if (!((diff >> b) & 0xff))
			continue;	/* one value of this byte: the order stays */
		pass(from, to, n, size, key, b);
		swap = from;
		from = to;
		to = swap;
	}
	if (from != (unsigned char *)v)
		memcpy(v, from, n * size);
	free(tmp);
}
