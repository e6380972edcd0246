/*
 * parse.c - the --annotate text format (see annotate.h), from a buffer so
 * that it can be fuzzed without files.
 */
#include "annotate/annotate.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/size.h"
#include "common/xalloc.h"

#define MAX_WORDS 4096	/* targets of one 'calls' line, and then some */

struct directive {
	const char *name;
	enum sp_annot_kind kind;
	size_t min_args, max_args;	/* words after the directive */
	const char *usage;
};

static const struct directive directives[] = {
	{ "frame", SP_ANNOT_FRAME, 2, 2, "frame FUNC BYTES" },
	{ "calls", SP_ANNOT_CALLS, 2, MAX_WORDS, "calls FUNC TARGET..." },
	{ "recursion", SP_ANNOT_RECURSION, 2, 2, "recursion FUNC DEPTH" },
	{ "entry", SP_ANNOT_ENTRY, 2, 2, "entry FUNC BYTES" },
	{ "ignore", SP_ANNOT_IGNORE, 2, MAX_WORDS,
	  "ignore FUNC CALLEE [below ANCESTOR [unless RESET...] | from CALLER...]" },
	{ "once", SP_ANNOT_NEST, 1, 1, "once FUNC" },
	{ "nest", SP_ANNOT_NEST, 2, MAX_WORDS, "nest FUNC DEPTH | nest FUNC per HOLDER..." },
};

/* A nest depth is a count of contexts to solve (analysis/nest.c). */
#define MAX_NEST 4096

void sp_annots_init(struct sp_annots *a)
{
	memset(a, 0, sizeof(*a));
}

static void annot_free(struct sp_annot *x)
{
	size_t i;

	free(x->func);
	free(x->text);
	for (i = 0; i < x->nnames; i++)
		free(x->names[i]);
	free(x->names);
}

void sp_annots_release(struct sp_annots *a)
{
	size_t i;

	for (i = 0; i < a->n; i++)
		annot_free(&a->v[i]);
	free(a->v);
	for (i = 0; i < a->nfiles; i++)
		free(a->files[i]);
	free(a->files);
	memset(a, 0, sizeof(*a));
}

static char *dup_word(const char *s, size_t len)
{
	char *w = sp_xmalloc(len + 1);

	memcpy(w, s, len);
	w[len] = '\0';
	return w;
}

/* One line split into words; a '#' outside a word ends it. */
struct words {
	char *w[MAX_WORDS + 1];
	size_t n;
};

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

/* Where the word at s[i] ends: at a blank or '#', past the '>' of a
 * word that starts with '<' (a node stackprof adds, such as
 * "<page fault>", whose name holds blanks; no function's name starts
 * with '<'). */
static size_t word_end(const char *s, size_t len, size_t i)
{
	const char *gt = s[i] == '<' ? memchr(s + i, '>', len - i) : NULL;

	if (gt)
		i = (size_t)(gt - s) + 1;
	while (i < len && !is_blank(s[i]) && s[i] != '#')
		i++;
	return i;
}

static int split(const char *s, size_t len, struct words *out)
{
	size_t i = 0;

	out->n = 0;
	while (i < len) {
		size_t start;

		while (i < len && is_blank(s[i]))
			i++;
		if (i >= len || s[i] == '#')
			break;
		start = i;
		i = word_end(s, len, i);
		if (out->n == MAX_WORDS + 1)
			return -1;
		out->w[out->n++] = dup_word(s + start, i - start);
	}
	return 0;
}

static void words_free(struct words *w)
{
	size_t i;

	for (i = 0; i < w->n; i++)
		free(w->w[i]);
	w->n = 0;
}

static const struct directive *find_directive(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(directives) / sizeof(directives[0]); i++)
		if (!strcmp(directives[i].name, name))
			return &directives[i];
	return NULL;
}

static int parse_depth(const char *s, uint64_t *out)
{
	char *end;
	unsigned long v;

	if (*s < '1' || *s > '9')
		return -1;
	errno = 0;
	v = strtoul(s, &end, 10);
	if (*end || errno || v > UINT32_MAX)
		return -1;
	*out = v;
	return 0;
}

/* The value word of a directive: bytes or a depth; once has none. */
static int parse_value(const char *file, uint32_t line,
		       struct sp_annot *x, const char *s, struct sp_err *err)
{
	switch (x->kind) {
	case SP_ANNOT_FRAME:
	case SP_ANNOT_ENTRY:
		if (sp_parse_size(s, &x->value))
			return sp_err_set(err, "%s:%u: invalid size '%s' (e.g. 512, 8K)",
					  file, line, s);
		return 0;
	case SP_ANNOT_RECURSION:
		if (parse_depth(s, &x->value))
			return sp_err_set(err, "%s:%u: invalid recursion depth '%s' "
					  "(a positive integer)", file, line, s);
		return 0;
	case SP_ANNOT_NEST:
		if (!s) {
			x->value = 1;
			return 0;
		}
		if (parse_depth(s, &x->value) || x->value > MAX_NEST)
			return sp_err_set(err, "%s:%u: invalid nest depth '%s' (1 to %d)",
					  file, line, s, MAX_NEST);
		return 0;
	case SP_ANNOT_CALLS:
	case SP_ANNOT_IGNORE:
		break;
	}
	return 0;
}

