/*
 * json.c - the machine report, version 2 (doc/stackprof.schema.json),
 * built and printed by json-c.
 *
 * A function names the next function of its worst path ("worst_callee",
 * and "worst_call", the edge in its "calls") instead of carrying the
 * path: a kernel's 42,859 functions with paths 49 frames deep were
 * 687 MB, nearly all of it the same paths again and again.  Below a
 * once/nest function the path is not its callees' own (analysis/nest.c
 * cuts calls back into it), so such a function names its segment, whose
 * steps are listed once in "segments".  The whole path is written only
 * for the functions the report shows (sp_report_opts.all_paths: all).
 *
 * Functions are named by their index in "functions": the report's own
 * (the selection of sp_report_select, "selected") first, then the
 * functions they reach, so that every id a call, path or site holds is
 * listed.  Each function object is built, printed and freed in turn
 * (report/jsonw.h).
 */
#include "report/report.h"

#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "common/xalloc.h"
#include "report/jsonw.h"
#include "report/listing.h"
#include "report/path.h"
#include "report/reasons.h"

struct jreport {
	const struct sp_graph *g;
	const struct sp_report_opts *o;
	struct sp_listing l;	/* the functions, by their JSON ids */
	struct sp_reason_cache rc;
};

/* The entry address, as hex text (JSON numbers lose a kernel address's
 * low bits in many readers); in a relocatable object, the offset in its
 * section.  null without code. */
static json_object *json_address(const struct sp_func *f)
{
	char hex[32];

	if (!(f->flags & SP_F_HAS_CODE))
		return NULL;
	snprintf(hex, sizeof(hex), "0x%llx", (unsigned long long)f->addr);
	return json_object_new_string(hex);
}

static json_object *json_self(const struct sp_func *f)
{
	return f->qual == SP_QUAL_UNKNOWN ? NULL : json_object_new_uint64(f->self);
}

/* An edge by its callee's id; "tail", "via" and "resolved_by" only when
 * not false or null, as a kernel has hundreds of thousands of calls. */
static json_object *edge_object(const struct jreport *jr, uint32_t to, uint8_t kind,
				uint8_t flags, uint8_t how)
{
	json_object *o = json_object_new_object();
	const char *via = sp_json_via(flags), *res = sp_json_resolved_by(flags, how);

	sp_json_put(o, "id", json_object_new_int64(jr->l.id[to]));
	if (kind == SP_EDGE_TAIL)
		sp_json_put(o, "tail", json_object_new_boolean(true));
	if (via)
		sp_json_put(o, "via", json_object_new_string(via));
	if (res)
		sp_json_put(o, "resolved_by", json_object_new_string(res));
	return o;
}

static json_object *path_frame(const struct sp_func *f, bool tail, uint8_t flags,
			       uint8_t how)
{
	json_object *o = json_object_new_object();

	sp_json_put(o, "name", sp_json_str(sp_func_label(f)));
	sp_json_put(o, "file", sp_json_str(f->file));
	sp_json_put(o, "line", json_object_new_int64(f->line));
	sp_json_put(o, "self", json_self(f));
	sp_json_put(o, "frame_source", sp_json_str(sp_frame_src_name(f->src)));
	sp_json_put(o, "image", sp_json_str(f->lib));
	sp_json_put(o, "red_zone", json_object_new_int64(f->red_zone));
	sp_json_put(o, "tail", json_object_new_boolean(tail));
	sp_json_put(o, "via", sp_json_str(sp_json_via(flags)));
	sp_json_put(o, "resolved_by", sp_json_str(sp_json_resolved_by(flags, how)));
	return o;
}

/* The path of the total (of its certain lower bound when unbounded), or
 * with prefix "assumed_" the worst path through an assumed call. */
static void add_path(const struct sp_graph *g, uint32_t id, const char *prefix,
		     json_object *o)
{
	struct sp_path p;
	json_object *path, *detail;
	uint64_t red_zone = 0;
	char key[32];
	size_t i;

	if (*prefix)
		sp_path_load_assumed(g, id, &p);
	else
		sp_path_load(g, id, &p);
	path = json_object_new_array_ext((int)p.n);
	detail = json_object_new_array_ext((int)p.n);
	for (i = 0; i < p.n; i++) {
		const struct sp_func *f = &g->funcs[p.ids[i]];

		json_object_array_add(path, sp_json_str(sp_func_label(f)));
		json_object_array_add(detail, path_frame(f, p.kinds[i] == SP_EDGE_TAIL,
							 p.flags[i], p.hows[i]));
		red_zone += f->red_zone;
	}
	/* keys made here: json-c copies them */
	snprintf(key, sizeof(key), "%spath", prefix);
	json_object_object_add(o, key, path);
	snprintf(key, sizeof(key), "%spath_detail", prefix);
	json_object_object_add(o, key, detail);
	snprintf(key, sizeof(key), "%spath_red_zone", prefix);
	json_object_object_add(o, key, json_object_new_uint64(red_zone));
	sp_path_release(&p);
}

