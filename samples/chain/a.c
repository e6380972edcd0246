/*
 * chain: a call chain that goes back and forth between two files,
 * main -> level1 (a) -> level2 (b) -> level3 (a) -> level4 (b) -> level5 (a),
 * beside a shallow call with one big frame (side) that must lose the max.
 * Each frame holds a volatile buffer of a different size, used after the
 * call so that GCC keeps the frame and makes no tail call.  At -O2 GCC
 * inlines level1 into main (it stays out of line too), so main's worst
 * path is main -> level2 -> ...: its call to level2 is a call site of an
 * inlined subroutine.
 */
#include "chain.h"

int level1(int x)
{
	volatile char buf[64];

	buf[0] = (char)x;
	return level2(x + 1) + buf[0];
}

int level3(int x)
{
	volatile char buf[32];

	buf[0] = (char)x;
	return level4(x + 1) + buf[0];
}

int level5(int x)
{
	volatile char buf[400];	/* a leaf: bigger than the 128-byte red zone */

	buf[0] = (char)x;
	buf[399] = (char)(x + 1);
	return buf[0] + buf[399];
}

int main(void)
{
	volatile int r = level1(1) + side(2);

	(void)r;
	return 0;
}
