/*
 * gv_column.c - the column view (see graphviz.h): each root's worst path
 * as a table of one row per frame, top to bottom from the root, inside
 * one node's HTML-like label.  Graphviz sizes the rows as asked, so a
 * box's height is the frame's bytes at one scale for the whole picture,
 * or COL_MIN_H when that is too small to hold a line of text.
 */
#include "report/graphviz_int.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "report/cells.h"
#include "report/path.h"

#define COL_MIN_H	18	/* pt: a line of 10-pt text and its padding */
#define COL_TARGET_H	720	/* pt the tallest column's bytes aim at */
#define COL_LINE_H	3	/* pt: the budget line */
#define COL_WIDTH	240	/* pt: the least width of a box */
#define COL_NAME_MAX	48	/* bytes of a name in a box; its tooltip has all */
#define COL_REASON_WRAP	64	/* a reason's lines break after this many bytes */

struct col_view {
	const struct sp_graph *g;
	const struct sp_gv_opts *o;
	uint32_t *roots;
	size_t nroots;		/* drawn */
	size_t npicked;		/* of so many roots */
	uint64_t bpp;		/* bytes per pt of box height, a power of two */
	uint64_t frame_max;	/* the largest frame drawn: fully red */
	struct sp_strbuf *b;	/* the label being written */
};

/* ---- scale ---- */

static uint64_t col_frames_sum(const struct sp_graph *g, const struct sp_path *p,
			       uint64_t *frame_max)
{
	uint64_t sum = 0;
	size_t i;

	for (i = 0; i < p->n; i++) {
		uint64_t b = sp_frame_bytes(&g->funcs[p->ids[i]]);

		sum = sum > UINT64_MAX - b ? UINT64_MAX : sum + b;
		if (b > *frame_max)
			*frame_max = b;
	}
	return sum;
}

/* The smallest power of two that keeps the tallest column near COL_TARGET_H. */
static void col_scale(struct col_view *v)
{
	uint64_t tallest = 0;
	size_t r;

	for (r = 0; r < v->nroots; r++) {
		struct sp_path p;
		uint64_t sum;

		sp_path_load(v->g, v->roots[r], &p);
		sum = col_frames_sum(v->g, &p, &v->frame_max);
		if (sum > tallest)
			tallest = sum;
		sp_path_release(&p);
	}
	v->bpp = 1;
	while (tallest / v->bpp > COL_TARGET_H && v->bpp < (UINT64_C(1) << 62))
		v->bpp *= 2;
}

static unsigned col_height(const struct col_view *v, uint64_t bytes)
{
	uint64_t h = (bytes + v->bpp / 2) / v->bpp;

	return h < COL_MIN_H ? COL_MIN_H : (unsigned)(h > 1000000 ? 1000000 : h);
}

/* ---- one frame ---- */

static void col_frame_text(struct col_view *v, const struct sp_path *p, size_t i)
{
	const struct sp_func *f = &v->g->funcs[p->ids[i]];
	char self[48], marks[256];

	sp_cell_self(f, self, sizeof(self));
	sp_cell_marks(f, p->kinds[i], p->flags[i], p->hows[i], marks, sizeof(marks));
	sp_strbuf_addf(v->b, "<B>");
	gv_add_html(v->b, sp_func_label(f), COL_NAME_MAX);
	sp_strbuf_addf(v->b, "</B>  %s%s", self,
		       f->qual == SP_QUAL_UNKNOWN && !f->red_zone ? "" : " B");
	gv_add_html(v->b, marks, 0);
}

static void col_frame_tooltip(struct col_view *v, const struct sp_path *p, size_t i)
{
	const struct sp_func *f = &v->g->funcs[p->ids[i]];
	char self[48], loc[4096];

	sp_cell_self(f, self, sizeof(self));
	sp_cell_location(f, loc, sizeof(loc));
	gv_add_html(v->b, sp_func_label(f), 0);
	sp_strbuf_addf(v->b, " (");
	gv_add_html(v->b, loc, 0);
	sp_strbuf_addf(v->b, "): frame %s B, stack %" PRIu64 " B", self, p->cum[i]);
	if (f->dyn_cause) {
		sp_strbuf_addf(v->b, ", ");
		gv_add_html(v->b, f->dyn_cause, 0);
	}
}

