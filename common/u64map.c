#include "common/u64map.h"

#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"

#define EMPTY UINT32_MAX

static size_t slot_of(uint64_t key, size_t nslots)
{
	key ^= key >> 33;	/* murmur3 finaliser: addresses are not random */
	key *= 0xff51afd7ed558ccdULL;
	key ^= key >> 33;
	return (size_t)key & (nslots - 1);
}

static void alloc_slots(struct sp_u64map *m, size_t nslots)
{
	size_t i;

	m->nslots = nslots;
	m->slots = sp_xmalloc_table(nslots * sizeof(*m->slots));
	for (i = 0; i < nslots; i++)
		m->slots[i].val = EMPTY;
}

void sp_u64map_init(struct sp_u64map *m, size_t expect)
{
	size_t n = 16;

	while (n < expect * 2)
		n *= 2;
	m->count = 0;
	alloc_slots(m, n);
}

void sp_u64map_release(struct sp_u64map *m)
{
	free(m->slots);
	memset(m, 0, sizeof(*m));
}

static void u64map_grow(struct sp_u64map *m)
{
	struct sp_u64slot *slots = m->slots;
	size_t i, old = m->nslots;

	alloc_slots(m, old * 2);
	m->count = 0;
	for (i = 0; i < old; i++)
		if (slots[i].val != EMPTY)
			sp_u64map_put(m, slots[i].key, slots[i].val);
	free(slots);
}

uint32_t sp_u64map_swap(struct sp_u64map *m, uint64_t key, uint32_t val)
{
	uint32_t old;
	size_t j;

	if ((m->count + 1) * 2 > m->nslots)
		u64map_grow(m);
	for (j = slot_of(key, m->nslots); m->slots[j].val != EMPTY;
	     j = (j + 1) & (m->nslots - 1)) {
		if (m->slots[j].key == key) {
			old = m->slots[j].val;
			m->slots[j].val = val;
			return old;
		}
	}
	m->slots[j].key = key;
	m->slots[j].val = val;
	m->count++;
	return EMPTY;
}

void sp_u64map_put(struct sp_u64map *m, uint64_t key, uint32_t val)
{
	sp_u64map_swap(m, key, val);
}

uint32_t sp_u64map_get(const struct sp_u64map *m, uint64_t key)
{
	size_t j;

	if (!m->nslots)
		return EMPTY;
	for (j = slot_of(key, m->nslots); m->slots[j].val != EMPTY;
	     j = (j + 1) & (m->nslots - 1))
		if (m->slots[j].key == key)
			return m->slots[j].val;
	return EMPTY;
}
