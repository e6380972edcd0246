/*
 * stack.c - a function's frame read from its code, where .su has none.
 *
 * The stack pointer is followed from the entry through every path of
 * the function: pushes and pops, sub/add of a constant, lea, and $-N
 * (the worst alignment padding counted), enter/leave, and copies to and
 * from other registers (mov %rsp,%rbp then sub $N,%rsp, as checkstack.pl
 * reads a frame; mov x29, sp; add r7, sp, #0).  The basic blocks are
 * visited from the entry in the order the branches reach them, each
 * entered with the deepest state a predecessor brings; a jump-table
 * jump's targets are not known, so blocks no branch reaches start with
 * the deepest state such a jump had.  The frame is the deepest the
 * stack pointer goes, in .su's convention (the return address counted
 * on x86, where the call pushed it).
 *
 * A stack pointer moved by a register's value (sub %rax,%rsp: alloca)
 * makes the frame dynamic, the deepest known depth its static part.  One
 * written in a way this pass does not follow, a stack that grows round a
 * loop, bytes that do not decode, or a branch into the middle of an
 * instruction give no frame at all: never a guess.
 */
#include "insn/passes.h"

#include <stdlib.h>

#include "common/search.h"
#include "common/xalloc.h"

#define MAX_VISITS 8		/* a block entered deeper so often: a growing loop */

struct sp_state {
	int64_t depth;		/* bytes the stack pointer is below the entry's */
	uint32_t known;		/* registers (bit n: DWARF n) holding sp + reg[n] */
	int64_t reg[32];	/* ... as a depth: the register is depth - reg... */
	bool reached, depth_known;
};

struct block {
	size_t first, end;	/* instructions [first, end) */
	struct sp_state in, out;	/* at its start, and at its end */
	uint8_t visits;
	bool queued;
};

struct walk {
	const struct insn *v;
	size_t n;
	uint64_t start, end;
	struct insn_regs regs;
	uint32_t call_clobbers;	/* registers a call may change */
	struct block *b;
	size_t nb;
	size_t *queue;
	size_t nq;
	int64_t max_depth;	/* the deepest anywhere */
	int64_t max_held;	/* ... but for a push the next instruction pops */
	bool calls, dynamic, lost;
	/* the deepest state at a jump whose target is not known or lies
	 * outside (a jump table, an alternative's detour, a tail call), or
	 * at a nop (a jump label, patched to a jump at run time) */
	struct sp_state out;
	bool has_out;
};

/* Registers the calling convention lets a callee change. */
static uint32_t caller_saved(uint16_t machine)
{
	switch (machine) {
	case EM_X86_64:	/* rax rdx rcx rsi rdi r8-r11 */
		return 0x0f37u;
	case EM_386:	/* eax ecx edx */
		return 0x7u;
	case EM_AARCH64: /* x0-x18, x30 */
		return 0x4007ffffu;
	case EM_ARM:	/* r0-r3, r12, lr */
		return 0x500fu;
	}
	return UINT32_MAX;
}

static uint64_t insn_addr(const void *base, size_t i)
{
	return ((const struct insn *)base)[i].addr;
}

/* The instruction at addr, or SIZE_MAX when none starts there. */
static size_t index_at(const struct walk *w, uint64_t addr)
{
	size_t i = sp_search_first_ge(w->v, w->n, insn_addr, addr);

	return i < w->n && w->v[i].addr == addr ? i : SIZE_MAX;
}

static bool inside(const struct walk *w, uint64_t addr)
{
	return addr >= w->start && addr < w->end;
}

/* A call returns to the next instruction (capstone puts ARM's bl in the
 * jump group too). */
static bool is_call(const struct insn *in)
{
	return (in->groups & INSN_G_CALL) || in->op == INSN_OP_CALL;
}

/* A jump, conditional or not, to a known target. */
static bool jumps_to(const struct insn *in)
{
	return !is_call(in) && (in->flags & INSN_F_TARGET) && (in->groups & INSN_G_JUMP);
}

static bool ends_block(const struct insn *in)
{
	if (is_call(in))
		return false;
	return (in->groups & (INSN_G_JUMP | INSN_G_RET)) || in->op == INSN_OP_RET ||
	       in->op == INSN_OP_JMP || in->op == INSN_OP_JCC;
}

/* Does control go on to the next instruction? */
static bool falls_through(const struct insn *in)
{
	if (is_call(in) || in->op == INSN_OP_JCC)
		return true;
	if (in->op == INSN_OP_RET || (in->groups & INSN_G_RET))
		return false;
	return !(in->groups & INSN_G_JUMP) && in->op != INSN_OP_JMP;
}

/* Block leaders: the entry, every branch target inside, every
 * instruction after a branch.  False on a branch into an instruction. */
