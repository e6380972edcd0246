/* bytes.h - hand-made section contents for the DWARF readers' unit
 * tests: little-endian numbers and strings appended to a buffer. */
#ifndef SP_TEST_BYTES_H
#define SP_TEST_BYTES_H

#include <stdint.h>
#include <string.h>

struct bytes {
	unsigned char v[512];
	size_t n;
};

static inline void put(struct bytes *b, uint64_t v, unsigned n)
{
	while (n--) {
		b->v[b->n++] = (unsigned char)v;
		v >>= 8;
	}
}

static inline void put_str(struct bytes *b, const char *s)
{
	memcpy(b->v + b->n, s, strlen(s) + 1);
	b->n += strlen(s) + 1;
}

#endif
