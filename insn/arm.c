/*
 * arm.c - AArch64, and ARM and Thumb-2 instructions, from capstone's
 * detail.  Registers become DWARF numbers: AArch64 x0-x30 0-30 and sp 31,
 * ARM r0-r15 0-15 (sp 13, lr 14, pc 15).
 */
#include "insn/arch.h"

static uint8_t a64_dwarf_reg(arm64_reg r)
{
	if (r >= ARM64_REG_X0 && r <= ARM64_REG_X28)
		return (uint8_t)(r - ARM64_REG_X0);
	if (r >= ARM64_REG_W0 && r <= ARM64_REG_W30)
		return (uint8_t)(r - ARM64_REG_W0);
	if (r == ARM64_REG_X29)
		return 29;
	if (r == ARM64_REG_X30)
		return 30;
	if (r == ARM64_REG_SP || r == ARM64_REG_WSP)
		return 31;
	return INSN_REG_NONE;
}

static uint8_t arm_dwarf_reg(arm_reg r)
{
	if (r >= ARM_REG_R0 && r <= ARM_REG_R12)
		return (uint8_t)(r - ARM_REG_R0);
	if (r == ARM_REG_SP)
		return 13;
	if (r == ARM_REG_LR)
		return 14;
	if (r == ARM_REG_PC)
		return 15;
	return INSN_REG_NONE;
}

enum { A64_SP = 31, ARM_SP = 13, ARM_PC = 15 };

/* An immediate with its LSL applied (sub sp, sp, #1, lsl #12). */
static int64_t a64_imm(const cs_arm64_op *op)
{
	if (op->shift.type == ARM64_SFT_LSL && op->shift.value < 32)
		return op->imm << op->shift.value;
	return op->imm;
}

/* A load or store that writes its base back: [sp, #-16]! moves sp by the
 * offset before the access, [sp], #16 by the immediate after it. */
static void a64_writeback(const cs_arm64 *a, struct insn *out)
{
	uint8_t i;

	for (i = 0; i < a->op_count; i++) {
		const cs_arm64_op *m = &a->operands[i];
		uint8_t base;

		if (m->type != ARM64_OP_MEM || (base = a64_dwarf_reg(m->mem.base)) > 31)
			continue;
		out->wregs |= 1u << base;
		if (base != A64_SP)
			return;
		out->stack = INSN_STACK_ADD;
		if (i + 1 < a->op_count && a->operands[i + 1].type == ARM64_OP_IMM)
			out->sp_off = (int32_t)-a64_imm(&a->operands[i + 1]);
		else
			out->sp_off = -m->mem.disp;
		return;
	}
}

/* add/sub/mov with the stack pointer as destination or source. */
static void a64_stack_data(const cs_insn *in, const cs_arm64 *a, struct insn *out)
{
	const cs_arm64_op *op = a->operands;
	uint8_t dst = a->op_count && op[0].type == ARM64_OP_REG ? a64_dwarf_reg(op[0].reg) :
		      INSN_REG_NONE;
	uint8_t src = a->op_count > 1 && op[1].type == ARM64_OP_REG ?
		      a64_dwarf_reg(op[1].reg) : INSN_REG_NONE;
	int64_t imm;

	if (in->id == ARM64_INS_MOV && a->op_count == 2 && src != INSN_REG_NONE) {
		if (dst == A64_SP) {
			out->stack = INSN_STACK_FROM_REG;
			out->sbase = src;
		} else if (src == A64_SP) {
			out->fp = INSN_FP_FROM_SP;
			out->dst = dst;
		}
		return;
	}
	if ((in->id != ARM64_INS_ADD && in->id != ARM64_INS_SUB) || a->op_count != 3 ||
	    src == INSN_REG_NONE)
		return;
	if (op[2].type != ARM64_OP_IMM) {
		if (dst == A64_SP && src == A64_SP)
			out->stack = INSN_STACK_BY_REG;	/* sub sp, sp, x0: alloca */
		return;
	}
	imm = in->id == ARM64_INS_SUB ? -a64_imm(&op[2]) : a64_imm(&op[2]);
	if (dst == A64_SP && src == A64_SP) {
		out->stack = INSN_STACK_ADD;
		out->sp_off = (int32_t)-imm;
	} else if (dst == A64_SP) {
		out->stack = INSN_STACK_FROM_REG;
		out->sbase = src;
		out->sp_off = (int32_t)imm;
	} else if (src == A64_SP) {
		out->fp = INSN_FP_FROM_SP;
		out->dst = dst;
		out->fp_off = (int32_t)imm;
	}
}

