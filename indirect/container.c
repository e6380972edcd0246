/*
 * container.c - the struct a load at a negative offset from a pointer
 * (or past the end of its pointee) reads: crypto_shash_alg(tfm)->digest
 * is container_of(tfm->base.__crt_alg, struct shash_alg, base)->digest,
 * a load at -0x60 from a struct crypto_alg *, and no variable holds the
 * container (the inline function returns it straight into the load).
 *
 * C lets code name a container only where its type is complete: so the
 * container is among the structs the code's own unit defines (a
 * function's local ones included) that hold the pointee at an offset at
 * least as large.  Each is a candidate; the load is typed only when every
 * candidate with a pointer at that place says the same (the same member's
 * key and prototype, or the same pointer type to go on with).  The call's
 * own load may instead be one of a few members, each a function pointer
 * of a named struct: crypto_akcipher_alg(tfm)->encrypt and
 * crypto_shash_alg(tfm)->X both sit 0x20 below a struct crypto_alg in
 * testmgr.c; a candidate with a pointer to a struct there is none (an
 * object's address is called only after a cast).  An
 * anonymous struct held in another is the same place as its holder's,
 * and is no candidate of its own.  The pointee held in an array (its
 * index not known), or a walk of the unit cut short, types nothing.
 * A load past the end of the pointee is asked the same way, at each
 * holder's offset of the pointee plus the load's: C reads there only
 * through a pointer cast to a larger struct, assumed one that holds the
 * pointee (inet_csk(sk): a struct sock at 0 in a struct
 * inet_connection_sock).
 */
#include "indirect/internal.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "common/search.h"
#include "common/sort.h"
#include "common/u64map.h"
#include "common/xalloc.h"

#define MAX_OFFS 16		/* places of the pointee in one type */
#define MAX_STEPS 4096		/* holders visited for one pointee */

static void add_member(void *ctx, uint64_t parent, uint64_t off, uint64_t type)
{
	struct ind_units *u = ctx;

	SP_ALLOC_GROW(u->m, u->nm + 1, u->mcap);
	u->m[u->nm].parent = parent;
	u->m[u->nm].off = off;
	u->m[u->nm++].type = type;
}

static void add_alias(void *ctx, uint64_t die, uint64_t type, bool array)
{
	struct ind_units *u = ctx;

	SP_ALLOC_GROW(u->a, u->na + 1, u->acap);
	u->a[u->na].die = die;
	u->a[u->na].type = type;
	u->a[u->na++].array = array;
}

/* The types of the unit holding DIE off, read once per unit. */
static bool unit_read(struct ind_image *im, uint64_t off)
{
	struct ind_units *u = &im->units;
	const struct dw_unit_types q = { add_member, add_alias, u };

	if (u->hi && off >= u->lo && off < u->hi)
		return u->ok;
	u->nm = u->na = u->nans = 0;
	u->lo = u->hi = 0;
	u->ok = im->reader && dw_unit_types(im->reader, off, &q, &u->lo, &u->hi);
	/* by type, each type's in DIE order (a stable sort): qsort's
	 * comparisons were 139 M instructions of Debian's typed kernel
	 * for its 58 units read */
	sp_sort_by_key(u->m, u->nm, sizeof(*u->m), offsetof(struct ind_unit_member, type));
	sp_sort_by_key(u->a, u->na, sizeof(*u->a), offsetof(struct ind_unit_alias, type));
	return u->ok;
}

/* Where the pointee lies in each type that holds it, by DIE. */
struct holder {
	uint64_t die;
	uint32_t n;
	bool is_alias;
	uint64_t off[MAX_OFFS];
};

struct holders {
	struct holder *v;
	size_t n, cap;
	struct sp_u64map at;	/* DIE -> v index */
	bool bad;		/* in an array, or too many places: unknown */
};

static struct holder *find(struct holders *h, uint64_t die)
{
	uint32_t i = sp_u64map_get(&h->at, die);

	return i == SP_NONE ? NULL : &h->v[i];
}

/* die holds the pointee at base + each of from's places; true when that
 * is new. */
static bool hold(struct holders *h, uint64_t die, uint64_t base, const struct holder *from,
		 bool is_alias)
{
	struct holder *x = find(h, die), copy = *from;
	bool changed = false;
	uint32_t i, j;

	if (!x) {
		SP_ALLOC_GROW(h->v, h->n + 1, h->cap);
		sp_u64map_put(&h->at, die, (uint32_t)h->n);
		x = &h->v[h->n++];
		memset(x, 0, sizeof(*x));
		x->die = die;
		x->is_alias = is_alias;
	}
	for (i = 0; i < copy.n; i++) {
		uint64_t o = base + copy.off[i];

		for (j = 0; j < x->n && x->off[j] != o; j++)
			;
		if (j < x->n)
			continue;
		if (x->n == MAX_OFFS) {
			h->bad = true;
			return false;
		}
		x->off[x->n++] = o;
		changed = true;
	}
	return changed;
}

static uint64_t member_type(const void *base, size_t i)
{
	return ((const struct ind_unit_member *)base)[i].type;
}

static uint64_t alias_type(const void *base, size_t i)
{
	return ((const struct ind_unit_alias *)base)[i].type;
}

/* The holders of x: its typedefs and qualifiers, the structs with a
 * member of its type; each whose places grew, to the queue. */
