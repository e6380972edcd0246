/*
 * chain.c - what a chain of loads computes (insn/icall.h), from DWARF.
 *
 * A chain is typed from its root towards the call: a register DWARF
 * locates a variable in (its type), a word at a fixed address (the
 * variable there), a constant address, a function's return value.  Each
 * load then reads a member of the struct the pointer so far points to,
 * whose type is the next pointer's:
 *
 *	file (struct file *)  ->  f_op (const struct file_operations *)
 *	  ->  read_iter: a function pointer, the key file_operations+0x20
 *
 * The root is tried first, then each link nearer the call whose register
 * DWARF locates a variable in (the type chain may break below it: a
 * container_of, a cast through void *).  The first to end at a struct
 * member or a word in memory wins; else the function type met on the
 * way, if any.
 */
#include "indirect/internal.h"

#include <string.h>

#include "common/search.h"

#define DW_REG_RSP 7		/* x86-64's stack pointer, in DWARF's numbers */
#define DW_REG_RBP 6		/* and its frame pointer */

/* What the value of a link is, as far as known. */
struct tval {
	enum { TV_NONE, TV_PTR, TV_ADDR } kind;
	uint64_t type;		/* TV_PTR: the pointer type's DIE */
	uint64_t addr;		/* TV_ADDR: a constant address */
	int64_t bias;		/* TV_PTR: the value is the pointer plus this (a
				 * member's address: DWARF locates the container
				 * at the register minus the member's offset) */
};

static uint64_t var_addr(const void *base, size_t i)
{
	return ((const struct ind_var *)base)[i].addr;
}

const struct ind_var *ind_var_at(const struct ind_image *im, uint64_t addr)
{
	size_t i = sp_search_last_le(im->vars, im->nvars, var_addr, addr);

	return i < im->nvars && addr - im->vars[i].addr < im->vars[i].size ? &im->vars[i] :
	       NULL;
}

static void set_proto(struct ind_image *im, uint64_t func, struct ind_target *out)
{
	out->proto = ind_type_proto(&im->types, func);
}

/* The word at addr (+ index * scale): a global pointer, a table. */
static bool load_fixed(struct ind_image *im, uint64_t addr, uint64_t scale, bool last,
		       struct tval *v, struct ind_target *out)
{
	const struct ind_var *var = ind_var_at(im, addr);
	struct ind_place p;

	/* tbl[i - 1]: the displacement starts before the table */
	if (!var && scale)
		var = ind_var_at(im, addr + scale);
	if (!var)
		return false;
	if (addr < var->addr)
		addr += scale;
	if (!ind_type_place(&im->types, var->type, addr - var->addr, &p))
		return false;
	if (!last) {
		/* a pointer to a struct, read from the global: typed on */
		if (p.func)
			return false;
		v->kind = TV_PTR;
		v->type = p.type;
		return true;
	}
	/* a word at a fixed address is known whatever its type says: a
	 * void * the code calls (the kernel's pv_ops) is still its words */
	out->kind = scale ? IND_TK_TABLE : IND_TK_WORD;
	out->key = p.key;
	out->addr = addr;
	out->stride = scale;
	out->first = scale ? var->addr + (addr - var->addr) % scale : addr;
	out->end = var->addr + var->size;
	out->var = var->addr;
	set_proto(im, p.func, out);
	return true;
}

/* A load at at bytes from a struct of type pointee, past its end: C
 * reads there only through a pointer cast to a larger struct, one that
 * holds the pointee (inet_csk(sk)->icsk_af_ops: struct sock, at 0 in a
 * struct inet_connection_sock), assumed among the unit's
 * (ind_container_place); noted for ind_type_call_chain while the unit
 * is not wanted. */
static bool past_end(struct ind_image *im, uint64_t pointee, int64_t at, bool last,
		     struct ind_place *p)
{
	const struct ind_type *s = ind_type_at(&im->types, pointee);

	if (!s || s->kind != IND_STRUCT || !s->size || at < (int64_t)s->size)
		return false;
	if (!im->units.wanted) {
		im->units.past_end = true;
		return false;
	}
	return ind_container_place(im, pointee, at, last, p);
}

/* *(v + disp [+ index * scale]) */
static bool load(struct ind_image *im, const struct insn_link *l, bool last, struct tval *v,
		 struct ind_target *out)
{
	const struct ind_type *ptr, *pointee;
	struct ind_place p;
	uint64_t target, pointee_size = 0;