/* The path of lower_bound, and an unbounded total's deeper path through
 * an assumed call when it has one. */
static void add_paths(const struct sp_graph *g, uint32_t id, json_object *o)
{
	uint64_t assumed = g->funcs[id].res.assumed_lb;

	add_path(g, id, "", o);
	if (assumed)
		add_path(g, id, "assumed_", o);
}

/* Every edge out of the function, one per callee and kind (the graph
 * merged DWARF's and the code's), so that a reader can check the graph. */
static json_object *calls_array(const struct jreport *jr, const struct sp_func *f)
{
	json_object *a = json_object_new_array_ext((int)f->edge_count);
	const struct sp_edge *e;
	uint32_t i;

	sp_func_for_each_edge(jr->g, f, e)
		json_object_array_add(a, edge_object(jr, e->to, e->kind, e->flags, e->how));
	/* a call made on another stack: no part of the total */
	for (i = 0; i < jr->g->nswitches; i++) {
		const struct sp_edge *s = &jr->g->switches[i];
		json_object *c;

		if (&jr->g->funcs[s->from] != f)
			continue;
		c = json_object_new_object();
		sp_json_put(c, "id", json_object_new_int64(jr->l.id[s->to]));
		sp_json_put(c, "via", json_object_new_string("stack-switch"));
		json_object_array_add(a, c);
	}
	return a;
}

/* A way's next step: callee, call and segment under the keys keys[] */
static void put_step(const struct jreport *jr, const struct sp_listing_step *st,
		     const char *const keys[3], json_object *o)
{
	sp_json_put(o, keys[0], st->next == SP_NONE ? NULL :
		    json_object_new_int64(jr->l.id[st->next]));
	sp_json_put(o, keys[1], st->call < 0 ? NULL : json_object_new_int64(st->call));
	if (st->seg != SP_NONE)
		sp_json_put(o, keys[2], json_object_new_int64(st->seg));
}

/*
 * "worst_callee", "worst_call" and "segment": the next step of the path
 * of lower_bound.  Where the other way's step differs, it is given too:
 * a bounded function's over certain calls ("certain_"), which the
 * lower bound of an unbounded caller takes through it; an unbounded
 * one's over every call ("assumed_"), which an assumed path takes.
 */
static void add_steps(const struct jreport *jr, uint32_t id, json_object *o)
{
	static const char *const own[3] = { "worst_callee", "worst_call", "segment" };
	static const char *const certain[3] = { "certain_callee", "certain_call",
						 "certain_segment" };
	static const char *const assumed[3] = { "assumed_callee", "assumed_call",
						 "assumed_segment" };
	struct sp_listing_step st, other;
	bool differs = sp_listing_steps(&jr->l, jr->g, id, &st, &other);

	put_step(jr, &st, own, o);
	if (differs)
		put_step(jr, &other, jr->g->funcs[id].res.bounded ? certain : assumed, o);
}

static void add_reason(void *ctx, const char *reason)
{
	json_object_array_add(ctx, json_object_new_string(reason));
}

static json_object *func_object(struct jreport *jr, uint32_t jid)
{
	const struct sp_graph *g = jr->g;
	uint32_t id = jr->l.order[jid];
	const struct sp_func *f = &g->funcs[id];
	const struct sp_result *r = &f->res;
	json_object *o = json_object_new_object(), *reasons = json_object_new_array();

	sp_json_put(o, "id", json_object_new_int64(jid));
	sp_json_put(o, "name", sp_json_str(sp_func_label(f)));
	sp_json_put(o, "symbol", sp_json_str(f->symbol));
	sp_json_put(o, "image", sp_json_str(f->lib));
	sp_json_put(o, "address", json_address(f));
	sp_json_put(o, "file", sp_json_str(f->file));
	sp_json_put(o, "line", json_object_new_int64(f->line));
	sp_json_put(o, "col", json_object_new_int64(f->col));
	sp_json_put(o, "self", json_self(f));
	sp_json_put(o, "qualifier", sp_json_str(sp_qual_name(f->qual)));
	sp_json_put(o, "frame_source", sp_json_str(sp_frame_src_name(f->src)));
	sp_json_put(o, "red_zone", json_object_new_int64(f->red_zone));
	sp_json_put(o, "dynamic_cause", sp_json_str(f->dyn_cause));
	sp_json_put(o, "total",
			       r->bounded ? json_object_new_uint64(r->total) : NULL);
	sp_json_put(o, "lower_bound", json_object_new_uint64(r->total));
	sp_json_put(o, "bounded", json_object_new_boolean(r->bounded));
	sp_json_put(o, "partial", json_object_new_boolean(r->partial));
	sp_json_put(o, "recursive",
			       json_object_new_boolean(f->flags & SP_F_RECURSIVE));
	sp_json_put(o, "assumed", json_object_new_boolean(r->assumed));
	sp_json_put(o, "selected", json_object_new_boolean(jid < jr->l.nselected));
	/* a bound on its cycle that no single path reaches */
	if (f->flags & SP_F_DEPTH_BOUNDED)
		sp_json_put(o, "depth_bounded", json_object_new_boolean(true));
	add_steps(jr, id, o);
	sp_json_put(o, "assumed_lower_bound",
		    r->assumed_lb ? json_object_new_uint64(r->assumed_lb) : NULL);
	sp_json_put(o, "calls", calls_array(jr, f));
	sp_reason_cache_each(&jr->rc, g, id, add_reason, reasons);
	sp_json_put(o, "reasons", reasons);
	if (jr->l.shown[id])
		add_paths(g, id, o);
	return o;
}

