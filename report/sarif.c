/*
 * sarif.c - SARIF 2.1.0 (OASIS) for code-scanning UIs, built by json-c.
 *
 * One run, two rules.  A result's location is the function's declaration
 * as the .su/DWARF file names it: a relative path is a URI reference
 * relative to SRCROOT (where the compiler ran), which is what GitHub's
 * code scanning resolves against the checkout.
 */
#include "report/report.h"

#include <json-c/json.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "common/xalloc.h"
#include "report/jsonw.h"
#include "report/reasons.h"

#define SARIF_SCHEMA "https://json.schemastore.org/sarif-2.1.0.json"

enum { RULE_BUDGET, RULE_DYNAMIC };

static const struct {
	const char *id, *name, *text;
} rules[] = {
	[RULE_BUDGET] = { "stack-budget", "StackBudgetExceeded",
			  "The worst-case stack depth of a function exceeds the budget" },
	[RULE_DYNAMIC] = { "dynamic-frame", "DynamicStackFrame",
			   "A stack frame whose size is only known at run time "
			   "(variable-length array or alloca)" },
};

static json_object *text_object(const char *text)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "text", json_object_new_string(text));
	return o;
}

static json_object *driver(void)
{
	json_object *d = json_object_new_object(), *rs = json_object_new_array();
	size_t i;

	json_object_object_add(d, "name", json_object_new_string("stackprof"));
	json_object_object_add(d, "version", json_object_new_string(STACKPROF_VERSION));
	for (i = 0; i < sizeof(rules) / sizeof(rules[0]); i++) {
		json_object *r = json_object_new_object();

		json_object_object_add(r, "id", json_object_new_string(rules[i].id));
		json_object_object_add(r, "name", json_object_new_string(rules[i].name));
		json_object_object_add(r, "shortDescription", text_object(rules[i].text));
		json_object_array_add(rs, r);
	}
	json_object_object_add(d, "rules", rs);
	return d;
}

/* RFC 3986: keep unreserved characters and '/', percent-encode the rest. */
static char *uri_of_path(const char *path)
{
	static const char hex[] = "0123456789ABCDEF";
	size_t n = strlen(path), i, j = 0;
	char *out = sp_xmalloc(3 * n + 8);

	if (path[0] == '/') {
		memcpy(out, "file://", 7);
		j = 7;
	}
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)path[i];

		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		    (c >= '0' && c <= '9') || strchr("-._~/", c)) {
			out[j++] = (char)c;
		} else {
			out[j++] = '%';
			out[j++] = hex[c >> 4];
			out[j++] = hex[c & 15];
		}
	}
	out[j] = '\0';
	return out;
}

static json_object *location(const struct sp_graph *g, const struct sp_func *f)
{
	json_object *loc = json_object_new_object(), *logical = json_object_new_object();
	json_object *logicals = json_object_new_array();
	const char *file = f->file ? f->file : g->binary;

	if (file) {
		json_object *phys = json_object_new_object(), *art = json_object_new_object();
		char *uri = uri_of_path(file);

		json_object_object_add(art, "uri", json_object_new_string(uri));
		if (file[0] != '/')
			json_object_object_add(art, "uriBaseId",
					       json_object_new_string("SRCROOT"));
		json_object_object_add(phys, "artifactLocation", art);
		if (f->file && f->line) {
			json_object *region = json_object_new_object();

			json_object_object_add(region, "startLine",
					       json_object_new_int64(f->line));
			if (f->col)
				json_object_object_add(region, "startColumn",
						       json_object_new_int64(f->col));
			json_object_object_add(phys, "region", region);
		}
		json_object_object_add(loc, "physicalLocation", phys);
		free(uri);
	}
	json_object_object_add(logical, "name", json_object_new_string(sp_func_label(f)));
	json_object_object_add(logical, "kind", json_object_new_string("function"));
	json_object_array_add(logicals, logical);
	json_object_object_add(loc, "logicalLocations", logicals);
	return loc;
}

static json_object *result(const struct sp_graph *g, const struct sp_func *f, int rule,
			   const char *level, const char *message)
{
	json_object *r = json_object_new_object(), *locs = json_object_new_array();

	json_object_object_add(r, "ruleId", json_object_new_string(rules[rule].id));
	json_object_object_add(r, "ruleIndex", json_object_new_int(rule));
	json_object_object_add(r, "level", json_object_new_string(level));
	json_object_object_add(r, "message", text_object(message));
	json_object_array_add(locs, location(g, f));
	json_object_object_add(r, "locations", locs);
	return r;
}

static json_object *budget_result(const struct sp_graph *g, const struct sp_report_opts *o,
				  uint32_t id, struct sp_reason_cache *rc)
{
	char *text = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);
	json_object *r;

	if (!mem)
		sp_die_oom();
	sp_report_budget_message(g, o, id, rc, mem);
	fclose(mem);
	r = result(g, &g->funcs[id], RULE_BUDGET, "error", text);
	free(text);
	return r;
}

static json_object *dynamic_result(const struct sp_graph *g, const struct sp_func *f)
{
	char text[1024];
	bool bounded = f->qual == SP_QUAL_BOUNDED;

	snprintf(text, sizeof(text), "%s stack frame of %s (%s%llu bytes): %s",
		 bounded ? "bounded dynamic" : "dynamic", sp_func_label(f),
		 bounded ? "at most " : "at least ", (unsigned long long)f->self,
		 f->dyn_cause ? f->dyn_cause : "cause not found in DWARF");
	return result(g, f, RULE_DYNAMIC, bounded ? "note" : "warning", text);
}

/* The log with an empty "results" but for its marker (report/jsonw.h). */
static json_object *envelope(void)
{
	json_object *root = json_object_new_object(), *runs = json_object_new_array();
	json_object *run = json_object_new_object(), *tool = json_object_new_object();
	json_object *results = json_object_new_array();

	json_object_array_add(results, sp_jsonw_marker());
	json_object_object_add(tool, "driver", driver());
	json_object_object_add(run, "tool", tool);
	json_object_object_add(run, "results", results);
	json_object_array_add(runs, run);
	json_object_object_add(root, "$schema", json_object_new_string(SARIF_SCHEMA));
	json_object_object_add(root, "version", json_object_new_string("2.1.0"));
	json_object_object_add(root, "runs", runs);
	return root;
}

/* A kernel has tens of thousands of offenders: each result is printed
 * on its own line as it is made. */
int sp_report_sarif(const struct sp_graph *g, const struct sp_report_opts *o,
		    FILE *out, struct sp_err *err)
{
	struct sp_reason_cache rc;
	struct sp_jsonw w;
	uint32_t *ids;
	size_t n = sp_report_select(g, o, &ids), i;

	sp_reason_cache_init(&rc);
	sp_jsonw_begin(&w, envelope(), out);
	for (i = 0; i < n; i++) {
		const struct sp_func *f = &g->funcs[ids[i]];

		if (sp_report_over_budget(f, o))
			sp_jsonw_add(&w, budget_result(g, o, ids[i], &rc));
		if (f->qual == SP_QUAL_DYNAMIC || f->qual == SP_QUAL_BOUNDED)
			sp_jsonw_add(&w, dynamic_result(g, f));
	}
	sp_jsonw_end(&w);
	sp_reason_cache_release(&rc);
	free(ids);
	if (ferror(out))
		return sp_err_set(err, "cannot write the SARIF report");
	return 0;
}