static void spread(const struct ind_units *u, struct holders *h, uint64_t x, uint64_t **queue,
		   size_t *nq, size_t *qcap)
{
	size_t i = sp_search_first_ge(u->a, u->na, alias_type, x);
	size_t j = sp_search_first_ge(u->m, u->nm, member_type, x);

	for (; i < u->na && u->a[i].type == x && !h->bad; i++) {
		if (u->a[i].array) {
			h->bad = true;
		} else if (hold(h, u->a[i].die, 0, find(h, x), true)) {
			SP_ALLOC_GROW(*queue, *nq + 1, *qcap);
			(*queue)[(*nq)++] = u->a[i].die;
		}
	}
	for (; j < u->nm && u->m[j].type == x && !h->bad; j++) {
		if (hold(h, u->m[j].parent, u->m[j].off, find(h, x), false)) {
			SP_ALLOC_GROW(*queue, *nq + 1, *qcap);
			(*queue)[(*nq)++] = u->m[j].parent;
		}
	}
}

/* Every type of the unit that holds the struct at DIE inner. */
static void holders_of(const struct ind_units *u, uint64_t inner, struct holders *h)
{
	struct holder first = { .die = inner, .n = 1 };
	uint64_t *queue = NULL;
	size_t nq = 0, qcap = 0, steps = 0;

	sp_u64map_init(&h->at, 64);
	hold(h, inner, 0, &first, false);
	SP_ALLOC_GROW(queue, 1, qcap);
	queue[nq++] = inner;
	while (nq && !h->bad) {
		/* a place found again and again: a loop, or too many */
		if (++steps > MAX_STEPS) {
			h->bad = true;
			break;
		}
		spread(u, h, queue[--nq], &queue, &nq, &qcap);
	}
	free(queue);
}

/* Is struct die an anonymous one that another struct holds? */
static bool held_anonymous(struct ind_image *im, uint64_t die)
{
	const struct ind_units *u = &im->units;
	const struct ind_type *t = ind_type_at(&im->types, die);
	size_t i = sp_search_first_ge(u->m, u->nm, member_type, die);

	return t && !t->name && i < u->nm && u->m[i].type == die;
}

/* Is the word at p a pointer to a struct: an object's address, which C
 * calls only after a cast, so no call's member? */
static bool object_pointer(struct ind_types *t, const struct ind_place *p)
{
	const struct ind_type *ptr = ind_type_at(t, p->type), *to;

	return !p->func && ptr && ptr->kind == IND_POINTER &&
	       (to = ind_type_at(t, ptr->target)) && to->kind == IND_STRUCT;
}

/* Is a function pointer of a named struct, one key. */
static bool plain_member(const struct ind_place *p)
{
	return p->func && p->key != SP_NONE && !p->alts;
}

/* The call's member is out's or p's, another candidate's: both plain
 * members, into out->any (IND_ANY_KEYS at most); false when not. */
static bool one_of(struct ind_place *out, const struct ind_place *p)
{
	if (!plain_member(out) || !plain_member(p))
		return false;
	if (!out->nany)
		out->any[out->nany++] = out->key;
	return ind_any_add(out->any, &out->nany, p->key);
}

/* Do two candidates' places say the same? */
static bool same_place(const struct ind_place *a, const struct ind_place *b, bool last)
{
	if (last)
		return a->func && b->func && a->key == b->key && a->func == b->func &&
		       a->alts == b->alts;
	return !a->func && !b->func && a->type == b->type;
}

static bool place_of(struct ind_image *im, uint64_t pointee, int64_t at, bool last,
		     struct ind_place *out)
{
	const struct ind_type *s = ind_type_at(&im->types, pointee);
	struct holders h = { 0 };
	bool found = false, ok = true;
	uint64_t die;
	size_t i;
	uint32_t k;

	memset(out, 0, sizeof(*out));
	out->key = SP_NONE;
	if (!s || s->kind != IND_STRUCT || !im->reader || !dw_reader_here(im->reader, s->die) ||
	    !unit_read(im, s->die))
		return false;
	/* its DIE, not s: held_anonymous() and ind_type_place() below read
	 * more types and may move the table s points into */
	die = s->die;
	holders_of(&im->units, die, &h);
	for (i = 0; ok && !h.bad && i < h.n; i++) {
		const struct holder x = h.v[i];

		if (x.is_alias || x.die == die || held_anonymous(im, x.die))
			continue;
		for (k = 0; ok && k < x.n; k++) {
			struct ind_place p;

			if ((int64_t)x.off[k] + at < 0 ||
			    !ind_type_place(&im->types, x.die, (uint64_t)((int64_t)x.off[k] + at), &p) ||
			    !p.type || (last && object_pointer(&im->types, &p)))
				continue;
			if (!found)
				*out = p;
			else if (!same_place(out, &p, last) && !(last && one_of(out, &p)))
				ok = false;
			found = true;
		}
	}
	ok = ok && found && !h.bad && same_place(out, out, last);
	free(h.v);
	sp_u64map_release(&h.at);
	return ok;
}

bool ind_container_place(struct ind_image *im, uint64_t pointee, int64_t at, bool last,
			 struct ind_place *out)
{
	struct ind_units *u = &im->units;
	struct ind_unit_answer *a;
	bool ok;
	size_t i;

	if (!u->wanted)
		return false;
	for (i = 0; i < u->nans; i++) {
		a = &u->ans[i];
		if (a->pointee == pointee && a->at == at && a->last == last) {
			*out = a->p;
			return a->ok;
		}
	}
	ok = place_of(im, pointee, at, last, out);
	/* kept while its unit is the one read */
	if (u->hi && pointee >= u->lo && pointee < u->hi) {
		SP_ALLOC_GROW(u->ans, u->nans + 1, u->anscap);
		a = &u->ans[u->nans++];
		a->pointee = pointee;
		a->at = at;
		a->last = last;
		a->ok = ok;
		a->p = *out;
	}
	return ok;
}

void ind_units_release(struct ind_units *u)
{
	free(u->m);
	free(u->a);
	free(u->ans);
	memset(u, 0, sizeof(*u));
}
