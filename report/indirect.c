/*
 * indirect.c - the "indirect_calls" array of the JSON report: each
 * indirect call site --indirect=types resolved, how, and its targets,
 * functions named by their id in the report.
 */
#include "report/report.h"

#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>

#include "analysis/analysis.h"
#include "report/jsonw.h"

struct json_object *sp_report_isite_json(const struct sp_graph *g, const struct sp_isite *s,
					const uint32_t *jid)
{
	const struct sp_func *f = &g->funcs[s->func];
	json_object *o = json_object_new_object(), *targets = NULL;
	char addr[32];
	uint32_t i;

	snprintf(addr, sizeof(addr), "0x%llx", (unsigned long long)s->addr);
	sp_json_put(o, "function", json_object_new_int64(jid[s->func]));
	sp_json_put(o, "file", sp_json_str(s->file ? s->file : f->file));
	sp_json_put(o, "line", s->line ? json_object_new_int64(s->line) : NULL);
	sp_json_put(o, "address", s->addr ? json_object_new_string(addr) : NULL);
	sp_json_put(o, "tail", json_object_new_boolean(s->tail));
	sp_json_put(o, "resolved_by",
			       sp_json_str(sp_resolved_name((enum sp_resolved)s->how)));
	sp_json_put(o, "type", sp_json_str(s->type));
	sp_json_put(o, "ntargets", json_object_new_int64(s->ntargets));
	/* every address-taken function is listed nowhere: thousands of them */
	if (s->first != SP_NONE) {
		targets = json_object_new_array_ext((int)s->ntargets);
		for (i = 0; i < s->ntargets; i++)
			json_object_array_add(targets, json_object_new_int64(
				jid[g->isite_targets[s->first + i]]));
	}
	sp_json_put(o, "targets", targets);
	return o;
}

