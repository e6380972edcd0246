/*
 * assumed.h - the solver's side of --indirect=address-taken's sets
 * (struct sp_assumed): what solve.c would learn from one edge per caller
 * and assumed target, learnt from the blocks of the sets instead, in
 * time linear in the graph and the blocks.  Internal to analysis/.
 *
 * The results are those of the edges, exactly: Tarjan visits a caller's
 * unseen targets in the edges' order, merged with its own edges; a seen
 * target can only lower its low-link when it is on the stack below it,
 * which the lowest such member of each block tells.  A total, a witness
 * or a cycle's exit needs the best target of each block among the
 * finished components, kept as components finish, and among the
 * component being solved, kept as its members are.
 */
#ifndef SP_ANALYSIS_ASSUMED_H
#define SP_ANALYSIS_ASSUMED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "stackprof.h"

/* The best of a block's members so far: the largest total, the lowest id
 * among equals. */
struct as_best {
	uint64_t total;
	uint32_t id;		/* SP_NONE when none */
	bool overflow;		/* any member's total overflowed (finished ones) */
};

struct as_block {
	struct as_best done;		/* over the finished components */
	uint64_t done_lines;		/* their 'assume' lines (res.assume_lines) */
	uint32_t first[SP_CAUSE__COUNT];	/* lowest finished member with a witness */
	/* the component being solved (valid while stamp is its number) */
	uint32_t stamp;
	struct as_best solved;		/* its members solved so far */
	uint32_t lowest;		/* its lowest member */
	/* Tarjan */
	uint32_t on_stack;		/* members on its stack */
	uint32_t bottom;		/* the lowest of them, when on_stack */
};

struct as_solver {
	const struct sp_graph *g;
	const struct sp_assumed *a;
	struct as_block *blocks;
	/* "the next member not yet seen from slot s on": block b's members
	 * are slots first[b] + b .. first[b + 1] + b, the last one past its
	 * end; slot s holds ids[s - b] */
	uint32_t *skip;
	uint32_t *slot;		/* per function: its slots in SP_ASSUMED_ALL and
				 * in its own block (two each), SP_NONE if none */
	uint32_t *cursors;	/* per DFS frame, a slot per block of its list */
	size_t ncursors, cursors_cap;
	uint32_t scc;		/* the component being solved, from 1 */
};

/* Nothing is set up (and every call is cheap) when no function has a set. */
void as_init(struct as_solver *as, const struct sp_graph *g);
void as_release(struct as_solver *as);
static inline bool as_on(const struct as_solver *as)
{
	return as->blocks != NULL;
}

/* ---- Tarjan ---- */

/* v is discovered (disc): seen, on its blocks' stacks; *low lowered to the
 * lowest member on the stack below it of each of its blocks.  Returns
 * where its cursors start, for as_next and as_finish. */
size_t as_visit(struct as_solver *as, uint32_t v, const uint32_t *disc, uint32_t *low);
/* v's next unseen target from its cursors (which move to it), SP_NONE
 * when none is left. */
uint32_t as_next(struct as_solver *as, uint32_t v, size_t cursors);
/* v's frame is done: its cursors go. */
void as_finish(struct as_solver *as, size_t cursors);
/* w leaves the stack (its component is emitted). */
void as_pop(struct as_solver *as, uint32_t w);

/* ---- solving a component ---- */

/* The component members[0..n) begins: its own block state. */
void as_scc_begin(struct as_solver *as, const uint32_t *members, size_t n);
/* Member v's total is solved: its blocks' callers inside may use it. */
void as_solved(struct as_solver *as, uint32_t v);
/* The component is done: its members join their blocks' finished ones. */
void as_scc_end(struct as_solver *as, const uint32_t *members, size_t n);
/* The best target of v's set that v may use: a finished one, or one of
 * its component solved before it.  id SP_NONE when none. */
struct as_best as_best_target(const struct as_solver *as, uint32_t v);
/* The largest total among v's targets outside its component, and
 * whether any of them overflowed; false when there is none. */
bool as_exit(const struct as_solver *as, uint32_t v, uint64_t *total, bool *overflow);
/* The 'assume' lines of v's targets outside its component, together. */
uint64_t as_exit_lines(const struct as_solver *as, uint32_t v);
/* The lowest of v's targets outside its component with a witness of
 * cause c, SP_NONE when none. */
uint32_t as_first_witness(const struct as_solver *as, uint32_t v, int c);
/* The lowest of v's targets inside its component, SP_NONE when none. */
uint32_t as_lowest_inside(const struct as_solver *as, uint32_t v);

#endif
