/*
 * find.c - --annotate NAME: the annotation files shipped with stackprof.
 *
 * A name without a '/' that is not a regular file names a shipped file,
 * NAME.ann: the source tree's annotations/ when the running binary lies
 * inside the tree it was built from (STACKPROF_SRCDIR), otherwise the
 * installed copy in BINDIR/../share/stackprof/, beside the binary, so
 * that an installed tree can move (DESTDIR, another PREFIX).
 */
#include "annotate/annotate.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/xalloc.h"

#ifndef STACKPROF_SRCDIR
#define STACKPROF_SRCDIR ""
#endif

static bool is_regular_file(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISREG(st.st_mode);
}

/* Letters, digits, '-' and '_': a shipped name, never a path. */
static bool is_shipped_name(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!(*s >= 'a' && *s <= 'z') && !(*s >= 'A' && *s <= 'Z') &&
		    !(*s >= '0' && *s <= '9') && *s != '-' && *s != '_')
			return false;
	return true;
}

/* Is path inside dir (both canonical)? */
static bool is_under(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	return n && !strncmp(path, dir, n) && path[n] == '/';
}

char *sp_annot_shipped_path(const char *name, const char *exe)
{
	char bin[PATH_MAX], src[PATH_MAX], *slash, *out;
	size_t len;

	if (!exe)
		exe = "/proc/self/exe";
	if (!realpath(exe, bin))
		return NULL;
	if (realpath(STACKPROF_SRCDIR, src) && STACKPROF_SRCDIR[0] && is_under(bin, src)) {
		len = strlen(src) + strlen("/annotations/") + strlen(name) + strlen(".ann") + 1;
		out = sp_xmalloc(len);
		snprintf(out, len, "%s/annotations/%s.ann", src, name);
		return out;
	}
	slash = strrchr(bin, '/');
	*slash = '\0';
	len = strlen(bin) + strlen("/../share/stackprof/") + strlen(name) + strlen(".ann") + 1;
	out = sp_xmalloc(len);
	snprintf(out, len, "%s/../share/stackprof/%s.ann", bin, name);
	return out;
}

int sp_annot_load_named(struct sp_annots *a, const char *arg, const char *exe,
			struct sp_err *err)
{
	char *path;
	int ret;

	if (!is_shipped_name(arg) || is_regular_file(arg))
		return sp_annot_load(a, arg, err);
	path = sp_annot_shipped_path(arg, exe);
	if (!path)
		return sp_err_set(err, "unable to find the shipped annotation file '%s': "
				  "cannot resolve '%s': %s", arg, exe ? exe : "/proc/self/exe",
				  strerror(errno));
	if (!is_regular_file(path)) {
		sp_err_set(err, "no annotation file '%s': not a file, and no '%s'", arg, path);
		free(path);
		return -1;
	}
	ret = sp_annot_load(a, path, err);
	free(path);
	return ret;
}
