#include "chain.h"

int level2(int x)
{
	volatile char buf[256];

	buf[0] = (char)x;
	return level3(x + 1) + buf[0];
}

int level4(int x)
{
	volatile char buf[512];

	buf[0] = (char)x;
	return level5(x + 1) + buf[0];
}

/* One big frame, but the chain through level1 is deeper still. */
int side(int x)
{
	volatile char buf[1000];

	buf[0] = (char)x;
	buf[999] = (char)x;
	return buf[0] + buf[999];
}
