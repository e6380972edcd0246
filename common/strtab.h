/* strtab.h - string interning: equal strings share one pointer. */
#ifndef SP_STRTAB_H
#define SP_STRTAB_H

#include <stddef.h>
#include <stdint.h>

#include "common/arena.h"

struct sp_strtab {
	struct sp_arena arena;
	const char **slots;	/* open addressing, power-of-two size */
	uint32_t *hashes;
	size_t nslots, count;
};

void sp_strtab_init(struct sp_strtab *t);
void sp_strtab_release(struct sp_strtab *t);
const char *sp_strtab_intern(struct sp_strtab *t, const char *s, size_t len);
uint32_t sp_hash_bytes(const void *p, size_t len);

#endif
