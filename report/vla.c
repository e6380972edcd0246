/*
 * vla.c - the --vla report: a table, -Wvla style warnings or JSON.
 *
 * Each row is one array (or one alloca() user) with the total of the
 * function whose frame holds it: that function is on every path through
 * the array, so its own worst case is the worst case of the array.
 */
#include "report/vla.h"

#include <json-c/json.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "common/xalloc.h"
#include "report/cells.h"

#define JSON_FLAGS (JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE)
#define CELL 48

const char *sp_vla_kind_name(enum sp_vla_kind k)
{
	switch (k) {
	case SP_VLA_RUNTIME:
		return "run-time";
	case SP_VLA_CONSTANT:
		return "accidental";
	case SP_VLA_FRAME:
		return "frame";
	case SP_VLA_ALLOCA:
		return "alloca";
	}
	return "?";
}

static int str_cmp(const char *a, const char *b)
{
	return strcmp(a ? a : "", b ? b : "");
}

/* qsort has no context argument: sort (graph, index) pairs */
struct vla_ref {
	const struct sp_graph *g;
	uint32_t i;
};

static int vla_cmp(const void *pa, const void *pb)
{
	const struct vla_ref *a = pa, *b = pb;
	const struct sp_vla *va = &a->g->vlas[a->i], *vb = &b->g->vlas[b->i];
	const struct sp_func *fa = &a->g->funcs[va->func], *fb = &b->g->funcs[vb->func];
	int c;

	if (fa->res.total != fb->res.total)
		return fa->res.total < fb->res.total ? 1 : -1;
	if ((c = str_cmp(sp_func_label(fa), sp_func_label(fb))) ||
	    (c = str_cmp(va->file, vb->file)))
		return c;
	if (va->line != vb->line)
		return va->line < vb->line ? -1 : 1;
	return a->i < b->i ? -1 : a->i > b->i;
}

size_t sp_vla_order(const struct sp_graph *g, uint32_t **order)
{
	struct vla_ref *refs;
	uint32_t i;

	*order = NULL;
	if (!g->nvlas)
		return 0;
	refs = sp_xmalloc(g->nvlas * sizeof(*refs));
	for (i = 0; i < g->nvlas; i++)
		refs[i] = (struct vla_ref){ g, i };
	qsort(refs, g->nvlas, sizeof(*refs), vla_cmp);
	*order = sp_xmalloc(g->nvlas * sizeof(**order));
	for (i = 0; i < g->nvlas; i++)
		(*order)[i] = refs[i].i;
	free(refs);
	return g->nvlas;
}

static void bytes_cell(const struct sp_vla *v, char *buf, size_t size)
{
	if (v->kind == SP_VLA_CONSTANT && v->bytes)
		snprintf(buf, size, "%llu", (unsigned long long)v->bytes);
	else
		snprintf(buf, size, "-");
}

static void location_cell(const struct sp_vla *v, char *buf, size_t size)
{
	if (v->file && v->line)
		snprintf(buf, size, "%s:%u", v->file, v->line);
	else
		snprintf(buf, size, "%s", v->file ? v->file : "-");
}

static const char *var_cell(const struct sp_vla *v)
{
	return v->name ? v->name : "-";
}

/* ---- table ---- */

enum { COL_TOTAL, COL_FRAME, COL_KIND, COL_BYTES, COL_VAR, COL_FUNC, COL__COUNT };

static void row_cells(const struct sp_graph *g, const struct sp_vla *v,
		      char cells[COL__COUNT][CELL])
{
	const struct sp_func *f = &g->funcs[v->func];

	sp_cell_total(&f->res, cells[COL_TOTAL], CELL);
	sp_cell_qual(f, cells[COL_FRAME], CELL);
	snprintf(cells[COL_KIND], CELL, "%s", sp_vla_kind_name(v->kind));
	bytes_cell(v, cells[COL_BYTES], CELL);
	snprintf(cells[COL_VAR], CELL, "%s", var_cell(v));
	snprintf(cells[COL_FUNC], CELL, "%s", sp_func_label(f));
}

static const char *const headers[COL__COUNT] = {
	"TOTAL ", "FRAME", "VLA", "BYTES", "VARIABLE", "FUNCTION",
};

static void print_row(char cells[COL__COUNT][CELL], const int *w, const char *loc,
		      FILE *out)
{
	fprintf(out, "  %*s  %-*s  %-*s  %*s  %-*s  %-*s  %s\n", w[COL_TOTAL],
		cells[COL_TOTAL], w[COL_FRAME], cells[COL_FRAME], w[COL_KIND], cells[COL_KIND],
		w[COL_BYTES], cells[COL_BYTES], w[COL_VAR], cells[COL_VAR], w[COL_FUNC],
		cells[COL_FUNC], loc);
}

/* One legend line per kind the table shows. */
static void print_legend(const struct sp_graph *g, FILE *out)
{
	static const char *const legend[] = {
		[SP_VLA_RUNTIME] = "run-time    a real VLA: its bound is computed at run time",
		[SP_VLA_CONSTANT] = "accidental  a VLA in the source (e.g. a statement-expression "
				    "max()) that the\n              optimiser sized at compile "
				    "time: BYTES; make it a constant array",
		[SP_VLA_FRAME] = "frame       bound read from the frame: build with optimisation "
				 "to tell a real\n              VLA from an accidental one",
		[SP_VLA_ALLOCA] = "alloca      a dynamic frame without a VLA in DWARF: alloca() "
				  "or a dynamic\n              stack adjustment",
	};
	bool seen[SP_VLA_ALLOCA + 1] = { false };
	size_t i;

	for (i = 0; i < g->nvlas; i++)
		seen[g->vlas[i].kind] = true;
	fputs("\n  TOTAL: the worst case of FUNCTION, which is on every path through "
	      "the array\n", out);
	for (i = 0; i <= SP_VLA_ALLOCA; i++)
		if (seen[i])
			fprintf(out, "  %s\n", legend[i]);
}

