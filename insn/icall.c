/*
 * icall.c - indirect calls and function-pointer stores of x86-64 code,
 * each with the chain of loads and moves that computed its value (see
 * icall.h).  A pass over one function's struct insn array: no decoding.
 */
#include "insn/icall.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/search.h"
#include "common/xalloc.h"

/* DWARF's x86-64 numbers */
enum { RAX = 0, RDX = 1, RCX = 2, RBX = 3, RSI = 4, RDI = 5, RBP = 6, RSP = 7,
       R8 = 8, R9 = 9, R10 = 10, R11 = 11, RIP = 16 };

#define MAX_LINKS 8		/* a chain deeper than f->a->b->c->... is not typed */
#define MAX_BACK 256		/* instructions walked back for one definition */
#define MAX_BACK_SLOT 2048	/* ... for a stack slot's stores: a spill is kept
				 * across calls, far from its reload */
#define SLOT 64			/* each_write's pseudo register: the stack slot
				 * tracer.slot */

/* The registers a call may change (SysV x86-64: the xmm ones too): the
 * rest it preserves. */
#define BIT(r) ((uint64_t)1 << (r))
#define XMM0 17
#define CLOBBERED (BIT(RAX) | BIT(RDX) | BIT(RCX) | BIT(RSI) | BIT(RDI) | BIT(R8) | \
		   BIT(R9) | BIT(R10) | BIT(R11) | (((BIT(16) - 1)) << XMM0))

uint8_t insn_thunk_reg(const char *name)
{
	static const char *const prefixes[] = {
		"__x86_indirect_thunk_", "__x86_indirect_call_thunk_",
		"__x86_indirect_jump_thunk_",
	};
	static const struct { const char *name; uint8_t reg; } regs[] = {
		{ "rax", RAX }, { "rdx", RDX }, { "rcx", RCX }, { "rbx", RBX },
		{ "rsi", RSI }, { "rdi", RDI }, { "rbp", RBP }, { "r8", R8 },
		{ "r9", R9 }, { "r10", R10 }, { "r11", R11 }, { "r12", 12 },
		{ "r13", 13 }, { "r14", 14 }, { "r15", 15 },
	};
	size_t i, k;

	for (i = 0; name && i < sizeof(prefixes) / sizeof(prefixes[0]); i++) {
		size_t len = strlen(prefixes[i]);

		if (strncmp(name, prefixes[i], len))
			continue;
		for (k = 0; k < sizeof(regs) / sizeof(regs[0]); k++)
			if (!strcmp(name + len, regs[k].name))
				return regs[k].reg;
	}
	return INSN_REG_NONE;
}

/* The functions that point a static call's trampoline at a function
 * (kernel/static_call_inline.c, arch/x86/include/asm/static_call.h),
 * and the registers of their tramp and func arguments. */
static const struct {
	const char *name;
	uint8_t tramp, func;
} updaters[2] = {
	{ "__static_call_update", RSI, RDX },	/* (key, tramp, func) */
	{ "__static_call_update_early", RDI, RSI },	/* (tramp, func) */
};

static int thunk_cmp(const void *pa, const void *pb)
{
	const struct insn_thunk *a = pa, *b = pb;

	return (a->addr > b->addr) - (a->addr < b->addr);
}

struct thunk_search {
	struct insn_icalls *ic;
	size_t cap;
};

/* A defined retpoline thunk, if sym is one. */
static void add_thunk(void *arg, const GElf_Sym *sym, const char *name)
{
	struct thunk_search *ts = arg;
	struct insn_icalls *ic = ts->ic;
	uint8_t reg;
	size_t i;

	if (sym->st_shndx != SHN_UNDEF && name && !strcmp(name, "__fentry__"))
		ic->fentry = sym->st_value;
	if (sym->st_shndx != SHN_UNDEF && name && !strcmp(name, "pv_ops") &&
	    GELF_ST_TYPE(sym->st_info) == STT_OBJECT) {
		ic->pv_ops = sym->st_value;
		ic->pv_ops_end = sym->st_value + sym->st_size;
	}
	for (i = 0; i < 2 && sym->st_shndx != SHN_UNDEF && name; i++)
		if (!strcmp(name, updaters[i].name))
			ic->sc_update[i] = sym->st_value;
	if (sym->st_shndx == SHN_UNDEF || (reg = insn_thunk_reg(name)) == INSN_REG_NONE)
		return;
	SP_ALLOC_GROW(ic->thunks, ic->nthunks + 1, ts->cap);
	ic->thunks[ic->nthunks].addr = sym->st_value;
	ic->thunks[ic->nthunks++].reg = reg;
}

void insn_find_thunks(struct insn_icalls *ic, const struct sp_elf *e)
{
	struct thunk_search ts = { ic, 0 };

	if (e->arch->id != SP_ARCH_X86_64 || e->type == ET_REL)
		return;
	sp_elf_each_symbol(e, add_thunk, &ts);
	if (ic->nthunks)
		qsort(ic->thunks, ic->nthunks, sizeof(*ic->thunks), thunk_cmp);
}

static uint64_t thunk_addr(const void *base, size_t i)
{
	return ((const struct insn_thunk *)base)[i].addr;
}

/* The register a direct branch to a retpoline thunk jumps through. */
static uint8_t thunk_at(const struct insn_icalls *ic, const struct sp_elf *e,
			const struct insn *in)
{
	size_t i;

	if (e->type == ET_REL) {
		const struct sp_elf_reloc *r = sp_elf_branch_reloc(e, in->addr + in->len);

		return r ? insn_thunk_reg(r->name) : INSN_REG_NONE;
	}
	i = sp_search_first_ge(ic->thunks, ic->nthunks, thunk_addr, (uint64_t)in->imm);
	return i < ic->nthunks && ic->thunks[i].addr == (uint64_t)in->imm ?
	       ic->thunks[i].reg : INSN_REG_NONE;
}

void insn_retpoline_pass(const struct insn_icalls *ic, const struct sp_elf *e,
			 struct insn *v, size_t n)
{
	size_t i;
	uint8_t reg;

	if (e->arch->id != SP_ARCH_X86_64 || (!ic->nthunks && e->type != ET_REL))
		return;
	for (i = 0; i < n; i++) {
		struct insn *in = &v[i];

		if ((in->branch != INSN_BRANCH_CALL && in->branch != INSN_BRANCH_JUMP) ||
		    !(in->flags & INSN_F_TARGET) ||
		    (reg = thunk_at(ic, e, in)) == INSN_REG_NONE)
			continue;
		in->branch = in->branch == INSN_BRANCH_CALL ? INSN_BRANCH_CALL_DYNAMIC :
			     INSN_BRANCH_JUMP_DYNAMIC;
		in->reg = reg;
		in->flags = (uint16_t)((in->flags & ~INSN_F_TARGET) | INSN_F_THUNK);
	}
}

/* ---- the function's jumps: where a value may come from ---- */

#define MEMO_REGS 16	/* the general registers: their walks are kept */
#define MEMO_FIRST 256	/* cells of a table at first (a power of two) */

/* What definition() and each_write() answered for one register (key:
 * the instruction's index * MEMO_REGS + the register) in the function of
 * epoch: a cell of another epoch is free.  The walks depend only on the
 * function's index (its jumps and writes), so an answer holds for the
 * function.  A table of the questions, not a cell per instruction: each
 * chunk of functions has its scratch, and most of it is never asked. */
enum { MEMO_DEF = 1, MEMO_ENTRY = 2, MEMO_ENTRY_YES = 4, MEMO_DEFS = 8 };
struct insn_memo {
	uint32_t epoch, key;
	uint32_t def_found, def_call;	/* definition() */
	uint32_t defs_at;		/* reg_defs(): ic->memo_defs[defs_at] */
	uint8_t has;			/* MEMO_*: the answers it holds */
};

/* The writes of a register that reach an instruction (reg_defs()). */
struct insn_memo_defs {
	bool ok, entry;
	uint8_t n;
	uint32_t v[INSN_MAX_VALUES];
};

static uint64_t insn_addr(const void *base, size_t i)
{
	return ((const struct insn *)base)[i].addr;
}

static void grow_scratch(struct insn_icalls *ic, size_t n)
{
	if (n + 1 <= ic->scratch_cap)
		return;
	free(ic->pred_first);
	free(ic->preds);
	free(ic->jump_to);
	free(ic->seen);
	free(ic->depth);
	free(ic->sbranch);
	free(ic->falls);
	free(ic->wmask);
	ic->scratch_cap = n + 1;
	/* room for index_jumps' pred_first[n + 1], the end of the last list */
	ic->pred_first = sp_xmalloc((ic->scratch_cap + 1) * sizeof(*ic->pred_first));
	ic->preds = sp_xmalloc(ic->scratch_cap * sizeof(*ic->preds));
	ic->jump_to = sp_xmalloc(ic->scratch_cap * sizeof(*ic->jump_to));
	ic->seen = sp_xcalloc(ic->scratch_cap, sizeof(*ic->seen));
	ic->depth = sp_xmalloc(ic->scratch_cap * sizeof(*ic->depth));
	ic->sbranch = sp_xmalloc(ic->scratch_cap * sizeof(*ic->sbranch));
	ic->falls = sp_xmalloc(ic->scratch_cap * sizeof(*ic->falls));
	ic->wmask = sp_xmalloc(ic->scratch_cap * sizeof(*ic->wmask));
	ic->stamp = 0;
}

/* The index of the direct jump target of v[i] inside the function, n if none. */
static size_t jump_target(const struct insn *v, size_t n, size_t i)
{
	size_t k;

	if (v[i].branch != INSN_BRANCH_JUMP || !(v[i].flags & INSN_F_TARGET))
		return n;
	k = sp_search_first_ge(v, n, insn_addr, (uint64_t)v[i].imm);
	return k < n && v[k].addr == (uint64_t)v[i].imm ? k : n;
}

static uint64_t sbranch_site(const void *base, size_t i)
{
	return ((const struct insn_sbranch *)base)[i].site;
}

/* The kernel's static branches inside v[0..n): each site may jump to its
 * landing (a nop the kernel patches into a jmp) and may fall through (a
 * jmp it patches into a nop), whatever the image holds: jump_to[i] is
 * the landing, sbranch[i] says the next instruction is reached too. */
static void static_branches(struct insn_icalls *ic, const struct insn *v, size_t n)
{
	size_t j = sp_search_first_ge(ic->sbranches, ic->nsbranches, sbranch_site, v[0].addr);

	memset(ic->sbranch, 0, n * sizeof(*ic->sbranch));
	for (; j < ic->nsbranches && ic->sbranches[j].site <= v[n - 1].addr; j++) {
		size_t i = sp_search_first_ge(v, n, insn_addr, ic->sbranches[j].site);
		size_t k = sp_search_first_ge(v, n, insn_addr, ic->sbranches[j].landing);

		if (i >= n || v[i].addr != ic->sbranches[j].site)
			continue;
		ic->sbranch[i] = 1;
		if (ic->jump_to[i] == n && k < n && v[k].addr == ic->sbranches[j].landing)
			ic->jump_to[i] = (uint32_t)k;
	}
}

/* For each instruction k the jumps that land on it: preds[pred_first[k]
 * .. pred_first[k + 1]), counted, then filled; each one's target, found
 * once (jump_to: frame_depths goes through them again).  A jump through a register
 * may land anywhere in the function (table_jumps), but one through a
 * retpoline thunk is read as a tail call, as it was before the thunk
 * made it indirect: the kernel builds retpolines with -fno-jump-tables. */
static void index_jumps(struct insn_icalls *ic, const struct insn *v, size_t n)
{
	size_t i, k;
	uint32_t sum = 0;

	grow_scratch(ic, n);
	memset(ic->pred_first, 0, (n + 1) * sizeof(*ic->pred_first));
	ic->table_jumps = false;
	ic->frame_known = false;
	for (i = 0; i < n; i++)
		ic->jump_to[i] = (uint32_t)jump_target(v, n, i);
	static_branches(ic, v, n);
	for (i = 0; i < n; i++) {
		if ((k = ic->jump_to[i]) < n)
			ic->pred_first[k + 1]++;
		else if ((v[i].groups & INSN_G_JUMP) &&
			 !(v[i].flags & (INSN_F_TARGET | INSN_F_THUNK)))
			ic->table_jumps = true;
	}
	for (k = 1; k <= n; k++) {
		sum += ic->pred_first[k];
		ic->pred_first[k] = sum;
	}
	/* pred_first[k + 1] counts down from k's end as its list fills */
	for (i = n; i-- > 0;)
		if ((k = ic->jump_to[i]) < n)
			ic->preds[--ic->pred_first[k + 1]] = (uint32_t)i;
	for (k = 0; k < n; k++)
		ic->pred_first[k + 1] = k + 1 < n ? ic->pred_first[k + 2] : sum;
	ic->pred_first[n + 1] = sum;
}

/* Does control fall from v[k - 1] into v[k]?  A static branch's site
 * does, a jmp in the image or not. */
static bool fall_through(const struct insn_icalls *ic, const struct insn *v, size_t k)
{
	const struct insn *p = &v[k - 1];

	return ic->sbranch[k - 1] || (p->op != INSN_OP_INVALID && p->op != INSN_OP_RET && p->op != INSN_OP_JMP &&
	       !(p->groups & INSN_G_RET) && p->branch != INSN_BRANCH_JUMP_DYNAMIC &&
	       !(p->branch == INSN_BRANCH_NONE && (p->groups & INSN_G_JUMP)));
}

/* fall_through(), as index_function() noted it for each instruction:
 * the walks back ask it at every step, millions of times in a kernel. */
static bool falls_into(const struct insn_icalls *ic, size_t k)
{
	return ic->falls[k];
}

/* ---- the chain ---- */

struct tracer {
	struct insn_icalls *ic;
	const struct insn *v;
	size_t n;
	uint8_t nlinks;
	int64_t slot;		/* SLOT's address, from the entry's stack pointer */
	bool outgoing;		/* SLOT is a call's stack argument: a call
				 * writes it (its callee owns the word) */
	/* the last reload of a stack slot the chain did not follow: its
	 * load v[reload] and its link's index in ic->links */
	size_t reload, reload_link;
	uint8_t sums;		/* const_sum()s open: a loop's add may reach
				 * itself */
};

