/*
 * callargs.c - the function addresses (or NULL) x86-64 code loads into
 * an argument register just before a direct call or tail jump, for
 * --indirect=types' callbacks passed as arguments where DWARF's call
 * site says nothing (GCC writes no DW_TAG_call_site_parameter for many
 * constants: `mov $reset_iter,%rdx; call device_for_each_child`, a tail
 * call's `mov $hrtimer_interrupt,%rdi; jmp tick_switch_to_oneshot`).
 *
 * Only straight-line code counts: the walk goes back from the branch
 * while every instruction on the way runs on each path to it, so it
 * stops at the first instruction that a jump of the function may land
 * on (after reading it), at a call (which clobbers the registers), and
 * at a jump or return (what follows is reached only by a jump); a
 * function with a jump through a register (a switch's table may land
 * anywhere) has none.  The kernel's static branches (asm goto: a nop it
 * patches into a jump) land where the code shows no jump: their targets
 * are read from __jump_table (between __start___jump_table and
 * __stop___jump_table); a module's wait for relocations, so its calls
 * get none.  The
 * first write of each argument register met is its value when it is a
 * constant (mov $imm, lea f(%rip)); any other write leaves it unknown.
 */
#include "insn/passes.h"

#include <gelf.h>

#include <stdlib.h>
#include <string.h>

#include "common/search.h"
#include "common/xalloc.h"

enum { RDI = 5, RSI = 4, RDX = 1, RCX = 2, R8 = 8, R9 = 9, RIP = 16 };

#define MAX_BACK 32	/* instructions walked back from a branch */
#define ARG_REGS ((1u << RDI) | (1u << RSI) | (1u << RDX) | (1u << RCX) | (1u << R8) | (1u << R9))

static uint64_t insn_at(const void *base, size_t i)
{
	return ((const struct insn *)base)[i].addr;
}

/* Linux's struct jump_entry on x86-64: { s32 code, s32 target, long key },
 * each offset from its own field. */
#define JUMP_ENTRY 16

struct bounds {
	uint64_t start, stop;
	bool any;
};

static void find_bounds(void *arg, const GElf_Sym *sym, const char *name)
{
	struct bounds *b = arg;

	if (sym->st_shndx == SHN_UNDEF)
		return;
	if (!strcmp(name, "__start___jump_table"))
		b->start = sym->st_value, b->any = true;
	else if (!strcmp(name, "__stop___jump_table"))
		b->stop = sym->st_value, b->any = true;
}

static int by_site(const void *pa, const void *pb)
{
	const struct insn_sbranch *a = pa, *b = pb;

	return (a->site > b->site) - (a->site < b->site);
}

bool insn_static_landings(const struct sp_elf *e, struct insn_loads *out,
			  struct insn_sbranch **branches, size_t *nbranches)
{
	struct bounds b = { 0 };
	const unsigned char *p;
	uint64_t addr, size, i;
	size_t cap = 0;
	int32_t rel, code;

	memset(out, 0, sizeof(*out));
	if (branches) {
		*branches = NULL;
		*nbranches = 0;
	}
	sp_elf_each_symbol(e, find_bounds, &b);
	if (!b.any)	/* a module's own section, before relocation: unknown */
		return !sp_elf_section(e, "__jump_table", &addr, &size);
	if (b.stop < b.start || (b.stop - b.start) % JUMP_ENTRY ||
	    !(p = sp_elf_bytes_at(e, b.start, b.stop - b.start)))
		return false;
	for (i = 0; i < b.stop - b.start; i += JUMP_ENTRY) {
		memcpy(&rel, p + i + 4, sizeof(rel));	/* x86-64: little-endian */
		SP_ALLOC_GROW(out->v, out->n + 1, out->cap);
		out->v[out->n++] = b.start + i + 4 + (uint64_t)(int64_t)rel;
		if (!branches)
			continue;
		memcpy(&code, p + i, sizeof(code));
		SP_ALLOC_GROW(*branches, *nbranches + 1, cap);
		(*branches)[*nbranches].site = b.start + i + (uint64_t)(int64_t)code;
		(*branches)[(*nbranches)++].landing = out->v[out->n - 1];
	}
	if (out->n)
		qsort(out->v, out->n, sizeof(*out->v), sp_u64_cmp);
	if (branches && *nbranches)
		qsort(*branches, *nbranches, sizeof(**branches), by_site);
	return true;
}

