/*
 * redzone.c - the x86-64 red zone: stack a leaf uses without moving %rsp.
 *
 * The SysV x86-64 ABI lets a function that calls nothing keep up to 128
 * bytes below %rsp, and GCC does: at -O0 a leaf stores its arguments and
 * locals at -N(%rbp) after "push %rbp; mov %rsp,%rbp", at -O2 at -N(%rsp).
 * Neither .su nor CFI counts those bytes, so a sum of frames would be
 * short by them.  This pass decodes every leaf and follows %rsp from the
 * entry (push, pop, sub/add of a constant, lea, leave, mov %rsp,%rbp):
 * each memory operand based on %rsp, or on %rbp while %rbp holds a known
 * %rsp, touches a byte at a known depth below the entry.  The red zone is
 * how far the deepest touched byte lies below the deepest %rsp, which the
 * frame already counts.  An indexed operand ([rbp + rax*4 - 0x30]) is
 * taken at its displacement: arrays are indexed upwards.  An address
 * lea computes from %rsp or %rbp counts as touched (it is there to be
 * used through another register, which is not followed).  Only leaves
 * are scanned: GCC keeps nothing below %rsp in a function that calls.
 *
 * Code built with -mno-red-zone (the Linux kernel, where interrupts write
 * below %rsp) has none: when any compile unit of an image says so in
 * DW_AT_producer, the pass skips the whole image, its assembly included.
 */
#include "callgraph/internal.h"

#include <string.h>

#include "common/xalloc.h"

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

static bool is_reg(const cs_x86_op *op, x86_reg r)
{
	return op->type == X86_OP_REG && op->reg == r;
}

static bool writes_reg(csh cs, const cs_insn *in, x86_reg r)
{
	cs_regs rd, wr;
	uint8_t nrd, nwr, i;

	if (cs_regs_access(cs, in, rd, &nrd, wr, &nwr) != CS_ERR_OK)
		return true;	/* cannot tell: assume the worst */
	for (i = 0; i < nwr; i++)
		if (wr[i] == r)
			return true;
	return false;
}

static void note_depth(struct rz_walk *w)
{
	if (w->st.depth_known && w->st.depth > w->max_depth)
		w->max_depth = w->st.depth;
}

/* A byte touched at disp from base (rsp or rbp). */
static void touch(struct rz_walk *w, x86_reg base, int64_t disp)
{
	int64_t at;

	if (base == X86_REG_RSP) {
		if (!w->st.depth_known) {
			if (-disp > w->blind)
				w->blind = -disp;
			return;
		}
		at = w->st.depth - disp;
	} else if (base == X86_REG_RBP && w->st.rbp_known) {
		at = w->st.rbp_depth - disp;
	} else {
		return;
	}
	if (at > w->max_touch)
		w->max_touch = at;
}

static void memory_operands(struct rz_walk *w, const cs_insn *in)
{
	const cs_x86 *x = &in->detail->x86;
	uint8_t i;

	/* a multi-byte nop touches nothing; an address computed below %rsp
	 * (lea -0x40(%rsp),%rdi) is taken as used: it is passed on to be */
	if (in->id == X86_INS_NOP)
		return;
	for (i = 0; i < x->op_count; i++)
		if (x->operands[i].type == X86_OP_MEM &&
		    x->operands[i].mem.segment == X86_REG_INVALID)
			touch(w, x->operands[i].mem.base, x->operands[i].mem.disp);
}

/* How an instruction moves %rsp; false when it writes %rsp otherwise. */
static bool rsp_move(const cs_insn *in, struct rz_state *s)
{
	const cs_x86 *x = &in->detail->x86;
	const cs_x86_op *op = x->operands;

	switch (in->id) {
	case X86_INS_PUSH:
	case X86_INS_PUSHFQ:
		s->depth += 8;
		return true;
	case X86_INS_POP:
	case X86_INS_POPFQ:
		s->depth -= 8;
		return true;
	case X86_INS_SUB:
	case X86_INS_ADD:
		if (x->op_count != 2 || !is_reg(&op[0], X86_REG_RSP) ||
		    op[1].type != X86_OP_IMM)
			return false;
		s->depth += in->id == X86_INS_SUB ? op[1].imm : -op[1].imm;
		return true;
	case X86_INS_LEA:
		if (x->op_count != 2 || op[1].mem.index != X86_REG_INVALID)
			return false;
		if (op[1].mem.base == X86_REG_RSP) {
			s->depth -= op[1].mem.disp;
			return true;
		}
		if (op[1].mem.base == X86_REG_RBP && s->rbp_known) {
			s->depth = s->rbp_depth - op[1].mem.disp;
			return true;
		}
		return false;
	case X86_INS_MOV:
		if (x->op_count == 2 && is_reg(&op[1], X86_REG_RBP) && s->rbp_known) {
			s->depth = s->rbp_depth;
			return true;
		}
		return false;
	case X86_INS_LEAVE:		/* mov %rbp,%rsp; pop %rbp */
		if (!s->rbp_known)
			return false;
		s->depth = s->rbp_depth - 8;
		return true;
	}
	return false;
}

