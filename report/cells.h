/*
 * cells.h - the table cells the text reports share, so that a total, a
 * frame or a location reads the same in every table.
 */
#ifndef SP_REPORT_CELLS_H
#define SP_REPORT_CELLS_H

#include <stddef.h>
#include <stdint.h>

#include "stackprof.h"

/* "N", "N+" (partial), "~ N" (assumed edges or 'assume' lines) or
 * ">= N" (unbounded). */
void sp_cell_total(const struct sp_result *r, char *buf, size_t size);
/* What a bounded total assumes, after its bytes: ", assuming indirect-call
 * targets", ", assuming annotated run-time bounds", both, or "". */
const char *sp_cell_assuming(const struct sp_result *r);
/* "48", "?" when unknown; a leaf's red zone follows: "16+20". */
void sp_cell_self(const struct sp_func *f, char *buf, size_t size);
/* "static", or "static (cfi)" for a frame the CFI gave */
void sp_cell_qual(const struct sp_func *f, char *buf, size_t size);
/* The marks of a path frame, " [dynamic] [tail]", or "" for none; kind,
 * flags and how are those of the edge that reaches it ("[assumed: field]"
 * for an --indirect=types target). */
void sp_cell_marks(const struct sp_func *f, uint8_t kind, uint8_t flags, uint8_t how,
		   char *buf, size_t size);
/* "file:line", "file" or "-" */
void sp_cell_location(const struct sp_func *f, char *buf, size_t size);

#endif
