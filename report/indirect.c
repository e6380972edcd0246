/*
 * indirect.c - the "indirect_calls" and "target_sets" arrays of the JSON
 * report: each indirect call site --indirect=types resolved, how, and
 * its targets, functions named by their id in the report.
 *
 * The sites of one prototype all call the same thousand functions: a
 * kernel's prototype sites were 2.4 million targets, of a few thousand
 * different lists in all.  So each list is written once, in
 * "target_sets", and a site names its list.
 */
#include "report/report.h"

#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "common/strtab.h"
#include "common/u64map.h"
#include "common/xalloc.h"
#include "report/jsonw.h"

static bool same_targets(const struct sp_graph *g, const struct sp_isite *a,
			 const struct sp_isite *b)
{
	return a->ntargets == b->ntargets &&
	       !memcmp(g->isite_targets + a->first, g->isite_targets + b->first,
		       a->ntargets * sizeof(*g->isite_targets));
}

/* The list of site i, new or one an earlier site has; chain[set] is the
 * set before it with the same hash. */
static uint32_t set_of(struct sp_target_sets *ts, const struct sp_graph *g, uint32_t i,
		       struct sp_u64map *by_hash, uint32_t **chain)
{
	const struct sp_isite *s = &g->isites[i];
	uint32_t h = sp_hash_bytes(g->isite_targets + s->first,
				   s->ntargets * sizeof(*g->isite_targets));
	uint32_t k;

	for (k = sp_u64map_get(by_hash, h); k != UINT32_MAX; k = (*chain)[k])
		if (same_targets(g, &g->isites[ts->site[k]], s))
			return k;
	k = ts->n++;
	ts->site[k] = i;
	(*chain)[k] = sp_u64map_swap(by_hash, h, k);
	return k;
}

void sp_target_sets_init(struct sp_target_sets *ts, const struct sp_graph *g,
			 const uint32_t *jid)
{
	struct sp_u64map by_hash;
	uint32_t *chain = sp_xmalloc((g->nisites + 1) * sizeof(*chain)), i;

	ts->n = 0;
	ts->of_site = sp_xmalloc((g->nisites + 1) * sizeof(*ts->of_site));
	ts->site = sp_xmalloc((g->nisites + 1) * sizeof(*ts->site));
	sp_u64map_init(&by_hash, g->nisites);
	for (i = 0; i < g->nisites; i++) {
		const struct sp_isite *s = &g->isites[i];

		ts->of_site[i] = SP_NONE;
		/* every address-taken function is listed nowhere: thousands */
		if (jid[s->func] != SP_NONE && s->first != SP_NONE)
			ts->of_site[i] = set_of(ts, g, i, &by_hash, &chain);
	}
	sp_u64map_release(&by_hash);
	free(chain);
}

void sp_target_sets_release(struct sp_target_sets *ts)
{
	free(ts->of_site);
	free(ts->site);
}

struct json_object *sp_report_target_set_json(const struct sp_graph *g,
					      const struct sp_target_sets *ts, uint32_t set,
					      const uint32_t *jid)
{
	const struct sp_isite *s = &g->isites[ts->site[set]];
	json_object *a = json_object_new_array_ext((int)s->ntargets);
	uint32_t i;

	for (i = 0; i < s->ntargets; i++)
		json_object_array_add(a, json_object_new_int64(jid[g->isite_targets[s->first + i]]));
	return a;
}

struct json_object *sp_report_isite_json(const struct sp_graph *g,
					const struct sp_target_sets *ts, uint32_t i,
					const uint32_t *jid)
{
	const struct sp_isite *s = &g->isites[i];
	const struct sp_func *f = &g->funcs[s->func];
	json_object *o = json_object_new_object();
	char addr[32];

	snprintf(addr, sizeof(addr), "0x%llx", (unsigned long long)s->addr);
	sp_json_put(o, "function", json_object_new_int64(jid[s->func]));
	sp_json_put(o, "file", sp_json_str(s->file ? s->file : f->file));
	sp_json_put(o, "line", s->line ? json_object_new_int64(s->line) : NULL);
	sp_json_put(o, "address", s->addr ? json_object_new_string(addr) : NULL);
	sp_json_put(o, "tail", json_object_new_boolean(s->tail));
	sp_json_put(o, "resolved_by", sp_json_str(sp_resolved_name((enum sp_resolved)s->how)));
	sp_json_put(o, "type", sp_json_str(s->type));
	sp_json_put(o, "ntargets", json_object_new_int64(s->ntargets));
	sp_json_put(o, "targets", ts->of_site[i] == SP_NONE ? NULL :
		    json_object_new_int64(ts->of_site[i]));
	return o;
}
