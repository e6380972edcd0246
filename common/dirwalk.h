/* dirwalk.h - the files a directory tree holds, found in a fixed order. */
#ifndef SP_DIRWALK_H
#define SP_DIRWALK_H

#include <stdbool.h>
#include <stddef.h>

#include "common/error.h"

/*
 * The regular files under dir, recursively, whose name want() accepts,
 * sorted by path; each path and the array are malloc'ed.  Symbolic
 * links to files are followed, links to directories are not: a link
 * cycle must not hang us.  An unreadable directory is "cannot read
 * 'DIR': reason" in err.
 */
int sp_collect_files(const char *dir, bool (*want)(const char *name), char ***paths,
		     size_t *n, struct sp_err *err);

#endif
