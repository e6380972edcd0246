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

#include "common/search.h"
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

static uint64_t range_lo(const void *base, size_t i)
{
	return ((const struct insn_range *)base)[i].lo;
}

bool insn_in_ranges(const struct insn_range *w, size_t n, uint64_t addr)
{
	size_t i = sp_search_last_le(w, n, range_lo, addr);

	return i < n && addr < w[i].hi;
}

static void note_data(const struct insn_range *w, size_t nw, struct insn_loads *out,
		      uint64_t addr)
{
	if (!insn_in_ranges(w, nw, addr))
		return;
	SP_ALLOC_GROW(out->v, out->n + 1, out->cap);
	out->v[out->n++] = addr;
}

/* The address a memory operand names apart from its registers: a
 * RIP-relative one's, else its displacement (the kernel's absolute
 * addressing, a table's base, or a member's offset). */
static uint64_t mem_addr(const struct insn *in)
{
	return in->base == RIP ? in->addr + in->len + (uint64_t)in->disp : (uint64_t)in->disp;
}

void insn_data_refs(const struct insn_range *w, size_t nw, struct insn_loads *out,
		    const struct insn *v, size_t n, bool stores_read)
{
	size_t i;

	for (i = 0; i < n; i++) {
		const struct insn *in = &v[i];

		if (in->op == INSN_OP_INVALID) {
			stores_read = false;	/* the store pass stops here */
			continue;
		}
		if ((in->flags & INSN_F_IMM) && !(in->flags & INSN_F_COMPARE) &&
		    !(in->groups & (INSN_G_CALL | INSN_G_JUMP)))
			note_data(w, nw, out, (uint64_t)in->imm);
		/* cmp and test read memory, whatever capstone says of test */
		if (!(in->flags & INSN_F_MEM) ||
		    ((in->flags & (INSN_F_MEM_READ | INSN_F_COMPARE)) && in->op != INSN_OP_LEA))
			continue;
		/* an 8-byte store at a fixed address is the store pass's:
		 * indirect/ reads what it writes */
		if (stores_read && in->op != INSN_OP_LEA && insn_icall_store(in) &&
		    in->index == INSN_REG_NONE && (in->base == RIP || in->base == INSN_REG_NONE))
			continue;
		note_data(w, nw, out, mem_addr(in));
	}
}
