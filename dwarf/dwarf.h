/*
 * dwarf.h - the DWARF stage: an image's debug information, walked once
 * for its subprograms and call sites, then asked questions by DIE offset.
 *
 *	struct dw_image dw;
 *	dw_open(&dw, path, &elf, g, &err);	the ELF's .debug_* sections
 *	dw_walk(&dw, &opts, &err);		subprograms, call sites, CUs
 *	... dw.subs, dw.sites, dw_sub_resolve() for the graph builder ...
 *	dw_park(&dw);				memory handed back between passes
 *	... the questions below, through a dw_reader ...
 *	dw_close(&dw);
 *
 * dwarf/ is the only code that reads DWARF: DIEs, attributes, types,
 * location and range lists, line tables and expressions, in either byte
 * order, each by one reader of its own (see internal.h).  Other stages
 * name a DIE by its offset in .debug_info (sp_func.die, a dw_site's
 * type) and ask in their own terms: the VLAs of a function's frame, a
 * function's prototype, whether it is an interrupt handler, the type of
 * a variable, the members of a struct, the variables a register holds at
 * a pc, the source line of an address; the call frame information gives
 * frames (cfi.c, read by libdwarf).
 */
#ifndef SP_DWARF_H
#define SP_DWARF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "elf/elf.h"
#include "stackprof.h"

/* ---- the walk (walk.c) and its records ---- */

/* One DW_TAG_subprogram DIE (concrete, abstract or declaration). */
struct dw_sub {
	uint64_t off;
	uint64_t origin;	/* DW_AT_abstract_origin, 0 if none */
	uint64_t spec;		/* DW_AT_specification, 0 if none */
	const char *name, *linkage;
	const char *file;
	uint32_t line, col;
	uint32_t cu;		/* graph CU index */
	uint64_t lo, hi;	/* main range; hi == 0 when no code */
	uint32_t range_first, nranges;	/* extra ranges in dw_image.xranges */
	bool all_calls;
	bool declaration;
	bool external;		/* DW_AT_external: a name other units see */
	uint32_t func;		/* graph function id, SP_NONE: the builder's to set */
};

/* One call-site DIE (with a return address or, Clang's tail calls, the
 * jump's own address). */
struct dw_site {
	uint64_t ret_pc;	/* return address (DW_AT_call_return_pc / low_pc) */
	uint64_t call_pc;	/* DW_AT_call_pc: the call itself (Clang's tail calls) */
	uint64_t origin;	/* callee DIE, 0 if none */
	uint64_t target;	/* constant target address, 0 if none */
	uint64_t type;		/* DW_AT_type: the called function's type, 0 if none */
	uint32_t sub;		/* enclosing subprogram record */
	bool tail;
	bool computed;		/* DW_AT_call_target is an expression: indirect */
	bool no_decode;		/* the builder's: ret_pc only places the site */
};

struct dw_range {
	uint64_t lo, hi;
};

/* A variable at a fixed address (a global, a static local), for
 * --indirect=types: what the data holding function pointers is. */
struct dw_var {
	uint64_t addr;
	uint64_t die;
	uint64_t type;	/* its own DW_AT_type when one comes before the
			 * location, 0 to be found from the DIE */
};

/* A variable's declaration (DW_AT_declaration: `extern char f[];`),
 * by its name's hash (dw_name_hash): --indirect=types asks whether C
 * names an assembly symbol only as an object. */
struct dw_decl_var {
	uint64_t die;
	uint64_t hash;
};

/* The hash of a name dw_decl_var keeps. */
uint64_t dw_name_hash(const char *name);

struct dw_walk_opts {
	sp_progress_fn *progress;	/* NULL: no progress calls */
	void *progress_arg;
	/* .debug_info bytes from which the walk is split over two threads:
	 * 0 for the default (16 MiB), UINT64_MAX for never */
	uint64_t split_min;
	bool vars;		/* keep the variables at fixed addresses (vars.c) */
};

