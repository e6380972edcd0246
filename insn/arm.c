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
}
