/*
 * describe.c - what makes a dynamic frame dynamic, named: a
 * variable-length array in DWARF (dwarf/vla.c), else what the code
 * shows (insn/pushargs.c: a call's stack arguments pushed), else
 * alloca(); and --vla's list of every VLA and alloca user.
 */
#include "frames/frames.h"

#include <stdio.h>
#include <string.h>

#include "common/xalloc.h"
#include "insn/passes.h"

static bool is_dynamic(const struct sp_func *f)
{
	return f->qual == SP_QUAL_DYNAMIC || f->qual == SP_QUAL_BOUNDED;
}

static const char *cause_text(struct sp_graph *g, const struct sp_vla *v)
{
	char buf[512];
	const char *file = v->file ? strrchr(v->file, '/') : NULL;

	file = file ? file + 1 : v->file;
	if (file)
		snprintf(buf, sizeof(buf), "VLA '%s' at %s:%u",
			 v->name ? v->name : "?", file, v->line);
	else
		snprintf(buf, sizeof(buf), "VLA '%s'", v->name ? v->name : "?");
	return sp_intern(g, buf);
}

/* GCC's "dynamic,bounded" for a call's pushed stack arguments, as
 * insn/pushargs.c reads the code (x86 only: elsewhere nothing is said). */
static bool only_pushes_args(const struct sp_func *f, const struct insn_func *c)
{
	return c && (c->flags & INSN_FUNC_PUSHED) && !(c->flags & INSN_FUNC_ALLOCA) &&
	       f->qual == SP_QUAL_BOUNDED;
}

static const struct insn_func *code_of(struct cg_image *img, const struct sp_func *f)
{
	return insn_image_func(cg_code(img), f->addr, f->size);
}

/* No VLA in f's DWARF, or no DWARF for f (a shared library without its
 * debug file's DWARF): what the code shows. */
static const char *no_vla_text(struct sp_graph *g, struct cg_image *img,
			       const struct sp_func *f, bool dwarf)
{
	const struct insn_func *c = code_of(img, f);
	char buf[512];
	uint32_t callee;

	if (c && f->src == SP_SRC_CODE && f->qual == SP_QUAL_BOUNDED &&
	    (c->flags & INSN_FUNC_BOUNDED))
		return sp_intern(g, "alloca() of a size the code masks first "
				    "(the mask's largest value counted)");
	if (!only_pushes_args(f, c) && dwarf)
		return sp_intern(g, "alloca() or a dynamic stack adjustment "
				    "(no variable-length array in DWARF)");
	if (!only_pushes_args(f, c))
		return sp_intern(g, "alloca() or a variable-length array, the code moving "
				    "the stack pointer by a register; no DWARF for it");
	callee = c->pushed_callee ? cg_func_at(img, c->pushed_callee) : SP_NONE;
	if (callee != SP_NONE && g->funcs[callee].name)
		snprintf(buf, sizeof(buf), "stack arguments pushed for a call to %s",
			 g->funcs[callee].name);
	else
		snprintf(buf, sizeof(buf), "stack arguments pushed for a call");
	return sp_intern(g, buf);
}

static bool keep_first(void *ctx, const struct sp_vla *v)
{
	*(struct sp_vla *)ctx = *v;
	return true;
}

/* An unreadable subtree only loses the cause's name. */
static void describe_image(struct sp_graph *g, struct cg_image *img)
{
	struct dw_image *dw = NULL;
	uint32_t first, end, i;

	cg_funcs(img, &first, &end);
	for (i = first; i < end && i < g->nfuncs; i++) {
		struct sp_func *f = &g->funcs[i];
		struct sp_vla v = { .func = SP_NONE };

		if (!is_dynamic(f))
			continue;
		if (!dw)	/* the image's DWARF is opened again for these only */
			dw = cg_dwarf(img);
		if (!dw_func_vlas(dw, i, keep_first, &v)) {
			if (!f->die)
				f->dyn_cause = no_vla_text(g, img, f, false);
			continue;
		}
		if (v.func != SP_NONE)
			f->dyn_cause = cause_text(g, &v);
		else
			f->dyn_cause = no_vla_text(g, img, f, true);
		dw_done_reading(dw);
	}
}

void frames_describe(struct sp_graph *g, struct cg_image *const *imgs, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		describe_image(g, imgs[i]);
}

struct collect {
	struct sp_graph *g;
	uint32_t found;		/* VLAs of the current function */
};

/* DWARF's decl_file is comp_dir/name; the function's file may be .su's
 * shorter spelling of the same file: report that one, as other tables do. */
static const char *same_file(const char *vla_file, const char *func_file)
{
	size_t n, m;

	if (!vla_file || !func_file || vla_file == func_file)
		return vla_file;
	n = strlen(vla_file);
	m = strlen(func_file);
	if (m < n && vla_file[n - m - 1] == '/' && !strcmp(vla_file + n - m, func_file))
		return func_file;
	return vla_file;
}

static bool append_vla(void *ctx, const struct sp_vla *v)
{
	struct collect *c = ctx;
	struct sp_graph *g = c->g;

	SP_ALLOC_GROW(g->vlas, g->nvlas + 1, g->vlas_cap);
	g->vlas[g->nvlas] = *v;
	g->vlas[g->nvlas].file = same_file(v->file, g->funcs[v->func].file);
	g->nvlas++;
	c->found++;
	return false;
}

static void find_image_vlas(struct sp_graph *g, struct cg_image *img)
{
	struct dw_image *dw = cg_dwarf(img);
	uint32_t first, end, i;

	cg_funcs(img, &first, &end);
	for (i = first; i < end && i < g->nfuncs; i++) {
		const struct sp_func *f = &g->funcs[i];
		struct collect c = { .g = g };
		struct sp_vla v = { .func = i, .kind = SP_VLA_ALLOCA };

		dw_func_vlas(dw, i, append_vla, &c);
		if (c.found || !is_dynamic(f))
			continue;
		if (only_pushes_args(f, code_of(img, f)))
			continue;
		/* a dynamic frame without a VLA: alloca(), which leaves no
		 * trace in DWARF; place it at the function */
		v.file = f->file;
		v.line = f->line;
		v.col = f->col;
		append_vla(&c, &v);
	}
	cg_dwarf_done(img);	/* every function's DIEs were read */
}

void frames_find_vlas(struct sp_graph *g, struct cg_image *const *imgs, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		find_image_vlas(g, imgs[i]);
}
