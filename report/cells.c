/* cells.c - see cells.h */
#include "report/cells.h"

#include <inttypes.h>
#include <stdio.h>

/*
 * The '+' slot is always there so that the digits line up; a partial
 * total counts 0 for the frames without data, an unbounded one is the
 * worst path found.
 */
void sp_cell_total(const struct sp_result *r, char *buf, size_t size)
{
	snprintf(buf, size, "%s%" PRIu64 "%c",
		 !r->bounded ? ">= " : r->assumed ? "~ " : "", r->total,
		 r->partial ? '+' : ' ');
}

const char *sp_cell_assuming(const struct sp_result *r)
{
	bool targets = r->witness[SP_CAUSE_ASSUMED] != SP_NONE;
	bool lines = r->witness[SP_CAUSE_ASSUMPTION] != SP_NONE;

	if (targets && lines)
		return ", assuming indirect-call targets and annotated run-time bounds";
	if (lines)
		return ", assuming annotated run-time bounds";
	return targets ? ", assuming indirect-call targets" : "";
}

void sp_cell_self(const struct sp_func *f, char *buf, size_t size)
{
	int n;

	if (f->qual == SP_QUAL_UNKNOWN)
		n = snprintf(buf, size, "?");
	else
		n = snprintf(buf, size, "%" PRIu64, f->self);
	if (f->red_zone && n > 0 && (size_t)n < size)
		snprintf(buf + n, size - (size_t)n, "+%" PRIu32, f->red_zone);
}

void sp_cell_qual(const struct sp_func *f, char *buf, size_t size)
{
	if (sp_frame_src_read(f->src))
		snprintf(buf, size, "%s (%s)", sp_qual_name(f->qual), sp_frame_src_name(f->src));
	else
		snprintf(buf, size, "%s", sp_qual_name(f->qual));
}

void sp_cell_marks(const struct sp_func *f, uint8_t kind, uint8_t flags, uint8_t how,
		   char *buf, size_t size)
{
	char rz[32] = "", src[32] = "", assumed[40] = " [assumed]", lib[80] = "";
	const char *by = sp_resolved_name((enum sp_resolved)how);

	if (sp_frame_src_read(f->src))
		snprintf(src, sizeof(src), " [%s]", sp_frame_src_name(f->src));
	if (f->red_zone)
		snprintf(rz, sizeof(rz), " [red-zone %" PRIu32 "]", f->red_zone);
	if (by)
		snprintf(assumed, sizeof(assumed), " [assumed: %s]", by);
	if (f->lib)
		snprintf(lib, sizeof(lib), " [lib %s]", f->lib);
	snprintf(buf, size, "%s%s%s%s%s%s%s%s%s%s%s%s%s",
		 f->qual == SP_QUAL_DYNAMIC || f->qual == SP_QUAL_BOUNDED ? " [dynamic]" : "",
		 f->flags & SP_F_RECURSIVE ? " [recursive]" : "",
		 f->n_indirect ? " [indirect]" : "",
		 f->qual == SP_QUAL_UNKNOWN ? " [unknown]" : "",
		 src, rz,
		 kind == SP_EDGE_TAIL ? " [tail]" : "",
		 flags & SP_EDGE_F_ANNOTATED ? " [annotated]" : "",
		 flags & SP_EDGE_F_ASSUMED ? assumed : "",
		 flags & SP_EDGE_F_EXCEPTION ? " [exception]" : "",
		 f->flags & SP_F_LAZY ? " [lazy binding]" : "",
		 f->flags & SP_F_INLINED ? " [inlined]" : "", lib);
}

void sp_cell_location(const struct sp_func *f, char *buf, size_t size)
{
	if (f->file && f->line)
		snprintf(buf, size, "%s:%u", f->file, f->line);
	else
		snprintf(buf, size, "%s", f->file ? f->file : "-");
}
