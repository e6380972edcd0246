/* internal.h - state shared by the callgraph/ files; not for other stages. */
#ifndef SP_CG_INTERNAL_H
#define SP_CG_INTERNAL_H

#include <dwarf.h>
#include <pthread.h>
#include <stdatomic.h>
#include <gelf.h>
#include <libdwarf.h>

#include "callgraph/callgraph.h"
#include "elf/elf.h"
#include "insn/passes.h"
#include "common/u64map.h"

/* ---- ELF checks of the DWARF sections ---- */

/* Refuse a .debug_rnglists/.debug_loclists table header that does not fit
 * (libdwarf 20210528 frees twice on one), or a DWARF 5 .debug_line file
 * entry naming a directory past the table's end (its dwarf_srcfiles
 * reads one past the array): "'PATH': corrupt SECTION section". */
int cg_check_dwarf_lists(const struct sp_elf *e, const char *path, struct sp_err *err);
/* lines_check.c: false when a DWARF 5 line table header in the
 * .debug_line contents P names a directory it does not have */
bool cg_lines_ok(const unsigned char *p, uint64_t size);

/* ---- relocated DWARF of an ET_REL object (reloc.c) ---- */

/* Bytes libdwarf is to see as section ndx, at address addr. */
struct cg_section_window {
	size_t ndx;
	const unsigned char *data;
	uint64_t size, addr;
};

struct cg_dwobj {
	struct sp_elf *elf;
	size_t nsec, shstrndx;
	unsigned char **copies;	/* by section index: relocated .debug_* or NULL */
	bool msb, elf64;
	Dwarf_Obj_Access_Interface iface;
	/* a linked image: the file mapped read-only, sections served from it,
	 * so .debug_info is page cache that the walk can hand back */
	unsigned char *map;
	size_t map_len;
	size_t info_ndx;		/* .debug_info's section index, 0 if none */
	uint64_t info_off, info_size;	/* its place in the file */
	struct cg_section_window win;	/* cg_dwobj_open_window's, else no data */
};

/* dwarf_object_init_b over e's sections, its DWARF relocated to e's layout. */
int cg_dwobj_init(struct cg_dwobj *o, struct sp_elf *e, Dwarf_Debug *dbg,
		  Dwarf_Error *derr);
/* A second Dwarf_Debug over the same sections, for another thread: in
 * the main thread (libdwarf's ELF hook is process-wide during init). */
int cg_dwobj_open_again(struct cg_dwobj *o, Dwarf_Debug *dbg, Dwarf_Error *derr);
/* A Dwarf_Debug over o's sections, but with win's bytes and address as
 * section win->ndx: a few records of .eh_frame, so that libdwarf parses
 * those and not all of them.  view (a copy of o) is what it reads through
 * and must outlive *dbg; it owns nothing, and is not released. */
int cg_dwobj_open_window(const struct cg_dwobj *o, struct cg_dwobj *view,
			 const struct cg_section_window *win, Dwarf_Debug *dbg,
			 Dwarf_Error *derr);
/* The section named name as libdwarf is given it (out: index, contents,
 * size, address); false when there is none. */
bool cg_dwobj_section(const struct cg_dwobj *o, const char *name,
		      struct cg_section_window *out);
/* An unsigned number of n bytes (1..8) at p, in the object's byte order. */
uint64_t cg_read_uint(const unsigned char *p, unsigned n, bool msb);
void cg_dwobj_release(struct cg_dwobj *o);
/* The compile units in .debug_info, counted from their headers alone. */
uint32_t cg_dwobj_count_units(const struct cg_dwobj *o);
/* The unit header nearest the middle of .debug_info, from the headers
 * alone; 0 when the first unit is the only one. */
uint64_t cg_dwobj_middle_unit(const struct cg_dwobj *o);
/* A walk is past offset `upto` of .debug_info: drop the pages from
 * *dropped (its mark, moved to upto) on from the process (a later read
 * faults them back in from the page cache). */
void cg_dwobj_info_done(const struct cg_dwobj *o, uint64_t *dropped, uint64_t upto);

/* ---- DWARF records (dwarf.c) ---- */

/* One DW_TAG_subprogram DIE (concrete, abstract or declaration). */
struct cg_sub {
	Dwarf_Off off;
	Dwarf_Off origin;	/* DW_AT_abstract_origin, 0 if none */
	Dwarf_Off spec;		/* DW_AT_specification, 0 if none */
	const char *name, *linkage;
	const char *file;
	uint32_t line, col;
	uint32_t cu;		/* graph CU index */
	uint64_t lo, hi;	/* main range; hi == 0 when no code */
	uint32_t range_first, nranges;	/* extra ranges in cg_image.ranges */
	bool all_calls;
	bool declaration;
	uint32_t func;		/* graph function id, SP_NONE */
};

/* One call-site DIE. */
struct cg_site {
	uint64_t ret_pc;	/* return address (DW_AT_call_return_pc / low_pc) */
	uint64_t call_pc;	/* DW_AT_call_pc: the call itself (Clang's tail calls) */
	Dwarf_Off origin;	/* callee DIE, 0 if none */
	uint64_t target;	/* constant target address, 0 if none */
	Dwarf_Off type;		/* DW_AT_type: the called function's type, 0 if none */
	uint32_t sub;		/* enclosing subprogram record */
	bool tail;
	bool computed;		/* DW_AT_call_target is an expression: indirect */
	bool no_decode;		/* ret_pc only places the site: no instruction ends there */
};

struct cg_range {
	uint64_t lo, hi;
	uint32_t func;
};

/* An indirect call site with a DW_AT_type, for proto.c. */
struct cg_icall {
	uint32_t func;		/* the caller */
	Dwarf_Off type;
};

