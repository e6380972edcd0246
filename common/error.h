/*
 * error.h - how library code reports failure.
 *
 * Library functions never print or exit: they fill a struct sp_err and
 * return -1 (or NULL).  Messages follow git's style: lowercase, no final
 * period, the subject first ("FILE:LINE: malformed .su line").  Only main
 * prints them, prefixed with "stackprof: ".
 */
#ifndef SP_ERROR_H
#define SP_ERROR_H

struct sp_err {
	char msg[1024];
};

/* Format into err (which may be NULL) and return -1. */
int sp_err_set(struct sp_err *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Callback for warnings that do not stop the work (--keep-going). */
typedef void (*sp_warn_fn)(void *ctx, const char *msg);

#endif
