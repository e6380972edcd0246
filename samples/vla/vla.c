/*
 * vla: a variable-length array makes make_row's frame dynamic, so every
 * caller's total is unbounded; fixed stays bounded.
 */
#include <stdio.h>

extern void fill(char *p, unsigned n);

__attribute__((noinline)) int make_row(unsigned n)
{
	char row[n + 1];

	fill(row, n);
	return row[n / 2];
}

__attribute__((noinline)) int fixed(void)
{
	char row[128];

	fill(row, sizeof(row) - 1);
	return row[3];
}

int main(void)
{
	printf("vla: %d %d\n", make_row(20), fixed());
	return 0;
}
