#include "clones.h"

static __attribute__((noinline)) int scaled(int x, int factor)
{
	volatile char buf[136];

	buf[0] = (char)(x * factor);
	buf[135] = (char)factor;
	return buf[0] + buf[135];
}

static __attribute__((noinline)) int weigh(const struct config *c, int x)
{
	volatile char buf[520];

	buf[0] = (char)(c->offset + x);
	buf[519] = (char)x;
	return buf[0] + buf[519];
}

int run_hot(int x)
{
	volatile char buf[56];

	buf[0] = (char)x;
	if (__builtin_expect(x > 1000, 0)) {
		/* the cold part: moved to run_hot.cold */
		buf[1] = (char)report_failure(x);
		return buf[1] + report_failure(x + buf[0]);
	}
	return scaled(x, 3) + buf[0];
}

int run_config(int x)
{
	struct config c = { .scale = 2, .offset = x };
	volatile char buf[24];

	buf[0] = (char)x;
	return weigh(&c, x) + scaled(x, 3) + buf[0];
}
