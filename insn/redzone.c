/*
 * redzone.c - the x86-64 red zone: stack a leaf uses without moving %rsp.
 *
 * The SysV x86-64 ABI lets a function that calls nothing keep up to 128
 * bytes below %rsp, and GCC does: at -O0 a leaf stores its arguments and
 * locals at -N(%rbp) after "push %rbp; mov %rsp,%rbp", at -O2 at -N(%rsp).
 * Neither .su nor CFI counts those bytes, so a sum of frames would be
 * short by them.  This pass follows %rsp through a leaf from its entry
 * (push, pop, sub/add of a constant, lea, leave, mov %rsp,%rbp): each
 * memory operand based on %rsp, or on %rbp while %rbp holds a known
 * %rsp, touches a byte at a known depth below the entry.  The red zone is
 * how far the deepest touched byte lies below the deepest %rsp, which the
 * frame already counts.  An indexed operand ([rbp + rax*4 - 0x30]) is
 * taken at its displacement: arrays are indexed upwards.  An address
 * lea computes from %rsp or %rbp counts as touched (it is there to be
 * used through another register, which is not followed).  Only leaves
 * are scanned: GCC keeps nothing below %rsp in a function that calls.
 *
 * Code built with -mno-red-zone (the Linux kernel, where interrupts write
 * below %rsp) has none: the caller decides from DW_AT_producer whether
 * an image's red zones count.
 */
#include "insn/passes.h"

#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"

enum { RSP = 7, RBP = 6 };	/* DWARF's x86-64 numbers */

struct rz_state {
	int64_t depth;		/* bytes %rsp is below the entry %rsp */
	int64_t rbp_depth;	/* ... and %rbp, when rbp_known */
	bool depth_known, rbp_known;
};

struct rz_mark {		/* the state a forward branch brings to target */
	uint64_t target;
	struct rz_state st;
};

struct rz_walk {
	struct rz_state st, body;	/* body: the state before the last epilogue */
	bool in_epilogue, after_exit;
	int64_t max_depth;	/* deepest known %rsp */
	int64_t max_touch;	/* deepest byte touched, from the entry %rsp */
	int64_t blind;		/* deepest byte below an unknown %rsp */
	struct rz_mark *marks;
	size_t nmarks, marks_cap;
};

static void note_depth(struct rz_walk *w)
{
	if (w->st.depth_known && w->st.depth > w->max_depth)
		w->max_depth = w->st.depth;
}

/* A byte touched at disp from base (%rsp or %rbp). */
static void touch(struct rz_walk *w, uint8_t base, int64_t disp)
{
	int64_t at;

	if (base == RSP) {
		if (!w->st.depth_known) {
			if (-disp > w->blind)
				w->blind = -disp;
			return;
		}
		at = w->st.depth - disp;
	} else if (base == RBP && w->st.rbp_known) {
		at = w->st.rbp_depth - disp;
	} else {
		return;
	}
	if (at > w->max_touch)
		w->max_touch = at;
}

/* How an instruction moves %rsp; false when the move is not one this
 * pass follows. */
static bool rsp_move(const struct insn *in, struct rz_state *s)
{
	switch (in->stack) {
	case INSN_STACK_PUSH:
		s->depth += 8;
		return true;
	case INSN_STACK_POP:
		s->depth -= 8;
		return true;
	case INSN_STACK_ADD:
		s->depth += in->sp_off;
		return true;
	case INSN_STACK_FROM_SP:
		s->depth -= in->sp_off;
		return true;
	case INSN_STACK_FROM_FP:	/* lea -N(%rbp),%rsp; mov %rbp,%rsp */
		if (!s->rbp_known)
			return false;
		s->depth = s->rbp_depth - in->sp_off;
		return true;
	case INSN_STACK_LEAVE:		/* mov %rbp,%rsp; pop %rbp */
		if (!s->rbp_known)
			return false;
		s->depth = s->rbp_depth - 8;
		return true;
	}
	return false;
}

