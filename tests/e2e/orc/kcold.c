/*
 * kcold.c - built with -ffunction-sections: its hot and cold functions
 * land in .text.hot.* and .text.unlikely.*, which the linker places
 * before .text, so the linked ORC table is out of address order.
 */
void sink(volatile char *p, int n);
int k_leaf(int x);

__attribute__((noinline, cold)) void c_cold(int n)
{
	char buf[96];

	sink(buf, n);
}

__attribute__((noinline, hot)) int c_hot(int n)
{
	char buf[24];

	if (n > 1000)
		c_cold(n);
	sink(buf, n);
	return k_leaf(buf[0]);
}
