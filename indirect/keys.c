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

#define SMALL_IDS 32	/* sorted by insertion */

/* v[0..n) in increasing order, by bytes from the lowest (a radix sort):
 * each site's and each key's targets are sorted, 16,900 sets of
 * hundreds on a kernel, where qsort's calls of a comparison were 0.4 %
 * of a typed run. */
static void sort_ids(uint32_t *v, uint32_t n)
{
	uint32_t *tmp, *from = v, *to, *swap, i, max = 0, shift;
	size_t count[256];

	for (i = 1; i < n && v[i - 1] <= v[i]; i++)
		;
	if (i >= n)
		return;		/* sorted already */
	if (n <= SMALL_IDS) {
		for (i = 1; i < n; i++) {
			uint32_t x = v[i], j = i;

			for (; j && v[j - 1] > x; j--)
				v[j] = v[j - 1];
			v[j] = x;
		}
		return;
	}
	for (i = 0; i < n; i++)
		if (v[i] > max)
			max = v[i];
	to = tmp = sp_xmalloc(n * sizeof(*tmp));
	for (shift = 0; shift < 32 && max >> shift; shift += 8) {
		size_t sum = 0, c;

		memset(count, 0, sizeof(count));
		for (i = 0; i < n; i++)
			count[(from[i] >> shift) & 0xff]++;
		for (c = 0; c < 256; c++) {
			size_t k = count[c];

			count[c] = sum;
			sum += k;
		}
		for (i = 0; i < n; i++)
			to[count[(from[i] >> shift) & 0xff]++] = from[i];
		swap = from;
		from = to;
		to = swap;
	}
	if (from != v)
		memcpy(v, from, n * sizeof(*v));
	free(tmp);
}

uint32_t ind_unique_ids(uint32_t *v, uint32_t n)
{
	uint32_t i, out = 0;

	sort_ids(v, n);
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
