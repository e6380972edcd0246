/*
 * hooks.c - a call through a union of function types walked from a
 * list head, paired with the functions filed under that head (the
 * kernel's LSM hooks, Linux 6.1 security/security.c:733-753):
 *
 *	hlist_for_each_entry(P, &security_hook_heads.inode_setattr, list)
 *		RC = P->hook.inode_setattr(dentry, attr);
 *
 *	mov security_hook_heads+0x218(%rip),%rbx	the walk's start
 *	mov (%rbx),%rbx					P = P->list.next
 *	mov 0x18(%rbx),%rax; call *%rax			P->hook
 *
 * Each entry of every hook array (apparmor_hooks[], selinux_hooks[]:
 * LSM_HOOK_INIT(NAME, fn) is { .head = &security_hook_heads.NAME,
 * .hook = { .NAME = fn } }, include/linux/lsm_hooks.h:1642-1643) holds
 * the head its function goes under, and security_add_hooks() links
 * each entry into its own head's list only (security/security.c:494).
 * So a call whose value is loaded from the union member of an
 * element the walk reached from one head reaches the functions the
 * data's elements pair with that head: the call's paths (insn_icall's
 * ways) each load the union from a word the walk read at a fixed
 * address, inside one variable (the heads), or from the element's
 * first word (list.next: an element of the same list).  The pairs are
 * the data's: each element (of a struct with a union slot of the
 * call's key) of a variable that holds a word pointing into the heads.
 *
 * Sound as far as the data says: a function of the key no element pairs
 * with a head (one the code stores, one smeared there at its offset, an
 * element whose head is NULL) goes to every such call; a path of any
 * other shape keeps the key's functions.  Assumed: a path that loads
 * the element from an element's first word follows the same list.
 */
#include "indirect/run.h"

#include <stdlib.h>
#include <string.h>

#include "common/strbuf.h"
#include "common/xalloc.h"

/* One element's head and function: the element's word into the heads
 * (0: none found) and the function its union slot holds. */
struct hook_pair {
	uint64_t head;
	uint32_t func;
};

struct ind_hooks {
	uint32_t image;
	uint64_t lo, hi;		/* the heads variable: [lo, hi) */
	const struct ind_key *key;	/* the union's key, in r->keys */
	struct hook_pair *v;
	size_t n, cap;
	uint64_t *vars;			/* the variables scanned */
	size_t nvars, vars_cap;
};

void ind_hooks_release(struct ind_hooks *h)
{
	if (!h)
		return;
	free(h->v);
	free(h->vars);
	free(h);
}

/* The word of the chain's path at a fixed address the walk started
 * from, 0 when the path reads an element's list.next, ~0 when it is of
 * another shape.  A path's links are those of the call's (the load of
 * the union member, hook_links of them) and then its own write. */
static uint64_t way_start(const struct insn_link *l, uint8_t n, uint8_t hook_links)
{
	uint8_t k = hook_links;

	while (k < n && l[k].src == INSN_SRC_MOVE)
		k++;
	if (k >= n)
		return ~(uint64_t)0;
	if (l[k].src == INSN_SRC_GLOBAL)
		return (uint64_t)l[k].disp;
	if (l[k].src == INSN_SRC_LOAD && !l[k].disp && !l[k].scale)
		return 0;
	return ~(uint64_t)0;
}

/* Is slot s of type im's filed under the key k (name and offset)? */
static bool slot_of_key(struct ind_image *im, const struct ind_slot *s, const struct ind_key *k)
{
	const struct ind_key *sk;

	if (s->key == SP_NONE)
		return false;
	sk = &im->types.keys->v[s->key];
	return sk->off == k->off && sk->name && k->name && !strcmp(sk->name, k->name);
}

/* One struct element at base: its union slot's function, paired with
 * its word into the heads (any of its pointers to structs). */
