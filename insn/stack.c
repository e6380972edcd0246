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
 * makes the frame dynamic, the deepest known depth its static part;
 * when a mask bounds the register first (and $0x3ff,%eax; ...; sub
 * %rax,%rsp) the frame is dynamic but bounded, the mask counted.  A
 * stack that grows round a loop is dynamic too, without a bound.  One
 * written in a way this pass does not follow, bytes that do not decode,
 * or a branch into the middle of an instruction give no frame at all:
 * never a guess.
 */
#include "insn/passes.h"

#include <stdlib.h>
#include <string.h>

#include "common/search.h"
#include "common/xalloc.h"

#define MAX_VISITS 8		/* a block entered deeper so often: a growing loop */

#define MAX_SLOTS 4		/* copies of sp saved on the stack at once */

#define MAX_SAVED 4		/* frame slots holding sp at once */

/* A register holding a copy of the stack pointer, pushed: the pop at the
 * same depth gives it back (GCC's DRAP: lea 8(%rsp),%r10; and $-16,%rsp;
 * ... push %r10 ... pop %r10; lea -8(%r10),%rsp). */
struct sp_slot {
	int64_t depth;		/* where it was pushed */
	int64_t val;		/* its reg[] value */
	uint8_t reg;
};

/* A frame slot holding a copy of the stack pointer: where the slot lies
 * below the entry's stack pointer, and the depth the copy is of. */
struct sp_saved {
	int64_t key, depth;
};

struct sp_state {
	int64_t depth;		/* bytes the stack pointer is below the entry's */
	uint32_t known;		/* registers (bit n: DWARF n) holding sp + reg[n] */
	uint32_t conflict;	/* registers two joined paths disagreed on */
	int64_t reg[32];	/* ... as a depth: the register is depth - reg... */
	struct sp_slot slot[MAX_SLOTS];
	uint8_t nslots;
	uint16_t bounded;	/* x86 registers (bit n: DWARF n) at most bound[n] */
	uint64_t bound[16];
	uint32_t derived;	/* registers computed from sp (known's and more):
				 * sp set from one is alloca, not a switch */
	int64_t stored;		/* stored_known: the depth whose sp the code
				 * wrote to memory last (mov %rsp,(%r11)) */
	bool stored_known;
	/* copies of the stack pointer stored in the frame's slots, as GCC
	 * keeps one round a VLA's scope (mov %rsp,-0x50(%rbp); sub
	 * %rdx,%rsp; ...; mov -0x50(%rbp),%rsp) or spills a register
	 * holding one: a load from there gives the copy back */
	struct sp_saved saved[MAX_SAVED];
	uint8_t nsaved;
	bool away;		/* sp is on another stack, depth the one left */
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
	bool unbounded;		/* a move by a register whose value no mask bounds */
	struct insn_stack_res *res;	/* the calls made away go there */
	/* the deepest state at a jump whose target is not known or lies
	 * outside (a jump table, an alternative's detour, a tail call), or
	 * at a nop (a jump label, patched to a jump at run time) */
	struct sp_state out;
	bool has_out;
};

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
	       in->op == INSN_OP_JMP || in->op == INSN_OP_JCC || in->op == INSN_OP_INT3;
}

