/*
 * path.h - a function's worst path frame by frame, with the stack in use
 * at each frame, as the text report, the pictures and --folded draw it.
 */
#ifndef SP_REPORT_PATH_H
#define SP_REPORT_PATH_H

#include <stddef.h>
#include <stdint.h>

#include "stackprof.h"

struct sp_path {
	uint32_t *ids;		/* the root first */
	uint8_t *kinds;		/* enum sp_edge_kind of the edge reaching ids[i] */
	uint8_t *flags;		/* SP_EDGE_F_* of that edge, 0 for the root */
	uint8_t *hows;		/* its enum sp_resolved */
	uint64_t *cum;		/* stack in use while ids[i] runs */
	size_t n;
};

/* The path of root's total (its certain lower bound's when unbounded);
 * a tail callee's frame replaces its caller's instead of adding to it. */
void sp_path_load(const struct sp_graph *g, uint32_t root, struct sp_path *p);
/* The worst path over every call, assumed ones too: the path of an
 * unbounded total's res.assumed_lb. */
void sp_path_load_assumed(const struct sp_graph *g, uint32_t root, struct sp_path *p);
/* The first step reached by an assumed call, 0 when none is. */
size_t sp_path_first_assumed(const struct sp_path *p);
void sp_path_release(struct sp_path *p);

/*
 * The bytes frame i adds to the root's total: its frame and red zone, or
 * 0 when the next frame replaces it (a tail call).  The weights of a
 * path add up to the stack in use at its last frame, which is the root's
 * res.total (its lower bound when unbounded).
 */
uint64_t sp_path_weight(const struct sp_graph *g, const struct sp_path *p, size_t i);

#endif
