/*
 * libc_stubs.c - stand-ins for the few C library functions the samples
 * call, linked into the oracle's copy of each sample.  glibc's own frames
 * have no .su, so through them every total would be partial and no bound
 * could be checked; these have .su rows of their own, so the totals
 * through them are bounded and the painted-stack peak must stay within
 * them.  Nothing is printed: the output of the samples is not what is
 * measured.  Built with -fno-builtin so that GCC does not turn the loops
 * back into calls to the functions they define.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

void *memset(void *p, int c, size_t n)
{
	unsigned char *q = p;

	while (n--)
		*q++ = (unsigned char)c;
	return p;
}

void *memcpy(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;

	while (n--)
		*d++ = *s++;
	return dst;
}

size_t strlen(const char *s)
{
	size_t n = 0;

	while (s[n])
		n++;
	return n;
}

int printf(const char *fmt, ...)
{
	return (int)strlen(fmt);
}

int fprintf(FILE *fp, const char *fmt, ...)
{
	(void)fp;
	return (int)strlen(fmt);
}

int puts(const char *s)
{
	return (int)strlen(s);
}

int putchar(int c)
{
	return c;
}

/* Copies the format without conversions: enough for a bounded string. */
int snprintf(char *buf, size_t size, const char *fmt, ...)
{
	size_t n = strlen(fmt), i;

	for (i = 0; size && i < n && i < size - 1; i++)
		buf[i] = fmt[i];
	if (size)
		buf[i] = '\0';
	return (int)n;
}
