/*
 * kvcopy.c - a cycle bounded by a count on a function that an 'ignore
 * FUNC CALLEE from CALLER' line copies (tests/e2e/t1134-nest-copies.sh),
 * after the kernel's kvfree() -> vfree() -> __vunmap() -> kvfree():
 *
 *   kvfree        frees a buffer: a vmalloc()ed one with vfree(), else
 *                 with kfree()
 *   vfree         unmaps and frees a vmalloc()ed area
 *   vunmap        flushes the aliases of a flagged area, then frees the
 *                 area's page array, itself vmalloc()ed when large
 *   fpstate_free  frees an area that is never flagged: its vfree()'s
 *                 vunmap() never flushes
 *
 * vunmap -> kvfree -> vfree -> vunmap is bounded only by the page
 * arrays' sizes (a count), and fpstate_free's vfree() and vunmap() are
 * copies of their own: the count on vunmap() must count the copy too.
 * Each free runs the cycle once (two vunmap()s on the stack); no library
 * calls, so every frame has a .su row; every function but the frameless
 * kfree() calls: no red zone.  noclone keeps GCC from
 * making copies of its own.
 */
struct area {
	struct area *pages;	/* the page array, NULL when none */
	volatile int vm, flush;	/* vmalloc()ed; its aliases to flush */
};

static volatile int freed, depth, deepest;

void kvfree(struct area *a);

__attribute__((noinline, noclone)) void kfree(struct area *a)
{
	freed += a->vm;
}

__attribute__((noinline, noclone)) void unmap_aliases(struct area *a)
{
	volatile char tlb[160];

	tlb[0] = (char)a->flush;
	kfree(a);
	freed += tlb[0];
}

__attribute__((noinline, noclone)) void vunmap(struct area *a)
{
	volatile char vm[40];

	vm[0] = 1;
	if (++depth > deepest)
		deepest = depth;
	if (a->flush)
		unmap_aliases(a);
	if (a->pages)
		kvfree(a->pages);
	depth--;
	freed += vm[0];
}

__attribute__((noinline, noclone)) void vfree(struct area *a)
{
	volatile char lazy[24];

	lazy[0] = 1;
	vunmap(a);
	freed += lazy[0];
}

__attribute__((noinline, noclone)) void kvfree(struct area *a)
{
	volatile char addr[16];

	addr[0] = 1;
	if (a->vm)
		vfree(a);
	else
		kfree(a);
	freed += addr[0];
}

__attribute__((noinline, noclone)) void fpstate_free(struct area *a)
{
	volatile char fpu[8];

	fpu[0] = 1;
	vfree(a);
	freed += fpu[0];
}

int main(void)
{
	struct area small = { 0, 0, 0 }, pages = { &small, 1, 0 };
	struct area module = { &pages, 1, 1 }, fpstate = { &pages, 1, 0 };

	kvfree(&module);
	fpstate_free(&fpstate);
	/* each small area is freed two vunmap()s deep */
	return deepest != 2;
}
