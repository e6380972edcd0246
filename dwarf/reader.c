/*
 * reader.c - DIEs read by offset, after the walk: what the later
 * questions (VLAs, prototypes, types, locations) read, from the same
 * section bytes through die.c.
 *
 * A DIE is found in its unit, which the walk listed (dw_image's unit
 * offsets); a unit read is kept open, so that a reader going through
 * the DIEs in offset order opens each unit once, and its abbreviations
 * are parsed once for every reader of the image (dw_unit_open_shared:
 * the typing threads, the prototypes and the variables each went
 * through every unit, and parsed its table again).  The units a question opened stay open until the
 * next question begins (a DIE's unit must outlive the reading of its
 * children), when all but the last DW_READER_KEEP used are closed:
 * every question the stage answers is bracketed by dw_reader_begin and
 * dw_reader_end.
 * Each thread reads through a reader of its own.
 */
#include "dwarf/internal.h"

#include <stdlib.h>

#include "common/search.h"
#include "common/xalloc.h"

/* Units kept open between questions: a type's DIEs are in its unit,
 * and the few units referred to from it (a declaration elsewhere). */
#define DW_READER_KEEP 8

struct dw_reader *dw_reader_open(struct dw_image *dw)
{
	struct dw_reader *r;

	if (dw_load_sections(dw))
		return NULL;
	r = sp_xcalloc(1, sizeof(*r));
	r->dw = dw;
	r->here = SP_NONE;
	return r;
}

static void close_unit(struct dw_open_unit *o)
{
	dw_unit_close(&o->u);
	free(o);
}

void dw_reader_close(struct dw_reader *r)
{
	size_t i;

	if (!r)
		return;
	for (i = 0; i < r->nopen; i++)
		close_unit(r->open[i]);
	free(r->open);
	if (r->origin_type.nslots)
		sp_u64map_release(&r->origin_type);
	free(r->types_of);
	if (r->name_of.nslots)
		sp_u64map_release(&r->name_of);
	free(r->names);
	free(r->names_text);
	free(r);
}

static uint64_t unit_off_at(const void *base, size_t i)
{
	return ((const uint64_t *)base)[i];
}

uint32_t dw_cu_of_offset(const struct dw_image *dw, uint64_t off)
{
	/* units start at increasing offsets in walk order */
	size_t i = sp_search_first_ge(dw->st->cu_unit_off, dw->ncus, unit_off_at, off + 1);

	return i ? dw->cu_first + (uint32_t)(i - 1) : SP_NONE;
}

static int by_use(const void *pa, const void *pb)
{
	const struct dw_open_unit *a = *(struct dw_open_unit *const *)pa;
	const struct dw_open_unit *b = *(struct dw_open_unit *const *)pb;

	return (a->used < b->used) - (a->used > b->used);	/* most recent first */
}

void dw_reader_begin(struct dw_reader *r)
{
	size_t i;

	/* a question asked while another is being answered (a callback of
	 * the caller's) may not close the units the other reads */
	if (r->depth++ || r->nopen <= DW_READER_KEEP)
		return;
	qsort(r->open, r->nopen, sizeof(*r->open), by_use);
	for (i = DW_READER_KEEP; i < r->nopen; i++)
		close_unit(r->open[i]);
	r->nopen = DW_READER_KEEP;
}

void dw_reader_end(struct dw_reader *r)
{
	if (r->depth)
		r->depth--;
}

/* The open unit of graph CU cu, opened now if need be; NULL when it
 * cannot be read. */
static struct dw_open_unit *open_unit(struct dw_reader *r, uint32_t cu)
{
	struct dw_image *dw = r->dw;
	struct dw_open_unit *o;
	uint64_t off;
	size_t i;

	for (i = 0; i < r->nopen; i++)
		if (r->open[i]->cu == cu) {
			r->open[i]->used = ++r->clock;
			return r->open[i];
		}
	o = sp_xcalloc(1, sizeof(*o));
	off = dw->st->cu_unit_off[cu - dw->cu_first];
	if ((dw->st->abbrevs ?
	     dw_unit_open_shared(&dw->st->secs, off, &dw->st->abbrevs[cu - dw->cu_first], &o->u) :
	     dw_unit_open_lookup(&dw->st->secs, off, &o->u)) ||
	    dw_unit_read_bases(&o->u)) {
		close_unit(o);
		return NULL;
	}
	o->cu = cu;
	o->used = ++r->clock;
	SP_ALLOC_GROW(r->open, r->nopen + 1, r->open_cap);
	r->open[r->nopen++] = o;
	return o;
}

bool dw_entry_at(struct dw_reader *r, uint64_t off, struct dw_entry *e)
{
	uint32_t cu;
	size_t i;

	memset(e, 0, sizeof(*e));
	if (!off)
		return false;
	for (i = 0; i < r->nopen; i++)	/* most DIEs asked for are in an open unit */
		if (off >= r->open[i]->u.first_die && off < r->open[i]->u.end) {
			e->unit = r->open[i];
			break;
		}
	if (!e->unit) {
		cu = dw_cu_of_offset(r->dw, off);
		if (cu == SP_NONE || !(e->unit = open_unit(r, cu)))
			return false;
	}
	e->unit->used = ++r->clock;
	e->u = &e->unit->u;
	e->cu = e->unit->cu;
	/* a null entry is no DIE */
	return !dw_die_read(e->u, off, &e->d) && e->d.ab;
}