/* ID, link, tooltip and look of a frame's box (or part of it). */
static void col_box_attrs(struct col_view *v, const struct sp_path *p, size_t col,
			  size_t i, const char *part)
{
	const struct sp_func *f = &v->g->funcs[p->ids[i]];
	char fill[8];

	sp_strbuf_addf(v->b, " ID=\"c%zuf%zu%s\" HREF=\"#c%zuf%zu\" TOOLTIP=\"", col, i,
		       part, col, i);
	col_frame_tooltip(v, p, i);
	gv_heat(fill, sp_frame_bytes(f), v->frame_max);
	sp_strbuf_addf(v->b, "\" WIDTH=\"%d\" ALIGN=\"LEFT\" VALIGN=\"TOP\" BGCOLOR=\"%s\"",
		       COL_WIDTH, f->qual == SP_QUAL_UNKNOWN ? "#eeeeee" : fill);
	if (f->qual == SP_QUAL_UNKNOWN)
		sp_strbuf_addf(v->b, " STYLE=\"dashed\"");
	else if (p->kinds[i] == SP_EDGE_TAIL)
		sp_strbuf_addf(v->b, " STYLE=\"dotted\"");
	if (f->qual == SP_QUAL_DYNAMIC || f->qual == SP_QUAL_BOUNDED)
		sp_strbuf_addf(v->b, " COLOR=\"#d05000\"");
	else if (f->flags & SP_F_RECURSIVE)
		sp_strbuf_addf(v->b, " COLOR=\"purple\"");
}

static void col_stack_cell(struct col_view *v, const struct sp_path *p, size_t i,
			   unsigned rows)
{
	sp_strbuf_addf(v->b, "<TD BORDER=\"0\" ROWSPAN=\"%u\" ALIGN=\"RIGHT\" "
		       "VALIGN=\"BOTTOM\">%" PRIu64 " B</TD>", rows, p->cum[i]);
}

static void col_frame_row(struct col_view *v, const struct sp_path *p, size_t col,
			  size_t i, unsigned h)
{
	sp_strbuf_addf(v->b, "<TR><TD HEIGHT=\"%u\"", h);
	col_box_attrs(v, p, col, i, "");
	sp_strbuf_addf(v->b, ">");
	col_frame_text(v, p, i);
	sp_strbuf_addf(v->b, "</TD>");
	col_stack_cell(v, p, i, 1);
	sp_strbuf_addf(v->b, "</TR>");
}

/*
 * The frame during which the stack passes the budget: its box in two
 * parts with a red line between them, at the budget's share of the
 * frame, the text in the taller part.
 */
static void col_split_rows(struct col_view *v, const struct sp_path *p, size_t col,
			   size_t i, unsigned h)
{
	uint64_t bytes = sp_frame_bytes(&v->g->funcs[p->ids[i]]);
	uint64_t below = p->cum[i] - bytes;
	double share = bytes ? (double)(v->o->budget - below) / (double)bytes : 0.0;
	unsigned room = h - COL_LINE_H, top = (unsigned)(share * room + 0.5);

	if (top < 2)
		top = 2;
	if (top > room - 2)
		top = room - 2;
	sp_strbuf_addf(v->b, "<TR><TD HEIGHT=\"%u\" SIDES=\"LTR\"%s", top,
		       top < COL_MIN_H ? " CELLPADDING=\"0\"" : "");
	col_box_attrs(v, p, col, i, "a");
	sp_strbuf_addf(v->b, ">");
	if (top >= room - top)
		col_frame_text(v, p, i);
	sp_strbuf_addf(v->b, "</TD>");
	col_stack_cell(v, p, i, 3);
	sp_strbuf_addf(v->b, "</TR><TR><TD HEIGHT=\"%d\" CELLPADDING=\"0\" BORDER=\"0\" "
		       "BGCOLOR=\"red\" ID=\"c%zubudget\"></TD></TR>", COL_LINE_H, col);
	sp_strbuf_addf(v->b, "<TR><TD HEIGHT=\"%u\" SIDES=\"LBR\"%s", room - top,
		       room - top < COL_MIN_H ? " CELLPADDING=\"0\"" : "");
	col_box_attrs(v, p, col, i, "b");
	sp_strbuf_addf(v->b, ">");
	if (top < room - top)
		col_frame_text(v, p, i);
	sp_strbuf_addf(v->b, "</TD></TR>");
}

