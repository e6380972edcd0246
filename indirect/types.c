/*
 * types.c - DWARF types as --indirect=types needs them: structs and
 * their members' offsets, pointers, arrays, function types; read on
 * demand by DIE offset and kept.
 *
 * The types are dwarf/'s answers (dw_type_of, dw_type_members), kept by
 * DIE offset.  Only what the sites, the stores and the initialised
 * variables reach is read: at kernel scale, a few thousand of the million
 * type DIEs.  A struct whose members overlap, or that holds itself, is
 * marked bad: its pointers are not trusted, and a site that needs it
 * falls back.
 */
#include "indirect/internal.h"

#include <string.h>

#include "common/xalloc.h"

#define MAX_TYPE_HOPS 32	/* pointers to pointers; longer is a loop */
#define MAX_DEPTH 16		/* structs inside structs */
#define MAX_SLOTS 65536		/* function pointers of one type */

/*
 * The maps are made again for every unit (ind_types_reset), thousands of
 * times in a kernel, and a unit has some fifty types (a few hundred at
 * most): sized for that, they grow when a unit has more, where tables
 * sized for the largest cost more to fill, free and fault in than the
 * lookups in them.
 */
/* One answer of ind_type_place. */
struct ind_place_answer {
	struct ind_place p;
	bool ok;
};

static void maps_init(struct ind_types *t)
{
	sp_u64map_init(&t->by_off, 64);
	sp_u64map_init(&t->proto_by_off, 16);
	sp_u64map_init(&t->place_at, 64);
	t->nplaces = 0;
}

void ind_types_init(struct ind_types *t, struct dw_reader *reader, struct sp_graph *g,
		    struct ind_keys *keys, uint8_t addr_size)
{
	memset(t, 0, sizeof(*t));
	t->reader = reader;
	t->g = g;
	t->keys = keys;
	t->addr_size = addr_size;
	maps_init(t);
}

void ind_types_release(struct ind_types *t)
{
	free(t->v);
	free(t->members);
	free(t->slots);
	free(t->pslots);
	free(t->protos);
	free(t->places);
	sp_u64map_release(&t->by_off);
	sp_u64map_release(&t->proto_by_off);
	sp_u64map_release(&t->place_at);
	memset(t, 0, sizeof(*t));
}

void ind_types_reset(struct ind_types *t)
{
	t->n = t->nmembers = t->nslots = t->nprotos = t->npslots = 0;
	sp_u64map_release(&t->by_off);
	sp_u64map_release(&t->proto_by_off);
	sp_u64map_release(&t->place_at);
	maps_init(t);
}

static void add_member(void *ctx, const struct dw_member *m)
{
	struct ind_types *t = ctx;

	SP_ALLOC_GROW(t->members, t->nmembers + 1, t->members_cap);
	t->members[t->nmembers].off = m->off;
	t->members[t->nmembers].type = m->type;
	t->members[t->nmembers].die = m->die;
	t->members[t->nmembers].typed = false;
	t->members[t->nmembers++].named = false;
}

/* The name of member m (an index into t->members, SP_NONE for none),
 * for a key or a slot: read the first time one asks, as most members
 * read are only passed on the way to an offset. */
static const char *member_name(struct ind_types *t, uint32_t m)
{
	struct ind_member *mb = m == SP_NONE ? NULL : &t->members[m];

	if (!mb)
		return NULL;
	if (!mb->named) {
		mb->name = t->reader ? dw_member_name(t->reader, t->g, mb->die) : NULL;
		mb->named = true;
	}
	return mb->name;
}

static uint32_t type_index(struct ind_types *t, uint64_t off);

/* The index of member m's type (t->members' index m): looked up once,
 * as the walks through a struct ask for every member's at each place
 * they look for, and a struct has hundreds. */
static uint32_t member_type(struct ind_types *t, uint32_t m)
{
	uint32_t k;

	if (!t->members[m].typed) {
		k = type_index(t, t->members[m].type);
		t->members[m].index = k;
		t->members[m].typed = true;
	}
	return t->members[m].index;
}

/* A struct's members, read when first asked for: most structs a pointer
 * points to are never looked into. */
