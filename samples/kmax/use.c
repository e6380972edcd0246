#include <stddef.h>

void use(char *p, size_t n);

void use(char *p, size_t n)
{
	volatile char buf[256];

	buf[0] = p[0];
	buf[255] = (char)n;
	p[n - 1] = (char)(buf[0] - buf[0]);
}
