/*
 * entries.c - resolve --entry specs ("NAME" or "FILE:NAME") to functions.
 */
#include "analysis/analysis.h"

#include <fnmatch.h>
#include <string.h>

#include "common/xalloc.h"

/* Does path end with suffix at a path-component boundary? */
static bool path_has_suffix(const char *path, const char *suffix, size_t slen)
{
	size_t plen = strlen(path);

	if (!slen || slen > plen || memcmp(path + plen - slen, suffix, slen))
		return false;
	return slen == plen || path[plen - slen - 1] == '/' || suffix[0] == '/';
}

/*
 * FILE may be spelt longer than the function's file, e.g. absolute while
 * DWARF kept the relative name it was compiled with: then compare against
 * comp_dir/file too.
 */
static bool file_matches(const struct sp_graph *g, const struct sp_func *f,
			 const char *file, size_t flen)
{
	const struct sp_cu *cu;
	size_t dlen, len;

	if (!file)
		return true;
	if (!f->file)
		return false;
	if (path_has_suffix(f->file, file, flen))
		return true;
	if (f->file[0] == '/' || f->cu >= g->ncus || !g->cus[f->cu].comp_dir)
		return false;
	/* file must then be a suffix of "comp_dir/f->file" spanning f->file */
	cu = &g->cus[f->cu];
	len = strlen(f->file);
	if (flen <= len + 1 || !path_has_suffix(f->file, file + flen - len, len) ||
	    file[flen - len - 1] != '/')
		return false;
	dlen = flen - len - 1;
	return path_has_suffix(cu->comp_dir, file, dlen);
}

/* exact: NAME itself; otherwise a GCC clone of it: "NAME.constprop.0" */
static bool name_matches(const char *s, const char *name, size_t nlen, bool exact)
{
	if (!s || strncmp(s, name, nlen))
		return false;
	return exact ? s[nlen] == '\0' : s[nlen] == '.';
}

static size_t collect(const struct sp_graph *g, const char *file, size_t flen,
		      const char *name, bool exact, uint32_t **ids, size_t *n,
		      size_t *cap)
{
	size_t nlen = strlen(name), found = 0;
	uint32_t i;

	for (i = 0; i < g->nfuncs; i++) {
		const struct sp_func *f = &g->funcs[i];

		if (!name_matches(f->name, name, nlen, exact) &&
		    !name_matches(f->symbol, name, nlen, exact))
			continue;
		if (!file_matches(g, f, file, flen))
			continue;
		SP_ALLOC_GROW(*ids, *n + 1, *cap);
		(*ids)[(*n)++] = i;
		found++;
	}
	return found;
}

static size_t find_spec(const struct sp_graph *g, const char *file, size_t flen,
			const char *name, uint32_t **ids, size_t *n, size_t *cap)
{
	if (!*name)
		return 0;
	if (collect(g, file, flen, name, true, ids, n, cap))
		return 1;
	return collect(g, file, flen, name, false, ids, n, cap);
}

/*
 * "ns::f" is a name, not FILE "ns" and NAME ":f": the whole spec is tried
 * as a name first, then split at each single ':' from the left.
 */
int sp_find_entries(const struct sp_graph *g, const char *spec, uint32_t **ids,
		    size_t *n, size_t *cap, struct sp_err *err)
{
	const char *p;

	if (find_spec(g, NULL, 0, spec, ids, n, cap))
		return 0;
	for (p = strchr(spec, ':'); p; p = strchr(p + 1, ':')) {
		if (p[1] == ':') {
			p++;
			continue;
		}
		if (p > spec && find_spec(g, spec, (size_t)(p - spec), p + 1, ids, n, cap))
			return 0;
	}
	return sp_err_set(err, "no function named '%s'", spec);
}

int sp_find_entries_glob(const struct sp_graph *g, const char *pattern,
			 uint32_t **ids, size_t *n, size_t *cap, struct sp_err *err)
{
	size_t found = 0;
	uint32_t i;

	for (i = 0; i < g->nfuncs; i++) {
		const struct sp_func *f = &g->funcs[i];

		if (!(f->flags & SP_F_HAS_CODE))
			continue;
		if ((!f->name || fnmatch(pattern, f->name, 0)) &&
		    (!f->symbol || fnmatch(pattern, f->symbol, 0)))
			continue;
		SP_ALLOC_GROW(*ids, *n + 1, *cap);
		(*ids)[(*n)++] = i;
		found++;
	}
	if (!found)
		return sp_err_set(err, "no function matches '%s'", pattern);
	return 0;
}
