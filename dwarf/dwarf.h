/*
 * dwarf.h - the DWARF stage: an image's debug information, walked once
 * for its subprograms and call sites, and libdwarf for later readers.
 *
 *	struct dw_image dw;
 *	dw_open(&dw, path, &elf, g, &err);	libdwarf over the ELF's sections
 *	dw_walk(&dw, &opts, &err);		subprograms, call sites, CUs
 *	... dw.subs, dw.sites, dw_sub_resolve() for the graph builder ...
 *	dw_close(&dw);
 *
 * libdwarf reads the sections through our object interface (object.c):
 * from the file mapped read-only, a relocatable object's (.o, .ko)
 * .debug_* from copies relocated to the ELF stage's layout of its
 * sections.  The walk reads the same bytes itself (die.c: a kernel has
 * millions of DIEs) and enters only the DIEs that can hold code or
 * calls; a large image's units are walked by two threads (split.c).
 * Later readers (cfi.c, vla.c, types.c, proto.c) find DIEs again by
 * offset through libdwarf.  Every Dwarf_Error is freed through
 * dw_drop_error(), every reference followed by dw_ref().
 */
#ifndef SP_DWARF_H
#define SP_DWARF_H

#include <dwarf.h>
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>

#include "common/error.h"
#include "common/u64map.h"
#include "elf/elf.h"
#include "stackprof.h"

/* abstract_origin/specification chains are short: a longer one is a
 * reference cycle */
#define DW_MAX_ORIGIN_HOPS 16

/* ---- an image's sections (object.c) ---- */

/* Bytes a reader is to see as section ndx, at address addr. */
struct dw_section {
	size_t ndx;
	const unsigned char *data;
	uint64_t size, addr;
};

struct dw_obj {
	const struct sp_elf *elf;
	size_t nsec, shstrndx;
	unsigned char **copies;	/* by section index: relocated .debug_* or NULL */
	size_t *rel_of;		/* by section index: the section relocating it, 0 if
				 * none (a relocatable object's .debug_*) */
	uint64_t *sym_values;	/* by symbol index, once a section is relocated */
	size_t nsym_values;
	bool msb, elf64;
	/* the file mapped read-only, sections served from it (a relocatable
	 * object's relocated from it): page cache that can be handed back */
	unsigned char *map;
	size_t map_len;
	size_t info_ndx;		/* .debug_info's section index, 0 if none */
	uint64_t info_off, info_size;	/* its place in the file */
};

/* o over e's sections, its DWARF relocated to e's layout (each section
 * when it is first loaded). */
void dw_obj_open(struct dw_obj *o, const struct sp_elf *e);
/* Has e any of the sections DWARF is in (.eh_frame counts)? */
bool dw_obj_has_dwarf(const struct dw_obj *o);
/* The header of section i as the readers are to see it: its address in
 * the ELF stage's layout, no data (dw_obj_load loads it). */
struct dw_secinfo {
	const char *name;
	uint32_t type;
	uint64_t flags, align, entsize, link, info;
	struct dw_section s;
};
bool dw_obj_section_header(const struct dw_obj *o, size_t i, struct dw_secinfo *out);
/* The bytes of section i (relocated now if it is an object's DWARF);
 * NULL when it has none. */
const unsigned char *dw_obj_load(struct dw_obj *o, size_t i);
/* The section named name, loaded; false when there is none. */
bool dw_obj_section(struct dw_obj *o, const char *name, struct dw_section *out);
void dw_obj_release(struct dw_obj *o);
/* Free the relocated copies (no reader may read them any more):
 * they are made again when a new one loads them. */
void dw_obj_free_copies(struct dw_obj *o);
/* The compile units in .debug_info, counted from their headers alone. */
uint32_t dw_obj_count_units(struct dw_obj *o);
/* The unit header nearest the middle of .debug_info, from the headers
 * alone; 0 when the first unit is the only one. */
uint64_t dw_obj_middle_unit(struct dw_obj *o);
/* A walk is past offset `upto` of .debug_info: drop the pages from
 * *dropped (its mark, moved to upto) on from the process (a later read
 * faults them back in from the page cache). */
void dw_obj_info_done(const struct dw_obj *o, uint64_t *dropped, uint64_t upto);
/* The image is loaded: hand every page of the file mapping back (what
 * later readers use faults back in from the page cache). */
