#include <string.h>

void fill(char *p, unsigned n);

void fill(char *p, unsigned n)
{
	volatile char buf[72];

	buf[0] = 'x';
	memset(p, buf[0], n);
	p[n] = buf[0] - buf[0];
}
