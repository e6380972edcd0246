/*
 * atomic.h - write an output file so that it appears whole or not at all:
 * into a temporary file in the same directory, renamed over the target on
 * success, removed on failure.
 */
#ifndef SP_ATOMIC_H
#define SP_ATOMIC_H

#include <stdio.h>

#include "common/error.h"

struct sp_atomic {
	FILE *fp;
	char *tmp;		/* temporary path */
	const char *path;	/* final path */
};

int sp_atomic_open(struct sp_atomic *a, const char *path, struct sp_err *err);
/* Flush, close and rename; on any error the temporary file is removed. */
int sp_atomic_commit(struct sp_atomic *a, struct sp_err *err);
void sp_atomic_abort(struct sp_atomic *a);

#endif