/* Does control go on to the next instruction? */
static bool falls_through(const struct insn *in)
{
	if (is_call(in) || in->op == INSN_OP_JCC)
		return true;
	if (in->op == INSN_OP_RET || (in->groups & INSN_G_RET) || in->op == INSN_OP_INT3)
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

static bool same_slot(const struct sp_slot *a, const struct sp_slot *b)
{
	return a->depth == b->depth && a->val == b->val && a->reg == b->reg;
}

/* Keep the saved copies both states hold; true when into lost one. */
static bool join_slots(struct sp_state *into, const struct sp_state *s)
{
	uint8_t i, j, n = 0;

	for (i = 0; i < into->nslots; i++) {
		for (j = 0; j < s->nslots && !same_slot(&into->slot[i], &s->slot[j]); j++)
			;
		if (j < s->nslots)
			into->slot[n++] = into->slot[i];
	}
	if (n == into->nslots)
		return false;
	into->nslots = n;
	return true;
}

/*
 * The frame slots either state holds, at the deeper depth where both
 * do; true when into gained one or went deeper.  Either, not both: GCC
 * stores sp in the slot on entering a VLA's scope, and the paths that
 * skip the scope never load it, but they join the paths that do.  Into
 * only gains, so a loop settles.
 */
static bool join_saved(struct sp_state *into, const struct sp_state *s)
{
	bool changed = false;
	uint8_t i, j;

	for (j = 0; j < s->nsaved; j++) {
		for (i = 0; i < into->nsaved && into->saved[i].key != s->saved[j].key; i++)
			;
		if (i == into->nsaved && into->nsaved < MAX_SAVED) {
			into->saved[into->nsaved++] = s->saved[j];
			changed = true;
		} else if (i < into->nsaved && s->saved[j].depth > into->saved[i].depth) {
			into->saved[i].depth = s->saved[j].depth;
			changed = true;
		}
	}
	return changed;
}

/* Keep the bounds both states agree on (a bound that differs is
 * dropped, not widened: a loop cannot grow it turn after turn). */
static bool join_bounds(struct sp_state *into, const struct sp_state *s)
{
	uint16_t both = into->bounded & s->bounded;
	int r;

	for (r = 0; r < 16; r++)
		if ((both >> r) & 1 && into->bound[r] != s->bound[r])
			both &= (uint16_t)~(1u << r);
	if (both == into->bounded)
		return false;
	into->bounded = both;
	return true;
}

/*
 * The copies of sp s holds and into does not know: the code sets sp
 * from one only on the paths where it holds a copy, the others came
 * through a call that does not return (__assert_fail) or skipped the
 * scope that made it.  A register the two disagreed on once stays
 * unknown, so that a loop settles.
 */
static uint32_t join_one_sided(struct sp_state *into, const struct sp_state *s)
{
	uint32_t add = s->known & ~into->known & ~into->conflict;
	int r;

	for (r = 0; r < 32; r++)
		if ((add >> r) & 1)
			into->reg[r] = s->reg[r];
	return add;
}

/* The deeper of two states, a register copy kept where one knows it.
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
	into->conflict |= (into->known & s->known) & ~both;
	both |= (into->known & ~s->known & ~into->conflict) | join_one_sided(into, s);
	if (both != into->known && changed == JOIN_SAME)
		changed = JOIN_CHANGED;
	into->known = both;
	if (join_slots(into, s) && changed == JOIN_SAME)
		changed = JOIN_CHANGED;
	if (join_bounds(into, s) && changed == JOIN_SAME)
		changed = JOIN_CHANGED;
	if (join_saved(into, s) && changed == JOIN_SAME)
		changed = JOIN_CHANGED;
	if ((into->derived & s->derived) != into->derived ||
	    (into->stored_known && (!s->stored_known || s->stored != into->stored))) {
		into->derived &= s->derived;
		into->stored_known = into->stored_known && s->stored_known &&
				     s->stored == into->stored;
		if (changed == JOIN_SAME)
			changed = JOIN_CHANGED;
	}
	return changed;
}

static void enqueue(struct walk *w, size_t b, const struct sp_state *s)
{
	struct block *blk = &w->b[b];
	int changed;

	if (blk->in.reached && blk->in.away != s->away) {
		w->lost = true;		/* on this stack or another: cannot tell */
		return;
	}
	changed = join(&blk->in, s);

	if (changed == JOIN_DEEPER && ++blk->visits > MAX_VISITS) {
		/* deeper at each turn of a loop (libc's __libc_message: an
		 * alloca per argument): no bound, as alloca has none */
		w->dynamic = w->unbounded = true;
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

/*
 * sp set from a register: a copy of sp is the depth it holds; a value
 * computed from sp in a way not followed (clang's alloca: mov %rsp,%rax;
 * sub %rcx,%rax; and $-16,%rax; mov %rax,%rsp) makes the frame dynamic;
 * any other value is another stack (call_on_stack: mov %r11,%rsp).
 */
static void set_sp_from(struct walk *w, struct sp_state *s, uint8_t reg, int64_t off)
{
	if (reg < 32 && ((s->known >> reg) & 1)) {
		s->depth = s->reg[reg] - off;
		s->depth_known = true;
	} else if (reg < 32 && ((s->derived >> reg) & 1)) {
		w->dynamic = w->unbounded = true;	/* the static part goes on */
	} else {
		s->away = true;
	}
}

/* A push at depth replaces what was saved there: a copy of the stack
 * pointer when the pushed register holds one. */
static void push_slot(struct sp_state *s, const struct insn *in)
{
	uint8_t i, n = 0;

	for (i = 0; i < s->nslots; i++)
		if (s->slot[i].depth < s->depth)
			s->slot[n++] = s->slot[i];
	s->nslots = n;
	if (!s->depth_known || !(in->flags & INSN_F_PUSH_REG) || in->reg >= 32 ||
	    !((s->known >> in->reg) & 1))
		return;
	if (n == MAX_SLOTS)
		memmove(s->slot, s->slot + 1, --s->nslots * sizeof(s->slot[0]));
	s->slot[s->nslots++] = (struct sp_slot){ s->depth, s->reg[in->reg], in->reg };
}

/* A pop of the register pushed at this depth gives its copy back. */
static void pop_slot(struct sp_state *s, const struct insn *in, int64_t depth)
{
	uint8_t i;

	for (i = 0; i < s->nslots; i++) {
		if (s->slot[i].depth != depth || s->slot[i].reg != in->reg)
			continue;
		s->reg[in->reg] = s->slot[i].val;
		s->known |= 1u << in->reg;
		return;
	}
}

/* The largest x & mask for x <= bound: each bit of the mask, highest
 * first, that keeps the value within the bound (a higher bit outweighs
 * every lower one). */
static uint64_t masked_max(uint64_t bound, uint64_t mask)
{
	uint64_t r = 0, bit;

	for (bit = (uint64_t)1 << 63; bit; bit >>= 1)
		if ((mask & bit) && (r | bit) <= bound)
			r |= bit;
	return r;
}

/*
 * What the instruction leaves a general register at most, when a mask
 * says so: and $0x3ff,%eax (the kernel's random stack offset,
 * KSTACK_OFFSET_MAX), then add $15 and a copy.  False when it writes
 * none that way.
 */
static bool bound_of(const struct sp_state *s, const struct insn *in, uint64_t *out)
{
	bool imm = (in->flags & (INSN_F_IMM | INSN_F_MEM)) == INSN_F_IMM;

	if (in->reg >= 16 || in->imm < 0)
		return false;
	if (in->op == INSN_OP_AND && imm) {
		*out = (s->bounded >> in->reg) & 1 ? masked_max(s->bound[in->reg], (uint64_t)in->imm) :
						     (uint64_t)in->imm;
		return true;
	}
	if (in->op == INSN_OP_ADD && imm && (s->bounded >> in->reg) & 1) {
		*out = s->bound[in->reg] + (uint64_t)in->imm;
		return *out >= s->bound[in->reg];
	}
	if (in->op == INSN_OP_MOV && !(in->flags & (INSN_F_IMM | INSN_F_MEM)) &&
	    in->reg2 < 16 && (s->bounded >> in->reg2) & 1) {
		*out = s->bound[in->reg2];
		return true;
	}
	return false;
}

static void track_bounds(struct sp_state *s, const struct insn *in)
{
	uint64_t b;
	bool bounded = bound_of(s, in, &b);

	s->bounded &= (uint16_t)~in->wregs;
	if (!bounded)
		return;
	s->bound[in->reg] = b;
	s->bounded |= (uint16_t)(1u << in->reg);
}

/* sub %rax,%rsp: alloca.  Bounded by what a mask left in %rax, the
 * stack is that much deeper at worst; else the frame has no bound and
 * the depth followed on is its static part (the alloca counted 0): a
 * copy of sp taken after it (mov %rsp,%r12; ...; mov %r12,%rsp) then
 * still tells the depth the code goes back to. */
static void alloca_by(struct walk *w, struct sp_state *s, const struct insn *in)
{
	w->dynamic = true;
	if (in->op == INSN_OP_SUB && in->reg2 < 16 && (s->bounded >> in->reg2) & 1) {
		s->depth += (int64_t)s->bound[in->reg2];
		return;
	}
	w->unbounded = true;
}

/* The register an arithmetic on a value computed from sp writes stays
 * computed from sp (bit set), as does a copy of one or a lea on one. */
static uint32_t still_derived(const struct walk *w, const struct sp_state *s,
			      const struct insn *in)
{
	uint32_t from = s->derived | s->known | 1u << w->regs.sp;
	bool arith = in->op == INSN_OP_ADD || in->op == INSN_OP_SUB || in->op == INSN_OP_AND;

	if (in->reg >= 32 || (in->flags & INSN_F_MEM && in->op != INSN_OP_LEA))
		return 0;
	if (arith && (from >> in->reg) & 1)
		return 1u << in->reg;
	if (in->op == INSN_OP_MOV && !(in->flags & INSN_F_IMM) && in->reg2 < 32 &&
	    (from >> in->reg2) & 1)
		return 1u << in->reg;
	if (in->op == INSN_OP_LEA && in->base < 32 && (from >> in->base) & 1)
		return 1u << in->reg;
	return 0;
}

/* mov %rsp,(%r11), mov %rsp,%gs:saved: sp kept in memory, where a
 * switch back finds it. */
static bool stores_sp(const struct walk *w, const struct insn *in)
{
	return in->op == INSN_OP_MOV && in->reg == INSN_REG_NONE && in->reg2 == w->regs.sp;
}

/* Where the memory operand lies below the entry's stack pointer, when
 * its base is a copy of sp (or sp itself) at a known depth. */
static bool frame_slot(const struct walk *w, const struct sp_state *s, const struct insn *in,
		       int64_t *key)
{
	if (!(in->flags & INSN_F_MEM) || in->index != INSN_REG_NONE || in->base >= 32)
		return false;
	if (in->base == w->regs.sp && s->depth_known)
		*key = s->depth - in->disp;
	else if ((s->known >> in->base) & 1)
		*key = s->reg[in->base] - in->disp;
	else
		return false;
	return true;
}

/* The frame slot at key forgotten, if sp was stored there. */
static void forget_saved(struct sp_state *s, int64_t key)
{
	uint8_t i, n = 0;

	for (i = 0; i < s->nsaved; i++)
		if (s->saved[i].key != key)
			s->saved[n++] = s->saved[i];
	s->nsaved = n;
}

/*
 * A store into the frame: a copy of sp kept in a slot (sp itself, or a
 * register holding one: mov %rbx,-0xa0(%rbp)), or the slot overwritten.
 * A load from such a slot into a register gives the copy back.
 */
static void track_saved(const struct walk *w, struct sp_state *s, const struct insn *in)
{
	int64_t key, val;
	uint8_t i;

	if (in->op != INSN_OP_MOV || !frame_slot(w, s, in, &key))
		return;
	if (in->reg < 32 && in->reg != w->regs.sp) {
		for (i = 0; i < s->nsaved && s->saved[i].key != key; i++)
			;
		if (i < s->nsaved) {
			s->reg[in->reg] = s->saved[i].depth;
			s->known |= 1u << in->reg;
		}
		return;
	}
	if (in->reg != INSN_REG_NONE)
		return;
	forget_saved(s, key);
	if (stores_sp(w, in) && s->depth_known)
		val = s->depth;
	else if (in->reg2 < 32 && (s->known >> in->reg2) & 1)
		val = s->reg[in->reg2];
	else
		return;
	if (s->nsaved == MAX_SAVED)
		memmove(s->saved, s->saved + 1, --s->nsaved * sizeof(s->saved[0]));
	s->saved[s->nsaved++] = (struct sp_saved){ key, val };
}

/* mov -0x50(%rbp),%rsp: back to the depth sp had when stored there. */
static bool load_saved(const struct walk *w, struct sp_state *s, const struct insn *in)
{
	int64_t key;
	uint8_t i;

	if (in->op != INSN_OP_MOV || !frame_slot(w, s, in, &key))
		return false;
	for (i = 0; i < s->nsaved; i++)
		if (s->saved[i].key == key) {
			s->depth = s->saved[i].depth;
			s->depth_known = true;
			return true;
		}
	return false;
}

static void note_switched_call(struct walk *w, const struct insn *in)
{
	struct insn_stack_res *r = w->res;

	SP_ALLOC_GROW(r->switched, r->nswitched + 1, r->switched_cap);
	r->switched[r->nswitched++] = in->addr + in->len;
}

/*
 * On another stack: what moves sp moves that stack, and a call runs
 * there (a stack switch, not a call on this stack).  A copy of sp this
 * stack kept (mov %rbp,%rsp; leave), or the sp it stored in memory
 * loaded back (pop %rsp after mov %rsp,(%r11)), returns to this stack at
 * that depth.
 */
static void step_away(struct walk *w, const struct insn *in, struct sp_state *s)
{
	uint8_t fp = w->regs.fp;

	if (is_call(in)) {
		note_switched_call(w, in);
		s->known &= ~w->call_clobbers;
		s->derived &= ~w->call_clobbers;
	}
	if (in->stack == INSN_STACK_FROM_REG && in->sbase < 32 && (s->known >> in->sbase) & 1) {
		s->depth = s->reg[in->sbase] - in->sp_off;
		s->away = false;
	} else if (in->stack == INSN_STACK_LEAVE && (s->known >> fp) & 1) {
		s->depth = s->reg[fp] - in->sp_off;
		s->away = false;
	} else if (in->stack == INSN_STACK_LOAD && s->stored_known) {
		s->depth = s->stored;
		s->away = false;
	}
	s->known &= ~in->wregs;
	s->derived &= ~in->wregs;
	s->bounded &= (uint16_t)~in->wregs;
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
	int64_t before = s->depth;

	if (s->away) {
		step_away(w, in, s);
		return;
	}
	switch (in->stack) {
	case INSN_STACK_PUSH:
		s->depth += in->sp_off;
		push_slot(s, in);
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
		alloca_by(w, s, in);
		break;
	case INSN_STACK_LOAD:
		s->away = !load_saved(w, s, in);
		break;
	case INSN_STACK_OTHER:
		s->depth_known = false;
		break;
	}
	/* what it writes loses what the register held, but a copy of sp */
	track_bounds(s, in);
	s->derived = (s->derived & ~(uint32_t)in->wregs) | still_derived(w, s, in);
	s->known &= ~in->wregs;
	s->conflict &= ~(uint32_t)in->wregs;
	if (in->groups & INSN_G_CALL) {
		s->known &= ~w->call_clobbers;
		s->derived &= ~w->call_clobbers;
	}
	if (in->stack == INSN_STACK_ENTER)
		s->known |= 1u << fp;
	if (in->stack == INSN_STACK_POP && in->reg < 32 && s->depth_known)
		pop_slot(s, in, before);
	if (in->fp == INSN_FP_FROM_SP && in->dst < 32 && s->depth_known && !s->away) {
		s->reg[in->dst] = s->depth - in->fp_off;
		s->known |= 1u << in->dst;
	}
	track_saved(w, s, in);
	s->derived |= s->known;
	if (stores_sp(w, in) && s->depth_known) {
		s->stored = s->depth;
		s->stored_known = true;
	}
	if (s->away)
		return;
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

/*
 * A jump away or a nop: a block no branch reaches may be entered from
 * there.  The deepest such state is kept whole, registers and all: a
 * jump label's nop inside a frame-pointer frame knows %rbp, where the
 * returns that jump away (jmp __x86_return_thunk) after leave do not,
 * and a join of the two would lose the frame pointer the block needs.
 */
static void keep_deepest(struct walk *w, const struct sp_state *s)
{
	if (s->away)
		return;		/* a jump on another stack */
	if (!w->out.reached || s->depth > w->out.depth)
		w->out = *s;
	else if (s->depth == w->out.depth)
		join(&w->out, s);
	w->has_out = true;
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
			keep_deepest(w, &s);
		}
		step(w, last, i + 1 < w->b[b].end ? &w->v[i + 1] : NULL, &s);
		/* an unknown depth loses the frame, unless alloca made it so */
		if (!s.depth_known && last->stack != INSN_STACK_BY_REG && !w->unbounded)
			w->lost = true;
	}
	if (!last || w->lost)
		return;
	w->b[b].out = s;
	if (jumps_away(w, last)) {
		keep_deepest(w, &s);
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

/*
 * Nops no branch reaches after a return or a jump, up to an aligned
 * block: the alignment of the code that follows, which nothing runs.
 * Entered with the deepest state, they would carry it into that code
 * (the VLA's depth of a nop inside its scope, into glibc's __check_pf
 * at large).
 */
static bool padding(const struct walk *w, size_t b)
{
	size_t i;

	if (falls_through(&w->v[w->b[b - 1].end - 1]) || b + 1 >= w->nb ||
	    w->v[w->b[b + 1].first].addr % 8)
		return false;
	for (i = w->b[b].first; i < w->b[b].end; i++)
		if (w->v[i].op != INSN_OP_NOP)
			return false;
	return true;
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

		if (w->b[b].in.reached || padding(w, b))
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
	uint8_t ret = sp_arch(machine)->ret_push;
	int64_t depth = ret && w->calls ? w->max_held : w->max_depth;

	return (uint64_t)depth + ret;
}

bool insn_stack_frame(const struct insn *v, size_t n, uint16_t machine, uint64_t start,
		      uint64_t end, struct insn_stack_res *out)
{
	struct walk w = { .v = v, .n = n, .start = start, .end = end, .res = out };
	struct sp_state entry = { .reached = true, .depth_known = true };
	bool ok;


	if (!n || !insn_machine_regs(machine, &w.regs))
		return false;
	w.call_clobbers = sp_arch(machine)->caller_saved;
	ok = find_blocks(&w);
	if (ok) {
		w.queue = sp_xmalloc(w.nb * sizeof(*w.queue) + 1);
		enqueue(&w, 0, &entry);
		drain(&w);
		reach_the_rest(&w);
		free(w.queue);
	}
	free(w.b);
	if (!ok || w.lost) {
		out->nswitched = 0;
		return false;
	}
	out->frame = frame_of(&w, machine);
	out->dynamic = w.dynamic;
	out->bounded = w.dynamic && !w.unbounded;
	return true;
}
