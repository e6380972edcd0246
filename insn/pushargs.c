/*
 * pushargs.c - what makes an x86 frame dynamic when DWARF shows no VLA.
 *
 * GCC calls a frame "dynamic,bounded" when it pushes a call's stack
 * arguments instead of storing them in a frame reserved up front (-Os,
 * or -mno-accumulate-outgoing-args: all 158 such frames of a tinyconfig
 * kernel).  A push after the prologue, or of a value rather than a saved
 * register, followed by a call, is such an argument (a register pushed
 * first thing may be either, so it stays unnamed); a register subtracted
 * from the stack pointer is alloca() and keeps that name.
 */
#include "insn/passes.h"

/* GCC interleaves moves with the prologue's register saves; the frame is
 * set up by the first call, branch or fixed stack reservation. */
static bool ends_prologue(const struct insn *in)
{
	if (in->op == INSN_OP_SUB && (in->flags & INSN_F_WRITES_SP))
		return true;
	return in->groups & (INSN_G_CALL | INSN_G_JUMP | INSN_G_RET);
}

void insn_pushed_args(const struct insn *v, size_t n, struct insn_func *out)
{
	bool prologue = true, pending = false;
	size_t i;

	for (i = 0; i < n && v[i].op != INSN_OP_INVALID; i++) {
		if (v[i].stack == INSN_STACK_BY_REG) {
			out->flags |= INSN_FUNC_ALLOCA;
			return;
		}
		if (v[i].op == INSN_OP_PUSH) {
			/* the prologue saves registers; a value pushed is an argument */
			if (!prologue || !(v[i].flags & INSN_F_PUSH_REG))
				pending = true;
			continue;
		}
		if (ends_prologue(&v[i]))
			prologue = false;
		if (v[i].op == INSN_OP_CALL && pending && !(out->flags & INSN_FUNC_PUSHED)) {
			out->flags |= INSN_FUNC_PUSHED;
			out->pushed_callee = v[i].flags & INSN_F_TARGET ? (uint64_t)v[i].imm : 0;
		}
		if (v[i].op == INSN_OP_CALL)
			pending = false;
	}
}
