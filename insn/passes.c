/*
 * passes.c - an image's functions decoded once, on a thread of their own
 * while the main thread walks the DWARF, and the passes run over each.
 */
#include "insn/passes.h"

#include <stdlib.h>
#include <string.h>

#include "common/search.h"
#include "common/xalloc.h"

/* The machines of the x86 passes: pushed arguments, address loads. */
static bool is_x86(const struct sp_elf *e)
{
	return e->arch->id == SP_ARCH_X86_64 || e->arch->id == SP_ARCH_I386;
}

/* The calls the stack pass saw made on another stack, among the
 * function's own (calls->v[first..], by site). */
static void mark_switched(struct insn_calls *calls, size_t first,
			  const struct insn_stack_res *st)
{
	size_t i, k;

	for (i = 0; i < st->nswitched; i++)
		for (k = first; k < calls->n; k++)
			if (calls->v[k].site == st->switched[i])
				calls->v[k].switched = true;
}

/* Every pass over one function's instructions, into f, calls and loads. */
static void run_passes(const struct insn_image *c, const struct insn_buf *b,
		       struct insn_func *f, struct insn_calls *calls, struct insn_loads *loads)
{
	uint16_t machine = c->elf->machine;
	struct insn_stack_res st = { 0 };
	size_t first = calls->n;

	insn_retpoline_pass(&c->icalls, c->elf, b->v, b->n);
	insn_calls_pass(calls, b->v, b->n);
	if (!(f->flags & INSN_FUNC_NO_BYTES) &&
	    insn_stack_frame(b->v, b->n, machine, f->addr, f->addr + f->size, &st)) {
		f->frame = st.frame;
		f->flags |= INSN_FUNC_FRAME | (st.dynamic ? INSN_FUNC_DYNAMIC : 0) |
			    (st.bounded ? INSN_FUNC_BOUNDED : 0);
	}
	mark_switched(calls, first, &st);
	free(st.switched);
	if (c->elf->arch->red_zone && insn_red_zone(b->v, b->n, f->addr + f->size, &f->red_zone))
		f->flags |= INSN_FUNC_LEAF;
	if (is_x86(c->elf))
		insn_pushed_args(b->v, b->n, f);
	if (c->addr_taken)
		insn_addr_loads(c->elf, loads, b->v, b->n);
}

/* An IFUNC resolver's candidates: the code addresses it loads. */
static void ifunc_targets(const struct insn_image *c, const struct sp_elf_sym *sym,
			  const struct insn_buf *b, struct insn_ifuncs *out)
{
	struct insn_loads l = { 0 };
	size_t i;

	insn_addr_loads(c->elf, &l, b->v, b->n);
	for (i = 0; i < l.n; i++) {
		SP_ALLOC_GROW(out->v, out->n + 1, out->cap);
		out->v[out->n].resolver = sym->addr;
		out->v[out->n++].target = l.v[i];
	}
	free(l.v);
}

/* The passes that run once per function symbol, in address order. */
static void run_symbol_passes(const struct insn_image *c, const struct insn_buf *b,
			      struct insn_chunk *out)
{
	if (!c->typed)
		return;
	insn_icalls_pass(&out->icalls, c->elf, b->v, b->n);
	if (c->drefs_known)
		insn_data_refs(c->wdata, c->nwdata, &out->drefs, b->v, b->n, true);
	insn_call_args(c->elf, c->landings_known ? &c->landings : NULL, &out->cargs, b->v, b->n);
}

/* One function symbol, run by run (ARM mapping symbols switch between
 * ARM, Thumb and literal pools), into out: a gap ends its decoding,
 * unless the addresses it loads are wanted (x86: capstone's SKIPDATA
 * steps on). */
