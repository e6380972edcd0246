/*
 * find.c - locate the .su files of a program's compile units, and the
 * lexical path helpers that discovery and matching share.
 *
 * GCC writes "<object without .o>.su" (auxname), which for a compile in
 * place (the kernel, most Makefiles) is the source path with its extension
 * replaced.  A one-step "gcc -o prog a.c" uses "-dumpbase prog", giving
 * "prog-a.su" beside the program, and LTO writes one
 * "prog.ltransN.ltrans.su" per partition.  Build trees elsewhere are
 * reached through --su-dir roots, indexed by basename once; there CMake's
 * objects ("a.c.o") give "a.c.su".
 */
#include "su/su.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/xalloc.h"

/* ---- lexical paths ---- */

static char *current_dir(void)
{
	size_t cap = 256;

	for (;;) {
		char *buf = sp_xmalloc(cap);

		if (getcwd(buf, cap))
			return buf;
		free(buf);
		if (errno != ERANGE)
			return NULL;
		cap *= 2;
	}
}

/* Append component [p, p+len) to out (length *n), folding "." and "..". */
static void push_component(char *out, size_t *n, const char *p, size_t len)
{
	bool abs = out[0] == '/';

	if (!len || (len == 1 && p[0] == '.'))
		return;
	if (len == 2 && p[0] == '.' && p[1] == '.') {
		size_t last = *n;

		while (last > 0 && out[last - 1] != '/')
			last--;
		/* last..*n is the previous component; ".." cannot be folded */
		if (*n > last && !(*n - last == 2 && out[last] == '.' &&
				   out[last + 1] == '.')) {
			*n = last > 1 ? last - 1 : last;
			return;
		}
		if (abs && *n <= 1)
			return;	/* "/.." is "/" */
	}
	if (*n && out[*n - 1] != '/')
		out[(*n)++] = '/';
	memcpy(out + *n, p, len);
	*n += len;
}

static void push_path(char *out, size_t *n, const char *path)
{
	while (*path) {
		const char *slash = strchr(path, '/');
		size_t len = slash ? (size_t)(slash - path) : strlen(path);

		push_component(out, n, path, len);
		path += len + (slash != NULL);
	}
}

char *su_path_normalize(const char *dir, const char *path)
{
	char *cwd = NULL, *out;
	size_t n = 0;

	if (path[0] != '/' && !dir)
		dir = cwd = current_dir();
	if (path[0] == '/')
		dir = NULL;
	out = sp_xmalloc((dir ? strlen(dir) : 0) + strlen(path) + 3);
	out[0] = '\0';
	if ((dir && dir[0] == '/') || path[0] == '/')
		out[n++] = '/';
	out[n] = '\0';
	if (dir)
		push_path(out, &n, dir);
	push_path(out, &n, path);
	if (!n)
		out[n++] = '.';
	out[n] = '\0';
	free(cwd);
	return out;
}

size_t su_path_stem_len(const char *s)
{
	const char *base = strrchr(s, '/');
	const char *dot;

	base = base ? base + 1 : s;
	dot = strrchr(base, '.');
	return dot && dot > base ? (size_t)(dot - s) : strlen(s);
}

size_t su_path_common_suffix(const char *a, size_t alen, const char *b, size_t blen)
{
	size_t common = 0;

	while (alen && blen) {
		size_t i = alen, j = blen;

		while (i && a[i - 1] != '/')
			i--;
		while (j && b[j - 1] != '/')
			j--;
		if (alen - i != blen - j || memcmp(a + i, b + j, alen - i))
			break;
		common++;
		alen = i ? i - 1 : 0;
		blen = j ? j - 1 : 0;
		if (!i || !j)
			break;
	}
	return common;
}

/* ---- discovery ---- */

/* The .su files under the --su-dir roots, by basename. */
struct su_index {
	struct sp_strtab names;		/* basenames */
	struct sp_u64map first;		/* interned basename -> first path */
	char **paths;
	uint32_t *next;			/* chain of paths with one basename */
	size_t npaths;
};

