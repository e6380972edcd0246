/*
 * lines.c - the source line of each indirect call site, for the JSON
 * report: the line table of its function's compile unit, read once per
 * unit (the sites taken unit by unit), as dwarf/ reads it.
 */
#include "indirect/run.h"

#include <stdlib.h>

#include "common/xalloc.h"

/* The image whose DWARF made compile unit cu. */
static struct ind_image *image_of_cu(struct ind_run *r, uint32_t cu)
{
	size_t i;

	for (i = 0; i < r->nims; i++)
		if (cu >= r->ims[i].dw->cu_first && cu - r->ims[i].dw->cu_first < r->ims[i].dw->ncus)
			return &r->ims[i];
	return NULL;
}

static int by_cu(const void *pa, const void *pb, void *arg)
{
	const struct sp_graph *g = arg;
	const struct sp_isite *a = &g->isites[*(const uint32_t *)pa];
	const struct sp_isite *b = &g->isites[*(const uint32_t *)pb];
	uint32_t x = g->funcs[a->func].cu, y = g->funcs[b->func].cu;

	return (x > y) - (x < y);
}

void ind_site_lines(struct ind_run *r)
{
	struct sp_graph *g = r->g;
	uint32_t *order = sp_xmalloc((g->nisites + 1) * sizeof(*order)), i, cu = SP_NONE;
	struct dw_lines lines = { 0 };

	for (i = 0; i < g->nisites; i++)
		order[i] = i;
	if (g->nisites)
		qsort_r(order, g->nisites, sizeof(*order), by_cu, g);
	for (i = 0; i < g->nisites; i++) {
		struct sp_isite *s = &g->isites[order[i]];
		uint32_t c = g->funcs[s->func].cu, line;
		const char *file;

		if (!s->addr || c == SP_NONE)
			continue;
		if (c != cu) {
			struct ind_image *im = image_of_cu(r, c);

			cu = c;
			lines.n = 0;
			if (im && im->reader)
				dw_lines_read(im->reader, c, &lines);
		}
		if (!dw_lines_find(&lines, s->addr, &line, &file))
			continue;
		s->line = line;
		/* relative to the build directory, as dwarf/walk.c reads them */
		s->file = file;
	}
	dw_lines_release(&lines);
	free(order);
}
