/*
 * text.c - the human report: a table of every function, then the worst
 * paths frame by frame with the reasons a total has no bound.
 */
#include "report/report.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "common/xalloc.h"
#include "report/cells.h"
#include "report/path.h"

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

static void print_header_row(const struct table_widths *w, FILE *out)
{
	fprintf(out, "  %*s  %*s  %-*s  %-*s  %s\n", w->total, "TOTAL ", w->self, "SELF",
		w->qual, "QUALIFIER", w->name, "FUNCTION", "LOCATION");
}

static void measure_rows(const struct sp_graph *g, const uint32_t *ids, size_t from,
			 size_t to, struct table_widths *w)
{
	char cell[CELL];
	size_t i;

	w->total = (int)strlen("TOTAL ");
	w->self = (int)strlen("SELF");
	w->qual = (int)strlen("QUALIFIER");
	w->name = (int)strlen("FUNCTION");
	for (i = from; i < to; i++) {
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

static void print_rows(const struct sp_graph *g, const uint32_t *ids, size_t from,
		       size_t to, const struct table_widths *w, FILE *out)
{
	char tcell[CELL], scell[CELL], qcell[CELL], loc[4096];
	size_t i;

	for (i = from; i < to; i++) {
		const struct sp_func *f = &g->funcs[ids[i]];

		sp_cell_total(&f->res, tcell, sizeof(tcell));
		sp_cell_self(f, scell, sizeof(scell));
		sp_cell_qual(f, qcell, sizeof(qcell));
		sp_cell_location(f, loc, sizeof(loc));
		fprintf(out, "  %*s  %*s  %-*s  %-*s  %s\n", w->total, tcell, w->self, scell,
			w->qual, qcell, w->name, sp_func_label(f), loc);
	}
}

/*
 * A table of every function of a large program is a second of
 * formatting: the later rows are measured and then formatted into
 * memory on a second core while this one does the first.  The table is
 * the same either way.
 */
#define SPLIT_ROWS 4096		/* fewer: a thread is not worth starting */

struct table_half {
	const struct sp_graph *g;
	const uint32_t *ids;
	size_t from, to;
	struct table_widths w;	/* its own rows' widths, then the table's */
	char *text;		/* the rows formatted, from open_memstream */
	size_t len;
	bool ok;
};

static void *measure_half(void *arg)
{
	struct table_half *h = arg;

	measure_rows(h->g, h->ids, h->from, h->to, &h->w);
	return NULL;
}

static void *format_half(void *arg)
{
	struct table_half *h = arg;
	FILE *mem = open_memstream(&h->text, &h->len);

	if (!mem)
		return NULL;
	print_rows(h->g, h->ids, h->from, h->to, &h->w, mem);
	h->ok = !ferror(mem);
	if (fclose(mem))
		h->ok = false;
	return NULL;
}

static int widest(int a, int b)
{
	return a > b ? a : b;
}

/* The widths of both halves, the second measured on another core. */
static void measure_split(struct table_half *h, size_t n, struct table_widths *w)
{
	pthread_t t;
	bool threaded = !pthread_create(&t, NULL, measure_half, h);

	measure_rows(h->g, h->ids, 0, h->from, w);
	if (threaded)
		pthread_join(t, NULL);
	else
		measure_rows(h->g, h->ids, h->from, n, &h->w);
	w->total = widest(w->total, h->w.total);
	w->self = widest(w->self, h->w.self);
	w->qual = widest(w->qual, h->w.qual);
	w->name = widest(w->name, h->w.name);
	h->w = *w;
}

static void print_all_rows(const struct sp_graph *g, const uint32_t *ids, size_t n,
			   FILE *out)
{
	struct table_half h = { .g = g, .ids = ids, .from = n / 2, .to = n };
	struct table_widths w;
	pthread_t t;
	bool threaded;

	if (n < SPLIT_ROWS) {
		measure_rows(g, ids, 0, n, &w);
		print_header_row(&w, out);
		print_rows(g, ids, 0, n, &w, out);
		return;
	}
	measure_split(&h, n, &w);
	threaded = !pthread_create(&t, NULL, format_half, &h);
	print_header_row(&w, out);
	print_rows(g, ids, 0, h.from, &w, out);
	if (threaded)
		pthread_join(t, NULL);
	if (h.ok)
		fwrite(h.text, 1, h.len, out);
	else
		print_rows(g, ids, h.from, n, &w, out);
	free(h.text);
}

static bool has_red_zone(const struct sp_graph *g, const uint32_t *ids, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (g->funcs[ids[i]].red_zone)
			return true;
	return false;
}

/* Is one of the bounded totals assumed for cause c? */
static bool any_bounded_by(const struct sp_graph *g, const uint32_t *ids, size_t n, int c)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (g->funcs[ids[i]].res.bounded && g->funcs[ids[i]].res.witness[c] != SP_NONE)
			return true;
	return false;
}

static void print_table(const struct sp_graph *g, const uint32_t *ids, size_t n,
			FILE *out)
{

	print_all_rows(g, ids, n, out);
	fputs("\n  '>= N' unbounded: there is no bound, N is the deepest path over calls\n"
	      "         that certainly exist (a deeper one through an assumed indirect\n"
	      "         call is said apart, 'assumed: at least M bytes', under its path)\n"
	      "  'N+'   partial: frames without data (SELF '?') count 0\n", out);
	if (has_red_zone(g, ids, n))
		fputs("  SELF 'N+R': a frame of N bytes and R more below %rsp (red zone)\n", out);
	if (any_bounded_by(g, ids, n, SP_CAUSE_ASSUMED) && g->indirect_typed)
		fputs("  '~ N'  bounded by assumption: indirect calls reach what their types "
		      "allow\n"
		      "         (a table's words, a struct member's functions, a "
		      "prototype's)\n", out);
	else if (any_bounded_by(g, ids, n, SP_CAUSE_ASSUMED))
		fputs("  '~ N'  bounded by assumption: indirect calls reach every "
		      "address-taken function\n"
		      "         (of the call's prototype, where DWARF types the call)\n", out);
	if (any_bounded_by(g, ids, n, SP_CAUSE_ASSUMPTION))
		fputs("  '~ N'  bounded by assumption: an 'assume' annotation line states "
		      "a bound\n"
		      "         that run-time values keep, not the code (its reason names "
		      "the line)\n", out);
}

/* The calls a frame of the path makes on another stack: not in the
 * total, said. */
static void print_switches(const struct sp_graph *g, const struct sp_path *p, FILE *out)
{
	size_t i;
	uint32_t k;

	for (i = 0; i < p->n; i++)
		for (k = 0; k < g->nswitches; k++)
			if (g->switches[k].from == p->ids[i])
				fprintf(out, "    %s -> %s [stack switch]: runs on another stack, "
					"not in this total\n", sp_func_label(&g->funcs[p->ids[i]]),
					sp_func_label(&g->funcs[g->switches[k].to]));
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
			sp_cell_assuming(&f->res));
	fputs(f->res.overflow ? " (saturated: the sum overflowed)\n" : "\n", out);
}