static void add_link(struct tracer *t, uint64_t pc, uint8_t reg, enum insn_src src,
		     int64_t disp, uint8_t scale)
{
	struct insn_icalls *ic = t->ic;
	struct insn_link *l;

	SP_ALLOC_GROW(ic->links, ic->nlinks + 1, ic->links_cap);
	l = &ic->links[ic->nlinks++];
	l->pc = pc;
	l->reg = reg;
	l->src = (uint8_t)src;
	l->disp = disp;
	l->scale = scale;
	l->entry = false;
	l->back = 0;
	l->held = 0;
	l->via = 0;
	l->via_held = 0;
	l->home = 0;
	l->home_back = 0;
	l->sib = INSN_REG_NONE;
	l->sib_off = 0;
	l->sp = false;
	l->sp_disp = 0;
	t->nlinks++;
}

static bool is_call(const struct insn *in)
{
	return in->op == INSN_OP_CALL || (in->groups & INSN_G_CALL);
}

/* Does v[k] write reg: a call clobbers the caller-saved registers, but
 * the call to __fentry__ (ftrace's, first in a kernel function) none. */
static bool writes_slot(const struct tracer *t, size_t k);

/*
 * Is v[k] a call through a word of the kernel's pv_ops (call
 * *pv_ops+0xf0(%rip), irqs_disabled()'s save_fl)?  That is the inline
 * asm of a paravirt op (PVOP_CALL*, arch/x86/include/asm/paravirt_types.h),
 * whose clobbers GCC honours: a callee-save op's are rax alone, another
 * op's name the argument registers and r8-r11 (as outputs GCC never
 * reads), so a register the code reads after it unwritten holds what it
 * held before (smp_call_function_single()'s func, kept in r8 across one).
 */
static uint64_t rip_target(const struct insn *in);

static bool pv_call(const struct insn_icalls *ic, const struct insn *p)
{
	uint64_t addr;

	if (!ic->pv_ops || !(p->flags & INSN_F_MEM) || p->base != RIP ||
	    p->index != INSN_REG_NONE)
		return false;
	addr = rip_target(p);
	return addr >= ic->pv_ops && addr < ic->pv_ops_end;
}

/* The registers v[k] writes, as writes() reads them: a call's are
 * those it clobbers, not its own stack pointer's move. */
static uint64_t write_mask(const struct insn_icalls *ic, const struct insn *p)
{
	if (is_call(p) && pv_call(ic, p))
		return BIT(RAX);
	if (is_call(p))
		return ic->fentry && (p->flags & INSN_F_TARGET) && (uint64_t)p->imm == ic->fentry ?
		       0 : CLOBBERED;
	return p->wregs;
}

/* What the walks back over the function v[0..n) ask at each step, noted
 * once: the jumps landing on each instruction, whether control falls
 * into it, the registers it writes. */
static void index_function(struct insn_icalls *ic, const struct insn *v, size_t n)
{
	size_t k;

	index_jumps(ic, v, n);
	ic->falls[0] = 0;
	for (k = 1; k < n; k++)
		ic->falls[k] = fall_through(ic, v, k);
	for (k = 0; k < n; k++)
		ic->wmask[k] = write_mask(ic, &v[k]);
	/* a new function: every answer of the last one's is old */
	if (++ic->epoch == 0) {
		if (ic->memo)
			memset(ic->memo, 0, ic->memo_cap * sizeof(*ic->memo));
		ic->epoch = 1;
	}
	ic->nmemo = 0;
	ic->nmemo_defs = 0;
}

static size_t memo_slot(const struct insn_icalls *ic, uint32_t key)
{
	return (size_t)((key * 0x9e3779b1u) & (uint32_t)(ic->memo_cap - 1));
}

/* The answers go with the chunk of functions that made them (kept from
 * one function to the next, as their epochs tell them apart): a chunk's
 * calls and stores live until the chunks are joined, and a table per
 * chunk was 30 MB of a kernel's. */
static void memo_release(struct insn_icalls *ic)
{
	free(ic->memo);
	free(ic->memo_defs);
	ic->memo = NULL;
	ic->memo_defs = NULL;
	ic->nmemo = ic->memo_cap = 0;
	ic->nmemo_defs = ic->memo_defs_cap = 0;
}

/* The table twice as large, with the function's cells. */
static void memo_grow(struct insn_icalls *ic)
{
	struct insn_memo *old = ic->memo;
	size_t cap = ic->memo_cap, i, k;

	ic->memo_cap = cap ? 2 * cap : MEMO_FIRST;
	ic->memo = sp_xcalloc(ic->memo_cap, sizeof(*ic->memo));
	for (i = 0; i < cap; i++) {
		if (old[i].epoch != ic->epoch)
			continue;
		for (k = memo_slot(ic, old[i].key); ic->memo[k].epoch == ic->epoch;)
			k = (k + 1) & (ic->memo_cap - 1);
		ic->memo[k] = old[i];
	}
	free(old);
}

/* The cell of register reg (< MEMO_REGS) before v[i] in the function
 * indexed last, made empty when it has none.  Valid until the next. */
static struct insn_memo *memo_cell(struct insn_icalls *ic, size_t i, uint8_t reg)
{
	uint32_t key = (uint32_t)(i * MEMO_REGS + reg);
	size_t k;

	if (2 * (ic->nmemo + 1) > ic->memo_cap)
		memo_grow(ic);
	for (k = memo_slot(ic, key); ic->memo[k].epoch == ic->epoch;
	     k = (k + 1) & (ic->memo_cap - 1))
		if (ic->memo[k].key == key)
			return &ic->memo[k];
	ic->nmemo++;
	ic->memo[k] = (struct insn_memo){ .epoch = ic->epoch, .key = key };
	return &ic->memo[k];
}

static inline bool writes(const struct tracer *t, size_t k, uint8_t reg)
{
	if (reg == SLOT)
		return writes_slot(t, k);
	return reg < 64 && (t->ic->wmask[k] & BIT(reg)) != 0;
}

/* A new backward search from v[i]: a stamp no instruction is marked
 * with (on wrapping, every old mark forgotten) and i alone on the
 * stack.  Returns the stamp. */
static uint32_t search_from(struct insn_icalls *ic, size_t i)
{
	if (++ic->stamp == 0) {
		memset(ic->seen, 0, ic->scratch_cap * sizeof(*ic->seen));
		ic->stamp = 1;
	}
	SP_ALLOC_GROW(ic->stack, 1, ic->stack_cap);
	ic->stack[0] = (uint32_t)i;
	return ic->stamp;
}

/* Where the value of reg that v[i] reads was written: the one
 * instruction whose write reaches v[i] on every path (following the
 * function's jumps backwards), or n when there is no one such (the
 * function's entry, two writes, a jump from code not decoded, too far).
 * A call that clobbers reg is such a write: *call then says which. */
static size_t walk_definition(struct tracer *t, size_t i, uint8_t reg, size_t *call)
{
	struct insn_icalls *ic = t->ic;
	size_t found = t->n, sp = 1, steps = 0;
	uint32_t stamp;

	*call = t->n;
	stamp = search_from(ic, i);
	while (sp) {
		size_t k = ic->stack[--sp], d = t->n;
		uint32_t j;

		/* back from before v[k] to a write, or to where paths join */
		for (;;) {
			if (ic->seen[k] == stamp)
				break;	/* a path met before */
			ic->seen[k] = stamp;
			if (k == 0 || steps++ >= MAX_BACK)
				return t->n;	/* the entry, or too far */
			/* on to before each jump landing here, which writes
			 * no register itself (its other way out may not
			 * fall into v[k], so not from past it) */
			for (j = ic->pred_first[k]; j < ic->pred_first[k + 1]; j++) {
				SP_ALLOC_GROW(ic->stack, sp + 1, ic->stack_cap);
				ic->stack[sp++] = ic->preds[j];
			}
			if (!falls_into(ic, k)) {
				/* no jump lands here either: dead code (the padding
				 * after a jump), unless a jump through a table may */
				if (ic->pred_first[k] == ic->pred_first[k + 1] &&
				    ic->table_jumps && t->v[k].op != INSN_OP_NOP)
					return t->n;
				break;
			}
			if (writes(t, k - 1, reg)) {
				d = k - 1;
				break;
			}
			k--;
		}
		if (d == t->n)
			continue;
		if (found != t->n && found != d)
			return t->n;	/* two writes reach it */
		found = d;
	}
	if (found < t->n && is_call(&t->v[found])) {
		*call = found;
		return t->n;
	}
	return found;
}

/* walk_definition(), once per instruction and general register of the
 * function: its chains ask most twice or more (a kernel's, half of its
 * 600,000 questions). */
static size_t definition(struct tracer *t, size_t i, uint8_t reg, size_t *call)
{
	struct insn_memo *m;
	size_t d;

	if (reg >= MEMO_REGS)
		return walk_definition(t, i, reg, call);
	m = memo_cell(t->ic, i, reg);
	if (m->has & MEMO_DEF) {
		*call = m->def_call;
		return m->def_found;
	}
	/* the walk asks nothing of the table: m stays valid */
	d = walk_definition(t, i, reg, call);
	m->has |= MEMO_DEF;
	m->def_found = (uint32_t)d;
	m->def_call = (uint32_t)*call;
	return d;
}

static uint64_t rip_target(const struct insn *in)
{
	return in->addr + in->len + (uint64_t)in->disp;
}

/* A memory operand: the root it is, or LOAD with *base the register to
 * follow (INSN_REG_NONE when it ends the chain). */
static enum insn_src mem_source(const struct insn *in, int64_t *addr, uint8_t *scale,
				uint8_t *base)
{
	*base = INSN_REG_NONE;
	*scale = in->index != INSN_REG_NONE ? in->scale : 0;
	if (in->base == RIP && in->index == INSN_REG_NONE) {
		*addr = (int64_t)rip_target(in);
		return INSN_SRC_GLOBAL;
	}
	if (in->base == INSN_REG_NONE) {
		*addr = in->disp;	/* the kernel's absolute addressing */
		return in->index == INSN_REG_NONE ? INSN_SRC_GLOBAL : INSN_SRC_TABLE;
	}
	if (in->base == RSP || in->base == RIP)
		return INSN_SRC_OTHER;	/* a spilled value: DWARF may locate it at the use */
	*addr = in->disp;
	*base = in->base;
	return INSN_SRC_LOAD;
}

static void trace(struct tracer *t, size_t i, uint8_t reg, uint64_t pc);
static void trace_value(struct tracer *t, size_t i, uint8_t reg, uint64_t pc);
static size_t spill(struct tracer *t, size_t i);
static void set_sibling(struct tracer *t, size_t i, uint8_t reg, struct insn_link *l);
static bool stack_arg(struct tracer *t, size_t i, int64_t at);
static int64_t frame_offset(struct tracer *t, size_t i);

/* The write of reg that reaches v[i] on every path, when it is a lea
 * of a register plus a displacement, or of an index times a scale plus
 * one (no stack or rip base): its index; t->n else. */
static size_t lea_of(struct tracer *t, size_t i, uint8_t reg)
{
	size_t call, d;
	const struct insn *in;

	if (reg > 15 || (d = definition(t, i, reg, &call)) >= t->n || call < t->n)
		return t->n;
	in = &t->v[d];
	if (in->op != INSN_OP_LEA || in->reg != reg || in->size != 8 ||
	    !(in->flags & INSN_F_MEM) || in->base == RSP || in->base == RIP ||
	    (in->base == INSN_REG_NONE) == (in->index == INSN_REG_NONE) ||
	    (in->index != INSN_REG_NONE && in->index > 15))
		return t->n;
	return d;
}

/* The shift by a constant of reg that reaches v[i] on every path (shl
 * $k,%reg, k 1 to 6) of a value no arithmetic wrote (a copy, a load, a
 * sign extension: not lea (%rdx,%rdx,4), an index already multiplied,
 * whose product the shift would not say): k, 0 when none. */
static uint8_t shift_of(struct tracer *t, size_t i, uint8_t reg)
{
	size_t call, d = definition(t, i, reg, &call), s;
	const struct insn *in;

	if (d >= t->n || call < t->n)
		return 0;
	in = &t->v[d];
	if (in->op != INSN_OP_SHL || in->reg != reg || in->size != 8 ||
	    !(in->flags & INSN_F_IMM) || (in->flags & INSN_F_MEM) || in->imm < 1 || in->imm > 6)
		return 0;
	s = definition(t, d, reg, &call);
	if (s < t->n && t->v[s].op != INSN_OP_MOV && t->v[s].op != INSN_OP_OTHER)
		return 0;
	if (s < t->n && t->v[s].op == INSN_OP_OTHER && t->v[s].reg2 == INSN_REG_NONE)
		return 0;	/* imul $5,%rdx and the like: no copy */
	return (uint8_t)in->imm;
}

/* Is the write of reg that reaches v[i] on every path an add of two
 * registers, one of them shifted left by a constant before it (an index
 * times 2^k): *d the add, *ptr the other register, *scale 2^k. */
static bool indexed_add(struct tracer *t, size_t i, uint8_t reg, size_t *d, uint8_t *ptr,
			uint8_t *scale)
{
	size_t call;
	const struct insn *in;
	uint8_t k;

	if (reg > 15 || (*d = definition(t, i, reg, &call)) >= t->n || call < t->n)
		return false;
	in = &t->v[*d];
	if (in->op != INSN_OP_ADD || in->reg != reg || in->size != 8 ||
	    (in->flags & (INSN_F_IMM | INSN_F_MEM)) || in->reg2 > 15 || in->reg2 == reg)
		return false;
	if ((k = shift_of(t, *d, reg))) {	/* add %rbx,%rax, rax the index */
		*ptr = in->reg2;
	} else if ((k = shift_of(t, *d, in->reg2))) {	/* add %rdx,%rax */
		*ptr = reg;
	} else {
		return false;
	}
	*scale = (uint8_t)(1u << k);
	return true;
}

/* The places DWARF may give a word of the frame that v[i] loads through
 * rsp: rsp plus the load's displacement (DW_OP_breg7), and, where rbp
 * is the frame pointer, rbp plus a displacement (GCC's locations name
 * the frame so: sk_setsockopt()'s sock at DW_OP_breg6 -120, loaded as
 * 0x20(%rsp)), kept as rbp's offset from the entry's stack pointer. */
