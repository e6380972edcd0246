/*
 * redzone.c - the red zones insn/redzone.c measured, given to the
 * functions of an image whose code may use one: x86-64, and no compile
 * unit built with -mno-red-zone (the Linux kernel, where interrupts
 * write below %rsp), its assembly included.
 */
#include "callgraph/internal.h"

#include <string.h>

/* Does a compile unit of this image forbid the red zone? */
static bool no_red_zone(const struct cg_image *img, const struct sp_graph *g)
{
	uint32_t i;

	for (i = img->dw.cu_first; i < img->dw.cu_first + img->dw.ncus; i++)
		if (g->cus[i].producer && strstr(g->cus[i].producer, "-mno-red-zone"))
			return true;
	return false;
}

static bool red_zones_apply(const struct cg_image *img, const struct sp_graph *g)
{
	return img->elf.machine == EM_X86_64 && !no_red_zone(img, g);
}

int cg_red_zones(struct cg_image *img, struct sp_graph *g, struct sp_err *err)
{
	uint32_t i;

	(void)err;
	if (!red_zones_apply(img, g))
		return 0;
	for (i = img->func_first; i < img->func_end; i++) {
		struct sp_func *f = &g->funcs[i];
		const struct insn_func *c;

		if (!(f->flags & SP_F_HAS_CODE) || (f->flags & SP_F_EXTERNAL) || !f->size ||
		    sp_elf_in_plt(&img->elf, f->addr))
			continue;
		c = insn_image_func(&img->code, f->addr, f->size);
		if (!c || !(c->flags & INSN_FUNC_LEAF))
			continue;
		f->red_zone = c->red_zone;
		if (f->red_zone)
			img->stats.red_zone_funcs++;
	}
	return 0;
}
