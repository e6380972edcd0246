#include <stddef.h>

size_t consume(const char *p, size_t n);

size_t consume(const char *p, size_t n)
{
	volatile char buf[190];
	size_t i, sum = 0;

	for (i = 0; i < n; i++) {
		buf[i % sizeof(buf)] = p[i];
		sum += (unsigned char)buf[i % sizeof(buf)];
	}
	return sum ? n : 0;
}
