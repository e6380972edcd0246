/*
 * indirect.c - the "indirect_calls" array of the JSON report: each
 * indirect call site --indirect=types resolved, how, and its targets.
 */
#include "report/report.h"

#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>

#include "analysis/analysis.h"
#include "common/xalloc.h"

static json_object *json_str(const char *s)
{
	return s ? json_object_new_string(s) : NULL;
}

static const char *symbol_of(const struct sp_func *f)
{
	return f->symbol ? f->symbol : sp_func_label(f);
}

static json_object *site_object(const struct sp_graph *g, const struct sp_isite *s)
{
	const struct sp_func *f = &g->funcs[s->func];
	json_object *o = json_object_new_object(), *targets = NULL;
	char addr[32];
	uint32_t i;

	snprintf(addr, sizeof(addr), "0x%llx", (unsigned long long)s->addr);
	json_object_object_add(o, "function", json_str(sp_func_label(f)));
	json_object_object_add(o, "file", json_str(s->file ? s->file : f->file));
	json_object_object_add(o, "line", s->line ? json_object_new_int64(s->line) : NULL);
	json_object_object_add(o, "address", s->addr ? json_object_new_string(addr) : NULL);
	json_object_object_add(o, "tail", json_object_new_boolean(s->tail));
	json_object_object_add(o, "resolved_by",
			       json_str(sp_resolved_name((enum sp_resolved)s->how)));
	json_object_object_add(o, "type", json_str(s->type));
	json_object_object_add(o, "ntargets", json_object_new_int64(s->ntargets));
	/* every address-taken function is listed nowhere: thousands of them */
	if (s->first != SP_NONE) {
		targets = json_object_new_array_ext((int)s->ntargets);
		for (i = 0; i < s->ntargets; i++)
			json_object_array_add(targets, json_str(symbol_of(
				&g->funcs[g->isite_targets[s->first + i]])));
	}
	json_object_object_add(o, "targets", targets);
	return o;
}

/* The functions the entries reach (all when there are none). */
static uint8_t *reached(const struct sp_graph *g, const struct sp_report_opts *o)
{
	uint8_t *seen = sp_xcalloc(g->nfuncs ? g->nfuncs : 1, 1);
	uint32_t *stack = sp_xmalloc((g->nfuncs + 1) * sizeof(*stack)), n = 0, i;
	const struct sp_edge *e;

	if (!o->nentries) {
		for (i = 0; i < g->nfuncs; i++)
			seen[i] = 1;
		free(stack);
		return seen;
	}
	for (i = 0; i < o->nentries; i++)
		if (!seen[o->entries[i]]) {
			seen[o->entries[i]] = 1;
			stack[n++] = o->entries[i];
		}
	while (n) {
		const struct sp_func *f = &g->funcs[stack[--n]];

		sp_func_for_each_edge(g, f, e)
			if (!seen[e->to]) {
				seen[e->to] = 1;
				stack[n++] = e->to;
			}
	}
	free(stack);
	return seen;
}

struct json_object *sp_report_indirect_json(const struct sp_graph *g,
					    const struct sp_report_opts *o)
{
	json_object *a = json_object_new_array();
	uint8_t *seen = reached(g, o);
	uint32_t i;

	for (i = 0; i < g->nisites; i++)
		if (seen[g->isites[i].func])
			json_object_array_add(a, site_object(g, &g->isites[i]));
	free(seen);
	return a;
}
