/*
 * graphviz_int.h - what the views of the picture share (graphviz.c):
 * the roots, label text and colours.  gv_calls.c builds the call graph
 * view, gv_column.c the column view; graphviz.c lays out and writes.
 */
#ifndef SP_GRAPHVIZ_INT_H
#define SP_GRAPHVIZ_INT_H

#include <cgraph.h>
#include <stdbool.h>
#include <stdint.h>

#include "common/error.h"
#include "common/strbuf.h"
#include "report/graphviz.h"
#include "stackprof.h"

#define GV_FONT "Helvetica"

static inline bool gv_valid(const struct sp_graph *g, uint32_t id)
{
	return id != SP_NONE && id < g->nfuncs;
}

/*
 * The roots of the picture, worst total first: the given entries (each
 * once), or else the o->top (at least 1) worst functions with code.
 * *roots is malloc'ed; returns how many.
 */
size_t gv_pick_roots(const struct sp_graph *g, const struct sp_gv_opts *o,
		     uint32_t **roots);

/* s in a plain label: backslashes doubled ("\n" means a line break). */
void gv_add_text(struct sp_strbuf *b, const char *s);
/* s in an HTML-like label: & < > " as entities; at most max bytes of it,
 * then "..." (0: all of it). */
void gv_add_html(struct sp_strbuf *b, const char *s, size_t max);
const char *gv_str(const struct sp_strbuf *b);
const char *gv_basename(const char *file);
/* "#ffGGBB" from white (0) over yellow to red (max and above) */
void gv_heat(char out[8], uint64_t value, uint64_t max);
/* "binary: " at the start of a graph's (plain) label */
void gv_label_binary(struct sp_strbuf *b, const struct sp_graph *g);

/*
 * Build the view into a new graph (*ag, which the caller agclose()s).
 * Returns -1 with err set when the view would be too large to lay out.
 */
int gv_calls_build(const struct sp_graph *g, const struct sp_gv_opts *o,
		   Agraph_t **ag, struct sp_err *err);
int gv_column_build(const struct sp_graph *g, const struct sp_gv_opts *o,
		    Agraph_t **ag, struct sp_err *err);

#endif
