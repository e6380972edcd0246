/*
 * split.c - the DWARF walk on two cores.
 *
 * A second thread walks the later units of .debug_info with a
 * Dwarf_Debug of its own (libdwarf's are not to be shared between
 * threads) into a shadow image: its own records, and a graph of its own
 * for the CUs and the strings it interns.  When both are done, its
 * records are appended to the image's with their indices moved and
 * their strings interned in the image's graph, so that the result is the
 * one a single walk in unit order gives.
 */
#include "callgraph/internal.h"

#include <malloc.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"

struct cg_split {
	struct cg_image shadow;	/* the thread's records; shadow.g is &g */
	struct sp_graph g;
	pthread_mutex_t srcfiles_lock;	/* img's and the shadow's */
	struct cg_image *img;
	struct cg_units units;
	struct sp_err err;
	int res;
	pthread_t thread;
};

static void *split_thread(void *arg)
{
	struct cg_split *w = arg;

	w->res = cg_dwarf_walk_units(&w->shadow, &w->units, &w->err);
	return NULL;
}

static void split_release(struct cg_split *w)
{
	struct cg_image *s = &w->shadow;
	Dwarf_Error derr = NULL;

	cg_release_records(s);
	if (s->dbg)
		dwarf_object_finish(s->dbg, &derr);
	sp_graph_release(&w->g);
	if (w->img) {
		w->img->srcfiles_lock = NULL;
		pthread_mutex_destroy(&w->srcfiles_lock);
	}
	free(w);
}

struct cg_split *cg_split_start(struct cg_image *img, uint64_t from)
{
	struct cg_split *w = sp_xcalloc(1, sizeof(*w));
	struct cg_image *s = &w->shadow;
	Dwarf_Error derr = NULL;

	sp_graph_init(&w->g);
	s->path = img->path;
	s->opts = img->opts;
	s->opts.progress = NULL;	/* the main thread reports both */
	s->elf = img->elf;		/* read only: the code, for Clang's tail calls */
	s->g = &w->g;
	sp_u64map_init(&s->sub_by_off, 4096);
	w->units.from = from;
	w->units.to = UINT64_MAX;
	w->units.dwobj = &img->dwobj;
	w->units.dropped = from;
	if (cg_dwobj_open_again(&img->dwobj, &s->dbg, &derr) != DW_DLV_OK) {
		if (derr)
			dwarf_dealloc_error(NULL, derr);
		s->dbg = NULL;
		split_release(w);
		return NULL;
	}
	pthread_mutex_init(&w->srcfiles_lock, NULL);
	w->img = img;
	img->srcfiles_lock = s->srcfiles_lock = &w->srcfiles_lock;
	if (pthread_create(&w->thread, NULL, split_thread, w)) {
		split_release(w);
		return NULL;
	}
	return w;
}

const _Atomic uint32_t *cg_split_done(const struct cg_split *w)
{
	return &w->units.done;
}

void cg_split_abandon(struct cg_split *w)
{
	pthread_join(w->thread, NULL);
	split_release(w);
}

static const char *reintern(struct sp_graph *g, const char *s)
{
	return s ? sp_intern(g, s) : NULL;
}

static void merge_cus(struct cg_image *img, struct cg_split *w)
{
	struct cg_image *s = &w->shadow;
	struct sp_graph *g = img->g;
	uint32_t i, own = img->ncus_own + s->ncus_own;
	Dwarf_Signed k;

	img->files = sp_xrealloc(img->files, (own ? own : 1) * sizeof(*img->files));
	img->cu_die_off = sp_xrealloc(img->cu_die_off,
				      (own ? own : 1) * sizeof(*img->cu_die_off));
	for (i = 0; i < s->ncus_own; i++) {
		const struct sp_cu *from = &w->g.cus[i];
		uint32_t cu = sp_graph_add_cu(g);
		struct cg_cu_files *f = &img->files[img->ncus_own + i];

		g->cus[cu].name = reintern(g, from->name);
		g->cus[cu].comp_dir = reintern(g, from->comp_dir);
		g->cus[cu].producer = reintern(g, from->producer);
		g->cus[cu].dwarf_version = from->dwarf_version;
		img->cu_die_off[img->ncus_own + i] = s->cu_die_off[i];
		*f = s->files[i];	/* the names array changes hands */
		s->files[i].names = NULL;
		for (k = 0; f->names && k < f->count; k++)
			f->names[k] = reintern(g, f->names[k]);
	}
	img->ncus_own = own;
}

/* The second walker's DIE offset map changes hands as it is: no walk
 * looks a DIE up (cg_sub_at comes after), so the walkers' DIEs are
 * disjoint, and putting 860k offsets again (1M functions) cost more than
 * a second probe for the offsets past the split. */
static void merge_subs(struct cg_image *img, struct cg_image *s, uint64_t split_off,
		       uint32_t cu_base, uint32_t range_base)
{
	size_t i, base = img->nsubs;

	SP_BIG_GROW(img->subs, base + s->nsubs, img->subs_cap);
	for (i = 0; i < s->nsubs; i++) {
		struct cg_sub *d = &img->subs[base + i];

		*d = s->subs[i];
		d->cu += cu_base;
		d->range_first += d->nranges ? range_base : 0;
		d->name = reintern(img->g, d->name);
		d->linkage = reintern(img->g, d->linkage);
		d->file = reintern(img->g, d->file);
	}
	img->nsubs = base + s->nsubs;
	img->split_by_off = s->sub_by_off;
	img->split_off = split_off;
	img->split_base = base;
	memset(&s->sub_by_off, 0, sizeof(s->sub_by_off));
}

static void merge_sites(struct cg_image *img, const struct cg_image *s, uint32_t sub_base)
{
	size_t i, base = img->nsites;

	SP_BIG_GROW(img->sites, base + s->nsites, img->sites_cap);
	for (i = 0; i < s->nsites; i++) {
		img->sites[base + i] = s->sites[i];
		if (s->sites[i].sub != SP_NONE)	/* SP_NONE: outside any subprogram */
			img->sites[base + i].sub += sub_base;
	}
	img->nsites = base + s->nsites;
}

int cg_split_finish(struct cg_split *w, struct cg_image *img, struct sp_err *err)
{
	struct cg_image *s = &w->shadow;
	uint32_t cu_base = img->g->ncus, range_base = (uint32_t)img->nxranges;
	uint32_t sub_base = (uint32_t)img->nsubs;

	pthread_join(w->thread, NULL);
	if (w->res) {
		*err = w->err;
		split_release(w);
		return -1;
	}
	merge_cus(img, w);
	if (s->nxranges) {
		SP_ALLOC_GROW(img->xranges, img->nxranges + s->nxranges, img->xranges_cap);
		memcpy(img->xranges + img->nxranges, s->xranges,
		       s->nxranges * sizeof(*s->xranges));
		img->nxranges += s->nxranges;
	}
	merge_subs(img, s, w->units.from, cu_base, range_base);
	merge_sites(img, s, sub_base);
	img->stats.call_sites += s->stats.call_sites;
	img->stats.split_units += s->ncus_own;
	split_release(w);
	/* what the thread allocated, freed now, stays in its own malloc
	 * arena, where the main thread's allocations never go: hand it back
	 * (on a kernel 15 MB, which would otherwise add to the peak RSS) */
	malloc_trim(0);
	return 0;
}
