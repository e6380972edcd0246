/*
 * alloca: a run-time sized alloca makes copy_name's frame dynamic.
 */
#include <alloca.h>
#include <stdio.h>
#include <string.h>

extern size_t consume(const char *p, size_t n);

__attribute__((noinline)) size_t copy_name(const char *s)
{
	size_t n = strlen(s);
	char *tmp = alloca(n + 1);

	memcpy(tmp, s, n + 1);
	return consume(tmp, n);
}

__attribute__((noinline)) size_t count(const char *s)
{
	volatile char buf[88];

	buf[0] = s[0];
	return copy_name(s) + (size_t)(buf[0] - buf[0]);
}

int main(void)
{
	printf("alloca: %zu\n", count("stackprof"));
	return 0;
}