static bool find_blocks(struct walk *w)
{
	uint8_t *leader = sp_xcalloc(w->n + 1, 1);
	size_t i, k = 0;
	bool ok = true;

	leader[0] = 1;
	for (i = 0; i < w->n && ok; i++) {
		const struct insn *in = &w->v[i];

		if (ends_block(in))
			leader[i + 1] = 1;
		if (jumps_to(in) && inside(w, (uint64_t)in->imm)) {
			size_t t = index_at(w, (uint64_t)in->imm);

			ok = t != SIZE_MAX;
			if (ok)
				leader[t] = 1;
		}
	}
	for (i = 0; ok && i < w->n; i++)
		w->nb += leader[i];
	w->b = sp_xcalloc(w->nb ? w->nb : 1, sizeof(*w->b));
	for (i = 0; ok && i < w->n; i++) {
		if (!leader[i])
			continue;
		if (k)
			w->b[k - 1].end = i;
		w->b[k++].first = i;
	}
	if (ok && k)
		w->b[k - 1].end = w->n;
	free(leader);
	return ok;
}

static uint64_t block_first(const void *base, size_t i)
{
	return ((const struct block *)base)[i].first;
}

static size_t block_of(const struct walk *w, size_t insn)
{
	return sp_search_last_le(w->b, w->nb, block_first, insn);
}

/* The deeper of two states, a register copy kept where both agree.
 * Returns what changed: JOIN_DEEPER when the depth grew (a loop that
 * grows the stack grows it at every turn), JOIN_CHANGED when less is
 * known (which can happen only so often). */
enum { JOIN_SAME, JOIN_CHANGED, JOIN_DEEPER };

static int join(struct sp_state *into, const struct sp_state *s)
{
	uint32_t both;
	int changed;
	int r;

	if (!into->reached) {
		*into = *s;
		return JOIN_CHANGED;
	}
	changed = s->depth > into->depth ? JOIN_DEEPER :
		  into->depth_known && !s->depth_known ? JOIN_CHANGED : JOIN_SAME;
	into->depth_known = into->depth_known && s->depth_known;
	if (s->depth > into->depth)
		into->depth = s->depth;
	both = into->known & s->known;
	for (r = 0; r < 32; r++)
		if ((both >> r) & 1 && into->reg[r] != s->reg[r])
			both &= ~(1u << r);
	if (both != into->known && changed == JOIN_SAME)
		changed = JOIN_CHANGED;
	into->known = both;
	return changed;
}

static void enqueue(struct walk *w, size_t b, const struct sp_state *s)
{
	struct block *blk = &w->b[b];
	int changed = join(&blk->in, s);

	if (changed == JOIN_DEEPER && ++blk->visits > MAX_VISITS) {
		w->lost = true;		/* deeper at each turn of a loop */
		return;
	}
	if (changed == JOIN_SAME || blk->queued)
		return;
	blk->queued = true;
	w->queue[w->nq++] = b;
}

/* The worst bytes `and $-N` takes off: all but the word the stack pointer
 * is known to be aligned to. */
static int64_t align_padding(const struct walk *w, int32_t mask)
{
	int64_t n = -(int64_t)mask;

	return n > w->regs.word ? n - w->regs.word : 0;
}

static void set_sp_from(struct walk *w, struct sp_state *s, uint8_t reg, int64_t off)
{
	(void)w;
	if (reg < 32 && ((s->known >> reg) & 1)) {
		s->depth = s->reg[reg] - off;
		s->depth_known = true;
	} else {
		s->depth_known = false;
	}
}

/* A push the very next instruction pops (an inline asm's pushf; pop):
 * no call can run on top of it. */
static bool popped_at_once(const struct insn *in, const struct insn *next)
{
	return in->stack == INSN_STACK_PUSH && next && next->stack == INSN_STACK_POP &&
	       next->sp_off == in->sp_off;
}

/* One instruction's effect on the stack pointer and its copies; next is
 * the instruction after it in the block, NULL at its end. */
static void step(struct walk *w, const struct insn *in, const struct insn *next,
		 struct sp_state *s)
{
	uint8_t fp = w->regs.fp;

	switch (in->stack) {
	case INSN_STACK_PUSH:
		s->depth += in->sp_off;
		break;
	case INSN_STACK_POP:
		s->depth -= in->sp_off;
		break;
	case INSN_STACK_ADD:
		s->depth += in->sp_off;
		break;
	case INSN_STACK_FROM_SP:
		s->depth -= in->sp_off;
		break;
	case INSN_STACK_FROM_REG:
		set_sp_from(w, s, in->sbase, in->sp_off);
		break;
	case INSN_STACK_LEAVE:	/* mov %rbp,%rsp; pop %rbp */
		set_sp_from(w, s, fp, 0);
		s->depth -= in->sp_off;
		break;
	case INSN_STACK_ENTER:	/* push %rbp; mov %rsp,%rbp; sub $N,%rsp */
		s->depth += w->regs.word;
		s->reg[fp] = s->depth;
		s->known |= 1u << fp;
		s->depth += in->sp_off;
		break;
	case INSN_STACK_ALIGN:
		s->depth += align_padding(w, in->sp_off);
		break;
	case INSN_STACK_BY_REG:
		w->dynamic = true;
		s->depth_known = false;
		break;
	case INSN_STACK_OTHER:
		s->depth_known = false;
		break;
	}
	/* what it writes loses what the register held, but a copy of sp */
	s->known &= ~in->wregs;
	if (in->groups & INSN_G_CALL)
		s->known &= ~w->call_clobbers;
	if (in->stack == INSN_STACK_ENTER)
		s->known |= 1u << fp;
	if (in->fp == INSN_FP_FROM_SP && in->dst < 32 && s->depth_known) {
		s->reg[in->dst] = s->depth - in->fp_off;
		s->known |= 1u << in->dst;
	}
	if (s->depth_known && s->depth > w->max_depth)
		w->max_depth = s->depth;
	if (s->depth_known && s->depth > w->max_held && !popped_at_once(in, next))
		w->max_held = s->depth;
	if (is_call(in))
		w->calls = true;
}

