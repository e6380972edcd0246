/*
 * The leaves of samples/o0, built at -O0 like the rest of the sample:
 * GCC keeps their arguments and locals at -N(%rbp) after
 * "push %rbp; mov %rsp,%rbp" and moves %rsp only by what does not fit
 * into the 128-byte red zone below it, so .su counts only the pushes
 * (and that move) and the rest is the red zone.
 */
#include "o0.h"

int small_leaf(int a, int b)
{
	int t[4];

	t[0] = a;
	t[3] = b;
	return t[0] + t[3];
}

int big_leaf(int x)
{
	volatile char buf[300];	/* more than the red zone: %rsp moves too */

	buf[0] = (char)x;
	buf[299] = (char)(x + 1);
	return buf[0] + buf[299];
}
