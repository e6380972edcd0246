#include "common/arena.h"

#include <stdalign.h>
#include <stdint.h>
#include <string.h>

#include "common/xalloc.h"

#define ARENA_BLOCK (64 * 1024)

struct sp_arena_block {
	struct sp_arena_block *next;
	alignas(max_align_t) unsigned char data[];
};

void sp_arena_init(struct sp_arena *a)
{
	a->head = NULL;
	a->used = a->avail = 0;
}

void sp_arena_release(struct sp_arena *a)
{
	struct sp_arena_block *b = a->head, *next;

	for (; b; b = next) {
		next = b->next;
		free(b);
	}
	sp_arena_init(a);
}

void *sp_arena_alloc(struct sp_arena *a, size_t size)
{
	const size_t align = alignof(max_align_t);
	size_t need = (size + align - 1) & ~(align - 1);
	struct sp_arena_block *b;

	if (need < size)
		sp_die_oom();
	if (!a->head || a->avail - a->used < need) {
		size_t cap = need > ARENA_BLOCK ? need : ARENA_BLOCK;

		b = sp_xmalloc(sizeof(*b) + cap);
		b->next = a->head;
		a->head = b;
		a->used = 0;
		a->avail = cap;
	}
	void *p = a->head->data + a->used;
	a->used += need;
	return p;
}

char *sp_arena_strndup(struct sp_arena *a, const char *s, size_t len)
{
	char *p = sp_arena_alloc(a, len + 1);

	memcpy(p, s, len);
	p[len] = '\0';
	return p;
}
