/*
 * idsets.c - sets of function ids filed under a 64-bit key, each found
 * once and asked for again: the functions the loose objects hold at a
 * call offset (layers.c) are the same for every site and key that asks
 * with that offset, and finding them reads a word of every such object.
 */
#include "indirect/run.h"

#include <string.h>

#include "common/search.h"
#include "common/xalloc.h"

void ind_idsets_release(struct ind_idsets *c)
{
	if (c->at.slots)
		sp_u64map_release(&c->at);
	free(c->span);
	free(c->pool);
	memset(c, 0, sizeof(*c));
}

bool ind_idsets_get(const struct ind_idsets *c, uint64_t key, const uint32_t **v, uint32_t *n)
{
	uint32_t i = c->at.slots ? sp_u64map_get(&c->at, key) : UINT32_MAX;

	if (i == UINT32_MAX)
		return false;
	*n = c->span[i].n;
	*v = *n ? c->pool + c->span[i].first : NULL;
	return true;
}

const uint32_t *ind_idsets_put(struct ind_idsets *c, uint64_t key, const uint32_t *v,
			       uint32_t n)
{
	struct ind_idspan *s;

	if (!c->at.slots)
		sp_u64map_init(&c->at, 64);
	SP_ALLOC_GROW(c->span, c->nspan + 1, c->span_cap);
	SP_ALLOC_GROW(c->pool, c->npool + n, c->pool_cap);
	s = &c->span[c->nspan];
	s->first = c->npool;
	s->n = n;
	if (n)
		memcpy(c->pool + c->npool, v, n * sizeof(*v));
	c->npool += n;
	sp_u64map_put(&c->at, key, c->nspan++);
	return n ? c->pool + s->first : NULL;
}

static uint64_t id_at(const void *base, size_t i)
{
	return ((const uint32_t *)base)[i];
}

bool ind_ids_has(const uint32_t *v, uint32_t n, uint32_t id)
{
	size_t i = sp_search_first_ge(v, n, id_at, id);

	return i < n && v[i] == id;
}

void ind_ids_meet(const uint32_t *a, uint32_t na, const uint32_t *b, uint32_t nb,
		  struct ids *out)
{
	uint32_t i = 0, j = 0;

	while (i < na && j < nb) {
		if (a[i] < b[j])
			i++;
		else if (b[j] < a[i])
			j++;
		else {
			ids_add(out, a[i]);
			i++;
			j++;
		}
	}
}
