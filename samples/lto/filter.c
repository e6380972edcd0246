#include "lto.h"

__attribute__((noinline)) static int scale(int x)
{
	volatile int pad[100];

	pad[99] = x;
	return pad[99] * 2;
}

/* small: inlined into filter_run across nothing, and into main's callers */
int filter_tap(int x)
{
	return x * 5 + 1;
}

__attribute__((noinline)) int filter_run(int n)
{
	volatile int taps[40];
	int i, sum = 0;

	for (i = 0; i < n && i < 40; i++)
		taps[i] = filter_tap(i);
	for (i = 0; i < n && i < 40; i++)
		sum += scale(taps[i]);
	return sum + report(sum);
}