static void scan_sym(struct insn_image *c, struct insn_decoder *d,
		     const struct sp_elf_sym *sym, struct insn_buf *b, struct insn_chunk *out)
{
	const struct sp_elf *e = c->elf;
	uint64_t pc = sym->addr, end = sym->addr + sym->size;
	bool skip = c->addr_taken && is_x86(e);
	struct insn_func *f;
	struct sp_elf_run run;
	uint8_t flags = INSN_FUNC_WHOLE;

	b->n = 0;
	while (sp_elf_next_run(e, &pc, end, sym->thumb, &run)) {
		enum insn_decoded r = insn_decode(d, e, &run, skip, b);

		if (r == INSN_NO_BYTES)
			flags |= INSN_FUNC_NO_BYTES;
		if (r == INSN_GAP) {
			flags &= (uint8_t)~INSN_FUNC_WHOLE;
			if (!skip)
				break;
		}
	}
	SP_ALLOC_GROW(out->funcs, out->nfuncs + 1, out->funcs_cap);
	f = &out->funcs[out->nfuncs++];
	memset(f, 0, sizeof(*f));
	f->addr = sym->addr;
	f->size = sym->size;
	f->flags = flags;
	run_passes(c, b, f, &out->calls, &out->loads);
	run_symbol_passes(c, b, out);
	if (sym->ifunc)
		ifunc_targets(c, sym, b, &out->ifuncs);
}

/* Function symbols are decoded this many at a time, each run claimed by
 * the thread or, once the DWARF is read, by the main thread too. */
#define CHUNK_SYMS 64

/* Every function symbol, in address order; aliases and labels inside a
 * function are decoded with it. */
static void list_syms(struct insn_image *c)
{
	const struct sp_elf_sym *sym;
	uint64_t end = 0;
	size_t i = 0, cap = 0;

	while ((sym = sp_elf_next_code_sym(c->elf, &i, &end))) {
		SP_ALLOC_GROW(c->syms, c->nsyms + 1, cap);
		c->syms[c->nsyms++] = sym;
	}
	c->nchunks = (c->nsyms + CHUNK_SYMS - 1) / CHUNK_SYMS;
	c->chunks = sp_xcalloc(c->nchunks ? c->nchunks : 1, sizeof(*c->chunks));
	for (i = 0; i < c->nchunks; i++) {	/* read only, shared */
		c->chunks[i].icalls.thunks = c->icalls.thunks;
		c->chunks[i].icalls.nthunks = c->icalls.nthunks;
		c->chunks[i].icalls.fentry = c->icalls.fentry;
		c->chunks[i].icalls.pv_ops = c->icalls.pv_ops;
		c->chunks[i].icalls.pv_ops_end = c->icalls.pv_ops_end;
		c->chunks[i].icalls.sbranches = c->sbranches;
		c->chunks[i].icalls.nsbranches = c->nsbranches;
		memcpy(c->chunks[i].icalls.sc_update, c->icalls.sc_update,
		       sizeof(c->icalls.sc_update));
	}
}

/* Decode chunks until none is left to claim. */
static void claim_chunks(struct insn_image *c, struct insn_decoder *d, struct insn_buf *b)
{
	size_t k, i;

	while ((k = atomic_fetch_add(&c->next_chunk, 1)) < c->nchunks) {
		for (i = k * CHUNK_SYMS; i < c->nsyms && i < (k + 1) * CHUNK_SYMS; i++)
			scan_sym(c, d, c->syms[i], b, &c->chunks[k]);
		/* its scratch is not kept until the chunks are joined */
		insn_icalls_done(&c->chunks[k].icalls);
	}
}

/* A chunk's array (loads, IFUNC targets) after the image's; the chunk's
 * is emptied. */
#define JOIN_ARRAY(to, from)							\
	do {									\
		if ((from)->n) {						\
			SP_ALLOC_GROW((to)->v, (to)->n + (from)->n, (to)->cap);	\
			memcpy((to)->v + (to)->n, (from)->v,			\
			       (from)->n * sizeof(*(from)->v));			\
			(to)->n += (from)->n;					\
		}								\
		free((from)->v);						\
		memset((from), 0, sizeof(*(from)));				\
	} while (0)

/* A chunk's indirect calls and stores after the image's: their chains
 * move with the links they index. */
