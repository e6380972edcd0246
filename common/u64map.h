/* u64map.h - open-addressing hash map from a 64-bit key to a 32-bit value. */
#ifndef SP_U64MAP_H
#define SP_U64MAP_H

#include <stddef.h>
#include <stdint.h>

/* Key and value share a slot: a probe of a table larger than the caches
 * (a million functions) costs one memory access, not two. */
struct sp_u64slot {
	uint64_t key;
	uint32_t val;		/* UINT32_MAX marks an empty slot */
};

struct sp_u64map {
	struct sp_u64slot *slots;
	size_t nslots, count;
};

/* expect: how many keys will be put, so that the table is sized up front */
void sp_u64map_init(struct sp_u64map *m, size_t expect);
void sp_u64map_release(struct sp_u64map *m);
/* Insert or overwrite. */
void sp_u64map_put(struct sp_u64map *m, uint64_t key, uint32_t val);
/* Insert or overwrite, returning the value it replaced (UINT32_MAX when
 * key was absent): a chain's new head in one probe, not a get and a put. */
uint32_t sp_u64map_swap(struct sp_u64map *m, uint64_t key, uint32_t val);
/* Returns the value, or UINT32_MAX when key is absent. */
uint32_t sp_u64map_get(const struct sp_u64map *m, uint64_t key);

#endif
