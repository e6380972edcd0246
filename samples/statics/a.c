/*
 * statics: two static functions named helper, one in each file, with
 * different frames; each file's public function calls its own.
 */
int from_b(int x);

static __attribute__((noinline)) int helper(int x)
{
	volatile char buf[160];

	buf[0] = (char)x;
	buf[159] = (char)x;
	return buf[0] + buf[159];
}

int from_a(int x)
{
	volatile char buf[48];

	buf[0] = (char)x;
	return helper(x) + buf[0];
}

int main(void)
{
	volatile int r = from_a(1) + from_b(2);

	(void)r;
	return 0;
}
