/*
 * addrload.c - the function addresses x86 code loads, for
 * --indirect=address-taken: an immediate operand or the address a
 * RIP-relative lea computes, in every instruction but calls and jumps
 * (whose targets are called, not taken) and compares: `cmp $f,%rax`
 * (the kernel's get_trap_addr() bounding an address by
 * early_idt_handler_array's end, early_idt_handler_common; `if
 * (buffer->clock == trace_clock_local)`) writes the flags alone, so f's
 * address goes nowhere a call could load it from.
 */
#include "insn/passes.h"

#include "common/xalloc.h"

enum { RIP = 16 };	/* DWARF's x86-64 number */

static void note(const struct sp_elf *e, struct insn_loads *out, uint64_t addr)
{
	/* only code can be a function's entry: the rest is not kept */
	if (!addr || !sp_elf_is_code(e, addr))
		return;
	SP_ALLOC_GROW(out->v, out->n + 1, out->cap);
	out->v[out->n++] = addr;
}

void insn_addr_loads(const struct sp_elf *e, struct insn_loads *out, const struct insn *v,
		     size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (v[i].op == INSN_OP_INVALID || (v[i].groups & (INSN_G_CALL | INSN_G_JUMP)) ||
		    (v[i].flags & INSN_F_COMPARE))
			continue;
		if (v[i].flags & INSN_F_IMM)
			note(e, out, (uint64_t)v[i].imm);
		if ((v[i].flags & INSN_F_MEM) && v[i].base == RIP && v[i].op == INSN_OP_LEA)
			note(e, out, v[i].addr + v[i].len + (uint64_t)v[i].disp);
	}
}
