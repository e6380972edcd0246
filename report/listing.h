/*
 * listing.h - the functions a machine-readable report lists, and the ids
 * it names them by (the JSON report, the HTML page's data).
 *
 * The selection (sp_report_select) comes first, then the kernel entries
 * outside it, then every function they reach (callees, indirect call
 * targets), sorted as the selection is: every id a call, path or site
 * names is listed.  Below once/nest functions the worst path is a chain
 * of segments (graph->segs), numbered here in the order they are met.
 */
#ifndef SP_REPORT_LISTING_H
#define SP_REPORT_LISTING_H

#include <stdbool.h>
#include <stdint.h>

#include "analysis/analysis.h"
#include "report/report.h"
#include "stackprof.h"

struct sp_listing {
	uint32_t *order;	/* listed id -> function id */
	uint32_t n, nselected;	/* order[0 .. nselected): the selection */
	uint32_t *id;		/* function id -> listed id, SP_NONE when not listed */
	uint8_t *shown;		/* per function id: the report shows its path */
	uint32_t *segs;		/* listed segment -> graph segment */
	uint32_t nsegs;
	uint32_t *seg_id;	/* graph segment -> listed segment, SP_NONE */
	struct sp_kernel_entries kernel;	/* o->kernel_summary: the entries */
};

void sp_listing_init(struct sp_listing *l, const struct sp_graph *g,
		     const struct sp_report_opts *o);
void sp_listing_release(struct sp_listing *l);

/*
 * A function's next step on a path: the second frame and the edge to it
 * (next SP_NONE when the path ends at the function; call: the edge's
 * index among its edges, -1 if it has none of that callee and kind), or
 * seg, the listed segment its path goes on with (a once/nest function),
 * SP_NONE.  A path goes on either over every call (res.next: a bounded
 * total's, and an unbounded one's assumed path) or over certain calls
 * only (res.certain_next: an unbounded total's lower bound), through
 * every function it meets.
 */
struct sp_listing_step {
	uint32_t next, seg;
	uint8_t kind, flags, how;
	int64_t call;
};
void sp_listing_step(const struct sp_listing *l, const struct sp_graph *g, uint32_t id,
		     bool certain, struct sp_listing_step *st);
/* The step of id's own path (certain when its total is unbounded), and
 * in *other the other way's when that differs: true then. */
bool sp_listing_steps(const struct sp_listing *l, const struct sp_graph *g, uint32_t id,
		      struct sp_listing_step *own, struct sp_listing_step *other);

#endif