static void print_table(const struct sp_graph *g, const uint32_t *order, size_t n,
			FILE *out)
{
	char cells[COL__COUNT][CELL], loc[4096];
	int w[COL__COUNT];
	size_t i, c;

	for (c = 0; c < COL__COUNT; c++)
		w[c] = (int)strlen(headers[c]);
	for (i = 0; i < n; i++) {
		row_cells(g, &g->vlas[order[i]], cells);
		for (c = 0; c < COL__COUNT; c++)
			if ((int)strlen(cells[c]) > w[c])
				w[c] = (int)strlen(cells[c]);
	}
	for (c = 0; c < COL__COUNT; c++)
		snprintf(cells[c], CELL, "%s", headers[c]);
	print_row(cells, w, "LOCATION", out);
	for (i = 0; i < n; i++) {
		row_cells(g, &g->vlas[order[i]], cells);
		location_cell(&g->vlas[order[i]], loc, sizeof(loc));
		print_row(cells, w, loc, out);
	}
	if (n)
		print_legend(g, out);
}

/* ---- -Wvla style warnings ---- */

static void kind_phrase(const struct sp_vla *v, char *buf, size_t size)
{
	switch (v->kind) {
	case SP_VLA_RUNTIME:
		snprintf(buf, size, "bound computed at run time");
		break;
	case SP_VLA_CONSTANT:
		snprintf(buf, size, "accidental: the optimiser sized it at %llu bytes",
			 (unsigned long long)v->bytes);
		break;
	case SP_VLA_FRAME:
		snprintf(buf, size, "bound read from the frame: build with optimisation "
			 "to tell a real VLA from an accidental one");
		break;
	case SP_VLA_ALLOCA:
		snprintf(buf, size, "no VLA in DWARF");
		break;
	}
}

static void print_warning(const struct sp_graph *g, const struct sp_vla *v, FILE *out)
{
	const struct sp_func *f = &g->funcs[v->func];
	char phrase[256], total[CELL], frame[CELL];

	kind_phrase(v, phrase, sizeof(phrase));
	sp_cell_total(&f->res, total, sizeof(total));
	sp_cell_qual(f, frame, sizeof(frame));
	fprintf(out, "%s:%u:%u: warning: ", v->file ? v->file : "?", v->line,
		v->col ? v->col : 1);
	if (v->kind == SP_VLA_ALLOCA)
		fprintf(out, "alloca() or dynamic stack in '%s'", sp_func_label(f));
	else
		fprintf(out, "variable-length array '%s' in '%s'", var_cell(v),
			sp_func_label(f));
	fprintf(out, " (%s; frame %s, worst case %s bytes) [stackprof-vla]\n", phrase,
		frame, total);
}

/* ---- JSON ---- */

static struct json_object *vla_json(const struct sp_graph *g, const struct sp_vla *v)
{
	const struct sp_func *f = &g->funcs[v->func];
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "function", json_object_new_string(sp_func_label(f)));
	json_object_object_add(o, "variable", v->name ? json_object_new_string(v->name) : NULL);
	json_object_object_add(o, "file", v->file ? json_object_new_string(v->file) : NULL);
	json_object_object_add(o, "line", json_object_new_int64(v->line));
	json_object_object_add(o, "col", json_object_new_int64(v->col));
	json_object_object_add(o, "kind", json_object_new_string(sp_vla_kind_name(v->kind)));
	json_object_object_add(o, "frame", json_object_new_string(sp_qual_name(f->qual)));
	json_object_object_add(o, "bytes", v->kind == SP_VLA_CONSTANT && v->bytes ?
				   json_object_new_int64((int64_t)v->bytes) : NULL);
	/* as in the main report: a total only when bounded */
	json_object_object_add(o, "total", f->res.bounded ?
				   json_object_new_uint64(f->res.total) : NULL);
	json_object_object_add(o, "lower_bound", json_object_new_uint64(f->res.total));
	json_object_object_add(o, "bounded", json_object_new_boolean(f->res.bounded));
	json_object_object_add(o, "partial", json_object_new_boolean(f->res.partial));
	return o;
}

static void print_json(const struct sp_graph *g, const uint32_t *order, size_t n, FILE *out)
{
	struct json_object *root = json_object_new_object(), *arr = json_object_new_array();
	size_t i;

	json_object_object_add(root, "version", json_object_new_int(1));
	json_object_object_add(root, "binary",
			       g->binary ? json_object_new_string(g->binary) : NULL);
	for (i = 0; i < n; i++)
		json_object_array_add(arr, vla_json(g, &g->vlas[order[i]]));
	json_object_object_add(root, "vlas", arr);
	fputs(json_object_to_json_string_ext(root, JSON_FLAGS), out);
	fputc('\n', out);
	json_object_put(root);
}

int sp_report_vla(const struct sp_graph *g, enum sp_vla_format fmt, FILE *out,
		  struct sp_err *err)
{
	uint32_t *order;
	size_t n = sp_vla_order(g, &order), i;

	if (fmt == SP_VLA_JSON)
		print_json(g, order, n, out);
	else if (fmt == SP_VLA_WARNINGS)
		for (i = 0; i < n; i++)
			print_warning(g, &g->vlas[order[i]], out);
	else
		print_table(g, order, n, out);
	free(order);
	if (ferror(out))
		return sp_err_set(err, "cannot write the --vla report");
	return 0;
}
