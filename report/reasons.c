/* reasons.c - see reasons.h */
#include "report/reasons.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "common/xalloc.h"

void sp_reason_cache_init(struct sp_reason_cache *rc)
{
	memset(rc, 0, sizeof(*rc));
	sp_u64map_init(&rc->map, 64);
}

void sp_reason_cache_release(struct sp_reason_cache *rc)
{
	size_t i;

	for (i = 0; i < rc->n; i++)
		free(rc->texts[i]);
	free(rc->texts);
	free(rc->scratch.buf);
	sp_u64map_release(&rc->map);
	memset(rc, 0, sizeof(*rc));
}

const char *sp_reason_cached(struct sp_reason_cache *rc, const struct sp_graph *g,
			     uint32_t id, int c)
{
	uint32_t w, at;
	uint64_t key;

	if (id >= g->nfuncs || c < 0 || c > SP_CAUSE__COUNT)
		return NULL;
	rc->scratch.len = 0;
	/* the overflow's, and the 'assume' lines' (their set is id's own,
	 * not its witness's): made each time */
	if (c == SP_CAUSE__COUNT || c == SP_CAUSE_ASSUMPTION)
		return sp_reason_text(g, id, c, &rc->scratch) ? rc->scratch.buf : NULL;
	w = g->funcs[id].res.witness[c];
	if (w >= g->nfuncs)
		return NULL;
	key = (uint64_t)c << 32 | w;
	at = sp_u64map_get(&rc->map, key);
	if (at != UINT32_MAX)
		return rc->texts[at];
	if (!sp_reason_text(g, id, c, &rc->scratch))
		return NULL;
	SP_ALLOC_GROW(rc->texts, rc->n + 1, rc->cap);
	rc->texts[rc->n] = sp_xstrdup(rc->scratch.buf);
	sp_u64map_put(&rc->map, key, (uint32_t)rc->n);
	return rc->texts[rc->n++];
}

/* The i-th 'assume' line's reason when id rests on it, else NULL. */
static const char *assume_line_cached(struct sp_reason_cache *rc, const struct sp_graph *g,
				      uint32_t id, uint32_t i)
{
	uint64_t key = (uint64_t)SP_CAUSE__COUNT << 40 | i;
	uint32_t at;

	if (id >= g->nfuncs || !sp_rests_on_line(&g->funcs[id].res, i))
		return NULL;
	at = sp_u64map_get(&rc->map, key);
	if (at != UINT32_MAX)
		return rc->texts[at];
	rc->scratch.len = 0;
	if (!sp_assume_line_reason(g, &g->funcs[id].res, i, &rc->scratch))
		return NULL;
	SP_ALLOC_GROW(rc->texts, rc->n + 1, rc->cap);
	rc->texts[rc->n] = sp_xstrdup(rc->scratch.buf);
	sp_u64map_put(&rc->map, key, (uint32_t)rc->n);
	return rc->texts[rc->n++];
}

size_t sp_reason_cache_each(struct sp_reason_cache *rc, const struct sp_graph *g,
			    uint32_t id, void (*emit)(void *ctx, const char *reason),
			    void *ctx)
{
	size_t count = 0;
	int c;

	for (c = 0; c <= SP_CAUSE__COUNT; c++) {
		const char *text = c == SP_CAUSE_ASSUMPTION ? NULL :
				   sp_reason_cached(rc, g, id, c);
		uint32_t i;

		if (text) {
			emit(ctx, text);
			count++;
		}
		/* one reason per 'assume' line, each text made once */
		for (i = 0; c == SP_CAUSE_ASSUMPTION && i < g->nassume_lines; i++)
			if ((text = assume_line_cached(rc, g, id, i))) {
				emit(ctx, text);
				count++;
			}
	}
	return count;
}
