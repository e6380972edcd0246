/*
 * internal.h - what the solver's files share, not for reports.
 */
#ifndef SP_ANALYSIS_INTERNAL_H
#define SP_ANALYSIS_INTERNAL_H

#include <stdint.h>

#include "analysis/analysis.h"
#include "stackprof.h"

/* Clear f's result and the flags analysis sets (analysis/solve.c). */
void sp_reset_result(struct sp_func *f);

/* What cut[] says of a function for sp_solve(). */
#define SP_CUT_NEST	1	/* a once/nest function past its count */
#define SP_CUT_QUIET	2	/* not by a count: a call 'ignore ... below'
				 * drops here, an ancestor without a count in
				 * a first guess */

/*
 * Solve every function of g whose result is not given: a function with
 * nest set keeps the result it has and is a leaf; calls into a function
 * whose cut[] is set (cut may be NULL) are skipped, and for SP_CUT_NEST
 * their callers show that function as their SP_CAUSE_NEST witness
 * (analysis/solve.c).
 */
void sp_solve(struct sp_graph *g, const uint8_t *cut);

/*
 * The result of every once/nest function (sp_func.nest) and the path
 * segments below them, before sp_solve() takes them as given
 * (analysis/nest.c).  Fails only when the functions reach each other in
 * too many ways.
 */
int sp_nest_solve(struct sp_graph *g, struct sp_err *err);

/*
 * A cycle through each member of every large component, in its
 * result.cycle, for the reasons (analysis/cycles.c); after sp_solve().
 */
void sp_index_cycles(struct sp_graph *g);

#endif
