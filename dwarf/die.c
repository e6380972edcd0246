/*
 * die.c - DIEs read straight from .debug_info, for the walk.
 *
 * The walk (walk.c) reads every unit of an image once, and on a kernel
 * that is millions of DIEs: through libdwarf each one is an allocated
 * Dwarf_Die, each attribute list an allocated array of allocated
 * Dwarf_Attributes, recorded in a tree and freed again, which was most
 * of a run.  Here a unit's abbreviations are parsed once into a table,
 * and a DIE is an offset and an abbreviation: its attributes are decoded
 * in place as the walk asks for them, nothing is allocated per DIE.
 * Every read is bounded by its section; what does not fit is corrupt.
 * libdwarf still serves every later reader (types, CFI, VLAs).
 */
#include "dwarf/internal.h"

#include <stdlib.h>
#include <string.h>

#include "common/search.h"
#include "common/xalloc.h"

/* An abbreviation code this high or higher is looked up by a search,
 * not in the unit's dense table: GCC and Clang number them from 1. */
#define DENSE_CODES 65536

static bool in_sec(const struct dw_section *s, uint64_t off, uint64_t len)
{
	return off <= s->size && len <= s->size - off;
}

static uint64_t rd(const struct dw_unit *u, const unsigned char *p, unsigned n)
{
	return dw_read_uint(p, n, u->secs->msb);
}

void dw_secs_init(struct dw_obj *o, struct dw_secs *s)
{
	memset(s, 0, sizeof(*s));
	s->msb = o->msb;
	dw_obj_section(o, ".debug_info", &s->info);
	dw_obj_section(o, ".debug_abbrev", &s->abbrev);
	dw_obj_section(o, ".debug_str", &s->str);
	dw_obj_section(o, ".debug_line_str", &s->line_str);
	dw_obj_section(o, ".debug_str_offsets", &s->str_offsets);
	dw_obj_section(o, ".debug_addr", &s->addr);
	dw_obj_section(o, ".debug_ranges", &s->ranges);
	dw_obj_section(o, ".debug_rnglists", &s->rnglists);
	dw_obj_section(o, ".debug_loc", &s->loc);
	dw_obj_section(o, ".debug_loclists", &s->loclists);
	dw_obj_section(o, ".debug_line", &s->line);
}

/* ---- abbreviations ---- */

static void abbrevs_release(struct dw_abbrevs *t)
{
	free(t->list);
	free(t->by_code);
	free(t->big);
	free(t->specs);
	memset(t, 0, sizeof(*t));
}

/* The size of a value of form in unit u when every DIE's is the same,
 * -1 when it varies (a string, a block, a LEB128). */
static int fixed_size(const struct dw_unit *u, uint16_t form)
{
	switch (form) {
	case DW_FORM_addr:
		return u->addr_size;
	case DW_FORM_data1: case DW_FORM_ref1: case DW_FORM_flag:
	case DW_FORM_strx1: case DW_FORM_addrx1:
		return 1;
	case DW_FORM_data2: case DW_FORM_ref2: case DW_FORM_strx2: case DW_FORM_addrx2:
		return 2;
	case DW_FORM_strx3: case DW_FORM_addrx3:
		return 3;
	case DW_FORM_data4: case DW_FORM_ref4: case DW_FORM_strx4: case DW_FORM_addrx4:
	case DW_FORM_ref_sup4:
		return 4;
	case DW_FORM_data8: case DW_FORM_ref8: case DW_FORM_ref_sig8: case DW_FORM_ref_sup8:
		return 8;
	case DW_FORM_data16:
		return 16;
	case DW_FORM_strp: case DW_FORM_line_strp: case DW_FORM_sec_offset:
	case DW_FORM_strp_sup: case DW_FORM_GNU_ref_alt: case DW_FORM_GNU_strp_alt:
		return u->off_size;
	case DW_FORM_ref_addr:
		return u->version == 2 ? u->addr_size : u->off_size;
	case DW_FORM_implicit_const: case DW_FORM_flag_present:
		return 0;
	}
	return -1;
}

