/* An unbounded total (recursion) whose deepest path takes an assumed
 * indirect call: its certain lower bound stops before the call. */
typedef int (*op)(int);

__attribute__((noinline)) static int big(int x)
{
	volatile char buf[512];

	buf[x & 511] = (char)x;
	return buf[(x + 1) & 511];
}

__attribute__((noinline)) static int small(int x)
{
	volatile char buf[16];

	buf[x & 15] = (char)x;
	return buf[(x + 1) & 15];
}

op table[2] = { big, small };

__attribute__((noinline)) int apply(op f, int x)
{
	return f(x) + 1;
}

__attribute__((noinline)) int rec(int n)
{
	volatile char b[64];

	b[n & 63] = (char)n;
	if (n > 0)
		return rec(n - 1) + b[(n + 1) & 63];
	return apply(table[n & 1], n) + b[0];
}

int main(int argc, char **argv)
{
	(void)argv;
	return rec(argc);
}