static void frame_base(struct tracer *t, size_t i, struct insn_link *l)
{
	const struct insn_icalls *ic = t->ic;
	int64_t d = t->v[i].disp;

	if (d >= INT16_MIN && d <= INT16_MAX) {
		l->sp = true;
		l->sp_disp = (int16_t)d;
	}
	if (ic->fp_stable && i > ic->fp_at && ic->fp_frame < 0 && ic->fp_frame % 8 == 0 &&
	    ic->fp_frame >= -8 * 255)
		l->scale = (uint8_t)(-ic->fp_frame / 8);
}

/* The value of a memory operand of v[i] (a call's or a load's): a
 * stack slot's is a copy of the register spilled there. */
static void trace_mem(struct tracer *t, size_t i, uint64_t pc, uint8_t reg)
{
	const struct insn *in = &t->v[i];
	int64_t addr = 0;
	uint8_t scale, base;
	enum insn_src src = mem_source(in, &addr, &scale, &base);
	size_t d;

	if ((in->base == RSP || in->base == RBP) && in->index == INSN_REG_NONE &&
	    t->nlinks + 2 < MAX_LINKS && (d = spill(t, i)) < t->n) {
		struct insn_link *l;

		add_link(t, pc, reg, INSN_SRC_MOVE, 0, 0);
		l = &t->ic->links[t->ic->nlinks - 1];
		l->entry = true;	/* a spill's reload: the slot it reads */
		l->disp = in->disp;
		l->scale = in->base;
		l->back = (int32_t)(in->addr - pc);
		/* the slot holds the value where the reload reads it: DWARF
		 * may locate the variable there as DW_OP_fbreg (the CFA
		 * above the return address; bpf_struct_ops_init()'s st_ops) */
		if (t->slot >= INT32_MIN && in->addr <= pc && pc - in->addr <= UINT32_MAX) {
			l->home = (int32_t)t->slot;
			l->home_back = (uint32_t)(pc - in->addr);
		}
		trace(t, d, t->v[d].reg2, t->v[d].addr);
		return;
	}
	if (src == INSN_SRC_OTHER && in->base == RSP) {
		t->reload = i;
		t->reload_link = t->ic->nlinks;
		if (in->index == INSN_REG_NONE && (addr = frame_offset(t, i)) != INSN_FRAME_UNKNOWN) {
			bool entry = stack_arg(t, i, addr);

			add_link(t, pc, reg, INSN_SRC_FRAME, addr, 0);
			t->ic->links[t->ic->nlinks - 1].back = (int32_t)(in->addr - pc);
			t->ic->links[t->ic->nlinks - 1].entry = entry;
			frame_base(t, i, &t->ic->links[t->ic->nlinks - 1]);
			return;
		}
		if (in->index == INSN_REG_NONE) {
			add_link(t, pc, reg, INSN_SRC_STACK, in->disp, 0);
			t->ic->links[t->ic->nlinks - 1].back = (int32_t)(in->addr - pc);
			return;
		}
	}
	if (src == INSN_SRC_LOAD && !scale && indexed_add(t, i, base, &d, &base, &scale)) {
		/* d(%rax) with rax = (rdx << k) + rbx, either added to the
		 * other: d(%rbx,%rdx,1 << k), an element's member
		 * (b->callbacks[i].fn in xen_mc_flush) */
		add_link(t, pc, reg, INSN_SRC_LOAD, addr, scale);
		trace(t, d, base, t->v[d].addr);
		return;
	}
	if (src == INSN_SRC_LOAD && !scale && (d = lea_of(t, i, base)) < t->n) {
		/* d(%rax) with rax = lea c(%rbx) or c(,%rbx,s): the word at
		 * c + d from rbx, or of a table at c (alg_test_descs[i].test,
		 * shl $6,%rdx; lea alg_test_descs(%rdx),%rdi; mov 0x10(%rdi)) */
		const struct insn *lea = &t->v[d];

		addr += lea->disp;
		if (lea->base == INSN_REG_NONE) {
			add_link(t, pc, reg, INSN_SRC_TABLE, addr, lea->scale);
			return;
		}
		add_link(t, pc, reg, INSN_SRC_LOAD, addr, 0);
		trace(t, d, lea->base, lea->addr);
		return;
	}
	add_link(t, pc, reg, src, addr, scale);
	if (src == INSN_SRC_LOAD) {
		size_t mark = t->ic->nlinks;

		trace(t, i, base, in->addr);
		if (mark < t->ic->nlinks)
			set_sibling(t, i, base, &t->ic->links[mark]);
	}
}

/* Does reg hold at v[i] what it held at v[d]: the same write reaches
 * both? */
static bool same_write(struct tracer *t, size_t i, size_t d, uint8_t reg)
{
	size_t call_i, call_d, at_i = definition(t, i, reg, &call_i);

	if (at_i == t->n && call_i == t->n)
		return false;
	return definition(t, d, reg, &call_d) == at_i && call_d == call_i;
}

/* Is reg written on no path from v[d] to v[i] (every path to v[i]
 * passes v[d], which writes no reg)? */
static bool unwritten_since(struct tracer *t, size_t d, size_t i, uint8_t reg)
{
	struct insn_icalls *ic = t->ic;
	size_t sp = 1, steps = 0, k;	/* i, on the stack */
	uint32_t j;

	if (writes(t, d, reg))
		return false;
	search_from(ic, i);
	while (sp) {
		k = ic->stack[--sp];
		if (ic->seen[k] == ic->stamp)
			continue;
		ic->seen[k] = ic->stamp;
		if (k == 0 || steps++ >= MAX_BACK || ic->table_jumps)
			return false;
		for (j = ic->pred_first[k]; j <= ic->pred_first[k + 1]; j++) {
			size_t p = j < ic->pred_first[k + 1] ? ic->preds[j] : k - 1;

			if (j == ic->pred_first[k + 1] && !falls_into(ic, k))
				break;
			if (p == d)
				continue;
			if (writes(t, p, reg))
				return false;
			SP_ALLOC_GROW(ic->stack, sp + 1, ic->stack_cap);
			ic->stack[sp++] = (uint32_t)p;
		}
	}
	return true;
}

/* A register other than reg that holds reg's value plus a constant at
 * v[i]: the one write of it reaching v[i] is lea c(%reg) (no index), and
 * reg holds there what it holds at v[i] (l->sib, insn_link.sib_off).
 * DWARF may locate a variable in it and not in reg: the container of a
 * list's entry, while the code loads through the entry (rq = list_entry(
 * ...), rq->end_io: 0xb8(%r15), rq in r12 = lea -0x48(%r15)). */
static void set_sibling(struct tracer *t, size_t i, uint8_t reg, struct insn_link *l)
{
	size_t call, d;
	uint8_t r;

	if (reg > 15 || l->reg != reg)
		return;
	for (r = 0; r < 16; r++) {
		const struct insn *in;

		if (r == reg || r == RSP || (d = definition(t, i, r, &call)) >= t->n ||
		    call < t->n)
			continue;
		in = &t->v[d];
		if (in->op == INSN_OP_LEA && in->reg == r && in->size == 8 &&
		    (in->flags & INSN_F_MEM) && in->base == reg && in->index == INSN_REG_NONE &&
		    in->disp >= INT32_MIN && in->disp <= INT32_MAX && unwritten_since(t, d, i, reg)) {
			l->sib = r;
			l->sib_off = (int32_t)in->disp;
			return;
		}
	}
}

/* An immediate added to reg by v[d] (add $0x22,%rax), when reg held a
 * constant before it: that sum is a constant too (the kernel's
 * LIST_POISON2, list_del()'s movabs $0xdead000000000100 then add $0x22,
 * into a list_head's prev, which struct page's union shares with its
 * rcu_head's func); false, and no link, else. */
static bool const_sum(struct tracer *t, size_t d, uint8_t reg, uint64_t pc)
{
	struct insn_icalls *ic = t->ic;
	size_t mark = ic->nlinks;
	uint8_t saved = t->nlinks;
	struct insn_link *l;
	bool ok;

	if (t->sums >= 4)
		return false;
	t->sums++;
	trace(t, d, reg, t->v[d].addr);
	t->sums--;
	l = &ic->links[ic->nlinks - 1];
	ok = t->nlinks == saved + 1 && l->src == INSN_SRC_CONST;
	if (ok) {
		l->pc = pc;
		l->disp = (int64_t)((uint64_t)l->disp + (uint64_t)t->v[d].imm);
		return true;
	}
	ic->nlinks = mark;
	t->nlinks = saved;
	return false;
}

/* How the definition d of a register that v[i] reads computed it: false
 * when it is none the chain follows. */
static bool follow(struct tracer *t, size_t i, size_t d, uint8_t reg, uint64_t pc)
{
	const struct insn *in = &t->v[d];

	if (in->reg != reg)
		return false;
	if (in->op == INSN_OP_XOR && in->reg2 == reg) {	/* xor %eax,%eax: 0 */
		add_link(t, pc, reg, INSN_SRC_CONST, 0, 0);
		return true;
	}
	/* mov $imm32, %e.. zero-extends: a non-PIE program's addresses */
	if (in->op == INSN_OP_MOV && (in->flags & INSN_F_IMM) && in->size == 4 &&
	    in->imm >= 0) {
		add_link(t, pc, reg, INSN_SRC_CONST, in->imm, 0);
		return true;
	}
	if (in->size != 8)
		return false;
	if (in->op == INSN_OP_MOV && (in->flags & INSN_F_MEM)) {
		trace_mem(t, d, pc, reg);
		return true;
	}
	/* this_cpu_read(var): var's word on this CPU, typed as var */
	if (in->op == INSN_OP_MOV && (in->flags & INSN_F_PERCPU)) {
		add_link(t, pc, reg, INSN_SRC_PERCPU, in->disp, 0);
		return true;
	}
	if (in->op == INSN_OP_MOV && in->reg2 != INSN_REG_NONE) {
		add_link(t, pc, reg, INSN_SRC_MOVE, 0, 0);
		/* the copy's source may still hold the value at pc, where DWARF
		 * may locate a variable in it and not in the copy (GCC keeps a
		 * pointer in a callee-saved register across branches while
		 * the variable's location list names the original) */
		if (in->reg2 <= 15 && t->nlinks + 2 < MAX_LINKS &&
		    same_write(t, i, d, in->reg2))
			add_link(t, pc, in->reg2, INSN_SRC_MOVE, 0, 0);
		trace(t, d, in->reg2, in->addr);
		return true;
	}
	if (in->op == INSN_OP_MOV && (in->flags & INSN_F_IMM)) {
		add_link(t, pc, reg, INSN_SRC_CONST, in->imm, 0);
		return true;
	}
	if (in->op == INSN_OP_LEA && in->index == INSN_REG_NONE &&
	    (in->base == RIP || in->base == INSN_REG_NONE)) {
		add_link(t, pc, reg, INSN_SRC_CONST,
			 in->base == RIP ? (int64_t)rip_target(in) : in->disp, 0);
		return true;
	}
	if (in->op == INSN_OP_ADD && (in->flags & INSN_F_IMM) && !(in->flags & INSN_F_MEM))
		return const_sum(t, d, reg, pc);
	return false;
}

/*
 * The writes of reg that reach v[i]: a walk back over program points
 * (k: before v[k]), each predecessor checked, so that no path is cut
 * short.  found(arg, d) is told each write v[d] (a call clobbering reg
 * is one) and returns false to stop; *entry says whether the function's
 * entry reaches v[i] with no write on the way.  False when the walk did
 * not end: stopped, too far, or at an instruction only a jump through a
 * table may reach (its predecessors unknown).
 */
static bool each_write(struct tracer *t, size_t i, uint8_t reg,
		       bool (*found)(void *arg, size_t d), void *arg, bool *entry)
{
	struct insn_icalls *ic = t->ic;
	size_t sp = 1, steps = 0, k;	/* i, on the stack */
	uint32_t j;

	*entry = false;
	search_from(ic, i);
	while (sp) {
		k = ic->stack[--sp];
		if (ic->seen[k] == ic->stamp)
			continue;
		ic->seen[k] = ic->stamp;
		if (steps++ >= (reg == SLOT ? MAX_BACK_SLOT : MAX_BACK))
			return false;
		*entry |= k == 0;
		if (k && !falls_into(ic, k) && ic->pred_first[k] == ic->pred_first[k + 1] &&
		    ic->table_jumps && t->v[k].op != INSN_OP_NOP)
			return false;
		for (j = ic->pred_first[k]; j <= ic->pred_first[k + 1]; j++) {
			/* the jumps landing on k, then what falls into it */
			size_t p = j < ic->pred_first[k + 1] ? ic->preds[j] : k - 1;

			if (j == ic->pred_first[k + 1] && (!k || !falls_into(ic, k)))
				break;
			if (writes(t, p, reg)) {
				if (!found(arg, p))
					return false;
				continue;
			}
			SP_ALLOC_GROW(ic->stack, sp + 1, ic->stack_cap);
			ic->stack[sp++] = (uint32_t)p;
		}
	}
	return true;
}

static bool no_write(void *arg, size_t d)
{
	(void)arg;
	(void)d;
	return false;
}

/* Does reg hold at v[i] what it held at the function's entry: the entry
 * reaches v[i] and no path from it writes reg? */
static bool from_entry(struct tracer *t, size_t i, uint8_t reg)
{
	struct insn_memo *m;
	bool entry, yes;

	if (reg >= MEMO_REGS)
		return each_write(t, i, reg, no_write, NULL, &entry) && entry;
	m = memo_cell(t->ic, i, reg);
	if (m->has & MEMO_ENTRY)
		return (m->has & MEMO_ENTRY_YES) != 0;
	yes = each_write(t, i, reg, no_write, NULL, &entry) && entry;
	m->has |= MEMO_ENTRY | (yes ? MEMO_ENTRY_YES : 0);
	return yes;
}

/* ---- stack slots: a register spilled and reloaded ---- */

#define DEPTH_UNSET INT32_MAX
#define DEPTH_UNKNOWN INT32_MIN

/* Is d a depth (not DEPTH_UNSET or DEPTH_UNKNOWN)? */
static bool depth_known(int32_t d)
{
	return d != DEPTH_UNSET && d != DEPTH_UNKNOWN;
}