	if (v->kind == TV_ADDR)
		return load_fixed(im, v->addr + (uint64_t)l->disp, l->scale, last, v, out);
	if (v->kind != TV_PTR || !(ptr = ind_type_at(&im->types, v->type)) ||
	    ptr->kind != IND_POINTER || (l->scale && (v->bias || l->disp < 0)))
		return false;
	target = ptr->target;
	/* p[i].member: an array of the pointee, indexed by its size; or
	 * p->member[i], an array inside it (checked below) */
	if (l->scale) {
		if (!(pointee = ind_type_at(&im->types, target)))
			return false;
		/* its size, not the pointer: placing below may read more types
		 * and move the table (type_index() grows it) */
		pointee_size = pointee->size;
	}
	/* below the pointee, or past its end: a member of a struct that
	 * holds it */
	if (l->disp + v->bias < 0 ?
	    !ind_container_place(im, target, l->disp + v->bias, last, &p) :
	    !ind_type_place(&im->types, target, (uint64_t)(l->disp + v->bias), &p) &&
	    !past_end(im, target, l->disp + v->bias, last, &p))
		return false;
	/* an index into the array the word at disp is in: sb->s_dquot.ops[type],
	 * mov 0x240(%rax,%rdx,8) (C indexes nothing else there) */
	if (l->scale && pointee_size != l->scale && p.stride != l->scale)
		return false;
	v->bias = 0;
	if (last && p.nany > 1) {	/* one of several containers' members */
		out->kind = IND_TK_KEYS;
		out->key = SP_NONE;
		out->nany = p.nany;
		memcpy(out->any, p.any, sizeof(out->any));
		return true;
	}
	if (last) {
		if (!p.func)
			return false;
		set_proto(im, p.func, out);
		out->kind = p.key != SP_NONE ? IND_TK_KEY : IND_TK_PROTO;
		out->key = p.key;
		out->alts = p.alts;
		return true;
	}
	if (p.func)
		return false;
	v->type = p.type;
	return true;
}

/* The value v as a call's target, without a load: a function pointer
 * variable (its prototype), a constant function address. */
static bool final(struct ind_image *im, const struct tval *v, struct ind_target *out)
{
	const struct ind_type *t;

	if (v->kind == TV_ADDR) {
		if (cg_func_at(im->img, v->addr) == SP_NONE)
			return false;
		out->kind = IND_TK_CONST;
		out->addr = v->addr;
		return true;
	}
	if (out->want_obj) {
		if (v->kind != TV_PTR || !(t = ind_type_at(&im->types, v->type)) ||
		    t->kind != IND_POINTER || t->func)
			return false;
		out->kind = IND_TK_OBJ;
		out->addr = v->type;
		out->first = (uint64_t)v->bias;
		return true;
	}
	if (v->kind != TV_PTR || v->bias || !(t = ind_type_at(&im->types, v->type)) || !t->func)
		return false;
	out->kind = IND_TK_PROTO;
	set_proto(im, t->func, out);
	return true;
}

static bool forward(struct ind_image *im, const struct insn_link *links, int k, struct tval v,
		    struct ind_target *out);

/* Is the result what the chain is for: a member, a word, a constant? */
static bool precise(const struct ind_target *t)
{
	return t->kind == IND_TK_KEY || t->kind == IND_TK_WORD || t->kind == IND_TK_TABLE ||
	       t->kind == IND_TK_CONST || t->kind == IND_TK_OBJ || t->kind == IND_TK_KEYS;
}

/* The next load below link k (past copies), or NULL. */
static const struct insn_link *next_load(const struct insn_link *links, int k)
{
	while (--k >= 0)
		if (links[k].src != INSN_SRC_MOVE)
			return links[k].src == INSN_SRC_LOAD ? &links[k] : NULL;
	return NULL;
}

/* Does a struct of pointer type ptr's pointee hold a word where the next
 * load (l) reads?  A load with an index or below the struct (a
 * container_of) may fit. */
static bool fits(struct ind_image *im, uint64_t ptr, const struct insn_link *l)
{
	const struct ind_type *t = ind_type_at(&im->types, ptr);
	struct ind_place p;

	if (!l || l->scale || l->disp < 0)
		return true;
	return t && ind_type_place(&im->types, t->target, (uint64_t)l->disp, &p);
}

