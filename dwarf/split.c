/*
 * split.c - the DWARF walk on two cores.
 *
 * A second thread walks the later units of .debug_info, read from the
 * same mapped sections (die.c), into a shadow image: its own records,
 * and a graph of its own for the CUs and the strings it interns.  When
 * both are done, its records are appended to the image's with their indices moved and
 * their strings interned in the image's graph, so that the result is the
 * one a single walk in unit order gives.
 */
#include "dwarf/internal.h"

#include <malloc.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"

struct dw_split {
	struct dw_image shadow;	/* the thread's records; shadow.g is &g */
	struct dw_state shadow_st;
	struct sp_graph g;
	struct dw_units units;
	struct sp_err err;
	int res;
	pthread_t thread;
};

static void *split_thread(void *arg)
{
	struct dw_split *w = arg;

	w->res = dw_walk_units(&w->shadow, &w->units, &w->err);
	return NULL;
}

static void split_release(struct dw_split *w)
{
	dw_release_records(&w->shadow);
	sp_graph_release(&w->g);
	free(w);
}

struct dw_split *dw_split_start(struct dw_image *dw, uint64_t from)
{
	struct dw_split *w = sp_xcalloc(1, sizeof(*w));
	struct dw_image *s = &w->shadow;

	sp_graph_init(&w->g);
	s->st = &w->shadow_st;
	s->path = dw->path;
	s->st->opts = dw->st->opts;
	s->st->opts.progress = NULL;	/* the main thread reports both */
	s->elf = dw->elf;		/* read only: the code, for Clang's tail calls */
	s->st->secs = dw->st->secs;	/* mapped, read only */
	s->g = &w->g;
	sp_u64map_init(&s->st->sub_by_off, dw_subs_expected(dw->st->obj.info_size - from));
	w->units.from = from;
	w->units.to = UINT64_MAX;
	w->units.obj = &dw->st->obj;
	w->units.dropped = from;
	if (pthread_create(&w->thread, NULL, split_thread, w)) {
		split_release(w);
		return NULL;
	}
	return w;
}

const _Atomic uint32_t *dw_split_done(const struct dw_split *w)
{
	return &w->units.done;
}

void dw_split_abandon(struct dw_split *w)
{
	pthread_join(w->thread, NULL);
	split_release(w);
}

static const char *reintern(struct sp_graph *g, const char *s)
{
	return s ? sp_intern(g, s) : NULL;
}

static void merge_cus(struct dw_image *dw, struct dw_split *w)
{
	struct dw_image *s = &w->shadow;
	struct sp_graph *g = dw->g;
	uint32_t i, own = dw->ncus + s->ncus;
	uint32_t k;

	dw->st->files = sp_xrealloc(dw->st->files, (own ? own : 1) * sizeof(*dw->st->files));
	dw->st->cu_die_off = sp_xrealloc(dw->st->cu_die_off,
				      (own ? own : 1) * sizeof(*dw->st->cu_die_off));
	dw->st->cu_unit_off = sp_xrealloc(dw->st->cu_unit_off,
				       (own ? own : 1) * sizeof(*dw->st->cu_unit_off));
	for (i = 0; i < s->ncus; i++) {
		const struct sp_cu *from = &w->g.cus[i];
		uint32_t cu = sp_graph_add_cu(g);
		struct dw_cu_files *f = &dw->st->files[dw->ncus + i];

		g->cus[cu].name = reintern(g, from->name);
		g->cus[cu].comp_dir = reintern(g, from->comp_dir);
		g->cus[cu].producer = reintern(g, from->producer);
		g->cus[cu].dwarf_version = from->dwarf_version;
		dw->st->cu_die_off[dw->ncus + i] = s->st->cu_die_off[i];
		dw->st->cu_unit_off[dw->ncus + i] = s->st->cu_unit_off[i];
		*f = s->st->files[i];	/* the names array changes hands */
		s->st->files[i].names = NULL;
		for (k = 0; f->names && k < f->count; k++)
			f->names[k] = reintern(g, f->names[k]);
	}
	dw->ncus = own;
}

