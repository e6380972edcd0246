/*
 * parse.c - read GCC/Clang -fstack-usage files into a struct su_set.
 *
 * A line is parsed from the right, because only the last two fields are
 * simple: QUALIFIER after the last TAB, BYTES before it, and everything
 * before that is "LOCATION:NAME" where NAME may hold spaces, colons and
 * parentheses (C++) and FILE may hold colons.  The buffer is walked in
 * place, never copied into fixed-size line buffers, so no line is too long.
 */
#include "su/su.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/dirwalk.h"
#include "common/xalloc.h"

#define SU_MAX_BYTES_DIGITS 20	/* UINT64_MAX has 20 digits */
#define SU_QUAL_SHOWN 40	/* how much of a bad qualifier a message quotes */

void su_set_init(struct su_set *s)
{
	memset(s, 0, sizeof(*s));
	sp_u64map_init(&s->seen, 0);
}

void su_set_release(struct su_set *s)
{
	free(s->rows);
	free(s->paths);
	sp_u64map_release(&s->seen);
	memset(s, 0, sizeof(*s));
}

/* A line, [p, end), without its newline; len is end - p. */
struct su_line {
	const char *p, *end;
	size_t len;
};

static bool parse_u32(const char *p, const char *end, uint32_t *out)
{
	uint64_t v = 0;

	if (p == end)
		return false;
	for (; p < end; p++) {
		if (*p < '0' || *p > '9')
			return false;
		v = v * 10 + (uint64_t)(*p - '0');
		if (v > UINT32_MAX)
			return false;
	}
	*out = (uint32_t)v;
	return true;
}

static bool parse_bytes(const char *p, const char *end, uint64_t *out)
{
	uint64_t v = 0;

	if (p == end || end - p > SU_MAX_BYTES_DIGITS)
		return false;
	for (; p < end; p++) {
		uint64_t d;

		if (*p < '0' || *p > '9')
			return false;
		d = (uint64_t)(*p - '0');
		if (v > (UINT64_MAX - d) / 10)
			return false;
		v = v * 10 + d;
	}
	*out = v;
	return true;
}

static bool parse_qual(const char *p, const char *end, enum sp_qual *out)
{
	static const struct {
		const char *s;
		enum sp_qual q;
	} quals[] = {
		{ "static", SP_QUAL_STATIC },
		{ "dynamic", SP_QUAL_DYNAMIC },
		{ "dynamic,bounded", SP_QUAL_BOUNDED },
	};
	size_t len = (size_t)(end - p), i;

	for (i = 0; i < sizeof(quals) / sizeof(quals[0]); i++) {
		if (strlen(quals[i].s) == len && !memcmp(quals[i].s, p, len)) {
			*out = quals[i].q;
			return true;
		}
	}
	return false;
}

static const char *scan_digits(const char *p, const char *end)
{
	while (p < end && *p >= '0' && *p <= '9')
		p++;
	return p;
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/*
 * Split "FILE:LINE:COL:NAME" or Clang's "FILE:LINE:NAME" at the first
 * ":DIGITS:" that follows a non-empty FILE; an optional "DIGITS:" after it
 * is the column.  Names never start with a digit, so the split is
 * unambiguous unless FILE itself holds ":DIGITS:".  Clang writes
 * "FILE:NAME" for functions without a location (__clang_call_terminate):
 * its names are mangled, without colons, so that splits at the last colon.
 */
static bool split_location(struct su_row *row, const char *p, const char *end,
			   const char **file_end, const char **name)
{
	const char *c;

	for (c = p; c < end; c++) {
		const char *d, *e;

		if (*c != ':')
			continue;
		d = c + 1;
		e = scan_digits(d, end);
		if (e == d || e >= end || *e != ':')
			continue;
		if (c == p || !parse_u32(d, e, &row->line))
			return false;
		d = e + 1;
		e = scan_digits(d, end);
		row->col = 0;
		if (e > d && e < end && *e == ':') {
			if (!parse_u32(d, e, &row->col))
				return false;
			d = e + 1;
		}
		if (d >= end || is_digit(*d))
			continue;	/* no name: try a later split */
		*file_end = c;
		*name = d;
		return true;
	}
	for (c = end; c > p && c[-1] != ':'; c--)
		;
	if (c <= p + 1 || c == end || is_digit(*c))
		return false;
	row->line = row->col = 0;
	*file_end = c - 1;
	*name = c;
	return true;
}

/* Quote at most SU_QUAL_SHOWN bytes of it, never control bytes. */
static int bad_qualifier(const char *path, uint32_t lineno, const char *p,
			 const char *end, struct sp_err *err)
{
	char q[SU_QUAL_SHOWN + sizeof("...")];
	size_t n = 0;

	for (; p < end && n < SU_QUAL_SHOWN; p++)
		q[n++] = *p >= 0x20 && *p < 0x7f ? *p : '?';
	if (p < end) {
		memcpy(q + n, "...", 3);
		n += 3;
	}
	q[n] = '\0';
	return sp_err_set(err, "%s:%u: unknown qualifier '%s'", path, lineno, q);
}

/* 0 and a filled row, or -1 with err set to the line's message. */
static int parse_line(struct su_row *row, struct sp_strtab *strs, const char *path,
		      uint32_t lineno, struct su_line l, struct sp_err *err)
{
	const char *qual, *bytes, *file_end, *name;

	if (memchr(l.p, '\0', l.len))
		goto malformed;
	for (qual = l.end; qual > l.p && qual[-1] != '\t'; qual--)
		;
	if (qual == l.p)
		goto malformed;
	for (bytes = qual - 1; bytes > l.p && bytes[-1] != '\t'; bytes--)
		;
	if (bytes == l.p)
		goto malformed;
	if (!parse_bytes(bytes, qual - 1, &row->bytes))
		goto malformed;
	if (!split_location(row, l.p, bytes - 1, &file_end, &name))
		goto malformed;
	if (!parse_qual(qual, l.end, &row->qual))
		return bad_qualifier(path, lineno, qual, l.end, err);
	row->file = sp_strtab_intern(strs, l.p, (size_t)(file_end - l.p));
	row->name = sp_strtab_intern(strs, name, (size_t)(bytes - 1 - name));
	row->su_line = lineno;
	return 0;
malformed:
	return sp_err_set(err, "%s:%u: malformed .su line", path, lineno);
}

static uint32_t add_path(struct su_set *s, const char *interned)
{
	SP_ALLOC_GROW(s->paths, (size_t)s->npaths + 1, s->paths_cap);
	s->paths[s->npaths] = interned;
	return s->npaths++;
}

int su_parse_buffer(struct su_set *s, struct sp_strtab *strs, const char *path,
		    const char *buf, size_t len, bool keep_going,
		    sp_warn_fn warn, void *warn_ctx, struct sp_err *err)
{
	const char *p = buf, *end = buf + len;
	uint32_t file = add_path(s, sp_strtab_intern(strs, path, strlen(path)));
	uint32_t lineno = 0;
	size_t first_row = s->nrows;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		struct su_line l = { p, nl ? nl : end, 0 };
		struct su_row row;
		struct sp_err lerr;

		p = nl ? nl + 1 : end;
		l.len = (size_t)(l.end - l.p);
		if (l.len && l.end[-1] == '\r') {	/* CRLF: copied from Windows */
			l.end--;
			l.len--;
		}
		if (lineno == UINT32_MAX) {
			s->nrows = first_row;
			s->npaths--;
			return sp_err_set(err, "%s: too many lines", path);
		}
		lineno++;
		if (parse_line(&row, strs, path, lineno, l, &lerr)) {
			if (!keep_going) {
				/* leave the set as it was: all of a file or none */
				s->nrows = first_row;
				s->npaths--;
				if (err)
					*err = lerr;
				return -1;
			}
			if (warn)
				warn(warn_ctx, lerr.msg);
			continue;
		}
		row.su_file = file;
		SP_ALLOC_GROW(s->rows, s->nrows + 1, s->rows_cap);
		s->rows[s->nrows++] = row;
	}
	return 0;
}

