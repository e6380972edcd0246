#include "common/strbuf.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

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

void sp_strbuf_add(struct sp_strbuf *sb, const char *s)
{
	sp_strbuf_addn(sb, s, strlen(s));
}

void sp_strbuf_addn(struct sp_strbuf *sb, const char *s, size_t n)
{
	SP_ALLOC_GROW(sb->buf, sb->len + n + 1, sb->cap);
	memcpy(sb->buf + sb->len, s, n);
	sb->len += n;
	sb->buf[sb->len] = 0;
}
