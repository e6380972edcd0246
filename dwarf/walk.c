/*
 * walk.c - one pass over .debug_info collecting subprograms and call sites.
 *
 * Only the DIEs that can hold code or calls are entered (subprograms,
 * inlined subroutines, lexical blocks, namespaces); types and variables are
 * skipped with their whole subtree.  DIEs skipped this way that turn out to
 * be needed (a member function's declaration, a DIE in another unit) are
 * read on demand by dw_sub_at() (reader.c).  The DIEs are read from the
 * section bytes (die.c).  A large image's units are shared out between
 * two threads (split.c).
 */
#include "dwarf/internal.h"

#include <stdlib.h>
#include <string.h>

#include "common/path.h"
#include "common/search.h"
#include "common/xalloc.h"

/* The unit a walk is in. */
struct walk_cu {
	uint32_t cu;		/* graph CU index */
	const struct dw_unit *u;
};

const char *dw_cu_file(const struct dw_image *dw, uint32_t cu, uint64_t n)
{
	const struct dw_cu_files *f;
	uint64_t i;

	if (cu < dw->cu_first || cu - dw->cu_first >= dw->ncus)
		return NULL;
	f = &dw->st->files[cu - dw->cu_first];
	if (!f->names || n < (uint64_t)f->base || !f->count)
		return NULL;
	/* unsigned: a DW_AT_decl_file near 2^64 must not wrap */
	i = n - (uint64_t)f->base;
	if (i >= f->count)
		return NULL;
	return f->names[i];
}

/* ---- ranges ---- */

struct range_sink {
	struct dw_image *dw;
	struct dw_sub *s;
};

static void add_xrange(void *ctx, uint64_t lo, uint64_t hi)
{
	struct range_sink *r = ctx;
	struct dw_image *dw = r->dw;

	if (hi <= lo)
		return;
	if (!r->s->nranges)
		r->s->range_first = (uint32_t)dw->nxranges;
	SP_ALLOC_GROW(dw->xranges, dw->nxranges + 1, dw->xranges_cap);
	dw->xranges[dw->nxranges].lo = lo;
	dw->xranges[dw->nxranges].hi = hi;
	dw->nxranges++;
	r->s->nranges++;
}

/* ---- subprograms and call sites ---- */

static const char *val_string(struct dw_image *dw, const struct dw_unit *u,
			      const struct dw_val *v)
{
	const char *s = dw_val_string(u, v);

	/* the string lives in the section: intern a copy */
	return s ? sp_intern(dw->g, s) : NULL;
}

static uint64_t val_udata(const struct dw_val *v)
{
	uint64_t n = 0;

	return dw_val_udata(v, &n) ? n : 0;
}

static uint64_t val_addr(const struct dw_unit *u, const struct dw_val *v)
{
	uint64_t a = 0;

	return dw_val_addr(u, v, &a) ? a : 0;
}

/* DW_AT_high_pc: an address, or (a constant) the size from DW_AT_low_pc */
struct high_pc {
	bool present, is_size;
	uint64_t v;
};

static void sub_attr(struct dw_image *dw, const struct walk_cu *wc, const struct dw_val *v,
		     struct dw_sub *s, struct high_pc *high)
{
	const struct dw_unit *u = wc->u;
	struct range_sink sink = { dw, s };

	switch (v->at) {
	case DW_AT_name:
		s->name = val_string(dw, u, v);
		break;
	case DW_AT_linkage_name:
	case DW_AT_MIPS_linkage_name:
		s->linkage = val_string(dw, u, v);
		break;
	case DW_AT_low_pc:
		s->lo = val_addr(u, v);
		break;
	case DW_AT_high_pc:
		high->is_size = dw_val_udata(v, &high->v);
		high->present = high->is_size || dw_val_addr(u, v, &high->v);
		break;
	case DW_AT_ranges:
		/* an unreadable range list loses one function, not the run */
		dw_val_ranges(u, v, add_xrange, &sink);
		break;
	case DW_AT_abstract_origin:
		s->origin = dw_val_ref(u, v);
		break;
	case DW_AT_specification:
		s->spec = dw_val_ref(u, v);
		break;
	case DW_AT_decl_file:
		s->file = dw_cu_file(dw, wc->cu, val_udata(v));
		break;
	case DW_AT_decl_line:
		s->line = (uint32_t)val_udata(v);
		break;
	case DW_AT_decl_column:
		s->col = (uint32_t)val_udata(v);
		break;
	case DW_AT_declaration:
		s->declaration = dw_val_flag(v);
		break;
	case DW_AT_external:
		s->external = dw_val_flag(v);
		break;
	case DW_AT_call_all_calls:
	case DW_AT_GNU_all_call_sites:
		s->all_calls = dw_val_flag(v);
		break;
	}
}

