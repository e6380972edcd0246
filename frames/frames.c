/*
 * frames.c - every function's frame, decided in one place (see frames.h
 * for the order of the sources).
 */
#include "frames/frames.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"
#include "elf/arch.h"
#include "elf/orc.h"

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
	void *(*open)(struct cg_image *img, size_t wanted, const struct frame_opts *o,
		      struct frame_stats *st);
	bool (*frame)(void *state, const struct sp_func *f, uint64_t *bytes,
		      enum sp_qual *qual);
	void (*close)(void *state);
};

/* ---- ORC (elf/orc.c) ---- */

struct orc_source {
	struct cg_image *img;
	struct orc_table t;
	struct frame_stats *st;
	const struct frame_opts *o;
	const char *first_cut;	/* the first function whose code goes past its end */
	uint32_t ncut;
};

static void warnf(const struct frame_opts *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void warnf(const struct frame_opts *o, const char *fmt, ...)
{
	char msg[sizeof(((struct sp_err *)0)->msg) + 128];
	va_list ap;

	if (!o->warn)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	o->warn(o->warn_ctx, msg);
}

/* A table that cannot be trusted is a warning, and gives no frame. */
static void *orc_open(struct cg_image *img, size_t wanted, const struct frame_opts *o,
		      struct frame_stats *st)
{
	const struct sp_elf *e = cg_elf(img);
	struct orc_layout layout = { e->sec_base, e->nsec };
	struct orc_source *x = sp_xcalloc(1, sizeof(*x));
	struct sp_err err;

	(void)wanted;
	x->img = img;
	x->st = st;
	x->o = o;
	if (orc_table_read(&x->t, e->elf, &layout, cg_path(img), &err)) {
		warnf(o, "%s: no frames taken from ORC", err.msg);
		free(x);
		return NULL;
	}
	if (!x->t.n) {
		orc_table_release(&x->t);
		free(x);
		return NULL;
	}
	return x;
}

/* Does f's range hold all its code: inside one section, and ending
 * where a function may end or another one starts?  Else its rows past
 * the end are not seen. */
static bool whole_code(const struct orc_source *x, const struct sp_func *f)
{
	const struct sp_elf *e = cg_elf(x->img);
	uint64_t end = f->addr + f->size;

	if (!sp_elf_code_at(e, f->addr, f->size))
		return false;
	return orc_can_end(&x->t, end) || sp_u64map_get(&e->sym_by_addr, end) != SP_NONE ||
	       cg_func_at(x->img, end) != SP_NONE;
}

static bool orc_source_frame(void *state, const struct sp_func *f, uint64_t *bytes,
			     enum sp_qual *qual)
{
	struct orc_source *x = state;
	enum orc_frame_kind kind;

	*qual = SP_QUAL_STATIC;
	if (!f->size)
		return false;
	kind = orc_frame(&x->t, f->addr, f->addr + f->size, bytes);
	if (kind == ORC_FRAME_OTHER && f->src == SP_SRC_NONE)
		x->st->orc_not_sp++;
	if (kind != ORC_FRAME_SP)
		return false;
	if (!whole_code(x, f)) {
		if (!x->ncut++)
			x->first_cut = f->symbol ? f->symbol : f->name;
		return false;
	}
	return true;
}

static void orc_close(void *state)
{
	struct orc_source *x = state;

	if (x->ncut)
		warnf(x->o, "'%s': the code of %u function%s goes on past %s end (first %s): "
		      "no ORC frame for %s", cg_path(x->img), x->ncut, x->ncut == 1 ? "" : "s",
		      x->ncut == 1 ? "its" : "their", x->first_cut, x->ncut == 1 ? "it" : "them");
	orc_table_release(&x->t);
	free(x);
}

/* ---- CFI (dwarf/cfi.c) ---- */

static void *cfi_open(struct cg_image *img, size_t wanted, const struct frame_opts *o,
		      struct frame_stats *st)
{
	(void)st;
	return dw_cfi_open(cg_dwarf(img), wanted, o->cfi_lookup);
}

static bool cfi_frame(void *state, const struct sp_func *f, uint64_t *bytes,
		      enum sp_qual *qual)
{
	*qual = SP_QUAL_STATIC;
	return dw_cfi_frame(state, f->addr, bytes);
}

static void cfi_close(void *state)
{
	dw_cfi_close(state);
}

/* ---- the code (insn/stack.c) ---- */

static void *code_open(struct cg_image *img, size_t wanted, const struct frame_opts *o,
		       struct frame_stats *st)
{
	(void)wanted, (void)o, (void)st;
	return img;	/* the code was read with the image */
}

/* What insn/stack.c read of the function's code. */
static bool code_frame(void *state, const struct sp_func *f, uint64_t *bytes,
		       enum sp_qual *qual)
{
	const struct insn_func *c = insn_image_func(cg_code(state), f->addr, f->size);

	if (!c || !(c->flags & INSN_FUNC_FRAME))
		return false;
	*bytes = c->frame;
	*qual = c->flags & INSN_FUNC_BOUNDED ? SP_QUAL_BOUNDED :
		c->flags & INSN_FUNC_DYNAMIC ? SP_QUAL_DYNAMIC : SP_QUAL_STATIC;
	return true;
}

static void code_close(void *state)
{
	(void)state;
}

/* Precedence after the lists, highest first. */
static const struct image_source sources[] = {
	{ SP_SRC_ORC, orc_open, orc_source_frame, orc_close },
	{ SP_SRC_CFI, cfi_open, cfi_frame, cfi_close },
	{ SP_SRC_CODE, code_open, code_frame, code_close },
};

static bool has_code(const struct sp_func *f)
{
	return (f->flags & SP_F_HAS_CODE) && !(f->flags & SP_F_EXTERNAL);
}

/* Asked: no frame yet; with -v every function, to compare with .su. */
static bool asked(const struct sp_func *f, const struct frame_opts *o)
{
	return has_code(f) && (f->src == SP_SRC_NONE || o->compare);
}

static void ask(struct sp_graph *g, struct cg_image *img, const struct image_source *s,
		const struct frame_opts *o, struct frame_stats *st)
{
	uint32_t first, end, i;
	size_t wanted = 0;
	void *state;

	cg_funcs(img, &first, &end);
	for (i = first; i < end; i++)
		wanted += asked(&g->funcs[i], o);
	if (!wanted || !(state = s->open(img, wanted, o, st)))
		return;
	for (i = first; i < end; i++) {
		struct sp_func *f = &g->funcs[i];
		enum sp_qual qual;
		uint64_t bytes;

		if (!asked(f, o) || !s->frame(state, f, &bytes, &qual))
			continue;
		if (f->src == SP_SRC_NONE) {
			give(f, s->src, qual, bytes, st);
		} else if (f->src == SP_SRC_SU && f->qual == SP_QUAL_STATIC) {
			st->checked[s->src]++;
			st->agree[s->src] += qual == SP_QUAL_STATIC && f->self == bytes;
		} else if (f->src == SP_SRC_ORC && s->src == SP_SRC_CFI) {
			st->orc_cfi_checked++;
			st->orc_cfi_agree += f->self == bytes;
			st->orc_cfi_less += bytes < f->self;
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

/*
 * Lazy binding's frames (callgraph/lazy.c).  A slot's stub: the call's
 * return address and the two words the PLT pushes (x86-64; AArch64's
 * header pushes x16 and x30).  ld.so's resolver saves the vector
 * registers in an area as large as the CPU's XSAVE state, which the code
 * reads from memory (sub _rtld_global_ro+N(%rip),%rsp): the largest
 * glibc 2.36 sizes it, by the state components it saves (SSE, AVX, MPX
 * bounds, AVX-512): compacted (xsavec) 2,560 bytes, in the standard
 * layout (xsave, on processors without xsavec) 2,752, each with its
 * 64-byte register block, on top of what the code shows (the pushes,
 * the alignment to 64 at worst, the return address).
 */
#define XSAVEC_MAX 2560
#define XSAVE_MAX 2752
#define RESOLVER_FIXED 72

static void lazy_frames(struct sp_graph *g, uint16_t machine, struct frame_stats *st)
{
	uint32_t id;

	for (id = 0; id < g->nfuncs; id++) {
		struct sp_func *f = &g->funcs[id];
		const char *s = f->symbol ? f->symbol : f->name;
		uint64_t area;

		if (f->flags & SP_F_LAZY) {
			give(f, SP_SRC_CODE, SP_QUAL_STATIC, sp_arch(machine)->lazy_frame, st);
			continue;
		}
		if (!(f->flags & SP_F_RESOLVER) || f->src == SP_SRC_ANNOT || f->src == SP_SRC_SU ||
		    (f->qual == SP_QUAL_STATIC && f->src != SP_SRC_NONE))
			continue;
		area = strstr(s, "xsavec") ? XSAVEC_MAX : XSAVE_MAX;
		give(f, SP_SRC_CODE, SP_QUAL_BOUNDED, RESOLVER_FIXED + area, st);
		f->dyn_cause = sp_intern(g, "the vector registers' XSAVE area, sized by the CPU");
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
		/* an inlined copy's frame is part of its caller's */
		if (g->funcs[id].flags & SP_F_INLINED) {
			g->funcs[id].qual = SP_QUAL_STATIC;
			g->funcs[id].src = SP_SRC_INLINED;
		}
	}
	give_list(g, annot, SP_SRC_ANNOT, st);
	give_list(g, su, SP_SRC_SU, st);
	for (k = 0; k < sizeof(sources) / sizeof(sources[0]); k++)
		for (i = 0; i < n; i++)
			ask(g, imgs[i], &sources[k], o, st);
	for (i = 0; i < n; i++)
		red_zones(g, imgs[i], st);
	lazy_frames(g, g->machine, st);
}