/* An unbounded total's deeper path through an assumed call: said on its
 * own line, naming the call it takes first, never as its lower bound. */
static void print_assumed_bound(const struct sp_graph *g, uint32_t id, FILE *out)
{
	struct sp_path p;
	const char *how;
	size_t k;

	if (!g->funcs[id].res.assumed_lb)
		return;
	sp_path_load_assumed(g, id, &p);
	k = sp_path_first_assumed(&p);
	fprintf(out, "    assumed: at least %" PRIu64 " bytes", g->funcs[id].res.assumed_lb);
	/* --indirect=address-taken's calls say no how */
	how = k ? sp_resolved_name((enum sp_resolved)p.hows[k]) : NULL;
	if (k)
		fprintf(out, " through %s -> %s (%s)", sp_func_label(&g->funcs[p.ids[k - 1]]),
			sp_func_label(&g->funcs[p.ids[k]]), how ? how : "address-taken");
	fprintf(out, ", %zu frames\n", p.n);
	sp_path_release(&p);
}

static void print_path(const struct sp_graph *g, uint32_t id, unsigned rank, FILE *out)
{
	struct sp_path p;
	char scell[CELL], ccell[CELL], marks[256], loc[4096];
	int wself = (int)strlen("SELF"), wcum = (int)strlen("STACK"), wname = 8;
	int wloc = (int)strlen("LOCATION");
	size_t i;

	sp_path_load(g, id, &p);
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
		sp_cell_marks(f, p.kinds[i], p.flags[i], p.hows[i], marks, sizeof(marks));
		/* pad the location only when marks follow: no trailing blanks */
		fprintf(out, "    %*s  %*" PRIu64 "  %-*s  %-*s%s\n", wself, scell, wcum,
			p.cum[i], wname, sp_func_label(f), marks[0] ? wloc : 0, loc, marks);
	}
	sp_reasons(g, id, print_reason, out);
	print_assumed_bound(g, id, out);
	print_switches(g, &p, out);
	sp_path_release(&p);
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