/* Is one of the words from w->w[i] on a keyword of 'ignore'?  A chain
 * of callers holds none: "from h unless i" is a mistake, not a function
 * named unless. */
static bool keyword_after(const struct words *w, size_t i)
{
	for (; i < w->n; i++)
		if (!strcmp(w->w[i], "from") || !strcmp(w->w[i], "below") ||
		    !strcmp(w->w[i], "unless"))
			return true;
	return false;
}

/* ignore: FUNC CALLEE, FUNC CALLEE below ANCESTOR, or that and unless
 * RESET..., or FUNC CALLEE from CALLER... */
static bool ignore_form(const struct words *w, size_t at, size_t nargs)
{
	if (nargs == 2)
		return true;
	if (nargs >= 4 && !strcmp(w->w[at + 3], "from"))
		return !keyword_after(w, at + 4);
	if (nargs < 4 || strcmp(w->w[at + 3], "below"))
		return false;
	return nargs == 4 || (nargs >= 6 && !strcmp(w->w[at + 5], "unless"));
}

/* once FUNC, nest FUNC DEPTH, or nest FUNC per HOLDER... */
static bool nest_form(const struct words *w, size_t at, size_t nargs)
{
	bool per = nargs >= 2 && !strcmp(w->w[at + 2], "per");

	return per ? nargs >= 3 : nargs <= 2;
}

/* nest FUNC per HOLDER...: the count is the holders' (x->names). */
static bool is_per(const struct sp_annot *x, const struct words *w, size_t at, size_t nargs)
{
	return x->kind == SP_ANNOT_NEST && nargs >= 3 && !strcmp(w->w[at + 2], "per");
}

/*
 * The prefixes before the directive, 'optional' and 'assume', each at
 * most once and in either order: *at is where the directive is.
 */
static int parse_prefixes(const char *file, uint32_t line, const struct words *w,
			  size_t *at, bool *optional, bool *assume, struct sp_err *err)
{
	*optional = *assume = false;
	for (*at = 0; *at < w->n; ++*at) {
		bool *seen = !strcmp(w->w[*at], "optional") ? optional :
			     !strcmp(w->w[*at], "assume") ? assume : NULL;

		if (!seen)
			return 0;
		if (*seen)
			return sp_err_set(err, "%s:%u: '%s' given twice", file, line,
					  w->w[*at]);
		*seen = true;
	}
	return sp_err_set(err, "%s:%u: want '%s%sDIRECTIVE ...'", file, line,
			  *optional ? "optional " : "", *assume ? "assume " : "");
}

/* The directive's words from w->w[at] on, one blank between each: the
 * line as an assumption's reason quotes it. */
static char *join_words(const struct words *w, size_t at)
{
	size_t len = 0, i;
	char *s, *p;

	for (i = at; i < w->n; i++)
		len += strlen(w->w[i]) + 1;
	p = s = sp_xmalloc(len ? len : 1);
	*s = '\0';
	for (i = at; i < w->n; i++)
		p += sprintf(p, "%s%s", i > at ? " " : "", w->w[i]);
	return s;
}

/*
 * Move the words of one directive line into x (they are then owned by
 * x).  The words start at w->w[at]: after 'optional' and 'assume', if
 * given.
 */
static int parse_directive(const char *file, uint32_t line, struct words *w,
			   struct sp_annot *x, struct sp_err *err)
{
	const struct directive *d;
	bool optional, assume;
	size_t at, nargs, i;

