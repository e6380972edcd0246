/* refs.c - the program tests/e2e/t3120 breaks DWARF references of
 * (tests/e2e/dwarf_mutate.py): two constprop clones (abstract_origin),
 * an inlined call (call_origin), a VLA (DW_AT_type chain), siblings */
static int __attribute__((noinline)) leaf(int x, int k)
{
	volatile int a[8];

	a[0] = x;
	a[1] = k;
	return a[0] + a[1];
}

static int __attribute__((noinline)) twig(int x, int k)
{
	volatile int a[20];

	a[0] = x;
	a[1] = k;
	return a[0] - a[1];
}

static inline int mid(int x)
{
	return leaf(x, 3) * 2;
}

int __attribute__((noinline)) vla(int n)
{
	volatile char buf[n];

	buf[0] = 1;
	return buf[n / 2];
}

int __attribute__((noinline)) work(int x)
{
	return mid(x) + leaf(x + 1, 3) + twig(x, 5);
}

int main(int argc, char **argv)
{
	(void)argv;
	return work(argc) + vla(argc + 8);
}
