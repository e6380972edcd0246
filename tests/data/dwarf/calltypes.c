/* Indirect calls of two prototypes, for tests/e2e/t1120: through a unop
 * only inc and dbl can be reached, through a binop only add and mul;
 * main's address is taken too (by the C runtime) and matches neither. */
typedef int (*unop)(int);
typedef long (*binop)(long, long);

__attribute__((noinline)) int inc(int x) { volatile char b[48]; b[0] = (char)x; return b[0] + 1; }
__attribute__((noinline)) int dbl(int x) { volatile char b[96]; b[0] = (char)x; return b[0] * 2; }
__attribute__((noinline)) long add(long a, long b) { volatile char c[800]; c[0] = (char)a; return c[0] + b; }
__attribute__((noinline)) long mul(long a, long b) { volatile char c[400]; c[0] = (char)a; return c[0] * b; }
__attribute__((noinline)) int leaf(int x) { volatile char b[16]; b[0] = (char)x; return b[0]; }

unop unops[] = { inc, dbl };
binop binops[] = { add, mul };

/* the call after the indirect one gives its DIE a DW_AT_sibling, which
 * call_type.py turns into the DW_AT_type */
__attribute__((noinline)) int apply_un(int i, int x)
{
	int r = unops[i & 1](x + 3);

	return r + leaf(r);
}

__attribute__((noinline)) long apply_bin(int i, long x)
{
	long r = binops[i & 1](x, 7);

	return r + leaf((int)r);
}

int main(int argc, char **argv)
{
	(void)argv;
	return apply_un(argc, argc) + (int)apply_bin(argc, argc);
}
