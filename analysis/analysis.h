/*
 * analysis.h - the solver: worst-case stack totals over the call graph.
 *
 * sp_analyze() fills every function's struct sp_result; the other calls
 * only read what it left behind, for the reports.
 */
#ifndef SP_ANALYSIS_H
#define SP_ANALYSIS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "common/strbuf.h"
#include "stackprof.h"

/*
 * Fill every function's res and set SP_F_RECURSIVE.  Finalizes the graph
 * first when its edges changed (one sort, however many stages added or
 * removed edges).  O(V + E), iterative (no recursion on the C stack),
 * plus, for once/nest functions (sp_func.nest), one pass over the region
 * below each for every combination of counts they reach
 * (analysis/nest.c); too many combinations is an error.
 */
int sp_analyze(struct sp_graph *g, struct sp_err *err);

/*
 * The path of id's total: ids along res.next (res.certain_next when the
 * total is unbounded: its lower bound's path), starting with id, and below
 * a once/nest function along its segments (graph->segs), where a
 * function may come back (nest).  Returns the length, at most max.
 * kinds[i], if kinds is non-NULL, is the enum sp_edge_kind of the edge
 * that reaches out[i] (SP_EDGE_CALL for out[0]); flags[i] its
 * SP_EDGE_F_* (0 for out[0]), hows[i] its enum sp_resolved.  out may be
 * NULL to measure the path only.
 */
size_t sp_worst_path_flags(const struct sp_graph *g, uint32_t id, uint32_t *out,
			   uint8_t *kinds, uint8_t *flags, uint8_t *hows, size_t max);
size_t sp_worst_path(const struct sp_graph *g, uint32_t id, uint32_t *out,
		     uint8_t *kinds, size_t max);
/* The worst path along res.next whatever the total: an unbounded one's
 * res.assumed_lb when that is not 0. */
size_t sp_assumed_path_flags(const struct sp_graph *g, uint32_t id, uint32_t *out,
			     uint8_t *kinds, uint8_t *flags, uint8_t *hows, size_t max);
/* The path over certain calls (res.certain_next) whatever the total: the
 * way an unbounded caller's lower bound goes on through a bounded id. */
size_t sp_certain_path_flags(const struct sp_graph *g, uint32_t id, uint32_t *out,
			     uint8_t *kinds, uint8_t *flags, uint8_t *hows, size_t max);

/*
 * Why id's total is unbounded or partial: one call of emit per cause kind
 * present, naming the witness, e.g. "recursion even -> odd -> even".
 * Returns the number of reasons.
 */
size_t sp_reasons(const struct sp_graph *g, uint32_t id,
		  void (*emit)(void *ctx, const char *reason), void *ctx);

/*
 * One of those reasons, appended to t: cause c's (0 <= c < SP_CAUSE__COUNT),
 * or with c == SP_CAUSE__COUNT that the sum overflows.  Returns false,
 * appending nothing, when id has no such reason.  A cause's reason
 * depends only on the cause and its witness (res.witness[c]): functions
 * that share a witness share the text, which a report of many functions
 * makes once (report/reasons.h).
 */
bool sp_reason_text(const struct sp_graph *g, uint32_t id, int c, struct sp_strbuf *t);

/*
 * Does r rest on the i-th 'assume' line (graph->assume_lines)?  From
 * the SP_ASSUME_BITS-th line on they share one bit: r rests on one of
 * them, each is said (conservative).
 */
static inline bool sp_rests_on_line(const struct sp_result *r, uint32_t i)
{
	return r->assume_lines >> (i < SP_ASSUME_BITS - 1 ? i : SP_ASSUME_BITS - 1) & 1;
}

/* The i-th 'assume' line's reason, "assumed by annotation: FILE:LINE:
 * DIRECTIVE ...", appended to t when r rests on it (sp_reasons() gives
 * one per line, sp_reason_text() all of them joined by "; "). */
bool sp_assume_line_reason(const struct sp_graph *g, const struct sp_result *r,
			   uint32_t i, struct sp_strbuf *t);