void dw_obj_drop(const struct dw_obj *o);

/* ---- DIEs read from the section bytes (die.c), for the walk ---- */

#define DW_MAX_DIE_DEPTH 256	/* hostile input: nesting deeper than any compiler's */

/* The sections a unit's DIEs and their values are in (none may be). */
struct dw_secs {
	struct dw_section info, abbrev, str, line_str, str_offsets, addr, ranges, rnglists;
	struct dw_section loc, loclists;
	struct dw_section line;	/* the units' file names (lines.c) */
	bool msb;
};
void dw_secs_init(struct dw_obj *o, struct dw_secs *s);

struct dw_attr_spec {
	uint16_t at, form;
	int64_t implicit;	/* DW_FORM_implicit_const's value */
};

struct dw_abbrev {
	uint64_t code;
	uint16_t tag;
	bool children;
	int32_t sibling;	/* index of DW_AT_sibling among the specs, -1 if none */
	uint32_t first, n;	/* the specs, in dw_abbrevs.specs */
};

struct dw_abbrevs {
	struct dw_abbrev *list;
	size_t n, cap;
	uint32_t *by_code;	/* code -> list index + 1, 0 for none; ncodes of them */
	size_t ncodes;
	const struct dw_abbrev **big;	/* the codes past by_code's, sorted */
	size_t nbig;
	struct dw_attr_spec *specs;
	size_t nspecs, specs_cap;
};

/* One unit of .debug_info: its header, abbreviations and bases. */
struct dw_unit {
	const struct dw_secs *secs;
	uint64_t off, end;	/* the header's offset, the offset past the unit */
	uint64_t first_die;
	uint16_t version;
	uint8_t type, addr_size, off_size;
	uint64_t abbrev_off;
	/* from the unit's DIE, which the reader of that DIE sets */
	uint64_t str_offsets_base, addr_base, rnglists_base, loclists_base;
	uint64_t base;		/* DW_AT_low_pc: the lists' base address */
	bool has_base;		/* ... which the unit's DIE gives */
	struct dw_abbrevs ab;
};

/* A DIE: where it is, and its abbreviation (NULL for a null entry). */
struct dw_die {
	uint64_t off;
	uint64_t attrs;		/* its first attribute's offset */
	const struct dw_abbrev *ab;
};

/* One attribute value, undecoded beyond its form. */
struct dw_val {
	uint16_t at, form;
	uint64_t u;		/* a number, address, offset or index */
	int64_t s;		/* DW_FORM_sdata, DW_FORM_implicit_const */
	const unsigned char *block;	/* a block or an inline string */
	uint64_t len;
};

struct dw_attr_iter {
	const struct dw_unit *u;
	const struct dw_abbrev *ab;
	uint32_t i;
	const unsigned char *p, *end;
};

/* The initial length of a unit or table at p, of which avail bytes are
 * there: the length after the field into *len, the field's own size (4,
 * or 12 in 64-bit DWARF) into *hdr; false when either does not fit. */
bool dw_unit_length(const unsigned char *p, uint64_t avail, bool msb, uint64_t *len,
		    unsigned *hdr);
/* The unit whose header is at off of .debug_info: 0, 1 at the end of
 * the section, -1 when its header or abbreviations are corrupt. */
int dw_unit_open(const struct dw_secs *s, uint64_t off, struct dw_unit *u);
void dw_unit_close(struct dw_unit *u);
/* A value of the unit's own DIE that gives one of u's bases (of
 * .debug_str_offsets, .debug_addr, .debug_rnglists, .debug_loclists)
 * into u; false for another attribute. */
bool dw_unit_take_base(struct dw_unit *u, const struct dw_val *v);
/* The unit's DW_AT_low_pc, the lists' base address, once every other
 * base is known (an addrx form reads .debug_addr). */
void dw_unit_take_low_pc(struct dw_unit *u, const struct dw_val *v);
/* u's bases from its DIE, for a reader that does not walk it: 0, or -1
 * when the DIE cannot be read. */