static void members_of(struct ind_types *t, uint32_t i)
{
	struct ind_type ty = t->v[i];

	if (ty.members_read || ty.kind != IND_STRUCT)
		return;
	ty.members_read = true;
	ty.member = (uint32_t)t->nmembers;
	if (!t->reader || !dw_type_members(t->reader, ty.die, add_member, t))
		ty.bad = ty.unread = true;
	ty.nmembers = (uint32_t)(t->nmembers - ty.member);
	t->v[i] = ty;
}

static const uint8_t kinds[] = {
	[DW_TYPE_OTHER] = IND_OTHER, [DW_TYPE_STRUCT] = IND_STRUCT,
	[DW_TYPE_POINTER] = IND_POINTER, [DW_TYPE_ARRAY] = IND_ARRAY,
	[DW_TYPE_FUNC] = IND_FUNC,
};

/* What dwarf/ says the type is, as the typing sees it. */
static void read_type(struct ind_types *t, const struct dw_type *dt, struct ind_type *ty)
{
	ty->slot = ty->nslots = -1;
	ty->pslot = ty->npslots = -1;
	ty->kind = kinds[dt->kind];
	ty->is_union = dt->is_union;
	ty->die = dt->die;
	ty->name = dt->name;
	ty->size = dt->size;
	ty->target = dt->target;
	ty->count = dt->count;
	if (ty->kind == IND_POINTER && !ty->size)
		ty->size = t->addr_size;
}

/* What a pointer's pointee and an array's element are: a function type
 * behind the pointer, the size of the array. */
static void complete(struct ind_types *t, uint32_t i)
{
	uint32_t k;

	if (t->v[i].kind == IND_POINTER) {
		k = type_index(t, t->v[i].target);
		if (k != SP_NONE && t->v[k].kind == IND_FUNC)
			t->v[i].func = t->v[i].target;
	} else if (t->v[i].kind == IND_ARRAY && !t->v[i].size) {
		k = type_index(t, t->v[i].target);
		if (k != SP_NONE && t->v[i].count && t->v[k].size &&
		    t->v[i].count <= UINT64_MAX / t->v[k].size)
			t->v[i].size = t->v[i].count * t->v[k].size;
	}
}

/* A function type's DIE is not stripped (its parameters are read from
 * it by dw_call_proto): its own offset stands for it. */
static uint64_t func_die(struct ind_types *t, uint64_t off)
{
	struct dw_type dt;

	return dw_type_of(t->reader, t->g, off, &dt) && dt.kind == DW_TYPE_FUNC ? dt.die : 0;
}

static uint32_t type_index(struct ind_types *t, uint64_t off)
{
	uint32_t i = off ? sp_u64map_get(&t->by_off, off) : SP_NONE;
	struct ind_type ty = { 0 };
	struct dw_type dt;

	if (i != SP_NONE || !off)
		return i;
	if (!t->reader || !dw_type_of(t->reader, t->g, off, &dt))
		return SP_NONE;
	read_type(t, &dt, &ty);
	SP_ALLOC_GROW(t->v, t->n + 1, t->cap);
	i = (uint32_t)t->n++;
	t->v[i] = ty;
	/* put first: a pointer to its own struct ends here */
	sp_u64map_put(&t->by_off, off, i);
	/* a hostile chain of pointers to pointers would recurse unbounded */
	if (t->depth < MAX_TYPE_HOPS) {
		t->depth++;
		complete(t, i);
		t->depth--;
	}
	if (t->v[i].func)
		t->v[i].func = func_die(t, t->v[i].func);
	return i;
}

const struct ind_type *ind_type_at(struct ind_types *t, uint64_t off)
{
	uint32_t i = type_index(t, off);

	return i == SP_NONE ? NULL : &t->v[i];
}

int ind_type_kind(struct ind_types *t, uint64_t off)
{
	uint32_t i = off ? sp_u64map_get(&t->by_off, off) : SP_NONE;
	struct dw_type dt;

	if (i != SP_NONE)
		return t->v[i].kind;
	if (!off || !t->reader || !dw_type_of(t->reader, t->g, off, &dt))
		return -1;
	return kinds[dt.kind];
}

const char *ind_type_proto(struct ind_types *t, uint64_t func)
{
	uint32_t i = func ? sp_u64map_get(&t->proto_by_off, func) : SP_NONE;

	if (!func)
		return NULL;
	if (i == SP_NONE) {
		SP_ALLOC_GROW(t->protos, t->nprotos + 1, t->protos_cap);
		t->protos[t->nprotos] = t->reader ? dw_call_proto(t->reader, t->g, func) : NULL;
		i = (uint32_t)t->nprotos++;
		sp_u64map_put(&t->proto_by_off, func, i);
	}
	return t->protos[i];
}

