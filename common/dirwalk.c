/* dirwalk.c - the files a directory tree holds, found in a fixed order. */
#include "common/dirwalk.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/xalloc.h"

struct pathvec {
	char **v;
	size_t n, cap;
};

static char *join(const char *dir, const char *name)
{
	size_t a = strlen(dir), b = strlen(name);
	char *p = sp_xmalloc(a + b + 2);

	memcpy(p, dir, a);
	p[a] = '/';
	memcpy(p + a + 1, name, b + 1);
	return p;
}

static int collect(struct pathvec *out, const char *dir, bool (*want)(const char *name),
		   struct sp_err *err)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int ret = 0;

	if (!d)
		return sp_err_set(err, "cannot read '%s': %s", dir, strerror(errno));
	while (!ret && (errno = 0, de = readdir(d))) {
		unsigned char type = de->d_type;
		char *full;
		struct stat st;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		full = join(dir, de->d_name);
		if (type == DT_UNKNOWN || type == DT_LNK) {
			bool link = type == DT_LNK;

			if (!link && !lstat(full, &st) && S_ISLNK(st.st_mode))
				link = true;
			if (link ? stat(full, &st) : lstat(full, &st)) {
				free(full);
				continue;	/* dangling link */
			}
			type = S_ISDIR(st.st_mode) ? (link ? DT_LNK : DT_DIR) :
			       S_ISREG(st.st_mode) ? DT_REG : DT_UNKNOWN;
		}
		if (type == DT_DIR) {
			ret = collect(out, full, want, err);
			free(full);
		} else if (type == DT_REG && want(de->d_name)) {
			SP_ALLOC_GROW(out->v, out->n + 1, out->cap);
			out->v[out->n++] = full;
		} else {
			free(full);
		}
	}
	if (!ret && errno)
		ret = sp_err_set(err, "cannot read '%s': %s", dir, strerror(errno));
	closedir(d);
	return ret;
}

static int str_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int sp_collect_files(const char *dir, bool (*want)(const char *name), char ***paths,
		     size_t *n, struct sp_err *err)
{
	struct pathvec v = { NULL, 0, 0 };
	size_t i;

	if (collect(&v, dir, want, err)) {
		for (i = 0; i < v.n; i++)
			free(v.v[i]);
		free(v.v);
		return -1;
	}
	if (v.n)
		qsort(v.v, v.n, sizeof(*v.v), str_cmp);
	*paths = v.v;
	*n = v.n;
	return 0;
}