int dw_unit_read_bases(struct dw_unit *u);
/* The DIE at off of u: 0, or -1 when off is no DIE of u. */
int dw_die_read(const struct dw_unit *u, uint64_t off, struct dw_die *d);
/* d's attribute values in order: dw_attrs_next gives 1 for each, 0 after
 * the last (dw_attrs_end is then past d's attributes), -1 when one is cut
 * or of no known form. */
void dw_attrs_begin(struct dw_attr_iter *it, const struct dw_unit *u, const struct dw_die *d);
int dw_attrs_next(struct dw_attr_iter *it, struct dw_val *v);
uint64_t dw_attrs_end(const struct dw_attr_iter *it);
/* Past all of d's attributes (where its first child, or its sibling,
 * is) into *end: 0, or -1 when one is cut or of no known form. */
int dw_die_attrs_end(const struct dw_unit *u, const struct dw_die *d, uint64_t *end);
/* The offset past d and its subtree: by d's DW_AT_sibling, which must
 * point past d and inside u (else -2, also for one in the subtree), else
 * children_end when the caller walked d's children (the offset past their
 * null entry), else by stepping over the subtree; -1 when that cannot be
 * read. */
int dw_die_next(const struct dw_unit *u, const struct dw_die *d, uint64_t children_end,
		uint64_t *next, int depth);
/* What a value says, when its form says it: */
const char *dw_val_string(const struct dw_unit *u, const struct dw_val *v);
bool dw_val_addr(const struct dw_unit *u, const struct dw_val *v, uint64_t *addr);
bool dw_val_udata(const struct dw_val *v, uint64_t *out);
/* A constant read as signed: a data form's bits sign-extended. */
bool dw_val_sdata(const struct dw_val *v, int64_t *out);
uint64_t dw_val_ref(const struct dw_unit *u, const struct dw_val *v);	/* 0: none */
bool dw_val_flag(const struct dw_val *v);
bool dw_val_block(const struct dw_val *v, const unsigned char **p, uint64_t *len);
bool dw_val_offset(const struct dw_val *v, uint64_t *off);
typedef void (*dw_range_fn)(void *ctx, uint64_t lo, uint64_t hi);
/* Each range of the list a DW_AT_ranges value names, to add; -1 when the
 * list cannot be found (a cut list ends where it is cut). */
int dw_val_ranges(const struct dw_unit *u, const struct dw_val *v, dw_range_fn add,
		  void *ctx);

typedef void (*dw_file_fn)(void *ctx, const char *path);
/* The file names of the line table at off of s->line, in the order
 * DW_AT_decl_file numbers them (from 0 in DWARF 5, from 1 before), each
 * joined with its directory and comp_dir as dwarf_srcfiles joins them,
 * to add; -1 when the header cannot be read (some may have been added). */
int dw_line_files(const struct dw_secs *s, uint64_t off, const char *comp_dir,
		  dw_file_fn add, void *ctx);
/* ---- the walk's records (walk.c) ---- */

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
};

struct dw_cu_files {		/* decl_file table of one CU */
	const char **names;	/* interned */
	uint32_t count;
	int base;		/* 0 for DWARF 5, 1 before */
};

/* Called after each compile unit of an image's DWARF walk, and once with
 * done == total at its end; the library itself never prints. */
typedef void dw_progress_fn(void *arg, const char *path, uint32_t done, uint32_t total);

struct dw_walk_opts {
	dw_progress_fn *progress;	/* NULL: no progress calls */
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
	struct dw_obj obj;
	struct dw_walk_opts opts;
	uint32_t cu_first;		/* graph CU index of files[0], cu_die_off[0] */
	uint32_t ncus;			/* CUs this image added */
	uint32_t pins;			/* readers holding the sections across passes:
					 * dw_park() leaves them while any */

	struct dw_sub *subs;
	size_t nsubs, subs_cap;
	struct sp_u64map sub_by_off;	/* DIE offset -> subs index */
	/* a split walk's second walker kept its own map, for the DIEs from
	 * split_off on (its units); its indices are split_base lower */
	struct sp_u64map split_by_off;
	uint64_t split_off;
	size_t split_base;
	struct dw_site *sites;
	size_t nsites, sites_cap;
	struct dw_range *xranges;	/* DW_AT_ranges beyond the first */
	size_t nxranges, xranges_cap;
	struct dw_var *vars;		/* dw_walk_opts.vars: by DIE offset */
	size_t nvars, vars_cap;
	struct dw_cu_files *files;	/* per graph CU */
	uint64_t *cu_die_off;		/* per graph CU: CU DIE offset */
	uint64_t *cu_unit_off;		/* per graph CU: its unit header's offset */
	struct dw_secs secs;		/* where the walk reads DIEs (die.c) */
	bool secs_ready;		/* ... set up (not since dw_park) */
	struct dw_reader *reader;	/* the main thread's (dw_reader) */

