/*
 * read.c - the one reader of DWARF's numbers: fixed-size fields in the
 * object's byte order and LEB128, bounded by the bytes they are read
 * from.  Every other file of dwarf/ reads through these.
 */
#include "dwarf/internal.h"

void dw_write_uint(unsigned char *p, unsigned n, uint64_t v, bool msb)
{
	unsigned i;

	for (i = 0; i < n; i++, v >>= 8)
		p[msb ? n - 1 - i : i] = (unsigned char)v;
}

bool dw_read_uleb(const unsigned char **p, const unsigned char *end, uint64_t *v)
{
	unsigned shift = 0;

	for (*v = 0; *p < end && shift < 64; shift += 7) {
		unsigned char b = *(*p)++;

		*v |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80))
			return true;
	}
	return false;
}

bool dw_read_sleb(const unsigned char **p, const unsigned char *end, int64_t *v)
{
	uint64_t u = 0;
	unsigned shift = 0;
	unsigned char b = 0x80;

	while (*p < end && shift < 64 && (b & 0x80)) {
		b = *(*p)++;
		u |= (uint64_t)(b & 0x7f) << shift;
		shift += 7;
	}
	if (b & 0x80)
		return false;
	if (shift < 64 && (b & 0x40))
		u |= ~(uint64_t)0 << shift;
	*v = (int64_t)u;
	return true;
}

/* ---- over a stretch of bytes ---- */

uint64_t dw_bytes_uint(struct dw_bytes *b, unsigned n)
{
	uint64_t v;

	if (b->bad || (uint64_t)(b->end - b->p) < n) {
		b->bad = true;
		return 0;
	}
	v = dw_read_uint(b->p, n, b->msb);
	b->p += n;
	return v;
}

int64_t dw_bytes_sint(struct dw_bytes *b, unsigned n)
{
	uint64_t v = dw_bytes_uint(b, n);

	if (n < 8 && (v >> (8 * n - 1)) & 1)
		v |= ~(uint64_t)0 << (8 * n);
	return (int64_t)v;
}

uint64_t dw_bytes_uleb(struct dw_bytes *b)
{
	const unsigned char *p = b->p;
	uint64_t v = 0;

	if (b->bad || !dw_read_uleb(&p, b->end, &v)) {
		b->bad = true;
		return 0;
	}
	b->p = p;
	return v;
}

int64_t dw_bytes_sleb(struct dw_bytes *b)
{
	const unsigned char *p = b->p;
	int64_t v = 0;

	if (b->bad || !dw_read_sleb(&p, b->end, &v)) {
		b->bad = true;
		return 0;
	}
	b->p = p;
	return v;
}

const unsigned char *dw_bytes_skip(struct dw_bytes *b, uint64_t n)
{
	const unsigned char *at = b->p;

	if (b->bad || (uint64_t)(b->end - b->p) < n) {
		b->bad = true;
		return NULL;
	}
	b->p += n;
	return at;
}

const char *dw_bytes_string(struct dw_bytes *b)
{
	const unsigned char *nul;
	const char *s = (const char *)b->p;

	if (b->bad || !(nul = memchr(b->p, 0, (size_t)(b->end - b->p)))) {
		b->bad = true;
		return NULL;
	}
	b->p = nul + 1;
	return s;
}
