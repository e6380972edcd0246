/*
 * expr.c - the one reader of DWARF expressions (DW_OP_*): an operation
 * and its operands at a time, from a table of what each operation's
 * operands are, and the few shapes of expression the stage asks about
 * (an address, a register, a constant, a frame slot, a member's offset).
 * An operation the table does not have, or one cut short, ends the
 * expression as unreadable.
 */
#include "dwarf/internal.h"

/* How an operation's operands are encoded. */
enum opnd {
	OP_BAD = 0,	/* no such operation */
	OP_NONE,
	OP_U1, OP_S1, OP_U2, OP_S2, OP_U4, OP_S4, OP_U8, OP_S8,
	OP_ULEB, OP_SLEB,
	OP_ADDR,	/* an address of the unit's size */
	OP_OFF,		/* a section offset of the unit's size */
	OP_ULEB_SLEB,	/* DW_OP_bregx */
	OP_ULEB_ULEB,	/* DW_OP_bit_piece, DW_OP_regval_type */
	OP_U1_ULEB,	/* DW_OP_deref_type, DW_OP_xderef_type */
	OP_BLOCK,	/* a ULEB128 length and as many bytes */
	OP_CONST_TYPE,	/* a type's DIE (ULEB128), a 1-byte length and the bytes */
	OP_IMPLICIT_PTR,	/* a DIE offset (an address in DWARF 2), a SLEB128 */
	OP_ENCODED,	/* a byte of size (0: the address size), the address */
};

static uint8_t opnd_of(uint8_t op)
{
	if (op >= DW_OP_lit0 && op <= DW_OP_reg31)
		return OP_NONE;		/* DW_OP_lit0-31, DW_OP_reg0-31 */
	if (op >= DW_OP_breg0 && op <= DW_OP_breg31)
		return OP_SLEB;
	switch (op) {
	case DW_OP_addr:
		return OP_ADDR;
	case DW_OP_const1u: case DW_OP_pick: case DW_OP_deref_size: case DW_OP_xderef_size:
		return OP_U1;
	case DW_OP_const1s:
		return OP_S1;
	case DW_OP_const2u: case DW_OP_call2:
		return OP_U2;
	case DW_OP_const2s: case DW_OP_bra: case DW_OP_skip:
		return OP_S2;
	case DW_OP_const4u: case DW_OP_call4: case DW_OP_GNU_parameter_ref:
		return OP_U4;
	case DW_OP_const4s:
		return OP_S4;
	case DW_OP_const8u:
		return OP_U8;
	case DW_OP_const8s:
		return OP_S8;
	case DW_OP_constu: case DW_OP_plus_uconst: case DW_OP_regx: case DW_OP_piece:
	case DW_OP_addrx: case DW_OP_constx: case DW_OP_convert: case DW_OP_reinterpret:
	case DW_OP_GNU_convert: case DW_OP_GNU_reinterpret: case DW_OP_GNU_addr_index:
	case DW_OP_GNU_const_index:
		return OP_ULEB;
	case DW_OP_consts: case DW_OP_fbreg:
		return OP_SLEB;
	case DW_OP_call_ref: case DW_OP_GNU_variable_value:
		return OP_OFF;
	case DW_OP_bregx:
		return OP_ULEB_SLEB;
	case DW_OP_bit_piece: case DW_OP_regval_type: case DW_OP_GNU_regval_type:
		return OP_ULEB_ULEB;
	case DW_OP_deref_type: case DW_OP_xderef_type: case DW_OP_GNU_deref_type:
		return OP_U1_ULEB;
	case DW_OP_implicit_value: case DW_OP_entry_value: case DW_OP_GNU_entry_value:
		return OP_BLOCK;
	case DW_OP_const_type: case DW_OP_GNU_const_type:
		return OP_CONST_TYPE;
	case DW_OP_implicit_pointer: case DW_OP_GNU_implicit_pointer:
		return OP_IMPLICIT_PTR;
	case DW_OP_GNU_encoded_addr:
		return OP_ENCODED;
	case DW_OP_deref: case DW_OP_dup: case DW_OP_drop: case DW_OP_over: case DW_OP_swap:
	case DW_OP_rot: case DW_OP_xderef: case DW_OP_abs: case DW_OP_and: case DW_OP_div:
	case DW_OP_minus: case DW_OP_mod: case DW_OP_mul: case DW_OP_neg: case DW_OP_not:
	case DW_OP_or: case DW_OP_plus: case DW_OP_shl: case DW_OP_shr: case DW_OP_shra:
	case DW_OP_xor: case DW_OP_eq: case DW_OP_ge: case DW_OP_gt: case DW_OP_le:
	case DW_OP_lt: case DW_OP_ne: case DW_OP_nop: case DW_OP_push_object_address:
	case DW_OP_form_tls_address: case DW_OP_call_frame_cfa: case DW_OP_stack_value:
	case DW_OP_GNU_push_tls_address: case DW_OP_GNU_uninit:
		return OP_NONE;
	}
	return OP_BAD;
}

