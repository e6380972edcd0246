/*
 * entries.c - resolve --entry specs ("NAME" or "FILE:NAME") to functions.
 */
#include "analysis/analysis.h"

#include <fnmatch.h>
#include <stdlib.h>
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

static int ref_cmp(const void *pa, const void *pb)
{
	const struct sp_name_ref *a = pa, *b = pb;
	int c = strcmp(a->s, b->s);

	if (c)
		return c;
	return (a->id > b->id) - (a->id < b->id);
}

void sp_name_index_build(struct sp_name_index *ix, const struct sp_graph *g)
{
	uint32_t i;

	ix->n = 0;
	ix->v = sp_xmalloc(((size_t)g->nfuncs * 2 + 1) * sizeof(*ix->v));
	for (i = 0; i < g->nfuncs; i++) {
		if (g->funcs[i].name)
			ix->v[ix->n++] = (struct sp_name_ref){ g->funcs[i].name, i };
		if (g->funcs[i].symbol)
			ix->v[ix->n++] = (struct sp_name_ref){ g->funcs[i].symbol, i };
	}
	qsort(ix->v, ix->n, sizeof(*ix->v), ref_cmp);
}

void sp_name_index_add(struct sp_name_index *ix, const struct sp_graph *g, uint32_t id)
{
	const char *s[2] = { g->funcs[id].name, g->funcs[id].symbol };
	size_t k, at;

	ix->v = sp_xrealloc(ix->v, (ix->n + 2) * sizeof(*ix->v));
	for (k = 0; k < 2; k++) {
		struct sp_name_ref r = { s[k], id };

		if (!s[k])
			continue;
		for (at = ix->n; at > 0 && ref_cmp(&ix->v[at - 1], &r) > 0; at--)
			ix->v[at] = ix->v[at - 1];
		ix->v[at] = r;
		ix->n++;
	}
}

void sp_name_index_release(struct sp_name_index *ix)
{
	free(ix->v);
	ix->v = NULL;
	ix->n = 0;
}

/* The first entry not below key. */
static size_t lower_bound(const struct sp_name_index *ix, const char *key)
{
	size_t lo = 0, hi = ix->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(ix->v[mid].s, key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static int id_cmp(const void *pa, const void *pb)
{
	uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;

	return (a > b) - (a < b);
}

/*
 * collect() through the index: the names equal to name (exact), else
 * those that start with "name."; a function whose name and symbol both
 * match comes once, and all in id order, as the scan finds them.
 */
static size_t collect_in(const struct sp_graph *g, const struct sp_name_index *ix,
			 const char *file, size_t flen, const char *name, bool exact,
			 uint32_t **ids, size_t *n, size_t *cap)
{
	size_t nlen = strlen(name), at, k, nfound = 0, found = 0;
	char *key = sp_xmalloc(nlen + 2);
	uint32_t *v = NULL;

	memcpy(key, name, nlen);
	key[nlen] = exact ? '\0' : '.';
	key[nlen + 1] = '\0';
	at = lower_bound(ix, key);
	for (k = at; k < ix->n && name_matches(ix->v[k].s, name, nlen, exact); k++)
		;
	free(key);
	if (k == at)
		return 0;
	v = sp_xmalloc((k - at) * sizeof(*v));
	for (; at < k; at++)
		v[nfound++] = ix->v[at].id;
	qsort(v, nfound, sizeof(*v), id_cmp);
	for (k = 0; k < nfound; k++) {
		if ((k && v[k] == v[k - 1]) || !file_matches(g, &g->funcs[v[k]], file, flen))
			continue;
		SP_ALLOC_GROW(*ids, *n + 1, *cap);
		(*ids)[(*n)++] = v[k];
		found++;
	}
	free(v);
	return found;
}

static size_t find_spec(const struct sp_graph *g, const struct sp_name_index *ix,
			const char *file, size_t flen, const char *name, uint32_t **ids,
			size_t *n, size_t *cap)
{
	if (!*name)
		return 0;
	if (ix)
		return collect_in(g, ix, file, flen, name, true, ids, n, cap) ||
		       collect_in(g, ix, file, flen, name, false, ids, n, cap);
	if (collect(g, file, flen, name, true, ids, n, cap))
		return 1;
	return collect(g, file, flen, name, false, ids, n, cap);
}

/*
 * "ns::f" is a name, not FILE "ns" and NAME ":f": the whole spec is tried
 * as a name first, then split at each single ':' from the left.
 */
int sp_find_entries_in(const struct sp_graph *g, const struct sp_name_index *ix,
		       const char *spec, uint32_t **ids, size_t *n, size_t *cap,
		       struct sp_err *err)
{
	const char *p;

	if (find_spec(g, ix, NULL, 0, spec, ids, n, cap))
		return 0;
	for (p = strchr(spec, ':'); p; p = strchr(p + 1, ':')) {
		if (p[1] == ':') {
			p++;
			continue;
		}
		if (p > spec && find_spec(g, ix, spec, (size_t)(p - spec), p + 1, ids, n, cap))
			return 0;
	}
	return sp_err_set(err, "no function named '%s'", spec);
}

int sp_find_entries(const struct sp_graph *g, const char *spec, uint32_t **ids,
		    size_t *n, size_t *cap, struct sp_err *err)
{
	return sp_find_entries_in(g, NULL, spec, ids, n, cap, err);
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
