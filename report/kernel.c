/*
 * kernel.c - --kernel-summary: the worst system calls, interrupt handlers
 * and exception entries, class by class, since each class runs on its own
 * stack (see analysis/kernel.c for how they are recognised).
 */
#include "report/report.h"

#include <inttypes.h>
#include <json-c/json.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "common/xalloc.h"
#include "report/cells.h"
#include "report/jsonw.h"

#define CELL 48

static const char *const class_title[SP_KCLASS__COUNT] = {
	[SP_KCLASS_SYSCALL] = "System calls",
	[SP_KCLASS_IRQ] = "Interrupt handlers",
	[SP_KCLASS_EXCEPTION] = "Exception entries",
	[SP_KCLASS_IRQ_THREAD] = "Threaded interrupt handlers",
};

static void print_reason(void *ctx, const char *reason)
{
	fprintf(ctx, "    reason: %s\n", reason);
}

/* The FUNCTION column: the longest name, within reason. */
static int name_width(const struct sp_graph *g, const uint32_t *ids, size_t n)
{
	int w = 8;
	size_t i;

	for (i = 0; i < n; i++) {
		int len = (int)strlen(sp_func_label(&g->funcs[ids[i]]));

		if (len > w)
			w = len < 40 ? len : 40;
	}
	return w;
}

static void print_worst_path(const struct sp_graph *g, uint32_t id, FILE *out)
{
	size_t n = sp_worst_path(g, id, NULL, NULL, SIZE_MAX), i;
	uint32_t *ids = sp_xmalloc((n ? n : 1) * sizeof(*ids));
	char self[CELL], total[CELL], loc[CELL * 4];
	int w;

	n = sp_worst_path(g, id, ids, NULL, n);
	w = name_width(g, ids, n);
	fprintf(out, "  worst path of %s (TOTAL: from that frame down):\n",
		sp_func_label(&g->funcs[id]));
	fprintf(out, "    %6s %9s  %-*s  %s\n", "SELF", "TOTAL", w, "FUNCTION", "LOCATION");
	for (i = 0; i < n; i++) {
		const struct sp_func *f = &g->funcs[ids[i]];

		sp_cell_self(f, self, sizeof(self));
		sp_cell_total(&f->res, total, sizeof(total));
		sp_cell_location(f, loc, sizeof(loc));
		fprintf(out, "    %6s %9s  %-*s  %s\n", self, total, w, sp_func_label(f), loc);
	}
	sp_reasons(g, id, print_reason, out);
	free(ids);
}

/* How many of class c's entries have a bounded total. */
static size_t count_bounded(const struct sp_graph *g, const struct sp_kernel_entries *k,
			    enum sp_kclass c)
{
	size_t i, n = 0;

	for (i = 0; i < k->n[c]; i++)
		n += g->funcs[k->ids[c][i]].res.bounded;
	return n;
}

/* How many of class c's bounded totals are partial (lower bounds), and
 * how many of those the nearest unknown frame makes so is code not given
 * (a module's, --indirect=types' "exported"). */
static size_t count_partial(const struct sp_graph *g, const struct sp_kernel_entries *k,
			    enum sp_kclass c, size_t *not_given)
{
	size_t i, n = 0;

	*not_given = 0;
	for (i = 0; i < k->n[c]; i++) {
		const struct sp_result *r = &g->funcs[k->ids[c][i]].res;
		uint32_t w = r->witness[SP_CAUSE_UNKNOWN];

		if (!r->bounded || !r->partial)
			continue;
		n++;
		*not_given += w < g->nfuncs && (g->funcs[w].flags & SP_F_NOT_GIVEN);
	}
	return n;
}

/* How many of class c's bounded totals rest on an assumption, and how
 * many of those on an 'assume' annotation line. */
static size_t count_assumed(const struct sp_graph *g, const struct sp_kernel_entries *k,
			    enum sp_kclass c, size_t *by_annotation)
{
	size_t i, n = 0;

	*by_annotation = 0;
	for (i = 0; i < k->n[c]; i++) {
		const struct sp_result *r = &g->funcs[k->ids[c][i]].res;

		if (!r->bounded || !r->assumed)
			continue;
		n++;
		*by_annotation += r->witness[SP_CAUSE_ASSUMPTION] != SP_NONE;
	}
	return n;
}

/* "992 (61 bounded, 58 of them assumed (3 by annotation), 40 of them
 * partial: 38 call module code, 2 other unknown code)": an assumed total
 * rests on indirect-call targets or an 'assume' line; a partial one is a
 * lower bound, not a worst case */
static void print_counts(const struct sp_graph *g, const struct sp_kernel_entries *k,
			 enum sp_kclass c, FILE *out)
{
	size_t not_given, partial = count_partial(g, k, c, &not_given);
	size_t by_annotation, assumed = count_assumed(g, k, c, &by_annotation);