/* ---- the function pointers of a type ---- */

struct flat {
	struct ind_slot *v;	/* being built: copied into t->slots at the end */
	size_t n, cap;
	bool bad;
};

static void flat_add(struct flat *f, const struct ind_slot *s)
{
	if (f->n >= MAX_SLOTS) {
		f->bad = true;
		return;
	}
	SP_ALLOC_GROW(f->v, f->n + 1, f->cap);
	f->v[f->n++] = *s;
}

static int32_t slots_of(struct ind_types *t, uint32_t i, int depth);

/* The slots of the type at off put at base (key_base for the keys) into
 * struct named name (NULL: none yet), as member (t->members' index) of
 * it. */
static void embed(struct ind_types *t, struct flat *f, uint64_t off, uint64_t base,
		  uint64_t key_base, const char *name, uint32_t member, int depth)
{
	uint32_t k = type_index(t, off);
	int32_t n, j;

	if (k == SP_NONE)
		return;
	if (t->v[k].kind == IND_POINTER) {
		struct ind_slot s = { .off = base, .key_off = key_base, .key = SP_NONE,
				      .func = t->v[k].func };

		if (s.func) {
			s.member = member_name(t, member);
			flat_add(f, &s);
		}
		return;
	}
	if (t->v[k].kind == IND_ARRAY) {
		uint32_t e = type_index(t, t->v[k].target);
		uint64_t i, esize = e != SP_NONE ? t->v[e].size : 0;

		for (i = 0; esize && i < t->v[k].count && !f->bad; i++)
			embed(t, f, t->v[k].target, base + i * esize, key_base, name, member,
			      depth);
		return;
	}
	if (t->v[k].kind != IND_STRUCT || (n = slots_of(t, k, depth + 1)) <= 0)
		return;
	for (j = 0; j < n && !f->bad; j++) {
		struct ind_slot s = t->slots[t->v[k].slot + j];

		s.off += base;
		if (s.key == SP_NONE && name)
			s.key = ind_key(t->keys, name, key_base + s.key_off, s.member,
					ind_type_proto(t, s.func));
		s.key_off += key_base;
		flat_add(f, &s);
	}
}

/* Do the members of a struct (not a union) overlap, or leave it? */
static bool overlapping(struct ind_types *t, uint32_t i)
{
	uint32_t first, n, m, empty;
	uint64_t end = 0;

	members_of(t, i);
	if (t->v[i].is_union)
		return false;
	first = t->v[i].member;
	n = empty = t->v[i].nmembers;
	for (m = 0; m < n; m++) {
		uint32_t k = member_type(t, first + m);
		const struct ind_member *mb = &t->members[first + m];
		uint64_t size = k != SP_NONE ? t->v[k].size : 0;

		if (mb->off < end || (t->v[i].size && mb->off + size > t->v[i].size))
			return true;
		end = mb->off + size;
		if (!size && empty == n)
			empty = m;
	}
	t->v[i].first_empty = empty;
	return false;
}

/* Can the struct's members be trusted (checked once)? */
static bool struct_ok(struct ind_types *t, uint32_t i)
{
	if (!t->v[i].checked) {
		bool bad = t->v[i].bad || overlapping(t, i) || t->v[i].bad;

		t->v[i].checked = bad ? 2 : 1;
		t->v[i].bad = bad;
	}
	return t->v[i].checked == 1;
}

/* The first member of struct i (first, n: its members, in order of
 * offset) whose offset is past off. */
