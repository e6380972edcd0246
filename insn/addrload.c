/*
 * addrload.c - the function addresses x86 code loads, for
 * --indirect=address-taken: an immediate operand or the address a
 * RIP-relative lea computes, in every instruction but calls and jumps
 * (whose targets are called, not taken).
 */
#include "insn/passes.h"

#include "common/xalloc.h"

enum { RIP = 16 };	/* DWARF's x86-64 number */

static void note(struct insn_image *c, uint64_t addr)
{
	/* only code can be a function's entry: the rest is not kept */
	if (!addr || !sp_elf_is_code(c->elf, addr))
		return;
	SP_ALLOC_GROW(c->loads, c->nloads + 1, c->loads_cap);
	c->loads[c->nloads++] = addr;
}

void insn_addr_loads(struct insn_image *c, const struct insn *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (v[i].op == INSN_OP_INVALID || (v[i].groups & (INSN_G_CALL | INSN_G_JUMP)))
			continue;
		if (v[i].flags & INSN_F_IMM)
			note(c, (uint64_t)v[i].imm);
		if ((v[i].flags & INSN_F_MEM) && v[i].base == RIP && v[i].op == INSN_OP_LEA)
			note(c, v[i].addr + v[i].len + (uint64_t)v[i].disp);
	}
}
