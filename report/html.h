/*
 * html.h - the report as one self-contained HTML page (--html): a
 * sortable, filterable table of the functions, each row expanding to its
 * worst path and drawing it as an icicle, and the picture of --svg as
 * inline SVG; no network, no file beside it.  The data is the --json
 * report embedded in the page.
 */
#ifndef SP_HTML_H
#define SP_HTML_H

#include <stdio.h>

#include "common/error.h"
#include "report/graphviz.h"
#include "report/report.h"
#include "stackprof.h"

/*
 * The page into out; gv renders the picture (go chooses what it shows, as
 * for --svg), ro the table (as for --json).  Returns -1 with err set
 * when the picture or the report cannot be made, part of the page
 * possibly written.
 */
int sp_report_html(struct sp_gv *gv, const struct sp_graph *g,
		   const struct sp_report_opts *ro, const struct sp_gv_opts *go,
		   FILE *out, struct sp_err *err);

/* The page's data (the format is in html_data.c): the functions the
 * JSON report lists, by the same ids, a row each. */
void sp_report_html_data(const struct sp_graph *g, const struct sp_report_opts *o,
			 FILE *out);

#endif
