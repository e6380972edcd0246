/*
 * html_data.c - the data of the --html page: the functions of the JSON
 * report (report/listing.h, the same ids), one short array each, and
 * the strings they share in one table.
 *
 * A kernel's JSON report is 29 MB, and a page holding it opened in
 * seconds only to build 44,000 objects that a table of a hundred rows
 * at a time does not need.  So each function is one row of numbers and
 * its name, a file or a reason is an index into "strings", and the page
 * builds a path from the worst callees when a row is opened.  The page's
 * script (html.c) is the one reader of this format:
 *
 *	{"binary", "su", "segments": [[[id, tail, via, resolved_by] ...],
 *	  next] ...], "functions": [ROW ...], "strings": [...]}
 *	ROW: [name, file, line, self, red_zone, lower_bound, flags,
 *	      qualifier, dynamic_cause, worst_callee, tail, via, resolved_by,
 *	      segment, [reason ...], CERTAIN]
 *	CERTAIN: -1, or [callee, tail, via, resolved_by, segment]
 *
 * A string field is an index into "strings", -1 for null; worst_callee
 * and segment -1 for none; flags as SP_HTML_F_* below.  tail, via and
 * resolved_by are those of the edge to worst_callee.  The path of an
 * unbounded total (its lower bound) goes over certain calls only: where
 * a bounded function's next step over them differs from its own, CERTAIN
 * gives it.
 */
#include "report/html.h"

#include <stdlib.h>
#include <string.h>

#include "common/strtab.h"
#include "common/u64map.h"
#include "common/xalloc.h"
#include "report/jsonw.h"
#include "report/listing.h"
#include "report/reasons.h"

/* ROW's flags; the page's script has the same numbers */
#define SP_HTML_F_BOUNDED	1
#define SP_HTML_F_PARTIAL	2
#define SP_HTML_F_RECURSIVE	4
#define SP_HTML_F_ASSUMED	8
#define SP_HTML_F_SELECTED	16
#define SP_HTML_F_DEPTH		32

struct page {
	const struct sp_graph *g;
	struct sp_listing l;
	struct sp_reason_cache rc;
	struct sp_strtab texts;		/* a copy of each string, by content */
	struct sp_u64map index;		/* the copy's address -> its index */
	const char **strings;		/* by index */
	size_t nstrings, cap;
};

/* The index of s in "strings", -1 for NULL. */
static json_object *str_index(struct page *p, const char *s)
{
	uint32_t at;

	if (!s)
		return json_object_new_int(-1);
	s = sp_strtab_intern(&p->texts, s, strlen(s));
	at = sp_u64map_get(&p->index, (uintptr_t)s);
	if (at == UINT32_MAX) {
		SP_ALLOC_GROW(p->strings, p->nstrings + 1, p->cap);
		at = (uint32_t)p->nstrings;
		p->strings[p->nstrings++] = s;
		sp_u64map_put(&p->index, (uintptr_t)s, at);
	}
	return json_object_new_int64(at);
}

/* A listed id, -1 for none. */
static json_object *id_or_none(uint32_t id)
{
	return id == SP_NONE ? json_object_new_int(-1) : json_object_new_int64(id);
}

/* tail, via and resolved_by of an edge, onto a */
static void add_edge(struct page *p, json_object *a, uint8_t kind, uint8_t flags, uint8_t how)
{
	json_object_array_add(a, json_object_new_int(kind == SP_EDGE_TAIL));
	json_object_array_add(a, str_index(p, sp_json_via(flags)));
	json_object_array_add(a, str_index(p, sp_json_resolved_by(flags, how)));
}

static json_object *segments(struct page *p)
{
	const struct sp_graph *g = p->g;
	json_object *a = json_object_new_array_ext((int)p->l.nsegs);
	uint32_t i, k;

	for (i = 0; i < p->l.nsegs; i++) {
		const struct sp_path_seg *seg = &g->segs[p->l.segs[i]];
		json_object *s = json_object_new_array_ext(2);
		json_object *steps = json_object_new_array_ext((int)seg->n);

		for (k = 0; k < seg->n; k++) {
			const struct sp_path_step *st = &g->steps[seg->first + k];
			json_object *step = json_object_new_array_ext(4);

			json_object_array_add(step, json_object_new_int64(p->l.id[st->func]));
			add_edge(p, step, st->kind, st->flags, st->how);
			json_object_array_add(steps, step);
		}
		json_object_array_add(s, steps);
		json_object_array_add(s, id_or_none(seg->cont < g->nsegs ?
						    p->l.seg_id[seg->cont] : SP_NONE));
		json_object_array_add(a, s);
	}
	return a;
}