/* A block of operands: a length of size bytes (0: ULEB128), the bytes. */
static void take_block(struct dw_bytes *b, unsigned size, struct dw_op *op)
{
	op->len = size ? dw_bytes_uint(b, size) : dw_bytes_uleb(b);
	op->block = dw_bytes_skip(b, op->len);
}

static void take_operands(struct dw_bytes *b, uint8_t opnd, const struct dw_opsizes *z,
			  struct dw_op *op)
{
	static const uint8_t fixed[] = {
		[OP_U1] = 1, [OP_S1] = 1, [OP_U2] = 2, [OP_S2] = 2,
		[OP_U4] = 4, [OP_S4] = 4, [OP_U8] = 8, [OP_S8] = 8,
	};
	unsigned n;

	switch (opnd) {
	case OP_U1: case OP_U2: case OP_U4: case OP_U8:
		op->arg[0] = dw_bytes_uint(b, fixed[opnd]);
		return;
	case OP_S1: case OP_S2: case OP_S4: case OP_S8:
		op->arg[0] = (uint64_t)dw_bytes_sint(b, fixed[opnd]);
		return;
	case OP_ULEB:
		op->arg[0] = dw_bytes_uleb(b);
		return;
	case OP_SLEB:
		op->arg[0] = (uint64_t)dw_bytes_sleb(b);
		return;
	case OP_ADDR:
		op->arg[0] = dw_bytes_uint(b, z->addr);
		return;
	case OP_OFF:
		op->arg[0] = dw_bytes_uint(b, z->off);
		return;
	case OP_ULEB_SLEB:
		op->arg[0] = dw_bytes_uleb(b);
		op->arg[1] = (uint64_t)dw_bytes_sleb(b);
		return;
	case OP_ULEB_ULEB:
		op->arg[0] = dw_bytes_uleb(b);
		op->arg[1] = dw_bytes_uleb(b);
		return;
	case OP_U1_ULEB:
		op->arg[0] = dw_bytes_uint(b, 1);
		op->arg[1] = dw_bytes_uleb(b);
		return;
	case OP_BLOCK:
		take_block(b, 0, op);
		return;
	case OP_CONST_TYPE:
		op->arg[0] = dw_bytes_uleb(b);
		take_block(b, 1, op);
		return;
	case OP_IMPLICIT_PTR:
		op->arg[0] = dw_bytes_uint(b, z->version == 2 ? z->addr : z->off);
		op->arg[1] = (uint64_t)dw_bytes_sleb(b);
		return;
	case OP_ENCODED:
		n = (unsigned)dw_bytes_uint(b, 1);
		if (n != 0 && n != 2 && n != 4 && n != 8)
			b->bad = true;
		op->arg[0] = dw_bytes_uint(b, n ? n : z->addr);
		return;
	}
}

bool dw_op_read(struct dw_bytes *b, const struct dw_opsizes *z, struct dw_op *op)
{
	uint8_t opnd;

	memset(op, 0, sizeof(*op));
	op->code = (uint8_t)dw_bytes_uint(b, 1);
	if (b->bad)
		return false;
	opnd = opnd_of(op->code);
	if (opnd == OP_BAD) {
		b->bad = true;
		return false;
	}
	take_operands(b, opnd, z, op);
	return !b->bad;
}

bool dw_expr_valid(const unsigned char *p, uint64_t len, const struct dw_opsizes *z)
{
	struct dw_bytes b;
	struct dw_op op;

	dw_bytes_init(&b, p, len, z->msb);
	while (dw_bytes_left(&b))
		if (!dw_op_read(&b, z, &op))
			return false;
	return true;
}

/* The first operation of [p, p + len), and the one after it if any
 * (op[1].code 0 when none); *end: nothing follows them. */
static int first_ops(const unsigned char *p, uint64_t len, const struct dw_opsizes *z,
		     struct dw_op op[2], bool *end)
{
	struct dw_bytes b;
	int n = 0;

	memset(op, 0, 2 * sizeof(*op));
	dw_bytes_init(&b, p, len, z->msb);
	while (n < 2 && dw_bytes_left(&b) && dw_op_read(&b, z, &op[n]))
		n++;
	*end = !b.bad && !dw_bytes_left(&b);
	return b.bad && n < 2 ? -1 : n;
}

bool dw_expr_addr(const unsigned char *p, uint64_t len, const struct dw_opsizes *z,
		  uint64_t *addr)
{
	struct dw_op op[2];
	bool end;

	if (first_ops(p, len, z, op, &end) != 1 || !end || op[0].code != DW_OP_addr)
		return false;
	*addr = op[0].arg[0];
	return true;
}

