/*
 * indirect: calls through a table of function pointers (unbounded: the
 * targets are not known statically), beside a direct call (bounded).
 */
#include <stdio.h>

typedef int (*op_fn)(int);

static __attribute__((noinline)) int op_double(int x)
{
	volatile char buf[200];

	buf[0] = (char)x;
	return buf[0] * 2;
}

static __attribute__((noinline)) int op_negate(int x)
{
	volatile char buf[300];

	buf[0] = (char)x;
	return -buf[0];
}

static op_fn volatile ops[] = { op_double, op_negate };

__attribute__((noinline)) int dispatch(int which, int x)
{
	volatile char buf[40];

	buf[0] = (char)x;
	return ops[which & 1](x) + buf[0];
}

__attribute__((noinline)) int direct(int x)
{
	volatile char buf[24];

	buf[0] = (char)x;
	return op_double(x) + buf[0];
}

int main(void)
{
	int r = dispatch(0, 3) + dispatch(1, 4) + direct(5);

	printf("indirect: %d\n", r);
	return 0;
}
