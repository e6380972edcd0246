#include "common/atomic.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/xalloc.h"

int sp_atomic_open(struct sp_atomic *a, const char *path, struct sp_err *err)
{
	size_t n = strlen(path);
	int fd;

	a->path = path;
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
	int failed = ferror(a->fp);

	/* fclose reports what buffered writes could not: a full disk */
	if (fclose(a->fp))
		failed = 1;
	a->fp = NULL;
	if (!failed && rename(a->tmp, a->path) == 0) {
		free(a->tmp);
		a->tmp = NULL;
		return 0;
	}
	sp_err_set(err, "cannot write '%s': %s", a->path,
		   errno ? strerror(errno) : "write error");
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