	uint32_t call_sites;		/* call-site DIEs read */
	uint32_t split_units;		/* compile units a second thread walked */
};

/* How many subprogram DIEs info_bytes of .debug_info hold, about: the
 * size of the maps by DIE offset. */
size_t dw_subs_expected(uint64_t info_bytes);
/* The DWARF of e, its sections set up (not read yet).  "'PATH': no DWARF
 * debug information (build with -g)" when it has none. */
int dw_open(struct dw_image *dw, const char *path, const struct sp_elf *e,
	    struct sp_graph *g, struct sp_err *err);
/* Read every compile unit into dw's records and g's CUs, on two cores
 * when the image is large enough (split.c). */
int dw_walk(struct dw_image *dw, const struct dw_walk_opts *opts, struct sp_err *err);
/* Free what the walk filled (files, CU offsets, subs, sites, extra
 * ranges, the DIE offset maps). */
void dw_release_records(struct dw_image *dw);
/* Free the records only the graph builder reads (subs, sites, extra
 * ranges, the DIE offset maps): an image of many need not keep them
 * while the others load.  The decl_file tables and CU offsets, which
 * later readers use, stay.  Idempotent. */
void dw_release_walk(struct dw_image *dw);
/* Close the main thread's reader, free the relocated copies and hand the
 * file's pages back (dw_obj_drop): what an image read is in its records
 * and the graph, and later readers need little of its DWARF (its CFI, a
 * few DIEs), while a thousand kernel modules kept open hold 1.8 times
 * their .debug_info.  A later reader sets the sections up again
 * (dw_load_sections). */
void dw_park(struct dw_image *dw);
/* A reader that keeps its DIEs or the sections past other passes
 * (--indirect=types from before the frames to after them) pins it. */
static inline void dw_pin(struct dw_image *dw)
{
	dw->pins++;
}
static inline void dw_unpin(struct dw_image *dw)
{
	if (dw->pins)
		dw->pins--;
}
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

/* ---- DIEs by offset, after the walk (reader.c) ---- */

/* One thread's reader of an image's DIEs: the units it read, kept open. */
struct dw_reader;
/* The image's own reader, for the main thread; NULL when the image has
 * no DWARF to read. */
struct dw_reader *dw_reader(struct dw_image *dw);
/* A reader of dw for another thread (opened in the main thread); NULL
 * when the image has no DWARF to read.  Closed before dw_park(). */
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
/* The sections the readers read, set up again after dw_park (a
 * relocatable object's relocated anew): 0, -1 when there is no
 * .debug_info. */
int dw_load_sections(struct dw_image *dw);

/* vars.c: keep the variable d of unit u when DWARF places it at a fixed
 * address. */
void dw_read_var(struct dw_image *dw, const struct dw_unit *u, const struct dw_die *d);

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
 * stack pointer has no DWARF number here. */
struct dw_cfi *dw_cfi_open(struct dw_image *dw, size_t wanted, enum dw_cfi_lookup how);
/* The largest CFA offset from the stack pointer over the rows of the FDE
 * that starts at addr, .debug_frame first; false when there is none, or
 * a row has the CFA elsewhere (a frame pointer, an expression). */
bool dw_cfi_frame(struct dw_cfi *c, uint64_t addr, uint64_t *frame);
void dw_cfi_close(struct dw_cfi *c);

/* ---- variable-length arrays (vla.c) ---- */

/* Called for each VLA of a frame; returns true to stop the walk. */
typedef bool dw_vla_fn(void *ctx, const struct sp_vla *v);
/* The VLAs in the frame of graph function func (its DIE subtree, the
 * callees inlined into it included), each named and placed; false when
 * it has no DIE to read. */
