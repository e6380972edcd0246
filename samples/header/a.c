#include "util.h"

int in_b(int v);

int util_sink(int v)
{
	volatile char buf[160];

	buf[0] = (char)v;
	buf[159] = (char)v;
	return buf[0] + buf[159];
}

static __attribute__((noinline)) int in_a(int v)
{
	volatile char buf[64];

	buf[0] = (char)v;
	return clamp_add(v, 1) + buf[0];
}

int main(void)
{
	volatile int r = in_a(1) + in_b(2);

	(void)r;
	return 0;
}