/* ---- one column ---- */

/* As the text report's heading: "main: 1360 B", "at least N B, unbounded"... */
static void col_head(struct col_view *v, uint32_t root)
{
	const struct sp_func *f = &v->g->funcs[root];
	const struct sp_result *r = &f->res;

	sp_strbuf_addf(v->b, "<TR><TD COLSPAN=\"2\" BORDER=\"0\" ALIGN=\"LEFT\"><B>");
	gv_add_html(v->b, sp_func_label(f), COL_NAME_MAX);
	if (!r->bounded)
		sp_strbuf_addf(v->b, "</B>: at least %" PRIu64 " B, unbounded", r->total);
	else
		sp_strbuf_addf(v->b, "</B>: %" PRIu64 " B%s%s", r->total,
			       r->partial ? " or more (partial)" : "",
			       sp_cell_assuming(r));
	sp_strbuf_addf(v->b, "%s</TD></TR>", r->overflow ? " (saturated)" : "");
	sp_strbuf_addf(v->b, "<TR><TD BORDER=\"0\" ALIGN=\"LEFT\"><FONT POINT-SIZE=\"8\" "
		       "COLOR=\"gray35\">frame</FONT></TD><TD BORDER=\"0\" ALIGN=\"RIGHT\">"
		       "<FONT POINT-SIZE=\"8\" COLOR=\"gray35\">stack</FONT></TD></TR>");
}

/* A reason on lines of about COL_REASON_WRAP bytes, broken at spaces. */
static void col_reason(void *ctx, const char *reason)
{
	struct col_view *v = ctx;
	const char *s = reason;

	sp_strbuf_addf(v->b, "<TR><TD COLSPAN=\"2\" BORDER=\"0\" ALIGN=\"LEFT\" "
		       "BALIGN=\"LEFT\"><FONT COLOR=\"#a04000\">reason: ");
	while (*s) {
		size_t n = strlen(s);
		char line[COL_REASON_WRAP + 1];

		if (n > COL_REASON_WRAP) {
			const char *sp = s + COL_REASON_WRAP;

			while (sp > s && *sp != ' ')
				sp--;
			n = sp > s ? (size_t)(sp - s) : COL_REASON_WRAP;
		}
		snprintf(line, sizeof(line), "%.*s", (int)n, s);
		gv_add_html(v->b, line, 0);
		s += n;
		while (*s == ' ')
			s++;
		if (*s)
			sp_strbuf_addf(v->b, "<BR/>    ");
	}
	sp_strbuf_addf(v->b, "</FONT></TD></TR>");
}

/* The first frame during which the stack exceeds the budget, or n. */
static size_t col_budget_frame(const struct col_view *v, const struct sp_path *p)
{
	size_t i;

	if (!v->o->has_budget)
		return p->n;
	for (i = 0; i < p->n; i++)
		if (p->cum[i] > v->o->budget)
			return i;
	return p->n;
}

static void col_column(struct col_view *v, size_t col)
{
	struct sp_path p;
	size_t i, over;

	sp_path_load(v->g, v->roots[col], &p);
	over = col_budget_frame(v, &p);
	sp_strbuf_addf(v->b, "<TABLE BORDER=\"0\" CELLBORDER=\"1\" CELLSPACING=\"0\" "
		       "CELLPADDING=\"2\">");
	col_head(v, v->roots[col]);
	for (i = 0; i < p.n; i++) {
		unsigned h = col_height(v, sp_frame_bytes(&v->g->funcs[p.ids[i]]));

		if (i == over && h >= COL_LINE_H + 4)
			col_split_rows(v, &p, col, i, h);
		else
			col_frame_row(v, &p, col, i, h);
	}
	sp_reasons(v->g, v->roots[col], col_reason, v);
	sp_strbuf_addf(v->b, "</TABLE>");
	sp_path_release(&p);
}