static void scan_element(struct ind_hooks *h, struct ind_image *im, uint64_t type, uint64_t base)
{
	const struct ind_slot *s;
	const struct ind_pslot *ps;
	int32_t n, np, i, j;
	uint64_t word, head = 0;
	uint32_t id;
	size_t first = h->n, k;
	uint64_t read = UINT64_MAX;	/* the offset of the last slot read */

	s = ind_type_slots(&im->types, type, &n);
	ps = ind_type_pslots(&im->types, type, &np);
	for (j = 0; j < np; j++)
		if (ind_data_word(&im->data, base + ps[j].off, &word) && word >= h->lo &&
		    word < h->hi)
			head = word;
	for (i = 0; i < n; i++) {
		/* every member of the union is a slot of the key at the same
		 * offset, holding the same word: one pair (Debian's kernel:
		 * 144,585 slots, 595 elements, each pair was scanned for
		 * each of the 261 calls), its word read once */
		if (!slot_of_key(im, &s[i], h->key) || s[i].off == read)
			continue;
		read = s[i].off;
		if (!ind_data_word(&im->data, base + s[i].off, &word) ||
		    (id = ind_func_at(im, word)) == SP_NONE)
			continue;
		for (k = first; k < h->n && h->v[k].func != id; k++)
			;
		if (k < h->n)
			continue;
		SP_ALLOC_GROW(h->v, h->n + 1, h->cap);
		h->v[h->n++] = (struct hook_pair){ .head = head, .func = id };
	}
}

/* A variable's elements (a struct, or an array of them), once. */
static void scan_hook_var(struct ind_hooks *h, struct ind_image *im, const struct ind_var *v)
{
	const struct ind_type *t, *e;
	uint64_t elem, esize, i;
	size_t k;

	for (k = 0; k < h->nvars; k++)
		if (h->vars[k] == v->addr)
			return;
	SP_ALLOC_GROW(h->vars, h->nvars + 1, h->vars_cap);
	h->vars[h->nvars++] = v->addr;
	if (!(t = ind_type_at(&im->types, v->type)))
		return;
	if (t->kind == IND_STRUCT) {
		scan_element(h, im, v->type, v->addr);
		return;
	}
	elem = t->target;
	if (t->kind != IND_ARRAY || !(e = ind_type_at(&im->types, elem)) ||
	    e->kind != IND_STRUCT || !(esize = e->size))
		return;
	for (i = 0; i + esize <= v->size; i += esize)
		scan_element(h, im, elem, v->addr + i);
}

struct word_walk {
	struct ind_hooks *h;
	struct ind_image *im;
};

static void on_head_word(void *arg, uint64_t addr, uint64_t value)
{
	struct word_walk *w = arg;
	const struct ind_var *v = ind_var_at(w->im, addr);

	(void)value;
	if (v)
		scan_hook_var(w->h, w->im, v);
}

static int pair_cmp(const void *pa, const void *pb)
{
	const struct hook_pair *a = pa, *b = pb;

	if (a->func != b->func)
		return (a->func > b->func) - (a->func < b->func);
	return (a->head > b->head) - (a->head < b->head);
}

/* The pairs of the heads variable v under key k: every variable that
 * holds a word pointing into v. */
static struct ind_hooks *hooks_of(struct ind_run *r, uint32_t image, const struct ind_var *v,
				  const struct ind_key *k)
{
	struct ind_hooks *h = r->hooks;
	struct ind_image *im = &r->ims[image];
	struct word_walk w;
	size_t s;

	if (h && h->image == image && h->lo == v->addr && h->key == k)
		return h;
	ind_hooks_release(h);
	h = r->hooks = sp_xcalloc(1, sizeof(*h));
	h->image = image;
	h->lo = v->addr;
	h->hi = v->addr + v->size;
	h->key = k;
	w = (struct word_walk){ .h = h, .im = im };
	for (s = 0; s < im->data.nsecs; s++)
		ind_data_words(&im->data, s, h->lo, h->hi - 1, on_head_word, &w);
	if (h->n)
		qsort(h->v, h->n, sizeof(*h->v), pair_cmp);
	return h;
}

/* Is the function id paired with a head in heads[0..nheads)? with none
 * found? */