/* Merge t, one union member's result, into out (kind NONE so far): the
 * same, or several members' keys (IND_TK_KEYS); false when they differ
 * otherwise. */
static bool merge(struct ind_target *out, const struct ind_target *t)
{
	if (out->kind == IND_TK_NONE) {
		*out = *t;
		return true;
	}
	if (t->kind == out->kind && t->kind != IND_TK_KEYS && t->key == out->key &&
	    t->addr == out->addr && t->first == out->first && t->stride == out->stride)
		return true;
	/* each a function pointer of a named struct, no union of several
	 * function types (any_targets takes each key whole) */
	if (t->kind != IND_TK_KEY || t->key == SP_NONE || t->alts ||
	    (out->kind != IND_TK_KEY && out->kind != IND_TK_KEYS) ||
	    (out->kind == IND_TK_KEY && (out->key == SP_NONE || out->alts)))
		return false;
	if (out->kind == IND_TK_KEY) {
		out->kind = IND_TK_KEYS;
		out->any[0] = out->key;
		out->nany = 1;
		out->key = SP_NONE;
		out->alts = 0;
	}
	return ind_any_add(out->any, &out->nany, t->key);
}

/*
 * Link k's value, loaded (links[k]) from a union where several members
 * are pointers to structs (struct page's lru.next, rcu_head.next and
 * pgmap at 8: free_zone_device_page's page->pgmap->ops->page_free):
 * each member whose struct holds a word where the next load reads may be
 * it (C loads through another only after a cast, which a variable
 * says), and each such must type the rest of the chain; they agree, or
 * are several members' keys.  Not when the union has no such member, or
 * only one (load() has typed it).
 */
static int forward_members(struct ind_image *im, const struct insn_link *links, int k,
			   const struct tval *v, struct ind_target *out)
{
	const struct insn_link *l = &links[k];
	const struct ind_type *ptr = ind_type_at(&im->types, v->type);
	uint64_t ptrs[IND_ANY_KEYS], target;
	uint8_t n, i, nfit = 0;
	struct ind_target acc = { .kind = IND_TK_NONE, .key = SP_NONE };

	if (v->kind != TV_PTR || l->scale || l->disp + v->bias < 0 || !ptr ||
	    ptr->kind != IND_POINTER)
		return -1;
	target = ptr->target;
	n = ind_type_struct_ptrs(&im->types, target, (uint64_t)(l->disp + v->bias), ptrs,
				 IND_ANY_KEYS);
	if (n < 2)
		return -1;
	for (i = 0; i < n; i++) {
		struct tval m = { .kind = TV_PTR, .type = ptrs[i] };
		struct ind_target t = { .kind = IND_TK_NONE, .key = SP_NONE,
					.want_obj = out->want_obj };

		if (!fits(im, ptrs[i], next_load(links, k)))
			continue;
		nfit++;
		if (!forward(im, links, k, m, &t) || !precise(&t) || !merge(&acc, &t))
			return 0;
	}
	if (!nfit)
		return 0;
	acc.want_obj = out->want_obj;
	*out = acc;
	return 1;
}

/* Apply links[k - 1 .. 0] to v, the value of link k.  The last load is
 * the one only copies follow (a member loaded, spilled to the stack and
 * reloaded for the call). */
static bool forward(struct ind_image *im, const struct insn_link *links, int k, struct tval v,
		    struct ind_target *out)
{
	int j, last = 0, r;

	while (last < k && links[last].src == INSN_SRC_MOVE)
		last++;
	if (out->want_obj)	/* every load reads a pointer on */
		last = -1;
	for (j = k - 1; j >= 0; j--) {
		if (links[j].src == INSN_SRC_MOVE)
			continue;
		if (j != last && links[j].src == INSN_SRC_LOAD &&
		    (r = forward_members(im, links, j, &v, out)) >= 0)
			return r;
		if (links[j].src != INSN_SRC_LOAD || !load(im, &links[j], j == last, &v, out))
			return false;
		if (j == last)
			return true;
	}
	return final(im, &v, out);
}

/* The function whose return value rax holds (link l), typed by its
 * DWARF when its DIE is in the unit being read; else by the callee's
 * declaration in the caller's unit, which the call's DWARF call site
 * names (DW_AT_call_origin: C makes it compatible with the definition).
 * Another unit's types are not read for it alone. */