static int corrupt_die(const struct dw_image *dw, uint64_t off, struct sp_err *err)
{
	return sp_err_set(err, "'%s': corrupt DWARF: the DIE at 0x%llx cannot be read",
			  dw->path, (unsigned long long)off);
}

/* The record of the subprogram d, its attributes read to *end. */
static uint32_t read_sub(struct dw_image *dw, const struct walk_cu *wc, const struct dw_die *d,
			 uint64_t *end, struct sp_err *err)
{
	struct dw_attr_iter it;
	struct high_pc high = { 0 };
	struct dw_val v;
	struct dw_sub *s;
	uint32_t idx;
	int res;

	SP_BIG_GROW(dw->subs, dw->nsubs + 1, dw->subs_cap);
	idx = (uint32_t)dw->nsubs++;
	s = &dw->subs[idx];
	memset(s, 0, sizeof(*s));
	s->off = d->off;
	s->cu = wc->cu;
	s->func = SP_NONE;
	dw_attrs_begin(&it, wc->u, d);
	while ((res = dw_attrs_next(&it, &v)) > 0)
		sub_attr(dw, wc, &v, s, &high);
	if (res < 0) {
		corrupt_die(dw, d->off, err);
		return SP_NONE;
	}
	*end = dw_attrs_end(&it);
	if (high.present)
		s->hi = high.is_size ? s->lo + high.v : high.v;
	if (!s->hi && s->nranges) {
		s->lo = dw->xranges[s->range_first].lo;
		s->hi = dw->xranges[s->range_first].hi;
	}
	sp_u64map_put(&dw->st->sub_by_off, d->off, idx);
	return idx;
}

/* A call target expression that is just DW_OP_addr is a direct call. */
static void call_target(const struct dw_unit *u, const struct dw_val *v, struct dw_site *site)
{
	struct dw_opsizes z = dw_unit_opsizes(u);
	const unsigned char *b = NULL;
	uint64_t len = 0;

	site->computed = !dw_val_block(v, &b, &len) || !dw_expr_addr(b, len, &z, &site->target);
}

static void site_attr(const struct dw_unit *u, const struct dw_val *v, struct dw_site *site)
{
	switch (v->at) {
	case DW_AT_call_return_pc:
	case DW_AT_low_pc:	/* DW_TAG_GNU_call_site: the return address */
		site->ret_pc = val_addr(u, v);
		break;
	case DW_AT_call_pc:
		site->call_pc = val_addr(u, v);
		break;
	case DW_AT_call_origin:
	case DW_AT_abstract_origin:
		site->origin = dw_val_ref(u, v);
		break;
	case DW_AT_call_target:
	case DW_AT_GNU_call_site_target:
		call_target(u, v, site);
		break;
	case DW_AT_call_tail_call:
	case DW_AT_GNU_tail_call:
		site->tail = dw_val_flag(v);
		break;
	case DW_AT_type:	/* DWARF 5: the type of the called function */
		site->type = dw_val_ref(u, v);
		break;
	}
}

