/* arena.h - bump allocator: many small objects, freed in one call. */
#ifndef SP_ARENA_H
#define SP_ARENA_H

#include <stddef.h>

struct sp_arena_block;

struct sp_arena {
	struct sp_arena_block *head;
	size_t used, avail;	/* in the head block */
};

void sp_arena_init(struct sp_arena *a);
void sp_arena_release(struct sp_arena *a);
/* Memory aligned for any object; dies on out-of-memory like sp_xmalloc. */
void *sp_arena_alloc(struct sp_arena *a, size_t size);
char *sp_arena_strndup(struct sp_arena *a, const char *s, size_t len);

#endif