bool dw_func_vlas(struct dw_image *dw, uint32_t func, dw_vla_fn *fn, void *ctx);
/* A function's DIEs are read: hand their .debug_info pages back, or
 * reads spread over the section add up (each fault maps 64 KB around
 * the page: 7 MB on a kernel, the run's peak). */
void dw_done_reading(const struct dw_image *dw);

/* ---- types (types.c, proto.c) ---- */

/* Is the subprogram at off typed like an irq_handler_t, irqreturn_t
 * f(int, void *) (or a pointer to another type as second parameter)? */
bool dw_is_irq_handler(struct dw_reader *r, uint64_t off);
/* The prototype "ret(param,...)" of the function whose DIE is at off
 * (its origin's and specification's followed), interned in g; NULL when
 * unknown: an unprototyped declaration, a type not named here. */
const char *dw_func_proto(struct dw_reader *r, struct sp_graph *g, uint64_t off);
/* The same for the type an indirect call site names (a subroutine type,
 * maybe behind typedefs, qualifiers and a pointer). */
const char *dw_call_proto(struct dw_reader *r, struct sp_graph *g, uint64_t off);

/* ---- what --indirect=types asks (types.c, locs.c) ---- */

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
	const char *name;	/* interned, NULL when none */
};
typedef void dw_member_fn(void *ctx, const struct dw_member *m);
/* The members of the struct whose DIE (a dw_type's die) is at die, bit
 * fields aside, in order to fn; false when one's offset cannot be read
 * or the list is cut (the others are given all the same). */
bool dw_type_members(struct dw_reader *r, struct sp_graph *g, uint64_t die, dw_member_fn *fn,
		     void *ctx);
/* The DW_AT_name of the DIE at off, interned in g; NULL when none. */
const char *dw_die_name(struct dw_reader *r, struct sp_graph *g, uint64_t off);

/* The type of the variable, parameter or subprogram at off: its
 * DW_AT_type, or its abstract origin's or specification's; 0 for none. */
uint64_t dw_decl_type(struct dw_reader *r, uint64_t off);

/* Which variables to locate, and where they are. */
struct dw_reg_vars {
	/* Is a variable of the type at DIE type worth locating? */
	bool (*wanted)(void *ctx, uint64_t type);
	/* It is in DWARF register reg over [lo, hi). */
	void (*found)(void *ctx, uint64_t lo, uint64_t hi, uint8_t reg, uint64_t type);
	void *ctx;
};
/* The parameters and variables that are a register (DW_OP_regN,
 * DW_OP_regx, or DW_OP_bregN 0 as a value) in the function whose DIE is
 * at die: its own, and those of the blocks and inlined calls that hold
 * one of pcs[0..npcs) (the only ones asked about), in DIE order. */
void dw_func_reg_vars(struct dw_reader *r, uint64_t die, const uint64_t *pcs, size_t npcs,
		      const struct dw_reg_vars *q);

/* The source lines of a unit's code (lines.c): the rows its line
 * table's program makes, by address. */
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

/* ---- the two-thread walk (split.c), set up by walk.c ---- */

/* One walker's stretch of .debug_info. */
struct dw_units {
	uint64_t from, to;		/* the units whose headers start in [from, to) */
	const struct dw_obj *obj;	/* whose .debug_info pages it drops */
	uint64_t dropped;		/* pages before this are dropped */
	_Atomic uint32_t done;		/* units walked (the other thread reads it) */
	const _Atomic uint32_t *other;	/* the other walker's count, or NULL */
	uint32_t total;			/* for the progress line, 0: none */
};
int dw_walk_units(struct dw_image *dw, struct dw_units *u, struct sp_err *err);

/* The second walker, over the units from `from` on.  Returns NULL when
 * it did not start (the caller then walks them all). */
struct dw_split;
struct dw_split *dw_split_start(struct dw_image *dw, uint64_t from);
/* Wait for it and append its records to dw's (whose walk ended just
 * before its first unit); -1 with its error when it failed. */
int dw_split_finish(struct dw_split *w, struct dw_image *dw, struct sp_err *err);
/* Wait for it and drop what it read (dw's walk failed). */
void dw_split_abandon(struct dw_split *w);
const _Atomic uint32_t *dw_split_done(const struct dw_split *w);

#endif
