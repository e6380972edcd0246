/*
 * locs.c - which parameter or variable a register holds, by pc, as
 * dwarf/ answers (dw_func_reg_vars): read when a chain of a function is
 * typed and kept until the next function's.  Only a pointer a chain can
 * go on from is located, or a pointer to an integer a store may write
 * through, and, in the frame, a struct too (a store may write a
 * function into it, a load read a pointer from it).
 */
#include "indirect/internal.h"

#include <string.h>

#include "common/xalloc.h"

/* Can a chain go on from a pointer of type t: a function pointer (a
 * call through it), or a pointer to what a load reads a pointer from
 * (chain.c's load: a struct, an array, a pointer)?  A char * or a
 * void * cannot: its locations are not read. */
static bool leads_on(struct ind_locs *l, const struct ind_type *t)
{
	uint64_t target = t->target;

	if (t->func)
		return true;
	t = ind_type_at(l->types, target);
	return t && (t->kind == IND_STRUCT || t->kind == IND_ARRAY || t->kind == IND_POINTER);
}

/* A pointer to an integer of a word or more (`unsigned long *parent`):
 * what a store through it writes is a number (ind_loc.word). */
static bool is_word_pointer(struct ind_locs *l, uint64_t type)
{
	const struct ind_type *t = ind_type_at(l->types, type);

	if (!t || t->kind != IND_POINTER || t->func)
		return false;
	t = ind_type_at(l->types, t->target);
	return t && t->kind == IND_OTHER && t->size >= l->types->addr_size;
}

static bool is_pointer(struct ind_locs *l, uint64_t type)
{
	const struct ind_type *t = ind_type_at(l->types, type);

	return t && t->kind == IND_POINTER && leads_on(l, t);
}

/* A struct (or an array of them) in the frame may hold a pointer a load
 * of the frame reads (struct posix_clock_desc cd; cd.clk->ops...). */
static bool is_struct(struct ind_locs *l, uint64_t type)
{
	const struct ind_type *t = ind_type_at(l->types, type);

	if (t && t->kind == IND_ARRAY)
		t = ind_type_at(l->types, t->target);
	return t && t->kind == IND_STRUCT;
}

enum { LOC_POINTER = 1, LOC_STRUCT = 2, LOC_KNOWN = 4, LOC_WORD = 8 };

/* is_pointer and is_struct of type, kept for the last type asked about:
 * dw_func_reg_vars asks whether a variable is wanted, then gives each of
 * its spans with the same type, and each answer was two or three lookups
 * of the types (1.3 M of them on Debian's kernel).  A type read stays as
 * read, so the answer is the same. */
static uint8_t class_of(struct ind_locs *l, uint64_t type)
{
	if (l->class & LOC_KNOWN && l->class_type == type)
		return l->class;
	l->class_type = type;
	/* a pointer is no struct */
	l->class = LOC_KNOWN | (is_pointer(l, type)	 ? LOC_POINTER :
				is_struct(l, type)	 ? LOC_STRUCT :
				is_word_pointer(l, type) ? LOC_WORD : 0);
	return l->class;
}

/* Only a pointer in a register is something a load goes through, or a
 * store writes a number through (a pointer to an integer); a struct in
 * the frame may have a function stored into it, or a pointer loaded
 * from it. */
static bool wanted(void *ctx, uint64_t type)
{
	return class_of(ctx, type) & (LOC_POINTER | LOC_STRUCT | LOC_WORD);
}

static struct ind_loc *add_loc(struct ind_locs *l, uint64_t lo, uint64_t hi, uint8_t reg,
			       int64_t off, uint64_t type)
{
	struct ind_loc *x;

	SP_ALLOC_GROW(l->v, l->n + 1, l->cap);
	x = &l->v[l->n++];
	x->lo = lo;
	x->hi = hi;
	x->reg = reg;
	x->off = off;
	x->type = type;
	x->entry = false;
	x->nmem = 0;
	x->word = false;
	return x;
}

static void found(void *ctx, uint64_t lo, uint64_t hi, uint8_t reg, int64_t off,
		  uint64_t type)
{
	struct ind_locs *l = ctx;
	uint8_t class = class_of(l, type);

	if (class & LOC_POINTER)
		add_loc(l, lo, hi, reg, off, type);
	else if (class & LOC_WORD && !off)
		add_loc(l, lo, hi, reg, 0, type)->word = true;
}

/* A pointer that is an argument's value plus an offset (a container
 * GCC computes from the argument and keeps nowhere at the load). */
static void at_entry(void *ctx, uint64_t lo, uint64_t hi, uint8_t reg, int64_t off,
		     uint64_t type)
{
	struct ind_locs *l = ctx;

	if (class_of(l, type) & LOC_POINTER)
		add_loc(l, lo, hi, reg, off, type)->entry = true;
}

/* A pointer variable GCC keeps where the code loaded it from (`struct
 * rftype *rft = of->kn->priv`, kn->priv a void *; `unsigned long *stack
 * = (unsigned long *)regs->sp`, an integer): the chain's loads of that
 * place are typed by it. */
static void in_memory(void *ctx, uint64_t lo, uint64_t hi, uint8_t reg, const int64_t *off,
		      int n, int64_t add, uint64_t type)
{
	struct ind_locs *l = ctx;
	uint8_t class = class_of(l, type);
	struct ind_loc *x;

	if (!(class & LOC_POINTER || (class & LOC_WORD && !add)) || n < 1 || n > DW_MEM_PATH)
		return;
	x = add_loc(l, lo, hi, reg, add, type);
	x->word = !(class & LOC_POINTER);
	x->nmem = (uint8_t)n;
	memcpy(x->mem, off, (size_t)n * sizeof(*off));
}

/* A struct a store may write a function into, or a pointer a chain goes
 * on from (a load of the frame: a spill, an argument on the stack). */
static void in_frame(void *ctx, uint64_t lo, uint64_t hi, int64_t off, uint64_t type)
{
	struct ind_locs *l = ctx;

	if (class_of(l, type) & (LOC_POINTER | LOC_STRUCT))
		add_loc(l, lo, hi, IND_REG_FRAME, off, type);
}

void ind_locs_load(struct ind_locs *l, const struct sp_func *f, uint32_t func,
		   const uint64_t *pcs, size_t npcs)
{
	const struct dw_reg_vars q = { .wanted = wanted, .found = found, .in_frame = in_frame,
				       .at_entry = at_entry, .in_memory = in_memory, .ctx = l };

	l->func = func;
	l->n = 0;
	l->class = 0;	/* a function's own answers only */
	if (f->die && l->reader)
		dw_func_reg_vars(l->reader, f->die, pcs, npcs, &q);
}

void ind_locs_defer(struct ind_locs *l, const struct sp_func *f, uint32_t func,
		    const uint64_t *pcs, size_t npcs)
{
	l->n = 0;
	l->func = SP_NONE;
	l->pending = f;
	l->pending_func = func;
	l->pcs = pcs;
	l->npcs = npcs;
}

const struct ind_locs *ind_locs_get(struct ind_locs *l)
{
	const struct sp_func *f = l->pending;

	if (f) {
		l->pending = NULL;
		ind_locs_load(l, f, l->pending_func, l->pcs, l->npcs);
	}
	return l;
}

void ind_locs_init(struct ind_locs *l, struct dw_reader *reader, struct ind_types *types)
{
	memset(l, 0, sizeof(*l));
	l->reader = reader;
	l->types = types;
	l->func = SP_NONE;
}

void ind_locs_release(struct ind_locs *l)
{
	free(l->v);
	memset(l, 0, sizeof(*l));
	l->func = SP_NONE;
}