static void join_icalls(struct insn_icalls *to, struct insn_icalls *from)
{
	uint32_t base = (uint32_t)to->nlinks;
	size_t i;

	SP_ALLOC_GROW(to->links, to->nlinks + from->nlinks, to->links_cap);
	if (from->nlinks)
		memcpy(to->links + to->nlinks, from->links, from->nlinks * sizeof(*from->links));
	to->nlinks += from->nlinks;
	SP_ALLOC_GROW(to->calls, to->ncalls + from->ncalls, to->calls_cap);
	for (i = 0; i < from->ncalls; i++) {
		to->calls[to->ncalls] = from->calls[i];
		to->calls[to->ncalls++].link += base;
	}
	SP_ALLOC_GROW(to->stores, to->nstores + from->nstores, to->stores_cap);
	for (i = 0; i < from->nstores; i++) {
		to->stores[to->nstores] = from->stores[i];
		to->stores[to->nstores].link += base;
		to->stores[to->nstores++].vlink += base;
	}
	from->thunks = NULL;	/* the image's */
	insn_icalls_release(from);
}

/* The chunks' results, in address order, become the image's. */
static void join_chunks(struct insn_image *c)
{
	size_t k, nfuncs = 0, ncalls = 0;

	for (k = 0; k < c->nchunks; k++) {
		nfuncs += c->chunks[k].nfuncs;
		ncalls += c->chunks[k].calls.n;
	}
	c->funcs = sp_xmalloc((nfuncs ? nfuncs : 1) * sizeof(*c->funcs));
	c->funcs_cap = nfuncs;
	c->calls.v = sp_xmalloc((ncalls ? ncalls : 1) * sizeof(*c->calls.v));
	c->calls.cap = ncalls;
	for (k = 0; k < c->nchunks; k++) {
		struct insn_chunk *ch = &c->chunks[k];

		if (ch->nfuncs)	/* an empty chunk has no arrays at all */
			memcpy(c->funcs + c->nfuncs, ch->funcs, ch->nfuncs * sizeof(*ch->funcs));
		c->nfuncs += ch->nfuncs;
		if (ch->calls.n)
			memcpy(c->calls.v + c->calls.n, ch->calls.v,
			       ch->calls.n * sizeof(*ch->calls.v));
		c->calls.n += ch->calls.n;
		free(ch->funcs);
		free(ch->calls.v);
		JOIN_ARRAY(&c->loads, &ch->loads);
		JOIN_ARRAY(&c->ifuncs, &ch->ifuncs);
		join_icalls(&c->icalls, &ch->icalls);
		JOIN_ARRAY(&c->cargs, &ch->cargs);
		JOIN_ARRAY(&c->drefs, &ch->drefs);
	}
	JOIN_ARRAY(&c->loads, &c->gap_loads);
	JOIN_ARRAY(&c->drefs, &c->gap_drefs);
	if (c->drefs.n)
		qsort(c->drefs.v, c->drefs.n, sizeof(*c->drefs.v), sp_u64_cmp);
	free(c->chunks);
	c->chunks = NULL;
	free(c->syms);
	c->syms = NULL;
}

/* Decode [pc, end) in pieces, each continuing where the last whole
 * instruction ended: a gap may be megabytes (a kernel's entry code), and
 * its decoded instructions all at once hundreds of them. */
#define GAP_PIECE 16384

/* Where a run of int3 (0xcc) padding at pc ends: each is an instruction
 * of one byte that loads nothing, so decoding resumes after the run as
 * it would have after decoding it (a kernel aligns sections with
 * megabytes of them). */
static uint64_t past_padding(const struct sp_elf *e, uint64_t pc, uint64_t end)
{
	const uint8_t *p = sp_elf_code_at(e, pc, end - pc);

	while (p && pc < end && *p == 0xcc) {
		p++;
		pc++;
	}
	return pc;
}