static bool moves_rsp(csh cs, const cs_insn *in)
{
	switch (in->id) {
	case X86_INS_RET:
		return false;	/* the function is left */
	case X86_INS_PUSH:
	case X86_INS_PUSHFQ:
	case X86_INS_POP:
	case X86_INS_POPFQ:
	case X86_INS_LEAVE:
		return true;
	}
	return writes_reg(cs, in, X86_REG_RSP);
}

static void track_rsp(csh cs, struct rz_walk *w, const cs_insn *in)
{
	if (!moves_rsp(cs, in))
		return;
	if (!rsp_move(in, &w->st))
		w->st.depth_known = false;
	note_depth(w);
}

static void track_rbp(csh cs, struct rz_walk *w, const cs_insn *in)
{
	const cs_x86 *x = &in->detail->x86;

	if (in->id == X86_INS_LEAVE) {
		w->st.rbp_known = false;
		return;
	}
	if (!writes_reg(cs, in, X86_REG_RBP))
		return;
	/* mov %rsp,%rbp: the frame pointer holds a known depth */
	w->st.rbp_known = in->id == X86_INS_MOV && x->op_count == 2 &&
			  is_reg(&x->operands[0], X86_REG_RBP) &&
			  is_reg(&x->operands[1], X86_REG_RSP) && w->st.depth_known;
	w->st.rbp_depth = w->st.depth;
}