	fprintf(out, "\n%s: %zu (%zu bounded", class_title[c], k->n[c], count_bounded(g, k, c));
	if (assumed)
		fprintf(out, ", %zu of them assumed", assumed);
	if (by_annotation)
		fprintf(out, " (%zu by annotation)", by_annotation);
	if (partial)
		fprintf(out, ", %zu of them partial", partial);
	if (not_given)
		fprintf(out, ": %zu call module code", not_given);
	if (partial > not_given)
		fprintf(out, "%s%zu other unknown code", not_given ? ", " : ": ",
			partial - not_given);
	fprintf(out, "), on %s\n", sp_kclass_stack(c));
}

static void print_class(const struct sp_graph *g, const struct sp_kernel_entries *k,
			enum sp_kclass c, unsigned top, FILE *out)
{
	size_t i, n = k->n[c] < top ? k->n[c] : top;
	int w = name_width(g, k->ids[c], n);
	char total[CELL], self[CELL], loc[CELL * 4];

	print_counts(g, k, c, out);
	if (!k->n[c])
		return;
	fprintf(out, "  %9s %6s  %-*s  %s\n", "TOTAL", "SELF", w, "FUNCTION", "LOCATION");
	for (i = 0; i < n; i++) {
		const struct sp_func *f = &g->funcs[k->ids[c][i]];

		sp_cell_total(&f->res, total, sizeof(total));
		sp_cell_self(f, self, sizeof(self));
		sp_cell_location(f, loc, sizeof(loc));
		fprintf(out, "  %9s %6s  %-*s  %s\n", total, self, w, sp_func_label(f), loc);
	}
	if (k->n[c] > n)
		fprintf(out, "  ... %zu more (--top)\n", k->n[c] - n);
	print_worst_path(g, k->ids[c][0], out);
}

static bool has_entries(const struct sp_kernel_entries *k)
{
	int c;

	for (c = SP_KCLASS_SYSCALL; c < SP_KCLASS__COUNT; c++)
		if (k->n[c])
			return true;
	return false;
}

int sp_report_kernel_text(const struct sp_graph *g, const struct sp_report_opts *o,
			  FILE *out, struct sp_err *err)
{
	struct sp_kernel_entries k;
	int c;

	sp_kernel_entries(g, &k);
	fprintf(out, "Kernel entry points of %s, by the stack each runs on\n",
		g->binary ? g->binary : "?");
	for (c = SP_KCLASS_SYSCALL; c < SP_KCLASS__COUNT; c++)
		print_class(g, &k, (enum sp_kclass)c, o->top, out);
	if (!has_entries(&k))
		fputs("\nNo function is named or typed as a kernel's entry points are"
		      " (not a Linux kernel?)\n", out);
	fputs("\n'>= N' unbounded (N is the deepest path over certain calls), 'N+' partial\n", out);
	sp_kernel_entries_release(&k);
	if (ferror(out))
		return sp_err_set(err, "cannot write the report");
	return 0;
}

static json_object *entry_object(const struct sp_graph *g, uint32_t id, const uint32_t *jid)
{
	const struct sp_func *f = &g->funcs[id];
	json_object *o = json_object_new_object();

	sp_json_put(o, "id", json_object_new_int64(jid[id]));
	sp_json_put(o, "name", json_object_new_string(sp_func_label(f)));
	sp_json_put(o, "file", f->file ? json_object_new_string(f->file) : NULL);
	sp_json_put(o, "line", json_object_new_int64(f->line));
	sp_json_put(o, "total",
			       f->res.bounded ? json_object_new_uint64(f->res.total) : NULL);
	sp_json_put(o, "lower_bound", json_object_new_uint64(f->res.total));
	sp_json_put(o, "bounded", json_object_new_boolean(f->res.bounded));
	sp_json_put(o, "partial", json_object_new_boolean(f->res.partial));
	sp_json_put(o, "assumed", json_object_new_boolean(f->res.assumed));
	return o;
}

json_object *sp_report_kernel_json(const struct sp_graph *g, const struct sp_kernel_entries *k,
				   const uint32_t *jid)
{
	json_object *root = json_object_new_object();
	int c;

	for (c = SP_KCLASS_SYSCALL; c < SP_KCLASS__COUNT; c++) {
		json_object *cls = json_object_new_object(), *arr = json_object_new_array();
		size_t i, not_given, by_annotation;

		for (i = 0; i < k->n[c]; i++)
			json_object_array_add(arr, entry_object(g, k->ids[c][i], jid));
		sp_json_put(cls, "stack",
				       json_object_new_string(sp_kclass_stack((enum sp_kclass)c)));
		sp_json_put(cls, "count", json_object_new_int64((int64_t)k->n[c]));
		sp_json_put(cls, "bounded",
				       json_object_new_int64((int64_t)count_bounded(g, k, c)));
		sp_json_put(cls, "partial", json_object_new_int64((int64_t)count_partial(
				    g, k, (enum sp_kclass)c, &not_given)));
		sp_json_put(cls, "partial_module_code", json_object_new_int64((int64_t)not_given));
		sp_json_put(cls, "assumed", json_object_new_int64((int64_t)count_assumed(
				    g, k, (enum sp_kclass)c, &by_annotation)));
		sp_json_put(cls, "assumed_annotation",
			    json_object_new_int64((int64_t)by_annotation));
		sp_json_put(cls, "entries", arr);
		sp_json_put(root, sp_kclass_name((enum sp_kclass)c), cls);
	}
	return root;
}
