/*
 * vafmt.c - the kernel's %pV in small, for 'nest FUNC per HOLDER'
 * (tests/e2e/t1133-nest-per.sh):
 *
 *   vsn      vsnprintf(): prints its format, and for each 'V' the
 *            struct va_format its next argument points to, through
 *   va_fmt   va_format(): vsn() of that object's own format and list
 *   prt      printk(): vsn() of its arguments
 *   h1, h2   dev_err() and its kind: each fills a struct va_format with
 *            its own format and list and prints it as "...V"; h2 prints
 *            through h1, so three vsn() nest below it
 *   h3       a holder that may call itself: as many as it is deep
 *
 * va_fmt() prints an object that a frame below it holds, so it is on a
 * stack at most once per holder below it.  Nothing nests at run time
 * beyond what main() does; no library calls, so every frame has a .su
 * row.
 */
#include <stdarg.h>

#define NOINLINE __attribute__((noinline, noipa))

struct va_format {
	const char *fmt;
	va_list *va;
};

static char out[256];

NOINLINE int vsn(char *buf, const char *fmt, va_list ap);

NOINLINE int va_fmt(char *buf, struct va_format *vaf)
{
	volatile char pad[40];
	va_list va;
	int n;

	va_copy(va, *vaf->va);
	n = vsn(buf, vaf->fmt, va);
	va_end(va);
	pad[0] = (char)n;
	return n + pad[0] - pad[0];
}

NOINLINE int vsn(char *buf, const char *fmt, va_list ap)
{
	volatile char tmp[72];
	int n = 0;

	for (; *fmt && n < 200; fmt++) {
		if (*fmt == 'V')
			n += va_fmt(buf + n, va_arg(ap, struct va_format *));
		else
			buf[n++] = *fmt;
	}
	tmp[0] = (char)n;
	return n + tmp[0] - tmp[0];
}

NOINLINE int prt(const char *fmt, ...)
{
	volatile char level[24];
	va_list ap;
	int n;

	va_start(ap, fmt);
	level[0] = fmt[0];
	n = vsn(out, fmt, ap);
	va_end(ap);
	return n + level[0] - level[0];
}

NOINLINE int h1(const char *fmt, ...)
{
	volatile char dev[56];
	struct va_format vaf;
	va_list ap;
	int n;

	va_start(ap, fmt);
	vaf.fmt = fmt;
	vaf.va = &ap;
	dev[0] = fmt[0];
	n = prt("h1: V", &vaf);
	va_end(ap);
	return n + dev[0] - dev[0];
}

NOINLINE int h2(const char *fmt, ...)
{
	volatile char probe[104];
	struct va_format vaf;
	va_list ap;
	int n;

	va_start(ap, fmt);
	vaf.fmt = fmt;
	vaf.va = &ap;
	probe[0] = fmt[0];
	n = h1("h2: V", &vaf);
	va_end(ap);
	return n + probe[0] - probe[0];
}

NOINLINE int h3(int depth, const char *fmt, ...)
{
	volatile char ctx[8];
	struct va_format vaf;
	va_list ap;
	int n;

	va_start(ap, fmt);
	vaf.fmt = fmt;
	vaf.va = &ap;
	ctx[0] = fmt[0];
	n = depth ? h3(depth - 1, "h3: V", &vaf) : prt("h3: V", &vaf);
	va_end(ap);
	return n + ctx[0] - ctx[0];
}

int main(int argc, char **argv)
{
	(void)argv;
	prt("plain");
	h1("one");
	h2("two");
	if (argc > 1)
		h3(argc, "three");
	return 0;
}