static unsigned row_flags(const struct page *p, uint32_t lid)
{
	const struct sp_func *f = &p->g->funcs[p->l.order[lid]];

	return (f->res.bounded ? SP_HTML_F_BOUNDED : 0) |
	       (f->res.partial ? SP_HTML_F_PARTIAL : 0) |
	       (f->flags & SP_F_RECURSIVE ? SP_HTML_F_RECURSIVE : 0) |
	       (f->res.assumed ? SP_HTML_F_ASSUMED : 0) |
	       (lid < p->l.nselected ? SP_HTML_F_SELECTED : 0) |
	       (f->flags & SP_F_DEPTH_BOUNDED ? SP_HTML_F_DEPTH : 0);
}

static void add_reason(void *ctx, const char *reason)
{
	struct page *p = ((void **)ctx)[0];

	json_object_array_add(((void **)ctx)[1], str_index(p, reason));
}

/* callee, tail, via, resolved_by and segment of a step, onto a */
static void add_step(struct page *p, json_object *a, const struct sp_listing_step *st)
{
	json_object_array_add(a, id_or_none(st->next == SP_NONE ? SP_NONE :
					    p->l.id[st->next]));
	add_edge(p, a, st->kind, st->flags, st->how);
	json_object_array_add(a, id_or_none(st->seg));
}

static json_object *row(struct page *p, uint32_t lid)
{
	const struct sp_graph *g = p->g;
	uint32_t id = p->l.order[lid];
	const struct sp_func *f = &g->funcs[id];
	json_object *r = json_object_new_array_ext(16), *why = json_object_new_array();
	json_object *certain = json_object_new_int(-1);
	void *ctx[2] = { p, why };
	struct sp_listing_step st, other;

	json_object_array_add(r, json_object_new_string(sp_func_label(f)));
	json_object_array_add(r, str_index(p, f->file));
	json_object_array_add(r, json_object_new_int64(f->line));
	json_object_array_add(r, f->qual == SP_QUAL_UNKNOWN ? NULL :
			      json_object_new_uint64(f->self));
	json_object_array_add(r, json_object_new_int64(f->red_zone));
	json_object_array_add(r, json_object_new_uint64(f->res.total));
	json_object_array_add(r, json_object_new_int(row_flags(p, lid)));
	json_object_array_add(r, str_index(p, sp_qual_name(f->qual)));
	json_object_array_add(r, str_index(p, f->dyn_cause));
	if (sp_listing_steps(&p->l, g, id, &st, &other) && f->res.bounded) {
		json_object_put(certain);
		certain = json_object_new_array_ext(5);
		add_step(p, certain, &other);
	}
	add_step(p, r, &st);
	sp_reason_cache_each(&p->rc, g, id, add_reason, ctx);
	json_object_array_add(r, why);
	json_object_array_add(r, certain);
	return r;
}

static json_object *envelope(struct page *p)
{
	const struct sp_graph *g = p->g;
	json_object *root = json_object_new_object(), *su = json_object_new_object();
	json_object *funcs = json_object_new_array(), *strings = json_object_new_array();

	sp_json_put(su, "files", json_object_new_int64(g->su_files));
	sp_json_put(su, "rows", json_object_new_int64(g->su_rows));
	sp_json_put(su, "matched", json_object_new_int64(g->su_matched));
	sp_json_put(root, "binary", sp_json_str(g->binary));
	sp_json_put(root, "su", su);
	sp_json_put(root, "segments", segments(p));
	json_object_array_add(funcs, sp_jsonw_marker());
	sp_json_put(root, "functions", funcs);
	json_object_array_add(strings, sp_jsonw_marker());
	sp_json_put(root, "strings", strings);
	return root;
}

void sp_report_html_data(const struct sp_graph *g, const struct sp_report_opts *o, FILE *out)
{
	struct page p = { .g = g };
	struct sp_jsonw w;
	size_t i;

	sp_listing_init(&p.l, g, o);
	sp_reason_cache_init(&p.rc);
	sp_strtab_init(&p.texts);
	sp_u64map_init(&p.index, 1024);
	sp_jsonw_begin(&w, envelope(&p), out);
	for (i = 0; i < p.l.n; i++)
		sp_jsonw_add(&w, row(&p, (uint32_t)i));
	sp_jsonw_next(&w);
	for (i = 0; i < p.nstrings; i++)
		sp_jsonw_add(&w, json_object_new_string(p.strings[i]));
	sp_jsonw_end(&w);
	free(p.strings);
	sp_u64map_release(&p.index);
	sp_strtab_release(&p.texts);
	sp_reason_cache_release(&p.rc);
	sp_listing_release(&p.l);
}