/* An image's DWARF, and what the walk read of it. */
struct dw_image {
	const char *path;
	const struct sp_elf *elf;
	struct sp_graph *g;		/* compile units and interned names go here */
	uint32_t cu_first;		/* graph CU index of the image's first unit */
	uint32_t ncus;			/* CUs this image added */

	struct dw_sub *subs;
	size_t nsubs, subs_cap;
	struct dw_site *sites;
	size_t nsites, sites_cap;
	struct dw_range *xranges;	/* DW_AT_ranges beyond the first */
	size_t nxranges, xranges_cap;
	struct dw_var *vars;		/* dw_walk_opts.vars: by DIE offset */
	size_t nvars, vars_cap;
	/* dw_walk_opts.vars: the types of the functions' parameters
	 * (their DIE offsets, repeats possible) */
	uint64_t *params;
	size_t nparams, params_cap;
	/* dw_walk_opts.vars: the variables' declarations, in DIE order */
	struct dw_decl_var *decl_vars;
	size_t ndecl_vars, decl_vars_cap;
	uint32_t call_sites;		/* call-site DIEs read */
	uint32_t split_units;		/* compile units a second thread walked */

	struct dw_state *st;		/* the stage's own (internal.h) */
};

/* The DWARF of e, its sections set up (not read yet).  "'PATH': no DWARF
 * debug information (build with -g)" when it has none. */
int dw_open(struct dw_image *dw, const char *path, const struct sp_elf *e,
	    struct sp_graph *g, struct sp_err *err);
/* Read the DWARF from the image's separate debug file instead (d: a
 * library's, found by build-id; its .debug_* sections, compressed or
 * not, at the image's addresses), the CFI still from the image's own
 * .eh_frame.  Before dw_walk; d outlives dw.  -1 when d has no
 * .debug_info: the image's own sections stay. */
int dw_open_debug(struct dw_image *dw, const struct sp_elf *d);
/* Read every compile unit into dw's records and g's CUs, on two cores
 * when the image is large enough (split.c). */
int dw_walk(struct dw_image *dw, const struct dw_walk_opts *opts, struct sp_err *err);
/* Free the records only the graph builder reads (subs, sites, extra
 * ranges, the DIE offset maps): an image of many need not keep them
 * while the others load.  The decl_file tables and unit offsets, which
 * later readers use, stay.  Idempotent. */
void dw_release_walk(struct dw_image *dw);
/* Close the main thread's reader, free the relocated copies and hand the
 * file's pages back: what an image read is in its records and the
 * graph, and later readers need little of its DWARF (its CFI, a few
 * DIEs), while a thousand kernel modules kept open hold 1.8 times their
 * .debug_info.  A later reader sets the sections up again. */
void dw_park(struct dw_image *dw);
/* A reader that keeps its DIEs or the sections past other passes
 * (--indirect=types from before the frames to after them) pins them:
 * dw_park() leaves them while any pin is held. */
void dw_pin(struct dw_image *dw);
void dw_unpin(struct dw_image *dw);
void dw_close(struct dw_image *dw);

/* The record index for a DIE offset, reading the DIE on demand when the
 * walk skipped it (members of a class).  SP_NONE if it is no subprogram.
 * May move dw->subs. */
uint32_t dw_sub_at(struct dw_image *dw, uint64_t off);

/* What a concrete subprogram's abstract_origin/specification chain says. */
struct dw_decl {
	const char *name, *linkage, *file;
	uint32_t line, col;
	uint32_t abstract;	/* record of the abstract origin, SP_NONE if none */
};
void dw_sub_resolve(struct dw_image *dw, uint32_t idx, struct dw_decl *out);
/* Entry n of a CU's decl_file table, interned; NULL if out of range. */
const char *dw_cu_file(const struct dw_image *dw, uint32_t cu, uint64_t n);

/* ---- the questions, by DIE offset (reader.c) ---- */

/* One thread's reader of an image's DIEs: the units it read, kept open. */
struct dw_reader;
/* The image's own reader, for the main thread; NULL when the image has
 * no DWARF to read. */
struct dw_reader *dw_reader(struct dw_image *dw);
/* A reader of dw for another thread (opened in the main thread, closed
 * before dw_park); NULL when the image has no DWARF to read. */