/* The depth after v[k], from the depth before it. */
static int32_t depth_after(const struct insn *in, int32_t d)
{
	if (d == DEPTH_UNKNOWN)
		return d;
	switch (in->stack) {
	case INSN_STACK_NONE:
		return d;
	case INSN_STACK_PUSH:
	case INSN_STACK_ADD:
		return d + in->sp_off;
	case INSN_STACK_POP:
	case INSN_STACK_FROM_SP:
		return d - in->sp_off;
	}
	return DEPTH_UNKNOWN;	/* alloca, a frame pointer's restore, an alignment */
}

/* Reach v[k] with depth d: a second, different depth makes it unknown. */
static bool set_depth(struct insn_icalls *ic, size_t k, int32_t d)
{
	int32_t *at = &ic->depth[k];

	if (*at == d || *at == DEPTH_UNKNOWN)
		return false;
	*at = *at == DEPTH_UNSET ? d : DEPTH_UNKNOWN;
	return true;
}

/* The lowest stack address v[k] copies into a register: lea 8(%rsp),%rdi
 * (an object whose address a callee gets, or a pointer the function
 * writes through); the frame pointer, which reaches below itself, is
 * the whole frame.  INT64_MAX when none. */
static int64_t escapes(const struct insn *in, int32_t d)
{
	bool lea = in->op == INSN_OP_LEA && in->base == RSP;

	if (!lea && in->fp != INSN_FP_FROM_SP)
		return INT64_MAX;
	if (!depth_known(d) || (lea && in->index != INSN_REG_NONE) ||
	    (!lea && in->dst == RBP))
		return INT64_MIN;
	return (lea ? in->disp : in->fp_off) - d;
}

#define FP_TWICE (INSN_FRAME_UNKNOWN + 1)

/* A frame pointer set up (mov %rsp,%rbp) where the depth is d: rbp's
 * offset from the entry's stack pointer, unknown when set twice apart. */
static void set_fp_frame(struct insn_icalls *ic, int64_t fp_off, int32_t d)
{
	int64_t at = depth_known(d) ? fp_off - d : FP_TWICE;

	ic->fp_frame = ic->fp_frame == INSN_FRAME_UNKNOWN || ic->fp_frame == at ? at : FP_TWICE;
}

/* The one instruction that sets rbp up as the frame pointer (mov
 * %rsp,%rbp) when it is in the entry's block: no jump before it nor
 * into the block up to it, so that it runs before anything else does.
 * n when there is none such, or more than one. */
static size_t fp_setup(const struct tracer *t)
{
	const struct insn_icalls *ic = t->ic;
	size_t k, at = t->n;

	if (ic->pred_first[0] != ic->pred_first[1])
		return t->n;	/* a jump back to the entry */
	for (k = 0; k < t->n; k++)
		if (t->v[k].fp == INSN_FP_FROM_SP && t->v[k].dst == RBP) {
			if (at < t->n)
				return t->n;
			at = k;
		}
	for (k = 0; k < at; k++)
		if ((t->v[k].branch != INSN_BRANCH_NONE && t->v[k].branch != INSN_BRANCH_CALL) ||
		    t->v[k].op == INSN_OP_RET || t->v[k].op == INSN_OP_JMP ||
		    t->v[k].op == INSN_OP_JCC ||
		    ic->pred_first[k + 1] != ic->pred_first[k + 2] || !falls_into(ic, k + 1))
			return t->n;
	return at;
}

/* Is v[k], a write of rbp, its restore on the way out: a pop or a leave
 * straight before a return or a jump out of the function (a tail call)? */
static bool fp_restore(const struct tracer *t, size_t k)
{
	const struct insn *in = &t->v[k], *next = k + 1 < t->n ? &t->v[k + 1] : NULL;

	if (in->op != INSN_OP_LEAVE && (in->op != INSN_OP_POP || in->reg != RBP))
		return false;
	return next && (next->op == INSN_OP_RET ||
			(next->op == INSN_OP_JMP && next->branch == INSN_BRANCH_JUMP &&
			 t->ic->jump_to[k + 1] >= t->n));
}

/* The lowest stack address v[k], after the frame pointer's set-up, lets
 * out through rbp: lea -0x150(%rbp),%rbx is the frame's word at
 * fp_frame - 0x150; any other read of rbp's value (a copy, a push, an
 * index) the whole frame.  A callee keeps rbp (callee-saved) and reads
 * through it only to unwind, the frame pointers and return addresses
 * above each frame.  INT64_MAX when none. */
static int64_t fp_escapes(const struct tracer *t, size_t k)
{
	const struct insn *in = &t->v[k];

	if (in->op == INSN_OP_LEA && in->base == RBP && in->reg == RSP)
		return INT64_MAX;	/* the epilogue's lea -0x30(%rbp),%rsp */
	if (in->op == INSN_OP_LEA && in->base == RBP)
		return in->index != INSN_REG_NONE ? INT64_MIN : t->ic->fp_frame + in->disp;
	if (in->reg2 == RBP || in->index == RBP ||
	    (in->reg == RBP && !fp_restore(t, k) && !(in->flags & INSN_F_COMPARE)))
		return INT64_MIN;
	return INT64_MAX;
}

/*
 * Does rbp hold the frame pointer, the same address, from its one set-up
 * in the entry's block to every exit (every other write of rbp a restore
 * just before leaving, nothing writing it of unknown registers)?  Then
 * a word at d(%rbp) is the frame's at fp_frame + d, where a spill can be
 * found as through rsp (GCC keeps rbp a frame pointer when it must:
 * __sys_bpf's spills are at -0x180(%rbp)).  It sets fp_stable, fp_at
 * and fp_escape, the escape with rbp's reads counted as they are.
 */
static void fp_stable(struct tracer *t)
{
	struct insn_icalls *ic = t->ic;
	size_t k;

	ic->fp_stable = false;
	ic->fp_escape = INT64_MIN;
	if (ic->fp_frame == INSN_FRAME_UNKNOWN || ic->fp_frame == FP_TWICE ||
	    (ic->fp_at = fp_setup(t)) >= t->n)
		return;
	for (k = 0; k < t->n; k++)
		if (k != ic->fp_at && (ic->wmask[k] & BIT(RBP)) && !fp_restore(t, k))
			return;
	ic->fp_escape = INT64_MAX;
	for (k = 0; k < t->n; k++) {
		int64_t e = k == ic->fp_at ? INT64_MAX : escapes(&t->v[k], ic->depth[k]);

		if (k > ic->fp_at && fp_escapes(t, k) < e)
			e = fp_escapes(t, k);
		if (e < ic->fp_escape)
			ic->fp_escape = e;
	}
	ic->fp_stable = true;
}

/*
 * Each instruction's depth below the entry's stack pointer, along the
 * function's direct jumps (a second depth reaching one, or none, leaves
 * it unknown), and the lowest stack address the function lets out.
 */
static void frame_depths(struct tracer *t)
{
	struct insn_icalls *ic = t->ic;
	const struct insn *v = t->v;
	bool changed = true;
	size_t k, j;
	int pass;

	for (k = 0; k < t->n; k++)
		ic->depth[k] = DEPTH_UNSET;
	ic->depth[0] = 0;
	for (pass = 0; changed && pass < 8; pass++) {
		changed = false;
		for (k = 0; k < t->n; k++) {
			int32_t a;

			if (ic->depth[k] == DEPTH_UNSET)
				continue;
			a = depth_after(&v[k], ic->depth[k]);
			if (k + 1 < t->n && falls_into(ic, k + 1))
				changed |= set_depth(ic, k + 1, a);
			if ((j = ic->jump_to[k]) < t->n)
				changed |= set_depth(ic, j, a);
		}
	}
	ic->escape = INT64_MAX;
	ic->fp_frame = INSN_FRAME_UNKNOWN;
	for (k = 0; k < t->n; k++) {
		int64_t e = escapes(&v[k], ic->depth[k]);

		if (e < ic->escape)
			ic->escape = e;
		if (v[k].fp == INSN_FP_FROM_SP && v[k].dst == RBP)
			set_fp_frame(ic, v[k].fp_off, ic->depth[k]);
	}
	fp_stable(t);
	ic->frame_known = true;
}

/* Does v[k] only read its memory operand: a load into a register, a
 * compare (as capstone says)? */
static bool reads_only(const struct insn *in)
{
	if (in->flags & INSN_F_MEM_READ)
		return true;
	switch (in->op) {
	case INSN_OP_MOV:
	case INSN_OP_LEA:
	case INSN_OP_ADD:
	case INSN_OP_SUB:
	case INSN_OP_AND:
	case INSN_OP_XOR:
	case INSN_OP_CMOV:
	case INSN_OP_MOVQ:
	case INSN_OP_VMOV:
		return in->reg != INSN_REG_NONE;
	}
	return false;
}

/* May v[k] write the slot t->slot: a store over it, or any instruction
 * where the slot's depth is unknown or not yet (or no longer) inside
 * the frame?  Another object's pointer cannot reach it (spill checks
 * that none does). */
static bool writes_slot(const struct tracer *t, size_t k)
{
	const struct insn *in = &t->v[k];
	int32_t d = t->ic->depth[k];
	int64_t at, size;

	if (!depth_known(d) || t->slot < -(int64_t)d ||
	    (t->outgoing && is_call(in)))
		return true;
	if (t->ic->fp_stable && (t->ic->wmask[k] & BIT(RBP)))
		return true;	/* rbp set up or restored: no longer the same frame */
	if (!(in->flags & INSN_F_MEM) || reads_only(in))
		return false;
	if (in->base == RBP && t->ic->fp_stable && k > t->ic->fp_at) {
		if (in->index != INSN_REG_NONE)
			return true;
		at = t->ic->fp_frame + in->disp;
	} else if (in->base != RSP) {
		return false;
	} else if (in->index != INSN_REG_NONE) {
		return true;
	} else {
		at = in->disp - d;
	}
	size = in->size ? in->size : 16;
	return at < t->slot + 8 && t->slot < at + size;
}

struct slot_store {
	size_t d;
	int n;
};

static bool add_slot_store(void *arg, size_t d)
{
	struct slot_store *x = arg;

	x->d = d;
	return ++x->n == 1;
}

/* Is v[k]'s memory operand a word of the frame, not indexed: through
 * rsp at a known depth, or through rbp where it is the frame pointer
 * (fp_stable)?  *at its address from the entry's stack pointer. */
static bool frame_word(struct tracer *t, size_t k, int64_t *at)
{
	const struct insn *in = &t->v[k];
	int32_t d;

	if (!(in->flags & INSN_F_MEM) || in->index != INSN_REG_NONE)
		return false;
	if (!t->ic->frame_known)
		frame_depths(t);
	d = t->ic->depth[k];
	if (!depth_known(d))
		return false;
	if (in->base == RSP) {
		*at = in->disp - d;
		return true;
	}
	if (in->base == RBP && t->ic->fp_stable && k > t->ic->fp_at) {
		*at = t->ic->fp_frame + in->disp;
		return true;
	}
	return false;
}

/* Is v[i] a load (or a call) of 8 bytes of a stack slot whose writes can
 * be found: not indexed, at a known depth, below the entry's stack
 * pointer, and where no pointer reaches it (the function lets no stack
 * address at or below it out of its registers; an object above the slot
 * is written upwards from its address)?  It sets t->slot.  Through rbp,
 * with rbp's own reads counted as what they let out (fp_escape). */
static bool slot_load(struct tracer *t, size_t i)
{
	const struct insn *in = &t->v[i];

	if (in->op == INSN_OP_MOV ? in->size != 8 : !is_call(in))
		return false;
	if (!frame_word(t, i, &t->slot))
		return false;
	return t->slot < 0 &&
	       (in->base == RBP ? t->ic->fp_escape : t->ic->escape) >= t->slot + 8;
}

/* Is v[k] a store of 8 bytes over the whole of t->slot: of a register
 * (reg), or of a constant (mov $f,0x8(%rsp))? */
static bool slot_store(struct tracer *t, size_t k, bool reg)
{
	const struct insn *s = &t->v[k];
	int64_t at;

	if (s->op != INSN_OP_MOV || s->reg != INSN_REG_NONE || s->size != 8 ||
	    !frame_word(t, k, &at) || at != t->slot)
		return false;
	return reg ? s->reg2 <= 15 :
	       s->reg2 == INSN_REG_NONE && (s->flags & INSN_F_IMM) != 0;
}

/*
 * The store whose register a load of a stack slot (mov 0x10(%rsp),%rax)
 * reads back: the one store of 8 bytes from a register to that slot
 * reaching v[i] on every path, no other write of the slot between
 * (GCC's spill of a value it needs after calls that clobber every
 * register it has left), where no pointer reaches the slot (slot_load).
 * n when there is none such.
 */
static size_t spill(struct tracer *t, size_t i)
{
	struct slot_store x = { t->n, 0 };
	bool entry;

	if (!slot_load(t, i) || !each_write(t, i, SLOT, add_slot_store, &x, &entry) || entry ||
	    x.n != 1 || !slot_store(t, x.d, true))
		return t->n;
	return x.d;
}

/*
 * Is v[i], a load of 8 bytes at at from the entry's stack pointer, one of
 * the function's arguments passed on the stack (above the return
 * address: the caller's outgoing slot) that no write of the function
 * reaches, on any path from the entry, and no pointer reaches (no stack
 * address below it leaves the registers, as for a spill): what the
 * caller stored there (create_cache()'s ctor, the seventh argument of
 * kmem_cache_create_usercopy)?
 */
static bool stack_arg(struct tracer *t, size_t i, int64_t at)
{
	const struct insn *in = &t->v[i];
	struct slot_store x = { t->n, 0 };
	bool entry;

	if (at < 8 || at % 8 || (at - 8) / 8 >= INSN_STACK_ARGS || in->op != INSN_OP_MOV ||
	    in->size != 8 || in->index != INSN_REG_NONE || t->ic->escape < at + 8)
		return false;
	t->slot = at;
	return each_write(t, i, SLOT, add_slot_store, &x, &entry) && entry && !x.n;
}

/* Is v[p] a push straight before the call v[i], nothing between
 * written in memory (a pointer to the frame the function lets out, its
 * frame pointer, cannot have reached the slot: fork_init's push $0 for
 * kmem_cache_create_usercopy)? */
