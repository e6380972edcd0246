int from_b(int x);

static __attribute__((noinline)) int helper(int x)
{
	volatile char buf[900];

	buf[0] = (char)x;
	buf[899] = (char)x;
	return buf[0] + buf[899];
}

int from_b(int x)
{
	volatile char buf[16];

	buf[0] = (char)x;
	return helper(x) + buf[0];
}
