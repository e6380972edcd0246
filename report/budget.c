/*
 * budget.c - which functions a report covers, and the budget check:
 * GCC-style diagnostics so that editors and CI jump to the function.
 */
#include "report/report.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "common/xalloc.h"
#include "report/reasons.h"

/* 32 bytes: glibc's qsort moves elements up to that size itself, and
 * sorts larger ones through an array of pointers (a million rows: 10 %
 * of the report); the file, needed on equal names only, is the id's */
struct select_key {
	uint64_t total;
	uint64_t prefix;	/* name_prefix(name) */
	const char *name;
	uint32_t id;
};

/*
 * The first 8 bytes of s as a big-endian number, zeros past its end (and
 * for NULL): where two prefixes differ, the names compare as strcmp_null
 * would, without reading the strings again -- sorting a million rows,
 * whose totals tie often, missed the caches on both names each time.
 */
static uint64_t name_prefix(const char *s)
{
	uint64_t v = 0;
	int i;

	for (i = 0; i < 8; i++) {
		v <<= 8;
		if (s && *s)
			v |= (unsigned char)*s++;
	}
	return v;
}

/* NULL sorts before any string, so functions without a file come first */
static int strcmp_null(const char *a, const char *b)
{
	if (!a || !b)
		return (a != NULL) - (b != NULL);
	return strcmp(a, b);
}

static int select_cmp(const void *pa, const void *pb, void *graph)
{
	const struct select_key *a = pa, *b = pb;
	const struct sp_graph *g = graph;
	int c;

	if (a->total != b->total)
		return a->total > b->total ? -1 : 1;
	if (a->prefix != b->prefix)
		return a->prefix < b->prefix ? -1 : 1;
	if ((c = strcmp_null(a->name, b->name)))
		return c;
	if ((c = strcmp_null(g->funcs[a->id].file, g->funcs[b->id].file)))
		return c;
	return (a->id > b->id) - (a->id < b->id);
}

static void key_of(const struct sp_graph *g, uint32_t id, struct select_key *k)
{
	const struct sp_func *f = &g->funcs[id];

	k->total = f->res.total;
	k->name = sp_func_label(f);
	k->prefix = name_prefix(k->name);
	k->id = id;
}

/*
 * Without --entry: every function with code, except those known only by
 * their symbol and without any frame data (crt1's _start, assembly stubs):
 * nothing about them can be bounded, so listing them, each ">= 0+", would
 * fail every budget of every program.  Their callers still see them.
 * A frame read from the binary (CFI, the code) does not make one a root
 * either: _start's indirect call to __libc_start_main would make every
 * program unbounded.  Nor is a shared library's function (sp_func.lib).
 */
static bool default_root(const struct sp_func *f)
{
	/* a library's functions are there for the program's calls */
	if (!(f->flags & SP_F_HAS_CODE) || f->lib)
		return false;
	return !(f->flags & SP_F_SYMTAB_ONLY) ||
	       (f->qual != SP_QUAL_UNKNOWN && !sp_frame_src_read(f->src));
}

/* Sort n keys, keeping each id once (an entry named twice sorts next to
 * itself), into ids; returns how many. */
static size_t sort_keys(const struct sp_graph *g, struct select_key *keys, size_t n,
			uint32_t *ids)
{
	size_t i, out = 0;

	if (n)
		qsort_r(keys, n, sizeof(*keys), select_cmp, (void *)g);
	for (i = 0; i < n; i++)
		if (!out || keys[i].id != ids[out - 1])
			ids[out++] = keys[i].id;
	return out;
}

size_t sp_report_sort(const struct sp_graph *g, uint32_t *ids, size_t n)
{
	struct select_key *keys = sp_xmalloc((n ? n : 1) * sizeof(*keys));
	size_t i;

	for (i = 0; i < n; i++)
		key_of(g, ids[i], &keys[i]);
	n = sort_keys(g, keys, n, ids);
	free(keys);
	return n;
}

size_t sp_report_select(const struct sp_graph *g, const struct sp_report_opts *o,
			uint32_t **ids)
{
	struct select_key *keys;
	size_t i, n = 0, out;
	bool entries = o && o->entries && o->nentries;
	size_t max = entries ? o->nentries : g->nfuncs;

	*ids = NULL;
	if (!max)
		return 0;
	keys = sp_xmalloc(max * sizeof(*keys));
	for (i = 0; i < max; i++) {
		uint32_t id = entries ? o->entries[i] : (uint32_t)i;

		if (id >= g->nfuncs)
			continue;
		if (!entries && !default_root(&g->funcs[id]))
			continue;
		key_of(g, id, &keys[n++]);
	}
	*ids = sp_xmalloc((n ? n : 1) * sizeof(**ids));
	out = sort_keys(g, keys, n, *ids);
	free(keys);
	if (!out) {
		free(*ids);
		*ids = NULL;
	}
	return out;
}

/* GCC's "file:line:col: " so editors can jump; the binary when unknown. */
static void print_where(const struct sp_graph *g, const struct sp_func *f, FILE *diag)
{
	if (f->file && f->line)
		fprintf(diag, "%s:%u:%u: ", f->file, f->line, f->col ? f->col : 1);
	else if (f->file)
		fprintf(diag, "%s: ", f->file);
	else
		fprintf(diag, "%s: ", g->binary ? g->binary : "stackprof");
}

