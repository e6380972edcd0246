/* strbuf.h - a growable string, for text built from several pieces. */
#ifndef SP_STRBUF_H
#define SP_STRBUF_H

#include <stddef.h>

struct sp_strbuf {
	char *buf;		/* NUL-terminated once anything was added */
	size_t len, cap;
};

__attribute__((format(printf, 2, 3)))
void sp_strbuf_addf(struct sp_strbuf *sb, const char *fmt, ...);
/* Append s as it is: no format to parse, for text built in many pieces. */
void sp_strbuf_add(struct sp_strbuf *sb, const char *s);
/* Append the n bytes at s (no NUL among them). */
void sp_strbuf_addn(struct sp_strbuf *sb, const char *s, size_t n);

#endif
