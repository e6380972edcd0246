/*
 * frames.h - the frames stage: the one place that decides each
 * function's frame, and names what makes a dynamic one dynamic.
 *
 * frames_decide() asks the sources in this order, and the first that
 * knows a function's frame gives it (sp_func.self, qual and src):
 *
 *	1. an annotation, "frame FUNC BYTES"		SP_SRC_ANNOT
 *	2. the function's .su row			SP_SRC_SU
 *	3. its image's CFI (.debug_frame, .eh_frame)	SP_SRC_CFI
 *
 * A function none of them knows stays unknown, which makes every total
 * through it partial.  On top of whatever frame it has, an x86-64 leaf
 * gets the red zone its code uses (insn/redzone.c), when its image's code
 * may keep bytes below the stack pointer.  A new source is one more entry
 * in frames.c's table.
 */
#ifndef SP_FRAMES_H
#define SP_FRAMES_H

#include <stddef.h>
#include <stdint.h>

#include "callgraph/callgraph.h"
#include "dwarf/dwarf.h"
#include "stackprof.h"

struct frame_opts {
	enum dw_cfi_lookup cfi_lookup;
	/* -v: also ask the CFI about the functions .su gave a frame, and
	 * count how many agree */
	bool compare;
};

struct frame_stats {
	uint32_t from[SP_SRC__COUNT];	/* frames given, by source */
	uint32_t cfi_checked;		/* static .su frames that CFI also gives */
	uint32_t cfi_agree;		/* ... and CFI says the same */
	uint32_t red_zones;		/* leaves given red-zone bytes */
};

/* Decide every function's frame, for the n images' functions.  annot
 * and su may be NULL; within one list a later entry wins. */
void frames_decide(struct sp_graph *g, struct cg_image *const *imgs, size_t n,
		   const struct sp_frames *annot, const struct sp_frames *su,
		   const struct frame_opts *o, struct frame_stats *st);

/* For every function whose frame is dynamic, say why (sp_func.dyn_cause):
 * a variable-length array, stack arguments pushed for a call, else
 * alloca().  After frames_decide(). */
void frames_describe(struct sp_graph *g, struct cg_image *const *imgs, size_t n);

/* --vla: append to g->vlas every variable-length array of the images'
 * frames and every dynamic frame without one (alloca).  After
 * frames_decide(): the qualifiers tell alloca. */
void frames_find_vlas(struct sp_graph *g, struct cg_image *const *imgs, size_t n);

#endif