/* ---- moving along the units ---- */

/* Where graph CU cu's unit ends: the next one's start, past the last
 * one's all. */
static uint64_t cu_end(const struct dw_image *dw, uint32_t cu)
{
	return cu + 1 < dw->cu_first + dw->ncus ? dw->st->cu_unit_off[cu + 1 - dw->cu_first] :
	       UINT64_MAX;
}

uint64_t dw_unit_end(const struct dw_image *dw, uint64_t off)
{
	uint32_t cu = dw_cu_of_offset(dw, off);

	return cu == SP_NONE ? 0 : cu_end(dw, cu);
}

void dw_reader_seek(struct dw_reader *r, uint64_t off)
{
	const struct dw_image *dw = r->dw;
	uint32_t cu;

	if (r->here != SP_NONE && off >= r->lo && off < r->hi)
		return;
	cu = dw_cu_of_offset(dw, off);
	if (cu == SP_NONE)
		return;
	r->here = cu;
	r->lo = dw->st->cu_unit_off[cu - dw->cu_first];
	r->hi = cu_end(dw, cu);
	/* a reader over the whole of .debug_info would hold all of it */
	if (++r->moves % 64 == 0)
		dw_done_reading(dw);
}

uint32_t dw_reader_moves(const struct dw_reader *r)
{
	return r->moves;
}

bool dw_reader_here(const struct dw_reader *r, uint64_t off)
{
	return r->here != SP_NONE && off >= r->lo && off < r->hi;
}

/* ---- attributes ---- */

bool dw_entry_has(const struct dw_entry *e, uint16_t at)
{
	return dw_die_has(e->u, &e->d, at);
}

bool dw_entry_attr(const struct dw_entry *e, uint16_t at, struct dw_val *v)
{
	return dw_die_attr(e->u, &e->d, at, v);
}

uint64_t dw_entry_ref(const struct dw_entry *e, uint16_t at)
{
	struct dw_val v;

	return dw_entry_attr(e, at, &v) ? dw_val_ref(e->u, &v) : 0;
}

const char *dw_entry_name(const struct dw_entry *e)
{
	struct dw_val v;

	return dw_entry_attr(e, DW_AT_name, &v) ? dw_val_string(e->u, &v) : NULL;
}

bool dw_entry_at_ref(struct dw_reader *r, const struct dw_entry *e, uint16_t at,
		     struct dw_entry *out)
{
	return dw_entry_at(r, dw_entry_ref(e, at), out);
}

int dw_entry_origin(struct dw_reader *r, const struct dw_entry *e, struct dw_entry *up)
{
	uint64_t off = dw_entry_ref(e, DW_AT_abstract_origin);

	if (!off)
		off = dw_entry_ref(e, DW_AT_specification);
	if (!off)
		return 0;
	return dw_entry_at(r, off, up) ? 1 : -1;
}

int dw_entry_follow(struct dw_reader *r, uint64_t off, uint16_t at, struct dw_entry *e)
{
	struct dw_entry up;
	int hops, res;

	if (!dw_entry_at(r, off, e))
		return -1;
	for (hops = 0; hops < DW_MAX_ORIGIN_HOPS; hops++) {
		if (at && dw_entry_ref(e, at))
			return 1;
		res = dw_entry_origin(r, e, &up);
		if (res <= 0)
			return res < 0 ? -1 : !at;
		*e = up;
	}
	return -1;	/* a reference cycle */
}

/* ---- children ---- */

void dw_kids_begin(const struct dw_entry *parent, struct dw_kids *k)
{
	uint64_t first;

	memset(k, 0, sizeof(*k));
	k->u = parent->u;
	k->unit = parent->unit;
	k->cu = parent->cu;
	if (!parent->d.ab->children)
		k->state = 0;
	else if (dw_die_attrs_end(parent->u, &parent->d, &first))
		k->state = -1;
	else {
		k->next = first;
		k->state = 1;
	}
}

int dw_kids_next(struct dw_kids *k, struct dw_entry *c)
{
	int res;

	if (k->state > 0 && k->have_cur) {
		/* past the child given last: its DW_AT_sibling, else past its
		 * children (the caller may have read to their end) */
		res = dw_die_next(k->u, &k->cur, k->after, &k->next, 0);
		k->after = 0;
		k->have_cur = false;
		if (res)
			k->state = -1;
	}
	if (k->state <= 0)
		return k->state;
	memset(c, 0, sizeof(*c));
	c->u = k->u;
	c->unit = k->unit;
	c->cu = k->cu;
	if (dw_die_read(k->u, k->next, &c->d)) {
		k->state = -1;
		return -1;
	}
	if (!c->d.ab) {
		k->end = c->d.attrs;	/* past the null entry */
		k->state = 0;
		return 0;
	}
	k->cur = c->d;
	k->have_cur = true;
	return 1;
}
