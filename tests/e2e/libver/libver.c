/* work in two versions (libver.map): VER_1's keeps a big buffer, VER_2's
 * (the default a new link binds to) a small one */

__attribute__((noinline)) static int fill(volatile char *buf, int n, int len)
{
	int i, sum = 0;

	for (i = 0; i < len; i++)
		buf[i] = (char)(n + i);
	for (i = 0; i < len; i++)
		sum += buf[i];
	return sum;
}

int work_old(int n)
{
	volatile char buf[3000];

	return fill(buf, n, (int)sizeof(buf));
}

int work_new(int n)
{
	volatile char buf[40];

	return fill(buf, n, (int)sizeof(buf));
}

__asm__(".symver work_old, work@VER_1");
__asm__(".symver work_new, work@@VER_2");

/* a callback, called two calls below the entry the program passes it to */
__attribute__((noinline)) static int apply_deep(int (*fn)(int), int n)
{
	volatile char pad[200];

	pad[0] = (char)n;
	return fn(n) + pad[0];
}

int apply(int (*fn)(int), int n)
{
	return apply_deep(fn, n) + 1;
}

/* a callback kept for later: nothing below keep calls it */
static int (*kept)(int);

void keep(int (*fn)(int))
{
	kept = fn;
}

int run_kept(int n)
{
	return kept ? kept(n) : 0;
}
