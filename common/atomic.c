#include "common/atomic.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/xalloc.h"

/*
 * An existing output that is no regular file (/dev/null, /dev/full, a
 * pipe, a terminal) is written in place: a temporary file renamed over
 * it would replace the device node itself (as root, in /dev), and a
 * device holds no partial file to clean up.  So is a symbolic link: the
 * rename would replace the link, not the file it names (/dev/stdout ->
 * /proc/self/fd/1 redirected to a file became a file in /dev).  A
 * directory is refused.
 */
static int atomic_open_special(struct sp_atomic *a, const char *path,
			       const struct stat *st, struct sp_err *err)
{
	if (S_ISDIR(st->st_mode))
		return sp_err_set(err, "cannot write '%s': %s", path, strerror(EISDIR));
	a->fp = fopen(path, "w");
	if (!a->fp)
		return sp_err_set(err, "cannot write '%s': %s", path, strerror(errno));
	return 0;
}

int sp_atomic_open(struct sp_atomic *a, const char *path, struct sp_err *err)
{
	size_t n = strlen(path);
	struct stat st;
	int fd;

	a->path = path;
	a->tmp = NULL;
	a->fp = NULL;
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode))
		return atomic_open_special(a, path, &st, err);
	if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode))
		return atomic_open_special(a, path, &st, err);
	a->tmp = sp_xmalloc(n + sizeof(".tmpXXXXXX"));
	memcpy(a->tmp, path, n);
	memcpy(a->tmp + n, ".tmpXXXXXX", sizeof(".tmpXXXXXX"));
	fd = mkstemp(a->tmp);
	if (fd < 0) {
		int e = errno;

		free(a->tmp);
		a->tmp = NULL;
		a->fp = NULL;
		return sp_err_set(err, "cannot write '%s': %s", path, strerror(e));
	}
	/* mkstemp makes 0600; an output file gets what open(2) would give */
	mode_t mask = umask(0);

	umask(mask);
	if (fchmod(fd, 0666 & ~mask)) {
		int e = errno;

		close(fd);
		unlink(a->tmp);
		free(a->tmp);
		a->tmp = NULL;
		a->fp = NULL;
		return sp_err_set(err, "cannot write '%s': %s", path, strerror(e));
	}
	a->fp = fdopen(fd, "w");
	if (!a->fp) {
		int e = errno;

		close(fd);
		sp_atomic_abort(a);
		return sp_err_set(err, "cannot write '%s': %s", path, strerror(e));
	}
	return 0;
}

int sp_atomic_commit(struct sp_atomic *a, struct sp_err *err)
{
	int failed = ferror(a->fp), e = 0;

	/* fclose reports what buffered writes could not: a full disk */
	errno = 0;
	if (fclose(a->fp)) {
		failed = 1;
		e = errno;
	}
	a->fp = NULL;
	if (!failed) {
		if (!a->tmp || rename(a->tmp, a->path) == 0) {
			free(a->tmp);
			a->tmp = NULL;
			return 0;
		}
		e = errno;
	}
	sp_err_set(err, "cannot write '%s': %s", a->path, e ? strerror(e) : "write error");
	sp_atomic_abort(a);
	return -1;
}

void sp_atomic_abort(struct sp_atomic *a)
{
	if (a->fp)
		fclose(a->fp);
	a->fp = NULL;
	if (a->tmp) {
		unlink(a->tmp);
		free(a->tmp);
		a->tmp = NULL;
	}
}
