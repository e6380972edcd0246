#include "common/error.h"

#include <stdarg.h>
#include <stdio.h>

int sp_err_set(struct sp_err *err, const char *fmt, ...)
{
	va_list ap;

	if (!err)
		return -1;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	return -1;
}
