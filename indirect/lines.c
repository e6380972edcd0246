/*
 * lines.c - the source line of each indirect call site, for the JSON
 * report: the line table of its function's compile unit, read once per
 * unit (the sites taken unit by unit), the row at or before the call.
 */
#include "indirect/run.h"

#include <stdlib.h>
#include <string.h>

#include "common/search.h"
#include "common/xalloc.h"

struct row {
	uint64_t addr;
	uint32_t line, file;
};

struct rows {
	struct row *v;
	size_t n, cap;
};

static int row_cmp(const void *pa, const void *pb)
{
	const struct row *a = pa, *b = pb;

	return (a->addr > b->addr) - (a->addr < b->addr);
}

static uint64_t row_addr(const void *base, size_t i)
{
	return ((const struct row *)base)[i].addr;
}

/* The rows of the unit whose DIE is at cu_off, by address; an end of a
 * sequence is a row of line 0 (no line after it). */
static void read_rows(Dwarf_Debug dbg, Dwarf_Off cu_off, struct rows *out)
{
	Dwarf_Die cu = dw_die_at(dbg, cu_off);
	Dwarf_Error derr = NULL;
	Dwarf_Unsigned version;
	Dwarf_Small tables;
	Dwarf_Line_Context ctx = NULL;
	Dwarf_Line *lines = NULL;
	Dwarf_Signed n = 0, i;

	out->n = 0;
	if (!cu || dwarf_srclines_b(cu, &version, &tables, &ctx, &derr) != DW_DLV_OK)
		goto out;
	if (dwarf_srclines_from_linecontext(ctx, &lines, &n, &derr) != DW_DLV_OK)
		n = 0;
	for (i = 0; i < n; i++) {
		Dwarf_Addr addr = 0;
		Dwarf_Unsigned line = 0, file = 0;
		Dwarf_Bool end = 0;

		if (dwarf_lineaddr(lines[i], &addr, &derr) != DW_DLV_OK ||
		    dwarf_lineno(lines[i], &line, &derr) != DW_DLV_OK ||
		    dwarf_line_srcfileno(lines[i], &file, &derr) != DW_DLV_OK ||
		    dwarf_lineendsequence(lines[i], &end, &derr) != DW_DLV_OK) {
			dw_drop_error(dbg, &derr);
			continue;
		}
		SP_ALLOC_GROW(out->v, out->n + 1, out->cap);
		out->v[out->n].addr = addr;
		out->v[out->n].line = end ? 0 : (uint32_t)line;
		out->v[out->n++].file = (uint32_t)file;
	}
	if (out->n)
		qsort(out->v, out->n, sizeof(*out->v), row_cmp);
	dwarf_srclines_dealloc_b(ctx);
out:
	dw_drop_error(dbg, &derr);
	if (cu)
		dwarf_dealloc_die(cu);
}

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
	struct ind_image *im = NULL;
	struct rows rows = { 0 };

	for (i = 0; i < g->nisites; i++)
		order[i] = i;
	if (g->nisites)
		qsort_r(order, g->nisites, sizeof(*order), by_cu, g);
	for (i = 0; i < g->nisites; i++) {
		struct sp_isite *s = &g->isites[order[i]];
		uint32_t c = g->funcs[s->func].cu;
		size_t k;

		if (!s->addr || c == SP_NONE)
			continue;
		if (c != cu) {
			cu = c;
			im = image_of_cu(r, c);
			rows.n = 0;
			if (im)
				read_rows(im->dbg, im->dw->cu_die_off[c - im->dw->cu_first], &rows);
		}
		k = sp_search_last_le(rows.v, rows.n, row_addr, s->addr);
		if (k >= rows.n || !rows.v[k].line)
			continue;
		s->line = rows.v[k].line;
		/* relative to the build directory, as dwarf/walk.c reads them */
		s->file = dw_cu_file(im->dw, c, rows.v[k].file);
	}
	free(rows.v);
	free(order);
}