/* The second walker's DIE offset map changes hands as it is: no walk
 * looks a DIE up (dw_sub_at comes after), so the walkers' DIEs are
 * disjoint, and putting 860k offsets again (1M functions) cost more than
 * a second probe for the offsets past the split. */
static void merge_subs(struct dw_image *dw, struct dw_image *s, uint64_t split_off,
		       uint32_t cu_base, uint32_t range_base)
{
	size_t i, base = dw->nsubs;

	SP_BIG_GROW(dw->subs, base + s->nsubs, dw->subs_cap);
	for (i = 0; i < s->nsubs; i++) {
		struct dw_sub *d = &dw->subs[base + i];

		*d = s->subs[i];
		d->cu += cu_base;
		d->range_first += d->nranges ? range_base : 0;
		d->name = reintern(dw->g, d->name);
		d->linkage = reintern(dw->g, d->linkage);
		d->file = reintern(dw->g, d->file);
	}
	dw->nsubs = base + s->nsubs;
	dw->st->split_by_off = s->st->sub_by_off;
	dw->st->split_off = split_off;
	dw->st->split_base = base;
	memset(&s->st->sub_by_off, 0, sizeof(s->st->sub_by_off));
}

static void merge_sites(struct dw_image *dw, const struct dw_image *s, uint32_t sub_base)
{
	size_t i, base = dw->nsites;

	SP_BIG_GROW(dw->sites, base + s->nsites, dw->sites_cap);
	for (i = 0; i < s->nsites; i++) {
		dw->sites[base + i] = s->sites[i];
		if (s->sites[i].sub != SP_NONE)	/* SP_NONE: outside any subprogram */
			dw->sites[base + i].sub += sub_base;
	}
	dw->nsites = base + s->nsites;
}

int dw_split_finish(struct dw_split *w, struct dw_image *dw, struct sp_err *err)
{
	struct dw_image *s = &w->shadow;
	uint32_t cu_base = dw->g->ncus, range_base = (uint32_t)dw->nxranges;
	uint32_t sub_base = (uint32_t)dw->nsubs;

	pthread_join(w->thread, NULL);
	if (w->res) {
		*err = w->err;
		split_release(w);
		return -1;
	}
	merge_cus(dw, w);
	if (s->nxranges) {
		SP_ALLOC_GROW(dw->xranges, dw->nxranges + s->nxranges, dw->xranges_cap);
		memcpy(dw->xranges + dw->nxranges, s->xranges,
		       s->nxranges * sizeof(*s->xranges));
		dw->nxranges += s->nxranges;
	}
	if (s->nvars) {
		SP_ALLOC_GROW(dw->vars, dw->nvars + s->nvars, dw->vars_cap);
		memcpy(dw->vars + dw->nvars, s->vars, s->nvars * sizeof(*s->vars));
		dw->nvars += s->nvars;
	}
	if (s->ndecl_vars) {
		SP_ALLOC_GROW(dw->decl_vars, dw->ndecl_vars + s->ndecl_vars, dw->decl_vars_cap);
		memcpy(dw->decl_vars + dw->ndecl_vars, s->decl_vars,
		       s->ndecl_vars * sizeof(*s->decl_vars));
		dw->ndecl_vars += s->ndecl_vars;
	}
	if (s->nparams) {
		SP_ALLOC_GROW(dw->params, dw->nparams + s->nparams, dw->params_cap);
		memcpy(dw->params + dw->nparams, s->params, s->nparams * sizeof(*s->params));
		dw->nparams += s->nparams;
	}
	merge_subs(dw, s, w->units.from, cu_base, range_base);
	merge_sites(dw, s, sub_base);
	dw->call_sites += s->call_sites;
	dw->split_units += s->ncus;
	split_release(w);
	/* what the thread allocated, freed now, stays in its own malloc
	 * arena, where the main thread's allocations never go: hand it back
	 * (on a kernel 15 MB, which would otherwise add to the peak RSS) */
	malloc_trim(0);
	return 0;
}
