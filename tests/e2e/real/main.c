#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "calc.h"

void calc_error(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, size, fmt, ap);
	va_end(ap);
}

static __attribute__((noinline)) int run_line(const char *line, long *value)
{
	struct parser p;
	char err[128];
	struct node *n = parse(&p, line);

	if (!n) {
		fprintf(stderr, "calc: %s: %s\n", line, p.error[0] ? p.error : "syntax error");
		return -1;
	}
	if (eval(n, value, err, sizeof(err))) {
		fprintf(stderr, "calc: %s: %s\n", line, err);
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	static const struct { const char *src; long want; } cases[] = {
		{ "1 + 2 * 3", 7 },
		{ "-(4 - 10) % 4", 2 },
		{ "max(3, abs(-9), min(5, 2)) * 2", 18 },
		{ "isqrt(1000) + 1", 32 },
	};
	size_t i;
	int bad = 0;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		long v;

		if (run_line(cases[i].src, &v) || v != cases[i].want) {
			fprintf(stderr, "calc: '%s' is not %ld\n", cases[i].src, cases[i].want);
			bad = 1;
		}
	}
	for (i = 1; i < (size_t)argc; i++) {
		long v;

		if (!run_line(argv[i], &v))
			printf("%ld\n", v);
	}
	return bad;
}
