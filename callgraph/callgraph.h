/*
 * callgraph.h - ELF + DWARF -> the functions and call edges of sp_graph.
 *
 *	struct cg_image *img;
 *	if (cg_open(&img, path, &err) || cg_load(img, g, &opts, &err)) ...
 *	su_match(g, ...);			frames from .su
 *	cg_cfi_frames(img, g, false);		frames from CFI where .su has none
 *	cg_red_zones(img, g, &err);		x86-64 leaves' red zone
 *	cg_describe_dynamic(img, g, &err);	name the VLA behind dynamic frames
 *	cg_find_vlas(img, g, &err);		--vla: every VLA and alloca user
 *	cg_close(img);
 */
#ifndef SP_CALLGRAPH_H
#define SP_CALLGRAPH_H

#include "common/error.h"
#include "stackprof.h"

struct cg_image;

/* Where call edges come from (--calls). */
enum cg_calls {
	CG_CALLS_BOTH = 0,	/* DWARF call sites, plus what the code shows beyond them */
	CG_CALLS_DWARF,		/* DWARF call sites only */
	CG_CALLS_DISASM,	/* the code only */
};

/* How CFI frames find their FDEs: by default each through .eh_frame_hdr
 * when few functions need one, else libdwarf's list of all of them (the
 * others force a way, so that tests compare the two). */
enum cg_cfi_lookup {
	CG_CFI_AUTO = 0,
	CG_CFI_ONE_BY_ONE,
	CG_CFI_LIST,
};

/* Called after each compile unit of an image's DWARF walk, and once with
 * done == total at its end; the library itself never prints (as
 * dwarf/dwarf.h's dw_progress_fn). */
typedef void cg_progress_fn(void *arg, const char *path, uint32_t done, uint32_t total);

struct cg_options {
	enum cg_calls calls;
	cg_progress_fn *progress;	/* NULL: no progress calls */
	void *progress_arg;
	/* .debug_info bytes from which the DWARF walk is split over two
	 * threads: 0 for the default (16 MiB), UINT64_MAX for never */
	uint64_t split_walk_min;
	enum cg_cfi_lookup cfi_lookup;
	bool addr_taken;	/* collect the addresses the code loads (--indirect) */
};

struct cg_stats {
	uint32_t call_sites;	/* call-site DIEs read */
	uint32_t edges_decoded;	/* targets taken from the call instruction */
	uint32_t indirect;	/* call sites without a resolvable target */
	uint32_t orphan_sites;	/* call sites in no known function */
	uint32_t symtab_only;	/* functions known only from the symbol table */
	uint32_t disasm_edges;	/* caller->callee pairs only the code showed */
	uint32_t disasm_completed;	/* functions whose calls the code completed */
	uint32_t cfi_frames;	/* frames taken from CFI (no .su row) */
	uint32_t cfi_checked;	/* static .su frames that CFI also gives */
	uint32_t cfi_agree;	/* ... and CFI says the same */
	uint32_t red_zone_funcs;	/* leaves given red-zone bytes */
	uint32_t split_units;	/* compile units a second thread walked */
};

/* Open an ELF file and its DWARF.  Errors: "'PATH': not an ELF file", ... */
int cg_open(struct cg_image **img, const char *path, struct sp_err *err);
/* Fill g with functions (DWARF subprograms with code, symbol-table-only
 * functions, external callees), compile units and call edges, then
 * finalize it.  Does one pass over .debug_info (on two threads when
 * it is large: cg_options.split_walk_min). */
int cg_load(struct cg_image *img, struct sp_graph *g, const struct cg_options *opts,
	    struct sp_err *err);
/* For every function whose frame is dynamic, find the cause in DWARF (a
 * variable-length array) and set f->dyn_cause. */
int cg_describe_dynamic(struct cg_image *img, struct sp_graph *g, struct sp_err *err);
/* After su_match: the image's functions still without a frame take the
 * largest CFA offset of their CFI (.debug_frame, .eh_frame) as frame,
 * src = SP_SRC_CFI; with compare_su, .su frames are compared with it
 * (cg_stats, for -v: it reads the CFI of every function). */
void cg_cfi_frames(struct cg_image *img, struct sp_graph *g, bool compare_su);
/* x86-64: set red_zone of every leaf that uses stack below %rsp; nothing
 * when a compile unit of the image was built with -mno-red-zone. */
int cg_red_zones(struct cg_image *img, struct sp_graph *g, struct sp_err *err);
/* --vla: append to g->vlas every variable-length array of the image's
 * frames (DWARF array types whose bound is not a data constant, in the
 * function or inlined into it) and every dynamic frame without one
 * (alloca).  After su_match(): the frame qualifiers tell alloca. */
int cg_find_vlas(struct cg_image *img, struct sp_graph *g, struct sp_err *err);
const struct cg_stats *cg_stats(const struct cg_image *img);
/*
 * Several images in one graph (vmlinux and its modules): a call to an
 * external function that another image defines as a global symbol is
 * redirected to that definition (earlier images win), then the graph is
 * finalized again.  *linked counts the redirected call edges.
 */
void cg_link(struct cg_image *const *imgs, size_t n, struct sp_graph *g,
	     uint32_t *linked);
/* Set SP_F_IRQ_HANDLER on the image's functions typed like an
 * irq_handler_t (irqreturn_t f(int, void *)), SP_F_SYSCALL on those a
 * syscall wrapper symbol aliases. */
void cg_mark_kernel_entries(struct cg_image *img, struct sp_graph *g);
/*
 * --indirect=address-taken: set taken[id] (g->nfuncs bytes) for every
 * function whose address img stores in data, rebases by a RELATIVE
 * relocation or loads in x86 code (see addrtaken.c).  Linked images
 * only: a relocatable object adds nothing.
 */
void cg_address_taken(const struct cg_image *img, const struct sp_graph *g,
		      uint8_t *taken);
/*
 * --indirect=address-taken: set sp_func.proto of img's functions that
 * taken[] marks, and add img's indirect call sites whose DWARF gives the
 * called type to g->icalls (see proto.c).
 */
void cg_indirect_prototypes(struct cg_image *img, struct sp_graph *g, const uint8_t *taken);
/* Does path name a readable file that starts with the ELF magic? */
bool cg_is_elf_file(const char *path);
void cg_close(struct cg_image *img);

#endif
