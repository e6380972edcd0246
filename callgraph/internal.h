/* internal.h - state shared by the callgraph/ files; not for other stages. */
#ifndef SP_CG_INTERNAL_H
#define SP_CG_INTERNAL_H

#include "callgraph/callgraph.h"
#include "common/u64map.h"
#include "dwarf/dwarf.h"
#include "elf/elf.h"
#include "insn/passes.h"

/* A function's code, from its range. */
struct cg_range {
	uint64_t lo, hi;
	uint32_t func;
};

/* An indirect call site with a DW_AT_type, for proto.c. */
struct cg_icall {
	uint32_t func;		/* the caller */
	uint64_t type;
};

struct cg_image {
	const char *path;
	struct cg_options opts;
	struct sp_elf elf;
	struct dw_image dw;		/* its DWARF, and what the walk read of it */
	struct insn_image code;		/* every function decoded once, its passes' results */
	struct sp_graph *g;
	const char *lib;		/* a library's name (interned), else NULL */
	const char *debug_file;		/* a library's separate debug file, or NULL */
	struct sp_elf debug_elf;	/* ... open when its DWARF is read (fd -1 if not) */
	/* what this image added to the graph (several images share one) */
	uint32_t func_first, func_end;
	uint32_t edge_first;		/* g->nedges before cg_build added its edges */

	struct cg_icall *icalls;	/* indirect sites whose DWARF types the callee */
	size_t nicalls, icalls_cap;
	struct cg_range *ranges;	/* every function range, sorted by lo */
	size_t nranges;
	struct sp_u64map func_by_addr;	/* entry address -> function id */
	struct sp_u64map extern_by_name;	/* interned name pointer -> id */
	struct sp_u64map copies;	/* abstract DIE offset -> first concrete func */
	struct cg_stats stats;
};

/* build.c */
void cg_build(struct cg_image *img);
/* The function a direct branch (enum insn_branch kind) from caller enters:
 * start is the one whose entry is its target, inside the one containing
 * the target (SP_NONE when unknown); SP_NONE when it stays in caller. */
uint32_t cg_branch_enters(enum insn_branch kind, uint32_t caller, uint32_t start,
			  uint32_t inside);
/* The function the direct call or jump c of caller (not a dynamic one)
 * enters, SP_NONE when none: cg_branch_enters of the function at its
 * target or holding it (hint: a range_index near there).  *lost when the
 * target is code of a library that no function holds. */
uint32_t cg_code_callee(struct cg_image *img, const struct insn_call *c, uint32_t caller,
			size_t hint, bool *lost);
/* inlined.c: the nodes of the inlined copies cg_options.inlined asks
 * for, in the functions img added (after cg_build). */
void cg_inlined_nodes(struct cg_image *img);

#endif