static bool pushed_for(const struct tracer *t, size_t p, size_t i)
{
	const struct insn_icalls *ic = t->ic;
	size_t k;

	if (t->v[p].op != INSN_OP_PUSH || p >= i || i - p > 16)
		return false;
	for (k = p + 1; k < i; k++) {
		const struct insn *in = &t->v[k];

		if (ic->pred_first[k] != ic->pred_first[k + 1] || !falls_into(ic, k) ||
		    in->op == INSN_OP_PUSH || in->stack != INSN_STACK_NONE || is_call(in) ||
		    ((in->flags & INSN_F_MEM) && !reads_only(in)))
			return false;
	}
	return true;
}

/*
 * The write of stack argument k of the call v[i] (the word k above the
 * callee's return address: the caller's stack pointer plus 8k at the
 * call) that reaches the call on every path, no other write of the slot
 * between (nor a call: its callee owns the word) and no pointer reaching
 * it: its index, the register it stores
 * in *reg (a push of one, a mov), or INSN_REG_NONE and the constant in
 * *imm; t->n when there is none such.
 */
static size_t stack_arg_store(struct tracer *t, size_t i, unsigned k, uint8_t *reg,
			      uint64_t *imm)
{
	struct slot_store x = { t->n, 0 };
	const struct insn *s;
	bool entry, ok;
	int32_t d;

	if (!t->ic->frame_known)
		frame_depths(t);
	d = t->ic->depth[i];
	if (!depth_known(d))
		return t->n;
	t->slot = (int64_t)(8 * k) - d;
	t->outgoing = true;
	ok = t->slot < 0 && each_write(t, i, SLOT, add_slot_store, &x, &entry);
	t->outgoing = false;
	if (!ok || entry || x.n != 1 || (t->ic->escape < t->slot + 8 && !pushed_for(t, x.d, i)))
		return t->n;
	s = &t->v[x.d];
	d = t->ic->depth[x.d];
	*reg = INSN_REG_NONE;
	if (s->op == INSN_OP_PUSH && s->stack == INSN_STACK_PUSH && s->sp_off == 8 &&
	    depth_known(d) && -(int64_t)d - 8 == t->slot &&
	    !(s->flags & INSN_F_MEM)) {
		if (s->flags & INSN_F_PUSH_REG)
			*reg = s->reg;
		else if (s->flags & INSN_F_IMM)
			*imm = (uint64_t)s->imm;
		else
			return t->n;
		return *reg == INSN_REG_NONE || *reg <= 15 ? x.d : t->n;
	}
	if (slot_store(t, x.d, true)) {
		*reg = s->reg2;
		return x.d;
	}
	if (slot_store(t, x.d, false)) {
		*imm = (uint64_t)s->imm;
		return x.d;
	}
	return t->n;
}

#define MAX_VALUES INSN_MAX_VALUES	/* writes of a register that reach one use, path by path */

/* The writes each_write finds, in v[]. */
struct defs {
	size_t v[MAX_VALUES];
	int n;
};

static bool add_def(void *arg, size_t d)
{
	struct defs *x = arg;

	if (x->n == MAX_VALUES)
		return false;
	x->v[x->n++] = d;
	return true;
}

/* each_write() of reg with add_def into x (empty), once per instruction
 * and general register of the function. */
static bool reg_defs(struct tracer *t, size_t i, uint8_t reg, struct defs *x, bool *entry)
{
	struct insn_icalls *ic = t->ic;
	struct insn_memo *m;
	struct insn_memo_defs *r;
	bool ok;
	int k;

	if (reg >= MEMO_REGS)
		return each_write(t, i, reg, add_def, x, entry);
	m = memo_cell(ic, i, reg);
	if (m->has & MEMO_DEFS) {
		r = &ic->memo_defs[m->defs_at];
		*entry = r->entry;
		x->n = r->n;
		for (k = 0; k < r->n; k++)
			x->v[k] = r->v[k];
		return r->ok;
	}
	ok = each_write(t, i, reg, add_def, x, entry);
	SP_ALLOC_GROW(ic->memo_defs, ic->nmemo_defs + 1, ic->memo_defs_cap);
	r = &ic->memo_defs[ic->nmemo_defs];
	r->ok = ok;
	r->entry = *entry;
	r->n = (uint8_t)x->n;
	for (k = 0; k < x->n; k++)
		r->v[k] = (uint32_t)x->v[k];
	m->has |= MEMO_DEFS;
	m->defs_at = (uint32_t)ic->nmemo_defs++;
	return ok;
}

/* Which value a register holds where v[i] reads it, through copies
 * (mov %rdi,%rbx): the write that made it (a load, a call's return), or
 * the entry's value of a register; equal ones are the same value. */
struct value_id {
	enum { VAL_NONE, VAL_WRITE, VAL_ENTRY } kind;
	size_t at;		/* WRITE: the write, or the call; ENTRY: the register */
};

static struct value_id value_id(struct tracer *t, size_t i, uint8_t reg)
{
	struct value_id id = { VAL_NONE, 0 };
	const struct insn *in;
	size_t d, call;
	int depth;

	for (depth = 0; depth < 4 && reg <= 15 && reg != RSP; depth++) {
		d = definition(t, i, reg, &call);
		if (d == t->n) {
			if (call < t->n) {
				id.kind = VAL_WRITE;
				id.at = call;
			} else if (from_entry(t, i, reg)) {
				id.kind = VAL_ENTRY;
				id.at = reg;
			}
			return id;
		}
		in = &t->v[d];
		if (in->op != INSN_OP_MOV || in->size != 8 || in->reg != reg ||
		    (in->flags & (INSN_F_MEM | INSN_F_IMM)) || in->reg2 > 15) {
			id.kind = VAL_WRITE;
			id.at = d;
			return id;
		}
		i = d;
		reg = in->reg2;
	}
	return id;
}

/* Is v[a] the same load of 8 bytes into reg as v[b] (the same
 * displacement from a base holding the same value, or the same word at
 * a fixed address)? */
static bool same_load(struct tracer *t, size_t a, size_t b, uint8_t reg)
{
	const struct insn *x = &t->v[a], *y = &t->v[b];
	struct value_id p, q;

	if (x->op != INSN_OP_MOV || y->op != INSN_OP_MOV || x->size != 8 || y->size != 8 ||
	    x->reg != reg || y->reg != reg || !(x->flags & INSN_F_MEM) || !(y->flags & INSN_F_MEM) ||
	    x->index != INSN_REG_NONE || y->index != INSN_REG_NONE ||
	    (x->base == RIP) != (y->base == RIP))
		return false;
	if (x->base == RIP)
		return rip_target(x) == rip_target(y);
	if (x->disp != y->disp || x->base > 15 || y->base > 15 || x->base == RSP || y->base == RSP)
		return false;
	p = value_id(t, a, x->base);
	q = value_id(t, b, y->base);
	return p.kind != VAL_NONE && p.kind == q.kind && p.at == q.at;
}

/*
 * When several writes of reg reach v[i], each the same load of a base
 * holding the same value (mov 0x10(%rdi),%rax before a loop and mov
 * 0x10(%rbx),%rax at its end, rbx a copy of rdi; GCC's copy of a block
 * on two paths that join): the first of them, whose chain is the
 * value's.  n when there is none such.
 */
static size_t same_writes(struct tracer *t, size_t i, uint8_t reg)
{
	struct defs x = { .n = 0 };
	bool entry;
	int k;

	if (!reg_defs(t, i, reg, &x, &entry) || entry || x.n < 2)
		return t->n;
	for (k = 1; k < x.n; k++)
		if (!same_load(t, x.v[0], x.v[k], reg))
			return t->n;
	return x.v[0];
}

/* ---- copies of an argument, through joins and spills ---- */

#define MAX_COPY_ASKS 32	/* places asked about by one entry_copy() */
#define MAX_COPY_WRITES 32	/* writes of one place reaching where it is read */

/* A place whose value entry_copy() asks about where v[i] reads it: a
 * general register, or (reg SLOT) the word of the frame at slot. */
struct copy_ask {
	size_t i;
	int64_t slot;
	uint8_t reg;
};

struct copy_search {
	struct copy_ask ask[MAX_COPY_ASKS];
	int n;
	uint8_t entry;		/* the entry's register found, or INSN_REG_NONE */
	size_t w[MAX_COPY_WRITES];	/* the writes of the place asked about */
	int nw;
};

static bool add_copy_write(void *arg, size_t d)
{
	struct copy_search *x = arg;

	if (x->nw == MAX_COPY_WRITES)
		return false;
	x->w[x->nw++] = d;
	return true;
}

/* Ask about a place once: a place met again holds what it is being
 * shown to hold (the search proves a greatest fixed point: a value that
 * only goes round a loop of copies is the one that entered it). */
static bool copy_ask(struct copy_search *x, size_t i, uint8_t reg, int64_t slot)
{
	int k;

	for (k = 0; k < x->n; k++)
		if (x->ask[k].i == i && x->ask[k].reg == reg && (reg != SLOT || x->ask[k].slot == slot))
			return true;
	if (x->n == MAX_COPY_ASKS)
		return false;
	x->ask[x->n++] = (struct copy_ask){ i, slot, reg };
	return true;
}

/* The places each write v[d] of x->ask[k]'s place copies: a register
 * another (mov %rdi,%rcx) or a reload of a spill slot (mov 0x8(%rsp),%rcx,
 * slot_load's: no pointer reaches the slot); the slot a register stored
 * over its 8 bytes (slot_store).  False for any other write. */
static bool copy_sources(struct tracer *t, struct copy_search *x, const struct copy_ask *a)
{
	int k;

	for (k = 0; k < x->nw; k++) {
		const struct insn *in = &t->v[x->w[k]];
		size_t d = x->w[k];

		if (a->reg == SLOT) {
			t->slot = a->slot;
			if (!slot_store(t, d, true) || in->reg2 == RSP || !copy_ask(x, d, in->reg2, 0))
				return false;
			continue;
		}
		if (is_call(in) || in->op != INSN_OP_MOV || in->size != 8 || in->reg != a->reg ||
		    (in->flags & INSN_F_IMM))
			return false;
		if (!(in->flags & INSN_F_MEM)) {
			if (in->reg2 > 15 || in->reg2 == RSP || !copy_ask(x, d, in->reg2, 0))
				return false;
			continue;
		}
		if ((in->base != RSP && in->base != RBP) || !slot_load(t, d) ||
		    !copy_ask(x, d, SLOT, t->slot))
			return false;
	}
	return true;
}

/*
 * Does reg hold at v[i], on every path, what one register held at the
 * function's entry (*entry_reg): each write reaching it a copy of a
 * register, or a reload of a spill slot whose every store reaching the
 * reload is of a register, and so on back to the entry, with nothing
 * else on the way?  GCC keeps an argument (xas_store()'s xas) in a
 * register it copies and spills across calls on each path of a loop,
 * where several such writes join and no one write reaches the use.
 * Not in a function with a jump through a table (where it lands is not
 * known), nor past MAX_COPY_ASKS places or INSN_MAX_VALUES writes of one.
 */
static bool entry_copy(struct tracer *t, size_t i, uint8_t reg, uint8_t *entry_reg)
{
	struct copy_search x = { .n = 0, .entry = INSN_REG_NONE };
	int64_t slot = t->slot;
	bool outgoing = t->outgoing, ok = true;
	int k;

	if (t->ic->table_jumps || reg > 15 || reg == RSP)
		return false;
	copy_ask(&x, i, reg, 0);
	t->outgoing = false;
	for (k = 0; ok && k < x.n; k++) {
		struct copy_ask a = x.ask[k];
		bool entry;

		t->slot = a.slot;
		x.nw = 0;
		ok = each_write(t, a.i, a.reg, add_copy_write, &x, &entry) &&
		     (!entry || (a.reg != SLOT && (x.entry == INSN_REG_NONE || x.entry == a.reg))) &&
		     copy_sources(t, &x, &a);
		if (ok && entry)
			x.entry = a.reg;
	}
	t->slot = slot;
	t->outgoing = outgoing;
	*entry_reg = x.entry;
	return ok && x.entry != INSN_REG_NONE;
}

/* reg, read at pc, holds what the function's entry held in the register
 * entry_copy() found: a copy of that register at the first instruction,
 * an argument (REG with entry, as from_entry()'s). */
static void add_entry_copy(struct tracer *t, uint8_t reg, uint64_t pc, uint8_t entry_reg)
{
	struct insn_link *l;

	add_link(t, pc, reg, INSN_SRC_MOVE, 0, 0);
	add_link(t, t->v[0].addr, entry_reg, INSN_SRC_REG, 0, 0);
	l = &t->ic->links[t->ic->nlinks - 1];
	l->entry = true;
	l->disp = (int64_t)t->v[0].addr;
}

/* Append how reg came to hold its value when v[i] (at pc) reads it. */
/* A nop nothing reaches: padding after a ret or a jmp, before the
 * code a jump lands on. */
static bool dead_pad(const struct tracer *t, size_t k)
{
	const struct insn_icalls *ic = t->ic;

	for (; t->v[k].op == INSN_OP_NOP && ic->pred_first[k] == ic->pred_first[k + 1]; k--)
		if (k == 0 || !falls_into(ic, k))
			return k > 0;
	return false;
}

/* The first instruction of the straight run up to v[i] in which reg is
 * not written: back while v[k] is reached only from v[k - 1], falling
 * in, and v[k - 1] writes no reg. */
static size_t run_start(const struct tracer *t, size_t i, uint8_t reg)
{
	const struct insn_icalls *ic = t->ic;
	size_t k = i;

	while (k > 0 && i - k < 64 && ic->pred_first[k] == ic->pred_first[k + 1] &&
	       falls_into(ic, k) && !writes(t, k - 1, reg))
		k--;
	return k;
}

/* The one jump into v[k], which nothing falls into (a dead nop aside),
 * when it writes no reg itself; n else. */
static size_t only_jump(const struct tracer *t, size_t k, uint8_t reg)
{
	const struct insn_icalls *ic = t->ic;
	size_t j;

	if (k == 0 || ic->pred_first[k + 1] - ic->pred_first[k] != 1 ||
	    (falls_into(ic, k) && !dead_pad(t, k - 1)))
		return t->n;
	j = ic->preds[ic->pred_first[k]];
	return j < t->n && !writes(t, j, reg) ? j : t->n;
}

/* The last store of reg, 8 bytes, to a word of the frame in the straight
 * run v[k..i) that writes no reg: from the instruction after it to v[i]
 * the word holds reg's value (insn_link.home), where DWARF may locate a
 * variable whose address the function takes (its home in the frame:
 * __access_remote_vm's vma = vma_lookup(mm, addr), then vma->vm_ops). */
