/*
 * graphviz.h - the analysed program as a picture (DOT, SVG, PNG).
 *
 * The picture is built with Graphviz's cgraph and written by agwrite (DOT)
 * or laid out and rendered by gvc (SVG, PNG); no DOT is printed by hand.
 * Two views:
 *
 * SP_GV_COLUMN (the default): the worst path of each root as a column
 * read top to bottom from the root, one box per frame, its height
 * proportional to the frame's bytes (at least one line of text), the
 * stack in use beside it, frames marked as the text report marks them
 * (dynamic, recursive, indirect, unknown dashed, tail calls dotted,
 * assumed edges), the budget as a red line, the reasons a total is
 * unbounded or partial below.  One node with an HTML-like label (a
 * table), so that --dot draws the same picture and the layout is
 * immediate at any depth.  Roots: the given entries, or else the o->top
 * worst functions with code; of many given entries the o->top worst
 * (GV_COLUMNS_MAX when o->top is 0).
 *
 * SP_GV_CALLS: the call graph, one node per function: "name (file)",
 * self and total as the text report writes them, filled on a white ->
 * yellow -> red scale of the total relative to the largest shown total or
 * to the budget; the worst path of each root in thick red, each edge
 * labelled with the callee's total; roots with a double border; dynamic
 * frames as octagons, unknown frames dashed, tail calls dotted, indirect
 * calls as dashed edges to one "<indirect>" node, recursion cycles in
 * "cluster_rec*" subgraphs.  Shown: the worst paths of the roots and the
 * direct callees of every function on them.  When those callees are many
 * (a kernel), the graph is drawn top-down and each path frame's other
 * callees are one "N more callees" node.  depth and min_total prune that
 * view (roots always stay); all shows every function.  The graph's label
 * says what was shown and pruned.  A view of more than SP_GV_NODES_MAX
 * functions or SP_GV_EDGES_MAX calls is refused: dot would take minutes.
 */
#ifndef SP_GRAPHVIZ_H
#define SP_GRAPHVIZ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "common/error.h"
#include "stackprof.h"

enum sp_gv_view {
	SP_GV_COLUMN = 0,	/* the worst paths as columns of frames */
	SP_GV_CALLS,		/* the call graph around the worst paths */
};

/* The most columns a picture draws of many given entries by default. */
#define SP_GV_COLUMNS_MAX 8
/*
 * The most functions and calls the call graph view lays out: dot took 1 s
 * on 800 functions of a kernel with their 1544 calls, 8 s on 1000, 50 s
 * on 1200 and over 300 s on 1500.
 */
#define SP_GV_NODES_MAX 800
#define SP_GV_EDGES_MAX 1600

struct sp_gv_opts {
	enum sp_gv_view view;
	const uint32_t *roots;	/* --entry function ids; none: pick the worst */
	size_t nroots;
	unsigned top;		/* roots picked when none are given (0 means 1);
				 * for columns, also the most of the given ones */
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
 * A handle on the process's one Graphviz context (Graphviz keeps font
 * state per process that a freed context leaves dangling, so the context
 * itself lives until exit).  sp_gv_export takes one per call; a caller
 * rendering several pictures may hold one.
 */
struct sp_gv;

struct sp_gv *sp_gv_new(struct sp_err *err);
void sp_gv_free(struct sp_gv *gv);	/* NULL is fine */

/*
 * The same picture as sp_gv_export into an open stream, for a caller that
 * commits several outputs together (so that a failure leaves none behind).
 * gv may be NULL for "dot".  Returns -1 with err set ("graphviz has no
 * 'png' renderer", "cannot render the picture as svg: ..."), part of
 * the picture possibly written to fp.
 */
int sp_gv_render(struct sp_gv *gv, const struct sp_graph *g,
		 const struct sp_gv_opts *o, const char *format, FILE *fp,
		 struct sp_err *err);

#endif
