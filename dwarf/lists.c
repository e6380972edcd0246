/*
 * lists.c - the one reader of range and location lists: DWARF 2-4's
 * .debug_ranges and .debug_loc (pairs of addresses from a base, which
 * an entry of the largest address changes) and DWARF 5's
 * .debug_rnglists and .debug_loclists (entries of a kind each, some
 * through .debug_addr).  A location list's entries each carry an
 * expression; a range list's none.
 *
 * An entry whose addresses cannot be had (an index past .debug_addr, an
 * offset pair before any base address) is given as such, not guessed;
 * a list cut short, or an entry of no known kind, ends as unreadable.
 */
#include "dwarf/internal.h"

/* The kinds of entry, DWARF 5's range and location kinds as one. */
enum kind {
	K_END, K_BASEX, K_STARTX_ENDX, K_STARTX_LENGTH, K_OFFSET_PAIR, K_DEFAULT,
	K_BASE, K_START_END, K_START_LENGTH, K_BAD,
};

static enum kind kind_of(unsigned code, bool locs)
{
	static const uint8_t rle[] = {
		[DW_RLE_end_of_list] = K_END, [DW_RLE_base_addressx] = K_BASEX,
		[DW_RLE_startx_endx] = K_STARTX_ENDX, [DW_RLE_startx_length] = K_STARTX_LENGTH,
		[DW_RLE_offset_pair] = K_OFFSET_PAIR, [DW_RLE_base_address] = K_BASE,
		[DW_RLE_start_end] = K_START_END, [DW_RLE_start_length] = K_START_LENGTH,
	};
	static const uint8_t lle[] = {
		[DW_LLE_end_of_list] = K_END, [DW_LLE_base_addressx] = K_BASEX,
		[DW_LLE_startx_endx] = K_STARTX_ENDX, [DW_LLE_startx_length] = K_STARTX_LENGTH,
		[DW_LLE_offset_pair] = K_OFFSET_PAIR, [DW_LLE_default_location] = K_DEFAULT,
		[DW_LLE_base_address] = K_BASE, [DW_LLE_start_end] = K_START_END,
		[DW_LLE_start_length] = K_START_LENGTH,
	};

	if (locs)
		return code < sizeof(lle) ? (enum kind)lle[code] : K_BAD;
	return code < sizeof(rle) ? (enum kind)rle[code] : K_BAD;
}

/* Where a list is read from, and its base address so far. */
struct list {
	const struct dw_unit *u;
	struct dw_bytes b;
	bool locs;
	uint64_t base;
	bool base_known;
	dw_span_fn *fn;
	void *ctx;
};

/* Entry i of .debug_addr, into *out. */
static bool addr_at(const struct list *l, uint64_t i, uint64_t *out)
{
	const struct dw_unit *u = l->u;

	return dw_table_entry(u, &u->secs->addr, u->addr_base, i, u->addr_size, out);
}

/* A location entry's expression, and the entry to fn. */
static void give(struct list *l, struct dw_span *s)
{
	if (l->locs) {
		s->len = dw_bytes_uleb(&l->b);
		s->expr = dw_bytes_skip(&l->b, s->len);
	}
	if (!l->b.bad)
		l->fn(l->ctx, s);
}

/* One DWARF 5 entry: 1, 0 at the list's end, -1 when it cannot be read. */
static int entry5(struct list *l)
{
	struct dw_bytes *b = &l->b;
	unsigned a = l->u->addr_size;
	struct dw_span s = { .known = true };
	enum kind k = kind_of((unsigned)dw_bytes_uint(b, 1), l->locs);
	uint64_t x, y;

	if (b->bad || k == K_BAD)
		return -1;
	switch (k) {
	case K_END:
		return 0;
	case K_BASEX:
		l->base_known = addr_at(l, dw_bytes_uleb(b), &l->base);
		return b->bad ? -1 : 1;
	case K_BASE:
		l->base = dw_bytes_uint(b, a);
		l->base_known = true;
		return b->bad ? -1 : 1;
	case K_STARTX_ENDX:
		x = dw_bytes_uleb(b);
		y = dw_bytes_uleb(b);
		s.known = addr_at(l, x, &s.lo) && addr_at(l, y, &s.hi);
		break;
	case K_STARTX_LENGTH:
		x = dw_bytes_uleb(b);
		y = dw_bytes_uleb(b);
		s.known = addr_at(l, x, &s.lo);
		s.hi = s.lo + y;
		break;
	case K_OFFSET_PAIR:
		x = dw_bytes_uleb(b);
		y = dw_bytes_uleb(b);
		s.known = l->base_known;
		s.lo = l->base + x;
		s.hi = l->base + y;
		break;
	case K_DEFAULT:
		s.known = false;	/* where no other entry is: no addresses */
		break;
	case K_START_END:
		s.lo = dw_bytes_uint(b, a);
		s.hi = dw_bytes_uint(b, a);
		break;
	case K_START_LENGTH:
		s.lo = dw_bytes_uint(b, a);
		s.hi = s.lo + dw_bytes_uleb(b);
		break;
	default:
		return -1;
	}
	give(l, &s);
	return b->bad ? -1 : 1;
}

