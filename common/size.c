#include "common/size.h"

#include <stddef.h>

static int unit_shift(char c)
{
	switch (c) {
	case '\0':
		return 0;
	case 'k': case 'K':
		return 10;
	case 'm': case 'M':
		return 20;
	case 'g': case 'G':
		return 30;
	}
	return -1;
}

/* strtoull would accept "-1", " 1" and "0x10": digits are parsed by hand */
int sp_parse_size(const char *s, uint64_t *out)
{
	uint64_t v = 0;
	int shift;

	if (!s || *s < '0' || *s > '9')
		return -1;
	for (; *s >= '0' && *s <= '9'; s++) {
		unsigned d = (unsigned)(*s - '0');

		if (v > (UINT64_MAX - d) / 10)
			return -1;
		v = v * 10 + d;
	}
	shift = unit_shift(*s);
	if (shift < 0 || (*s && s[1]))
		return -1;
	if (v > (UINT64_MAX >> shift))
		return -1;
	*out = v << shift;
	return 0;
}