static void set_home(struct tracer *t, size_t k, size_t i, uint8_t reg, struct insn_link *l)
{
	const struct insn *s;
	int64_t at;
	size_t j;

	for (j = i; j-- > k;) {
		s = &t->v[j];
		if (s->op == INSN_OP_MOV && s->reg == INSN_REG_NONE && s->reg2 == reg &&
		    s->size == 8 && frame_word(t, j, &at) && at < 0 && at >= INT32_MIN) {
			l->home = (int32_t)at;
			l->home_back = (uint32_t)(t->v[i].addr - (s->addr + s->len));
			return;
		}
	}
}

/* Where before v[i] reg already holds the value v[i] reads: the
 * straight run back to its write (insn_link.held), and, when that run
 * begins where only one jump lands, the run up to that jump
 * (insn_link.via): every path to v[i] passes them, in that order, with
 * no write of reg between.  Not where a jump through a table may land
 * anywhere. */
static void set_held(struct tracer *t, size_t i, uint8_t reg, struct insn_link *l)
{
	size_t k, j;

	if (t->ic->table_jumps || reg > 15)
		return;
	k = run_start(t, i, reg);
	if (k < i)
		l->held = (uint32_t)(t->v[i].addr - t->v[k].addr);
	set_home(t, k, i, reg, l);
	if ((j = only_jump(t, k, reg)) >= t->n)
		return;
	l->via = t->v[j].addr;
	l->via_held = (uint32_t)(t->v[j].addr - t->v[run_start(t, j, reg)].addr);
}

static void trace(struct tracer *t, size_t i, uint8_t reg, uint64_t pc)
{
	size_t mark = t->ic->nlinks;

	trace_value(t, i, reg, pc);
	if (mark < t->ic->nlinks && pc == t->v[i].addr && t->ic->links[mark].reg == reg &&
	    t->ic->links[mark].pc == pc)
		set_held(t, i, reg, &t->ic->links[mark]);
}

static void trace_value(struct tracer *t, size_t i, uint8_t reg, uint64_t pc)
{
	size_t call, d, same;
	uint8_t entry_reg;

	if (t->nlinks + 1 >= MAX_LINKS || reg > 15) {
		add_link(t, pc, reg, INSN_SRC_OTHER, 0, 0);
		return;
	}
	d = definition(t, i, reg, &call);
	if (d < t->n && follow(t, i, d, reg, pc))
		return;
	if (d == t->n && call == t->n && (same = same_writes(t, i, reg)) < t->n &&
	    follow(t, i, same, reg, pc))
		return;
	if (d == t->n && call == t->n && t->nlinks + 2 < MAX_LINKS && !from_entry(t, i, reg) &&
	    entry_copy(t, i, reg, &entry_reg)) {
		add_entry_copy(t, reg, pc, entry_reg);
		return;
	}
	if (call < t->n && reg == RAX && (t->v[call].flags & INSN_F_TARGET) &&
	    t->v[call].branch == INSN_BRANCH_CALL) {
		add_link(t, pc, reg, INSN_SRC_RETURN, t->v[call].imm, 0);
		/* the call's own return address: its DWARF call site */
		t->ic->links[t->ic->nlinks - 1].back =
			(int32_t)(t->v[call].addr + t->v[call].len - pc);
		return;
	}
	add_link(t, pc, reg, d < t->n ? INSN_SRC_OTHER : INSN_SRC_REG, 0, 0);
	if (d == t->n && call == t->n && from_entry(t, i, reg)) {
		struct insn_link *l = &t->ic->links[t->ic->nlinks - 1];

		l->entry = true;
		l->disp = (int64_t)t->v[0].addr;
	}
}

/* ---- calls ---- */

static void add_call(struct tracer *t, size_t i, uint8_t reg)
{
	const struct insn *in = &t->v[i];
	struct insn_icalls *ic = t->ic;
	struct insn_icall *c;

	SP_ALLOC_GROW(ic->calls, ic->ncalls + 1, ic->calls_cap);
	c = &ic->calls[ic->ncalls++];
	c->pc = in->addr;
	c->ret = in->addr + in->len;
	c->link = (uint32_t)ic->nlinks;
	c->tail = in->op != INSN_OP_CALL;
	c->update = false;
	c->nalts = 0;
	c->tramp = 0;
	c->nways = 0;
	c->way = false;
	t->nlinks = 0;
	t->reload_link = SIZE_MAX;
	if (reg != INSN_REG_NONE)
		trace(t, i, reg, in->addr);
	else if (in->flags & INSN_F_MEM)
		trace_mem(t, i, in->addr, INSN_REG_NONE);
	else
		add_link(t, in->addr, INSN_REG_NONE, INSN_SRC_OTHER, 0, 0);
	c = &ic->calls[ic->ncalls - 1];
	c->nlinks = t->nlinks;
}

/* The chain of one path's write v[d] of reg, which v[i] (at pc) reads:
 * false when it is none the chain follows (a call's return only from a
 * direct call, in rax). */
static bool way_chain(struct tracer *t, size_t i, size_t d, uint8_t reg, uint64_t pc)
{
	const struct insn *in = &t->v[d];

	if (!is_call(in))
		return follow(t, i, d, reg, pc);
	if (reg != RAX || !(in->flags & INSN_F_TARGET) || in->branch != INSN_BRANCH_CALL)
		return false;
	add_link(t, pc, reg, INSN_SRC_RETURN, in->imm, 0);
	t->ic->links[t->ic->nlinks - 1].back = (int32_t)(in->addr + in->len - pc);
	return true;
}

/*
 * The stores that reach a reload of a stack slot, v[i], when two or more
 * do, none from the function's entry, each of 8 bytes over the whole slot
 * from a register or of a constant, and no pointer reaches the slot
 * (slot_load): GCC spills a different value on each path before one
 * reload (apply_relocate_add's write function, a constant chosen on two
 * paths).
 */
static bool slot_defs(struct tracer *t, size_t i, struct defs *defs)
{
	bool entry;
	int k;

	if (!slot_load(t, i) || !each_write(t, i, SLOT, add_def, defs, &entry) || entry ||
	    defs->n < 2)
		return false;
	for (k = 0; k < defs->n; k++)
		if (!slot_store(t, defs->v[k], true) && !slot_store(t, defs->v[k], false))
			return false;
	return true;
}

/* One path's store v[d] into the slot a reload of reg (read at pc)
 * reads back: its register's chain, or its constant. */
static void slot_way(struct tracer *t, size_t d, uint8_t reg, uint64_t pc)
{
	const struct insn *s = &t->v[d];

	if (s->reg2 == INSN_REG_NONE) {
		add_link(t, pc, reg, INSN_SRC_CONST, s->imm, 0);
		return;
	}
	add_link(t, pc, reg, INSN_SRC_MOVE, 0, 0);
	trace(t, d, s->reg2, s->addr);
}

/* The way of the path from the function's entry to a join of reg with
 * no write of it: the argument reg held there (REG with entry, read at
 * the first instruction). */
static void entry_way(struct tracer *t, uint8_t reg)
{
	struct insn_link *l;

	add_link(t, t->v[0].addr, reg, INSN_SRC_REG, 0, 0);
	l = &t->ic->links[t->ic->nlinks - 1];
	l->entry = true;
	l->disp = (int64_t)t->v[0].addr;
}

/*
 * When the chain of calls[ci] ends at a register that two or more writes
 * reach, or one write and the function's entry (GCC's cross-jumping:
 * several paths each load the pointer their own way, then one shared
 * call; l3mdev_fib_table_rcu()'s dev, or the master device it looks
 * up), or at a reload of a stack slot that two or more stores reach
 * (slot_defs): one call entry after it per write (way), its chain the
 * links above the join and then that write's (the entry's: the
 * argument).  None when some path's write is one the chain does not
 * follow: the call's targets are the union of the ways' only when each
 * says what it holds.
 */
/* The data address a write v[d] of reg puts there (mov $c, lea
 * c(%rip)), 0 when none. */
static uint64_t const_write(const struct insn *in, uint8_t reg)
{
	if (in->reg != reg || (in->flags & INSN_F_WREGS_ALL))
		return 0;
	/* mov $c,%ebx zero-extends: an executable's low data addresses */
	if (in->op == INSN_OP_MOV && (in->flags & INSN_F_IMM) && !(in->flags & INSN_F_MEM) &&
	    (in->size == 8 || (in->size == 4 && in->imm >= 0)))
		return (uint64_t)in->imm;
	if (in->op == INSN_OP_LEA && in->base == RIP && in->index == INSN_REG_NONE)
		return rip_target(in);
	return 0;
}

/* The step of an add $s,%reg of 8 bytes, s > 0; 0 when v[d] is none. */
static uint64_t step_write(const struct insn *in, uint8_t reg)
{
	if (in->op != INSN_OP_ADD || in->reg != reg || in->size != 8 ||
	    !(in->flags & INSN_F_IMM) || (in->flags & INSN_F_MEM) || in->imm <= 0)
		return 0;
	return (uint64_t)in->imm;
}

/*
 * A pointer stepped through an array from its start (for (i = 0; ...)
 * { base = &arr[i]; ... }, GCC's mov $arr,%r15 before the loop and add
 * $48,%r15 at its end: alarmtimer_suspend's alarm_bases[i].get_ktime):
 * every write of reg that reaches v[i] is the one constant *c or an add
 * of the one step *s to reg, and so is every write that reaches such an
 * add, no path from the entry.  Then reg holds *c + n * *s, n >= 0.
 */
static bool stepped(struct tracer *t, size_t i, uint8_t reg, uint64_t *c, uint64_t *s)
{
	size_t adds[MAX_VALUES], at = i;
	int nadds = 0, done = 0, k, j;
	struct defs defs;
	bool entry;

	*c = *s = 0;
	for (;;) {
		defs.n = 0;
		if (!reg_defs(t, at, reg, &defs, &entry) || entry)
			return false;
		for (k = 0; k < defs.n; k++) {
			const struct insn *in = &t->v[defs.v[k]];
			uint64_t v;

			if ((v = const_write(in, reg))) {
				if (*c && *c != v)
					return false;
				*c = v;
				continue;
			}
			if (!(v = step_write(in, reg)) || (*s && *s != v))
				return false;
			*s = v;
			for (j = 0; j < nadds && adds[j] != defs.v[k]; j++)
				;
			if (j == nadds) {
				if (nadds == MAX_VALUES)
					return false;
				adds[nadds++] = defs.v[k];
			}
		}
		if (done == nadds)
			break;
		at = adds[done++];
	}
	return *c && *s;
}

/* A call's chain that loads through a pointer stepped through an array
 * (stepped()): one way, the call's chain but for its last load, which
 * reads a column of the array, a table's words at the load's
 * displacement from the start, by the step (INSN_SRC_TABLE, as mov
 * c+d(,%rax,s) would).  The chain itself stays: DWARF may type the
 * pointer where that column is no array's (a walk from a linker's
 * __start_SECTION). */
static bool stepped_way(struct tracer *t, size_t ci)
{
	struct insn_icalls *ic = t->ic;
	const struct insn_icall c = ic->calls[ci];
	const struct insn_link *root = &ic->links[c.link + c.nlinks - 1];
	struct insn_icall *w;
	uint64_t base, step;
	size_t i;
	uint8_t j;

	if (c.nlinks < 2 || root->src != INSN_SRC_REG || root->entry || root->reg > 15 ||
	    root[-1].src != INSN_SRC_LOAD || root[-1].scale ||
	    (i = sp_search_first_ge(t->v, t->n, insn_addr, root->pc)) >= t->n ||
	    !stepped(t, i, root->reg, &base, &step) || step > UINT8_MAX)
		return false;
	SP_ALLOC_GROW(ic->calls, ic->ncalls + 1, ic->calls_cap);
	w = &ic->calls[ic->ncalls++];
	*w = c;
	w->way = true;
	w->link = (uint32_t)ic->nlinks;
	w->nlinks = (uint8_t)(c.nlinks - 1);
	for (j = 0; j < w->nlinks; j++) {
		SP_ALLOC_GROW(ic->links, ic->nlinks + 1, ic->links_cap);
		ic->links[ic->nlinks++] = ic->links[c.link + j];
	}
	ic->links[ic->nlinks - 1].src = INSN_SRC_TABLE;
	ic->links[ic->nlinks - 1].disp = (int64_t)(base + (uint64_t)ic->links[ic->nlinks - 1].disp);
	ic->links[ic->nlinks - 1].scale = (uint8_t)step;
	ic->links[ic->nlinks - 1].entry = true;	/* typed only as base's array */
	ic->calls[ci].nways = 1;
	return true;
}

static void add_ways(struct tracer *t, size_t ci)
{
	struct insn_icalls *ic = t->ic;
	const struct insn_icall c = ic->calls[ci];
	const struct insn_link root = ic->links[c.link + c.nlinks - 1];
	size_t i, call, ncalls = ic->ncalls, nlinks = ic->nlinks;
	struct defs defs = { .n = 0 };
	bool entry = false, slot = root.src == INSN_SRC_FRAME && t->reload_link == c.link + c.nlinks - 1;
	int k;
	uint8_t j;

	/* a slot's way adds its copy */
	if (c.nlinks + 1u + slot >= MAX_LINKS || (!slot && stepped_way(t, ci)))
		return;
	if (slot) {
		if (!slot_defs(t, i = t->reload, &defs))
			return;
	} else if (root.src != INSN_SRC_REG || root.entry || root.reg > 15 ||
		   (i = sp_search_first_ge(t->v, t->n, insn_addr, root.pc)) >= t->n ||
		   definition(t, i, root.reg, &call) < t->n || call < t->n ||
		   !reg_defs(t, i, root.reg, &defs, &entry) || defs.n + entry < 2 ||
		   (entry && (t->ic->table_jumps || defs.n + 1 > MAX_VALUES))) {
		return;
	}
	for (k = 0; k < defs.n + (int)entry; k++) {
		struct insn_icall *w;

		SP_ALLOC_GROW(ic->calls, ic->ncalls + 1, ic->calls_cap);
		w = &ic->calls[ic->ncalls++];
		*w = c;
		w->way = true;
		w->link = (uint32_t)ic->nlinks;
		t->nlinks = 0;
		for (j = 0; j + 1 < c.nlinks; j++) {
			SP_ALLOC_GROW(ic->links, ic->nlinks + 1, ic->links_cap);
			ic->links[ic->nlinks++] = ic->links[c.link + j];
			t->nlinks++;
		}
		if (slot) {
			slot_way(t, defs.v[k], root.reg, root.pc);
		} else if (k == defs.n) {
			entry_way(t, root.reg);
		} else if (!way_chain(t, i, defs.v[k], root.reg, root.pc)) {
			ic->ncalls = ncalls;
			ic->nlinks = nlinks;
			return;
		}
		ic->calls[ic->ncalls - 1].nlinks = t->nlinks;
	}
	ic->calls[ci].nways = (uint8_t)(defs.n + (int)entry);
}