uint8_t dw_expr_reg_plus(const unsigned char *p, uint64_t len, const struct dw_opsizes *z,
			 int64_t *off)
{
	struct dw_op op[2];
	bool end;
	int n;
	uint8_t code;

	*off = 0;
	/* the first byte is the first operation's code: most locations
	 * asked about are in the frame, or no register (no decoding) */
	if (!len || !((p[0] >= DW_OP_reg0 && p[0] <= DW_OP_reg31) || p[0] == DW_OP_regx ||
		      (p[0] >= DW_OP_breg0 && p[0] <= DW_OP_breg31)))
		return DW_REG_NONE;
	n = first_ops(p, len, z, op, &end);
	code = op[0].code;
	if (n < 1 || !end)
		return DW_REG_NONE;
	if (n == 1 && code >= DW_OP_reg0 && code <= DW_OP_reg31)
		return (uint8_t)(code - DW_OP_reg0);
	if (n == 1 && code == DW_OP_regx && op[0].arg[0] < DW_REG_NONE)
		return (uint8_t)op[0].arg[0];
	/* the variable's value is the register's, plus the offset (GCC's
	 * container_of(work, struct async_entry, work): DW_OP_breg5 -32) */
	if (n == 2 && code >= DW_OP_breg0 && code <= DW_OP_breg31 &&
	    op[1].code == DW_OP_stack_value) {
		*off = (int64_t)op[0].arg[0];
		return (uint8_t)(code - DW_OP_breg0);
	}
	return DW_REG_NONE;
}

uint8_t dw_expr_mem_path(const unsigned char *p, uint64_t len, const struct dw_opsizes *z,
			 int64_t *off, int max, int *n)
{
	struct dw_bytes b;
	struct dw_op op;
	uint8_t reg;

	*n = 0;
	dw_bytes_init(&b, p, len, z->msb);
	if (!dw_op_read(&b, z, &op) || op.code < DW_OP_breg0 || op.code > DW_OP_breg31)
		return DW_REG_NONE;
	reg = (uint8_t)(op.code - DW_OP_breg0);
	off[(*n)++] = (int64_t)op.arg[0];
	while (dw_bytes_left(&b)) {
		if (!dw_op_read(&b, z, &op))
			return DW_REG_NONE;
		if (op.code == DW_OP_deref && *n < max) {
			off[(*n)++] = 0;
		} else if (op.code == DW_OP_plus_uconst && op.arg[0] <= INT64_MAX &&
			   off[*n - 1] <= INT64_MAX - (int64_t)op.arg[0]) {
			off[*n - 1] += (int64_t)op.arg[0];
		} else {
			/* DW_OP_stack_value (a value, not a place), anything
			 * else computed, or too many loads */
			return DW_REG_NONE;
		}
	}
	return b.bad ? DW_REG_NONE : reg;
}

static bool added_offset(const struct dw_op *op, int n, int64_t *off);

uint8_t dw_expr_mem_value(const unsigned char *p, uint64_t len, const struct dw_opsizes *z,
			  int64_t *off, int max, int *n, int64_t *add)
{
	struct dw_op op[DW_MEM_PATH + 8];
	struct dw_bytes b;
	int k = 0, i, last;
	uint8_t reg;

	*n = 0;
	dw_bytes_init(&b, p, len, z->msb);
	while (k < (int)(sizeof(op) / sizeof(op[0])) && dw_bytes_left(&b) && dw_op_read(&b, z, &op[k]))
		k++;
	if (b.bad || dw_bytes_left(&b) || k < 3 || op[k - 1].code != DW_OP_stack_value ||
	    op[0].code < DW_OP_breg0 || op[0].code > DW_OP_breg31)
		return DW_REG_NONE;
	/* the constant added: none, DW_OP_plus_uconst, or two operations */
	for (last = k - 2; last > 0 && op[last].code != DW_OP_deref; last--)
		;
	if (last < 1 || !added_offset(&op[last + 1], k - 2 - last, add))
		return DW_REG_NONE;
	reg = (uint8_t)(op[0].code - DW_OP_breg0);
	off[(*n)++] = (int64_t)op[0].arg[0];
	/* op[1, last) are the place's: loads and offsets; op[last] loads
	 * the value from it */
	for (i = 1; i < last; i++) {
		if (op[i].code == DW_OP_deref && *n < max)
			off[(*n)++] = 0;
		else if (op[i].code == DW_OP_plus_uconst && op[i].arg[0] <= INT64_MAX &&
			 off[*n - 1] <= INT64_MAX - (int64_t)op[i].arg[0])
			off[*n - 1] += (int64_t)op[i].arg[0];
		else
			return DW_REG_NONE;
	}
	return reg;
}

