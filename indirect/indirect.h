/*
 * indirect.h - --indirect=types: the targets of each indirect call, from
 * the machine code and DWARF's types.
 *
 *	cg_options.typed = true;		the loader collects what is needed
 *	cg_load(...) for each image;
 *	cg_address_taken(...), cg_indirect_prototypes(...);	the fallbacks
 *	run = ind_start(g, imgs, n, lines);	on a thread, while the frames are decided
 *	ind_finish(run, taken, &stats, &err);
 *
 * Each indirect call (and tail jump, and call through a retpoline thunk)
 * is typed from how the code computed its target (insn/icall.h) and what
 * DWARF says the registers and memory hold there:
 *
 *	table	a word at a fixed address (a global pointer, a table): the
 *		functions its initialised data and the code's stores put
 *		there;
 *	field	a member of a struct, reached through a typed pointer: the
 *		functions every initialised object of that struct type, and
 *		every store the code makes through a typed pointer, put there;
 *	prototype	only the function type is known (a callback
 *		parameter), or the member was written with a value of unknown
 *		origin: the address-taken functions of that prototype;
 *	address-taken	nothing is known: every address-taken function.
 *
 * The edges are marked assumed (SP_EDGE_F_ASSUMED, sp_edge.how) and each
 * site is kept in g->isites for the reports.
 */
#ifndef SP_INDIRECT_H
#define SP_INDIRECT_H

#include "callgraph/callgraph.h"
#include "stackprof.h"

/* Why a site fell back to its prototype (-v). */
enum ind_why {
	IND_WHY_ESCAPED,	/* its member is written with a value of unknown origin */
	IND_WHY_LOCAL,		/* ... empty, its struct a parameter's (ind_key.local) */
	IND_WHY_EMPTY,		/* ... empty (no kernel's exports to stand in) */
	IND_WHY_WORD,		/* a word or table written so, or empty */
	IND_WHY_ARGUMENT,	/* an argument some way in does not say */
	IND_WHY_TYPE,		/* only a function type is known (a variable, a return) */
	IND_WHY__COUNT
};

struct ind_stats {
	uint32_t sites;			/* indirect call sites */
	uint32_t by[SP_RES__COUNT];	/* ... by how they were resolved */
	uint64_t targets[SP_RES__COUNT];	/* ... and their targets, summed */
	uint32_t why[IND_WHY__COUNT];	/* prototype sites, by why */
	uint32_t switches;		/* jumps through a table of the function's own
					 * code: no calls */
	uint32_t keys;			/* struct members holding functions */
	uint32_t escaped;		/* ... written with a value of unknown origin */
	uint32_t stores, stores_typed;	/* function stores, and those typed */
	uint32_t narrowed;		/* field sites a pointer member's objects
					 * narrowed (layers.c) */
	uint64_t edges;			/* assumed edges added */
	uint32_t object_decls;		/* address-taken globals of no prototype
					 * known that C declares as objects */
};

/* --indirect: what an indirect call may reach. */
enum ind_mode {
	IND_NONE,		/* nothing known: the call is unbounded */
	IND_ADDRESS_TAKEN,	/* every function whose address is taken */
	IND_TYPES,		/* the targets its types allow */
};

/* What ind_resolve did, for main's -v lines and notes. */
struct ind_summary {
	enum ind_mode mode;
	bool resolved;		/* the mode's targets are in the graph */
	uint32_t ntaken;	/* address-taken functions */
	uint64_t added;		/* IND_ADDRESS_TAKEN: the calls assumed */
	uint32_t nicalls;	/* ... the call sites typed */
	struct ind_stats st;	/* IND_TYPES */
	uint32_t nest_dropped;	/* IND_ADDRESS_TAKEN: once/nest annotations
				 * not applied (analysis/nest.c cannot see
				 * the assumed sets), */
	uint32_t belows_dropped;	/* ... nor 'ignore ... below' calls dropped */
};

struct ind_policy;
struct sp_annots;

/* The one entry point of --indirect.  ind_begin, once the images are
 * loaded and linked: IND_TYPES starts typing the chains on a thread (see
 * ind_start).  ind_resolve, once the frames are decided: the mode's
 * targets into g, then the annotations applied (sp_annot_apply) as the
 * mode allows; frees p.  ind_release frees a p never resolved. */
struct ind_policy *ind_begin(enum ind_mode mode, struct sp_graph *g,
			     struct cg_image *const *imgs, size_t n, bool lines);
int ind_resolve(struct ind_policy *p, const struct sp_annots *annots,
		struct ind_summary *out, struct sp_err *err);
void ind_release(struct ind_policy *p);

struct ind_run;

/* Start resolving the indirect calls of every image of g (loaded with
 * cg_options.typed, linked): their chains are typed on a thread of its
 * own, while the caller goes on (frames, address-taken functions: the
 * images' DWARF stays open, dw_pin, until ind_finish).  With lines, each site gets its source line (a line table
 * read per unit). */
struct ind_run *ind_start(struct sp_graph *g, struct cg_image *const *imgs, size_t n,
			  bool lines);
/* taken[] marks the address-taken functions (with their prototypes set):
 * add the edges, fill g->isites, free run. */
int ind_finish(struct ind_run *run, const uint8_t *taken, struct ind_stats *stats,
	       struct sp_err *err);
/* Stop a run ind_finish will not be called for (the caller failed). */
void ind_abandon(struct ind_run *run);

#endif
