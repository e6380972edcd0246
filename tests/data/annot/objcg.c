/*
 * objcg.c - a recursion only run-time values bound, for 'assume'
 * (tests/e2e/t1230-assume.sh): the Linux slab's objcg vector in small.
 *
 *   kfree         frees an object; when it empties its slab, frees it
 *   free_slab     gives the slab back, and frees its vector
 *   free_vector   a slab's vector is itself kmalloc'd: kfree it, then
 *                 uncharge
 *
 * kfree -> free_slab -> free_vector -> kfree: the vector's own slab has
 * no vector (a value: nothing in the code says so), so kfree is at most
 * twice on a stack.  alloc_fast -> refill never reaches kfree.  Nothing
 * frees at run time: the cycle is in the call graph only.  No library
 * calls, so every frame has a .su row; each function calls (touch), so
 * none keeps a red zone.
 */
#define NOINLINE __attribute__((noinline, noipa))

struct slab {
	struct slab *vector;	/* NULL in a vector's own slab */
	int inuse;
};

static volatile int emptied;	/* never set here */

NOINLINE void touch(volatile char *p)
{
	__asm__ volatile("" : : "r"(p) : "memory");
}

NOINLINE void kfree(struct slab *s);

NOINLINE void uncharge(struct slab *s)
{
	volatile char stat[40];

	stat[0] = (char)s->inuse;
	touch(stat);
}

NOINLINE void free_vector(struct slab *s)
{
	volatile char buf[56];

	buf[0] = 0;
	touch(buf);
	if (s->vector)
		kfree(s->vector);
	uncharge(s);
	touch(buf);
}

NOINLINE void free_slab(struct slab *s)
{
	volatile char buf[88];

	buf[0] = 0;
	touch(buf);
	free_vector(s);
	touch(buf);
}

NOINLINE void kfree(struct slab *s)
{
	volatile char buf[24];

	buf[0] = 0;
	touch(buf);
	if (--s->inuse == 0 || emptied)
		free_slab(s);
	touch(buf);
}

NOINLINE void refill(struct slab *s)
{
	volatile char buf[200];

	buf[0] = (char)s->inuse;
	touch(buf);
}

NOINLINE void alloc_fast(struct slab *s)
{
	volatile char buf[16];

	buf[0] = 0;
	touch(buf);
	refill(s);
	touch(buf);
}

int main(void)
{
	static struct slab vec = { 0, 2 }, s = { &vec, 2 };

	alloc_fast(&s);
	kfree(&s);
	return 0;
}
