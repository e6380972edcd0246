/*
 * text.c - the human report: a table of every function, then the worst
 * paths frame by frame with the reasons a total has no bound.
 */
#include "report/report.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "common/xalloc.h"
#include "report/cells.h"

#define NAME_WIDTH_MAX 40	/* one C++ name must not push every row right */
#define CELL 48

static int width_of(const char *s, int max)
{
	size_t n = strlen(s);

	return n > (size_t)max ? max : (int)n;
}

struct table_widths {
	int total, self, qual, name;
};

static void measure_table(const struct sp_graph *g, const uint32_t *ids, size_t n,
			  struct table_widths *w)
{
	char cell[CELL];
	size_t i;

	w->total = (int)strlen("TOTAL ");
	w->self = (int)strlen("SELF");
	w->qual = (int)strlen("QUALIFIER");
	w->name = (int)strlen("FUNCTION");
	for (i = 0; i < n; i++) {
		const struct sp_func *f = &g->funcs[ids[i]];
		int k;

		sp_cell_total(&f->res, cell, sizeof(cell));
		if ((k = width_of(cell, CELL)) > w->total)
			w->total = k;
		sp_cell_self(f, cell, sizeof(cell));
		if ((k = width_of(cell, CELL)) > w->self)
			w->self = k;
		sp_cell_qual(f, cell, sizeof(cell));
		if ((k = width_of(cell, CELL)) > w->qual)
			w->qual = k;
		if ((k = width_of(sp_func_label(f), NAME_WIDTH_MAX)) > w->name)
			w->name = k;
	}
}

static bool has_red_zone(const struct sp_graph *g, const uint32_t *ids, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (g->funcs[ids[i]].red_zone)
			return true;
	return false;
}

static void print_table(const struct sp_graph *g, const uint32_t *ids, size_t n,
			FILE *out)
{
	struct table_widths w;
	char tcell[CELL], scell[CELL], qcell[CELL], loc[4096];
	size_t i;

	measure_table(g, ids, n, &w);
	fprintf(out, "  %*s  %*s  %-*s  %-*s  %s\n", w.total, "TOTAL ", w.self, "SELF",
		w.qual, "QUALIFIER", w.name, "FUNCTION", "LOCATION");
	for (i = 0; i < n; i++) {
		const struct sp_func *f = &g->funcs[ids[i]];

		sp_cell_total(&f->res, tcell, sizeof(tcell));
		sp_cell_self(f, scell, sizeof(scell));
		sp_cell_qual(f, qcell, sizeof(qcell));
		sp_cell_location(f, loc, sizeof(loc));
		fprintf(out, "  %*s  %*s  %-*s  %-*s  %s\n", w.total, tcell, w.self, scell,
			w.qual, qcell, w.name, sp_func_label(f), loc);
	}
	fputs("\n  '>= N' unbounded: there is no bound, N is the deepest path found\n"
	      "  'N+'   partial: frames without data (SELF '?') count 0\n", out);
	if (has_red_zone(g, ids, n))
		fputs("  SELF 'N+R': a frame of N bytes and R more below %rsp (red zone)\n", out);
	for (i = 0; i < n; i++)
		if (g->funcs[ids[i]].res.assumed && g->funcs[ids[i]].res.bounded)
			break;
	if (i < n)
		fputs("  '~ N'  bounded by assumption: indirect calls reach every "
		      "address-taken function\n"
		      "         (of the call's prototype, where DWARF types the call)\n", out);
}

/* The marks of a path frame, " [dynamic] [tail]", or "" for none; flags
 * are those of the edge that reaches it. */
static void marks_cell(const struct sp_func *f, uint8_t kind, uint8_t flags,
		       char *buf, size_t size)
{
	char rz[32] = "";

	if (f->red_zone)
		snprintf(rz, sizeof(rz), " [red-zone %" PRIu32 "]", f->red_zone);
	snprintf(buf, size, "%s%s%s%s%s%s%s%s%s",
		 f->qual == SP_QUAL_DYNAMIC || f->qual == SP_QUAL_BOUNDED ? " [dynamic]" : "",
		 f->flags & SP_F_RECURSIVE ? " [recursive]" : "",
		 f->n_indirect ? " [indirect]" : "",
		 f->qual == SP_QUAL_UNKNOWN ? " [unknown]" : "",
		 f->src == SP_SRC_CFI ? " [cfi]" : "", rz,
		 kind == SP_EDGE_TAIL ? " [tail]" : "",
		 flags & SP_EDGE_F_ANNOTATED ? " [annotated]" : "",
		 flags & SP_EDGE_F_ASSUMED ? " [assumed]" : "");
}

struct path {
	uint32_t *ids;
	uint8_t *kinds;
	uint64_t *cum;		/* stack in use while each frame runs */
	size_t n;
};

