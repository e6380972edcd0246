/*
 * json.c - the machine report, built and serialized by json-c.
 *
 * A kernel has ~10^5 functions with paths dozens of frames deep: as one
 * json-c tree that is gigabytes.  So json-c serializes the envelope with
 * an empty "functions" array, and then each function object on its own,
 * which is spliced into that array re-indented exactly as json-c would
 * have printed the whole tree.
 */
#include "report/report.h"

#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "report/path.h"

#define JSON_FLAGS (JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE)
/* how json-c pretty-prints the last member when it is an empty array */
#define EMPTY_TAIL "[\n  ]\n}"

static json_object *json_str(const char *s)
{
	return s ? json_object_new_string(s) : NULL;	/* NULL is JSON null */
}

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

/* How the path reached a frame: null for a call the binary shows. */
static json_object *via_name(uint8_t flags)
{
	if (flags & SP_EDGE_F_ASSUMED)
		return json_object_new_string("assumed");
	if (flags & SP_EDGE_F_ANNOTATED)
		return json_object_new_string("annotated");
	if (flags & SP_EDGE_F_EXCEPTION)
		return json_object_new_string("exception");
	return NULL;
}

static json_object *resolved_by(uint8_t flags, uint8_t how)
{
	return flags & SP_EDGE_F_ASSUMED ? json_str(sp_resolved_name((enum sp_resolved)how)) :
	       NULL;
}

static json_object *path_frame(const struct sp_func *f, bool tail, uint8_t flags,
			       uint8_t how)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "name", json_str(sp_func_label(f)));
	json_object_object_add(o, "file", json_str(f->file));
	json_object_object_add(o, "line", json_object_new_int64(f->line));
	json_object_object_add(o, "self", json_self(f));
	json_object_object_add(o, "frame_source", json_str(sp_frame_src_name(f->src)));
	json_object_object_add(o, "red_zone", json_object_new_int64(f->red_zone));
	json_object_object_add(o, "tail", json_object_new_boolean(tail));
	json_object_object_add(o, "via", via_name(flags));
	json_object_object_add(o, "resolved_by", resolved_by(flags, how));
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

		json_object_array_add(path, json_str(sp_func_label(f)));
		json_object_array_add(detail, path_frame(f, p.kinds[i] == SP_EDGE_TAIL,
							 p.flags[i], p.hows[i]));
		red_zone += f->red_zone;
	}
	snprintf(key, sizeof(key), "%spath", prefix);
	json_object_object_add(o, key, path);
	snprintf(key, sizeof(key), "%spath_detail", prefix);
	json_object_object_add(o, key, detail);
	snprintf(key, sizeof(key), "%spath_red_zone", prefix);
	json_object_object_add(o, key, json_object_new_uint64(red_zone));
	sp_path_release(&p);
}

/* An unbounded total's deeper path through an assumed call, apart from
 * its lower bound: null when there is none. */
static void add_paths(const struct sp_graph *g, uint32_t id, json_object *o)
{
	uint64_t assumed = g->funcs[id].res.assumed_lb;

	add_path(g, id, "", o);
	json_object_object_add(o, "assumed_lower_bound",
			       assumed ? json_object_new_uint64(assumed) : NULL);
	if (assumed)
		add_path(g, id, "assumed_", o);
}

/* Every edge out of the function, one per callee and kind (the graph
 * merged DWARF's and the code's), so that a reader can check the graph. */
static json_object *calls_array(const struct sp_graph *g, const struct sp_func *f)
{
	json_object *a = json_object_new_array_ext((int)f->edge_count);
	uint32_t i;

	for (i = f->edge_first; i < f->edge_first + f->edge_count; i++) {
		const struct sp_edge *e = &g->edges[i];
		json_object *c = json_object_new_object();

		json_object_object_add(c, "name", json_str(sp_func_label(&g->funcs[e->to])));
		json_object_object_add(c, "file", json_str(g->funcs[e->to].file));
		json_object_object_add(c, "tail", json_object_new_boolean(e->kind == SP_EDGE_TAIL));
		json_object_object_add(c, "via", via_name(e->flags));
		json_object_object_add(c, "resolved_by", resolved_by(e->flags, e->how));
		json_object_array_add(a, c);
	}
	for (i = 0; i < g->nswitches; i++) {
		const struct sp_edge *e = &g->switches[i];
		json_object *c;

		if (&g->funcs[e->from] != f)
			continue;
		c = json_object_new_object();
		json_object_object_add(c, "name", json_str(sp_func_label(&g->funcs[e->to])));
		json_object_object_add(c, "file", json_str(g->funcs[e->to].file));
		json_object_object_add(c, "tail", json_object_new_boolean(false));
		json_object_object_add(c, "via", json_object_new_string("stack-switch"));
		json_object_object_add(c, "resolved_by", NULL);
		json_object_array_add(a, c);
	}
	return a;
}

static void add_reason(void *ctx, const char *reason)
{
	json_object_array_add(ctx, json_object_new_string(reason));
}

