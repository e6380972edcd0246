/*
 * callgraph.h - an image loaded: its ELF (elf/), DWARF (dwarf/) and code
 * (insn/) read, and the functions and call edges of sp_graph built from
 * them.
 *
 *	struct cg_image *img;
 *	if (cg_open(&img, path, &err) || cg_load(img, g, &opts, &err)) ...
 *	cg_link(imgs, n, g, &linked);		calls between images, by name
 *	... later stages read the image: cg_dwarf(), cg_code(), cg_funcs() ...
 *	cg_close(img);
 */
#ifndef SP_CALLGRAPH_H
#define SP_CALLGRAPH_H

#include "common/error.h"
#include "stackprof.h"

struct cg_image;
struct dw_image;
struct sp_elf;
struct insn_image;
struct sp_elf;

/* Where call edges come from (--calls). */
enum cg_calls {
	CG_CALLS_BOTH = 0,	/* DWARF call sites, plus what the code shows beyond them */
	CG_CALLS_DWARF,		/* DWARF call sites only */
	CG_CALLS_DISASM,	/* the code only */
};

/* An inlined copy an annotation names: callee inlined into func (a
 * name; its GCC clones too). */
struct cg_inline_req {
	const char *func, *callee;
};

struct cg_options {
	enum cg_calls calls;
	sp_progress_fn *progress;	/* NULL: no progress calls */
	void *progress_arg;
	/* .debug_info bytes from which the DWARF walk is split over two
	 * threads: 0 for the default (16 MiB), UINT64_MAX for never */
	uint64_t split_walk_min;
	bool addr_taken;	/* collect the addresses the code loads (--indirect) */
	bool typed;		/* --indirect=types: indirect calls, stores, variables */
	/* the nodes of inlined copies to make (struct sp_inlined) */
	const struct cg_inline_req *inlined;
	size_t ninlined;
};

struct cg_stats {
	uint32_t call_sites;	/* call-site DIEs read */
	uint32_t edges_decoded;	/* targets taken from the call instruction */
	uint32_t indirect;	/* call sites without a resolvable target */
	uint32_t orphan_sites;	/* call sites in no known function */
	uint32_t symtab_only;	/* functions known only from the symbol table */
	uint32_t disasm_edges;	/* caller->callee pairs only the code showed */
	uint32_t disasm_completed;	/* functions whose calls the code completed */
	uint32_t split_units;	/* compile units a second thread walked */
};

/* Open an ELF file and its DWARF.  Errors: "'PATH': not an ELF file", ... */
int cg_open(struct cg_image **img, const char *path, struct sp_err *err);
/* Fill g with functions (DWARF subprograms with code, symbol-table-only
 * functions, external callees), compile units and call edges.  Does
 * one pass over .debug_info (on two threads when
 * it is large: cg_options.split_walk_min). */
int cg_load(struct cg_image *img, struct sp_graph *g, const struct cg_options *opts,
	    struct sp_err *err);
/*
 * ... a shared library the inputs need (name: its DT_NEEDED name, which
 * marks its functions, sp_func.lib): DWARF is not needed (its frames come
 * from .eh_frame and its code), and when debug_file (NULL: none) is its
 * separate debug file, the function symbols of a stripped library are
 * that file's.
 */
int cg_load_library(struct cg_image *img, struct sp_graph *g, const struct cg_options *opts,
		    const char *name, const char *debug_file, struct sp_err *err);
/*
 * The shared libraries that the n images of *imgs need (DT_NEEDED, then
 * theirs), found as ld.so finds them under sysroot (NULL: "/") and
 * loaded once each with cg_load_library, appended to *imgs (which grows,
 * its capacity *n).  A library not found or not readable is a warning:
 * the calls into it stay unknown.
 */
int cg_load_libs(struct cg_image ***imgs, size_t *n, struct sp_graph *g,
		 const struct cg_options *opts, const char *sysroot, sp_warn_fn warn,
		 void *warn_ctx);
/*
 * Lazy binding: each call through a PLT slot of an image not bound at
 * load time goes through a node "NAME@plt" (SP_F_LAZY) that calls ld.so's
 * resolvers (SP_F_RESOLVER) and tail-calls NAME.  Before cg_link, which
 * links NAME.  Returns how many such nodes it made.
 */
uint32_t cg_lazy_binding(struct cg_image *const *imgs, size_t n, struct sp_graph *g);
/*
 * Callbacks: a function of a program that its call into a library passes
 * as an argument (qsort's comparator) becomes an assumed target
 * (SP_RES_ARGUMENT) of every indirect call of that library the entry
 * reaches (callbacks.c).  After cg_link; returns the edges added.
 */