struct dw_reader *dw_reader_open(struct dw_image *dw);
void dw_reader_close(struct dw_reader *r);
/* Move to the unit of the DIE at off.  Work sorted by DIE offset moves
 * unit after unit, and every 64 units the .debug_info pages read are
 * handed back (dw_done_reading): a reader over the whole section would
 * otherwise hold all of it. */
void dw_reader_seek(struct dw_reader *r, uint64_t off);
/* How many times the reader moved to another unit. */
uint32_t dw_reader_moves(const struct dw_reader *r);
/* Is the DIE at off in the unit the reader moved to last? */
bool dw_reader_here(const struct dw_reader *r, uint64_t off);
/* Where the unit holding the DIE at off ends (the next unit's offset,
 * UINT64_MAX past the last); 0 when off is in none.  Reads only what the
 * walk listed: any thread may ask. */
uint64_t dw_unit_end(const struct dw_image *dw, uint64_t off);

/* Called for each VLA of a frame; returns true to stop the walk. */
typedef bool dw_vla_fn(void *ctx, const struct sp_vla *v);
/* The VLAs in the frame of graph function func (its DIE subtree, the
 * callees inlined into it included), each named and placed; false when
 * it has no DIE to read (vla.c). */
bool dw_func_vlas(struct dw_image *dw, uint32_t func, dw_vla_fn *fn, void *ctx);

/* Called for each address range [lo, hi). */
typedef void dw_span_range_fn(void *ctx, uint64_t lo, uint64_t hi);
/* The address ranges of the copies of the function named callee that the
 * compiler inlined into graph function func (DW_TAG_inlined_subroutine
 * DIEs at any depth of its DIE subtree whose abstract origin is named
 * callee), each to add; false when func has no DIE to read (inlined.c). */
bool dw_func_inlined(struct dw_image *dw, uint32_t func, const char *callee,
		     dw_span_range_fn *add, void *ctx);
/* A function's DIEs are read: hand their .debug_info pages back, or
 * reads spread over the section add up (each fault maps 64 KB around
 * the page: 7 MB on a kernel, the run's peak). */
void dw_done_reading(const struct dw_image *dw);

/* Is the subprogram at off typed like an irq_handler_t, irqreturn_t
 * f(int, void *) (or a pointer to another type as second parameter)?
 * (types.c) */
bool dw_is_irq_handler(struct dw_reader *r, uint64_t off);
/* The positions (from 0) of the parameters named thread_fn and handler,
 * of type irq_handler_t, of the function whose DIE is at off (as
 * request_threaded_irq() and its wrappers name them); -1 for none. */
void dw_irq_params(struct dw_reader *r, uint64_t off, int *thread_fn, int *handler);
/* The prototype "ret(param,...)" of the function whose DIE is at off
 * (its origin's and specification's followed), interned in g; NULL when
 * unknown: an unprototyped declaration, a type not named here (proto.c). */
const char *dw_func_proto(struct dw_reader *r, struct sp_graph *g, uint64_t off);
/* The same for the type an indirect call site names (a subroutine type,
 * maybe behind typedefs, qualifiers and a pointer). */
const char *dw_call_proto(struct dw_reader *r, struct sp_graph *g, uint64_t off);

/* ---- what --indirect=types asks (types.c, locs.c, lines.c) ---- */

enum dw_type_kind {
	DW_TYPE_OTHER = 0,	/* base, enum, void, unknown */
	DW_TYPE_STRUCT,		/* struct, class or union */
	DW_TYPE_POINTER,	/* a pointer or a reference */
	DW_TYPE_ARRAY,
	DW_TYPE_FUNC,		/* a subroutine type */
};

/* A type, seen through its typedefs and qualifiers. */
struct dw_type {
	uint8_t kind;		/* enum dw_type_kind */
	bool is_union;
	uint64_t die;		/* the DIE under the typedefs and qualifiers */
	const char *name;	/* STRUCT: its tag, or the first typedef's name
				 * on the way (an anonymous struct's); interned */
	uint64_t size;		/* DW_AT_byte_size, 0 when none */
	uint64_t target;	/* POINTER: the pointee's DIE; ARRAY: the element's */
	uint64_t count;		/* ARRAY: the elements, 0 when unknown */
};
/* The type at DIE off, names interned in g; false for off 0 (void), or
 * when no type can be read there. */