static int read_site(struct dw_image *dw, const struct walk_cu *wc, const struct dw_die *d,
		     uint32_t sub, struct sp_err *err)
{
	struct dw_attr_iter it;
	struct dw_site *site;
	struct dw_val v;
	int res;

	SP_BIG_GROW(dw->sites, dw->nsites + 1, dw->sites_cap);
	site = &dw->sites[dw->nsites];
	memset(site, 0, sizeof(*site));
	site->sub = sub;
	dw_attrs_begin(&it, wc->u, d);
	while ((res = dw_attrs_next(&it, &v)) > 0)
		site_attr(wc->u, &v, site);
	if (res < 0)
		return corrupt_die(dw, d->off, err);
	/* Clang places a tail call by its jump (DW_AT_call_pc) and gives no
	 * return address: the graph builder reads the jump for one */
	if (site->ret_pc || site->call_pc)
		dw->nsites++;
	dw->call_sites++;
	return 0;
}

/* ---- the walk ---- */

static int walk_children(struct dw_image *dw, const struct walk_cu *wc, uint64_t first,
			 uint32_t sub, int depth, uint64_t *end, struct sp_err *err);

/* Past d's attributes, where its first child is. */
static int attrs_end(const struct dw_image *dw, const struct walk_cu *wc,
		     const struct dw_die *d, uint64_t *end, struct sp_err *err)
{
	return dw_die_attrs_end(wc->u, d, end) ? corrupt_die(dw, d->off, err) : 0;
}

/* Walk d's children when it has any: *children_end is then past them. */
static int enter(struct dw_image *dw, const struct walk_cu *wc, const struct dw_die *d,
		 uint64_t first, uint32_t sub, int depth, uint64_t *children_end,
		 struct sp_err *err)
{
	if (!d->ab->children)
		return 0;
	return walk_children(dw, wc, first, sub, depth + 1, children_end, err);
}

/* -1 on error; *children_end is set when d's children were walked */
static int visit(struct dw_image *dw, const struct walk_cu *wc, const struct dw_die *d,
		 uint32_t sub, int depth, uint64_t *children_end, struct sp_err *err)
{
	uint64_t first = 0;

	switch (d->ab->tag) {
	case DW_TAG_subprogram:
		sub = read_sub(dw, wc, d, &first, err);
		if (sub == SP_NONE)
			return -1;
		if (dw->subs[sub].declaration)
			return 0;
		return enter(dw, wc, d, first, sub, depth, children_end, err);
	case DW_TAG_call_site:
	case DW_TAG_GNU_call_site:
		return read_site(dw, wc, d, sub, err);
	case DW_TAG_variable:
		if (dw->st->opts.vars)
			dw_read_var(dw, wc->u, d);
		return 0;
	case DW_TAG_formal_parameter:
		if (dw->st->opts.vars && sub != SP_NONE)
			dw_read_param(dw, wc->u, d);
		return 0;
	case DW_TAG_inlined_subroutine:
	case DW_TAG_lexical_block:
	case DW_TAG_try_block:
	case DW_TAG_catch_block:
	case DW_TAG_namespace:
		if (attrs_end(dw, wc, d, &first, err))
			return -1;
		return enter(dw, wc, d, first, sub, depth, children_end, err);
	}
	return 0;
}

static int sibling_err(const struct dw_image *dw, uint64_t off, struct sp_err *err)
{
	return sp_err_set(err, "'%s': corrupt DWARF: a DW_AT_sibling at or under the DIE at "
			  "0x%llx does not point past its DIE inside its unit", dw->path,
			  (unsigned long long)off);
}

/* The DIEs from first on to their null entry; *end is past that. */
static int walk_children(struct dw_image *dw, const struct walk_cu *wc, uint64_t first,
			 uint32_t sub, int depth, uint64_t *end, struct sp_err *err)
{
	uint64_t off = first;
	struct dw_die d;
	int res;

	if (depth > DW_MAX_DIE_DEPTH)
		return sp_err_set(err, "'%s': DWARF DIEs nested too deeply", dw->path);
	for (;;) {
		uint64_t children_end = 0;

		if (dw_die_read(wc->u, off, &d))
			return corrupt_die(dw, off, err);
		if (!d.ab) {
			*end = d.attrs;
			return 0;
		}
		if (visit(dw, wc, &d, sub, depth, &children_end, err))
			return -1;
		res = dw_die_next(wc->u, &d, children_end, &off, depth);
		if (res == -2)
			return sibling_err(dw, d.off, err);
		if (res)
			return sp_err_set(err, "'%s': corrupt DWARF: a DIE at or under 0x%llx "
					  "cannot be read", dw->path, (unsigned long long)d.off);
	}
}

