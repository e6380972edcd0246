/*
 * error.h - how library code reports failure, warnings and progress.
 *
 * Library functions never print or exit: they fill a struct sp_err and
 * return -1 (or NULL).  Messages follow git's style: lowercase, no final
 * period, the subject first ("FILE:LINE: malformed .su line").  Only main
 * prints them, prefixed with "stackprof: ".
 */
#ifndef SP_ERROR_H
#define SP_ERROR_H

#include <stdint.h>

struct sp_err {
	char msg[1024];
};

/* Format into err (which may be NULL) and return -1. */
int sp_err_set(struct sp_err *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Callback for warnings that do not stop the work (--keep-going). */
typedef void (*sp_warn_fn)(void *ctx, const char *msg);

/* Called after each compile unit of an image's DWARF walk, and once with
 * done == total at its end: main draws the progress line. */
typedef void sp_progress_fn(void *arg, const char *path, uint32_t done, uint32_t total);

#endif
