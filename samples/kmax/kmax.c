/*
 * kmax: the Linux kernel's old statement-expression max() used as an
 * array size.  A statement expression is not an integer constant
 * expression, so buf is formally a VLA ("dynamic" at -O0), but GCC folds
 * it to 71 bytes at -O2 and the frame is static.
 */
#include <stdio.h>
#include <string.h>

#define max(a, b) ({ typeof(a) _a = (a); typeof(b) _b = (b); _a > _b ? _a : _b; })

extern void use(char *p, size_t n);

__attribute__((noinline)) int format_id(int id)
{
	char buf[max(40, 71)];

	memset(buf, 0, sizeof(buf));
	snprintf(buf, sizeof(buf), "id-%d", id);
	use(buf, sizeof(buf));
	return buf[0];
}

int main(void)
{
	printf("kmax: %d\n", format_id(7) == 'i' ? 0 : 1);
	return 0;
}
