/*
 * libcuse.c - a dynamically linked program whose functions call into
 * libc: t3030 runs each on a painted stack (tests/oracle/paint.c) and
 * holds stackprof's totals, libc's frames included, against the peaks.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

__attribute__((noinline)) long use_strtol(const char *s)
{
	char copy[64];

	snprintf(copy, sizeof(copy), "%s", s ? s : "0");
	return strtol(s ? s : "0", NULL, 0);
}

__attribute__((noinline)) long use_strtol_only(const char *s)
{
	return strtol(s ? s : "12345", NULL, 10) + strtoul("77", NULL, 8);
}

__attribute__((noinline)) int use_memcpy(long n)
{
	volatile char src[512], dst[512];
	size_t k = (size_t)n % sizeof(src);

	memset((char *)src, 'x', sizeof(src));
	memcpy((char *)dst, (const char *)src, k);
	return dst[k / 2] + (int)strlen((const char *)src + 500);
}

__attribute__((noinline)) int use_snprintf(long n)
{
	char buf[128];

	return snprintf(buf, sizeof(buf), "%ld %s %5.2f", n, "abc", (double)n / 3);
}

static int cmp_long(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;

	return (x > y) - (x < y);
}

__attribute__((noinline)) long use_qsort(long n)
{
	long v[64];
	size_t i;

	for (i = 0; i < 64; i++)
		v[i] = (long)((i * 7919u + (unsigned long)n) % 101u);
	qsort(v, 64, sizeof(v[0]), cmp_long);
	return v[0] + v[63];
}

__attribute__((noinline)) long use_sscanf(const char *s)
{
	long a = 0, b = 0;
	char word[32];

	if (sscanf(s ? s : "12 34 x", "%ld %ld %31s", &a, &b, word) != 3)
		return -1;
	return a + b + (long)strlen(word);
}

__attribute__((noinline)) double use_strtod(const char *s)
{
	return strtod(s ? s : "3.25e2", NULL) + atof("1.5");
}

int main(int argc, char **argv)
{
	long r = use_strtol(argc > 1 ? argv[1] : "42") + use_strtol_only(NULL);

	r += use_memcpy(argc * 100) + use_snprintf(argc) + use_qsort(argc);
	r += use_sscanf(NULL) + (long)use_strtod(NULL);
	printf("%ld\n", r);
	return 0;
}