static uint64_t return_type(struct ind_image *im, const struct insn_link *l, bool declared)
{
	uint32_t id = cg_func_at(im->img, (uint64_t)l->disp), from;
	const struct ind_type *t, *to;
	const struct sp_func *f;
	uint64_t die, type;

	if (id == SP_NONE || id >= im->g->nfuncs || !im->reader)
		return 0;
	f = &im->g->funcs[id];
	die = f->origin_die ? f->origin_die : f->die;
	if (die && dw_reader_here(im->reader, die))
		return dw_decl_type(im->reader, die);
	if (!declared || (from = cg_func_containing(im->img, l->pc)) == SP_NONE ||
	    from >= im->g->nfuncs || !(die = im->g->funcs[from].die) ||
	    !dw_reader_here(im->reader, die))
		return 0;
	type = dw_call_type(im->reader, die, l->pc + (uint64_t)(int64_t)l->back);
	/* only a pointer to a struct, to load on from: a void * (kmalloc's)
	 * says less than the variable DWARF locates the value in */
	if (!type || !dw_reader_here(im->reader, type) || !(t = ind_type_at(&im->types, type)) ||
	    t->kind != IND_POINTER || !(to = ind_type_at(&im->types, t->target)) ||
	    to->kind != IND_STRUCT)
		return 0;
	return type;
}

/*
 * A word of the frame (INSN_SRC_FRAME) where DWARF locates a variable
 * at the load (DW_OP_fbreg, the frame base the CFA: the entry's stack
 * pointer above the return address): a pointer variable, or a member of
 * a struct there (an argument passed by value on the stack).
 */
static bool from_frame(struct ind_image *im, const struct insn_link *links, int k,
		       struct ind_target *out)
{
	const struct insn_link *l = &links[k];
	const struct ind_locs *locs = ind_locs_get(&im->locs);
	int64_t at = l->disp - (int64_t)im->types.addr_size;
	uint64_t pc = l->pc + (uint64_t)(int64_t)l->back;
	size_t i;

	for (i = 0; i < locs->n; i++) {
		const struct ind_loc *x = &locs->v[i];
		const struct ind_type *t;
		struct tval v = { .kind = TV_PTR };
		struct ind_place p;
		uint8_t kind;

		if (x->reg != IND_REG_FRAME || pc < x->lo || pc >= x->hi || at < x->off ||
		    !(t = ind_type_at(&im->types, x->type)))
			continue;
		kind = t->kind;
		if (kind == IND_POINTER) {
			if (at != x->off)
				continue;
			v.type = x->type;
		} else if (!ind_type_place(&im->types, x->type, (uint64_t)(at - x->off), &p) ||
			   !p.type) {
			continue;
		} else if (k == 0 && p.func && !out->want_obj) {	/* the member is what is called */
			set_proto(im, p.func, out);
			out->kind = p.key != SP_NONE ? IND_TK_KEY : IND_TK_PROTO;
			out->key = p.key;
			out->alts = p.alts;
			return true;
		} else {
			v.type = p.type;
		}
		if (forward(im, links, k, v, out))
			return true;
	}
	return false;
}

/* The size of an element of the array variable at addr's, when the
 * code may index it by a register it computed: in an executable, which
 * addresses its data absolutely (a shared object's displacement is a
 * member's offset that may equal some variable's address), and not in
 * the kernel's per-cpu area (per_cpu(var, cpu): a register plus the
 * variable's address there, the register a CPU's area, not an index). */
static uint64_t indexed_stride(struct ind_image *im, uint64_t addr)
{
	const struct ind_var *var = ind_var_at(im, addr);
	const struct ind_type *t, *elem;
	uint64_t lo, size;

	if (!var || im->elf->type != ET_EXEC ||
	    (sp_elf_find_section(im->elf, ".data..percpu", &lo, &size) && addr - lo < size) ||
	    !(t = ind_type_at(&im->types, var->type)) || t->kind != IND_ARRAY ||
	    !(elem = ind_type_at(&im->types, t->target)) || !elem->size)
		return 0;
	return elem->size;
}

/*
 * An array at a fixed address, indexed by the root's register, a value
 * the code computed (alarm_bases[type].get_ktime: mov
 * alarm_bases+0x18(%rax),%rax, rax the index times 48; or live into a
 * loop, blkcg_policy[i]->pd_free_fn): link k, the load, reads the word
 * at its displacement's offset into some element, as a table's.
 */