static bool paired_with(const struct ind_hooks *h, uint32_t id, const uint64_t *heads,
			uint8_t nheads, bool *unpaired)
{
	bool found = false, with = false;
	size_t lo = 0, hi = h->n, i;
	uint8_t j;

	while (lo < hi) {	/* the first pair of id, by bisection */
		i = lo + (hi - lo) / 2;
		if (h->v[i].func < id)
			lo = i + 1;
		else
			hi = i;
	}
	for (i = lo; i < h->n && h->v[i].func == id; i++) {
		found = true;
		if (!h->v[i].head)
			*unpaired = true;
		for (j = 0; j < nheads; j++)
			with |= h->v[i].head == heads[j];
	}
	if (!found)
		*unpaired = true;
	return with;
}

/* A call of no paths (one walk that calls the first entry only: mov
 * heads+N(%rip),%rax; mov 0x18(%rax),%rax; jmp *%rax): its own chain's
 * start, past the load of the union member; 0 when none. */
static uint64_t chain_start(const struct insn_link *l, uint8_t n)
{
	uint8_t k = 0;
	uint64_t start;

	while (k < n && l[k].src == INSN_SRC_MOVE)
		k++;
	if (k >= n || l[k].src != INSN_SRC_LOAD)
		return 0;
	start = way_start(l, n, k + 1);
	return start == ~(uint64_t)0 ? 0 : start;
}

/* The heads the call's paths start from, into heads, all inside one
 * variable, *var; false when a path is of another shape, or none starts
 * at a fixed address. */
static bool call_heads(struct ind_run *r, size_t site, uint64_t *heads, uint8_t *nheads,
		       const struct ind_var **var)
{
	const struct ind_site *s = &r->sites[site];
	const struct insn_icalls *ic = &r->ims[s->image].code->icalls;
	const struct insn_icall *c = &ic->calls[s->icall];
	const struct ind_image *im = &r->ims[s->image];
	uint64_t start;
	size_t k;

	*nheads = 0;
	*var = NULL;
	if (!c->nways) {
		if (!(start = chain_start(ic->links + c->link, c->nlinks)) ||
		    !(*var = ind_var_at(im, start)))
			return false;
		heads[(*nheads)++] = start;
		return true;
	}
	if (c->nlinks < 2 || site + c->nways >= r->nsites)
		return false;
	for (k = site + 1; k <= site + c->nways; k++) {
		const struct insn_icall *wc = &ic->calls[r->sites[k].icall];
		const struct ind_var *v;

		if (r->sites[k].image != s->image || !wc->way)
			return false;
		start = way_start(ic->links + wc->link, wc->nlinks, c->nlinks - 1);
		if (start == ~(uint64_t)0)
			return false;
		if (!start)
			continue;
		v = ind_var_at(im, start);
		if (!v || (*var && *var != v))
			return false;
		*var = v;
		heads[(*nheads)++] = start;
	}
	return *nheads > 0;
}

bool ind_hook_targets(struct ind_run *r, const struct ind_site *s, const struct ind_key *k,
		      struct ids *out, const char **desc)
{
	size_t site = (size_t)(s - r->sites);
	uint64_t heads[8];	/* insn_icall.nways is at most 8 */
	uint8_t nheads;
	const struct ind_var *v;
	const struct ind_hooks *h;
	struct ind_image *im = &r->ims[s->image];
	struct sp_strbuf sb = { 0 };
	const char *name;
	uint32_t i, n = out->n;

	if (s < r->sites || site >= r->nsites ||
	    !call_heads(r, site, heads, &nheads, &v))
		return false;
	h = hooks_of(r, s->image, v, k);
	for (i = 0; i < k->ntargets; i++) {
		bool unpaired = false;

		if (paired_with(h, k->targets[i], heads, nheads, &unpaired) || unpaired ||
		    ind_ids_has(k->code, k->ncode, k->targets[i]))
			ids_add(out, k->targets[i]);
	}
	if (out->n == n)
		return false;
	name = im->reader ? dw_die_name(im->reader, r->g, v->die) : NULL;
	sp_strbuf_addf(&sb, "union %s from %s+%#llx", k->name, name ? name : "?",
		       (unsigned long long)(heads[0] - v->addr));
	*desc = sp_intern(r->g, sb.buf);
	free(sb.buf);
	return true;
}
