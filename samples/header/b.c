#include "util.h"

int in_b(int v);

int in_b(int v)
{
	volatile char buf[300];

	buf[0] = (char)v;
	return clamp_add(v, 2) + buf[0];
}