struct cg_cu_files {		/* decl_file table of one CU */
	const char **names;	/* interned: libdwarf's copies are freed at once */
	Dwarf_Signed count;
	int base;		/* 0 for DWARF 5, 1 before */
};

struct cg_image {
	const char *path;
	struct cg_options opts;
	struct sp_elf elf;
	struct insn_image code;		/* every function decoded once, its passes' results */
	Dwarf_Debug dbg;
	struct cg_dwobj dwobj;		/* ET_REL: what dbg reads */
	/* while two threads walk: held around dwarf_srcfiles(), which
	 * builds each path in static buffers of libdwarf's; else NULL */
	pthread_mutex_t *srcfiles_lock;
	struct sp_graph *g;
	/* what this image added to the graph (several images share one) */
	uint32_t func_first, func_end;
	uint32_t cu_first;		/* graph CU index of files[0], cu_die_off[0] */
	uint32_t ncus_own;		/* CUs this image added */

	struct cg_sub *subs;
	size_t nsubs, subs_cap;
	struct sp_u64map sub_by_off;	/* DIE offset -> subs index */
	/* a split walk's second walker kept its own map, for the DIEs from
	 * split_off on (its units); its indices are split_base lower */
	struct sp_u64map split_by_off;
	uint64_t split_off;
	size_t split_base;
	struct cg_site *sites;
	size_t nsites, sites_cap;
	struct cg_icall *icalls;	/* indirect sites whose DWARF types the callee */
	size_t nicalls, icalls_cap;
	struct cg_range *xranges;	/* DW_AT_ranges beyond the first */
	size_t nxranges, xranges_cap;
	struct cg_cu_files *files;	/* per graph CU */
	Dwarf_Off *cu_die_off;		/* per graph CU: CU DIE offset */

	struct cg_range *ranges;	/* every function range, sorted by lo */
	size_t nranges;
	struct sp_u64map func_by_addr;	/* entry address -> function id */
	struct sp_u64map extern_by_name;	/* interned name pointer -> id */
	struct sp_u64map copies;	/* abstract DIE offset -> first concrete func */
	struct cg_stats stats;
};

/* callgraph.c: free what the DWARF walk filled in (files, CU offsets,
 * subs, sites, extra ranges, the DIE offset maps); cg_close() and split.c. */
void cg_release_records(struct cg_image *img);

/* dwarf.c */
/* Read every compile unit into img's records, on two cores when the
 * image is large enough (split.c). */
int cg_dwarf_walk(struct cg_image *img, struct sp_err *err);

/* One walker's stretch of .debug_info. */
struct cg_units {
	uint64_t from, to;		/* the units whose headers start in [from, to) */
	const struct cg_dwobj *dwobj;	/* whose .debug_info pages it drops */
	uint64_t dropped;		/* pages before this are dropped */
	_Atomic uint32_t done;		/* units walked (the other thread reads it) */
	const _Atomic uint32_t *other;	/* the other walker's count, or NULL */
	uint32_t total;			/* for the progress line, 0: none */
};
int cg_dwarf_walk_units(struct cg_image *img, struct cg_units *u, struct sp_err *err);

/* split.c: the second walker, over the units from `from` on.  Returns
 * NULL when it did not start (the caller then walks them all). */
struct cg_split;
struct cg_split *cg_split_start(struct cg_image *img, uint64_t from);
/* Wait for it and append its records to img's (whose walk ended just
 * before its first unit); -1 with its error when it failed. */
int cg_split_finish(struct cg_split *w, struct cg_image *img, struct sp_err *err);
/* Wait for it and drop what it read (img's walk failed). */
void cg_split_abandon(struct cg_split *w);
const _Atomic uint32_t *cg_split_done(const struct cg_split *w);
/* The record index for a DIE offset, reading the DIE on demand when the
 * walk skipped it (members of a class).  SP_NONE if it is no subprogram.
 * May move img->subs. */
uint32_t cg_sub_at(struct cg_image *img, Dwarf_Off off);

/* What a concrete subprogram's abstract_origin/specification chain says. */
struct cg_decl {
	const char *name, *linkage, *file;
	uint32_t line, col;
	uint32_t abstract;	/* record of the abstract origin, SP_NONE if none */
};
void cg_sub_resolve(struct cg_image *img, uint32_t idx, struct cg_decl *out);
/* An unsigned constant of any form (implicit_const included), 0 if none. */
uint64_t cg_attr_udata(Dwarf_Debug dbg, Dwarf_Attribute a);
/* Entry n of a CU's decl_file table, interned; NULL if out of range. */
const char *cg_cu_file(struct cg_image *img, uint32_t cu, Dwarf_Unsigned n);
int cg_dwarf_err(struct cg_image *img, Dwarf_Error derr, struct sp_err *err, const char *what);
/* dwarf_siblingof_b(dbg, die, true, ...) that also refuses a sibling not
 * after die: DW_DLV_ERROR with *derr NULL.  Every DIE loop uses it. */
int cg_sibling(Dwarf_Debug dbg, Dwarf_Die die, Dwarf_Die *next, Dwarf_Error *derr);

/* build.c */
void cg_build(struct cg_image *img);
uint32_t cg_func_containing(const struct cg_image *img, uint64_t addr);
/* The function a direct branch (enum insn_branch kind) from caller enters:
 * start is the one whose entry is its target, inside the one containing
 * the target (SP_NONE when unknown); SP_NONE when it stays in caller. */
uint32_t cg_branch_enters(enum insn_branch kind, uint32_t caller, uint32_t start,
			  uint32_t inside);

#endif
