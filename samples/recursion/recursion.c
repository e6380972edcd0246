/*
 * recursion: is_even and is_odd call each other (a two-function cycle),
 * fact calls itself, and leaf hangs off the cycle so that the worst
 * simple path is longer than the cycle alone.
 */
#include <stdio.h>

int is_odd(unsigned n);

static __attribute__((noinline)) int leaf(unsigned n)
{
	volatile char buf[180];

	buf[0] = (char)n;
	return buf[0];
}

__attribute__((noinline)) int is_even(unsigned n)
{
	volatile char buf[64];

	buf[0] = (char)n;
	if (n == 0)
		return leaf(n) + 1 - buf[0];
	return is_odd(n - 1) + buf[0] - buf[0];
}

__attribute__((noinline)) int is_odd(unsigned n)
{
	volatile char buf[96];

	buf[0] = (char)n;
	if (n == 0)
		return buf[0];
	return is_even(n - 1) + buf[0] - buf[0];
}

__attribute__((noinline)) unsigned long fact(unsigned n)
{
	volatile char buf[32];

	buf[0] = (char)n;
	if (n <= 1)
		return 1;
	return n * fact(n - 1) + (unsigned long)(buf[0] - buf[0]);
}

int main(void)
{
	printf("recursion: %d %lu\n", is_even(10), fact(5));
	return 0;
}