/* One DWARF 2-4 entry: a pair of addresses, or the end (0, 0), or a base
 * address selection (the largest address, then the base). */
static int entry4(struct list *l)
{
	unsigned a = l->u->addr_size;
	uint64_t max = a >= 8 ? UINT64_MAX : (UINT64_C(1) << (8 * a)) - 1;
	uint64_t lo = dw_bytes_uint(&l->b, a), hi = dw_bytes_uint(&l->b, a);
	struct dw_span s = { .known = true };

	if (l->b.bad)
		return -1;
	if (!lo && !hi)
		return 0;
	if (lo == max) {
		l->base = hi;
		return 1;
	}
	s.lo = l->base + lo;
	s.hi = l->base + hi;
	if (l->locs) {
		s.len = dw_bytes_uint(&l->b, 2);
		s.expr = dw_bytes_skip(&l->b, s.len);
	}
	if (l->b.bad)
		return -1;
	l->fn(l->ctx, &s);
	return 1;
}

/* The list at off of section sec. */
static int read_list(struct list *l, const struct dw_section *sec, uint64_t off)
{
	int res;

	if (!sec->data || off >= sec->size)
		return -1;
	dw_bytes_init(&l->b, sec->data + off, sec->size - off, l->u->secs->msb);
	while ((res = l->u->version >= 5 ? entry5(l) : entry4(l)) > 0)
		;
	return res;
}

/* A list's offset in its section: an offset, or DWARF 5's index into
 * the offsets after the table header at base. */
static bool list_offset(const struct dw_unit *u, const struct dw_val *v,
			const struct dw_section *sec, uint64_t base, uint64_t *off, bool locs)
{
	if (v->form == DW_FORM_rnglistx || v->form == DW_FORM_loclistx) {
		if (!dw_table_entry(u, sec, base, v->u, u->off_size, off) ||
		    *off > UINT64_MAX - base)
			return false;
		*off += base;
		return true;
	}
	/* DWARF 2 and 3 give a location list's offset as data4 or data8,
	 * later versions a constant that is none */
	if (locs && (v->form == DW_FORM_data4 || v->form == DW_FORM_data8) && u->version >= 4)
		return false;
	return dw_val_offset(v, off);
}

struct ranges {
	dw_range_fn add;
	void *ctx;
};

static void add_range(void *ctx, const struct dw_span *s)
{
	const struct ranges *r = ctx;

	if (s->known)
		r->add(r->ctx, s->lo, s->hi);
}

int dw_val_ranges(const struct dw_unit *u, const struct dw_val *v, dw_range_fn add,
		  void *ctx)
{
	struct ranges r = { add, ctx };
	struct list l = { .u = u, .base = u->base, .base_known = u->has_base || u->version < 5,
			  .fn = add_range, .ctx = &r };
	const struct dw_section *sec = u->version >= 5 ? &u->secs->rnglists : &u->secs->ranges;
	uint64_t off;

	if (!list_offset(u, v, sec, u->rnglists_base, &off, false))
		return -1;
	return read_list(&l, sec, off);
}

int dw_val_locations(const struct dw_unit *u, const struct dw_val *v, dw_span_fn *fn,
		     void *ctx)
{
	struct list l = { .u = u, .locs = true, .base = u->base,
			  .base_known = u->has_base || u->version < 5, .fn = fn, .ctx = ctx };
	const struct dw_section *sec = u->version >= 5 ? &u->secs->loclists : &u->secs->loc;
	struct dw_span s = { .lo = 0, .hi = UINT64_MAX, .known = true };
	uint64_t off;

	/* one expression: where the variable is all along */
	if (dw_val_block(v, &s.expr, &s.len)) {
		fn(ctx, &s);
		return 0;
	}
	if (!list_offset(u, v, sec, u->loclists_base, &off, true))
		return -1;
	return read_list(&l, sec, off);
}