/* ---- the picture ---- */

static void col_graph_label(struct sp_strbuf *b, const struct col_view *v)
{
	const struct sp_gv_opts *o = v->o;

	gv_label_binary(b, v->g);
	if (!v->nroots) {
		sp_strbuf_addf(b, "no functions with code\\l");
		return;
	}
	sp_strbuf_addf(b, "worst path%s of ", v->nroots == 1 ? "" : "s");
	if (o->nroots && v->nroots < v->npicked)
		sp_strbuf_addf(b, "the %zu worst of %zu given entries (--graph-top N for "
			       "more)", v->nroots, v->npicked);
	else if (o->nroots)
		sp_strbuf_addf(b, "%zu given entr%s", v->nroots, v->nroots == 1 ? "y" : "ies");
	else
		sp_strbuf_addf(b, "the top %zu entr%s", v->nroots, v->nroots == 1 ? "y" : "ies");
	sp_strbuf_addf(b, "\\lbox height 1 pt per %" PRIu64 " B (at least %d pt), "
		       "stack in use on the right", v->bpp, COL_MIN_H);
	if (o->has_budget)
		sp_strbuf_addf(b, ", red line: budget %" PRIu64 " B", o->budget);
	sp_strbuf_addf(b, "\\l");
}

/* One row of columns, top-aligned, 24 pt apart. */
static void col_label(struct col_view *v)
{
	size_t c;

	sp_strbuf_addf(v->b, "<TABLE BORDER=\"0\" CELLBORDER=\"0\" CELLSPACING=\"0\" "
		       "CELLPADDING=\"0\"><TR>");
	for (c = 0; c < v->nroots; c++) {
		if (c)
			sp_strbuf_addf(v->b, "<TD WIDTH=\"24\"></TD>");
		sp_strbuf_addf(v->b, "<TD VALIGN=\"TOP\">");
		col_column(v, c);
		sp_strbuf_addf(v->b, "</TD>");
	}
	sp_strbuf_addf(v->b, "</TR></TABLE>");
}

static void col_set_defaults(Agraph_t *ag)
{
	agattr(ag, AGRAPH, "fontname", GV_FONT);
	agattr(ag, AGRAPH, "labelloc", "t");
	agattr(ag, AGRAPH, "labeljust", "l");
	agattr(ag, AGRAPH, "fontsize", "11");
	agattr(ag, AGNODE, "shape", "plain");
	agattr(ag, AGNODE, "fontname", GV_FONT);
	agattr(ag, AGNODE, "fontsize", "10");
}

int gv_column_build(const struct sp_graph *g, const struct sp_gv_opts *o,
		    Agraph_t **ag, struct sp_err *err)
{
	struct sp_strbuf label = { 0 }, glabel = { 0 };
	struct col_view v = { .g = g, .o = o, .b = &label };
	size_t cap = o->top ? o->top : SP_GV_COLUMNS_MAX;
	Agnode_t *n;

	(void)err;
	v.npicked = v.nroots = gv_pick_roots(g, o, &v.roots);
	if (o->nroots && v.nroots > cap)
		v.nroots = cap;
	col_scale(&v);
	*ag = agopen("stackprof", Agdirected, NULL);
	col_set_defaults(*ag);
	if (v.nroots) {
		col_label(&v);
		n = agnode(*ag, "worst_path", 1);
		agsafeset(n, "label", agstrdup_html(*ag, label.buf), "");
	}
	col_graph_label(&glabel, &v);
	agsafeset(*ag, "label", (char *)gv_str(&glabel), "");
	free(label.buf);
	free(glabel.buf);
	free(v.roots);
	return 0;
}