/* A tail callee's frame replaces its caller's instead of adding to it. */
static void path_load(const struct sp_graph *g, uint32_t id, struct path *p)
{
	size_t n = sp_worst_path(g, id, NULL, NULL, SIZE_MAX), i;

	p->ids = sp_xmalloc(n * sizeof(*p->ids));
	p->kinds = sp_xmalloc(n * sizeof(*p->kinds));
	p->cum = sp_xmalloc(n * sizeof(*p->cum));
	p->n = sp_worst_path(g, id, p->ids, p->kinds, n);
	for (i = 0; i < p->n; i++) {
		const struct sp_func *f = &g->funcs[p->ids[i]];
		uint64_t self = sp_frame_bytes(f);
		uint64_t base = 0;

		if (i) {
			const struct sp_func *prev = &g->funcs[p->ids[i - 1]];

			base = p->cum[i - 1];
			if (p->kinds[i] == SP_EDGE_TAIL)
				base -= sp_frame_bytes(prev) < base ? sp_frame_bytes(prev) : base;
		}
		p->cum[i] = base > UINT64_MAX - self ? UINT64_MAX : base + self;
	}
}

static void path_release(struct path *p)
{
	free(p->ids);
	free(p->kinds);
	free(p->cum);
}

static void print_reason(void *ctx, const char *reason)
{
	fprintf(ctx, "    reason: %s\n", reason);
}

static void print_path_head(const struct sp_func *f, unsigned rank, FILE *out)
{
	fprintf(out, "\n#%u %s: ", rank, sp_func_label(f));
	if (!f->res.bounded)
		fprintf(out, "at least %" PRIu64 " bytes, unbounded", f->res.total);
	else
		fprintf(out, "%" PRIu64 " bytes%s%s", f->res.total,
			f->res.partial ? " or more (partial)" : "",
			f->res.assumed ? ", assuming address-taken targets" : "");
	fputs(f->res.overflow ? " (saturated: the sum overflowed)\n" : "\n", out);
}

static void print_path(const struct sp_graph *g, uint32_t id, unsigned rank, FILE *out)
{
	struct path p;
	char scell[CELL], ccell[CELL], marks[128], loc[4096];
	int wself = (int)strlen("SELF"), wcum = (int)strlen("STACK"), wname = 8;
	int wloc = (int)strlen("LOCATION");
	size_t i;

	path_load(g, id, &p);
	for (i = 0; i < p.n; i++) {
		const struct sp_func *f = &g->funcs[p.ids[i]];
		int k;

		sp_cell_self(f, scell, sizeof(scell));
		snprintf(ccell, sizeof(ccell), "%" PRIu64, p.cum[i]);
		if ((k = width_of(scell, CELL)) > wself)
			wself = k;
		if ((k = width_of(ccell, CELL)) > wcum)
			wcum = k;
		if ((k = width_of(sp_func_label(f), NAME_WIDTH_MAX)) > wname)
			wname = k;
		sp_cell_location(f, loc, sizeof(loc));
		if ((k = width_of(loc, NAME_WIDTH_MAX)) > wloc)
			wloc = k;
	}
	print_path_head(&g->funcs[id], rank, out);
	fprintf(out, "    %*s  %*s  %-*s  %s\n", wself, "SELF", wcum, "STACK",
		wname, "FUNCTION", "LOCATION");
	for (i = 0; i < p.n; i++) {
		const struct sp_func *f = &g->funcs[p.ids[i]];

		sp_cell_self(f, scell, sizeof(scell));
		sp_cell_location(f, loc, sizeof(loc));
		marks_cell(f, p.kinds[i], i ? g->funcs[p.ids[i - 1]].res.next_flags : 0,
			   marks, sizeof(marks));
		/* pad the location only when marks follow: no trailing blanks */
		fprintf(out, "    %*s  %*" PRIu64 "  %-*s  %-*s%s\n", wself, scell, wcum,
			p.cum[i], wname, sp_func_label(f), marks[0] ? wloc : 0, loc, marks);
	}
	sp_reasons(g, id, print_reason, out);
	path_release(&p);
}

static void print_header(const struct sp_graph *g, size_t n, FILE *out)
{
	fprintf(out, "Worst-case stack usage of %s: %zu function%s\n",
		g->binary ? g->binary : "(unnamed binary)", n, n == 1 ? "" : "s");
	fprintf(out, "Frames from %u .su file%s: %u of %u rows matched\n\n",
		g->su_files, g->su_files == 1 ? "" : "s", g->su_matched, g->su_rows);
}

int sp_report_text(const struct sp_graph *g, const struct sp_report_opts *o,
		   FILE *out, struct sp_err *err)
{
	uint32_t *ids;
	size_t n = sp_report_select(g, o, &ids), i;

	print_header(g, n, out);
	if (n)
		print_table(g, ids, n, out);
	else
		fputs("  no functions with code\n", out);
	if (n && o->top)
		fprintf(out, "\nWorst path%s:\n", n > 1 && o->top > 1 ? "s" : "");
	for (i = 0; i < n && i < o->top; i++)
		print_path(g, ids[i], (unsigned)i + 1, out);
	free(ids);
	if (ferror(out))
		return sp_err_set(err, "cannot write the text report");
	return 0;
}
