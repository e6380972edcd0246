/*
 * credits.c - 'nest FUNC per HOLDER' below two cycles of counted
 * functions (tests/e2e/t1146-nest-per-credits.sh):
 *
 *   v      va_format() in small: prints an object a holder's frame
 *          holds, and may print one inside it (v -> v)
 *   h      a holder: fills one and goes on down (h -> a)
 *   a      at most 40 on a stack (a -> h -> a), and each may leave for
 *   c, e   a cycle of their own, at most 2000 each (c -> e -> c), where
 *          c prints (c -> v)
 *
 * Each h below gives v one more level wherever the c cycle is entered,
 * and the c cycle is as deep whatever the credit: a key per count of c
 * and e (or per budget of theirs) and per credit, tens of thousands.
 * The program nests as the annotations say (main's arguments would
 * have to ask for more); no library calls, so every frame has a .su
 * row, and every function calls: no red zone.
 */
#define NOINLINE __attribute__((noinline, noipa))

static volatile int sink;

NOINLINE int a(int n, int k);
NOINLINE int e(int n, int k);

NOINLINE int v(int k)
{
	volatile char obj[88];

	obj[0] = (char)k;
	if (k > 1)
		sink += v(k - 1);
	return obj[0] + sink;
}

NOINLINE int c(int n, int k)
{
	volatile char buf[40];

	buf[0] = (char)n;
	if (n > 1)
		sink += e(n - 1, k);
	else if (k)
		sink += v(k);
	return buf[0] + sink;
}

NOINLINE int e(int n, int k)
{
	volatile char buf[24];

	buf[0] = (char)n;
	sink += c(n, k);
	return buf[0] + sink;
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
	if (n > 1)
		sink += h(n - 1, k);
	else
		sink += c(2000, k);
	return buf[0] + sink;
}

int main(int argc, char **argv)
{
	(void)argv;
	/* 40 a, 39 h below the last, then 2000 c, 1999 e and 39 v */
	return a(argc > 1 ? 40 : 2, 0) == -1;
}