uint32_t cg_lib_callbacks(struct cg_image *const *imgs, size_t n, struct sp_graph *g);
const struct cg_stats *cg_stats(const struct cg_image *img);

/* What the later stages read of a loaded image. */
const char *cg_path(const struct cg_image *img);
const struct sp_elf *cg_elf(const struct cg_image *img);
/* The image's DWARF (after its loading or a pass closed it, dw_park, the
 * reader that reads it sets it up again: an image keeps little of it
 * open between passes). */
struct dw_image *cg_dwarf(struct cg_image *img);
/* A pass that read much of it is done: close it, so that images are
 * read one at a time. */
void cg_dwarf_done(struct cg_image *img);
struct insn_image *cg_code(struct cg_image *img);
/* The graph functions the image added: [*first, *end). */
void cg_funcs(const struct cg_image *img, uint32_t *first, uint32_t *end);
/* The compile units the image added: g->cus[*first .. *first + *n). */
void cg_units(const struct cg_image *img, uint32_t *first, uint32_t *n);
/* A kernel's tables of code addresses that nothing calls through
 * (ftrace's __mcount_loc, the kprobe blacklist ...), as the linker
 * script brackets them in image e (addrtaken.c). */
#define CG_TOOL_TABLES 4
struct cg_tool_tables {
	uint64_t lo[CG_TOOL_TABLES], hi[CG_TOOL_TABLES];
};
void cg_tool_tables(const struct sp_elf *e, struct cg_tool_tables *t);
/* Is the word at addr in one of them? */
bool cg_tool_table_has(const struct cg_tool_tables *t, uint64_t addr);
/* The function whose code starts at addr, SP_NONE if none. */
uint32_t cg_func_at(const struct cg_image *img, uint64_t addr);
/* The function whose code holds addr, SP_NONE if none: while the image
 * builds, and after it only when loaded with cg_options.typed. */
uint32_t cg_func_containing(const struct cg_image *img, uint64_t addr);
const struct sp_elf *cg_elf(const struct cg_image *img);
bool cg_in_plt(const struct cg_image *img, uint64_t addr);
/* May the image's code keep bytes below the stack pointer?  x86-64,
 * unless a compile unit says -mno-red-zone in DW_AT_producer (the Linux
 * kernel, where interrupts write below %rsp): then none does, its
 * assembly included. */
bool cg_red_zone_counts(const struct cg_image *img);
/*
 * Several images in one graph (vmlinux and its modules): a call to an
 * external function that another image defines as a global symbol is
 * redirected to that definition (earlier images win).  *linked counts
 * the redirected call edges.
 */
void cg_link(struct cg_image *const *imgs, size_t n, struct sp_graph *g,
	     uint32_t *linked);
/* Set SP_F_IRQ_HANDLER on the images' functions typed like an
 * irq_handler_t (irqreturn_t f(int, void *)), SP_F_IRQ_THREAD on those
 * of them that calls give only as a thread_fn (x86-64), SP_F_SYSCALL on
 * those a syscall wrapper symbol aliases. */
void cg_mark_kernel_entries(struct cg_image *const *imgs, size_t n, struct sp_graph *g);
/* A kernel's exceptions taken on the stack it runs on (extable.c): every
 * function an __ex_table or __bug_table entry names gets an edge flagged
 * SP_EDGE_F_EXCEPTION to a node for the exception's entry (frame: what
 * the CPU and the entry push; call: the C handler, which may be in
 * another of the images), one node per kind for all of them (x86-64's
 * __bug_table: <warning> for a WARN, <invalid opcode> for a BUG); a module's
 * tables through their relocations.  x86-64 and AArch64; nothing for
 * others. */
void cg_add_exceptions(struct cg_image **imgs, size_t nimgs, struct sp_graph *g);
/*
 * --indirect=address-taken: set taken[id] (g->nfuncs bytes) for every
 * function whose address img stores in data, rebases by a RELATIVE
 * relocation or loads in x86 code (see addrtaken.c).  Linked images
 * only: a relocatable object adds nothing.
 */
void cg_address_taken(const struct cg_image *img, const struct sp_graph *g,
		      uint8_t *taken);
/*
 * --indirect=address-taken: add img's indirect call sites whose DWARF
 * gives the called type to g->icalls (see dwarf/proto.c).
 */
void cg_indirect_sites(struct cg_image *img, struct sp_graph *g);
/*
 * ... and when some are, set sp_func.proto of img's functions that
 * taken[] marks, to match them with (a kernel's 41,010 prototypes are
 * 4.7 s of reading DWARF).
 */
void cg_indirect_prototypes(struct cg_image *img, struct sp_graph *g, const uint8_t *taken);
/* Does path name a readable file that starts with the ELF magic? */
bool cg_is_elf_file(const char *path);
void cg_close(struct cg_image *img);

#endif