/* The specs of abbreviation a, each with its position past its DIE's
 * code while the values before it have fixed sizes in unit u: a later
 * reader looks one attribute up without decoding those (dw_entry_attr). */
static bool read_specs(const struct dw_unit *u, struct dw_abbrevs *t, struct dw_abbrev *a,
		       const unsigned char **p, const unsigned char *end)
{
	int32_t pos = 0;

	a->first = (uint32_t)t->nspecs;
	a->sibling = -1;
	for (;;) {
		uint64_t at, form;
		int64_t implicit = 0;
		int size;

		if (!dw_uleb(p, end, &at) || !dw_uleb(p, end, &form))
			return false;
		if (!at && !form) {
			a->size = pos;
			return true;
		}
		if (at > UINT16_MAX || form > UINT16_MAX)
			return false;
		if (form == DW_FORM_implicit_const && !dw_read_sleb(p, end, &implicit))
			return false;
		if (at == DW_AT_sibling && a->sibling < 0)
			a->sibling = (int32_t)a->n;
		SP_ALLOC_GROW(t->specs, t->nspecs + 1, t->specs_cap);
		t->specs[t->nspecs++] = (struct dw_attr_spec){
			.at = (uint16_t)at, .form = (uint16_t)form, .pos = pos,
			.implicit = implicit };
		size = pos == DW_POS_VARIES ? -1 : fixed_size(u, (uint16_t)form);
		pos = size < 0 ? DW_POS_VARIES : pos + size;
		a->n++;
	}
}

/* Past the specs of an abbreviation at *p, checked as read_specs()
 * reads them, without keeping them (dw_abbrevs.lazy). */
static bool skip_specs(const unsigned char **p, const unsigned char *end)
{
	for (;;) {
		uint64_t at, form;
		int64_t implicit;

		if (!dw_uleb(p, end, &at) || !dw_uleb(p, end, &form))
			return false;
		if (!at && !form)
			return true;
		if (at > UINT16_MAX || form > UINT16_MAX)
			return false;
		if (form == DW_FORM_implicit_const && !dw_read_sleb(p, end, &implicit))
			return false;
	}
}

static int cmp_code(const void *a, const void *b)
{
	const struct dw_abbrev *x = *(const struct dw_abbrev *const *)a;
	const struct dw_abbrev *y = *(const struct dw_abbrev *const *)b;

	if (x->code != y->code)
		return x->code < y->code ? -1 : 1;
	return x < y ? -1 : x > y;	/* the first of a code wins */
}

/* The dense code -> abbreviation table for the codes below DENSE_CODES,
 * the others sorted for a search: a hostile table of huge codes must
 * not make each DIE a walk through it. */
static void index_codes(struct dw_abbrevs *t)
{
	uint64_t max = 0;
	size_t i;

	for (i = 0; i < t->n; i++) {
		if (t->list[i].code >= DENSE_CODES)
			t->nbig++;
		else if (t->list[i].code > max)
			max = t->list[i].code;
	}
	t->ncodes = (size_t)max + 1;
	t->by_code = sp_xcalloc(t->ncodes, sizeof(*t->by_code));
	for (i = t->n; i-- > 0;)
		if (t->list[i].code < DENSE_CODES)
			t->by_code[t->list[i].code] = (uint32_t)i + 1;
	if (!t->nbig)
		return;
	t->big = sp_xmalloc(t->nbig * sizeof(*t->big));
	t->nbig = 0;
	for (i = 0; i < t->n; i++)
		if (t->list[i].code >= DENSE_CODES)
			t->big[t->nbig++] = &t->list[i];
	qsort(t->big, t->nbig, sizeof(*t->big), cmp_code);
}

static int read_abbrevs(const struct dw_unit *u, uint64_t off, bool lazy,
			struct dw_abbrevs *t)
{
	const struct dw_secs *s = u->secs;
	const unsigned char *p, *end;
	uint64_t code, tag;