static void mark(const struct insn *v, size_t n, uint64_t addr, uint8_t *l)
{
	size_t k = sp_search_first_ge(v, n, insn_at, addr);

	if (k < n && v[k].addr == addr)
		l[k] = 1;
}

/* The landing places inside v[0..n), one byte each: of its jumps, and
 * of the static branches among landings (sorted). */
static uint8_t *labels(const struct insn *v, size_t n, const struct insn_loads *landings)
{
	uint8_t *l = sp_xcalloc(n + 1, 1);
	size_t i;

	for (i = 0; i < n; i++)
		if ((v[i].flags & INSN_F_TARGET) && v[i].branch == INSN_BRANCH_JUMP)
			mark(v, n, (uint64_t)v[i].imm, l);
	for (i = sp_search_first_ge(landings->v, landings->n, sp_u64_at, v[0].addr);
	     i < landings->n && landings->v[i] < v[n - 1].addr + v[n - 1].len; i++)
		mark(v, n, landings->v[i], l);
	return l;
}

/* The constant in->reg gets from in, when it is one: *value (a zeroed
 * register: NULL). */
static bool constant(const struct insn *in, uint64_t *value)
{
	if (in->op == INSN_OP_XOR && !(in->flags & (INSN_F_MEM | INSN_F_IMM)) &&
	    in->reg2 == in->reg) {
		*value = 0;
		return true;
	}
	if (in->op == INSN_OP_MOV && (in->flags & INSN_F_IMM) && !(in->flags & INSN_F_MEM) &&
	    (in->size == 8 || in->size == 4)) {
		*value = in->size == 4 ? (uint32_t)in->imm : (uint64_t)in->imm;
		return true;
	}
	if (in->op == INSN_OP_LEA && in->base == RIP && in->index == INSN_REG_NONE) {
		*value = in->addr + in->len + (uint64_t)in->disp;
		return true;
	}
	return false;
}

static void add(struct insn_cargs *out, uint64_t ret, uint8_t reg, uint64_t value)
{
	SP_ALLOC_GROW(out->v, out->n + 1, out->cap);
	out->v[out->n].ret = ret;
	out->v[out->n].value = value;
	out->v[out->n++].reg = reg;
}

/* The constants of the branch v[i]'s argument registers. */
static void branch_args(const struct sp_elf *e, const struct insn *v, size_t i,
			const uint8_t *label, struct insn_cargs *out)
{
	uint64_t ret = v[i].addr + v[i].len, value;
	uint32_t left = ARG_REGS, w;
	size_t k, steps;

	for (k = i, steps = 0; k-- > 0 && left && steps < MAX_BACK && !label[k + 1]; steps++) {
		const struct insn *in = &v[k];

		if (in->op == INSN_OP_CALL || in->op == INSN_OP_JMP || in->op == INSN_OP_RET ||
		    in->op == INSN_OP_INT3 || in->op == INSN_OP_INVALID ||
		    (in->flags & INSN_F_WREGS_ALL))
			return;
		if (!(w = (uint32_t)in->wregs & left))
			continue;
		if (in->reg <= 15 && w == (1u << in->reg) && constant(in, &value) &&
		    (!value || sp_elf_is_code(e, value)))
			add(out, ret, in->reg, value);
		left &= ~w;
	}
}

void insn_call_args(const struct sp_elf *e, const struct insn_loads *landings,
		    struct insn_cargs *out, const struct insn *v, size_t n)
{
	uint64_t lo, hi;
	uint8_t *label;
	size_t i;

	if (e->arch->id != SP_ARCH_X86_64 || !landings || !n)
		return;
	/* a jump through a register may land anywhere: no code is
	 * straight-line then (a switch's table, a tail call alike) */
	for (i = 0; i < n; i++)
		if (v[i].branch == INSN_BRANCH_JUMP_DYNAMIC)
			return;
	lo = v[0].addr;
	hi = v[n - 1].addr + v[n - 1].len;
	label = labels(v, n, landings);
	for (i = 0; i < n; i++)
		if ((v[i].flags & INSN_F_TARGET) &&
		    (v[i].branch == INSN_BRANCH_CALL ||
		     (v[i].op == INSN_OP_JMP && ((uint64_t)v[i].imm < lo || (uint64_t)v[i].imm >= hi))))
			branch_args(e, v, i, label, out);
	free(label);
}