static void report_progress(const struct dw_image *dw, const struct dw_units *u,
			    bool end)
{
	uint32_t done = atomic_load(&u->done);

	if (!dw->st->opts.progress || !u->total)
		return;
	if (u->other)
		done += atomic_load(u->other);
	if (end || done > u->total)
		done = u->total;
	dw->st->opts.progress(dw->st->opts.progress_arg, dw->path, done, u->total);
}

/* ---- units ---- */

/* What the walk reads of a unit's own DIE. */
struct cu_die {
	struct dw_val name, comp_dir, producer, low_pc;	/* form 0: none */
	uint64_t stmt_list;
	bool has_stmt_list;
	uint64_t first_child;
};

static void cu_attr(struct dw_unit *u, const struct dw_val *v, struct cu_die *c)
{
	if (dw_unit_take_base(u, v))
		return;
	switch (v->at) {
	case DW_AT_name:
		c->name = *v;
		break;
	case DW_AT_comp_dir:
		c->comp_dir = *v;
		break;
	case DW_AT_producer:
		c->producer = *v;
		break;
	case DW_AT_low_pc:	/* an addrx form: addr_base may come later */
		c->low_pc = *v;
		break;
	case DW_AT_stmt_list:
		c->has_stmt_list = dw_val_offset(v, &c->stmt_list);
		break;
	}
}

/* The unit's DIE: its bases into u, its names and line table into c. */
static int read_cu_die(const struct dw_image *dw, struct dw_unit *u, struct dw_die *d,
		       struct cu_die *c, struct sp_err *err)
{
	struct dw_attr_iter it;
	struct dw_val v;
	int res;

	memset(c, 0, sizeof(*c));
	if (dw_die_read(u, u->first_die, d) || !d->ab)
		return corrupt_die(dw, u->first_die, err);
	dw_attrs_begin(&it, u, d);
	while ((res = dw_attrs_next(&it, &v)) > 0)
		cu_attr(u, &v, c);
	if (res < 0)
		return corrupt_die(dw, d->off, err);
	/* now that every base is known */
	if (c->low_pc.form)
		dw_unit_take_low_pc(u, &c->low_pc);
	c->first_child = dw_attrs_end(&it);
	return 0;
}

struct file_list {
	struct dw_image *dw;
	struct dw_cu_files *f;
	const char *comp_dir;
	size_t cap;
};

static void add_file(void *ctx, const char *path)
{
	struct file_list *l = ctx;

	SP_ALLOC_GROW(l->f->names, (size_t)l->f->count + 1, l->cap);
	l->f->names[l->f->count++] = sp_intern(l->dw->g, sp_path_in_dir(path, l->comp_dir));
}

/* The unit's file names from its line table header (lines.c), numbered
 * as the table numbers them: arm-none-eabi-gcc 12 writes DWARF 5 units
 * whose line tables (from binutils' as) are version 3, counted from 1.
 * None when the header cannot be read. */
static void read_line_files(struct dw_image *dw, const struct cu_die *c,
			    struct dw_cu_files *f, const char *comp_dir)
{
	struct file_list l = { .dw = dw, .f = f, .comp_dir = comp_dir };
	int first = dw_line_files(&dw->st->secs, c->stmt_list, comp_dir, add_file, &l);

	if (first >= 0) {
		f->base = first;
		return;
	}
	free(f->names);
	f->names = NULL;
	f->count = 0;
}

static void read_cu_files(struct dw_image *dw, const struct walk_cu *wc, const struct cu_die *c)
{
	const char *comp_dir = dw->g->cus[wc->cu].comp_dir;
	struct dw_cu_files *f = &dw->st->files[wc->cu - dw->cu_first];

	f->base = wc->u->version >= 5 ? 0 : 1;
	f->names = NULL;
	f->count = 0;
	if (c->has_stmt_list)
		read_line_files(dw, c, f, comp_dir);
}