static void scan_gap(struct insn_image *c, struct insn_decoder *d, uint64_t pc, uint64_t end,
		     struct insn_buf *b)
{
	while ((pc = past_padding(c->elf, pc, end)) < end) {
		struct sp_elf_run run = { .addr = pc, .end = end - pc > GAP_PIECE ? pc + GAP_PIECE : end };
		size_t n;

		b->n = 0;
		insn_decode(d, c->elf, &run, true, b);
		n = b->n;
		/* an instruction the piece's end cut: decoded again from its start */
		while (run.end < end && n && b->v[n - 1].op == INSN_OP_INVALID &&
		       b->v[n - 1].addr + 16 > run.end)
			n--;
		insn_addr_loads(c->elf, &c->gap_loads, b->v, n);
		if (c->drefs_known)	/* no store pass: every write counts */
			insn_data_refs(c->wdata, c->nwdata, &c->gap_drefs, b->v, n, false);
		pc = n && n < b->n ? b->v[n].addr : run.end;
	}
}

/* --indirect=address-taken: the bytes of the code sections that no
 * function symbol covers (assembly without sizes, padding) load
 * addresses too; decoded through as capstone's SKIPDATA would.  The
 * extents are the symbols' (each function's): chunks still being
 * decoded are not waited for. */
static void scan_gaps(struct insn_image *c, struct insn_decoder *d, struct insn_buf *b)
{
	const struct sp_elf *e = c->elf;
	size_t s, k = 0;

	for (s = 0; s < e->ncode; s++) {
		const struct sp_elf_code *code = &e->code[s];
		uint64_t pc = code->addr, end = code->addr + code->size;

		if (!code->bytes || code->is_plt)
			continue;
		while (k < c->nsyms && c->syms[k]->addr + c->syms[k]->size <= pc)
			k++;
		while (pc < end) {
			uint64_t next = k < c->nsyms && c->syms[k]->addr < end ?
					c->syms[k]->addr : end;

			if (next > pc)
				scan_gap(c, d, pc, next, b);
			if (next >= end)
				break;
			pc = c->syms[k]->addr + c->syms[k]->size;
			k++;
		}
	}
}

static void *code_thread(void *arg)
{
	struct insn_image *c = arg;
	struct insn_decoder *d = insn_decoder_open(c->elf->machine);
	struct insn_buf b = { 0 };

	if (!d) {
		c->failed = true;
		atomic_store(&c->next_chunk, c->nchunks);	/* nothing to help with */
		return NULL;
	}
	claim_chunks(c, d, &b);
	if (c->addr_taken && is_x86(c->elf))
		scan_gaps(c, d, &b);
	c->decoded = insn_decoder_count(d);
	insn_buf_release(&b);
	insn_decoder_close(d);
	return NULL;
}

static int range_cmp(const void *pa, const void *pb)
{
	const struct insn_range *a = pa, *b = pb;

	return (a->lo > b->lo) - (a->lo < b->lo);
}

/* The writable data insn_data_refs watches: only an x86-64 image's that
 * is linked (a relocatable object's addresses wait for relocations). */
static void writable_data(struct insn_image *c)
{
	size_t i, n;
	uint64_t *v;

	if (c->elf->arch->id != SP_ARCH_X86_64 || c->elf->type == ET_REL)
		return;
	v = sp_elf_writable_data(c->elf, &n);
	c->wdata = sp_xmalloc((n ? n : 1) * sizeof(*c->wdata));
	for (i = 0; i < n; i++)
		c->wdata[i] = (struct insn_range){ v[2 * i], v[2 * i + 1] };
	free(v);
	c->nwdata = n;
	if (n)
		qsort(c->wdata, n, sizeof(*c->wdata), range_cmp);
	/* sections that overlap are not told apart: nothing is known */
	for (i = 1; i < c->nwdata; i++)
		if (c->wdata[i].lo < c->wdata[i - 1].hi)
			return;
	c->drefs_known = true;
}

