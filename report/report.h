/*
 * report.h - what the analysis found, as text, JSON or budget diagnostics.
 *
 * Reports only read the graph (after sp_analyze()) and write to a FILE
 * they are given; they never open, close or print anywhere else.
 */
#ifndef SP_REPORT_H
#define SP_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "common/error.h"
#include "stackprof.h"

struct sp_report_opts {
	unsigned top;			/* worst paths printed in text (default 10) */
	bool has_budget;
	uint64_t budget;		/* bytes, when has_budget */
	bool allow_unbounded;		/* unbounded: hold the lower bound to the budget */
	const uint32_t *entries;	/* roots to report; NULL/0: all functions */
	size_t nentries;
	bool kernel_summary;		/* --kernel-summary: entry points by class */
	bool all_paths;			/* --json-paths=all: every function's path */
};

/* The "version" of the JSON report (doc/stackprof.schema.json). */
#define SP_JSON_VERSION 2

/*
 * The functions a report covers: the entries (each once), or else every
 * function with SP_F_HAS_CODE except SP_F_SYMTAB_ONLY ones without frame
 * data (_start and other code outside the sources); sorted by res.total
 * descending, then name, then file.  *ids is malloc'ed (the caller frees
 * it, NULL when empty).
 */
size_t sp_report_select(const struct sp_graph *g, const struct sp_report_opts *o,
			uint32_t **ids);
/* ids[0..n) in the same order, each id once; returns how many are left. */
size_t sp_report_sort(const struct sp_graph *g, uint32_t *ids, size_t n);

/* A table of every selected function, then the top worst paths. */
int sp_report_text(const struct sp_graph *g, const struct sp_report_opts *o,
		   FILE *out, struct sp_err *err);

/*
 * {"version": 2, "binary", "su", "paths", "segments", "functions": [...]}
 * via json-c, as doc/stackprof.schema.json describes it: every function
 * names its worst callee by id; the whole worst path only for those the
 * report shows (the entries, else the --top first; the --top first of
 * each kernel class), or for all with o->all_paths.
 */
int sp_report_json(const struct sp_graph *g, const struct sp_report_opts *o,
		   FILE *out, struct sp_err *err);

/* --kernel-summary in text: per class (system calls, interrupt handlers,
 * exception entries) the o->top worst entries and the worst one's path. */
int sp_report_kernel_text(const struct sp_graph *g, const struct sp_report_opts *o,
			  FILE *out, struct sp_err *err);
struct sp_kernel_entries;
/* ... in JSON: {"syscall": {"stack", "count", "bounded", "entries":
 * [...]}, "irq", ...}, each entry naming its function by jid[function id];
 * a json_object (json-c) the caller owns. */
struct json_object *sp_report_kernel_json(const struct sp_graph *g,
					  const struct sp_kernel_entries *k,
					  const uint32_t *jid);

/*
 * --indirect=types: the target lists of the sites of the functions jid
 * lists (jid[function id], SP_NONE: not listed), each distinct list
 * once ("target_sets"), and the sites naming their list
 * ("indirect_calls").
 */
struct sp_target_sets {
	uint32_t *of_site;	/* per site: its list, SP_NONE for none written */
	uint32_t *site;		/* per list: a site that has it */
	uint32_t n;
};
void sp_target_sets_init(struct sp_target_sets *ts, const struct sp_graph *g,
			 const uint32_t *jid);
void sp_target_sets_release(struct sp_target_sets *ts);
/* List set as an array of ids, a json_object the caller owns. */
struct json_object *sp_report_target_set_json(const struct sp_graph *g,
					      const struct sp_target_sets *ts, uint32_t set,
					      const uint32_t *jid);
/* Site g->isites[i] as an element of "indirect_calls". */
struct json_object *sp_report_isite_json(const struct sp_graph *g,
					const struct sp_target_sets *ts, uint32_t i,
					const uint32_t *jid);

/*
 * One GCC-style "FILE:LINE:COL: error: ..." line on diag for each selected
 * function over o->budget.  Returns how many were over.
 */
size_t sp_report_budget(const struct sp_graph *g, const struct sp_report_opts *o,
			FILE *diag);
/* Is f over o->budget (unbounded counts unless o->allow_unbounded)? */
bool sp_report_over_budget(const struct sp_func *f, const struct sp_report_opts *o);
/* The diagnostic's text after "error: ": "stack budget exceeded: N > B
 * bytes via main -> ..." or "stack usage unbounded (...), at least N bytes via ...". */
struct sp_reason_cache;
void sp_report_budget_message(const struct sp_graph *g, const struct sp_report_opts *o,
			      uint32_t id, struct sp_reason_cache *rc, FILE *diag);

/*
 * SARIF 2.1.0 via json-c, for code-scanning UIs: one result per selected
 * function over the budget (rule "stack-budget", error; only with a
 * budget) and per dynamic frame (rule "dynamic-frame": warning, or note
 * when "dynamic,bounded"), located at the function's declaration.
 */
int sp_report_sarif(const struct sp_graph *g, const struct sp_report_opts *o,
		    FILE *out, struct sp_err *err);

/*
 * --folded: the worst path of each root in the folded-stack format that
 * flamegraph.pl, inferno and speedscope read, one line per frame,
 * "root;callee;...;frame BYTES", BYTES being what the frame adds to the
 * root's total (sp_path_weight; lines of 0 are left out), so that a
 * root's lines add up to its total (the lower bound when unbounded).
 * Roots: the entries, or else the functions sp_report_select picks that
 * no function calls.  A ';' in a name is written ':'; a root whose name
 * another root shares is written "name [file]" so that they stay apart.
 */
int sp_report_folded(const struct sp_graph *g, const struct sp_report_opts *o,
		     FILE *out, struct sp_err *err);

#endif