static void begin_cu(struct dw_image *dw, const struct dw_die *d, const struct cu_die *c,
		     struct walk_cu *wc)
{
	struct sp_graph *g = dw->g;
	const struct dw_unit *u = wc->u;
	uint32_t cu = sp_graph_add_cu(g), i = cu - dw->cu_first;

	g->cus[cu].name = val_string(dw, u, &c->name);
	g->cus[cu].comp_dir = val_string(dw, u, &c->comp_dir);
	g->cus[cu].producer = val_string(dw, u, &c->producer);
	g->cus[cu].dwarf_version = u->version;
	dw->ncus = i + 1;
	dw->st->files = sp_xrealloc(dw->st->files, dw->ncus * sizeof(*dw->st->files));
	dw->st->cu_die_off = sp_xrealloc(dw->st->cu_die_off, dw->ncus * sizeof(*dw->st->cu_die_off));
	dw->st->cu_unit_off = sp_xrealloc(dw->st->cu_unit_off, dw->ncus * sizeof(*dw->st->cu_unit_off));
	dw->st->cu_die_off[i] = d->off;
	dw->st->cu_unit_off[i] = u->off;
	wc->cu = cu;
	read_cu_files(dw, wc, c);
}

static int corrupt_unit(const struct dw_image *dw, uint64_t off, struct sp_err *err)
{
	return sp_err_set(err, "'%s': corrupt DWARF: the unit at 0x%llx of .debug_info cannot "
			  "be read", dw->path, (unsigned long long)off);
}

/* The unit at off; *next is where the one after it starts, 0 at the end. */
static int walk_unit(struct dw_image *dw, uint64_t off, uint64_t *next, struct sp_err *err)
{
	struct dw_unit u;
	struct walk_cu wc = { .u = &u };
	struct cu_die c;
	struct dw_die d;
	uint64_t end;
	int res = dw_unit_open(&dw->st->secs, off, &u);

	*next = 0;
	if (res > 0)
		return 0;
	if (res < 0 || read_cu_die(dw, &u, &d, &c, err)) {
		dw_unit_close(&u);
		return res < 0 ? corrupt_unit(dw, off, err) : -1;
	}
	*next = u.end;
	begin_cu(dw, &d, &c, &wc);
	res = d.ab->children ? walk_children(dw, &wc, c.first_child, SP_NONE, 0, &end, err) : 0;
	dw_unit_close(&u);
	return res;
}

int dw_walk_units(struct dw_image *dw, struct dw_units *u, struct sp_err *err)
{
	uint64_t off = u->from, next;

	while (off < u->to) {
		if (walk_unit(dw, off, &next, err))
			return -1;
		if (!next)
			break;
		dw_obj_info_done(u->obj, &u->dropped, next);
		atomic_fetch_add(&u->done, 1);
		report_progress(dw, u, false);
		off = next;
	}
	return 0;
}

/* .debug_info from which a second thread walks the later units: below
 * it, starting the thread costs more than it saves */
#define SPLIT_WALK_DEFAULT (16u << 20)

/* Where the second walker starts, 0 for one walker. */
static uint64_t split_point(struct dw_image *dw)
{
	struct dw_obj *o = &dw->st->obj;
	uint64_t min = dw->st->opts.split_min ? dw->st->opts.split_min :
		       SPLIT_WALK_DEFAULT;

	/* two threads share only read-only mapped sections: an object's
	 * relocated copies and libelf's own reads are not for sharing */
	if (!o->map || dw->elf->type == ET_REL || o->any_inflated || o->info_size < min)
		return 0;
	return dw_obj_middle_unit(o);
}