/* Read all of fd: usually one read(2) of st_size bytes. */
static char *read_all(int fd, size_t hint, size_t *len)
{
	size_t cap = hint + 1, n = 0;
	char *buf = sp_xmalloc(cap);

	for (;;) {
		ssize_t r;

		if (n == cap) {
			cap *= 2;
			buf = sp_xrealloc(buf, cap);
		}
		r = read(fd, buf + n, cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			free(buf);
			return NULL;
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	*len = n;
	return buf;
}

/* The key under which su_set.seen remembers a file. */
static uint64_t seen_key(struct sp_strtab *strs, const char *path)
{
	char *abs = su_path_normalize(NULL, path);
	uint64_t key = (uint64_t)(uintptr_t)sp_strtab_intern(strs, abs, strlen(abs));

	free(abs);
	return key;
}

int su_parse_file(struct su_set *s, struct sp_strtab *strs, const char *path,
		  bool keep_going, sp_warn_fn warn, void *warn_ctx, struct sp_err *err)
{
	uint64_t key = seen_key(strs, path);
	struct stat st;
	char *buf;
	size_t len;
	int fd, ret;

	if (sp_u64map_get(&s->seen, key) != UINT32_MAX)
		return 0;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return sp_err_set(err, "cannot read '%s': %s", path, strerror(errno));
	if (fstat(fd, &st)) {
		int e = errno;

		close(fd);
		return sp_err_set(err, "cannot read '%s': %s", path, strerror(e));
	}
	if (S_ISDIR(st.st_mode)) {
		close(fd);
		return sp_err_set(err, "cannot read '%s': %s", path, strerror(EISDIR));
	}
	buf = read_all(fd, S_ISREG(st.st_mode) ? (size_t)st.st_size : 4096, &len);
	if (!buf) {
		int e = errno;

		close(fd);
		return sp_err_set(err, "cannot read '%s': %s", path, strerror(e));
	}
	close(fd);
	ret = su_parse_buffer(s, strs, path, buf, len, keep_going, warn, warn_ctx, err);
	if (!ret)
		sp_u64map_put(&s->seen, key, s->npaths - 1);
	free(buf);
	return ret;
}

/* ---- directories ---- */

static bool has_su_suffix(const char *name)
{
	size_t len = strlen(name);

	return len > 3 && !strcmp(name + len - 3, ".su");
}

int su_collect_dir(const char *dir, char ***paths, size_t *n, struct sp_err *err)
{
	return sp_collect_files(dir, has_su_suffix, paths, n, err);
}

int su_add_path(struct su_set *s, struct sp_strtab *strs, const char *path,
		bool keep_going, sp_warn_fn warn, void *warn_ctx, struct sp_err *err)
{
	struct stat st;
	char **paths;
	size_t n, i;
	int ret = 0;

	if (stat(path, &st))
		return sp_err_set(err, "cannot read '%s': %s", path, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return su_parse_file(s, strs, path, keep_going, warn, warn_ctx, err);
	if (su_collect_dir(path, &paths, &n, err))
		return -1;
	for (i = 0; i < n; i++) {
		if (!ret)
			ret = su_parse_file(s, strs, paths[i], keep_going, warn,
					    warn_ctx, err);
		free(paths[i]);
	}
	free(paths);
	return ret;
}
