/*
 * diff.h - compare two --json reports (schema version 1): which functions'
 * worst case or own frame grew or shrank, which frames became dynamic,
 * which functions became recursive.  What a reviewer wants on a patch.
 *
 *	struct sp_diff d;
 *	sp_diff_init(&d);
 *	if (sp_diff_load(&d, "old.json", "new.json", &err)) ...
 *	sp_diff_print(&d, stdout);
 *	if (d.max_growth > limit) exit 1
 *	sp_diff_release(&d);
 */
#ifndef SP_DIFF_H
#define SP_DIFF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "common/error.h"

/* One function as one report gives it. */
struct sp_diff_side {
	bool present;
	int64_t total;		/* "lower_bound": the worst known path */
	int64_t self;		/* -1 when null (unknown) */
	bool bounded, recursive, dynamic;
};

struct sp_diff_row {
	char *name, *file;	/* malloc'ed; file may be NULL */
	struct sp_diff_side old, new;
	int64_t growth;		/* new.total - old.total (0 for an absent side) */
	int64_t self_growth;
};

struct sp_diff {
	struct sp_diff_row *rows;	/* only the changed functions, after load */
	size_t n, cap;
	int64_t max_growth;		/* largest total growth, 0 if none grew */
};

void sp_diff_init(struct sp_diff *d);
void sp_diff_release(struct sp_diff *d);
/* Read both reports; keep the functions that differ, sorted by growth
 * (largest first), then name.  Errors: "'PATH': not a stackprof JSON report". */
int sp_diff_load(struct sp_diff *d, const char *old_path, const char *new_path,
		 struct sp_err *err);
/* Does a row say something new and bad: a dynamic frame, recursion,
 * a total that became unbounded? */
bool sp_diff_row_new_dynamic(const struct sp_diff_row *r);
bool sp_diff_row_new_recursion(const struct sp_diff_row *r);
int sp_diff_print(const struct sp_diff *d, FILE *out, struct sp_err *err);

#endif
