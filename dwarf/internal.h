/*
 * internal.h - what the files of dwarf/ share and no other stage sees:
 * the one reader of DWARF's numbers (read.c) and of its expressions
 * (expr.c), in either byte order.
 */
#ifndef SP_DWARF_INTERNAL_H
#define SP_DWARF_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "common/u64map.h"
#include "dwarf/dwarf.h"

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
/* One constant pushed (DW_OP_lit*, DW_OP_const*), maybe with
 * DW_OP_stack_value after it: GCC's folded max() is DW_OP_const1u 70. */
bool dw_expr_constant(const unsigned char *p, uint64_t len, const struct dw_opsizes *z,
		      int64_t *v);
/* A value read from a frame slot, "DW_OP_fbreg N; DW_OP_deref ...": how
 * -O0 keeps every variable. */
bool dw_expr_frame_slot(const unsigned char *p, uint64_t len, const struct dw_opsizes *z);
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
	/* var_type's: abstract origin -> types_of index */
	struct sp_u64map origin_type;
	uint64_t *types_of;
	size_t ntypes_of, types_of_cap;
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

#endif
