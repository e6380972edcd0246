/* strtab.h - string interning: equal strings share one pointer. */
#ifndef SP_STRTAB_H
#define SP_STRTAB_H

#include <stddef.h>
#include <stdint.h>

#include "common/arena.h"

/* a string and its hash in one slot: one memory access per probe */
struct sp_strslot {
	const char *s;		/* NULL: empty */
	uint32_t hash;
};

struct sp_strtab {
	struct sp_arena arena;
	struct sp_strslot *slots;	/* open addressing, power-of-two size */
	size_t nslots, count;
};

void sp_strtab_init(struct sp_strtab *t);
void sp_strtab_release(struct sp_strtab *t);
const char *sp_strtab_intern(struct sp_strtab *t, const char *s, size_t len);
uint32_t sp_hash_bytes(const void *p, size_t len);

#endif