	memset(t, 0, sizeof(*t));
	if (!s->abbrev.data || off >= s->abbrev.size)
		return -1;
	/* an abbreviation's offset is kept in 32 bits */
	t->lazy = lazy && s->abbrev.size <= UINT32_MAX;
	/* a compiler's unit has a few hundred: not regrown a dozen times
	 * each time a unit is opened */
	SP_ALLOC_GROW(t->list, 256, t->cap);
	SP_ALLOC_GROW(t->specs, t->lazy ? 64 : 1024, t->specs_cap);
	p = s->abbrev.data + off;
	end = s->abbrev.data + s->abbrev.size;
	while (dw_uleb(&p, end, &code) && code) {
		struct dw_abbrev a = { .code = code };

		if (!dw_uleb(&p, end, &tag) || tag > UINT16_MAX || p >= end)
			goto bad;
		a.tag = (uint16_t)tag;
		a.children = *p++ == DW_CHILDREN_yes;
		a.at = (uint32_t)(p - s->abbrev.data);
		a.read = !t->lazy;
		if (t->lazy ? !skip_specs(&p, end) : !read_specs(u, t, &a, &p, end))
			goto bad;
		SP_ALLOC_GROW(t->list, t->n + 1, t->cap);
		t->list[t->n++] = a;
	}
	index_codes(t);
	return 0;
bad:
	abbrevs_release(t);
	return -1;
}

static uint64_t big_code(const void *base, size_t i)
{
	return ((const struct dw_abbrev *const *)base)[i]->code;
}

static const struct dw_abbrev *find_code(const struct dw_abbrevs *t, uint64_t code)
{
	size_t i;

	if (code < t->ncodes)
		return t->by_code[code] ? &t->list[t->by_code[code] - 1] : NULL;
	i = sp_search_first_ge(t->big, t->nbig, big_code, code);
	return i < t->nbig && t->big[i]->code == code ? t->big[i] : NULL;
}

/*
 * The abbreviation of code in unit u, its specs read now if a lazy
 * table has not yet (read_abbrevs checked them, so this cannot fail).
 * u is the reader's own, read by one thread; the specs grow, but are
 * reached by index (dw_abbrev.first), and the list does not move.
 */
static const struct dw_abbrev *abbrev_of(const struct dw_unit *u, uint64_t code)
{
	const struct dw_abbrev *found = find_code(&u->ab, code);
	struct dw_abbrevs *t = (struct dw_abbrevs *)&u->ab;
	struct dw_abbrev *a = (struct dw_abbrev *)found;
	const unsigned char *p, *end;

	if (!a || a->read)
		return found;
	p = u->secs->abbrev.data + a->at;
	end = u->secs->abbrev.data + u->secs->abbrev.size;
	if (!read_specs(u, t, a, &p, end))
		return NULL;
	a->read = true;
	return a;
}

/* ---- units ---- */

bool dw_unit_length(const unsigned char *p, uint64_t avail, bool msb, uint64_t *len,
		    unsigned *hdr)
{
	if (avail < 4)
		return false;
	*len = dw_read_uint(p, 4, msb);
	*hdr = 4;
	if (*len == 0xffffffff) {
		if (avail < 12)
			return false;
		*len = dw_read_uint(p + 4, 8, msb);
		*hdr = 12;
	}
	return *len <= avail - *hdr;
}

