/*
 * frames.c - every function's frame, decided in one place (see frames.h
 * for the order of the sources).
 */
#include "frames/frames.h"

#include <string.h>

#include "insn/passes.h"

static void give(struct sp_func *f, enum sp_frame_src src, enum sp_qual qual, uint64_t bytes,
		 struct frame_stats *st)
{
	if (f->src != SP_SRC_NONE)
		st->from[f->src]--;	/* a later entry of the same source */
	f->self = bytes;
	f->qual = qual;
	f->src = src;
	st->from[src]++;
}

/* A list's frames, for the functions no earlier source gave one. */
static void give_list(struct sp_graph *g, const struct sp_frames *l, enum sp_frame_src src,
		      struct frame_stats *st)
{
	size_t i;

	for (i = 0; l && i < l->n; i++) {
		struct sp_func *f = &g->funcs[l->v[i].func];

		if (f->src == SP_SRC_NONE || f->src == src)
			give(f, src, l->v[i].qual, l->v[i].bytes, st);
	}
}

/* ---- the sources each image has ---- */

struct image_source {
	enum sp_frame_src src;
	/* ready to be asked about `wanted` functions of img; NULL: none */
	void *(*open)(struct cg_image *img, size_t wanted, const struct frame_opts *o);
	bool (*frame)(void *state, const struct sp_func *f, uint64_t *bytes);
	void (*close)(void *state);
};

static void *cfi_open(struct cg_image *img, size_t wanted, const struct frame_opts *o)
{
	return dw_cfi_open(cg_dwarf(img), wanted, o->cfi_lookup);
}

static bool cfi_frame(void *state, const struct sp_func *f, uint64_t *bytes)
{
	return dw_cfi_frame(state, f->addr, bytes);
}

static void cfi_close(void *state)
{
	dw_cfi_close(state);
}

/* Precedence after the lists, highest first. */
static const struct image_source sources[] = {
	{ SP_SRC_CFI, cfi_open, cfi_frame, cfi_close },
};

static bool has_code(const struct sp_func *f)
{
	return (f->flags & SP_F_HAS_CODE) && !(f->flags & SP_F_EXTERNAL);
}

/* Asked: no frame yet, or -v compares the CFI with .su. */
static bool asked(const struct sp_func *f, const struct image_source *s,
		  const struct frame_opts *o)
{
	return has_code(f) && (f->src == SP_SRC_NONE || (o->compare && s->src == SP_SRC_CFI));
}

static void ask(struct sp_graph *g, struct cg_image *img, const struct image_source *s,
		const struct frame_opts *o, struct frame_stats *st)
{
	uint32_t first, end, i;
	size_t wanted = 0;
	void *state;

	cg_funcs(img, &first, &end);
	for (i = first; i < end; i++)
		wanted += asked(&g->funcs[i], s, o);
	if (!wanted || !(state = s->open(img, wanted, o)))
		return;
	for (i = first; i < end; i++) {
		struct sp_func *f = &g->funcs[i];
		uint64_t bytes;

		if (!asked(f, s, o) || !s->frame(state, f, &bytes))
			continue;
		if (f->src == SP_SRC_NONE) {
			give(f, s->src, SP_QUAL_STATIC, bytes, st);
		} else if (f->src == SP_SRC_SU && f->qual == SP_QUAL_STATIC) {
			st->cfi_checked++;
			st->cfi_agree += f->self == bytes;
		}
	}
	s->close(state);
}

/* The bytes an x86-64 leaf keeps below its deepest stack pointer. */
static void red_zones(struct sp_graph *g, struct cg_image *img, struct frame_stats *st)
{
	struct insn_image *code = cg_code(img);
	uint32_t first, end, i;

	if (!cg_red_zone_counts(img))
		return;
	cg_funcs(img, &first, &end);
	for (i = first; i < end; i++) {
		struct sp_func *f = &g->funcs[i];
		const struct insn_func *c;

		if (!has_code(f) || !f->size || cg_in_plt(img, f->addr))
			continue;
		c = insn_image_func(code, f->addr, f->size);
		if (!c || !(c->flags & INSN_FUNC_LEAF))
			continue;
		f->red_zone = c->red_zone;
		st->red_zones += f->red_zone > 0;
	}
}

void frames_decide(struct sp_graph *g, struct cg_image *const *imgs, size_t n,
		   const struct sp_frames *annot, const struct sp_frames *su,
		   const struct frame_opts *o, struct frame_stats *st)
{
	size_t i, k;
	uint32_t id;

	memset(st, 0, sizeof(*st));
	for (id = 0; id < g->nfuncs; id++) {
		g->funcs[id].self = 0;
		g->funcs[id].qual = SP_QUAL_UNKNOWN;
		g->funcs[id].src = SP_SRC_NONE;
		g->funcs[id].red_zone = 0;
	}
	give_list(g, annot, SP_SRC_ANNOT, st);
	give_list(g, su, SP_SRC_SU, st);
	for (k = 0; k < sizeof(sources) / sizeof(sources[0]); k++)
		for (i = 0; i < n; i++)
			ask(g, imgs[i], &sources[k], o, st);
	for (i = 0; i < n; i++)
		red_zones(g, imgs[i], st);
}