int dw_walk(struct dw_image *dw, const struct dw_walk_opts *opts, struct sp_err *err)
{
	struct dw_units u = { .to = UINT64_MAX, .obj = &dw->st->obj };
	struct dw_split *w = NULL;
	uint64_t split;

	dw->st->opts = *opts;
	split = split_point(dw);
	dw_secs_init(&dw->st->obj, &dw->st->secs);
	dw->st->secs_ready = true;

	if (dw->st->opts.progress)
		u.total = dw_obj_count_units(&dw->st->obj);
	if (split)
		w = dw_split_start(dw, split);
	if (w) {
		u.to = split;
		u.other = dw_split_done(w);
	}
	if (dw_walk_units(dw, &u, err)) {
		if (w)
			dw_split_abandon(w);
		return -1;
	}
	/* the second walker's units come after these, as in one walk */
	if (w && dw_split_finish(w, dw, err))
		return -1;
	report_progress(dw, &u, true);
	dw->st->abbrevs = sp_xcalloc(dw->ncus ? dw->ncus : 1, sizeof(*dw->st->abbrevs));
	return 0;
}

/* ---- opening and closing ---- */

/* A hint, not a limit (the maps grow): 1 GiB of .debug_info is more
 * than any image has, and a hostile header may say anything. */
#define SUBS_HINT_MAX_INFO (UINT64_C(1) << 30)

size_t dw_subs_expected(uint64_t info_bytes)
{
	/* GCC's kernel DWARF: a subprogram DIE per 660 bytes of .debug_info.
	 * Sized so, the map is neither regrown through a kernel's walk nor
	 * 128 KB to clear for each of a thousand small modules. */
	if (info_bytes > SUBS_HINT_MAX_INFO)
		info_bytes = SUBS_HINT_MAX_INFO;
	return (size_t)(info_bytes / 640) + 64;
}

int dw_open(struct dw_image *dw, const char *path, const struct sp_elf *e,
	    struct sp_graph *g, struct sp_err *err)
{
	struct dw_obj *o;

	memset(dw, 0, sizeof(*dw));
	dw->path = path;
	dw->elf = e;
	dw->g = g;
	dw->cu_first = g->ncus;
	dw->st = sp_xcalloc(1, sizeof(*dw->st));
	o = &dw->st->obj;
	/* every image through the object interface: the readers read the
	 * sections where they are mapped instead of copying them to the heap
	 * (ET_REL objects get relocated copies) */
	dw_obj_open(o, e);
	dw->st->cfi = o;
	if (!dw_obj_has_dwarf(o))
		return sp_err_set(err, "'%s': no DWARF debug information (build with -g)", path);
	sp_u64map_init(&dw->st->sub_by_off, dw_subs_expected(o->map_len &&
		       o->info_size > o->map_len ? o->map_len : o->info_size));
	return 0;
}

int dw_open_debug(struct dw_image *dw, const struct sp_elf *d)
{
	struct dw_state *st = dw->st;
	struct dw_obj debug;

	dw_obj_open(&debug, d);
	if (!debug.info_ndx) {
		dw_obj_release(&debug);
		return -1;
	}
	st->image = st->obj;
	st->obj = debug;
	st->cfi = &st->image;
	return 0;
}

void dw_release_walk(struct dw_image *dw)
{
	sp_big_free(dw->subs, dw->subs_cap * sizeof(*dw->subs));
	dw->subs = NULL;
	dw->nsubs = dw->subs_cap = 0;
	sp_big_free(dw->sites, dw->sites_cap * sizeof(*dw->sites));
	dw->sites = NULL;
	dw->nsites = dw->sites_cap = 0;
	free(dw->xranges);
	dw->xranges = NULL;
	dw->nxranges = dw->xranges_cap = 0;
	if (!dw->st)		/* never opened */
		return;
	if (dw->st->sub_by_off.nslots)
		sp_u64map_release(&dw->st->sub_by_off);
	if (dw->st->split_by_off.nslots)
		sp_u64map_release(&dw->st->split_by_off);
}