static bool from_indexed(struct ind_image *im, const struct insn_link *links, int k,
			 struct ind_target *out)
{
	const struct insn_link *l = &links[k], *base = &links[k + 1];
	struct tval v = { .kind = TV_ADDR };
	uint64_t stride;
	bool last = true;
	int j;

	if (l->src != INSN_SRC_LOAD || l->scale ||
	    (base->src != INSN_SRC_OTHER && base->src != INSN_SRC_REG &&
	     base->src != INSN_SRC_STACK) ||
	    !(stride = indexed_stride(im, (uint64_t)l->disp)))
		return false;
	for (j = 0; j < k; j++)
		if (links[j].src != INSN_SRC_MOVE)
			last = false;
	if (!load_fixed(im, (uint64_t)l->disp, stride, last, &v, out))
		return false;
	return last || forward(im, links, k, v, out);
}

/*
 * A word of this CPU's per-cpu area (mov %gs:0x1fb80,%rax: the kernel's
 * current, this_cpu_read(current_task)), loaded on: each CPU's copy of
 * the variable at that offset of .data..percpu holds a value of its
 * type, as a global's word does.  Not the call's own word: the code's
 * this_cpu_write()s are no stores the pass reads.
 */
static bool from_percpu(struct ind_image *im, const struct insn_link *links, int k,
			struct ind_target *out)
{
	const struct ind_var *var = ind_var_at(im, (uint64_t)links[k].disp);
	struct tval v = { .kind = TV_ADDR, .addr = (uint64_t)links[k].disp };
	struct insn_link word = { .pc = links[k].pc, .src = INSN_SRC_LOAD };
	uint64_t lo, size;

	if (!var || !sp_elf_find_section(im->elf, ".data..percpu", &lo, &size) ||
	    var->addr - lo >= size || !load(im, &word, false, &v, out))
		return false;
	return forward(im, links, k, v, out);
}

/* A column a pointer stepped through an array reads (insn_link.entry
 * on a TABLE root: stepped_way): the variable at the step's start must
 * be that array, of elements of the step's size; a pointer walked from a
 * linker's __start_SECTION (do_early_param's __setup_start) runs over
 * many variables, the first of which is no array. */
static bool stepped_array(struct ind_image *im, const struct insn_link *l)
{
	const struct ind_var *var = ind_var_at(im, (uint64_t)l->disp);
	const struct ind_type *t, *elem;

	return var && (t = ind_type_at(&im->types, var->type)) && t->kind == IND_ARRAY &&
	       (elem = ind_type_at(&im->types, t->target)) && elem->size == l->scale &&
	       ((uint64_t)l->disp - var->addr) < elem->size;
}

/* A root's own meaning, without DWARF's locations. */
static bool from_root(struct ind_image *im, const struct insn_link *links, int k,
		      struct ind_target *out)
{
	const struct insn_link *l = &links[k];
	struct tval v = { .kind = TV_ADDR, .addr = (uint64_t)l->disp };
	struct insn_link virt = { .pc = l->pc, .src = INSN_SRC_LOAD, .scale = l->scale };

	switch (l->src) {
	case INSN_SRC_GLOBAL:
	case INSN_SRC_TABLE:
		if (l->src == INSN_SRC_TABLE && l->entry && !stepped_array(im, l))
			return false;
		/* *(addr): a load of 0 from the constant address */
		if (!load(im, &virt, k == 0 && !out->want_obj, &v, out))
			return false;
		return (k == 0 && !out->want_obj) || forward(im, links, k, v, out);
	case INSN_SRC_CONST:
		return forward(im, links, k, v, out);
	case INSN_SRC_RETURN:
		v.kind = TV_PTR;
		v.type = return_type(im, l, !out->want_obj);
		return v.type && forward(im, links, k, v, out);
	case INSN_SRC_FRAME:
		return from_frame(im, links, k, out);
	case INSN_SRC_PERCPU:
		return k > 0 && from_percpu(im, links, k, out);
	}
	return false;
}

/* The pc of the instruction that reads through link k's value (a load,
 * or the call), past the copies above it. */
static uint64_t use_pc(const struct insn_link *links, int k)
{
	int j = k - 1;

	while (j >= 0 && links[j].src == INSN_SRC_MOVE)
		j--;
	return links[j + 1].pc;
}