bool dw_type_of(struct dw_reader *r, struct sp_graph *g, uint64_t off, struct dw_type *out);

/* A member of a struct, class or union (or a base class). */
struct dw_member {
	uint64_t off;		/* its offset in the struct */
	uint64_t type;		/* its type's DIE */
	uint64_t die;		/* its own DIE, for its name (dw_member_name) */
};
typedef void dw_member_fn(void *ctx, const struct dw_member *m);
/* The members of the struct whose DIE (a dw_type's die) is at die, bit
 * fields aside, in order to fn; false when one's offset cannot be read
 * or the list is cut (the others are given all the same). */
bool dw_type_members(struct dw_reader *r, uint64_t die, dw_member_fn *fn, void *ctx);
/* The DW_AT_name of a member's DIE (a dw_member's die), interned in g;
 * NULL when none.  Read apart: most members read are only passed on
 * the way to an offset, their names never needed. */
const char *dw_member_name(struct dw_reader *r, struct sp_graph *g, uint64_t die);
/* The DW_AT_name of the DIE at off (or of its origin, its declaration),
 * interned in g; NULL when none. */
const char *dw_die_name(struct dw_reader *r, struct sp_graph *g, uint64_t off);

/* Every type a unit defines, at any depth (a function's own included;
 * an inlined copy's and a call site's subtrees are stepped over):
 * each member of a struct or union that is no declaration, bit fields
 * aside (member: the struct's DIE, the member's offset and type DIE),
 * and each typedef, qualifier and array type (alias: its DIE and the
 * type DIE under it, array for an array's element). */
struct dw_unit_types {
	void (*member)(void *ctx, uint64_t parent, uint64_t off, uint64_t type);
	void (*alias)(void *ctx, uint64_t die, uint64_t type, bool array);
	void *ctx;
};
/* dw_unit_types' walk of the unit holding the DIE at off, whose offsets
 * are [*lo, *hi); false when some of it cannot be read (what was given
 * then is not all). */
bool dw_unit_types(struct dw_reader *r, uint64_t off, const struct dw_unit_types *q,
		   uint64_t *lo, uint64_t *hi);
/* The type of the variable, parameter or subprogram at off: its
 * DW_AT_type, or its abstract origin's or specification's; 0 for none. */
uint64_t dw_decl_type(struct dw_reader *r, uint64_t off);

/* The loads of a variable in memory (dw_reg_vars.in_memory), its own too. */
#define DW_MEM_PATH 4

/* Which variables to locate, and where they are. */
struct dw_reg_vars {
	/* Is a variable of the type at DIE type worth locating? */
	bool (*wanted)(void *ctx, uint64_t type);
	/* Its value is DWARF register reg's plus off over [lo, hi) (off 0:
	 * the register itself). */
	void (*found)(void *ctx, uint64_t lo, uint64_t hi, uint8_t reg, int64_t off,
		      uint64_t type);
	/* Or it is in memory at the call frame's CFA plus off over [lo, hi)
	 * (DW_OP_fbreg off, the frame base DW_OP_call_frame_cfa); NULL: not
	 * asked. */
	void (*in_frame)(void *ctx, uint64_t lo, uint64_t hi, int64_t off, uint64_t type);
	/* Or its value is, somewhere, what DWARF register reg held when the
	 * function was entered plus off (DW_OP_entry_value(reg) + off, the
	 * same wherever it is so): each [lo, hi) it is located over at all,
	 * where it holds that value unless assigned again; NULL: not asked. */
	void (*at_entry)(void *ctx, uint64_t lo, uint64_t hi, uint8_t reg, int64_t off,
			 uint64_t type);
	/* Or it is in memory at an address loaded through register reg
	 * (dw_expr_mem_path): its value is the word at off[n - 1] from the
	 * word at off[n - 2] ... from reg plus off[0], plus add (a value
	 * computed from that word, dw_expr_mem_value; else 0), over
	 * [lo, hi); NULL: not asked. */
	void (*in_memory)(void *ctx, uint64_t lo, uint64_t hi, uint8_t reg, const int64_t *off,
			  int n, int64_t add, uint64_t type);
	void *ctx;
};
/* The parameters and variables that are a register (DW_OP_regN,
 * DW_OP_regx, or DW_OP_bregN off as a value), or in its frame (in_frame),
 * in the function whose DIE is at die: its own, and those of the blocks and inlined calls that hold
 * one of pcs[0..npcs) (the only ones asked about), in DIE order. */