void dw_release_records(struct dw_image *dw)
{
	uint32_t i;

	free(dw->vars);
	dw->vars = NULL;
	dw->nvars = dw->vars_cap = 0;
	free(dw->params);
	dw->params = NULL;
	dw->nparams = dw->params_cap = 0;
	free(dw->decl_vars);
	dw->decl_vars = NULL;
	dw->ndecl_vars = dw->decl_vars_cap = 0;
	dw_release_walk(dw);
	if (!dw->st)
		return;
	for (i = 0; dw->st->files && i < dw->ncus; i++)
		free(dw->st->files[i].names);
	for (i = 0; dw->st->abbrevs && i < dw->ncus; i++)
		dw_abbrevs_free(dw->st->abbrevs[i]);
	free((void *)dw->st->abbrevs);
	dw->st->abbrevs = NULL;
	free(dw->st->files);
	free(dw->st->cu_die_off);
	free(dw->st->cu_unit_off);
	dw->st->files = NULL;
	dw->st->cu_die_off = dw->st->cu_unit_off = NULL;
}

void dw_park(struct dw_image *dw)
{
	if (dw->st->pins)
		return;
	dw_reader_close(dw->st->reader);
	dw->st->reader = NULL;
	dw->st->secs_ready = false;
	dw_obj_free_copies(&dw->st->obj);
	dw_obj_drop(&dw->st->obj);
}

int dw_load_sections(struct dw_image *dw)
{
	if (!dw->st->secs_ready) {
		dw_secs_init(&dw->st->obj, &dw->st->secs);
		dw->st->secs_ready = true;
	}
	return dw->st->secs.info.data && dw->ncus ? 0 : -1;
}

struct dw_reader *dw_reader(struct dw_image *dw)
{
	if (!dw->st->reader)
		dw->st->reader = dw_reader_open(dw);
	return dw->st->reader;
}

void dw_pin(struct dw_image *dw)
{
	dw->st->pins++;
}

void dw_unpin(struct dw_image *dw)
{
	if (dw->st->pins)
		dw->st->pins--;
}

void dw_close(struct dw_image *dw)
{
	if (dw->st) {
		dw_release_records(dw);
		dw_reader_close(dw->st->reader);
		dw_obj_release(&dw->st->obj);
		if (dw->st->cfi == &dw->st->image)
			dw_obj_release(&dw->st->image);
		free(dw->st);
	}
	memset(dw, 0, sizeof(*dw));
}

/* ---- on-demand reads ---- */

/* The subs index of the DIE at off, SP_NONE when not read. */
static uint32_t sub_index(const struct dw_image *dw, uint64_t off)
{
	uint32_t idx;

	if (dw->st->split_by_off.nslots && off >= dw->st->split_off) {
		idx = sp_u64map_get(&dw->st->split_by_off, off);
		if (idx != SP_NONE)
			return (uint32_t)(dw->st->split_base + idx);
	}
	return sp_u64map_get(&dw->st->sub_by_off, off);
}

uint32_t dw_sub_at(struct dw_image *dw, uint64_t off)
{
	uint32_t idx = sub_index(dw, off);
	struct dw_reader *r;
	struct dw_entry e;
	struct walk_cu wc;
	uint64_t end;

	if (idx != SP_NONE || !off || !(r = dw_reader(dw)))
		return idx;
	dw_reader_begin(r);
	if (dw_entry_at(r, off, &e) && e.d.ab->tag == DW_TAG_subprogram) {
		wc.cu = e.cu;
		wc.u = e.u;
		idx = read_sub(dw, &wc, &e.d, &end, NULL);
	}
	dw_reader_end(r);
	return idx;
}

void dw_sub_resolve(struct dw_image *dw, uint32_t idx, struct dw_decl *out)
{
	int hops;

	memset(out, 0, sizeof(*out));
	out->abstract = SP_NONE;
	if (idx != SP_NONE && dw->subs[idx].origin)
		out->abstract = dw_sub_at(dw, dw->subs[idx].origin);
	for (hops = 0; idx != SP_NONE && hops < DW_MAX_ORIGIN_HOPS; hops++) {
		const struct dw_sub *s = &dw->subs[idx];
		uint64_t up = s->origin ? s->origin : s->spec;

		if (!out->name)
			out->name = s->name;
		if (!out->linkage)
			out->linkage = s->linkage;
		if (!out->file && s->file) {
			out->file = s->file;
			out->line = s->line;
			out->col = s->col;
		}
		if (!up)
			break;
		idx = dw_sub_at(dw, up);	/* may move dw->subs: s is dead now */
	}
}