/* Is x, at some pc from which the register already holds link l's
 * value (insn_link.held: the straight run from its write to l's pc;
 * insn_link.via: the run up to the one jump into it), in that register: req = list_first_entry(...) is located at rbx - 144
 * only up to the instruction before the load through rbx, where GCC has
 * moved req itself into rdi (free_ioctx_users())?  The register's value
 * at the load is its value there. */
static bool held_there(const struct insn_link *l, const struct ind_loc *x)
{
	uint64_t since = l->pc - l->held, via = l->via - l->via_held;

	return (l->held && since < x->hi && l->pc >= x->lo) ||
	       (l->via && via < x->hi && l->via >= x->lo);
}

/* Does DWARF locate x where link k's value is: in its register at its
 * pc, or, for a register no path has written since the function began
 * (an argument), at the function's first instruction (GCC's locations
 * often name only the copy it keeps the argument in after that); or is
 * x that argument plus an offset (DW_OP_entry_value) and live where the
 * chain reads through it: the container a container_of computed from
 * the argument, kept in another register the chain does not follow. */
static bool locates(const struct insn_link *links, int k, const struct ind_loc *x)
{
	const struct insn_link *l = &links[k];
	uint64_t first = (uint64_t)l->disp, use;

	if (x->reg != l->reg || x->nmem)
		return false;
	if (x->entry) {
		use = use_pc(links, k);
		return l->src == INSN_SRC_REG && l->entry && use >= x->lo && use < x->hi;
	}
	return (l->pc >= x->lo && l->pc < x->hi) || held_there(l, x) ||
	       (l->src == INSN_SRC_REG && l->entry && first >= x->lo && first < x->hi);
}

/* Does l, a word of the stack at a depth not known (INSN_SRC_STACK), or
 * a word of the frame (INSN_SRC_FRAME, at insn_link.base_disp from
 * base), load x's first word: x's place is that register plus that
 * displacement where the load is (DW_OP_breg7: dev_ethtool realigns its
 * frame, and keeps ops at 0x18(%rsp); sk_getsockopt's sock, reloaded
 * from 0x18(%rsp) where a stack address the function lets out keeps
 * the slot from being followed; DW_OP_breg6, rbp the frame pointer:
 * sk_setsockopt's sock)? */
static bool from_stack(const struct insn_link *l, const struct ind_loc *x)
{
	uint64_t at = l->pc + (uint64_t)(int64_t)l->back;

	if (at < x->lo || at >= x->hi)
		return false;
	if (l->src != INSN_SRC_FRAME)
		return x->reg == DW_REG_RSP && l->disp == x->mem[0];
	/* FRAME: l->scale is rbp's offset from the entry's stack pointer
	 * over -8, where it is the frame pointer */
	return (l->sp && x->reg == DW_REG_RSP && l->sp_disp == x->mem[0]) ||
	       (l->scale && x->reg == DW_REG_RBP && l->disp == -8 * (int64_t)l->scale + x->mem[0]);
}

/* Is l the reload of a spill the chain followed to its store (a copy,
 * insn/icall.h)? */
static bool spill_reload(const struct insn_link *l)
{
	return l->src == INSN_SRC_MOVE && l->entry;
}

/* Does the reload l read x's place, where DWARF locates x there? */
static bool reloads(const struct insn_link *l, const struct ind_loc *x)
{
	uint64_t at = l->pc + (uint64_t)(int64_t)l->back;

	return x->reg == l->scale && l->disp == x->mem[0] && at >= x->lo && at < x->hi;
}

/* Is link k of n the value of x, a variable in memory (ind_loc.nmem):
 * the chain's loads from link k on at x's offsets (copies between them
 * are the same value), the first from x's register where DWARF puts the
 * variable at that place (or from a copy of it made there), or from
 * the register unwritten since the entry where the place is located at
 * the first instruction (as locates() takes an argument's register)?
 * The loads then read the variable's own word, whatever a member they
 * went through says it holds (a void *). */
