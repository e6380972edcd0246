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
	t->hashes = sp_xcalloc(t->nslots, sizeof(*t->hashes));
}

void sp_strtab_release(struct sp_strtab *t)
{
	sp_arena_release(&t->arena);
	free(t->slots);
	free(t->hashes);
	t->slots = NULL;
	t->hashes = NULL;
	t->nslots = t->count = 0;
}

static void strtab_grow(struct sp_strtab *t)
{
	size_t n = t->nslots * 2, i;
	const char **slots = sp_xcalloc(n, sizeof(*slots));
	uint32_t *hashes = sp_xcalloc(n, sizeof(*hashes));

	for (i = 0; i < t->nslots; i++) {
		size_t j;

		if (!t->slots[i])
			continue;
		for (j = t->hashes[i] & (n - 1); slots[j]; j = (j + 1) & (n - 1))
			;
		slots[j] = t->slots[i];
		hashes[j] = t->hashes[i];
	}
	free(t->slots);
	free(t->hashes);
	t->slots = slots;
	t->hashes = hashes;
	t->nslots = n;
}

const char *sp_strtab_intern(struct sp_strtab *t, const char *s, size_t len)
{
	uint32_t h = sp_hash_bytes(s, len);
	size_t j;

	if ((t->count + 1) * 2 > t->nslots)
		strtab_grow(t);
	for (j = h & (t->nslots - 1); t->slots[j]; j = (j + 1) & (t->nslots - 1)) {
		if (t->hashes[j] == h && !strncmp(t->slots[j], s, len) &&
		    t->slots[j][len] == '\0')
			return t->slots[j];
	}
	t->slots[j] = sp_arena_strndup(&t->arena, s, len);
	t->hashes[j] = h;
	t->count++;
	return t->slots[j];
}