static void a64_stack(const cs_insn *in, const cs_arm64 *a, struct insn *out)
{
	uint8_t i;

	for (i = 0; i < a->op_count; i++)
		if (a->operands[i].type == ARM64_OP_REG && (a->operands[i].access & CS_AC_WRITE) &&
		    a64_dwarf_reg(a->operands[i].reg) < 32)
			out->wregs |= 1u << a64_dwarf_reg(a->operands[i].reg);
	if (a->writeback)
		a64_writeback(a, out);
	else
		a64_stack_data(in, a, out);
	if (out->stack != INSN_STACK_NONE)
		out->flags |= INSN_F_WRITES_SP;
	else if (out->wregs & (1u << A64_SP))
		out->stack = INSN_STACK_OTHER, out->flags |= INSN_F_WRITES_SP;
}

/* bl/blr call, b/br jump; a direct one has its target as only operand. */
void insn_arm64_fill(const cs_insn *in, struct insn *out)
{
	const cs_arm64 *a = &in->detail->arm64;
	bool call = in->id == ARM64_INS_BL || in->id == ARM64_INS_BLR;
	bool jump = in->id == ARM64_INS_B || in->id == ARM64_INS_BR;
	bool direct = a->op_count == 1 && a->operands[0].type == ARM64_OP_IMM;

	out->groups = insn_groups(in);
	if (a->op_count && a->operands[0].type == ARM64_OP_REG)
		out->reg = a64_dwarf_reg(a->operands[0].reg);
	if (call)
		out->op = INSN_OP_CALL;
	else if (in->id == ARM64_INS_RET)
		out->op = INSN_OP_RET;
	else if (jump)
		out->op = a->cc != ARM64_CC_INVALID && a->cc != ARM64_CC_AL ?
			  INSN_OP_JCC : INSN_OP_JMP;
	if (direct && (call || jump || (out->groups & (INSN_G_CALL | INSN_G_JUMP)))) {
		out->flags |= INSN_F_TARGET;
		out->imm = a->operands[0].imm;
	}
	if (call || jump)
		out->branch = direct ? (call ? INSN_BRANCH_CALL : INSN_BRANCH_JUMP) :
			      (call ? INSN_BRANCH_CALL_DYNAMIC : INSN_BRANCH_JUMP_DYNAMIC);
	a64_stack(in, a, out);
}

/* Bytes a register of a push or pop list takes: d 8, q 16, else 4. */
static int32_t arm_reg_bytes(arm_reg r)
{
	if (r >= ARM_REG_D0 && r <= ARM_REG_D31)
		return 8;
	if (r >= ARM_REG_Q0 && r <= ARM_REG_Q15)
		return 16;
	return 4;
}

/* push/pop/vpush/vpop, and stmdb/ldm on sp with writeback: the list's
 * bytes (ops from first on); a pop or ldm that loads pc returns. */
static void arm_list(const cs_arm *a, uint8_t first, bool push, struct insn *out)
{
	int32_t bytes = 0;
	uint8_t i;

	for (i = first; i < a->op_count; i++) {
		if (a->operands[i].type != ARM_OP_REG)
			continue;
		bytes += arm_reg_bytes(a->operands[i].reg);
		if (!push && arm_dwarf_reg(a->operands[i].reg) == ARM_PC)
			out->op = INSN_OP_RET;
	}
	out->stack = push ? INSN_STACK_PUSH : INSN_STACK_POP;
	out->sp_off = bytes;
	if (push)
		out->op = INSN_OP_PUSH;
	else if (out->op != INSN_OP_RET)
		out->op = INSN_OP_POP;
}

/* ldr/str with writeback on sp: [sp, #-4]! before, [sp], #4 after. */
static void arm_writeback(const cs_arm *a, struct insn *out)
{
	uint8_t i;

	for (i = 0; i < a->op_count; i++) {
		const cs_arm_op *m = &a->operands[i];
		uint8_t base;

		if (m->type != ARM_OP_MEM || (base = arm_dwarf_reg(m->mem.base)) > 31)
			continue;
		out->wregs |= 1u << base;
		if (base != ARM_SP)
			return;
		out->stack = INSN_STACK_ADD;
		if (i + 1 < a->op_count && a->operands[i + 1].type == ARM_OP_IMM) {
			int32_t imm = a->operands[i + 1].imm;

			out->sp_off = a->operands[i + 1].subtracted ? imm : -imm;
		} else {
			out->sp_off = -m->mem.disp;
		}
		return;
	}
}

/* add/sub/mov with sp as destination or source (Thumb's sub sp, #8 has
 * two operands). */
