#include "lto.h"

__attribute__((noinline)) static int scale(int x)
{
	volatile int pad[60];

	pad[59] = x;
	return pad[59] * 4;
}

__attribute__((noinline)) int report(int v)
{
	volatile char text[200];

	text[0] = (char)v;
	return scale(text[0]) + text[0];
}

/* its own frame is small; the tail call to filter_run replaces it */
__attribute__((noinline)) int report_twice(int v)
{
	volatile int keep[8];

	keep[0] = report(v);
	return filter_run(keep[0] & 7);
}
