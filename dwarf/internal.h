/*
 * internal.h - what the files of dwarf/ share and no other stage sees:
 * an image's sections (object.c), its units, DIEs and values (die.c),
 * the stage's state of an image and the walk on two threads (walk.c,
 * split.c), and the one reader of each kind of DWARF data: numbers
 * (read.c), expressions (expr.c), DIEs by offset (reader.c), range and
 * location lists (lists.c), types (types.c), line tables (lines.c).
 */
#ifndef SP_DWARF_INTERNAL_H
#define SP_DWARF_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <dwarf.h>
#include <pthread.h>
#include <stdatomic.h>

#include "common/u64map.h"
#include "dwarf/dwarf.h"

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
	bool *inflated;		/* by section index: SHF_COMPRESSED, decompressed
				 * by libelf (served from its buffer, not the map) */
	bool any_inflated;
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
	/* where the value starts past the DIE's code when every value
	 * before it has a fixed size in its unit, DW_POS_VARIES if not */
	int32_t pos;
	int64_t implicit;	/* DW_FORM_implicit_const's value */
};
#define DW_POS_VARIES (-1)

struct dw_abbrev {
	uint64_t code;
	uint16_t tag;
	bool children;
	bool read;		/* its specs are in the table (dw_abbrevs.lazy) */
	int32_t sibling;	/* index of DW_AT_sibling among the specs, -1 if none */
	/* the bytes of a DIE's values when each has a fixed size in its
	 * unit (most of a function's children), DW_POS_VARIES if not */
	int32_t size;
	uint32_t first, n;	/* the specs, in dw_abbrevs.specs */
	uint32_t at;		/* its specs' offset in .debug_abbrev */
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
	/* each abbreviation's specs read when a DIE first uses it
	 * (dw_unit_open_lookup) */
	bool lazy;
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
	bool ab_shared;		/* ab is the image's (dw_unit_open_shared) */
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
/* The same for a reader that looks a few DIEs up (reader.c): the
 * abbreviations are checked and indexed, and each one's attributes
 * parsed only when a DIE first uses it.  The later passes of
 * --indirect=types open each unit again for a few types, prototypes or
 * variables, where parsing the whole table was 2 % of the run. */
int dw_unit_open_lookup(const struct dw_secs *s, uint64_t off, struct dw_unit *u);
/* The same for the readers of an image, which open each unit several
 * times between them (the typing threads, the prototypes, the variables):
 * the abbreviations are parsed whole by the first to open the unit into
 * *slot, and shared with every later one, on any thread (the table never
 * changes once there).  dw_abbrevs_free frees a slot's table once no
 * reader is left. */
typedef struct dw_abbrevs *_Atomic dw_abbrevs_slot;
int dw_unit_open_shared(const struct dw_secs *s, uint64_t off, dw_abbrevs_slot *slot,
			struct dw_unit *u);
void dw_abbrevs_free(struct dw_abbrevs *t);
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
/* d's attribute at (its first): false when d's abbreviation has none or
 * its value cannot be read.  Straight to it when the values before it
 * have fixed sizes (dw_attr_spec.pos), without decoding them. */
bool dw_die_attr(const struct dw_unit *u, const struct dw_die *d, uint16_t at,
		 struct dw_val *v);
/* d's i-th attribute (in its abbreviation's order), the same way. */
bool dw_die_attr_nth(const struct dw_unit *u, const struct dw_die *d, uint32_t i,
		     struct dw_val *v);
/* Does d's abbreviation name attribute at? */
bool dw_die_has(const struct dw_unit *u, const struct dw_die *d, uint16_t at);
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
 * DW_AT_decl_file numbers them, each joined with its directory and
 * comp_dir as dwarf_srcfiles joins them, to add; the number of the first
 * (0 in a version 5 table, 1 before: the table's version decides, not
 * its unit's), or -1 when the header cannot be read (some may have been
 * added). */
int dw_line_files(const struct dw_secs *s, uint64_t off, const char *comp_dir,
		  dw_file_fn add, void *ctx);

/* ---- an image, as the stage keeps it (walk.c) ---- */

/* abstract_origin/specification chains are short: a longer one is a
 * reference cycle */
#define DW_MAX_ORIGIN_HOPS 16

/* decl_file table of one CU */
struct dw_cu_files {
	const char **names;	/* interned */
	uint32_t count;
	int base;		/* 0 for a DWARF 5 line table, 1 before */
};

/* What the stage keeps of an image besides the walk's records. */
struct dw_state {
	struct dw_obj obj;		/* the DWARF's sections */
	/* the CFI's: &obj, or the image's own when obj is its separate
	 * debug file's (dw_open_debug) */
	struct dw_obj *cfi, image;
	struct dw_secs secs;		/* where the readers read DIEs (die.c) */
	bool secs_ready;		/* ... set up (not since dw_park) */
	struct dw_reader *reader;	/* the main thread's (dw_reader) */
	struct dw_walk_opts opts;
	uint32_t pins;			/* dw_pin()s held */
	struct dw_cu_files *files;	/* per graph CU of the image */
	uint64_t *cu_die_off;		/* per graph CU: its DIE's offset */
	uint64_t *cu_unit_off;		/* per graph CU: its unit header's offset */
	dw_abbrevs_slot *abbrevs;	/* per graph CU: its abbreviations, for
					 * the readers (dw_unit_open_shared) */
	struct sp_u64map sub_by_off;	/* DIE offset -> subs index */
	/* a split walk's second walker kept its own map, for the DIEs from
	 * split_off on (its units); its indices are split_base lower */
	struct sp_u64map split_by_off;
	uint64_t split_off;
	size_t split_base;
};

/* How many subprogram DIEs info_bytes of .debug_info hold, about: the
 * size of the maps by DIE offset. */
size_t dw_subs_expected(uint64_t info_bytes);
/* Free what the walk filled (files, CU offsets, subs, sites, extra
 * ranges, the DIE offset maps). */
void dw_release_records(struct dw_image *dw);
/* The sections the readers read, set up again after dw_park (a
 * relocatable object's relocated anew): 0, -1 when there is no
 * .debug_info. */
int dw_load_sections(struct dw_image *dw);
/* vars.c: keep the variable d of unit u when DWARF places it at a fixed
 * address. */
void dw_read_var(struct dw_image *dw, const struct dw_unit *u, const struct dw_die *d);
/* Keep the type of d, a function's parameter, in dw->params. */
void dw_read_param(struct dw_image *dw, const struct dw_unit *u, const struct dw_die *d);

/* ---- numbers (read.c) ---- */

/* An unsigned number of n bytes (1..8) at p, in the byte order msb
 * says.  Inline, with the sizes of a little-endian object's fields read
 * whole: the walk and relocation read hundreds of millions of them. */
static inline uint64_t dw_read_uint(const unsigned char *p, unsigned n, bool msb)
{
	uint64_t v = 0;
	unsigned i;

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	if (!msb && (n == 8 || n == 4 || n == 2)) {
		memcpy(&v, p, n);
		return v;
	}
#endif
	for (i = 0; i < n; i++)
		v |= (uint64_t)p[msb ? n - 1 - i : i] << (8 * i);
	return v;
}

/* The low n bytes (1..8) of v at p, in the byte order msb says. */
void dw_write_uint(unsigned char *p, unsigned n, uint64_t v, bool msb);

/* An unsigned or signed LEB128 at *p, before end, moving *p past it;
 * false when it is cut or longer than 64 bits. */
bool dw_read_uleb(const unsigned char **p, const unsigned char *end, uint64_t *v);
bool dw_read_sleb(const unsigned char **p, const unsigned char *end, int64_t *v);

/* A LEB128 whose first byte is the whole of it, as nearly all are. */
static inline bool dw_uleb(const unsigned char **p, const unsigned char *end, uint64_t *v)
{
	if (*p < end && !(**p & 0x80)) {
		*v = *(*p)++;
		return true;
	}
	return dw_read_uleb(p, end, v);
}

/*
 * The same readers over a stretch of bytes, for the tables read field
 * after field (line tables, location and range lists): a read that does
 * not fit marks the stretch bad, reads 0 and moves nowhere, so that a
 * table is read through and judged once at its end.
 */
struct dw_bytes {
	const unsigned char *p, *end;
	bool msb;
	bool bad;
};

static inline void dw_bytes_init(struct dw_bytes *b, const unsigned char *p, uint64_t len,
				 bool msb)
{
	b->p = p;
	b->end = p + len;
	b->msb = msb;
	b->bad = false;
}

static inline uint64_t dw_bytes_left(const struct dw_bytes *b)
{
	return b->bad ? 0 : (uint64_t)(b->end - b->p);
}

uint64_t dw_bytes_uint(struct dw_bytes *b, unsigned n);
int64_t dw_bytes_sint(struct dw_bytes *b, unsigned n);
uint64_t dw_bytes_uleb(struct dw_bytes *b);
int64_t dw_bytes_sleb(struct dw_bytes *b);
/* n bytes stepped over; their start, NULL when they do not fit */
const unsigned char *dw_bytes_skip(struct dw_bytes *b, uint64_t n);
/* A NUL-terminated string, moving past it; NULL when it is cut. */
const char *dw_bytes_string(struct dw_bytes *b);

/* ---- expressions (expr.c) ---- */

/* The sizes an expression's operands are read with: its unit's. */
struct dw_opsizes {
	uint8_t addr, off;	/* an address's bytes, a section offset's */
	uint16_t version;	/* DWARF 2 sizes DW_OP_implicit_pointer's as an address */
	bool msb;
};

/* One operation: its code and operands (a signed one as its bits), and
 * the bytes of DW_OP_implicit_value, DW_OP_entry_value, DW_OP_const_type. */
struct dw_op {
	uint8_t code;
	uint64_t arg[2];
	const unsigned char *block;
	uint64_t len;
};

/* No register: what dw_expr_reg gives for anything else. */
#define DW_REG_NONE 0xff

static inline struct dw_opsizes dw_unit_opsizes(const struct dw_unit *u)
{
	return (struct dw_opsizes){ .addr = u->addr_size, .off = u->off_size,
				    .version = u->version, .msb = u->secs->msb };
}

/* The operation at b, b moved past it; false when it is cut or no
 * operation (b is then bad). */
bool dw_op_read(struct dw_bytes *b, const struct dw_opsizes *z, struct dw_op *op);
/* Does every operation of the expression [p, p + len) read? */
bool dw_expr_valid(const unsigned char *p, uint64_t len, const struct dw_opsizes *z);
/* DW_OP_addr alone: the address. */
bool dw_expr_addr(const unsigned char *p, uint64_t len, const struct dw_opsizes *z,
		  uint64_t *addr);
/* A variable that is a register: DW_OP_regN, DW_OP_regx, or DW_OP_bregN 0
 * with DW_OP_stack_value (its value is the register's); DW_REG_NONE for
 * any other expression. */
uint8_t dw_expr_reg(const unsigned char *p, uint64_t len, const struct dw_opsizes *z);
/* A variable in memory whose address is loaded through a register:
 * DW_OP_bregN off[0], then up to max - 1 times DW_OP_deref and any
 * DW_OP_plus_uconst off[i] (GCC's `struct rftype *rft = of->kn->priv`,
 * rft in memory at *(rcx + 0) + 0x60, kn->priv itself); the variable's
 * value is the word loaded at off[*n - 1] from the word loaded at
 * off[*n - 2] ... from the register plus off[0].  DW_REG_NONE for any
 * other expression (a DW_OP_stack_value is a value, not a place). */
uint8_t dw_expr_mem_path(const unsigned char *p, uint64_t len, const struct dw_opsizes *z,
			 int64_t *off, int max, int *n);
/* A variable whose value is a word loaded so, plus a constant: the same
 * operations, the last a DW_OP_deref, then DW_OP_plus_uconst N or a
 * constant and DW_OP_plus or DW_OP_minus, and DW_OP_stack_value (GCC's
 * inlined page_movable_ops(): mops = page->mapping - PAGE_MAPPING_MOVABLE,
 * DW_OP_breg3 24, DW_OP_deref, DW_OP_lit2, DW_OP_minus): off[] as
 * dw_expr_mem_path's place of the word, *add the constant. */
uint8_t dw_expr_mem_value(const unsigned char *p, uint64_t len, const struct dw_opsizes *z,
			  int64_t *off, int max, int *n, int64_t *add);
/* As dw_expr_reg, and DW_OP_bregN off with DW_OP_stack_value: the
 * variable's value is the register's plus *off (0 for the others). */
uint8_t dw_expr_reg_plus(const unsigned char *p, uint64_t len, const struct dw_opsizes *z,
			 int64_t *off);
/* A variable whose value is what a register held when the function was
 * entered, plus an offset: DW_OP_entry_value(DW_OP_regN), then nothing,
 * DW_OP_plus_uconst, or a constant and DW_OP_plus or DW_OP_minus, then
 * DW_OP_stack_value (GCC's container_of(timer, struct rq, hrtick_timer)
 * once the register it kept rq in is reused: entry_value(RDI) - 0xbc0).
 * The register, *off; DW_REG_NONE for any other expression. */
uint8_t dw_expr_entry_plus(const unsigned char *p, uint64_t len, const struct dw_opsizes *z,
			   int64_t *off);
/* One constant pushed (DW_OP_lit*, DW_OP_const*), maybe with
 * DW_OP_stack_value after it: GCC's folded max() is DW_OP_const1u 70. */
bool dw_expr_constant(const unsigned char *p, uint64_t len, const struct dw_opsizes *z,
		      int64_t *v);
/* A value read from a frame slot, "DW_OP_fbreg N; DW_OP_deref ...": how
 * -O0 keeps every variable. */
bool dw_expr_frame_slot(const unsigned char *p, uint64_t len, const struct dw_opsizes *z);
/* DW_OP_fbreg N alone (a variable in memory at the frame base plus N): N. */
bool dw_expr_fbreg(const unsigned char *p, uint64_t len, const struct dw_opsizes *z,
		   int64_t *off);
/* DW_OP_call_frame_cfa alone (GCC's DW_AT_frame_base). */
bool dw_expr_is_cfa(const unsigned char *p, uint64_t len, const struct dw_opsizes *z);
/* DW_OP_plus_uconst N alone (DWARF 2's DW_AT_data_member_location): N. */
bool dw_expr_plus_uconst(const unsigned char *p, uint64_t len, const struct dw_opsizes *z,
			 uint64_t *v);

/* ---- DIEs by offset (reader.c) ---- */

/* A unit a reader has open. */
struct dw_open_unit {
	struct dw_unit u;
	uint32_t cu;		/* its graph CU */
	uint64_t used;		/* the reader's clock when last used */
};

/* A type's name as a prototype writes it (proto.c): the string at
 * names_text + start, read at nesting depth (deeper, it might have been
 * too deep to name). */
struct dw_type_name {
	size_t start;
	int depth;
};

struct dw_reader {
	struct dw_image *dw;
	struct dw_open_unit **open;
	size_t nopen, open_cap;
	uint64_t clock;
	/* the unit dw_reader_seek moved to: graph CU here, [lo, hi) */
	uint32_t here;
	uint64_t lo, hi;
	uint32_t moves;
	int depth;		/* questions being answered (dw_reader_begin) */
	/* var_type's: abstract origin -> types_of index, for the variables
	 * of graph CU origin_cu */
	struct sp_u64map origin_type;
	uint32_t origin_cu;
	uint64_t *types_of;
	size_t ntypes_of, types_of_cap;
	/* dw_call_type's last answer: the type the call of function DIE
	 * call_type_die returning to call_type_pc (0: none yet) returns */
	uint64_t call_type_die, call_type_pc, call_type;
	/* proto.c's: type DIE -> names index, the name in names_text */
	struct sp_u64map name_of;
	struct dw_type_name *names;
	size_t nnames, names_cap;
	char *names_text;
	size_t names_len, names_text_cap;
};

/* A DIE, and the unit it is in (open until the reader's next question
 * begins). */
struct dw_entry {
	const struct dw_unit *u;
	struct dw_open_unit *unit;
	uint32_t cu;
	struct dw_die d;
};

/* A question begins: unless another is being answered, no DIE read
 * before is in use, and units may close.  Each has its dw_reader_end. */
void dw_reader_begin(struct dw_reader *r);
void dw_reader_end(struct dw_reader *r);
/* The graph CU of the unit holding the DIE at off, SP_NONE if none. */
uint32_t dw_cu_of_offset(const struct dw_image *dw, uint64_t off);
/* The DIE at off; false when none is there (or a null entry). */
bool dw_entry_at(struct dw_reader *r, uint64_t off, struct dw_entry *e);
/* Does e's abbreviation name attribute at (nothing decoded)? */
bool dw_entry_has(const struct dw_entry *e, uint16_t at);
/* The first value of attribute at of e; false when e has none. */
bool dw_entry_attr(const struct dw_entry *e, uint16_t at, struct dw_val *v);
/* The DIE offset a reference attribute names, 0 when none. */
uint64_t dw_entry_ref(const struct dw_entry *e, uint16_t at);
/* DW_AT_name, in its section; NULL when none. */
const char *dw_entry_name(const struct dw_entry *e);
/* dw_entry_at(dw_entry_ref(e, at)). */
bool dw_entry_at_ref(struct dw_reader *r, const struct dw_entry *e, uint16_t at,
		     struct dw_entry *out);
/* The DIE e's DW_AT_abstract_origin, else its DW_AT_specification,
 * names: 1, 0 when it has neither, -1 when that DIE cannot be read. */
int dw_entry_origin(struct dw_reader *r, const struct dw_entry *e, struct dw_entry *up);
/* The one follower of those chains: from the DIE at off, the first DIE
 * whose reference at names a DIE (1), 0 when none does; with at 0, the
 * DIE at the end of the chain (1).  -1 when the chain cannot be read or
 * is longer than DW_MAX_ORIGIN_HOPS (a cycle). */
int dw_entry_follow(struct dw_reader *r, uint64_t off, uint16_t at, struct dw_entry *e);

/* fn with graph function func's DIE, while the reader's question lasts;
 * false when it has none to read (vla.c). */
typedef void dw_func_die_fn(struct dw_reader *r, const struct dw_entry *e, void *ctx);
bool dw_func_die(struct dw_image *dw, uint32_t func, dw_func_die_fn *fn, void *ctx);

/* The children of a DIE, in order. */
struct dw_kids {
	const struct dw_unit *u;
	struct dw_open_unit *unit;
	uint32_t cu;
	uint64_t next;		/* where the next child is */
	struct dw_die cur;	/* the child given last, */
	bool have_cur;
	uint64_t after;		/* ... past its children if the caller read them */
	uint64_t end;		/* once ended: past the null entry */
	int state;		/* 1 going, 0 ended, -1 unreadable */
};
void dw_kids_begin(const struct dw_entry *parent, struct dw_kids *k);
/* The next child into *c: 1, 0 after the last, -1 when a child or the
 * way to the next cannot be read.  Set k->after to past the child's
 * children (dw_kids.end of a walk over them) to spare stepping over
 * them again. */
int dw_kids_next(struct dw_kids *k, struct dw_entry *c);

/* ---- types (types.c) ---- */

/* typedefs and qualifier chains are short: a longer one is a loop */
#define DW_MAX_TYPE_HOPS 32

/* A typedef or a qualifier (const, volatile, restrict, _Atomic): what a
 * type is seen through. */
bool dw_is_qualifier(uint16_t tag);
/* The type DIE at off under its typedefs and qualifiers into *e, and the
 * name of the first typedef on the way into *typedef_name (when not
 * NULL; NULL for none); false for off 0 (void), a DIE that cannot be
 * read, or a chain longer than DW_MAX_TYPE_HOPS. */
bool dw_type_strip(struct dw_reader *r, uint64_t off, struct dw_entry *e,
		   const char **typedef_name);

/* ---- range and location lists (lists.c) ---- */

/* Entry i of a table of size-byte entries from base in section s (of
 * .debug_addr, .debug_str_offsets, a list table's offsets). */
bool dw_table_entry(const struct dw_unit *u, const struct dw_section *s, uint64_t base,
		    uint64_t i, unsigned size, uint64_t *out);

/* One entry of a range or location list: [lo, hi), unless its addresses
 * cannot be had (known false); a location's expression. */
struct dw_span {
	uint64_t lo, hi;
	bool known;
	const unsigned char *expr;
	uint64_t len;
};
typedef void dw_span_fn(void *ctx, const struct dw_span *s);
/* Each entry of the location description a DW_AT_location value gives
 * to fn: one expression over all addresses, or a list's entries; 0, or
 * -1 when the list cannot be found or read to its end (the entries
 * before are given). */
int dw_val_locations(const struct dw_unit *u, const struct dw_val *v, dw_span_fn *fn,
		     void *ctx);

/* ---- line tables (lines.c) ---- */

/* The rows of the line table at off of s->line into l, by address (the
 * program's order where addresses are equal): 0, or -1 when it does not
 * read (no rows). */
int dw_line_rows(const struct dw_secs *s, uint64_t off, struct dw_lines *l);

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
