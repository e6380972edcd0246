/*
 * unwritten.c - a global function pointer nothing can write holds its
 * initial word: the call through it reaches what the image's data
 * holds there, no other function.
 *
 * drivers/base/core.c:2281-2282 (Linux 6.1) defines
 * `int (*platform_notify)(struct device *dev) = NULL;` and calls it
 * when set (core.c:2328); nothing in the tree stores it, and it is not
 * exported.  The prototype fallback gave the call every function of
 * that prototype (131 on Debian's kernel).  A variable may be written
 * only by
 *
 *	a store of the image's code at its address: the store pass reads
 *	the 8-byte ones (indirect/ knows what they write, table.c's words);
 *	the code's other writes there (a partial word, an exchange, an
 *	indexed store), its address taken (an immediate, a lea) to be
 *	written through, are insn_data_refs' and make it unknown;
 *	a pointer to it the data holds (a word whose value is in it);
 *	code that is not given: a module, when a kernel exports it (a
 *	__ksymtab_ entry, in r->loose with the data addresses stored where
 *	no type tells); another image, when its symbol is not local.
 *
 * With none of these, the variable holds its initial word.  Only a
 * variable of no named struct (a pointer, an array of them): a struct's
 * address may be kept in a table the kernel reaches by a relative
 * offset (the static calls' keys, .static_call_sites).  Assumed: no
 * code writes a variable through another object's address (C's
 * object bounds), and no data word points into it unaligned.
 */
#include "indirect/run.h"

#include <stdlib.h>

#include "common/search.h"
#include "common/xalloc.h"

/* The words of image's data that hold an address in its writable data,
 * sorted: read once, when a call first asks. */
struct ind_held {
	uint64_t *v;
	size_t n, cap;
	bool read;
};

static void held_word(void *arg, uint64_t addr, uint64_t value)
{
	struct ind_held *h = arg;

	(void)addr;
	SP_ALLOC_GROW(h->v, h->n + 1, h->cap);
	h->v[h->n++] = value;
}

static void read_held(const struct ind_image *im, struct ind_held *h)
{
	const struct insn_image *c = im->code;
	size_t k;

	h->read = true;
	if (!c->nwdata)
		return;
	for (k = 0; k < im->data.nsecs; k++)
		ind_data_words(&im->data, k, c->wdata[0].lo, c->wdata[c->nwdata - 1].hi - 1,
			       held_word, h);
	if (h->n)
		qsort(h->v, h->n, sizeof(*h->v), sp_u64_cmp);
}

/* Does a data word of image hold an address in [lo, hi)? */
static bool held(struct ind_run *r, uint32_t image, uint64_t lo, uint64_t hi)
{
	struct ind_held *h;
	size_t i;

	if (!r->held)
		r->held = sp_xcalloc(r->nims, sizeof(*r->held));
	h = &r->held[image];
	if (!h->read)
		read_held(&r->ims[image], h);
	i = sp_search_first_ge(h->v, h->n, sp_u64_at, lo);
	return i < h->n && h->v[i] < hi;
}

/* Is an address in [lo, hi) one a module may store through (exported),
 * or stored where no type tells? */
static bool loose(const struct ind_run *r, uint32_t image, uint64_t lo, uint64_t hi)
{
	uint32_t i;

	for (i = 0; i < r->nloose; i++)
		if (r->loose[i].image == image && r->loose[i].addr >= lo && r->loose[i].addr < hi)
			return true;
	return false;
}

bool ind_unwritten(struct ind_run *r, const bool *kernel_image, uint32_t image,
		   const struct ind_target *t)
{
	const struct ind_image *im = &r->ims[image];
	const struct ind_var *v;
	uint64_t lo, hi;

	if ((t->kind != IND_TK_WORD && t->kind != IND_TK_TABLE) || t->key != SP_NONE ||
	    !(v = ind_var_at(im, t->var)) || !v->size)
		return false;
	lo = v->addr;
	hi = v->addr + v->size;
	if (t->first < lo || t->end > hi || insn_image_data_ref(im->code, lo, hi) ||
	    held(r, image, lo, hi))
		return false;
	if (kernel_image && kernel_image[image])
		return !loose(r, image, lo, hi);
	return ind_data_object_local(&im->data, lo);
}

void ind_held_release(struct ind_run *r)
{
	size_t i;

	for (i = 0; r->held && i < r->nims; i++)
		free(r->held[i].v);
	free(r->held);
	r->held = NULL;
}
