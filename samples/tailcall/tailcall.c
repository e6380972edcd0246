/*
 * tailcall: forward ends in a tail call (jmp) to big, so big's frame
 * replaces forward's instead of stacking on it:
 *	total(forward) = max(self(forward) + total(small), total(big))
 * relay has a frame so large that its normal call to small wins the max;
 * trampoline does nothing but tail-call forward.  GCC's .ci sums a tail
 * call like any call, so the test derives the expectation from .su.
 */
#include <stdio.h>

__attribute__((noinline)) int big(int x)
{
	volatile char buf[1200];

	buf[0] = (char)x;
	buf[1199] = (char)x;
	return buf[0] + buf[1199];
}

__attribute__((noinline)) int small(int x)
{
	volatile char buf[200];

	buf[0] = (char)x;
	buf[199] = (char)x;
	return buf[0] - buf[199] + 1;
}

__attribute__((noinline)) int forward(int x)
{
	volatile char buf[300];
	int y;

	buf[0] = (char)x;
	y = small(x) + buf[0];
	return big(y);		/* tail call */
}

__attribute__((noinline)) int relay(int x)
{
	volatile char buf[2000];
	int y;

	buf[0] = (char)x;
	y = small(x) + buf[0];
	return big(y);		/* tail call */
}

__attribute__((noinline)) int trampoline(int x)
{
	return forward(x + 1);	/* tail call */
}

int main(void)
{
	printf("tailcall: %d %d\n", trampoline(1), relay(2));
	return 0;
}
