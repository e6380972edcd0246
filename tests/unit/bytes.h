/* bytes.h - hand-made section contents for the DWARF readers' unit
 * tests: numbers (little-endian, or big-endian when msb is set), LEB128
 * and strings appended to a buffer. */
#ifndef SP_TEST_BYTES_H
#define SP_TEST_BYTES_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

struct bytes {
	unsigned char v[512];
	size_t n;
	bool msb;
};

static inline void put(struct bytes *b, uint64_t v, unsigned n)
{
	unsigned i;

	/* n may pass 8 (two zero addresses in one call): those bytes are 0 */
	for (i = 0; i < n; i++)
		b->v[b->n + (b->msb ? n - 1 - i : i)] = i < 8 ? (unsigned char)(v >> (8 * i)) : 0;
	b->n += n;
}

static inline void put_uleb(struct bytes *b, uint64_t v)
{
	do {
		unsigned char c = v & 0x7f;

		v >>= 7;
		b->v[b->n++] = (unsigned char)(c | (v ? 0x80 : 0));
	} while (v);
}

static inline void put_sleb(struct bytes *b, int64_t v)
{
	bool more = true;

	while (more) {
		unsigned char c = v & 0x7f;

		v >>= 7;	/* arithmetic: GCC and Clang shift signed values so */
		more = !((v == 0 && !(c & 0x40)) || (v == -1 && (c & 0x40)));
		b->v[b->n++] = (unsigned char)(c | (more ? 0x80 : 0));
	}
}

static inline void put_str(struct bytes *b, const char *s)
{
	memcpy(b->v + b->n, s, strlen(s) + 1);
	b->n += strlen(s) + 1;
}

/* A 4-byte number at `at`, written over what is there (a length, an
 * offset known once what follows it is written). */
static inline void set_len(struct bytes *b, size_t at, uint64_t v)
{
	size_t n = b->n;

	b->n = at;
	put(b, v, 4);
	b->n = n;
}

/* An abbreviation: code, tag, children, then (at, form) pairs, 0-ended. */
static inline void abbrev(struct bytes *b, unsigned code, unsigned tag, bool children, ...)
{
	va_list ap;
	unsigned at;

	put_uleb(b, code);
	put_uleb(b, tag);
	put(b, children, 1);
	va_start(ap, children);
	while ((at = va_arg(ap, unsigned))) {
		put_uleb(b, at);
		put_uleb(b, va_arg(ap, unsigned));
	}
	va_end(ap);
	put(b, 0, 2);
}

#endif
