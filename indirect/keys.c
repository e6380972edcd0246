/*
 * keys.c - one key per member of a named struct that holds a function
 * pointer, and the functions found there: in the initialised objects of
 * that struct type (every compile unit's and image's alike: the key is
 * the struct's name, interned, and the member's offset) and in the
 * stores of the code.
 */
#include "indirect/internal.h"

#include <string.h>

#include "common/xalloc.h"

void ind_keys_init(struct ind_keys *k)
{
	memset(k, 0, sizeof(*k));
	sp_u64map_init(&k->by_name, 1024);
}

void ind_keys_release(struct ind_keys *k)
{
	uint32_t i;

	for (i = 0; i < k->n; i++) {
		free(k->v[i].targets);
		free(k->v[i].code);
	}
	free(k->v);
	free(k->objs);
	free(k->pool);
	sp_u64map_release(&k->by_name);
	memset(k, 0, sizeof(*k));
}

uint32_t ind_key(struct ind_keys *k, const char *name, uint64_t off, const char *member,
		 const char *proto)
{
	uint32_t i = sp_u64map_get(&k->by_name, (uintptr_t)name), first = i;
	struct ind_key *key;

	for (; i != SP_NONE; i = k->v[i].next)
		if (k->v[i].off == off) {
			/* another unit's struct of the same name may type it */
			if (!k->v[i].proto && proto)
				k->v[i].proto = proto;
			return i;
		}
	SP_ALLOC_GROW(k->v, k->n + 1, k->cap);
	i = k->n++;
	key = &k->v[i];
	memset(key, 0, sizeof(*key));
	key->name = name;
	key->off = off;
	key->member = member;
	key->proto = proto;
	key->next = first;
	sp_u64map_put(&k->by_name, (uintptr_t)name, i);
	return i;
}

void ind_key_add(struct ind_keys *k, uint32_t key, uint32_t func)
{
	struct ind_key *x = &k->v[key];

	/* the same function is often stored again: skip the last one's twin */
	if (x->ntargets && x->targets[x->ntargets - 1] == func)
		return;
	SP_ALLOC_GROW(x->targets, x->ntargets + 1, x->cap);
	x->targets[x->ntargets++] = func;
}

void ind_key_add_code(struct ind_keys *k, uint32_t key, uint32_t func)
{
	struct ind_key *x = &k->v[key];

	ind_key_add(k, key, func);
	if (x->ncode && x->code[x->ncode - 1] == func)
		return;
	SP_ALLOC_GROW(x->code, x->ncode + 1, x->code_cap);
	x->code[x->ncode++] = func;
}

void ind_key_obj(struct ind_keys *k, uint32_t key, uint32_t image, uint64_t addr, uint8_t store)
{
	SP_ALLOC_GROW(k->objs, k->nobjs + 1, k->objs_cap);
	k->objs[k->nobjs++] = (struct ind_pobj){ .addr = addr, .key = key, .image = image,
						 .store = store };
}

static int id_cmp(const void *pa, const void *pb)
{
	uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;

	return (a > b) - (a < b);
}

uint32_t ind_unique_ids(uint32_t *v, uint32_t n)
{
	uint32_t i, out = 0;

	if (n)
		qsort(v, n, sizeof(*v), id_cmp);
	for (i = 0; i < n; i++)
		if (!out || v[out - 1] != v[i])
			v[out++] = v[i];
	return out;
}

void ind_keys_seal(struct ind_keys *k)
{
	uint32_t i;

	for (i = 0; i < k->n; i++) {
		k->v[i].ntargets = ind_unique_ids(k->v[i].targets, k->v[i].ntargets);
		k->v[i].ncode = ind_unique_ids(k->v[i].code, k->v[i].ncode);
	}
}
