#include "util.h"

__attribute__((noinline)) static int mix(int x)
{
	volatile char small[20];

	small[0] = (char)x;
	return small[0] * 3;
}

__attribute__((noinline)) int fill(volatile char *buf, int n)
{
	volatile char pad[200];
	int i;

	for (i = 0; i < n && i < 200; i++)
		pad[i] = (char)i;
	buf[0] = pad[0];
	return n;
}

__attribute__((noinline)) int dispatch(int (*op)(int), int x)
{
	volatile int regs[10];

	regs[0] = x;
	return op(regs[0]) + mix(x) + prepare(x);
}

__attribute__((noinline)) int countdown(int n)
{
	volatile char frame[40];

	frame[0] = (char)n;
	if (n <= 0)
		return frame[0];
	return countdown(n - 1) + frame[0];
}