/* The register an indirect branch goes through, INSN_REG_NONE for a
 * memory operand; false when v[i] is no indirect call or jump. */
static bool indirect_branch(const struct insn *in, uint8_t *reg)
{
	*reg = INSN_REG_NONE;
	if (in->branch == INSN_BRANCH_CALL_DYNAMIC || in->branch == INSN_BRANCH_JUMP_DYNAMIC) {
		if (!(in->flags & INSN_F_MEM))
			*reg = in->reg;
		return true;
	}
	return false;
}

/* ---- stores ---- */

/* Is the chain [first, first + n) a value of unknown origin, copied at
 * most: live where its block begins, chosen by a cmov, reloaded from the
 * stack (a parameter, a variable holding a function); not a constant (0
 * included), not a load from another object (a store's "loaded"). */
static bool plain_value(const struct insn_icalls *ic, uint32_t first, uint8_t n)
{
	uint8_t k;

	for (k = 0; k < n; k++)
		if (ic->links[first + k].src != INSN_SRC_MOVE &&
		    ic->links[first + k].src != INSN_SRC_REG &&
		    ic->links[first + k].src != INSN_SRC_OTHER &&
		    ic->links[first + k].src != INSN_SRC_FRAME &&
		    ic->links[first + k].src != INSN_SRC_STACK &&
		    ic->links[first + k].src != INSN_SRC_PERCPU)
			return false;
	return true;
}

/* The constant a chain ends at, through copies only; 0 when none. */
static uint64_t const_value(const struct insn_icalls *ic, uint32_t first, uint8_t n)
{
	const struct insn_link *root = &ic->links[first + n - 1];
	uint8_t k;

	for (k = 0; k + 1 < n; k++)
		if (ic->links[first + k].src != INSN_SRC_MOVE)
			return 0;
	return root->src == INSN_SRC_CONST ? (uint64_t)root->disp : 0;
}

/* Does a chain end at a NULL, through copies only (xor %eax,%eax a few
 * instructions before the store: no zeroed register the lane sees)? */
static bool null_value(const struct insn_icalls *ic, uint32_t first, uint8_t n)
{
	return n && ic->links[first + n - 1].src == INSN_SRC_CONST && !const_value(ic, first, n) &&
	       !ic->links[first + n - 1].disp;
}

/* Where v[i]'s stack operand is, from the entry's stack pointer, by the
 * depth along the jumps; INSN_FRAME_UNKNOWN when that is not known. */
static int64_t frame_offset(struct tracer *t, size_t i)
{
	int32_t d;

	if (!t->ic->frame_known)
		frame_depths(t);
	d = t->ic->depth[i];
	return depth_known(d) ? t->v[i].disp - d : INSN_FRAME_UNKNOWN;
}

/* Does the function keep a frame pointer in rbp (mov %rsp,%rbp)?  Its
 * stores through rbp are into its frame. */
static bool frame_pointer(struct tracer *t)
{
	if (!t->ic->frame_known)
		frame_depths(t);
	return t->ic->fp_frame != INSN_FRAME_UNKNOWN;
}

/* Where a store of v[i] writes: false when it is no place a pointer to a
 * function is kept (an indexed local, a segment). */
static bool store_dest(struct tracer *t, size_t i, struct insn_store *s)
{
	const struct insn *in = &t->v[i];
	int64_t addr = 0;
	uint8_t scale, base;
	enum insn_src src = mem_source(in, &addr, &scale, &base);

	s->disp = in->disp;
	if (src == INSN_SRC_GLOBAL || src == INSN_SRC_TABLE) {
		s->addr = (uint64_t)addr;
		s->indexed = src == INSN_SRC_TABLE;
		return s->addr != 0;
	}
	if (in->base == RSP) {
		s->stack = in->index == INSN_REG_NONE;
		s->frame = frame_offset(t, i);
		return s->stack;
	}
	if (in->base == RBP && in->index == INSN_REG_NONE && frame_pointer(t)) {
		s->stack = true;
		s->frame = t->ic->fp_frame == FP_TWICE ? INSN_FRAME_UNKNOWN :
			   t->ic->fp_frame + in->disp;
		return true;
	}
	if (src != INSN_SRC_LOAD || in->index != INSN_REG_NONE)
		return false;
	s->link = (uint32_t)t->ic->nlinks;
	t->nlinks = 0;
	trace(t, i, base, in->addr);
	s->nlinks = t->nlinks;
	return true;
}

/* Where one quadword of an xmm register that v[i] reads came from: a
 * register (reg, read at v[at]), a word at a fixed address, else none. */
struct lane {
	enum { LANE_NONE, LANE_REG, LANE_WORD, LANE_ZERO } kind;
	size_t at;
	uint8_t reg;
	uint64_t addr;
};

/* The store of v[i] writing lane l at disp from its base. */
static void add_store(struct tracer *t, const struct sp_elf *e, size_t i, const struct lane *l,
		      int64_t disp);

static struct lane fixed_word(const struct insn *in, uint64_t off)
{
	struct lane l = { .kind = LANE_NONE };
	int64_t addr = 0;
	uint8_t scale, base;

	if (mem_source(in, &addr, &scale, &base) == INSN_SRC_GLOBAL && addr) {
		l.kind = LANE_WORD;
		l.addr = (uint64_t)addr + off;
	}
	return l;
}

static struct lane xmm_lane(struct tracer *t, size_t i, uint8_t xmm, bool high, int depth)
{
	struct lane none = { .kind = LANE_NONE }, l = none;
	size_t call, d = depth < 4 ? definition(t, i, xmm, &call) : t->n;
	const struct insn *in;

	if (d >= t->n || (in = &t->v[d])->reg != xmm)
		return none;
	switch (in->op) {
	case INSN_OP_XOR:	/* pxor %xmm0,%xmm0 */
		l.kind = in->reg2 == xmm ? LANE_ZERO : LANE_NONE;
		return l;
	case INSN_OP_MOVQ:	/* the high quadword is zeroed */
		if (high) {
			l.kind = LANE_ZERO;
			return l;
		}
		if (in->flags & INSN_F_MEM)
			return fixed_word(in, 0);
		l.kind = in->reg2 <= 15 ? LANE_REG : LANE_NONE;
		l.at = d;
		l.reg = in->reg2;
		return l;
	case INSN_OP_UNPCKLQ:
		return in->reg2 < XMM0 ? none :
		       xmm_lane(t, d, high ? in->reg2 : xmm, false, depth + 1);
	case INSN_OP_MOVHPS:
		return high ? ((in->flags & INSN_F_MEM) ? fixed_word(in, 0) : none) :
		       xmm_lane(t, d, xmm, false, depth + 1);
	case INSN_OP_VMOV:
		return (in->flags & INSN_F_MEM) ? fixed_word(in, high ? 8 : 0) : none;
	}
	return none;
}

/* Is in a store scan_store() reads: of 8 bytes, or of an xmm register's
 * 16? */
bool insn_icall_store(const struct insn *in)
{
	if (!(in->flags & INSN_F_MEM) || in->reg != INSN_REG_NONE)
		return false;
	return (in->op == INSN_OP_MOV && in->size == 8) ||
	       (in->op == INSN_OP_VMOV && in->size == 16 && in->reg2 >= XMM0);
}

/*
 * The word stored by mov %reg, disp(%base) or movq $imm, disp(%base), and
 * the two of a 16-byte store of an xmm register, which GCC fills from two
 * registers or a constant pool to set two members at once:
 *	movq %rdx,%xmm0; movq %rax,%xmm1; punpcklqdq %xmm1,%xmm0; movups %xmm0,(%rdi)
 *	movq %rax,%xmm0; movhps .LC0(%rip),%xmm0; movaps %xmm0,0x70(%rsp)
 */
static void scan_store(struct tracer *t, const struct sp_elf *e, size_t i)
{
	const struct insn *in = &t->v[i];
	struct lane l = { .kind = LANE_REG, .at = i };

	if (!insn_icall_store(in))
		return;
	if (in->op == INSN_OP_MOV) {
		l.reg = in->reg2;
		add_store(t, e, i, &l, in->disp);
		return;
	}
	/* a lane of unknown origin (a struct copied whole: movdqu
	 * (%rsi),%xmm0) is a value of unknown origin stored there */
	l = xmm_lane(t, i, in->reg2, false, 0);
	add_store(t, e, i, &l, in->disp);
	l = xmm_lane(t, i, in->reg2, true, 0);
	add_store(t, e, i, &l, in->disp + 8);
}

/* The constant reg holds where v[i] reads it, through copies: 0 when
 * none (or a NULL). */
static uint64_t const_at(struct tracer *t, size_t i, uint8_t reg)
{
	struct insn_icalls *ic = t->ic;
	size_t mark = ic->nlinks;
	uint8_t saved = t->nlinks;
	uint64_t value;

	t->nlinks = 0;
	trace(t, i, reg, t->v[i].addr);
	value = const_value(ic, (uint32_t)mark, t->nlinks);
	ic->nlinks = mark;
	t->nlinks = saved;
	return value;
}

/* The constant the write v[d] of reg puts there: *value, 0 for a NULL;
 * false when it is none (a cmov: both of its values, into v[]). */
static int write_values(struct tracer *t, size_t d, uint8_t reg, uint64_t *v)
{
	const struct insn *in = &t->v[d];

	if (in->reg != reg)
		return -1;
	if (in->op == INSN_OP_XOR && in->reg2 == reg)
		return 0;	/* xor %eax,%eax: a NULL */
	if (in->op == INSN_OP_MOV && (in->flags & INSN_F_IMM) && !(in->flags & INSN_F_MEM) &&
	    (in->size == 8 || (in->size == 4 && in->imm >= 0))) {
		v[0] = (uint64_t)in->imm;
		return v[0] != 0;
	}
	if (in->op == INSN_OP_LEA && in->index == INSN_REG_NONE && in->base == RIP) {
		v[0] = rip_target(in);
		return 1;
	}
	/* p->f = c ? f1 : f2: the source's value, and what reg held before */
	if (in->op == INSN_OP_CMOV && in->size == 8 && !(in->flags & INSN_F_MEM) &&
	    in->reg2 <= 15 && (v[0] = const_at(t, d, in->reg2)) && (v[1] = const_at(t, d, reg)))
		return 2;
	return -1;
}

/*
 * The constants reg may hold where v[i] reads it, one write per path
 * into it (GCC's switch that picks a pair of callbacks and joins at the
 * stores, serial8250's set_io_from_upio), each_write's.  Their number,
 * NULLs left out; -1 when some path brings no constant (the entry, a
 * call, any other write, too far, too many).
 */
static int reaching_values(struct tracer *t, size_t i, uint8_t reg, uint64_t *values)
{
	struct defs defs = { .n = 0 };
	bool entry;
	int n = 0, got, d;

	if (!reg_defs(t, i, reg, &defs, &entry) || entry)
		return -1;
	/* each write's value once the walk is done: a cmov's operands are
	 * traced with ic->seen, the walk's marks */
	for (d = 0; d < defs.n; d++) {
		uint64_t v[2];

		got = write_values(t, defs.v[d], reg, v);
		if (got < 0 || n + got > MAX_VALUES)
			return -1;
		memcpy(values + n, v, (size_t)got * sizeof(*v));
		n += got;
	}
	return n;
}

/* A path's write of a stored register that loads the value from
 * another object: its chain, ic->links[link, link + n). */
struct store_way {
	uint32_t link;
	uint8_t n;
};

/*
 * The paths into a stored register when some bring no constant: each
 * path's write is a constant (write_values, into values[]) or a load
 * from another object, a global or a member (update_function_graph_func()'s
 * ftrace_graph_entry = __ftrace_graph_entry on one path,
 * ftrace_graph_entry_test on the other), whose chain goes to ways[] to
 * be a store of its own.  The number of constants, *nways the loads'; -1
 * when some path is neither (the entry, a call, a copy of a parameter).
 */
static int joined_values(struct tracer *t, size_t i, uint8_t reg, uint64_t *values,
			 struct store_way *ways, int *nways)
{
	struct insn_icalls *ic = t->ic;
	struct defs defs = { .n = 0 };
	uint8_t saved = t->nlinks;
	bool entry;
	int n = 0, got, d;

	*nways = 0;
	if (!reg_defs(t, i, reg, &defs, &entry) || entry)
		return -1;
	for (d = 0; d < defs.n; d++) {
		uint32_t mark = (uint32_t)ic->nlinks;
		uint64_t v[2];

		if ((got = write_values(t, defs.v[d], reg, v)) >= 0) {
			if (n + got > MAX_VALUES) {
				t->nlinks = saved;
				return -1;
			}
			memcpy(values + n, v, (size_t)got * sizeof(*v));
			n += got;
			continue;
		}
		t->nlinks = 0;
		if (is_call(&t->v[defs.v[d]]) || !follow(t, i, defs.v[d], reg, t->v[i].addr) ||
		    plain_value(ic, mark, t->nlinks) || const_value(ic, mark, t->nlinks)) {
			t->nlinks = saved;
			return -1;
		}
		ways[*nways].link = mark;
		ways[(*nways)++].n = t->nlinks;
	}
	t->nlinks = saved;
	return n;
}

/* Append store s once per value in values[0..n) (code addresses). */
static void push_stores(struct insn_icalls *ic, const struct insn_store *s,
			const uint64_t *values, int n)
{
	int k;

	for (k = 0; k < n; k++) {
		SP_ALLOC_GROW(ic->stores, ic->nstores + 1, ic->stores_cap);
		ic->stores[ic->nstores] = *s;
		ic->stores[ic->nstores++].value = values[k];
	}
}