static uint32_t member_past(const struct ind_types *t, uint32_t first, uint32_t n, uint64_t off)
{
	uint32_t lo = 0, hi = n;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (t->members[first + mid].off <= off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * The members of struct i (members read) that may hold off, [*from, the
 * index returned): all of them, but in a struct whose overlap was
 * checked (every member's type looked up then), none past off, and
 * before its first member of no size (which holds every offset past
 * its own) only the last: each of the others ends where the next one
 * begins, at off at most (a struct has hundreds of members, and the
 * chains ask at each place).
 */
static uint32_t members_holding(const struct ind_types *t, uint32_t i, uint64_t off,
				uint32_t *from)
{
	uint32_t n = t->v[i].nmembers;

	*from = 0;
	if (t->v[i].checked != 1 || t->v[i].is_union)
		return n;
	n = member_past(t, t->v[i].member, n, off);
	*from = n ? n - 1 : 0;
	if (t->v[i].first_empty < *from)
		*from = t->v[i].first_empty;
	return n;
}

static int32_t slots_of(struct ind_types *t, uint32_t i, int depth)
{
	struct flat f = { 0 };
	const char *name = t->v[i].name;
	uint32_t m, first, n;

	if (t->v[i].nslots >= 0 || t->v[i].nslots == -2)
		return t->v[i].nslots == -2 ? 0 : t->v[i].nslots;
	if (depth > MAX_DEPTH || t->v[i].bad) {
		t->v[i].bad = true;
		t->v[i].nslots = 0;
		return 0;
	}
	t->v[i].nslots = -2;	/* a struct that holds itself ends here */
	if (!struct_ok(t, i))
		f.bad = true;
	first = t->v[i].member;
	n = t->v[i].nmembers;
	for (m = 0; m < n && !f.bad; m++) {
		const struct ind_member mb = t->members[first + m];

		embed(t, &f, mb.type, mb.off, mb.off, name, first + m, depth);
	}
	/* the struct's own pointers (and its anonymous members') are filed
	 * under it */
	for (m = 0; name && m < f.n; m++)
		if (f.v[m].key == SP_NONE)
			f.v[m].key = ind_key(t->keys, name, f.v[m].key_off, f.v[m].member,
					     ind_type_proto(t, f.v[m].func));
	if (f.bad) {
		t->v[i].bad = true;
		f.n = 0;
	}
	SP_ALLOC_GROW(t->slots, t->nslots + f.n, t->slots_cap);
	if (f.n)
		memcpy(t->slots + t->nslots, f.v, f.n * sizeof(*f.v));
	t->v[i].slot = (int32_t)t->nslots;
	t->v[i].nslots = (int32_t)f.n;
	t->nslots += f.n;
	free(f.v);
	return t->v[i].nslots;
}

const struct ind_slot *ind_type_slots(struct ind_types *t, uint64_t off, int32_t *n)
{
	uint32_t i = type_index(t, off);

	*n = 0;
	if (i == SP_NONE || t->v[i].kind != IND_STRUCT)
		return NULL;
	*n = slots_of(t, i, 0);
	return *n > 0 ? t->slots + t->v[i].slot : NULL;
}

/* ---- the pointers to structs of a type ---- */

struct pflat {
	struct ind_pslot *v;	/* being built: copied into t->pslots at the end */
	size_t n, cap;
	bool bad;
};

static void pflat_add(struct ind_types *t, struct pflat *f, const struct ind_pslot *s)
{
	if (f->n >= MAX_SLOTS) {
		f->bad = true;
		t->pkeys->deep = true;	/* its words are not all filed */
		return;
	}
	SP_ALLOC_GROW(f->v, f->n + 1, f->cap);
	f->v[f->n++] = *s;
}

static int32_t pslots_of(struct ind_types *t, uint32_t i, int depth);

/* The pointers to structs of the type at off, put at base (key_base
 * for the keys). */
static void pembed(struct ind_types *t, struct pflat *f, uint64_t off, uint64_t base,
		   uint64_t key_base, int depth)
{
	uint32_t k = type_index(t, off), e;
	int32_t n, j;

	if (k == SP_NONE)
		return;
	if (t->v[k].kind == IND_POINTER) {
		struct ind_pslot s = { .off = base, .key_off = key_base };

		e = t->v[k].func ? SP_NONE : type_index(t, t->v[k].target);
		if (e != SP_NONE && t->v[e].kind == IND_STRUCT)
			pflat_add(t, f, &s);
		return;
	}
	if (t->v[k].kind == IND_ARRAY) {
		uint64_t i, esize;

		e = type_index(t, t->v[k].target);
		esize = e != SP_NONE ? t->v[e].size : 0;
		for (i = 0; esize && i < t->v[k].count && !f->bad; i++)
			pembed(t, f, t->v[k].target, base + i * esize, key_base, depth);
		return;
	}
	if (t->v[k].kind != IND_STRUCT || (n = pslots_of(t, k, depth + 1)) <= 0)
		return;
	for (j = 0; j < n && !f->bad; j++) {
		struct ind_pslot s = t->pslots[t->v[k].pslot + j];

		s.off += base;
		s.key_off += key_base;
		pflat_add(t, f, &s);
	}
}

static int32_t pslots_of(struct ind_types *t, uint32_t i, int depth)
{
	struct pflat f = { 0 };
	const char *name = t->v[i].name;
	uint32_t m, first, n;

	if (t->v[i].npslots >= 0 || t->v[i].npslots == -2)
		return t->v[i].npslots == -2 ? 0 : t->v[i].npslots;
	t->v[i].npslots = -2;	/* a struct that holds itself ends here */
	/* the words of a struct whose members overlap are still its
	 * members': filed under more keys than they are in, not fewer */
	members_of(t, i);
	if (depth > MAX_DEPTH || t->v[i].unread)
		f.bad = true;
	first = t->v[i].member;
	n = t->v[i].nmembers;
	for (m = 0; m < n && !f.bad; m++)
		pembed(t, &f, t->members[first + m].type, t->members[first + m].off,
		       t->members[first + m].off, depth);
	for (m = 0; name && m < f.n; m++) {
		struct ind_pslot *s = &f.v[m];

		/* the innermost are kept: a call through a pointer to
		 * one of the outer structs is not narrowed (ind_type_path) */
		if (s->n == IND_PATH)
			memmove(s->key, s->key + 1, --s->n * sizeof(*s->key));
		memmove(s->key + 1, s->key, s->n * sizeof(*s->key));
		s->key[0] = ind_key(t->pkeys, name, s->key_off, NULL, NULL);
		s->n++;
	}
	if (f.bad) {
		t->pkeys->deep = true;
		f.n = 0;
	}
	SP_ALLOC_GROW(t->pslots, t->npslots + f.n, t->pslots_cap);
	if (f.n)
		memcpy(t->pslots + t->npslots, f.v, f.n * sizeof(*f.v));
	t->v[i].pslot = (int32_t)t->npslots;
	t->v[i].npslots = (int32_t)f.n;
	t->npslots += f.n;
	free(f.v);
	return t->v[i].npslots;
}

const struct ind_pslot *ind_type_pslots(struct ind_types *t, uint64_t off, int32_t *n)
{
	uint32_t i = type_index(t, off);

	*n = 0;
	if (i == SP_NONE || t->v[i].kind != IND_STRUCT || !t->pkeys)
		return NULL;
	*n = pslots_of(t, i, 0);
	return *n > 0 ? t->pslots + t->v[i].pslot : NULL;
}

/* The one member of struct i that holds byte off: false when none, or
 * when a union's several do (any: the first). */
static bool only_member(struct ind_types *t, uint32_t i, uint64_t off, bool any,
			struct ind_member *out)
{
	uint32_t m, found = 0;

	memset(out, 0, sizeof(*out));
	if (!struct_ok(t, i))
		return false;
	for (m = 0; m < t->v[i].nmembers; m++) {
		uint32_t k = member_type(t, t->v[i].member + m);
		const struct ind_member mb = t->members[t->v[i].member + m];

		if (k == SP_NONE || off < mb.off || (t->v[k].size && off >= mb.off + t->v[k].size))
			continue;
		if (!found++)
			*out = mb;
	}
	return found == 1 || (any && found);
}

bool ind_type_path(struct ind_types *t, uint64_t type, uint64_t off, bool outer,
		   uint32_t *path, uint8_t *n, uint64_t *pointee)
{
	const char *names[IND_PATH];
	uint64_t koff[IND_PATH], esize;
	struct ind_member mb = { 0 };
	uint32_t i, e, j;
	int depth;

	*n = 0;
	for (depth = 0; depth <= MAX_DEPTH; depth++) {
		if ((i = type_index(t, type)) == SP_NONE)
			return false;
		if (t->v[i].kind == IND_POINTER) {
			e = t->v[i].func || off ? SP_NONE : type_index(t, t->v[i].target);
			if (e == SP_NONE || t->v[e].kind != IND_STRUCT || !*n)
				return false;
			for (j = 0; j < *n; j++)
				path[j] = ind_key(t->pkeys, names[j], koff[j], NULL, NULL);
			*pointee = t->v[i].target;
			return true;
		}
		if (t->v[i].kind == IND_ARRAY) {
			/* every element is filed under the first one's key */
			e = type_index(t, t->v[i].target);
			esize = e != SP_NONE ? t->v[e].size : 0;
			if (!esize || (t->v[i].count && off >= t->v[i].count * esize))
				return false;
			off %= esize;
			type = t->v[i].target;
			continue;
		}
		if (t->v[i].kind != IND_STRUCT || !only_member(t, i, off, outer, &mb))
			return false;
		if (t->v[i].name && *n == IND_PATH && !outer)
			return false;
		if (t->v[i].name && *n < IND_PATH) {
			names[*n] = t->v[i].name;
			koff[(*n)++] = 0;
		}
		for (j = 0; j < *n; j++)
			koff[j] += mb.off;
		off -= mb.off;
		type = mb.type;
	}
	return false;
}

/* The named structs a store's place is inside so far: each one's name
 * and the place's offset in it. */
struct open_structs {
	const char *name[IND_PATH];
	uint64_t koff[IND_PATH];
	uint8_t n;
};

struct store_keys {
	uint32_t *keys;
	uint8_t n, max;
	int steps;
};

static void add_store_key(struct ind_types *t, struct store_keys *sk, uint32_t key)
{
	uint8_t j;

	for (j = 0; j < sk->n; j++)
		if (sk->keys[j] == key)
			return;
	if (sk->n == sk->max)
		t->pkeys->deep = true;
	else
		sk->keys[sk->n++] = key;
}

static void store_walk(struct ind_types *t, uint64_t type, uint64_t off, struct open_structs o,
		       int depth, struct store_keys *sk)
{
	uint32_t i = type_index(t, type), e, m, n, from;
	uint64_t esize;
	uint8_t j;

	if (i == SP_NONE)
		return;
	if (depth > MAX_DEPTH || ++sk->steps > 4096) {
		t->pkeys->deep = true;
		return;
	}
	switch (t->v[i].kind) {
	case IND_POINTER:
		e = t->v[i].func || off ? SP_NONE : type_index(t, t->v[i].target);
		for (j = 0; e != SP_NONE && t->v[e].kind == IND_STRUCT && j < o.n; j++)
			add_store_key(t, sk, ind_key(t->pkeys, o.name[j], o.koff[j], NULL, NULL));
		return;
	case IND_ARRAY:
		e = type_index(t, t->v[i].target);
		esize = e != SP_NONE ? t->v[e].size : 0;
		if (esize && (!t->v[i].count || off < t->v[i].count * esize))
			store_walk(t, t->v[i].target, off % esize, o, depth + 1, sk);
		return;
	case IND_STRUCT:
		break;
	default:
		return;
	}
	members_of(t, i);
	if (t->v[i].unread) {
		t->pkeys->deep = true;
		return;
	}
	if (t->v[i].name) {
		/* the innermost are kept, as a data word's (pslots_of) */
		if (o.n == IND_PATH) {
			memmove(o.name, o.name + 1, --o.n * sizeof(*o.name));
			memmove(o.koff, o.koff + 1, o.n * sizeof(*o.koff));
		}
		o.name[o.n] = t->v[i].name;
		o.koff[o.n++] = 0;
	}
	/* every member that holds off: a union's each, and those of a
	 * struct whose members overlap */
	n = members_holding(t, i, off, &from);
	for (m = from; m < n; m++) {
		uint32_t k = member_type(t, t->v[i].member + m);
		const struct ind_member mb = t->members[t->v[i].member + m];
		struct open_structs in = o;

		if (k == SP_NONE || off < mb.off || (t->v[k].size && off >= mb.off + t->v[k].size))
			continue;
		for (j = 0; j < in.n; j++)
			in.koff[j] += mb.off;
		store_walk(t, mb.type, off - mb.off, in, depth + 1, sk);
	}
}

uint8_t ind_type_store_keys(struct ind_types *t, uint64_t type, uint64_t off, uint32_t *keys,
			    uint8_t max)
{
	struct open_structs o = { .n = 0 };
	struct store_keys sk = { .keys = keys, .max = max };

	store_walk(t, type, off, o, 0, &sk);
	return sk.n;
}

/* ---- the pointer at an offset ---- */

struct walk {
	const char *name;	/* the innermost named struct so far */
	uint64_t key_off;	/* the offset the key names, in it */
	uint32_t member;	/* the member, in ind_types.members (SP_NONE: none) */
};

static bool place_in(struct ind_types *t, uint64_t type, uint64_t off, struct walk w,
		     int depth, struct ind_place *out);

/* The member of struct i holding off, into out. */
static bool place_in_struct(struct ind_types *t, uint32_t i, uint64_t off, struct walk w,
			    int depth, struct ind_place *out)
{
	uint32_t m, first, n, from;
	bool found = false, alts = false;

	if (!struct_ok(t, i))
		return false;
	first = t->v[i].member;
	n = t->v[i].nmembers;
	if (t->v[i].name) {
		w.name = t->v[i].name;
		w.key_off = 0;
	}
	n = members_holding(t, i, off, &from);
	/* in a union several members hold off: a pointer to a struct is
	 * what a chain goes on with, so it is preferred */
	for (m = from; m < n; m++) {
		uint32_t k = member_type(t, first + m);
		const struct ind_member mb = t->members[first + m];
		/* a pointer sets only its own fields: no union is there */
		struct ind_place p = { .key = SP_NONE };
		struct walk inner;

		if (k == SP_NONE || off < mb.off || (t->v[k].size && off >= mb.off + t->v[k].size))
			continue;
		inner = w;
		inner.key_off = w.key_off + mb.off;
		inner.member = first + m;
		if (!place_in(t, mb.type, off - mb.off, inner, depth + 1, &p))
			continue;
		if (found && out->func && p.func && t->v[i].is_union)
			alts = true;
		if (!found || (!out->func && p.func) || !out->type) {
			*out = p;
			found = true;
		}
	}
	if (alts)
		out->alts = t->v[i].die;
	return found;
}

const char *ind_union_member(struct ind_types *t, uint64_t alts, const char *proto)
{
	uint32_t i = type_index(t, alts), m;

	if (i == SP_NONE || t->v[i].kind != IND_STRUCT || !proto)
		return NULL;
	members_of(t, i);
	for (m = 0; m < t->v[i].nmembers; m++) {
		uint32_t k = member_type(t, t->v[i].member + m);

		if (k != SP_NONE && t->v[k].func && ind_type_proto(t, t->v[k].func) == proto)
			return member_name(t, t->v[i].member + m);
	}
	return NULL;
}

static bool place_in(struct ind_types *t, uint64_t type, uint64_t off, struct walk w,
		     int depth, struct ind_place *out)
{
	uint32_t i = type_index(t, type), e;
	uint64_t esize;

	if (i == SP_NONE || depth > MAX_DEPTH)
		return false;
	switch (t->v[i].kind) {
	case IND_POINTER:
		if (off)
			return false;
		out->type = type;
		out->func = t->v[i].func;
		out->key = out->func && w.name ?
			   ind_key(t->keys, w.name, w.key_off, member_name(t, w.member),
				   ind_type_proto(t, out->func)) : SP_NONE;
		return true;
	case IND_ARRAY:
		e = type_index(t, t->v[i].target);
		esize = e != SP_NONE ? t->v[e].size : 0;
		if (!esize || (t->v[i].count && off >= t->v[i].count * esize))
			return false;
		/* every element is filed under the first one's key */
		if (!place_in(t, t->v[i].target, off % esize, w, depth + 1, out))
			return false;
		if (!out->stride)
			out->stride = esize;
		return true;
	case IND_STRUCT:
		return place_in_struct(t, i, off, w, depth, out);
	}
	return false;
}

/* The key of the answer for the word at off of type: the DIE offset
 * above the low 24 bits, UINT64_MAX (kept nowhere) when either is too
 * large. */
static uint64_t place_key(uint64_t type, uint64_t off)
{
	return type < (UINT64_C(1) << 39) && off < (UINT64_C(1) << 24) ? type << 24 | off :
	       UINT64_MAX;
}

/* Each answer is kept until the unit's types are forgotten: the chains
 * of a unit ask the same places again and again (a struct's member
 * through each function's pointer to it), and each asking walked the
 * members afresh.  The walk reads the same types to the same answer,
 * and the key it may file (ind_key) is filed already. */
bool ind_type_place(struct ind_types *t, uint64_t type, uint64_t off, struct ind_place *out)
{
	struct walk w = { .member = SP_NONE };
	uint64_t key = place_key(type, off);
	uint32_t k = key != UINT64_MAX ? sp_u64map_get(&t->place_at, key) : SP_NONE;
	bool ok;

	if (k != SP_NONE) {
		*out = t->places[k].p;
		return t->places[k].ok;
	}
	memset(out, 0, sizeof(*out));
	out->key = SP_NONE;
	ok = place_in(t, type, off, w, 0, out);
	if (key != UINT64_MAX) {
		SP_ALLOC_GROW(t->places, t->nplaces + 1, t->places_cap);
		t->places[t->nplaces].p = *out;
		t->places[t->nplaces].ok = ok;
		sp_u64map_put(&t->place_at, key, (uint32_t)t->nplaces++);
	}
	return ok;
}

/* ---- a word no pointer is in ---- */

/* Is the word at off of the type at DIE type an integer (or an enum, a
 * float) in each member that holds it: a base type of known size that
 * holds the whole word, in a struct whose members are known?  false
 * when a pointer, a function, void, padding or anything unknown may be
 * there, or the word is wider than the integer (a char * the base: the
 * bytes of any object). */
static bool scalar_in(struct ind_types *t, uint64_t type, uint64_t off, int depth)
{
	uint32_t i = type_index(t, type), k, m, n, from;
	uint64_t esize;
	bool held = false;

	if (i == SP_NONE || depth > MAX_DEPTH)
		return false;
	switch (t->v[i].kind) {
	case IND_OTHER:
		return off + t->addr_size <= t->v[i].size;
	case IND_ARRAY:
		k = type_index(t, t->v[i].target);
		esize = k != SP_NONE ? t->v[k].size : 0;
		return esize && t->v[i].count && off < t->v[i].count * esize &&
		       scalar_in(t, t->v[i].target, off % esize, depth + 1);
	case IND_STRUCT:
		break;
	default:
		return false;
	}
	if (!struct_ok(t, i) || !t->v[i].size || off >= t->v[i].size)
		return false;
	n = members_holding(t, i, off, &from);
	for (m = from; m < n; m++) {
		const struct ind_member mb = t->members[t->v[i].member + m];

		k = member_type(t, t->v[i].member + m);
		if (k == SP_NONE || !t->v[k].size)
			return false;
		if (off < mb.off || off >= mb.off + t->v[k].size)
			continue;
		if (!scalar_in(t, mb.type, off - mb.off, depth + 1))
			return false;
		held = true;
	}
	return held;
}

bool ind_type_scalar_at(struct ind_types *t, uint64_t type, uint64_t off)
{
	return scalar_in(t, type, off, 0);
}

/* ---- every pointer to a struct at an offset: a union's each ---- */

struct struct_ptrs {
	uint64_t *v;
	uint8_t n, max;
	bool over;		/* more than max */
};

static void struct_ptrs_in(struct ind_types *t, uint64_t type, uint64_t off, int depth,
			   struct struct_ptrs *out)
{
	uint32_t i = type_index(t, type), k, m, n, from;
	uint64_t esize;

	if (i == SP_NONE || depth > MAX_DEPTH)
		return;
	switch (t->v[i].kind) {
	case IND_POINTER:
		k = t->v[i].func || off ? SP_NONE : type_index(t, t->v[i].target);
		if (k == SP_NONE || t->v[k].kind != IND_STRUCT)
			return;
		for (m = 0; m < out->n; m++)
			if (out->v[m] == type)
				return;
		if (out->n == out->max)
			out->over = true;
		else
			out->v[out->n++] = type;
		return;
	case IND_ARRAY:
		k = type_index(t, t->v[i].target);
		esize = k != SP_NONE ? t->v[k].size : 0;
		if (esize && (!t->v[i].count || off < t->v[i].count * esize))
			struct_ptrs_in(t, t->v[i].target, off % esize, depth + 1, out);
		return;
	case IND_STRUCT:
		break;
	default:
		return;
	}
	if (!struct_ok(t, i))
		return;
	n = members_holding(t, i, off, &from);
	for (m = from; m < n; m++) {
		const struct ind_member mb = t->members[t->v[i].member + m];

		/* each member's type looked up once (a struct has hundreds) */
		k = member_type(t, t->v[i].member + m);
		if (k != SP_NONE && off >= mb.off && (!t->v[k].size || off < mb.off + t->v[k].size))
			struct_ptrs_in(t, mb.type, off - mb.off, depth + 1, out);
	}
}

uint8_t ind_type_struct_ptrs(struct ind_types *t, uint64_t type, uint64_t off, uint64_t *v,
			     uint8_t max)
{
	struct struct_ptrs out = { .v = v, .max = max };

	struct_ptrs_in(t, type, off, 0, &out);
	return out.over ? 0 : out.n;
}