static const char *base_of(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

static void index_release(struct su_index *ix)
{
	size_t i;

	for (i = 0; i < ix->npaths; i++)
		free(ix->paths[i]);
	free(ix->paths);
	free(ix->next);
	sp_u64map_release(&ix->first);
	sp_strtab_release(&ix->names);
}

static uint64_t name_key(struct sp_strtab *t, const char *s, size_t len)
{
	return (uint64_t)(uintptr_t)sp_strtab_intern(t, s, len);
}

static int index_build(struct su_index *ix, const char *const *dirs, size_t ndirs,
		       struct sp_err *err)
{
	size_t cap = 0, d;

	memset(ix, 0, sizeof(*ix));
	sp_strtab_init(&ix->names);
	sp_u64map_init(&ix->first, 0);
	for (d = 0; d < ndirs; d++) {
		char **v;
		size_t n, i;

		if (su_collect_dir(dirs[d], &v, &n, err))
			return -1;
		SP_ALLOC_GROW(ix->paths, ix->npaths + n, cap);
		ix->next = sp_xrealloc(ix->next, cap * sizeof(*ix->next));
		/* walk backwards so that chains keep the sorted order */
		for (i = n; i-- > 0;) {
			const char *b = base_of(v[i]);
			uint64_t key = name_key(&ix->names, b, strlen(b));
			size_t at = ix->npaths + i;

			ix->paths[at] = v[i];
			ix->next[at] = sp_u64map_swap(&ix->first, key, (uint32_t)at);
		}
		ix->npaths += n;
		free(v);
	}
	return 0;
}

static char *strndup_x(const char *s, size_t len)
{
	char *p = sp_xmalloc(len + 1);

	memcpy(p, s, len);
	p[len] = '\0';
	return p;
}

static char *concat3(const char *a, const char *b, const char *c)
{
	size_t la = strlen(a), lb = strlen(b), lc = strlen(c);
	char *p = sp_xmalloc(la + lb + lc + 1);

	memcpy(p, a, la);
	memcpy(p + la, b, lb);
	memcpy(p + la + lb, c, lc + 1);
	return p;
}

/*
 * Which candidate .su files exist, one directory listing at a time: a
 * kernel has thousands of compile units with four candidates each, and
 * on a machine other than the build's most name a directory that is not
 * there, so a stat per candidate was 20 ms of a run.
 */
enum dir_state { DIR_ABSENT = 1, DIR_LISTED, DIR_UNLISTED };

struct su_present {
	struct sp_strtab paths;		/* directories and listed files, interned */
	struct sp_u64map dirs;		/* interned directory -> enum dir_state */
	struct sp_u64map files;		/* interned "dir/name.su" -> 1 when listed */
};

static void present_init(struct su_present *p)
{
	sp_strtab_init(&p->paths);
	sp_u64map_init(&p->dirs, 64);
	sp_u64map_init(&p->files, 64);
}

static void present_release(struct su_present *p)
{
	sp_u64map_release(&p->files);
	sp_u64map_release(&p->dirs);
	sp_strtab_release(&p->paths);
}

/* Read dir's .su names into p->files; what stat would say of its files
 * when it cannot be read (no such directory, or a permission). */
static enum dir_state list_dir(struct su_present *p, const char *dir, size_t len)
{
	char *path = strndup_x(dir, len);
	DIR *d = opendir(path);
	struct dirent *de;
	enum dir_state st = DIR_LISTED;

	if (!d)
		st = errno == ENOENT || errno == ENOTDIR ? DIR_ABSENT : DIR_UNLISTED;
	while (d && (de = readdir(d))) {
		size_t n = strlen(de->d_name);
		char *file;

		if (n < 3 || strcmp(de->d_name + n - 3, ".su"))
			continue;
		file = concat3(path, "/", de->d_name);
		sp_u64map_put(&p->files, name_key(&p->paths, file, strlen(file)), 1);
		free(file);
	}
	if (d)
		closedir(d);
	free(path);
	return st;
}

/* May path exist?  false only when its directory is absent, or listed
 * without it; a stat still decides for the rest (and for a file in "/"
 * or the current directory, whose listed names would be spelt
 * differently). */
static bool may_exist(struct su_present *p, const char *path)
{
	const char *slash = strrchr(path, '/');
	uint64_t key;
	uint32_t st;

	if (!slash || slash == path)
		return true;
	key = name_key(&p->paths, path, (size_t)(slash - path));
	st = sp_u64map_get(&p->dirs, key);
	if (st == SP_NONE) {
		st = list_dir(p, path, (size_t)(slash - path));
		sp_u64map_put(&p->dirs, key, st);
	}
	if (st != DIR_LISTED)
		return st == DIR_UNLISTED;
	return sp_u64map_get(&p->files, name_key(&p->paths, path, strlen(path))) != SP_NONE;
}

struct su_discovery {
	struct su_set *s;
	struct sp_strtab *strs;
	bool keep_going;
	sp_warn_fn warn;
	void *warn_ctx;
	struct sp_err *err;
	struct su_present present;
};

/* 1 when path exists and was read, 0 when it does not exist, -1 on error. */
static int try_file(struct su_discovery *dc, const char *path)
{
	struct stat st;

	if (!may_exist(&dc->present, path) || stat(path, &st) || !S_ISREG(st.st_mode))
		return 0;
	if (su_parse_file(dc->s, dc->strs, path, dc->keep_going, dc->warn,
			  dc->warn_ctx, dc->err))
		return -1;
	return 1;
}

/* Read the indexed files named base that best share src's directories. */
static int try_index(struct su_discovery *dc, const struct su_index *ix,
		     const char *base, const char *src, size_t src_len)
{
	uint64_t key = name_key((struct sp_strtab *)&ix->names, base, strlen(base));
	uint32_t i, first = sp_u64map_get(&ix->first, key);
	size_t best = 0;
	int found = 0;

	/* the basename is equal, so the stem component is counted as common */
	for (i = first; i != UINT32_MAX; i = ix->next[i]) {
		const char *p = ix->paths[i];
		size_t c = su_path_common_suffix(p, su_path_stem_len(p), src, src_len);

		if (c > best)
			best = c;
	}
	for (i = first; i != UINT32_MAX; i = ix->next[i]) {
		const char *p = ix->paths[i];

		if (su_path_common_suffix(p, su_path_stem_len(p), src, src_len) != best)
			continue;
		if (try_file(dc, p) < 0)
			return -1;
		found = 1;
	}
	return found;
}

struct su_elf_place {
	char *dir;		/* directory of the ELF, "." when none */
	const char *base;	/* its basename */
};

/* Try the places of one compile unit in order; stop at the first found. */
static int discover_cu(struct su_discovery *dc, const struct sp_cu *cu,
		       const struct su_elf_place *elf, const struct su_index *ix)
{
	char *src = su_path_normalize(cu->comp_dir, cu->name);
	size_t src_len = su_path_stem_len(src), full_len = strlen(src);
	/* CMake names an object "a.c.o", so GCC writes "a.c.su" */
	char *full = sp_xstrdup(src), *full_su = concat3(base_of(src), ".su", "");
	const char *stem;
	char *stem_su, *dash, *cand[4];
	size_t i, n = 0;
	int ret = 0;

	src[src_len] = '\0';	/* from here on src has no extension */
	stem = base_of(src);
	stem_su = concat3(stem, ".su", "");
	dash = concat3(elf->base, "-", stem_su);
	/* "prog-a.su" names this very program: a plain "a.su" beside it may
	 * be left from an earlier "gcc -c" */
	cand[n++] = concat3(elf->dir, "/", dash);
	cand[n++] = concat3(src, ".su", "");
	if (cu->comp_dir)
		cand[n++] = concat3(cu->comp_dir, "/", stem_su);
	cand[n++] = concat3(elf->dir, "/", stem_su);
	for (i = 0; i < n && !ret; i++)
		ret = try_file(dc, cand[i]);
	if (!ret && ix->npaths)
		ret = try_index(dc, ix, dash, src, src_len);
	if (!ret && ix->npaths)
		ret = try_index(dc, ix, stem_su, src, src_len);
	if (!ret && ix->npaths && full_len != src_len)
		ret = try_index(dc, ix, full_su, full, full_len);
	free(full_su);
	free(full);
	free(dash);
	for (i = 0; i < n; i++)
		free(cand[i]);
	free(stem_su);
	free(src);
	return ret < 0 ? -1 : 0;
}

static int str_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* LTO partitions: "<elf>.ltrans<N>.ltrans.su" beside the ELF. */
static int discover_ltrans(struct su_discovery *dc, const struct su_elf_place *elf)
{
	char *prefix = concat3(elf->base, ".ltrans", "");
	size_t plen = strlen(prefix), n = 0, cap = 0, i;
	char **v = NULL;
	DIR *d = opendir(elf->dir);
	struct dirent *de;
	int ret = 0;

	while (d && (de = readdir(d))) {
		size_t len = strlen(de->d_name);

		if (len > plen + 3 && !strncmp(de->d_name, prefix, plen) &&
		    !strcmp(de->d_name + len - 3, ".su")) {
			SP_ALLOC_GROW(v, n + 1, cap);
			v[n++] = concat3(elf->dir, "/", de->d_name);
		}
	}
	if (d)
		closedir(d);
	if (n)
		qsort(v, n, sizeof(*v), str_cmp);
	for (i = 0; i < n; i++) {
		if (!ret && try_file(dc, v[i]) < 0)
			ret = -1;
		free(v[i]);
	}
	free(v);
	free(prefix);
	return ret;
}

static void elf_place_init(struct su_elf_place *elf, const char *path)
{
	const char *slash = strrchr(path, '/');

	elf->dir = slash == path ? sp_xstrdup("/") :
		   slash ? strndup_x(path, (size_t)(slash - path)) : sp_xstrdup(".");
	elf->base = slash ? slash + 1 : path;
}

/* The compile units of one ELF file, beside it and in the index. */
static int discover_image(struct su_discovery *dc, const struct sp_graph *g,
			  const struct su_image *img, const struct su_index *ix)
{
	struct su_elf_place elf;
	uint32_t i;
	int ret = 0;

	elf_place_init(&elf, img->path);
	for (i = img->cu_first; i < img->cu_first + img->ncus && i < g->ncus && !ret; i++)
		if (g->cus[i].name)
			ret = discover_cu(dc, &g->cus[i], &elf, ix);
	if (!ret)
		ret = discover_ltrans(dc, &elf);
	free(elf.dir);
	return ret;
}

int su_discover(struct su_set *s, struct sp_graph *g, const struct su_image *imgs,
		size_t nimgs, const char *const *dirs, size_t ndirs, bool keep_going,
		sp_warn_fn warn, void *warn_ctx, struct sp_err *err)
{
	struct su_discovery dc = { .s = s, .strs = &g->strs, .keep_going = keep_going,
				   .warn = warn, .warn_ctx = warn_ctx, .err = err };
	struct su_index ix;
	size_t i;
	int ret = 0;

	present_init(&dc.present);

	/* the --su-dir trees are walked once, whatever the number of images */
	if (index_build(&ix, dirs, ndirs, err))
		ret = -1;
	for (i = 0; i < nimgs && !ret; i++)
		ret = discover_image(&dc, g, &imgs[i], &ix);
	index_release(&ix);
	present_release(&dc.present);
	return ret;
}