/* A jump that may come back: through a table or a register, or out of
 * the function (the kernel's alternatives detour through another section
 * and jump back to the instruction after). */
static bool jumps_away(const struct walk *w, const struct insn *in)
{
	if (!(in->groups & INSN_G_JUMP) || in->op == INSN_OP_JCC || is_call(in))
		return false;
	return !(in->flags & INSN_F_TARGET) || !inside(w, (uint64_t)in->imm);
}

static void run_block(struct walk *w, size_t b)
{
	struct sp_state s = w->b[b].in;
	const struct insn *last = NULL;
	size_t i;

	for (i = w->b[b].first; i < w->b[b].end && !w->lost; i++) {
		last = &w->v[i];
		if (last->op == INSN_OP_INVALID) {
			w->lost = true;	/* what follows cannot be read */
			return;
		}
		if (last->op == INSN_OP_NOP) {
			join(&w->out, &s);
			w->has_out = true;
		}
		step(w, last, i + 1 < w->b[b].end ? &w->v[i + 1] : NULL, &s);
		/* an unknown depth loses the frame, unless alloca made it so */
		if (!s.depth_known && last->stack != INSN_STACK_BY_REG && !w->dynamic)
			w->lost = true;
	}
	if (!last || w->lost)
		return;
	w->b[b].out = s;
	if (jumps_away(w, last)) {
		join(&w->out, &s);
		w->has_out = true;
	}
	if (jumps_to(last) && inside(w, (uint64_t)last->imm))
		enqueue(w, block_of(w, index_at(w, (uint64_t)last->imm)), &s);
	if (falls_through(last) && b + 1 < w->nb)
		enqueue(w, b + 1, &s);
}

static void drain(struct walk *w)
{
	while (w->nq && !w->lost) {
		size_t b = w->queue[--w->nq];

		w->b[b].queued = false;
		run_block(w, b);
	}
}

static const struct sp_state *deeper(const struct sp_state *a, const struct sp_state *b)
{
	if (!a->reached)
		return b;
	return b->reached && b->depth > a->depth ? b : a;
}

/* Blocks no branch reached may be a jump table's targets, where an
 * alternative's detour comes back, or what a jump label (a nop in the
 * file, a jump once patched) leads to: they are entered with the deeper
 * of the state the block before them ended in and the deepest state a
 * jump away or a nop had.  Padding after a return comes to no harm that
 * way. */
static void reach_the_rest(struct walk *w)
{
	size_t b;

	for (b = 1; b < w->nb && !w->lost; b++) {
		struct sp_state s;

		if (w->b[b].in.reached)
			continue;
		s = *deeper(&w->b[b - 1].out, &w->out);
		if (!s.reached)
			s = w->b[0].in;
		enqueue(w, b, &s);
		drain(w);
	}
}

/*
 * The frame in .su's convention: x86's call pushed the return address,
 * which .su counts.  A push the next instruction pops is left out of the
 * frame of a function that calls: a total adds the deepest callee's
 * (its own return address at least, a word) to the frame, which covers
 * that word.  A function that calls nothing keeps it.
 */
static uint64_t frame_of(const struct walk *w, uint16_t machine)
{
	bool x86 = machine == EM_X86_64 || machine == EM_386;
	int64_t depth = x86 && w->calls ? w->max_held : w->max_depth;

	return (uint64_t)depth + (x86 ? w->regs.word : 0);
}

bool insn_stack_frame(const struct insn *v, size_t n, uint16_t machine, uint64_t start,
		      uint64_t end, uint64_t *frame, bool *dynamic)
{
	struct walk w = { .v = v, .n = n, .start = start, .end = end };
	struct sp_state entry = { .reached = true, .depth_known = true };
	bool ok;


	if (!n || !insn_machine_regs(machine, &w.regs))
		return false;
	w.call_clobbers = caller_saved(machine);
	ok = find_blocks(&w);
	if (ok) {
		w.queue = sp_xmalloc(w.nb * sizeof(*w.queue) + 1);
		enqueue(&w, 0, &entry);
		drain(&w);
		reach_the_rest(&w);
		free(w.queue);
	}
	free(w.b);
	if (!ok || w.lost)
		return false;
	*frame = frame_of(&w, machine);
	*dynamic = w.dynamic;
	return true;
}
