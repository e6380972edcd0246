#include <string.h>

#include "calc.h"

static long fn_abs(const long *a, int n)
{
	(void)n;
	return a[0] < 0 ? -a[0] : a[0];
}

static long fn_max(const long *a, int n)
{
	long m = a[0];
	int i;

	for (i = 1; i < n; i++)
		if (a[i] > m)
			m = a[i];
	return m;
}

static long fn_min(const long *a, int n)
{
	long m = a[0];
	int i;

	for (i = 1; i < n; i++)
		if (a[i] < m)
			m = a[i];
	return m;
}

/* integer square root by Newton's method */
static long fn_isqrt(const long *a, int n)
{
	long x = a[0], y;

	(void)n;
	if (x < 2)
		return x < 0 ? 0 : x;
	y = (x + 1) / 2;
	while (y < x) {
		x = y;
		y = (x + a[0] / x) / 2;
	}
	return x;
}

static const struct builtin builtins[] = {
	{ "abs", 1, fn_abs },
	{ "max", -1, fn_max },
	{ "min", -1, fn_min },
	{ "isqrt", 1, fn_isqrt },
};

const struct builtin *builtin_find(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(builtins) / sizeof(builtins[0]); i++)
		if (!strcmp(builtins[i].name, name))
			return &builtins[i];
	return NULL;
}
