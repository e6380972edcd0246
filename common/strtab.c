#include "common/strtab.h"

#include <string.h>

#include "common/xalloc.h"

uint32_t sp_hash_bytes(const void *p, size_t len)
{
	const unsigned char *s = p;
	uint32_t h = 2166136261u;	/* FNV-1a */

	while (len--) {
		h ^= *s++;
		h *= 16777619u;
	}
	return h;
}

void sp_strtab_init(struct sp_strtab *t)
{
	sp_arena_init(&t->arena);
	t->nslots = 1024;
	t->count = 0;
	t->slots = sp_xcalloc(t->nslots, sizeof(*t->slots));
}

void sp_strtab_release(struct sp_strtab *t)
{
	sp_arena_release(&t->arena);
	free(t->slots);
	t->slots = NULL;
	t->nslots = t->count = 0;
}

static void strtab_grow(struct sp_strtab *t)
{
	size_t n = t->nslots * 2, i;
	struct sp_strslot *slots = sp_xmalloc_table(n * sizeof(*slots));

	memset(slots, 0, n * sizeof(*slots));
	for (i = 0; i < t->nslots; i++) {
		size_t j;

		if (!t->slots[i].s)
			continue;
		for (j = t->slots[i].hash & (n - 1); slots[j].s; j = (j + 1) & (n - 1))
			;
		slots[j] = t->slots[i];
	}
	free(t->slots);
	t->slots = slots;
	t->nslots = n;
}

const char *sp_strtab_intern(struct sp_strtab *t, const char *s, size_t len)
{
	uint32_t h = sp_hash_bytes(s, len);
	size_t j;

	if ((t->count + 1) * 2 > t->nslots)
		strtab_grow(t);
	for (j = h & (t->nslots - 1); t->slots[j].s; j = (j + 1) & (t->nslots - 1)) {
		const char *q = t->slots[j].s;

		if (t->slots[j].hash == h && !strncmp(q, s, len) && q[len] == '\0')
			return q;
	}
	t->slots[j].s = sp_arena_strndup(&t->arena, s, len);
	t->slots[j].hash = h;
	t->count++;
	return t->slots[j].s;
}
