/*
 * internal.h - what the files of dwarf/ share and no other stage sees:
 * the one reader of DWARF's numbers (read.c) and of its expressions
 * (expr.c), in either byte order.
 */
#ifndef SP_DWARF_INTERNAL_H
#define SP_DWARF_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "dwarf/dwarf.h"

/* ---- numbers (read.c) ---- */

/* An unsigned number of n bytes (1..8) at p, in the byte order msb
 * says.  Inline, with the sizes of a little-endian object's fields read
 * whole: the walk and relocation read hundreds of millions of them. */
static inline uint64_t dw_read_uint(const unsigned char *p, unsigned n, bool msb)
{
	uint64_t v = 0;
	unsigned i;

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	if (!msb && (n == 8 || n == 4 || n == 2)) {
		memcpy(&v, p, n);
		return v;
	}
#endif
	for (i = 0; i < n; i++)
		v |= (uint64_t)p[msb ? n - 1 - i : i] << (8 * i);
	return v;
}

/* The low n bytes (1..8) of v at p, in the byte order msb says. */
void dw_write_uint(unsigned char *p, unsigned n, uint64_t v, bool msb);

/* An unsigned or signed LEB128 at *p, before end, moving *p past it;
 * false when it is cut or longer than 64 bits. */
bool dw_read_uleb(const unsigned char **p, const unsigned char *end, uint64_t *v);
bool dw_read_sleb(const unsigned char **p, const unsigned char *end, int64_t *v);

/* A LEB128 whose first byte is the whole of it, as nearly all are. */
static inline bool dw_uleb(const unsigned char **p, const unsigned char *end, uint64_t *v)
{
	if (*p < end && !(**p & 0x80)) {
		*v = *(*p)++;
		return true;
	}
	return dw_read_uleb(p, end, v);
}

/*
 * The same readers over a stretch of bytes, for the tables read field
 * after field (line tables, location and range lists): a read that does
 * not fit marks the stretch bad, reads 0 and moves nowhere, so that a
 * table is read through and judged once at its end.
 */
struct dw_bytes {
	const unsigned char *p, *end;
	bool msb;
	bool bad;
};

static inline void dw_bytes_init(struct dw_bytes *b, const unsigned char *p, uint64_t len,
				 bool msb)
{
	b->p = p;
	b->end = p + len;
	b->msb = msb;
	b->bad = false;
}

static inline uint64_t dw_bytes_left(const struct dw_bytes *b)
{
	return b->bad ? 0 : (uint64_t)(b->end - b->p);
}

uint64_t dw_bytes_uint(struct dw_bytes *b, unsigned n);
int64_t dw_bytes_sint(struct dw_bytes *b, unsigned n);
uint64_t dw_bytes_uleb(struct dw_bytes *b);
int64_t dw_bytes_sleb(struct dw_bytes *b);
/* n bytes stepped over; their start, NULL when they do not fit */
const unsigned char *dw_bytes_skip(struct dw_bytes *b, uint64_t n);
/* A NUL-terminated string, moving past it; NULL when it is cut. */
const char *dw_bytes_string(struct dw_bytes *b);

#endif