/* The unit header at off: its length, version, kind, sizes, abbreviations. */
static int read_header(const struct dw_secs *s, uint64_t off, struct dw_unit *u)
{
	const struct dw_section *info = &s->info;
	const unsigned char *p = info->data + off, *end;
	uint64_t len;
	unsigned hdr;

	if (!dw_unit_length(p, info->size - off, s->msb, &len, &hdr))
		return -1;
	u->off_size = hdr == 12 ? 8 : 4;
	p += hdr;
	end = p + len;
	u->end = (uint64_t)(end - info->data);
	if (end - p < 2)
		return -1;
	u->version = (uint16_t)rd(u, p, 2);
	p += 2;
	if (u->version < 2 || u->version > 5)
		return -1;
	if (u->version >= 5) {
		if (end - p < 2 + u->off_size)
			return -1;
		u->type = p[0];
		u->addr_size = p[1];
		u->abbrev_off = rd(u, p + 2, u->off_size);
		p += 2 + u->off_size;
		/* a skeleton's dwo_id, a type unit's signature and type offset */
		if (u->type == DW_UT_skeleton || u->type == DW_UT_split_compile)
			p += 8;
		else if (u->type == DW_UT_type || u->type == DW_UT_split_type)
			p += 8 + u->off_size;
	} else {
		if (end - p < 1 + u->off_size)
			return -1;
		u->type = DW_UT_compile;
		u->abbrev_off = rd(u, p, u->off_size);
		u->addr_size = p[u->off_size];
		p += 1 + u->off_size;
	}
	if (p > end || (u->addr_size != 4 && u->addr_size != 8 && u->addr_size != 2))
		return -1;
	u->first_die = (uint64_t)(p - info->data);
	return 0;
}

/* The unit at off without its abbreviations: 0, 1 past the section,
 * -1 when its header is corrupt. */
static int unit_header(const struct dw_secs *s, uint64_t off, struct dw_unit *u)
{
	memset(u, 0, sizeof(*u));
	u->secs = s;
	u->off = off;
	if (!s->info.data || off >= s->info.size)
		return 1;
	if (read_header(s, off, u))
		return -1;
	/* DWARF 5's defaults where a unit names no base: just past the
	 * tables' headers, as libdwarf assumes */
	u->str_offsets_base = u->off_size == 8 ? 16 : 8;
	u->rnglists_base = u->loclists_base = u->off_size == 8 ? 20 : 12;
	u->addr_base = u->off_size == 8 ? 16 : 8;
	return 0;
}

static int unit_open(const struct dw_secs *s, uint64_t off, bool lazy, struct dw_unit *u)
{
	int res = unit_header(s, off, u);

	if (res)
		return res;
	return read_abbrevs(u, u->abbrev_off, lazy, &u->ab) ? -1 : 0;
}

int dw_unit_open(const struct dw_secs *s, uint64_t off, struct dw_unit *u)
{
	return unit_open(s, off, false, u);
}

int dw_unit_open_lookup(const struct dw_secs *s, uint64_t off, struct dw_unit *u)
{
	return unit_open(s, off, true, u);
}

/* A table parsed whole, its arrays cut to what it holds: it is kept
 * for the rest of the image's reading. */
static struct dw_abbrevs *parse_kept(const struct dw_unit *u)
{
	struct dw_abbrevs *t = sp_xmalloc(sizeof(*t));

	if (read_abbrevs(u, u->abbrev_off, false, t)) {
		free(t);
		return NULL;
	}
	t->list = sp_xrealloc(t->list, (t->n ? t->n : 1) * sizeof(*t->list));
	t->specs = sp_xrealloc(t->specs, (t->nspecs ? t->nspecs : 1) * sizeof(*t->specs));
	t->cap = t->n;
	t->specs_cap = t->nspecs;
	return t;
}

int dw_unit_open_shared(const struct dw_secs *s, uint64_t off, dw_abbrevs_slot *slot,
			struct dw_unit *u)
{
	struct dw_abbrevs *t, *none = NULL;
	int res = unit_header(s, off, u);

	if (res)
		return res;
	t = atomic_load_explicit(slot, memory_order_acquire);
	if (!t) {
		if (!(t = parse_kept(u)))
			return -1;
		/* two readers parsed it at once: the first one's is kept */
		if (!atomic_compare_exchange_strong_explicit(slot, &none, t, memory_order_acq_rel,
							     memory_order_acquire)) {
			dw_abbrevs_free(t);
			t = none;
		}
	}
	u->ab = *t;
	u->ab_shared = true;
	return 0;
}

void dw_abbrevs_free(struct dw_abbrevs *t)
{
	if (!t)
		return;
	abbrevs_release(t);
	free(t);
}