/*
 * Resolve an --entry spec, "NAME" or "FILE:NAME" (FILE matches a suffix of
 * the function's file on path-component boundaries), against f->name and
 * f->symbol.  When nothing matches exactly, GCC clone names such as
 * "NAME.constprop.0" match NAME.  All matches are appended to *ids.
 */
int sp_find_entries(const struct sp_graph *g, const char *spec, uint32_t **ids,
		    size_t *n, size_t *cap, struct sp_err *err);

/*
 * The functions' names and symbols sorted, for many look-ups of one
 * graph (an annotation file's lines; a function added meanwhile is
 * sp_name_index_add()ed): sp_find_entries_in() with one finds the same
 * functions in the same order by binary search, without one (NULL) by a
 * scan of every function.
 */
struct sp_name_index {
	struct sp_name_ref {
		const char *s;
		uint32_t id;
	} *v;
	size_t n;
};

void sp_name_index_build(struct sp_name_index *ix, const struct sp_graph *g);
/* Function id, added to the graph since the index was built. */
void sp_name_index_add(struct sp_name_index *ix, const struct sp_graph *g, uint32_t id);
void sp_name_index_release(struct sp_name_index *ix);
int sp_find_entries_in(const struct sp_graph *g, const struct sp_name_index *ix,
		       const char *spec, uint32_t **ids, size_t *n, size_t *cap,
		       struct sp_err *err);

/*
 * Like sp_find_entries() for a shell pattern (fnmatch) over the names and
 * symbols of functions with code: "__x64_sys_*", "*_irq_handler".
 */
int sp_find_entries_glob(const struct sp_graph *g, const char *pattern,
			 uint32_t **ids, size_t *n, size_t *cap, struct sp_err *err);

/* Kernel entry points by the stack they run on (analysis/kernel.c). */
enum sp_kclass {
	SP_KCLASS_NONE = 0,
	SP_KCLASS_SYSCALL,	/* __x64_sys_* ... (sys_* without arch wrappers) */
	SP_KCLASS_IRQ,		/* IDT interrupt entries, irq_handler_t functions */
	SP_KCLASS_EXCEPTION,	/* asm_exc_*, exc_* */
	SP_KCLASS_IRQ_THREAD,	/* threaded irq handlers (SP_F_IRQ_THREAD) */
	SP_KCLASS__COUNT
};

struct sp_kernel_entries {
	uint32_t *ids[SP_KCLASS__COUNT];	/* per class, worst total first */
	size_t n[SP_KCLASS__COUNT], cap[SP_KCLASS__COUNT];
};

/* Classify every function (after sp_analyze(): sorted by res.total). */
void sp_kernel_entries(const struct sp_graph *g, struct sp_kernel_entries *out);
void sp_kernel_entries_release(struct sp_kernel_entries *k);
const char *sp_kclass_name(enum sp_kclass c);	/* "syscall", "irq", "exception" */
const char *sp_kclass_stack(enum sp_kclass c);	/* the stack the class runs on */

/* An unknown frame, and the totals it makes partial: the functions that
 * reach it (analysis/unknown.c). */
struct sp_unknown_rank {
	uint32_t func;
	uint32_t totals;
};

/* After sp_analyze(): the unknown frames some partial total names as its
 * nearest, the most totals first, at most max of them in out (those
 * ranked by how many totals name them nearest, then walked back over the
 * graph's edges); returns how many such frames there are in all. */
size_t sp_unknown_ranking(const struct sp_graph *g, struct sp_unknown_rank *out, size_t max);

/* After sp_analyze(): the recursions no annotation bounds (the cycles a
 * 'recursion', 'once' or 'nest' line leaves open). */
struct sp_cycle_stats {
	uint32_t components;	/* recursive components with an open cycle */
	uint32_t largest;	/* the functions of the largest of them */
	uint32_t largest_root;	/* one of its functions, SP_NONE when none */
	uint32_t unbounded;	/* functions whose total such a cycle unbounds */
};
void sp_cycle_stats(const struct sp_graph *g, struct sp_cycle_stats *out);

/* The name reports print for a function: its name, else its symbol. */
const char *sp_func_label(const struct sp_func *f);

#endif