void dw_func_reg_vars(struct dw_reader *r, uint64_t die, const uint64_t *pcs, size_t npcs,
		      const struct dw_reg_vars *q);

/* What a call passes in a register, as its DW_TAG_call_site_parameter's
 * DW_AT_call_value says. */
struct dw_call_arg {
	enum {
		DW_ARG_UNKNOWN = 0,	/* no such parameter, or another value */
		DW_ARG_ADDR,		/* DW_OP_addr addr: a constant address
					 * (0: a constant 0, NULL) */
		DW_ARG_ENTRY,		/* DW_OP_entry_value(reg): what the caller's
					 * reg held at its own entry */
	} kind;
	uint64_t addr;
	uint8_t reg;
};
/* The value the call of the function whose DIE is at die (its own code,
 * or code inlined into it) that returns to ret_pc passes in DWARF
 * register reg; DW_ARG_UNKNOWN when no call site has that return
 * address or it does not say. */
struct dw_call_arg dw_call_arg(struct dw_reader *r, uint64_t die, uint64_t ret_pc, uint8_t reg);
/* The type the function a call of die's code (returning to ret_pc)
 * names returns, as its call site's DW_AT_call_origin declares it: a
 * DIE of die's own unit (the callee's declaration there), 0 when no
 * call site or no type says. */
uint64_t dw_call_type(struct dw_reader *r, uint64_t die, uint64_t ret_pc);

/* The source lines of a unit's code: the rows its line table's program
 * makes, by address. */
struct dw_line_row {
	uint64_t addr;
	uint32_t line;		/* 0: the end of a sequence, no line after it */
	uint32_t file;		/* the unit's file number (dw_cu_file) */
};
struct dw_lines {
	const struct dw_image *dw;
	uint32_t cu;
	struct dw_line_row *v;
	size_t n, cap;
};
/* The rows of graph CU cu's line table into l (whose memory is reused;
 * zeroed the first time): 0, or -1 when the unit has none that reads. */
int dw_lines_read(struct dw_reader *r, uint32_t cu, struct dw_lines *l);
/* The line and file of the code at addr: the row at or before it;
 * false when there is none, or it ends a sequence. */
bool dw_lines_find(const struct dw_lines *l, uint64_t addr, uint32_t *line,
		   const char **file);
void dw_lines_release(struct dw_lines *l);

/* ---- frames from the call frame information (cfi.c) ---- */

/* How the FDEs are found: each through .eh_frame_hdr when few functions
 * are asked about, else libdwarf's list of all of them (the others force
 * a way, so that tests compare the two). */
enum dw_cfi_lookup {
	DW_CFI_AUTO = 0,
	DW_CFI_ONE_BY_ONE,
	DW_CFI_LIST,
};

struct dw_cfi;
/* Ready to answer for about `wanted` functions; NULL when the machine's
 * stack pointer has no DWARF number here, or the image has no CFI. */
struct dw_cfi *dw_cfi_open(struct dw_image *dw, size_t wanted, enum dw_cfi_lookup how);
/* The largest CFA offset from the stack pointer over the rows of the FDE
 * that starts at addr, .debug_frame first; false when there is none, or
 * a row has the CFA elsewhere (a frame pointer, an expression). */
bool dw_cfi_frame(struct dw_cfi *c, uint64_t addr, uint64_t *frame);
void dw_cfi_close(struct dw_cfi *c);

#endif