static json_object *func_object(const struct sp_graph *g, uint32_t id)
{
	const struct sp_func *f = &g->funcs[id];
	const struct sp_result *r = &f->res;
	json_object *o = json_object_new_object(), *reasons = json_object_new_array();

	json_object_object_add(o, "name", json_str(sp_func_label(f)));
	json_object_object_add(o, "symbol", json_str(f->symbol));
	json_object_object_add(o, "address", json_address(f));
	json_object_object_add(o, "file", json_str(f->file));
	json_object_object_add(o, "line", json_object_new_int64(f->line));
	json_object_object_add(o, "col", json_object_new_int64(f->col));
	json_object_object_add(o, "self", json_self(f));
	json_object_object_add(o, "qualifier", json_str(sp_qual_name(f->qual)));
	json_object_object_add(o, "frame_source", json_str(sp_frame_src_name(f->src)));
	json_object_object_add(o, "red_zone", json_object_new_int64(f->red_zone));
	json_object_object_add(o, "dynamic_cause", json_str(f->dyn_cause));
	json_object_object_add(o, "total",
			       r->bounded ? json_object_new_uint64(r->total) : NULL);
	json_object_object_add(o, "lower_bound", json_object_new_uint64(r->total));
	json_object_object_add(o, "bounded", json_object_new_boolean(r->bounded));
	json_object_object_add(o, "partial", json_object_new_boolean(r->partial));
	json_object_object_add(o, "recursive",
			       json_object_new_boolean(f->flags & SP_F_RECURSIVE));
	json_object_object_add(o, "assumed", json_object_new_boolean(r->assumed));
	add_paths(g, id, o);
	json_object_object_add(o, "calls", calls_array(g, f));
	sp_reasons(g, id, add_reason, reasons);
	json_object_object_add(o, "reasons", reasons);
	return o;
}

static json_object *envelope(const struct sp_graph *g, const struct sp_report_opts *o)
{
	json_object *root = json_object_new_object(), *su = json_object_new_object();

	json_object_object_add(su, "files", json_object_new_int64(g->su_files));
	json_object_object_add(su, "rows", json_object_new_int64(g->su_rows));
	json_object_object_add(su, "matched", json_object_new_int64(g->su_matched));
	json_object_object_add(root, "version", json_object_new_int(1));
	json_object_object_add(root, "binary", json_str(g->binary));
	json_object_object_add(root, "su", su);
	if (o->kernel_summary)
		json_object_object_add(root, "kernel", sp_report_kernel_json(g));
	if (g->indirect_typed)
		json_object_object_add(root, "indirect_calls", sp_report_indirect_json(g, o));
	/* last, so that its serialization ends the text: see EMPTY_TAIL */
	json_object_object_add(root, "functions", json_object_new_array());
	return root;
}

/* Pretty output never has a raw newline inside a string (json-c escapes
 * it), so every '\n' is structure and takes the extra indentation. */
static void put_indented(const char *s, const char *indent, FILE *out)
{
	const char *nl;

	while ((nl = strchr(s, '\n'))) {
		fwrite(s, 1, (size_t)(nl - s) + 1, out);
		fputs(indent, out);
		s = nl + 1;
	}
	fputs(s, out);
}

static void put_functions(const struct sp_graph *g, const uint32_t *ids, size_t n,
			  FILE *out)
{
	size_t i;

	for (i = 0; i < n; i++) {
		json_object *o = func_object(g, ids[i]);

		fputs(i ? ",\n    " : "\n    ", out);
		put_indented(json_object_to_json_string_ext(o, JSON_FLAGS), "    ", out);
		json_object_put(o);
	}
}

/* The fallback if json-c ever prints an empty array differently. */
static void put_whole_tree(const struct sp_graph *g, json_object *root,
			   const uint32_t *ids, size_t n, FILE *out)
{
	json_object *funcs = json_object_object_get(root, "functions");
	size_t i;

	for (i = 0; i < n; i++)
		json_object_array_add(funcs, func_object(g, ids[i]));
	fputs(json_object_to_json_string_ext(root, JSON_FLAGS), out);
}

int sp_report_json(const struct sp_graph *g, const struct sp_report_opts *o,
		   FILE *out, struct sp_err *err)
{
	uint32_t *ids;
	size_t n = sp_report_select(g, o, &ids);
	json_object *root = envelope(g, o);
	const char *text = json_object_to_json_string_ext(root, JSON_FLAGS);
	size_t len = strlen(text), tail = strlen(EMPTY_TAIL);

	if (len > tail && !strcmp(text + len - tail, EMPTY_TAIL)) {
		fwrite(text, 1, len - tail + 1, out);	/* up to and with '[' */
		put_functions(g, ids, n, out);
		fputs(text + len - tail + 1, out);
	} else {
		put_whole_tree(g, root, ids, n, out);
	}
	fputc('\n', out);
	json_object_put(root);
	free(ids);
	if (ferror(out))
		return sp_err_set(err, "cannot write the JSON report");
	return 0;
}