	if (parse_prefixes(file, line, w, &at, &optional, &assume, err))
		return -1;
	d = find_directive(w->w[at]);
	nargs = w->n - at - 1;
	if (!d)
		return sp_err_set(err, "%s:%u: unknown directive '%s' (frame, calls, "
				  "recursion, entry, ignore, once or nest)", file, line,
				  w->w[at]);
	if (nargs < d->min_args || nargs > d->max_args ||
	    (d->kind == SP_ANNOT_IGNORE && !ignore_form(w, at, nargs)) ||
	    (d->kind == SP_ANNOT_NEST && !nest_form(w, at, nargs)))
		return sp_err_set(err, "%s:%u: want '%s%s%s'", file, line,
				  optional ? "optional " : "", assume ? "assume " : "",
				  d->usage);
	memset(x, 0, sizeof(*x));
	x->kind = d->kind;
	x->file = file;
	x->line = line;
	x->optional = optional;
	x->assume = assume;
	/* the names: calls' TARGETs, ignore's CALLEE..., nest's HOLDERs
	 * after 'per' */
	x->per = is_per(x, w, at, nargs);
	if (!x->per && x->kind != SP_ANNOT_CALLS && x->kind != SP_ANNOT_IGNORE &&
	    parse_value(file, line, x, nargs > 1 ? w->w[at + 2] : NULL, err))
		return -1;
	if (assume)
		x->text = join_words(w, at);
	x->func = w->w[at + 1];
	w->w[at + 1] = NULL;
	if (x->kind == SP_ANNOT_CALLS || x->kind == SP_ANNOT_IGNORE || x->per) {
		size_t first = at + 2 + x->per;

		x->nnames = nargs - 1 - x->per;
		x->names = sp_xmalloc(x->nnames * sizeof(*x->names));
		for (i = 0; i < x->nnames; i++) {
			x->names[i] = w->w[first + i];
			w->w[first + i] = NULL;
		}
	}
	if (x->kind == SP_ANNOT_IGNORE && x->nnames >= 3 && !strcmp(x->names[1], "from")) {
		/* CALLEE from CALLER...: names are CALLEE, then the chain of
		 * callers, the nearest first */
		x->from = true;
		free(x->names[1]);
		for (i = 2; i < x->nnames; i++)
			x->names[i - 1] = x->names[i];
		x->nnames--;
	} else if (x->kind == SP_ANNOT_IGNORE && x->nnames >= 3) {
		/* CALLEE below ANCESTOR [unless RESET...]: names are CALLEE,
		 * ANCESTOR, then the RESETs */
		free(x->names[1]);
		x->names[1] = x->names[2];
		if (x->nnames > 3)
			free(x->names[3]);
		for (i = 4; i < x->nnames; i++)
			x->names[i - 2] = x->names[i];
		x->nnames = x->nnames > 3 ? x->nnames - 2 : 2;
	}
	return 0;
}

static int parse_line(struct sp_annots *a, const char *file, uint32_t line, const char *s,
		      size_t len, struct sp_err *err)
{
	struct words w;
	struct sp_annot x;
	int ret = -1;

	if (memchr(s, '\0', len))
		return sp_err_set(err, "%s:%u: NUL byte in annotation file", file, line);
	if (split(s, len, &w)) {
		words_free(&w);
		return sp_err_set(err, "%s:%u: more than %d words on a line",
				  file, line, MAX_WORDS);
	}
	if (!w.n)
		return 0;
	if (parse_directive(file, line, &w, &x, err))
		goto out;
	SP_ALLOC_GROW(a->v, a->n + 1, a->cap);
	a->v[a->n++] = x;
	ret = 0;
out:
	words_free(&w);
	return ret;
}

static bool is_ident(const char *s)
{
	if (!*s || (*s >= '0' && *s <= '9'))
		return false;
	for (; *s; s++)
		if (!(*s >= 'a' && *s <= 'z') && !(*s >= 'A' && *s <= 'Z') &&
		    !(*s >= '0' && *s <= '9') && *s != '_')
			return false;
	return true;
}

size_t sp_annot_inlined_at(const char *word)
{
	const char *slash = strrchr(word, '/'), *colon = strrchr(word, ':');

	/* a FILE:NAME's file has slashes, a node's name ("<...>") may */
	if (word[0] == '<' || !slash || (colon && colon > slash) || !is_ident(slash + 1))
		return 0;
	if (slash == word || slash[-1] == ':')
		return 0;
	return (size_t)(slash - word);
}

int sp_annot_parse(struct sp_annots *a, const char *file, const char *buf,
		   size_t len, struct sp_err *err)
{
	size_t pos = 0;
	uint32_t line = 0;

	if (!file)
		file = "<annotations>";
	SP_ALLOC_GROW(a->files, a->nfiles + 1, a->files_cap);
	a->files[a->nfiles++] = dup_word(file, strlen(file));
	file = a->files[a->nfiles - 1];
	while (pos < len) {
		const char *nl = memchr(buf + pos, '\n', len - pos);
		size_t end = nl ? (size_t)(nl - buf) : len;

		if (line == UINT32_MAX)
			return sp_err_set(err, "%s: too many lines", file);
		line++;
		if (parse_line(a, file, line, buf + pos, end - pos, err))
			return -1;
		pos = end + 1;
	}
	return 0;
}

int sp_annot_load(struct sp_annots *a, const char *path, struct sp_err *err)
{
	FILE *fp = fopen(path, "rb");
	char *buf = NULL;
	size_t len = 0, cap = 0, got;
	int ret;

	if (!fp)
		return sp_err_set(err, "unable to open '%s': %s", path, strerror(errno));
	do {
		SP_ALLOC_GROW(buf, len + 65536, cap);
		got = fread(buf + len, 1, cap - len, fp);
		len += got;
	} while (got);
	if (ferror(fp)) {
		fclose(fp);
		free(buf);
		return sp_err_set(err, "unable to read '%s'", path);
	}
	fclose(fp);
	ret = sp_annot_parse(a, path, buf, len, err);
	free(buf);
	return ret;
}