static bool in_place(const struct insn_link *links, int k, int n, const struct ind_loc *x)
{
	int i, j = k;

	for (i = x->nmem - 1; i >= 0; i--, j++) {
		/* copies, and a spill's reload below the variable's place */
		while (j < n && links[j].src == INSN_SRC_MOVE && (i || !spill_reload(&links[j])))
			j++;
		if (j < n && i == 0 && spill_reload(&links[j]))
			return reloads(&links[j], x);	/* the place's own load */
		if (j < n && i == 0 &&
		    (links[j].src == INSN_SRC_STACK || links[j].src == INSN_SRC_FRAME))
			return from_stack(&links[j], x);
		if (j >= n || links[j].src != INSN_SRC_LOAD || links[j].scale ||
		    links[j].disp != x->mem[i])
			return false;
	}
	for (; j < n; j++) {
		const struct insn_link *b = &links[j];

		if (b->reg == x->reg &&
		    ((b->pc >= x->lo && b->pc < x->hi) ||
		     (b->src == INSN_SRC_REG && b->entry && (uint64_t)b->disp >= x->lo &&
		      (uint64_t)b->disp < x->hi)))
			return true;
		if (b->src != INSN_SRC_MOVE)
			return false;
	}
	return false;
}

/* Is link k of n the register a spill through the frame pointer stored
 * (link k - 1 its reload), and x a variable DWARF locates in that slot
 * at the store (GCC's DW_OP_breg6 -384 for __sys_bpf's link, a spilled
 * parameter of an inlined call, in that slot only around its store)?
 * The value stored is the variable's.  Through rbp, which the store and
 * the reload share unchanged (the spill is followed only so), the slot
 * has one displacement; through rsp, the store's may differ. */
static bool spilled_at(const struct insn_link *links, int k, const struct ind_loc *x)
{
	const struct insn_link *r = k > 0 ? &links[k - 1] : NULL;

	return r && spill_reload(r) && r->scale == DW_REG_RBP && x->nmem == 1 &&
	       x->reg == DW_REG_RBP && x->mem[0] == r->disp && links[k].pc >= x->lo &&
	       links[k].pc < x->hi;
}

/* Link k typed by each variable DWARF locates in its register there, or
 * at the place its loads read, or in the slot it was spilled to. */
static bool from_locations(struct ind_image *im, const struct insn_link *links, int k, int n,
			   struct ind_target *out, struct ind_target *fallback)
{
	const struct insn_link *l = &links[k];
	const struct ind_locs *locs;
	size_t i;

	if (l->reg == INSN_REG_NONE)
		return false;
	locs = ind_locs_get(&im->locs);
	for (i = 0; i < locs->n; i++) {
		const struct ind_loc *x = &locs->v[i];
		struct tval v;
		struct ind_target t;

		/* most locations are another register's: the target (a
		 * hundred bytes) is cleared only for one that is link k's */
		if ((x->word && !out->want_word) || !(x->nmem ? in_place(links, k, n, x) || spilled_at(links, k, x) :
				locates(links, k, x)))
			continue;
		v = (struct tval){ .kind = TV_PTR, .type = x->type, .bias = -x->off };
		t = (struct ind_target){ .kind = IND_TK_NONE, .key = SP_NONE,
					 .want_obj = out->want_obj, .want_word = out->want_word };
		if (!forward(im, links, k, v, &t))
			continue;
		if (precise(&t)) {
			*out = t;
			return true;
		}
		if (t.kind == IND_TK_PROTO && fallback->kind == IND_TK_NONE)
			*fallback = t;
	}
	return false;
}

/* Link k typed by a variable DWARF locates, at its pc, in the register
 * that holds its value plus a constant (insn_link.sib): the container of
 * the entry the code loads through. */
static bool from_sibling(struct ind_image *im, const struct insn_link *links, int k,
			 struct ind_target *out)
{
	const struct insn_link *l = &links[k];
	const struct ind_locs *locs;
	size_t i;

	if (l->sib == INSN_REG_NONE)
		return false;
	locs = ind_locs_get(&im->locs);
	for (i = 0; i < locs->n; i++) {
		const struct ind_loc *x = &locs->v[i];
		struct tval v = { .kind = TV_PTR, .type = x->type,
				  .bias = -x->off - l->sib_off };
		struct ind_target t = { .kind = IND_TK_NONE, .key = SP_NONE,
					.want_obj = out->want_obj };

		if (x->reg != l->sib || x->nmem || x->entry || l->pc < x->lo || l->pc >= x->hi)
			continue;
		if (forward(im, links, k, v, &t) && precise(&t)) {
			*out = t;
			return true;
		}
	}
	return false;
}

