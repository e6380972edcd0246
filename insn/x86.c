/*
 * x86.c - x86-64 and i386 instructions, from capstone's detail.
 *
 * Registers become DWARF numbers (x86-64: rax 0, rdx 1, rcx 2, rbx 3,
 * rsi 4, rdi 5, rbp 6, rsp 7, r8-r15 8-15, rip 16; i386: eax 0, ecx 1,
 * edx 2, ebx 3, esp 4, ebp 5, esi 6, edi 7, eip 8), a sub-register as its
 * full register.
 */
#include "insn/arch.h"

#include <string.h>

/*
 * A general-purpose register's place in rax..rdi order (the i386
 * encoding), 8-15 for r8-r15, 16 for the instruction pointer; -1 else.
 * A table by capstone's register number, as every operand of every
 * decoded instruction asks (gpr_one: its place + 1, 0 for none).
 */
#define GPR_R(n)	[X86_REG_R##n] = n + 1, [X86_REG_R##n##D] = n + 1, \
			[X86_REG_R##n##W] = n + 1, [X86_REG_R##n##B] = n + 1
static const uint8_t gpr_one[X86_REG_ENDING] = {
	[X86_REG_RAX] = 1, [X86_REG_EAX] = 1, [X86_REG_AX] = 1, [X86_REG_AL] = 1, [X86_REG_AH] = 1,
	[X86_REG_RCX] = 2, [X86_REG_ECX] = 2, [X86_REG_CX] = 2, [X86_REG_CL] = 2, [X86_REG_CH] = 2,
	[X86_REG_RDX] = 3, [X86_REG_EDX] = 3, [X86_REG_DX] = 3, [X86_REG_DL] = 3, [X86_REG_DH] = 3,
	[X86_REG_RBX] = 4, [X86_REG_EBX] = 4, [X86_REG_BX] = 4, [X86_REG_BL] = 4, [X86_REG_BH] = 4,
	[X86_REG_RSP] = 5, [X86_REG_ESP] = 5, [X86_REG_SP] = 5, [X86_REG_SPL] = 5,
	[X86_REG_RBP] = 6, [X86_REG_EBP] = 6, [X86_REG_BP] = 6, [X86_REG_BPL] = 6,
	[X86_REG_RSI] = 7, [X86_REG_ESI] = 7, [X86_REG_SI] = 7, [X86_REG_SIL] = 7,
	[X86_REG_RDI] = 8, [X86_REG_EDI] = 8, [X86_REG_DI] = 8, [X86_REG_DIL] = 8,
	GPR_R(8), GPR_R(9), GPR_R(10), GPR_R(11),
	GPR_R(12), GPR_R(13), GPR_R(14), GPR_R(15),
	[X86_REG_RIP] = 17, [X86_REG_EIP] = 17, [X86_REG_IP] = 17,
};
#undef GPR_R

static int gpr_index(x86_reg r)
{
	if ((unsigned)r >= X86_REG_ENDING)
		return -1;
	return (int)gpr_one[r] - 1;
}

static uint8_t dwarf_reg(x86_reg r, bool x86_64)
{
	/* DWARF's x86-64 order of the first eight differs from the encoding */
	static const uint8_t amd64[8] = { 0, 2, 1, 3, 7, 6, 4, 5 };
	int i = gpr_index(r);

	/* x86-64 numbers xmm0-xmm15 17-32 */
	if (x86_64 && r >= X86_REG_XMM0 && r <= X86_REG_XMM15)
		return (uint8_t)(17 + (r - X86_REG_XMM0));

	if (i < 0)
		return INSN_REG_NONE;
	if (x86_64)
		return i < 8 ? amd64[i] : (uint8_t)i;
	return i == 16 ? 8 : i < 8 ? (uint8_t)i : INSN_REG_NONE;
}

static bool is_reg(const cs_x86_op *op, uint8_t dw, bool x86_64)
{
	return op->type == X86_OP_REG && dwarf_reg(op->reg, x86_64) == dw;
}

static enum insn_op op_of(const cs_insn *in)
{
	switch (in->id) {
	case X86_INS_CALL:
		return INSN_OP_CALL;
	case X86_INS_JMP:
	case X86_INS_LJMP:
		return INSN_OP_JMP;
	case X86_INS_RET:
		return INSN_OP_RET;
	case X86_INS_PUSH:
		return INSN_OP_PUSH;
	case X86_INS_PUSHF:
	case X86_INS_PUSHFD:
	case X86_INS_PUSHFQ:
		return INSN_OP_PUSHF;
	case X86_INS_POP:
		return INSN_OP_POP;
	case X86_INS_POPF:
	case X86_INS_POPFD:
	case X86_INS_POPFQ:
		return INSN_OP_POPF;
	case X86_INS_ADD:
		return INSN_OP_ADD;
	case X86_INS_SUB:
		return INSN_OP_SUB;
	case X86_INS_AND:
		return INSN_OP_AND;
	case X86_INS_XOR:
	case X86_INS_PXOR:	/* pxor %xmm0,%xmm0: 16 zero bytes */
	case X86_INS_XORPS:
	case X86_INS_VPXOR:
	case X86_INS_VXORPS:
		return INSN_OP_XOR;
	case X86_INS_LEA:
		return INSN_OP_LEA;
	case X86_INS_MOV:
	case X86_INS_MOVABS:
		return INSN_OP_MOV;
	case X86_INS_LEAVE:
		return INSN_OP_LEAVE;
	case X86_INS_ENTER:
		return INSN_OP_ENTER;
	case X86_INS_NOP:
		return INSN_OP_NOP;
	case X86_INS_XCHG:	/* xchg %ax,%ax: a two-byte nop (a jump label) */
		if (in->detail->x86.op_count == 2 &&
		    in->detail->x86.operands[0].type == X86_OP_REG &&
		    in->detail->x86.operands[1].type == X86_OP_REG &&
		    in->detail->x86.operands[0].reg == in->detail->x86.operands[1].reg)
			return INSN_OP_NOP;
		break;
	case X86_INS_MOVQ:
		return INSN_OP_MOVQ;
	case X86_INS_PUNPCKLQDQ:
		return INSN_OP_UNPCKLQ;
	case X86_INS_MOVHPS:
		return INSN_OP_MOVHPS;
	case X86_INS_MOVUPS:
	case X86_INS_MOVAPS:
	case X86_INS_MOVDQU:
	case X86_INS_MOVDQA:
		return INSN_OP_VMOV;
	case X86_INS_CMOVA: case X86_INS_CMOVAE: case X86_INS_CMOVB: case X86_INS_CMOVBE:
	case X86_INS_CMOVE: case X86_INS_CMOVG: case X86_INS_CMOVGE: case X86_INS_CMOVL:
	case X86_INS_CMOVLE: case X86_INS_CMOVNE: case X86_INS_CMOVNO: case X86_INS_CMOVNP:
	case X86_INS_CMOVNS: case X86_INS_CMOVO: case X86_INS_CMOVP: case X86_INS_CMOVS:
		return INSN_OP_CMOV;
	case X86_INS_INT3:
		return INSN_OP_INT3;
	case X86_INS_SHL:
	case X86_INS_SAL:
		return INSN_OP_SHL;
	}
	return INSN_OP_OTHER;
}

/* A call or a jump by its mnemonic, as the call pass counts them: every
 * "j..." (also with a notrack or bnd prefix), call and lcall. */
static enum insn_branch branch_of(const cs_insn *in, const cs_x86 *x, bool direct)
{
	const char *m = in->mnemonic;
	bool call = in->id == X86_INS_CALL || in->id == X86_INS_LCALL;
	bool jump = m[0] == 'j' || !strncmp(m, "notrack j", 9) || !strncmp(m, "bnd j", 5);

	if (!call && !jump)
		return INSN_BRANCH_NONE;
	if (direct)
		return call ? INSN_BRANCH_CALL : INSN_BRANCH_JUMP;
	/* jmp *table(,%rax,8) indexes its function's own table: it stays
	 * in the function (a scaled index, as "*8" in AT&T's listing) */
	if (jump && x->op_count == 1 && x->operands[0].type == X86_OP_MEM &&
	    x->operands[0].mem.index != X86_REG_INVALID && x->operands[0].mem.scale != 1)
		return INSN_BRANCH_NONE;
	return call ? INSN_BRANCH_CALL_DYNAMIC : INSN_BRANCH_JUMP_DYNAMIC;
}

static void operands(const cs_x86 *x, bool x86_64, struct insn *out)
{
	uint8_t i;

	if (x->op_count && x->operands[0].type == X86_OP_REG)
		out->reg = dwarf_reg(x->operands[0].reg, x86_64);
	if (x->op_count > 1 && x->operands[1].type == X86_OP_REG)
		out->reg2 = dwarf_reg(x->operands[1].reg, x86_64);
	if (x->op_count)
		out->size = x->operands[0].size;
	for (i = 0; i < x->op_count; i++) {
		const cs_x86_op *op = &x->operands[i];

		if (op->type == X86_OP_IMM && !(out->flags & INSN_F_IMM)) {
			out->flags |= INSN_F_IMM;
			out->imm = op->imm;
		} else if (op->type == X86_OP_MEM && !(out->flags & INSN_F_MEM) &&
			   op->mem.segment == X86_REG_INVALID) {
			out->flags |= INSN_F_MEM;
			out->base = dwarf_reg(op->mem.base, x86_64);
			out->index = dwarf_reg(op->mem.index, x86_64);
			out->scale = (uint8_t)op->mem.scale;
			out->disp = op->mem.disp;
			if (op->access == CS_AC_READ)
				out->flags |= INSN_F_MEM_READ;
		} else if (op->type == X86_OP_MEM && x86_64 && op->mem.segment == X86_REG_GS &&
			   op->mem.base == X86_REG_INVALID && op->mem.index == X86_REG_INVALID &&
			   op->access == CS_AC_READ && !(out->flags & INSN_F_MEM)) {
			out->flags |= INSN_F_PERCPU;
			out->disp = op->mem.disp;
		}
	}
}

/* Bytes a push or pop of this operand size moves: a word unless the
 * instruction says 16 bits. */
static int32_t push_size(const cs_x86 *x, bool x86_64, bool flags16)
{
	if (flags16 || (x->op_count == 1 && x->operands[0].size == 2))
		return 2;
	return x86_64 ? 8 : 4;
}

/* The registers in (rd, wr) as a DWARF-numbered mask (xmm 17-32). */
static uint64_t reg_mask(const uint16_t *regs, uint8_t n, bool x86_64)
{
	uint64_t m = 0;
	uint8_t i;

	for (i = 0; i < n; i++) {
		uint8_t r = dwarf_reg((x86_reg)regs[i], x86_64);

		if (r < 64)
			m |= (uint64_t)1 << r;
	}
	return m;
}

/* What it writes, implicit writes included (push writes %rsp). */
static void written(csh cs, const cs_insn *in, bool x86_64, struct insn *out)
{
	cs_regs rd, wr;
	uint8_t nrd, nwr;

	if (cs_regs_access(cs, in, rd, &nrd, wr, &nwr) != CS_ERR_OK) {
		out->flags |= INSN_F_WREGS_ALL;	/* cannot tell: assume the worst */
		out->wregs = UINT64_MAX;
		return;
	}
	out->wregs = reg_mask(wr, nwr, x86_64);
}

/* lea: sp = base + disp, or reg = sp + disp. */
static void stack_lea(const cs_x86_op *op, uint8_t sp, bool x86_64, struct insn *out)
{
	uint8_t base = dwarf_reg(op[1].mem.base, x86_64);

	if (op[1].mem.index != X86_REG_INVALID || base == INSN_REG_NONE ||
	    op[0].type != X86_OP_REG)
		return;
	if (is_reg(&op[0], sp, x86_64)) {
		out->stack = base == sp ? INSN_STACK_FROM_SP : INSN_STACK_FROM_REG;
		out->sbase = base;
		out->sp_off = (int32_t)op[1].mem.disp;
	} else if (base == sp) {
		out->fp = INSN_FP_FROM_SP;
		out->dst = dwarf_reg(op[0].reg, x86_64);
		out->fp_off = (int32_t)op[1].mem.disp;
	}
}

/* add/sub/and/lea/mov/enter that move the stack pointer, or copy it. */
static void stack_data(const cs_insn *in, const cs_x86 *x, uint8_t sp, bool x86_64,
		       struct insn *out)
{
	const cs_x86_op *op = x->operands;

	if (x->op_count != 2)
		return;
	switch (in->id) {
	case X86_INS_SUB:
	case X86_INS_ADD:
		if (!is_reg(&op[0], sp, x86_64))
			return;
		if (op[1].type == X86_OP_IMM) {
			out->stack = INSN_STACK_ADD;
			out->sp_off = (int32_t)(in->id == X86_INS_SUB ? op[1].imm : -op[1].imm);
		} else if (op[1].type == X86_OP_REG) {
			out->stack = INSN_STACK_BY_REG;
		}
		return;
	case X86_INS_AND:
		if (is_reg(&op[0], sp, x86_64) && op[1].type == X86_OP_IMM) {
			out->stack = INSN_STACK_ALIGN;
			out->sp_off = (int32_t)op[1].imm;
		}
		return;
	case X86_INS_LEA:
		stack_lea(op, sp, x86_64, out);
		return;
	case X86_INS_MOV:
		if (is_reg(&op[0], sp, x86_64) && op[1].type == X86_OP_MEM) {
			out->stack = INSN_STACK_LOAD;
		} else if (is_reg(&op[0], sp, x86_64) && op[1].type == X86_OP_REG) {
			out->stack = INSN_STACK_FROM_REG;
			out->sbase = dwarf_reg(op[1].reg, x86_64);
		} else if (op[0].type == X86_OP_REG && is_reg(&op[1], sp, x86_64)) {
			out->fp = INSN_FP_FROM_SP;
			out->dst = dwarf_reg(op[0].reg, x86_64);
		}
		return;
	case X86_INS_ENTER:	/* enter $N,$0; a nesting level copies frames */
		if (op[0].type == X86_OP_IMM && op[1].type == X86_OP_IMM && !op[1].imm) {
			out->stack = INSN_STACK_ENTER;
			out->sp_off = (int32_t)op[0].imm;
		}
		return;
	}
}

/* How the instruction moves the stack pointer and copies it. */
static void stack_op(csh cs, const cs_insn *in, const cs_x86 *x, bool x86_64,
		     struct insn *out)
{
	uint8_t sp = x86_64 ? 7 : 4;

	switch (out->op) {
	case INSN_OP_PUSH:
	case INSN_OP_PUSHF:
		out->stack = INSN_STACK_PUSH;
		out->sp_off = push_size(x, x86_64, in->id == X86_INS_PUSHF);
		if (x->op_count == 1 && x->operands[0].type == X86_OP_REG)
			out->flags |= INSN_F_PUSH_REG;
		break;
	case INSN_OP_POP:
	case INSN_OP_POPF:
		out->stack = INSN_STACK_POP;
		out->sp_off = push_size(x, x86_64, in->id == X86_INS_POPF);
		if (x->op_count == 1 && is_reg(&x->operands[0], sp, x86_64))
			out->stack = INSN_STACK_LOAD;
		break;
	case INSN_OP_LEAVE:
		out->stack = INSN_STACK_LEAVE;
		out->sp_off = x86_64 ? 8 : 4;
		break;
	default:
		stack_data(in, x, sp, x86_64, out);
	}
	written(cs, in, x86_64, out);
	/* what moves %rsp, the return (which leaves) and the call (whose
	 * push the callee pops) aside */
	if (out->stack != INSN_STACK_NONE ||
	    (out->op != INSN_OP_RET && (out->wregs & (1u << sp))))
		out->flags |= INSN_F_WRITES_SP;
	if ((out->flags & INSN_F_WRITES_SP) && out->stack == INSN_STACK_NONE &&
	    out->op != INSN_OP_CALL && !(out->groups & INSN_G_CALL))
		out->stack = INSN_STACK_OTHER;
}

void insn_x86_fill(csh cs, const cs_insn *in, bool x86_64, struct insn *out)
{
	const cs_x86 *x = &in->detail->x86;
	bool direct = x->op_count == 1 && x->operands[0].type == X86_OP_IMM;

	out->op = (uint8_t)op_of(in);
	out->groups = insn_groups(in);
	if (out->op == INSN_OP_OTHER && (out->groups & INSN_G_JUMP))
		out->op = INSN_OP_JCC;
	out->branch = (uint8_t)branch_of(in, x, direct);
	operands(x, x86_64, out);
	if (in->id == X86_INS_CMP || in->id == X86_INS_TEST)
		out->flags |= INSN_F_COMPARE;
	if (direct && (out->branch != INSN_BRANCH_NONE ||
		       (out->groups & (INSN_G_CALL | INSN_G_JUMP)))) {
		/* the immediate is where it goes */
		out->flags = (uint16_t)((out->flags & ~INSN_F_IMM) | INSN_F_TARGET);
	}
	stack_op(cs, in, x, x86_64, out);
}
