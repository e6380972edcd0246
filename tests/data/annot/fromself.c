/*
 * fromself.c - a cycle through FUNC itself that an argument breaks one
 * round down, for 'ignore FUNC CALLEE from CALLER ... FUNC ...'
 * (tests/e2e/t1158-ignore-from-self.sh), after the kernel's slab
 * allocator: kfree() of an object whose slab empties frees the slab
 * (__free_slab()), which kfree()s the slab's vector; the vector's own
 * slab has no vector, so the kfree() below that one gets NULL.
 *
 *   release    frees an object of slab s (kfree); NULL returns at once
 *   put_slab   drops one object of s; the last one discards s, straight
 *              or through drain (__slab_free, its two routes)
 *   drain      discards the slabs it drains (__unfreeze_partials)
 *   drop_slab  frees s and releases s's vector, NULL when s has none
 *              (__free_slab -> kfree)
 *
 * release -> put_slab -> [drain ->] drop_slab -> release is a cycle of
 * the call graph, but the release() that a drop_slab() below a
 * release() below a drop_slab() calls gets NULL.  No library calls, so
 * every frame has a .su row, every function calls: no red zone; each
 * call is followed by a store, so none is a tail call.  noclone keeps
 * GCC from specializing on the constants.
 */
struct slab {
	struct slab *vec;	/* the slab of this slab's vector, or NULL */
	volatile int inuse, drained;
};

static volatile int releases, drops;

void put_slab(struct slab *s);

__attribute__((noinline, noclone)) void release(struct slab *s)
{
	volatile char frame[16];

	frame[0] = 1;
	releases++;
	if (!s)
		return;
	put_slab(s);
	frame[1] = frame[0];
}

__attribute__((noinline, noclone)) void drop_slab(struct slab *s)
{
	volatile char frame[64];

	frame[0] = 1;
	drops++;
	release(s->vec);
	frame[1] = frame[0];
}

__attribute__((noinline, noclone)) void drain(struct slab *s)
{
	volatile char frame[48];

	frame[0] = 1;
	drop_slab(s);
	frame[1] = frame[0];
}

__attribute__((noinline, noclone)) void put_slab(struct slab *s)
{
	volatile char frame[32];

	frame[0] = (char)--s->inuse;
	if (frame[0])
		return;
	if (s->drained)
		drain(s);
	else
		drop_slab(s);
	frame[1] = frame[0];
}

int main(void)
{
	struct slab vec = { 0, 1, 1 }, obj = { &vec, 1, 0 };

	release(&obj);
	return !(releases == 3 && drops == 2);
}
