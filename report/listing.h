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
 * The second frame of id's worst path (for a once/nest function, the
 * first step of its segment) and the edge to it: false when the path
 * ends at id.  *call is the edge's index among id's edges, -1 if it has
 * none of that callee and kind.
 */
bool sp_listing_worst(const struct sp_graph *g, uint32_t id, uint32_t *next,
		      uint8_t *kind, int64_t *call);

#endif