/* Does reg hold at v[i] an address inside an object (lea 8(%rbx),%rax:
 * a list_head's own address written into it), which is never a
 * function's entry? */
static bool object_address(struct tracer *t, size_t i, uint8_t reg)
{
	size_t call, d = definition(t, i, reg, &call);
	const struct insn *in;

	return d < t->n && (in = &t->v[d])->op == INSN_OP_LEA && in->reg == reg &&
	       in->base != INSN_REG_NONE && in->base != RIP &&
	       (in->disp != 0 || in->index != INSN_REG_NONE);
}

/*
 * The values a store of lane l writes, into values[]: a constant, the
 * constants of each path (reaching_values), or one 0 with s's value
 * chain (a value of unknown origin: a parameter, a variable, a struct
 * copied whole; or loaded from another object, s->loaded); -1 when the
 * store is no function pointer's (an address inside an object), 0 when
 * only NULLs.
 */
static int store_values(struct tracer *t, const struct insn *in, const struct lane *l,
			struct insn_store *s, uint64_t *values, struct store_way *ways, int *nways)
{
	struct insn_icalls *ic = t->ic;
	int n;

	values[0] = 0;
	*nways = 0;
	switch (l->kind) {
	case LANE_ZERO:
		return 0;
	case LANE_WORD:
		s->value_at = l->addr;
		return 1;
	case LANE_NONE:
		return 1;
	case LANE_REG:
		break;
	}
	if (l->reg == INSN_REG_NONE) {
		/* movq $imm: a NULL written makes no call */
		values[0] = (uint64_t)in->imm;
		return (in->flags & INSN_F_IMM) ? values[0] != 0 : -1;
	}
	if (object_address(t, l->at, l->reg)) {
		s->data = true;
		return 1;
	}
	s->vlink = (uint32_t)ic->nlinks;
	t->nlinks = 0;
	trace(t, l->at, l->reg, t->v[l->at].addr);
	s->nvlinks = t->nlinks;
	if ((values[0] = const_value(ic, s->vlink, s->nvlinks))) {
		s->nvlinks = 0;
		return 1;
	}
	if (null_value(ic, s->vlink, s->nvlinks))
		return 0;	/* a NULL makes no call */
	/* copied from another object (p->f = q->g, a global, a call's
	 * return): what its chain says it is, or of unknown origin */
	if (!plain_value(ic, s->vlink, s->nvlinks)) {
		s->loaded = true;
		return 1;
	}
	if ((n = reaching_values(t, l->at, l->reg, values)) < 0 &&
	    (n = joined_values(t, l->at, l->reg, values, ways, nways)) < 0) {
		*nways = 0;
		values[0] = 0;
		return 1;
	}
	if (!*nways)
		s->nvlinks = 0;
	return n;
}

/* May a pointer reach the frame slot stack store s writes: the function
 * lets an address at or below it out of its registers (an object is
 * written upwards from its address), or its place is not known?  Not
 * one at or above the entry's stack pointer (an argument passed on the
 * stack, the caller's). */
static bool reachable(const struct tracer *t, const struct insn_store *s)
{
	return s->frame == INSN_FRAME_UNKNOWN || (s->frame < 0 && t->ic->escape <= s->frame);
}

static void add_store(struct tracer *t, const struct sp_elf *e, size_t i, const struct lane *l,
		      int64_t disp)
{
	const struct insn *in = &t->v[i];
	struct insn_icalls *ic = t->ic;
	size_t mark = ic->nlinks;
	struct insn_store s = { .pc = in->addr };
	uint64_t values[MAX_VALUES];
	struct store_way ways[MAX_VALUES];
	int nways, n = store_values(t, in, l, &s, values, ways, &nways), k;

	if (n < 0 || (n == 0 && !nways))
		goto drop;
	for (k = 0; k < n; k++)
		if (values[k] && !sp_elf_is_code(e, values[k]))
			s.data = true;
	/* an object's address into a local no pointer reaches is a spill */
	if (!store_dest(t, i, &s) || (s.data && s.stack && !reachable(t, &s)))
		goto drop;
	/* into the frame, the paths' loads are one value of unknown origin,
	 * as before (a local's member then escapes); with an object's
	 * address on another path, too */
	if (nways && (s.stack || s.data)) {
		nways = 0;
		n = 1;
		values[0] = 0;
	}
	/* a local written with a value of unknown origin: only where a
	 * pointer may reach it, a struct's member (indirect/ asks DWARF
	 * which), not a spill */
	if (!values[0] && !s.value_at && s.stack && !reachable(t, &s))
		goto drop;
	if (s.addr)	/* a 16-byte store's second word */
		s.addr += (uint64_t)(disp - in->disp);
	if (s.stack && s.frame != INSN_FRAME_UNKNOWN)
		s.frame += disp - in->disp;
	s.disp = disp;
	if (nways)
		s.nvlinks = 0;
	push_stores(ic, &s, values, n);
	for (k = 0; k < nways; k++) {
		s.loaded = true;
		s.vlink = ways[k].link;
		s.nvlinks = ways[k].n;
		push_stores(ic, &s, (const uint64_t[]){ 0 }, 1);
	}
	return;
drop:
	ic->nlinks = mark;
}

/*
 * Where argument reg of the call that returns to ret is read: the call's
 * index in t->v, with reg as given; for a stack argument the store into
 * its slot, with *reg the register it stores, or INSN_REG_NONE and *imm
 * the constant.  t->n when the call or the store is not found.
 */
static size_t arg_at(struct tracer *t, uint64_t ret, uint8_t *reg, uint64_t *imm)
{
	const struct insn *v = t->v;
	size_t n = t->n, i = sp_search_first_ge(v, n, insn_addr, ret);

	if (!i || i > n || v[i - 1].addr + v[i - 1].len != ret ||
	    (*reg > 15 && !insn_stack_arg(*reg)))
		return n;
	i--;
	index_function(t->ic, v, n);
	if (insn_stack_arg(*reg))
		i = stack_arg_store(t, i, *reg - INSN_REG_STACK_ARG, reg, imm);
	return i;
}

int insn_arg_values(struct insn_icalls *ic, const struct insn *v, size_t n, uint64_t ret,
		    uint8_t reg, uint64_t *values, uint8_t *entry)
{
	struct tracer t = { .ic = ic, .v = v, .n = n };
	size_t i, mark = ic->nlinks;
	struct insn_link root;
	uint64_t imm = 0;
	uint8_t k;

	*entry = INSN_REG_NONE;
	if ((i = arg_at(&t, ret, &reg, &imm)) >= n)
		return -1;
	if (reg == INSN_REG_NONE) {
		values[0] = imm;
		return imm != 0;
	}
	trace(&t, i, reg, v[i].addr);
	*entry = insn_entry_reg(ic->links + mark, t.nlinks);
	root = ic->links[ic->nlinks - 1];
	for (k = 0; k + 1 < t.nlinks && ic->links[mark + k].src == INSN_SRC_MOVE; k++)
		;
	ic->nlinks = mark;
	/* a switch's jump may land anywhere: no value is the entry's */
	if (*entry != INSN_REG_NONE)
		return ic->table_jumps ? -1 : 0;
	if (k + 1 != t.nlinks)
		return -1;	/* a load: no constant */
	if (root.src == INSN_SRC_CONST) {
		values[0] = (uint64_t)root.disp;
		return values[0] != 0;
	}
	/* copies of a register several writes reach: each path's */
	if ((root.src != INSN_SRC_REG && root.src != INSN_SRC_OTHER) || root.reg > 15 ||
	    (i = sp_search_first_ge(v, n, insn_addr, root.pc)) >= n || v[i].addr != root.pc)
		return -1;
	return reaching_values(&t, i, root.reg, values);
}

int insn_arg_load(struct insn_icalls *ic, const struct insn *v, size_t n, uint64_t ret,
		  uint8_t reg, struct insn_link *load, int max)
{
	struct tracer t = { .ic = ic, .v = v, .n = n };
	size_t i, mark = ic->nlinks;
	const struct insn_link *l;
	uint64_t imm = 0;
	int got = 0;
	uint8_t k;

	if ((i = arg_at(&t, ret, &reg, &imm)) >= n || reg == INSN_REG_NONE)
		return 0;
	trace(&t, i, reg, v[i].addr);
	for (k = 0; k + 1 < t.nlinks && ic->links[mark + k].src == INSN_SRC_MOVE; k++)
		;
	l = ic->links + mark + k;
	if (t.nlinks && (l[0].src == INSN_SRC_GLOBAL || l[0].src == INSN_SRC_TABLE ||
			 l[0].src == INSN_SRC_LOAD) && t.nlinks - k <= max)
		got = t.nlinks - k;
	memcpy(load, l, (size_t)got * sizeof(*load));
	ic->nlinks = mark;
	return got;
}

uint8_t insn_entry_reg(const struct insn_link *l, uint8_t n)
{
	uint8_t k;

	if (!n)
		return INSN_REG_NONE;
	for (k = 0; k + 1 < n; k++)
		if (l[k].src != INSN_SRC_MOVE)
			return INSN_REG_NONE;
	if (l[k].src == INSN_SRC_FRAME && l[k].entry)	/* stack_arg */
		return (uint8_t)(INSN_REG_STACK_ARG + (l[k].disp - 8) / 8);
	return l[k].src == INSN_SRC_REG && l[k].entry ? l[k].reg : INSN_REG_NONE;
}

/* A jump through a register that may be a switch's (not a tail call
 * through an argument) may land anywhere in the function: no value is
 * then known to be the entry's.  Calls [call, ncalls) and links [link,
 * nlinks) are the function's. */
static void check_entries(struct insn_icalls *ic, size_t call, size_t link)
{
	size_t k;

	for (k = call; k < ic->ncalls; k++)
		if (ic->calls[k].tail &&
		    insn_entry_reg(ic->links + ic->calls[k].link, ic->calls[k].nlinks) == INSN_REG_NONE)
			break;
	if (k < ic->ncalls)
		for (k = link; k < ic->nlinks; k++)
			ic->links[k].entry = false;
}

/* Which updaters[] v[i] is a direct call (or jump) of, -1 none. */
static int calls_update(const struct insn_icalls *ic, const struct insn *in)
{
	int k;

	if (!(in->flags & INSN_F_TARGET) ||
	    (in->branch != INSN_BRANCH_CALL && in->branch != INSN_BRANCH_JUMP))
		return -1;
	for (k = 0; k < 2; k++)
		if (ic->sc_update[k] && (uint64_t)in->imm == ic->sc_update[k])
			return k;
	return -1;
}

/* When the chain of call c ends at a register two or more writes reach
 * (or a cmov), each a constant (__xen_hypercall_setfunc's choice of two):
 * CONST links after the chain, one 0 when all are NULLs. */
static void add_alts(struct tracer *t, struct insn_icall *c)
{
	struct insn_icalls *ic = t->ic;
	const struct insn_link *l = &ic->links[c->link + c->nlinks - 1];
	size_t i = sp_search_first_ge(t->v, t->n, insn_addr, l->pc);
	uint64_t values[MAX_VALUES];
	int n, k;

	if ((l->src != INSN_SRC_REG && l->src != INSN_SRC_OTHER && l->src != INSN_SRC_FRAME &&
	     l->src != INSN_SRC_STACK) ||
	    l->entry || l->reg > 15 ||
	    i >= t->n ||
	    (n = reaching_values(t, i, l->reg, values)) < 0)
		return;
	if (!n)
		values[n++] = 0;
	for (k = 0; k < n; k++)
		add_link(t, l->pc, l->reg, INSN_SRC_CONST, (int64_t)values[k], 0);
	c->nalts = (uint8_t)n;
}

/* A static call's new target: a site through the updater's func
 * argument, whose trampoline is the constant its tramp argument holds
 * (that chain is traced, read, and dropped). */
static void add_update(struct tracer *t, size_t i, int k)
{
	struct insn_icalls *ic = t->ic;
	size_t call = ic->ncalls, link;

	add_call(t, i, updaters[k].func);
	ic->calls[call].update = true;
	ic->calls[call].tail = false;
	add_alts(t, &ic->calls[call]);
	link = ic->nlinks;
	t->nlinks = 0;
	trace(t, i, updaters[k].tramp, t->v[i].addr);
	if (ic->links[link].src == INSN_SRC_CONST)
		ic->calls[call].tramp = (uint64_t)ic->links[link].disp;
	ic->nlinks = link;
}

void insn_icalls_pass(struct insn_icalls *ic, const struct sp_elf *e,
		      const struct insn *v, size_t n)
{
	struct tracer t = { .ic = ic, .v = v, .n = n };
	size_t i, call = ic->ncalls, link = ic->nlinks;
	bool indexed = false;
	uint8_t reg;
	int k = -1;

	if (e->arch->id != SP_ARCH_X86_64 || !n)
		return;
	for (i = 0; i < n && v[i].op != INSN_OP_INVALID; i++) {
		bool call_site = indirect_branch(&v[i], &reg);

		if (!call_site && (k = calls_update(ic, &v[i])) < 0 && !insn_icall_store(&v[i]))
			continue;
		/* most of a kernel's functions have nothing to trace: their
		 * jumps are not indexed */
		if (!indexed)
			index_function(ic, v, n);
		indexed = true;
		if (call_site) {
			add_call(&t, i, reg);
			add_ways(&t, ic->ncalls - 1);
		}
		else if (k >= 0)
			add_update(&t, i, k);
		else
			scan_store(&t, e, i);
	}
	if (indexed && ic->table_jumps)
		check_entries(ic, call, link);
}

void insn_icalls_done(struct insn_icalls *ic)
{
	free(ic->pred_first);
	free(ic->preds);
	free(ic->jump_to);
	free(ic->seen);
	free(ic->depth);
	free(ic->sbranch);
	free(ic->falls);
	free(ic->wmask);
	free(ic->stack);
	ic->pred_first = ic->preds = ic->jump_to = ic->seen = ic->stack = NULL;
	ic->depth = NULL;
	ic->sbranch = ic->falls = NULL;
	ic->wmask = NULL;
	ic->scratch_cap = ic->stack_cap = 0;
	memo_release(ic);
}

void insn_icalls_release(struct insn_icalls *ic)
{
	insn_icalls_done(ic);
	free(ic->calls);
	free(ic->stores);
	free(ic->links);
	free(ic->thunks);
	memset(ic, 0, sizeof(*ic));
}