bool dw_unit_take_base(struct dw_unit *u, const struct dw_val *v)
{
	uint64_t *base, off;

	switch (v->at) {
	case DW_AT_str_offsets_base:
		base = &u->str_offsets_base;
		break;
	case DW_AT_addr_base:
	case DW_AT_GNU_addr_base:
		base = &u->addr_base;
		break;
	case DW_AT_rnglists_base:
		base = &u->rnglists_base;
		break;
	case DW_AT_loclists_base:
		base = &u->loclists_base;
		break;
	default:
		return false;
	}
	if (dw_val_offset(v, &off))
		*base = off;
	return true;
}

void dw_unit_take_low_pc(struct dw_unit *u, const struct dw_val *v)
{
	u->has_base = dw_val_addr(u, v, &u->base);
	if (!u->has_base)
		u->base = 0;
}

int dw_unit_read_bases(struct dw_unit *u)
{
	struct dw_val v, low_pc = { 0 };
	struct dw_attr_iter it;
	struct dw_die d;
	int res;

	if (dw_die_read(u, u->first_die, &d) || !d.ab)
		return -1;
	dw_attrs_begin(&it, u, &d);
	while ((res = dw_attrs_next(&it, &v)) > 0)
		if (!dw_unit_take_base(u, &v) && v.at == DW_AT_low_pc)
			low_pc = v;
	if (res < 0)
		return -1;
	if (low_pc.form)
		dw_unit_take_low_pc(u, &low_pc);
	return 0;
}

void dw_unit_close(struct dw_unit *u)
{
	if (!u->ab_shared)
		abbrevs_release(&u->ab);
	memset(u, 0, sizeof(*u));
}

/* ---- DIEs and their attribute values ---- */

int dw_die_read(const struct dw_unit *u, uint64_t off, struct dw_die *d)
{
	const unsigned char *base = u->secs->info.data, *p;
	uint64_t code;

	memset(d, 0, sizeof(*d));
	d->off = off;
	if (off < u->first_die || off >= u->end)
		return -1;
	p = base + off;
	if (!dw_uleb(&p, base + u->end, &code))
		return -1;
	d->attrs = (uint64_t)(p - base);
	if (!code)
		return 0;	/* a null entry: the end of a list of siblings */
	d->ab = abbrev_of(u, code);
	return d->ab ? 0 : -1;
}

void dw_attrs_begin(struct dw_attr_iter *it, const struct dw_unit *u, const struct dw_die *d)
{
	it->u = u;
	it->ab = d->ab;
	it->i = 0;
	it->p = u->secs->info.data + d->attrs;
	it->end = u->secs->info.data + u->end;
}

/* A block of len bytes at *p, its length read already. */
static bool take_block(struct dw_attr_iter *it, uint64_t len, struct dw_val *v)
{
	if (len > (uint64_t)(it->end - it->p))
		return false;
	v->block = it->p;
	v->len = len;
	it->p += len;
	return true;
}

static bool take_fixed(struct dw_attr_iter *it, unsigned n, struct dw_val *v)
{
	if ((uint64_t)(it->end - it->p) < n)
		return false;
	v->u = rd(it->u, it->p, n);
	it->p += n;
	return true;
}

static bool take_string(struct dw_attr_iter *it, struct dw_val *v)
{
	const unsigned char *nul = memchr(it->p, 0, (size_t)(it->end - it->p));

	if (!nul)
		return false;
	v->block = it->p;
	v->len = (uint64_t)(nul - it->p);
	it->p = nul + 1;
	return true;
}

/* The value of form at it->p into v; false when it does not fit. */
static bool take_form(struct dw_attr_iter *it, uint64_t form, int64_t implicit,
		      struct dw_val *v, int indirections)
{
	const struct dw_unit *u = it->u;
	uint64_t n;

