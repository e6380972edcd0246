#include <stdio.h>

#include "clones.h"

int report_failure(int code)
{
	volatile char buf[700];

	buf[0] = (char)code;
	buf[699] = (char)code;
	fprintf(stderr, "failure %d\n", buf[0] + buf[699]);
	return -1;
}