int insn_image_start(struct insn_image *c, const struct sp_elf *e, bool addr_taken,
		     bool typed, struct sp_err *err)
{
	int rc;

	memset(c, 0, sizeof(*c));
	c->elf = e;
	c->addr_taken = addr_taken;
	c->typed = typed;
	if (!insn_machine_decodes(e->machine))
		return 0;
	insn_find_thunks(&c->icalls, e);
	if (typed)
		c->landings_known = insn_static_landings(e, &c->landings, &c->sbranches,
							 &c->nsbranches);
	if (typed)
		writable_data(c);
	list_syms(c);
	/* EAGAIN is what a small ulimit -v gives: no room for its stack */
	rc = pthread_create(&c->thread, NULL, code_thread, c);
	if (rc)
		return sp_err_set(err, "out of memory: cannot start the disassembly thread (%s)",
				  strerror(rc));
	c->started = true;
	return 0;
}

static void join(struct insn_image *c)
{
	if (c->started)
		pthread_join(c->thread, NULL);
	c->started = false;
}

/* The main thread, done with the DWARF, decodes what the thread has
 * not claimed yet: the code was the longer half of a kernel's load. */
static void help(struct insn_image *c)
{
	struct insn_buf b = { 0 };

	if (!c->started || atomic_load(&c->next_chunk) >= c->nchunks)
		return;
	if (!c->here && !(c->here = insn_decoder_open(c->elf->machine)))
		return;
	claim_chunks(c, c->here, &b);
	insn_buf_release(&b);
}

int insn_image_finish(struct insn_image *c, const char *path, struct sp_err *err)
{
	help(c);
	join(c);
	if (c->failed)
		return sp_err_set(err, "'%s': capstone cannot decode this architecture", path);
	if (c->chunks)
		join_chunks(c);
	return 0;
}

void insn_image_release(struct insn_image *c)
{
	join(c);
	if (c->chunks)
		join_chunks(c);
	free(c->syms);
	free(c->calls.v);
	free(c->asked_calls.v);
	free(c->funcs);
	free(c->loads.v);
	free(c->gap_loads.v);
	free(c->wdata);
	free(c->drefs.v);
	free(c->gap_drefs.v);
	free(c->ifuncs.v);
	insn_icalls_release(&c->icalls);
	free(c->cargs.v);
	free(c->landings.v);
	free(c->sbranches);
	insn_decoder_close(c->here);
	insn_buf_release(&c->buf);
	memset(c, 0, sizeof(*c));
}

static uint64_t func_addr(const void *base, size_t i)
{
	return ((const struct insn_func *)base)[i].addr;
}

static uint64_t call_site(const void *base, size_t i)
{
	return ((const struct insn_call *)base)[i].site;
}

/* Decode [addr, addr + size) here, for a function no symbol gives. */
static const struct insn_func *decode_here(struct insn_image *c, uint64_t addr, uint64_t size)
{
	const uint8_t *code = size ? sp_elf_code_at(c->elf, addr, size) : NULL;
	struct insn_func *f = &c->asked;

	if (!code || (!c->here && !(c->here = insn_decoder_open(c->elf->machine))))
		return NULL;
	memset(f, 0, sizeof(*f));
	f->addr = addr;
	f->size = size;
	c->buf.n = 0;
	c->asked_calls.n = 0;
	if (insn_decode_bytes(c->here, code, size, addr, sp_elf_thumb_at(c->elf, addr), false,
			      &c->buf))
		f->flags = INSN_FUNC_WHOLE;
	run_passes(c, &c->buf, f, &c->asked_calls, &c->loads);
	return f;
}

const struct insn_func *insn_image_func_at(const struct insn_image *c, uint64_t addr)
{
	size_t i = sp_search_first_ge(c->funcs, c->nfuncs, func_addr, addr);

	return i < c->nfuncs && c->funcs[i].addr == addr ? &c->funcs[i] : NULL;
}

const struct insn_func *insn_image_func(struct insn_image *c, uint64_t addr, uint64_t size)
{
	const struct insn_func *f = insn_image_func_at(c, addr);

	return f && f->size == size ? f : decode_here(c, addr, size);
}