static void arm_stack_data(const cs_insn *in, const cs_arm *a, struct insn *out)
{
	const cs_arm_op *op = a->operands;
	bool add = in->id == ARM_INS_ADD || in->id == ARM_INS_ADDW;
	bool sub = in->id == ARM_INS_SUB || in->id == ARM_INS_SUBW;
	uint8_t dst = a->op_count && op[0].type == ARM_OP_REG ? arm_dwarf_reg(op[0].reg) :
		      INSN_REG_NONE;
	uint8_t src = dst, last = a->op_count - 1;
	int32_t imm;

	if (in->id == ARM_INS_MOV && a->op_count == 2 && op[1].type == ARM_OP_REG) {
		src = arm_dwarf_reg(op[1].reg);
		if (dst == ARM_SP && src != INSN_REG_NONE) {
			out->stack = INSN_STACK_FROM_REG;
			out->sbase = src;
		} else if (src == ARM_SP && dst != INSN_REG_NONE) {
			out->fp = INSN_FP_FROM_SP;
			out->dst = dst;
		}
		return;
	}
	if ((!add && !sub) || a->op_count < 2 || a->op_count > 3)
		return;
	if (a->op_count == 3)
		src = op[1].type == ARM_OP_REG ? arm_dwarf_reg(op[1].reg) : INSN_REG_NONE;
	if (op[last].type != ARM_OP_IMM) {
		if (dst == ARM_SP && src == ARM_SP)
			out->stack = INSN_STACK_BY_REG;	/* sub sp, sp, r3: alloca */
		return;
	}
	imm = sub ? -op[last].imm : op[last].imm;
	if (dst == ARM_SP && src == ARM_SP) {
		out->stack = INSN_STACK_ADD;
		out->sp_off = -imm;
	} else if (dst == ARM_SP && src != INSN_REG_NONE) {
		out->stack = INSN_STACK_FROM_REG;
		out->sbase = src;
		out->sp_off = imm;
	} else if (src == ARM_SP && dst != INSN_REG_NONE) {
		out->fp = INSN_FP_FROM_SP;
		out->dst = dst;
		out->fp_off = imm;
	}
}

static bool arm_sp_list(const cs_insn *in, const cs_arm *a)
{
	return (in->id == ARM_INS_STMDB || in->id == ARM_INS_LDM) && a->writeback &&
	       a->op_count && a->operands[0].type == ARM_OP_REG &&
	       arm_dwarf_reg(a->operands[0].reg) == ARM_SP;
}

static void arm_stack(const cs_insn *in, const cs_arm *a, struct insn *out)
{
	uint8_t i;

	for (i = 0; i < a->op_count; i++)
		if (a->operands[i].type == ARM_OP_REG && (a->operands[i].access & CS_AC_WRITE) &&
		    arm_dwarf_reg(a->operands[i].reg) < 32)
			out->wregs |= 1u << arm_dwarf_reg(a->operands[i].reg);
	if (in->id == ARM_INS_PUSH || in->id == ARM_INS_VPUSH)
		arm_list(a, 0, true, out);
	else if (in->id == ARM_INS_POP || in->id == ARM_INS_VPOP)
		arm_list(a, 0, false, out);
	else if (arm_sp_list(in, a))
		arm_list(a, 1, in->id == ARM_INS_STMDB, out);
	else if (a->writeback)
		arm_writeback(a, out);
	else
		arm_stack_data(in, a, out);
	/* ldr pc, [sp], #4 returns too */
	if ((out->wregs & (1u << ARM_PC)) && out->stack == INSN_STACK_ADD)
		out->op = INSN_OP_RET;
	if (out->stack != INSN_STACK_NONE)
		out->flags |= INSN_F_WRITES_SP;
	else if (out->wregs & (1u << ARM_SP))
		out->stack = INSN_STACK_OTHER, out->flags |= INSN_F_WRITES_SP;
}

/* bl/blx call, b/bx jump; "bx lr" is a return. */
void insn_arm_fill(const cs_insn *in, struct insn *out)
{
	const cs_arm *a = &in->detail->arm;
	bool call = in->id == ARM_INS_BL || in->id == ARM_INS_BLX;
	bool jump = in->id == ARM_INS_B || in->id == ARM_INS_BX;
	bool direct = a->op_count == 1 && a->operands[0].type == ARM_OP_IMM;
	bool ret_lr = jump && !direct && a->op_count == 1 &&
		      a->operands[0].type == ARM_OP_REG && a->operands[0].reg == ARM_REG_LR;

	out->groups = insn_groups(in);
	if (a->op_count && a->operands[0].type == ARM_OP_REG)
		out->reg = arm_dwarf_reg(a->operands[0].reg);
	if (call)
		out->op = INSN_OP_CALL;
	else if (ret_lr)
		out->op = INSN_OP_RET;
	else if (jump)
		out->op = a->cc != ARM_CC_INVALID && a->cc != ARM_CC_AL ?
			  INSN_OP_JCC : INSN_OP_JMP;
	if (direct && (call || jump || (out->groups & (INSN_G_CALL | INSN_G_JUMP)))) {
		out->flags |= INSN_F_TARGET;
		out->imm = (int64_t)(uint32_t)a->operands[0].imm;
	}
	if ((call || jump) && !ret_lr)
		out->branch = direct ? (call ? INSN_BRANCH_CALL : INSN_BRANCH_JUMP) :
			      (call ? INSN_BRANCH_CALL_DYNAMIC : INSN_BRANCH_JUMP_DYNAMIC);
	arm_stack(in, a, out);
}
