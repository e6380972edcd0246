/*
 * graphviz.h - the analysed call graph as a picture (DOT, SVG, PNG).
 *
 * The graph is built with Graphviz's cgraph and written by agwrite (DOT)
 * or laid out and rendered by gvc (SVG, PNG); no DOT is printed by hand.
 * What is drawn:
 *
 *   - one node per shown function: "name (file)", self and worst-case total
 *     (">= N B" when unbounded, "(partial)" when frames without data were
 *     counted as 0), filled on a white -> yellow -> red scale of
 *     the total relative to the largest shown total, or to the budget;
 *   - the worst path of each root in thick red, each edge labelled with the
 *     callee's total; roots have a double border;
 *   - dynamic frames as octagons with a "dynamic" line, unknown frames
 *     dashed, tail calls dotted, indirect calls as dashed edges to one
 *     "<indirect>" node, recursion cycles in "cluster_rec*" subgraphs.
 *
 * Which functions are shown: by default the worst paths of the roots and
 * the direct callees of every function on them (the alternatives the worst
 * path won against).  Roots are the given entries, or else the o->top
 * functions with code that have the largest totals.  depth and min_total
 * prune that view (roots always stay); all shows every function.  The
 * graph's label says what was shown and pruned.
 */
#ifndef SP_GRAPHVIZ_H
#define SP_GRAPHVIZ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "common/error.h"
#include "stackprof.h"

struct sp_gv_opts {
	const uint32_t *roots;	/* --entry function ids; none: pick the worst */
	size_t nroots;
	unsigned top;		/* roots picked when none are given (0 means 1) */
	unsigned depth;		/* 0 = unlimited; else hide nodes more than depth
				 * calls below every root */
	uint64_t min_total;	/* hide non-root nodes whose res.total is smaller */
	bool all;		/* every function, no pruning */
	bool has_budget;	/* heat relative to budget instead of the largest */
	uint64_t budget;
};

/*
 * format: "dot", "svg" or "png".  Writes out_path atomically (temporary file in
 * the same directory, then rename); on error no file is left behind and err
 * says why ("cannot write 'PATH': ...", "graphviz has no 'png' renderer").
 */
int sp_gv_export(const struct sp_graph *g, const struct sp_gv_opts *o,
		 const char *format, const char *out_path, struct sp_err *err);

/*
 * A Graphviz context for rendering several pictures in one process.
 * sp_gv_export makes one per call; a caller writing more than one SVG/PNG
 * should hold one instead: Graphviz 2.42's pango plugin keeps a pointer
 * to a font name that gvFreeContext frees, and reads it again under the
 * next context (a use-after-free that AddressSanitizer reports).
 */
struct sp_gv;

struct sp_gv *sp_gv_new(struct sp_err *err);
void sp_gv_free(struct sp_gv *gv);	/* NULL is fine */

/*
 * The same picture as sp_gv_export into an open stream, for a caller that
 * commits several outputs together (so that a failure leaves none behind).
 * gv may be NULL for "dot".  Returns -1 with err set ("graphviz has no
 * 'png' renderer", "cannot render the call graph as svg: ..."), part of
 * the picture possibly written to fp.
 */
int sp_gv_render(struct sp_gv *gv, const struct sp_graph *g,
		 const struct sp_gv_opts *o, const char *format, FILE *fp,
		 struct sp_err *err);

#endif