/* Link k typed by a variable DWARF locates in the frame word a store of
 * its register wrote just before (insn_link.home): the word holds the
 * value from the instruction after the store on, as the register does. */
static bool from_home(struct ind_image *im, const struct insn_link *links, int k,
		      struct ind_target *out)
{
	struct insn_link copy[16];

	if (!links[k].home || k >= 16)
		return false;
	memcpy(copy, links, (size_t)(k + 1) * sizeof(*copy));
	copy[k].src = INSN_SRC_FRAME;
	copy[k].disp = links[k].home;
	copy[k].back = -(int32_t)links[k].home_back;
	return from_frame(im, copy, k, out);
}

/* ind_type_chain, or ind_type_pointer's when obj (and
 * ind_type_word_pointer's when word too). */
static bool type_chain(struct ind_image *im, const struct insn_link *links, uint8_t n,
		       struct ind_target *out, bool obj, bool word)
{
	struct ind_target fallback = { .kind = IND_TK_NONE, .key = SP_NONE };
	int k;

	memset(out, 0, sizeof(*out));
	out->key = SP_NONE;
	out->want_obj = obj;
	out->want_word = word;
	if (!n)
		return false;
	for (k = n - 1; k >= 0; k--) {
		struct ind_target t = { .kind = IND_TK_NONE, .key = SP_NONE, .want_obj = obj };

		if (k == n - 2 && from_indexed(im, links, k, &t) && precise(&t)) {
			*out = t;
			return true;
		}
		if (k == n - 1 && from_root(im, links, k, &t)) {
			if (precise(&t)) {
				*out = t;
				return true;
			}
			if (t.kind == IND_TK_PROTO && fallback.kind == IND_TK_NONE)
				fallback = t;
		}
		if (from_locations(im, links, k, n, out, &fallback))
			return true;
		t = (struct ind_target){ .kind = IND_TK_NONE, .key = SP_NONE, .want_obj = obj };
		if (from_home(im, links, k, &t) && precise(&t)) {
			*out = t;
			return true;
		}
		t = (struct ind_target){ .kind = IND_TK_NONE, .key = SP_NONE, .want_obj = obj };
		if (from_sibling(im, links, k, &t)) {
			*out = t;
			return true;
		}
	}
	*out = fallback;
	return out->kind != IND_TK_NONE;
}

bool ind_type_chain(struct ind_image *im, const struct insn_link *links, uint8_t n,
		    struct ind_target *out)
{
	return type_chain(im, links, n, out, false, false);
}

/* ind_type_pointer, or ind_type_word_pointer when word. */
static bool type_pointer(struct ind_image *im, const struct insn_link *links, uint8_t n,
			 bool word, uint64_t *ptr, int64_t *bias)
{
	struct ind_target t;

	if (!type_chain(im, links, n, &t, true, word) || t.kind != IND_TK_OBJ)
		return false;
	*ptr = t.addr;
	*bias = (int64_t)t.first;
	return true;
}

bool ind_type_pointer(struct ind_image *im, const struct insn_link *links, uint8_t n,
		      uint64_t *ptr, int64_t *bias)
{
	return type_pointer(im, links, n, false, ptr, bias);
}

bool ind_type_word_pointer(struct ind_image *im, const struct insn_link *links, uint8_t n,
			   uint64_t *ptr, int64_t *bias)
{
	return type_pointer(im, links, n, true, ptr, bias);
}

/* Does some load of the chain read below its base (a container_of)? */
static bool reads_below(const struct insn_link *links, uint8_t n)
{
	uint8_t k;

	for (k = 0; k < n; k++)
		if (links[k].src == INSN_SRC_LOAD && links[k].disp < 0)
			return true;
	return false;
}

bool ind_type_call_chain(struct ind_image *im, const struct insn_link *links, uint8_t n,
			 struct ind_target *out)
{
	bool typed;
	struct ind_target t;

	im->units.past_end = false;
	typed = ind_type_chain(im, links, n, out);
	/* the unit's structs are walked only for a call nothing else types
	 * (a store's chain has its prototype's keys to fall back on), that
	 * reads below a struct or past its end */
	if ((typed && precise(out)) || !(reads_below(links, n) || im->units.past_end))
		return typed;
	im->units.wanted = true;
	if (ind_type_chain(im, links, n, &t) && precise(&t)) {
		*out = t;
		typed = true;
	}
	im->units.wanted = false;
	return typed;
}
