/*
 * vafloop.c - 'nest FUNC per HOLDER' where FUNC is unbounded anyway
 * (tests/e2e/t1154-nest-per-unbounded.sh):
 *
 *   v      va_format() in small: prints an object a holder's frame
 *          holds, may print one inside it (v -> v), and goes on into
 *   r      a recursion no annotation bounds (r -> r)
 *   h      a holder: fills one and goes on down (h -> a)
 *   a      at most 40 on a stack, below itself (a -> a) or below a
 *          holder (a -> h -> a); the last prints (a -> v)
 *
 * Exact credits key each count of a with each credit below it (how
 * many of the a above went through h): hundreds of contexts, each
 * as unbounded as the others, as v is.
 */
#define NOINLINE __attribute__((noinline, noipa))

static volatile int sink;

NOINLINE int a(int n, int k);

NOINLINE int r(int n)
{
	volatile char buf[32];

	buf[0] = (char)n;
	if (n > 0)
		sink += r(n - 1);
	return buf[0] + sink;
}

NOINLINE int v(int k)
{
	volatile char obj[88];

	obj[0] = (char)k;
	if (k > 1)
		sink += v(k - 1);
	else
		sink += r(k + 3);
	return obj[0] + sink;
}

NOINLINE int h(int n, int k)
{
	volatile char vaf[56];

	vaf[0] = (char)n;
	sink += a(n, k + 1);
	return vaf[0] + sink;
}

NOINLINE int a(int n, int k)
{
	volatile char buf[120];

	buf[0] = (char)n;
	if (n > 1 && (n & 1))
		sink += a(n - 1, k);
	else if (n > 1)
		sink += h(n - 1, k);
	else
		sink += v(k);
	return buf[0] + sink;
}

int main(int argc, char **argv)
{
	(void)argv;
	return a(argc > 1 ? 40 : 2, 0) == -1;
}