uint8_t dw_expr_reg(const unsigned char *p, uint64_t len, const struct dw_opsizes *z)
{
	int64_t off;
	uint8_t reg = dw_expr_reg_plus(p, len, z, &off);

	return off ? DW_REG_NONE : reg;
}

/* The constant one operation pushes (DW_OP_lit*, DW_OP_const*). */
static bool op_constant(const struct dw_op *op, int64_t *v)
{
	uint8_t code = op->code;

	if (code >= DW_OP_lit0 && code <= DW_OP_lit31)
		*v = code - DW_OP_lit0;
	else if ((code >= DW_OP_const1u && code <= DW_OP_const8s) || code == DW_OP_consts ||
		 (code == DW_OP_constu && op->arg[0] <= INT64_MAX))
		*v = (int64_t)op->arg[0];
	else
		return false;
	return true;
}

bool dw_expr_constant(const unsigned char *p, uint64_t len, const struct dw_opsizes *z,
		      int64_t *v)
{
	struct dw_op op[2];
	bool end;
	int n = first_ops(p, len, z, op, &end);

	if (n < 1 || !end || (n == 2 && op[1].code != DW_OP_stack_value))
		return false;
	return op_constant(&op[0], v);
}

/* The offset ops[0..n) add to the value below them: nothing,
 * DW_OP_plus_uconst N, or a constant and DW_OP_plus or DW_OP_minus. */
static bool added_offset(const struct dw_op *op, int n, int64_t *off)
{
	int64_t c;

	*off = 0;
	if (n == 0)
		return true;
	if (n == 1) {
		if (op[0].code != DW_OP_plus_uconst || op[0].arg[0] > INT64_MAX)
			return false;
		*off = (int64_t)op[0].arg[0];
		return true;
	}
	if (n != 2 || !op_constant(&op[0], &c) || c == INT64_MIN)
		return false;
	if (op[1].code == DW_OP_plus)
		*off = c;
	else if (op[1].code == DW_OP_minus)
		*off = -c;
	else
		return false;
	return true;
}

uint8_t dw_expr_entry_plus(const unsigned char *p, uint64_t len, const struct dw_opsizes *z,
			   int64_t *off)
{
	struct dw_op op[4];
	struct dw_bytes b;
	uint8_t reg;
	int n = 0;

	*off = 0;
	if (!len || (p[0] != DW_OP_entry_value && p[0] != DW_OP_GNU_entry_value))
		return DW_REG_NONE;	/* the first operation's code */
	dw_bytes_init(&b, p, len, z->msb);
	while (n < 4 && dw_bytes_left(&b) && dw_op_read(&b, z, &op[n]))
		n++;
	if (b.bad || dw_bytes_left(&b) || n < 2 || op[n - 1].code != DW_OP_stack_value ||
	    (op[0].code != DW_OP_entry_value && op[0].code != DW_OP_GNU_entry_value))
		return DW_REG_NONE;
	reg = dw_expr_reg(op[0].block, op[0].len, z);
	if (reg == DW_REG_NONE || !added_offset(&op[1], n - 2, off))
		return DW_REG_NONE;
	return reg;
}

bool dw_expr_frame_slot(const unsigned char *p, uint64_t len, const struct dw_opsizes *z)
{
	struct dw_op op[2];
	bool end;

	/* what follows the load does not matter */
	return first_ops(p, len, z, op, &end) == 2 && op[0].code == DW_OP_fbreg &&
	       op[1].code == DW_OP_deref;
}

bool dw_expr_fbreg(const unsigned char *p, uint64_t len, const struct dw_opsizes *z,
		   int64_t *off)
{
	struct dw_op op[2];
	bool end;

	if (!len || p[0] != DW_OP_fbreg)	/* the first operation's code */
		return false;
	if (first_ops(p, len, z, op, &end) != 1 || !end || op[0].code != DW_OP_fbreg)
		return false;
	*off = (int64_t)op[0].arg[0];
	return true;
}

bool dw_expr_is_cfa(const unsigned char *p, uint64_t len, const struct dw_opsizes *z)
{
	struct dw_op op[2];
	bool end;

	return first_ops(p, len, z, op, &end) == 1 && end && op[0].code == DW_OP_call_frame_cfa;
}

bool dw_expr_plus_uconst(const unsigned char *p, uint64_t len, const struct dw_opsizes *z,
			 uint64_t *v)
{
	struct dw_op op[2];
	bool end;

	if (first_ops(p, len, z, op, &end) != 1 || !end || op[0].code != DW_OP_plus_uconst)
		return false;
	*v = op[0].arg[0];
	return true;
}