	v->form = (uint16_t)form;
	switch (form) {
	case DW_FORM_addr:
		return take_fixed(it, u->addr_size, v);
	case DW_FORM_data1: case DW_FORM_ref1: case DW_FORM_flag:
	case DW_FORM_strx1: case DW_FORM_addrx1:
		return take_fixed(it, 1, v);
	case DW_FORM_data2: case DW_FORM_ref2: case DW_FORM_strx2: case DW_FORM_addrx2:
		return take_fixed(it, 2, v);
	case DW_FORM_strx3: case DW_FORM_addrx3:
		return take_fixed(it, 3, v);
	case DW_FORM_data4: case DW_FORM_ref4: case DW_FORM_strx4: case DW_FORM_addrx4:
	case DW_FORM_ref_sup4:
		return take_fixed(it, 4, v);
	case DW_FORM_data8: case DW_FORM_ref8: case DW_FORM_ref_sig8: case DW_FORM_ref_sup8:
		return take_fixed(it, 8, v);
	case DW_FORM_data16:
		return take_block(it, 16, v);
	case DW_FORM_strp: case DW_FORM_line_strp: case DW_FORM_sec_offset:
	case DW_FORM_strp_sup: case DW_FORM_GNU_ref_alt: case DW_FORM_GNU_strp_alt:
		return take_fixed(it, u->off_size, v);
	case DW_FORM_ref_addr:	/* DWARF 2 sized it as an address */
		return take_fixed(it, u->version == 2 ? u->addr_size : u->off_size, v);
	case DW_FORM_udata: case DW_FORM_ref_udata: case DW_FORM_strx: case DW_FORM_addrx:
	case DW_FORM_loclistx: case DW_FORM_rnglistx:
	case DW_FORM_GNU_addr_index: case DW_FORM_GNU_str_index:
		return dw_uleb(&it->p, it->end, &v->u);
	case DW_FORM_sdata:
		if (!dw_read_sleb(&it->p, it->end, &v->s))
			return false;
		v->u = (uint64_t)v->s;
		return true;
	case DW_FORM_implicit_const:
		v->s = implicit;
		v->u = (uint64_t)implicit;
		return true;
	case DW_FORM_flag_present:
		v->u = 1;
		return true;
	case DW_FORM_string:
		return take_string(it, v);
	case DW_FORM_block1:
		return take_fixed(it, 1, v) && take_block(it, v->u, v);
	case DW_FORM_block2:
		return take_fixed(it, 2, v) && take_block(it, v->u, v);
	case DW_FORM_block4:
		return take_fixed(it, 4, v) && take_block(it, v->u, v);
	case DW_FORM_block: case DW_FORM_exprloc:
		return dw_uleb(&it->p, it->end, &n) && take_block(it, n, v);
	case DW_FORM_indirect:
		return indirections == 0 && dw_uleb(&it->p, it->end, &n) &&
		       take_form(it, n, 0, v, 1);
	}
	return false;	/* a form of no DWARF version */
}

int dw_attrs_next(struct dw_attr_iter *it, struct dw_val *v)
{
	const struct dw_attr_spec *spec;

	if (!it->ab || it->i >= it->ab->n)
		return 0;
	spec = &it->u->ab.specs[it->ab->first + it->i++];
	memset(v, 0, sizeof(*v));
	v->at = spec->at;
	return take_form(it, spec->form, spec->implicit, v, 0) ? 1 : -1;
}

bool dw_die_has(const struct dw_unit *u, const struct dw_die *d, uint16_t at)
{
	const struct dw_attr_spec *spec = u->ab.specs + d->ab->first;
	uint32_t i;

	for (i = 0; i < d->ab->n; i++)
		if (spec[i].at == at)
			return true;
	return false;
}

bool dw_die_attr_nth(const struct dw_unit *u, const struct dw_die *d, uint32_t i,
		     struct dw_val *v)
{
	const struct dw_attr_spec *spec = u->ab.specs + d->ab->first;
	struct dw_attr_iter it;