static json_object *segments_array(const struct jreport *jr)
{
	const struct sp_graph *g = jr->g;
	json_object *a = json_object_new_array_ext((int)jr->l.nsegs);
	uint32_t i, k;

	for (i = 0; i < jr->l.nsegs; i++) {
		const struct sp_path_seg *seg = &g->segs[jr->l.segs[i]];
		json_object *o = json_object_new_object();
		json_object *steps = json_object_new_array_ext((int)seg->n);

		for (k = 0; k < seg->n; k++) {
			const struct sp_path_step *st = &g->steps[seg->first + k];

			json_object_array_add(steps, edge_object(jr, st->func, st->kind,
								 st->flags, st->how));
		}
		sp_json_put(o, "steps", steps);
		sp_json_put(o, "next", seg->cont < g->nsegs ?
				       json_object_new_int64(jr->l.seg_id[seg->cont]) : NULL);
		json_object_array_add(a, o);
	}
	return a;
}

static json_object *envelope(const struct jreport *jr)
{
	const struct sp_graph *g = jr->g;
	json_object *root = json_object_new_object(), *su = json_object_new_object();
	json_object *funcs = json_object_new_array();

	sp_json_put(su, "files", json_object_new_int64(g->su_files));
	sp_json_put(su, "rows", json_object_new_int64(g->su_rows));
	sp_json_put(su, "matched", json_object_new_int64(g->su_matched));
	sp_json_put(root, "version", json_object_new_int(SP_JSON_VERSION));
	sp_json_put(root, "binary", sp_json_str(g->binary));
	sp_json_put(root, "su", su);
	sp_json_put(root, "paths",
			       json_object_new_string(jr->o->all_paths ? "all" : "shown"));
	if (jr->o->kernel_summary)
		sp_json_put(root, "kernel", sp_report_kernel_json(g, &jr->l.kernel, jr->l.id));
	if (g->indirect_typed) {
		json_object *sites = json_object_new_array(), *sets = json_object_new_array();

		json_object_array_add(sites, sp_jsonw_marker());
		sp_json_put(root, "indirect_calls", sites);
		json_object_array_add(sets, sp_jsonw_marker());
		sp_json_put(root, "target_sets", sets);
	}
	sp_json_put(root, "segments", segments_array(jr));
	json_object_array_add(funcs, sp_jsonw_marker());
	sp_json_put(root, "functions", funcs);
	return root;
}

/* "indirect_calls", then "target_sets" */
static void put_sites(const struct jreport *jr, struct sp_jsonw *w)
{
	const struct sp_graph *g = jr->g;
	struct sp_target_sets ts;
	uint32_t i;

	sp_target_sets_init(&ts, g, jr->l.id);
	for (i = 0; i < g->nisites; i++)
		if (jr->l.id[g->isites[i].func] != SP_NONE)
			sp_jsonw_add(w, sp_report_isite_json(g, &ts, i, jr->l.id));
	sp_jsonw_next(w);
	for (i = 0; i < ts.n; i++)
		sp_jsonw_add(w, sp_report_target_set_json(g, &ts, i, jr->l.id));
	sp_jsonw_next(w);
	sp_target_sets_release(&ts);
}

int sp_report_json(const struct sp_graph *g, const struct sp_report_opts *o,
		   FILE *out, struct sp_err *err)
{
	struct jreport jr = { .g = g, .o = o };
	struct sp_jsonw w;
	uint32_t i;

	sp_listing_init(&jr.l, g, o);
	sp_reason_cache_init(&jr.rc);
	sp_jsonw_begin(&w, envelope(&jr), out);
	if (g->indirect_typed)
		put_sites(&jr, &w);
	for (i = 0; i < jr.l.n; i++)
		sp_jsonw_add(&w, func_object(&jr, i));
	sp_jsonw_end(&w);
	sp_reason_cache_release(&jr.rc);
	sp_listing_release(&jr.l);
	if (ferror(out))
		return sp_err_set(err, "cannot write the JSON report");
	return 0;
}