const struct insn_call *insn_image_calls(const struct insn_image *c,
					 const struct insn_func *f, size_t *n)
{
	const struct insn_calls *l = f == &c->asked ? &c->asked_calls : &c->calls;
	size_t first = sp_search_first_ge(l->v, l->n, call_site, f->addr + 1);
	size_t end = sp_search_first_ge(l->v, l->n, call_site, f->addr + f->size + 1);

	*n = end - first;
	return l->v + first;
}

uint64_t insn_image_decoded(const struct insn_image *c)
{
	return c->decoded + insn_decoder_count(c->here);
}

#define X86_64_RIP 16		/* DWARF's number */
#define TABLE_LOOKBACK 8

/* Does a RIP-relative lea before v[i] load an address of the code
 * v[0..n) decodes? */
static bool lea_inside(const struct insn *v, size_t n, size_t first, size_t i)
{
	uint64_t lo = v[0].addr, hi = v[n - 1].addr + v[n - 1].len;
	size_t k;

	for (k = first; k < i; k++) {
		uint64_t to = v[k].addr + v[k].len + (uint64_t)v[k].disp;

		if (v[k].op == INSN_OP_LEA && (v[k].flags & INSN_F_MEM) &&
		    v[k].base == X86_64_RIP && to >= lo && to < hi)
			return true;
	}
	return false;
}

/*
 * x86-64's relative jump table, as GCC and glibc's assembly both write
 * it: lea TABLE(%rip),%rB; movslq (%rB,%rI,4),%rI; add or lea to %rB;
 * jmp *%rX; or a jump computed from an address of the function's own
 * code (glibc's __memcpy_ssse3: lea L(%rip),%r9; shl $6,%ecx; add
 * %r9,%rcx; jmp *%rcx).  A branch inside the function, not an indirect
 * call: the code of a function without DWARF (a library's memcpy,
 * strcmp) says nothing else about it, and a switch must not make it
 * unbounded.
 */
static bool jump_table(const struct insn *v, size_t n, size_t i)
{
	size_t k, first = i > TABLE_LOOKBACK ? i - TABLE_LOOKBACK : 0;

	if (v[i].branch != INSN_BRANCH_JUMP_DYNAMIC || (v[i].flags & INSN_F_MEM))
		return false;
	if (lea_inside(v, n, first, i))
		return true;
	for (k = i; k-- > first;) {
		const struct insn *load = &v[k];
		size_t j;

		if (!(load->flags & INSN_F_MEM) || load->index == INSN_REG_NONE ||
		    (load->scale != 4 && load->scale != 8) || load->op == INSN_OP_LEA)
			continue;
		for (j = k; j-- > first;)
			if (v[j].op == INSN_OP_LEA && (v[j].flags & INSN_F_MEM) &&
			    v[j].base == X86_64_RIP && v[j].reg == load->base)
				return true;
	}
	return false;
}

void insn_calls_pass(struct insn_calls *out, const struct insn *v, size_t n)
{
	size_t i;

	for (i = 0; i < n && v[i].op != INSN_OP_INVALID; i++) {
		struct insn_call *k;

		if (v[i].branch == INSN_BRANCH_NONE && !(v[i].groups & (INSN_G_CALL | INSN_G_JUMP)))
			continue;
		if (jump_table(v, n, i))
			continue;
		SP_ALLOC_GROW(out->v, out->n + 1, out->cap);
		k = &out->v[out->n++];
		k->site = v[i].addr + v[i].len;
		k->direct = v[i].flags & INSN_F_TARGET;
		k->target = k->direct ? (uint64_t)v[i].imm : 0;
		k->branch = v[i].branch;
		k->groups = v[i].groups;
		k->switched = false;
	}
}

bool insn_image_data_ref(const struct insn_image *c, uint64_t lo, uint64_t hi)
{
	size_t i;

	if (!c->drefs_known || c->chunks || !insn_in_ranges(c->wdata, c->nwdata, lo) ||
	    !insn_in_ranges(c->wdata, c->nwdata, hi - 1))
		return true;
	i = sp_search_first_ge(c->drefs.v, c->drefs.n, sp_u64_at, lo);
	return i < c->drefs.n && c->drefs.v[i] < hi;
}
