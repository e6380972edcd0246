/*
 * vla.h - --vla: every variable-length array and alloca() user that
 * frames_find_vlas() put in graph->vlas, with the worst-case total of the
 * function whose frame holds it.
 *
 * The function's total is the worst path through the array: the array
 * lives in that frame, so every path through it starts there.
 */
#ifndef SP_REPORT_VLA_H
#define SP_REPORT_VLA_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "common/error.h"
#include "stackprof.h"

enum sp_vla_format {
	SP_VLA_TABLE = 0,	/* --vla, --vla=table */
	SP_VLA_WARNINGS,	/* --vla=warnings: GCC -Wvla style lines */
	SP_VLA_JSON,		/* --vla --json */
};

/* Indexes into g->vlas, worst total first (then function, file, line);
 * *order is malloc'ed, NULL when there are none. */
size_t sp_vla_order(const struct sp_graph *g, uint32_t **order);

/* "run-time", "accidental", "frame" or "alloca". */
const char *sp_vla_kind_name(enum sp_vla_kind k);

int sp_report_vla(const struct sp_graph *g, enum sp_vla_format fmt, FILE *out,
		  struct sp_err *err);

#endif
