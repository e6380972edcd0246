#include "common/strbuf.h"

#include <stdarg.h>
#include <stdio.h>

#include "common/xalloc.h"

void sp_strbuf_addf(struct sp_strbuf *sb, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	SP_ALLOC_GROW(sb->buf, sb->len + (size_t)n + 1, sb->cap);
	va_start(ap, fmt);
	vsnprintf(sb->buf + sb->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	sb->len += (size_t)n;
}