static bool is_epilogue(const cs_insn *in)
{
	return in->id == X86_INS_POP || in->id == X86_INS_LEAVE || in->id == X86_INS_ADD;
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

static void branch(struct rz_walk *w, const cs_insn *in, uint64_t end)
{
	const cs_x86 *x = &in->detail->x86;
	struct rz_mark *m;

	if (x->op_count != 1 || x->operands[0].type != X86_OP_IMM ||
	    (uint64_t)x->operands[0].imm <= in->address ||
	    (uint64_t)x->operands[0].imm >= end)
		return;
	SP_ALLOC_GROW(w->marks, w->nmarks + 1, w->marks_cap);
	m = &w->marks[w->nmarks++];
	m->target = (uint64_t)x->operands[0].imm;
	m->st = w->st;
}

static bool in_group(const cs_insn *in, uint8_t group)
{
	uint8_t i;

	for (i = 0; i < in->detail->groups_count; i++)
		if (in->detail->groups[i] == group)
			return true;
	return false;
}

/* One instruction; false when it is a call (not a leaf). */
static bool step(csh cs, struct rz_walk *w, const cs_insn *in, uint64_t end)
{
	if (in_group(in, CS_GRP_CALL))
		return false;
	if (w->after_exit)
		resume(w, in->address);
	w->after_exit = false;
	if (is_epilogue(in) && !w->in_epilogue)
		w->body = w->st;
	w->in_epilogue = is_epilogue(in);
	memory_operands(w, in);
	track_rsp(cs, w, in);
	track_rbp(cs, w, in);
	if (in_group(in, CS_GRP_JUMP))
		branch(w, in, end);
	if (in_group(in, CS_GRP_RET) || in->id == X86_INS_JMP)
		w->after_exit = true;
	return true;
}

int cg_red_zone_scan(csh cs, const uint8_t *code, size_t size, uint64_t addr,
		     uint32_t *red_zone)
{
	struct rz_walk w;
	cs_insn *in = cs_malloc(cs);
	uint64_t pc = addr, end = addr + size;
	int64_t extra;
	bool leaf = true;

	memset(&w, 0, sizeof(w));
	w.st.depth_known = true;
	w.body = w.st;
	while (size && leaf && cs_disasm_iter(cs, &code, &size, &pc, in))
		leaf = step(cs, &w, in, end);
	cs_free(in, 1);
	free(w.marks);
	*red_zone = 0;
	/* a call, or bytes capstone cannot decode: no claim either way */
	if (!leaf || size)
		return 0;
	extra = w.max_touch - w.max_depth;
	if (w.blind > extra)
		extra = w.blind;
	if (extra > 0)
		*red_zone = extra > (int64_t)UINT32_MAX ? UINT32_MAX : (uint32_t)extra;
	return 1;
}

/* Does a compile unit of this image forbid the red zone? */
static bool no_red_zone(const struct cg_image *img, const struct sp_graph *g)
{
	uint32_t i;

	for (i = img->cu_first; i < img->cu_first + img->ncus_own; i++)
		if (g->cus[i].producer && strstr(g->cus[i].producer, "-mno-red-zone"))
			return true;
	return false;
}

static bool red_zones_apply(const struct cg_image *img, const struct sp_graph *g)
{
	return img->elf.machine == EM_X86_64 && !no_red_zone(img, g);
}

static bool open_x86(csh *cs)
{
	if (cs_open(CS_ARCH_X86, CS_MODE_64, cs) != CS_ERR_OK)
		return false;
	cs_option(*cs, CS_OPT_DETAIL, CS_OPT_ON);
	return true;
}

/* Every function symbol once, as the disassembly pass walks them; a
 * symbol inside another's range is left to cg_red_zones(). */
static void *rz_thread(void *arg)
{
	struct cg_rz_pass *p = arg;
	const struct sp_elf *e = p->elf;
	const struct sp_elf_sym *sym;
	uint64_t end = 0;
	size_t i = 0;
	csh cs;

	if (!open_x86(&cs))
		return NULL;	/* cg_red_zones() opens it again and says why */
	while ((sym = sp_elf_next_code_sym(e, &i, &end))) {
		const uint8_t *code = sp_elf_code_at(e, sym->addr, sym->size);
		struct cg_rz r = { .addr = sym->addr, .size = sym->size };

		if (!code)
			continue;
		r.leaf = cg_red_zone_scan(cs, code, sym->size, sym->addr, &r.red_zone);
		SP_ALLOC_GROW(p->res, p->n + 1, p->cap);
		p->res[p->n++] = r;
	}
	cs_close(&cs);
	return NULL;
}

void cg_red_zones_start(struct cg_image *img)
{
	struct cg_rz_pass *p = &img->rz;

	if (!red_zones_apply(img, img->g))
		return;
	p->elf = &img->elf;
	p->started = !pthread_create(&p->thread, NULL, rz_thread, p);
}

static void rz_join(struct cg_rz_pass *p)
{
	if (p->started)
		pthread_join(p->thread, NULL);
	p->started = false;
}

void cg_rz_pass_release(struct cg_rz_pass *p)
{
	rz_join(p);
	free(p->res);
	memset(p, 0, sizeof(*p));
}

/* The thread's scan of f, when it scanned a symbol of f's extent. */
static const struct cg_rz *rz_find(const struct cg_rz_pass *p, const struct sp_func *f)
{
	size_t lo = 0, hi = p->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (p->res[mid].addr < f->addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < p->n && p->res[lo].addr == f->addr && p->res[lo].size == f->size)
		return &p->res[lo];
	return NULL;
}

/* f's red zone from the thread's scan, else decoded here; 1 for a leaf. */
static int scan_func(struct cg_image *img, struct sp_func *f, csh *cs, bool *cs_ready,
		     struct sp_err *err)
{
	const struct cg_rz *r = rz_find(&img->rz, f);
	const uint8_t *code;

	if (r) {
		f->red_zone = r->red_zone;
		return r->leaf;
	}
	if (!*cs_ready && !(*cs_ready = open_x86(cs)))
		return sp_err_set(err, "'%s': capstone cannot decode x86-64", img->path);
	code = sp_elf_code_at(&img->elf, f->addr, f->size);
	return code ? cg_red_zone_scan(*cs, code, f->size, f->addr, &f->red_zone) : 0;
}

int cg_red_zones(struct cg_image *img, struct sp_graph *g, struct sp_err *err)
{
	bool cs_ready = false;
	int ret = 0;
	uint32_t i;
	csh cs;

	if (!red_zones_apply(img, g))
		return 0;
	rz_join(&img->rz);
	for (i = img->func_first; i < img->func_end && ret >= 0; i++) {
		struct sp_func *f = &g->funcs[i];

		if (!(f->flags & SP_F_HAS_CODE) || (f->flags & SP_F_EXTERNAL) || !f->size ||
		    sp_elf_in_plt(&img->elf, f->addr))
			continue;
		ret = scan_func(img, f, &cs, &cs_ready, err);
		if (ret > 0 && f->red_zone)
			img->stats.red_zone_funcs++;
	}
	if (cs_ready)
		cs_close(&cs);
	return ret < 0 ? -1 : 0;
}