	if (i >= d->ab->n)
		return false;
	dw_attrs_begin(&it, u, d);
	if (spec[i].pos != DW_POS_VARIES) {
		/* straight to it: the values before it fit when it starts
		 * inside the unit */
		if (spec[i].pos > it.end - it.p)
			return false;
		it.p += spec[i].pos;
		it.i = i;
		return dw_attrs_next(&it, v) > 0;
	}
	while (dw_attrs_next(&it, v) > 0)
		if (it.i == i + 1)
			return true;
	return false;
}

bool dw_die_attr(const struct dw_unit *u, const struct dw_die *d, uint16_t at,
		 struct dw_val *v)
{
	const struct dw_attr_spec *spec = u->ab.specs + d->ab->first;
	uint32_t i;

	for (i = 0; i < d->ab->n && spec[i].at != at; i++)
		;
	return dw_die_attr_nth(u, d, i, v);	/* false when its abbreviation has none */
}

uint64_t dw_attrs_end(const struct dw_attr_iter *it)
{
	return (uint64_t)(it->p - it->u->secs->info.data);
}

int dw_die_attrs_end(const struct dw_unit *u, const struct dw_die *d, uint64_t *next)
{
	struct dw_attr_iter it;
	struct dw_val v;
	int res;

	/* values of fixed sizes are stepped over whole: each one decoded
	 * only to be passed was a third of reading a function's children */
	if (d->ab && d->ab->size != DW_POS_VARIES) {
		if ((uint64_t)d->ab->size > u->end - d->attrs)
			return -1;
		*next = d->attrs + (uint64_t)d->ab->size;
		return 0;
	}
	dw_attrs_begin(&it, u, d);
	while ((res = dw_attrs_next(&it, &v)) > 0)
		;
	*next = dw_attrs_end(&it);
	return res;
}

/* The sibling DW_AT_sibling names, 0 when d has none: the value of the
 * abbreviation's sibling attribute, reached by decoding those before it. */
static int sibling_attr(const struct dw_unit *u, const struct dw_die *d, uint64_t *sib)
{
	struct dw_attr_iter it;
	struct dw_val v;
	int32_t pos;

	*sib = 0;
	if (!d->ab || d->ab->sibling < 0)
		return 0;
	dw_attrs_begin(&it, u, d);
	pos = u->ab.specs[d->ab->first + (uint32_t)d->ab->sibling].pos;
	if (pos != DW_POS_VARIES) {
		/* straight to it, as dw_entry_attr goes */
		if (pos > it.end - it.p)
			return -1;
		it.p += pos;
		it.i = (uint32_t)d->ab->sibling;
	}
	while (dw_attrs_next(&it, &v) > 0)
		if ((int32_t)it.i - 1 == d->ab->sibling) {
			*sib = dw_val_ref(u, &v);
			return 0;
		}
	return -1;
}

int dw_die_next(const struct dw_unit *u, const struct dw_die *d, uint64_t children_end,
		uint64_t *next, int depth)
{
	uint64_t sib, off;
	struct dw_die c;
	int res;

	if (depth > DW_MAX_DIE_DEPTH)
		return -1;
	/* a DW_AT_sibling is followed, as libdwarf follows it, even past
	 * children walked: only where it points is checked */
	if (sibling_attr(u, d, &sib))
		return -1;
	if (sib) {
		*next = sib;
		return sib > d->off && sib < u->end ? 0 : -2;
	}
	if (children_end) {
		*next = children_end;
		return 0;
	}
	if (dw_die_attrs_end(u, d, &off) < 0)
		return -1;
	if (!d->ab->children) {
		*next = off;
		return 0;
	}
	/* no DW_AT_sibling: step over every child, and the null entry */
	for (;;) {
		if (dw_die_read(u, off, &c))
			return -1;
		if (!c.ab) {
			*next = c.attrs;
			return 0;
		}
		if ((res = dw_die_next(u, &c, 0, &off, depth + 1)))
			return res;
	}
}

/* ---- what a value says ---- */

static const char *str_at(const struct dw_section *s, uint64_t off)
{
	if (!s->data || off >= s->size || !memchr(s->data + off, 0, (size_t)(s->size - off)))
		return NULL;
	return (const char *)s->data + off;
}

