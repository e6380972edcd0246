/*
 * reasons.h - the reasons of many functions, each text made once.
 *
 * A report that lists reasons for thousands of functions (--json, the
 * budget diagnostics, SARIF) asks sp_reason_text() for the same cause and
 * witness over and over; on a kernel a recursion's reason is a search
 * for the shortest cycle through a component of thousands of functions.
 * The cache keeps each (cause, witness) text the first time it is made.
 *
 *	struct sp_reason_cache rc;
 *	sp_reason_cache_init(&rc);
 *	text = sp_reason_cached(&rc, g, id, SP_CAUSE_RECURSION);
 *	sp_reason_cache_release(&rc);
 */
#ifndef SP_REPORT_REASONS_H
#define SP_REPORT_REASONS_H

#include "common/strbuf.h"
#include "common/u64map.h"
#include "stackprof.h"

struct sp_reason_cache {
	struct sp_u64map map;	/* cause << 32 | witness -> index into texts */
	char **texts;
	size_t n, cap;
	struct sp_strbuf scratch;	/* the overflow reason, which is id's own */
};

void sp_reason_cache_init(struct sp_reason_cache *rc);
void sp_reason_cache_release(struct sp_reason_cache *rc);
/* id's reason for cause c as sp_reason_text() gives it (c ==
 * SP_CAUSE__COUNT: the overflow), NULL when it has none; the text lives
 * until the next call for an overflow, else until the release. */
const char *sp_reason_cached(struct sp_reason_cache *rc, const struct sp_graph *g,
			     uint32_t id, int c);
/* Each reason of id in sp_reasons()'s order; returns how many. */
size_t sp_reason_cache_each(struct sp_reason_cache *rc, const struct sp_graph *g,
			    uint32_t id, void (*emit)(void *ctx, const char *reason),
			    void *ctx);

#endif