static void print_via(const struct sp_graph *g, uint32_t id, FILE *diag)
{
	size_t n = sp_worst_path(g, id, NULL, NULL, SIZE_MAX), i;
	uint32_t *path = sp_xmalloc((n ? n : 1) * sizeof(*path));

	n = sp_worst_path(g, id, path, NULL, n);
	fputs(" via ", diag);
	for (i = 0; i < n; i++)	/* a trap's entry node is reached by an exception */
		fprintf(diag, "%s%s%s", i ? " \u2192 " : "", sp_func_label(&g->funcs[path[i]]),
			g->funcs[path[i]].flags & SP_F_EXCEPTION_ENTRY ? " [exception]" : "");
	free(path);
}

/*
 * Why the total has no bound: the unbounded causes (DYNAMIC, RECURSION,
 * INDIRECT) in sp_reasons()'s order, joined by "; ".
 */
static void print_unbounded_reasons(const struct sp_graph *g, uint32_t id,
				    struct sp_reason_cache *rc, FILE *diag)
{
	const char *sep = "";
	int c;

	for (c = 0; c < SP_CAUSE__COUNT; c++) {
		const char *text;

		if (!sp_cause_unbounded((enum sp_cause)c) ||
		    !(text = sp_reason_cached(rc, g, id, c)))
			continue;
		fprintf(diag, "%s%s", sep, text);
		sep = "; ";
	}
}

/* An annotated entry's own budget replaces --budget for it. */
static bool budget_of(const struct sp_func *f, const struct sp_report_opts *o,
		      uint64_t *budget)
{
	if (f->flags & SP_F_BUDGET) {
		*budget = f->budget;
		return true;
	}
	*budget = o->budget;
	return o->has_budget;
}

bool sp_report_over_budget(const struct sp_func *f, const struct sp_report_opts *o)
{
	uint64_t budget;

	if (!budget_of(f, o, &budget))
		return false;
	if (!f->res.bounded && !o->allow_unbounded)
		return true;
	return f->res.total > budget;
}

void sp_report_budget_message(const struct sp_graph *g, const struct sp_report_opts *o,
			      uint32_t id, struct sp_reason_cache *rc, FILE *diag)
{
	const struct sp_func *f = &g->funcs[id];
	uint64_t budget;

	budget_of(f, o, &budget);
	if (!f->res.bounded && !o->allow_unbounded) {
		fputs("stack usage unbounded (", diag);
		print_unbounded_reasons(g, id, rc, diag);
		fprintf(diag, "), at least %llu bytes", (unsigned long long)f->res.total);
	} else {
		fprintf(diag, "stack budget exceeded: %llu > %llu bytes",
			(unsigned long long)f->res.total, (unsigned long long)budget);
	}
	print_via(g, id, diag);
}

static bool any_annotated_budget(const struct sp_graph *g)
{
	uint32_t id;

	for (id = 0; id < g->nfuncs; id++)
		if (g->funcs[id].flags & SP_F_BUDGET)
			return true;
	return false;
}

/* The selected functions, then the annotated entries not among them;
 * none when no budget applies to any function (a kernel-sized graph then
 * skips sorting every function once more). */
static size_t budget_ids(const struct sp_graph *g, const struct sp_report_opts *o,
			 uint32_t **ids)
{
	size_t n, cap, i;
	uint8_t *seen;
	uint32_t id;

	*ids = NULL;
	if (!o->has_budget && !any_annotated_budget(g))
		return 0;
	n = cap = sp_report_select(g, o, ids);
	seen = sp_xcalloc(g->nfuncs ? g->nfuncs : 1, 1);
	for (i = 0; i < n; i++)
		seen[(*ids)[i]] = 1;
	for (id = 0; id < g->nfuncs; id++) {
		if (!(g->funcs[id].flags & SP_F_BUDGET) || seen[id])
			continue;
		SP_ALLOC_GROW(*ids, n + 1, cap);
		(*ids)[n++] = id;
	}
	free(seen);
	return n;
}

/*
 * The diagnostics go through a buffer of ours: diag is stderr, which
 * stdio does not buffer, and a kernel's tens of thousands of offenders,
 * each with its path, were millions of write calls.
 */
#define DIAG_CHUNK (1u << 16)

static void flush_diag(FILE *mem, char **buf, size_t *len, FILE *diag)
{
	fflush(mem);
	fwrite(*buf, 1, *len, diag);
	rewind(mem);
}

size_t sp_report_budget(const struct sp_graph *g, const struct sp_report_opts *o,
			FILE *diag)
{
	struct sp_reason_cache rc;
	uint32_t *ids;
	size_t n = budget_ids(g, o, &ids), i, over = 0, len = 0;
	char *buf = NULL;
	FILE *mem;

	if (!n)
		return 0;
	if (!(mem = open_memstream(&buf, &len)))
		sp_die_oom();
	sp_reason_cache_init(&rc);
	for (i = 0; i < n; i++) {
		const struct sp_func *f = &g->funcs[ids[i]];

		if (!sp_report_over_budget(f, o))
			continue;
		over++;
		print_where(g, f, mem);
		fputs("error: ", mem);
		sp_report_budget_message(g, o, ids[i], &rc, mem);
		fputc('\n', mem);
		if (ftell(mem) >= DIAG_CHUNK)
			flush_diag(mem, &buf, &len, diag);
	}
	flush_diag(mem, &buf, &len, diag);
	fclose(mem);
	free(buf);
	sp_reason_cache_release(&rc);
	free(ids);
	return over;
}