bool dw_table_entry(const struct dw_unit *u, const struct dw_section *s, uint64_t base,
		    uint64_t i, unsigned size, uint64_t *out)
{
	if (!s->data || i > (UINT64_MAX - base) / size || !in_sec(s, base + i * size, size))
		return false;
	*out = rd(u, s->data + base + i * size, size);
	return true;
}

const char *dw_val_string(const struct dw_unit *u, const struct dw_val *v)
{
	const struct dw_secs *s = u->secs;
	uint64_t off;

	switch (v->form) {
	case DW_FORM_string:
		return (const char *)v->block;
	case DW_FORM_strp:
		return str_at(&s->str, v->u);
	case DW_FORM_line_strp:
		return str_at(&s->line_str, v->u);
	case DW_FORM_strx: case DW_FORM_strx1: case DW_FORM_strx2: case DW_FORM_strx3:
	case DW_FORM_strx4: case DW_FORM_GNU_str_index:
		if (!dw_table_entry(u, &s->str_offsets, u->str_offsets_base, v->u, u->off_size,
				 &off))
			return NULL;
		return str_at(&s->str, off);
	}
	return NULL;
}

bool dw_val_addr(const struct dw_unit *u, const struct dw_val *v, uint64_t *addr)
{
	switch (v->form) {
	case DW_FORM_addr:
		*addr = v->u;
		return true;
	case DW_FORM_addrx: case DW_FORM_addrx1: case DW_FORM_addrx2: case DW_FORM_addrx3:
	case DW_FORM_addrx4: case DW_FORM_GNU_addr_index:
		return dw_table_entry(u, &u->secs->addr, u->addr_base, v->u, u->addr_size, addr);
	}
	return false;
}

bool dw_val_udata(const struct dw_val *v, uint64_t *out)
{
	switch (v->form) {
	case DW_FORM_data1: case DW_FORM_data2: case DW_FORM_data4: case DW_FORM_data8:
	case DW_FORM_udata:
		*out = v->u;
		return true;
	case DW_FORM_sdata: case DW_FORM_implicit_const:
		*out = (uint64_t)v->s;
		return v->s >= 0;
	}
	return false;
}

bool dw_val_sdata(const struct dw_val *v, int64_t *out)
{
	switch (v->form) {
	case DW_FORM_data1:
		*out = (int8_t)v->u;
		return true;
	case DW_FORM_data2:
		*out = (int16_t)v->u;
		return true;
	case DW_FORM_data4:
		*out = (int32_t)v->u;
		return true;
	case DW_FORM_data8:
		*out = (int64_t)v->u;
		return true;
	case DW_FORM_sdata: case DW_FORM_implicit_const:
		*out = v->s;
		return true;
	}
	return false;
}

uint64_t dw_val_ref(const struct dw_unit *u, const struct dw_val *v)
{
	switch (v->form) {
	case DW_FORM_ref1: case DW_FORM_ref2: case DW_FORM_ref4: case DW_FORM_ref8:
	case DW_FORM_ref_udata:
		return v->u > UINT64_MAX - u->off ? 0 : u->off + v->u;
	case DW_FORM_ref_addr:
		return v->u;
	}
	return 0;	/* a type signature, another file's DIE: not in this walk */
}

bool dw_val_flag(const struct dw_val *v)
{
	return (v->form == DW_FORM_flag || v->form == DW_FORM_flag_present) && v->u;
}

bool dw_val_block(const struct dw_val *v, const unsigned char **p, uint64_t *len)
{
	switch (v->form) {
	case DW_FORM_exprloc: case DW_FORM_block: case DW_FORM_block1: case DW_FORM_block2:
	case DW_FORM_block4:
		*p = v->block;
		*len = v->len;
		return true;
	}
	return false;
}

bool dw_val_offset(const struct dw_val *v, uint64_t *off)
{
	switch (v->form) {
	case DW_FORM_sec_offset: case DW_FORM_data4: case DW_FORM_data8:
		*off = v->u;
		return true;
	}
	return false;
}