static void track_rsp(struct rz_walk *w, const struct insn *in)
{
	if (!(in->flags & INSN_F_WRITES_SP))
		return;
	if (!rsp_move(in, &w->st))
		w->st.depth_known = false;
	note_depth(w);
}

static void track_rbp(struct rz_walk *w, const struct insn *in)
{
	if (in->op == INSN_OP_LEAVE) {
		w->st.rbp_known = false;
		return;
	}
	if (!(in->flags & INSN_F_WRITES_FP))
		return;
	/* mov %rsp,%rbp: the frame pointer holds a known depth */
	w->st.rbp_known = in->op == INSN_OP_MOV && in->fp == INSN_FP_FROM_SP &&
			  w->st.depth_known;
	w->st.rbp_depth = w->st.depth;
}

static bool is_epilogue(const struct insn *in)
{
	return in->op == INSN_OP_POP || in->op == INSN_OP_LEAVE || in->op == INSN_OP_ADD;
}

/*
 * Code after a ret or jmp is reached by a branch: it starts with the
 * state a forward branch to it carried, else (duplicated epilogues) with
 * the state the function body had before the last epilogue.
 */
static void resume(struct rz_walk *w, uint64_t addr)
{
	size_t i;

	w->st = w->body;
	for (i = 0; i < w->nmarks; i++)
		if (w->marks[i].target == addr)
			w->st = w->marks[i].st;
}

static void branch(struct rz_walk *w, const struct insn *in, uint64_t end)
{
	struct rz_mark *m;

	if (!(in->flags & INSN_F_TARGET) || (uint64_t)in->imm <= in->addr ||
	    (uint64_t)in->imm >= end)
		return;
	SP_ALLOC_GROW(w->marks, w->nmarks + 1, w->marks_cap);
	m = &w->marks[w->nmarks++];
	m->target = (uint64_t)in->imm;
	m->st = w->st;
}

/* One instruction; false when it is a call (not a leaf). */
static bool step(struct rz_walk *w, const struct insn *in, uint64_t end)
{
	if (in->groups & INSN_G_CALL)
		return false;
	if (w->after_exit)
		resume(w, in->addr);
	w->after_exit = false;
	if (is_epilogue(in) && !w->in_epilogue)
		w->body = w->st;
	w->in_epilogue = is_epilogue(in);
	/* a multi-byte nop touches nothing; an address computed below %rsp
	 * (lea -0x40(%rsp),%rdi) is taken as used: it is passed on to be */
	if ((in->flags & INSN_F_MEM) && in->op != INSN_OP_NOP)
		touch(w, in->base, in->disp);
	track_rsp(w, in);
	track_rbp(w, in);
	if (in->groups & INSN_G_JUMP)
		branch(w, in, end);
	if ((in->groups & INSN_G_RET) || in->op == INSN_OP_JMP)
		w->after_exit = true;
	return true;
}

bool insn_red_zone(const struct insn *v, size_t n, uint64_t end, uint32_t *red_zone)
{
	struct rz_walk w;
	int64_t extra;
	bool leaf = true;
	size_t i;

	memset(&w, 0, sizeof(w));
	w.st.depth_known = true;
	w.body = w.st;
	*red_zone = 0;
	for (i = 0; i < n && leaf; i++) {
		/* bytes it cannot read: no claim either way */
		if (v[i].op == INSN_OP_INVALID) {
			free(w.marks);
			return false;
		}
		leaf = step(&w, &v[i], end);
	}
	free(w.marks);
	if (!leaf)
		return false;
	extra = w.max_touch - w.max_depth;
	if (w.blind > extra)
		extra = w.blind;
	if (extra > 0)
		*red_zone = extra > (int64_t)UINT32_MAX ? UINT32_MAX : (uint32_t)extra;
	return true;
}
