/*
 * diff.c - two --json reports (version 1 or 2, in any pair) side by
 * side, read with json-c's tokenizer a function at a time (jsonr.h).
 *
 * Functions pair by (name, file): both lists are sorted on that key and
 * walked together, so a name defined twice in one file (two static
 * inline copies) pairs in report order.  Only rows that differ are kept.
 */
#include "report/diff.h"

#include <inttypes.h>
#include <json-c/json.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"
#include "report/jsonr.h"

struct entry {
	char *name, *file;	/* owned */
	size_t order;
	struct sp_diff_side side;
};

struct entries {
	struct entry *v;
	size_t n, cap;
};

void sp_diff_init(struct sp_diff *d)
{
	memset(d, 0, sizeof(*d));
}

void sp_diff_release(struct sp_diff *d)
{
	size_t i;

	for (i = 0; i < d->n; i++) {
		free(d->rows[i].name);
		free(d->rows[i].file);
	}
	free(d->rows);
	sp_diff_init(d);
}

static void entries_release(struct entries *l)
{
	size_t i;

	for (i = 0; i < l->n; i++) {
		free(l->v[i].name);
		free(l->v[i].file);
	}
	free(l->v);
}

static int strcmp_null(const char *a, const char *b)
{
	if (!a || !b)
		return (a != NULL) - (b != NULL);
	return strcmp(a, b);
}

static int entry_cmp(const void *pa, const void *pb)
{
	const struct entry *a = pa, *b = pb;
	int c;

	if ((c = strcmp_null(a->name, b->name)))
		return c;
	if ((c = strcmp_null(a->file, b->file)))
		return c;
	return (a->order > b->order) - (a->order < b->order);
}

static const char *get_str(json_object *o, const char *key)
{
	json_object *v = json_object_object_get(o, key);

	return json_object_is_type(v, json_type_string) ? json_object_get_string(v) : NULL;
}

static bool get_bool(json_object *o, const char *key)
{
	return json_object_get_boolean(json_object_object_get(o, key));
}

/*
 * A function object: it must have a name and a numeric lower_bound.
 * Versions 1 and 2 give the same fields the diff reads; version 2 also
 * lists the functions the selected ones reach ("selected": false),
 * which version 1 left out, so they are left out here.
 */
static bool read_entry(json_object *o, size_t order, struct entries *l)
{
	json_object *lb = json_object_object_get(o, "lower_bound");
	json_object *self = json_object_object_get(o, "self");
	json_object *sel = json_object_object_get(o, "selected");
	const char *q = get_str(o, "qualifier"), *name = get_str(o, "name");
	const char *file = get_str(o, "file");
	struct entry *e;

	if (!name || !json_object_is_type(lb, json_type_int))
		return false;
	if (sel && !json_object_get_boolean(sel))
		return true;
	SP_ALLOC_GROW(l->v, l->n + 1, l->cap);
	e = &l->v[l->n++];
	e->name = sp_xstrdup(name);
	e->file = file ? sp_xstrdup(file) : NULL;
	e->order = order;
	e->side.present = true;
	e->side.total = json_object_get_int64(lb);
	e->side.self = json_object_is_type(self, json_type_int) ?
		       json_object_get_int64(self) : -1;
	e->side.bounded = get_bool(o, "bounded");
	e->side.recursive = get_bool(o, "recursive");
	e->side.dynamic = q && !strcmp(q, "dynamic");
	return true;
}

static int not_report(const char *path, struct sp_err *err)
{
	return sp_err_set(err, "'%s': not a stackprof JSON report (version 1 or 2)", path);
}

/* "functions": [ ... ], an element at a time. */
static int read_functions(struct sp_jsonr *r, struct entries *l, struct sp_err *err)
{
	size_t order = 0;

	if (!sp_jsonr_eat(r, '['))
		return not_report(r->path, err);
	if (sp_jsonr_eat(r, ']'))
		return 0;
	do {
		json_object *f;
		bool ok;

		if (sp_jsonr_value(r, &f, err))
			return -1;
		ok = json_object_is_type(f, json_type_object) && read_entry(f, order, l);
		json_object_put(f);
		if (!ok)
			return sp_err_set(err, "'%s': function %zu has no name or lower_bound",
					  r->path, order);
		order++;
	} while (sp_jsonr_eat(r, ','));
	if (!sp_jsonr_eat(r, ']'))
		return sp_err_set(err, "'%s': cannot read JSON: no ']' after function %zu",
				  r->path, order - 1);
	return 0;
}

/*
 * The report's members in any order: "functions" read element by
 * element, "version" kept, the others (the kernel summary, a kernel's
 * indirect calls) parsed and dropped.
 */
static int read_members(struct sp_jsonr *r, struct entries *l, int *version,
			bool *functions, struct sp_err *err)
{
	if (!sp_jsonr_eat(r, '{')) {
		json_object *v;

		/* what it is instead, or why it is no JSON at all */
		if (sp_jsonr_value(r, &v, err))
			return -1;
		json_object_put(v);
		return not_report(r->path, err);
	}
	if (sp_jsonr_eat(r, '}'))
		return 0;
	do {
		json_object *key, *v;
		int ret = 0;

		if (sp_jsonr_value(r, &key, err))
			return -1;
		if (!json_object_is_type(key, json_type_string) || !sp_jsonr_eat(r, ':')) {
			json_object_put(key);
			return sp_err_set(err, "'%s': cannot read JSON: a member without a "
					  "name", r->path);
		}
		if (!strcmp(json_object_get_string(key), "functions")) {
			*functions = true;
			ret = read_functions(r, l, err);
		} else if (!(ret = sp_jsonr_value(r, &v, err))) {
			if (!strcmp(json_object_get_string(key), "version") &&
			    json_object_is_type(v, json_type_int))
				*version = json_object_get_int(v);
			json_object_put(v);
		}
		json_object_put(key);
		if (ret)
			return -1;
	} while (sp_jsonr_eat(r, ','));
	if (!sp_jsonr_eat(r, '}'))
		return sp_err_set(err, "'%s': cannot read JSON: no '}' after a member", r->path);
	return 0;
}

static int read_report(const char *path, struct entries *l, struct sp_err *err)
{
	struct sp_jsonr r;
	int version = 0, ret;
	bool functions = false;

	if (sp_jsonr_open(&r, path, err))
		return -1;
	ret = read_members(&r, l, &version, &functions, err);
	if (!ret && sp_jsonr_peek(&r) != EOF)
		ret = sp_err_set(err, "'%s': cannot read JSON: more after the report", path);
	sp_jsonr_close(&r);
	if (ret)
		return -1;
	if ((version != 1 && version != 2) || !functions)
		return not_report(path, err);
	if (l->n)
		qsort(l->v, l->n, sizeof(*l->v), entry_cmp);
	return 0;
}

static bool side_differs(const struct sp_diff_side *a, const struct sp_diff_side *b)
{
	return a->present != b->present || a->total != b->total || a->self != b->self ||
	       a->bounded != b->bounded || a->recursive != b->recursive ||
	       a->dynamic != b->dynamic;
}

static void add_row(struct sp_diff *d, const struct entry *o, const struct entry *n)
{
	const struct entry *any = n ? n : o;
	struct sp_diff_row *r;

	SP_ALLOC_GROW(d->rows, d->n + 1, d->cap);
	r = &d->rows[d->n++];
	memset(r, 0, sizeof(*r));
	r->name = sp_xstrdup(any->name);
	r->file = any->file ? sp_xstrdup(any->file) : NULL;
	if (o)
		r->old = o->side;
	if (n)
		r->new = n->side;
	r->growth = r->new.total - r->old.total;
	if (r->old.self >= 0 && r->new.self >= 0)
		r->self_growth = r->new.self - r->old.self;
	else if (r->new.self >= 0)
		r->self_growth = r->new.self;
	else if (r->old.self >= 0)
		r->self_growth = -r->old.self;
	if (r->growth > d->max_growth)
		d->max_growth = r->growth;
}

static int row_cmp(const void *pa, const void *pb)
{
	const struct sp_diff_row *a = pa, *b = pb;
	int c;

	if (a->growth != b->growth)
		return a->growth > b->growth ? -1 : 1;
	if ((c = strcmp(a->name, b->name)))
		return c;
	return strcmp_null(a->file, b->file);
}

static void merge(struct sp_diff *d, const struct entry *o, size_t no,
		  const struct entry *n, size_t nn)
{
	size_t i = 0, j = 0;

	while (i < no || j < nn) {
		int c;

		if (i == no)
			c = 1;
		else if (j == nn)
			c = -1;
		else if (!(c = strcmp_null(o[i].name, n[j].name)))
			c = strcmp_null(o[i].file, n[j].file);
		if (c < 0) {
			add_row(d, &o[i++], NULL);
		} else if (c > 0) {
			add_row(d, NULL, &n[j++]);
		} else {
			if (side_differs(&o[i].side, &n[j].side))
				add_row(d, &o[i], &n[j]);
			i++;
			j++;
		}
	}
	if (d->n)
		qsort(d->rows, d->n, sizeof(*d->rows), row_cmp);
}

int sp_diff_load(struct sp_diff *d, const char *old_path, const char *new_path,
		 struct sp_err *err)
{
	struct entries o = { 0 }, n = { 0 };
	int ret = -1;

	if (read_report(old_path, &o, err) || read_report(new_path, &n, err))
		goto out;
	merge(d, o.v, o.n, n.v, n.n);
	ret = 0;
out:
	entries_release(&o);
	entries_release(&n);
	return ret;
}

bool sp_diff_row_new_dynamic(const struct sp_diff_row *r)
{
	return r->new.present && r->new.dynamic && !(r->old.present && r->old.dynamic);
}

bool sp_diff_row_new_recursion(const struct sp_diff_row *r)
{
	return r->new.present && r->new.recursive &&
	       !(r->old.present && r->old.recursive);
}

static void print_total(const struct sp_diff_side *s, FILE *out)
{
	char buf[32];

	if (!s->present)
		snprintf(buf, sizeof(buf), "-");
	else
		snprintf(buf, sizeof(buf), "%s%" PRId64, s->bounded ? "" : ">=", s->total);
	fprintf(out, " %9s", buf);
}

static void print_notes(const struct sp_diff_row *r, FILE *out)
{
	const char *sep = "  ";

#define NOTE(cond, text) do { if (cond) { fprintf(out, "%s%s", sep, text); sep = ", "; } } while (0)
	NOTE(!r->old.present, "new function");
	NOTE(!r->new.present, "removed");
	NOTE(sp_diff_row_new_dynamic(r), "new dynamic frame");
	NOTE(sp_diff_row_new_recursion(r), "new recursion");
	NOTE(r->old.present && r->new.present && r->old.bounded && !r->new.bounded,
	     "now unbounded");
	NOTE(r->old.present && r->new.present && !r->old.bounded && r->new.bounded,
	     "now bounded");
#undef NOTE
	if (r->self_growth && r->old.present && r->new.present)
		fprintf(out, "%sself %+" PRId64, sep, r->self_growth);
}

int sp_diff_print(const struct sp_diff *d, FILE *out, struct sp_err *err)
{
	size_t i;

	fprintf(out, "%9s %9s %9s  %s\n", "growth", "old", "new", "function");
	for (i = 0; i < d->n; i++) {
		const struct sp_diff_row *r = &d->rows[i];

		fprintf(out, "%+9" PRId64, r->growth);
		print_total(&r->old, out);
		print_total(&r->new, out);
		fprintf(out, "  %s", r->name);
		if (r->file)
			fprintf(out, " (%s)", r->file);
		print_notes(r, out);
		fputc('\n', out);
	}
	fprintf(out, "%zu functions changed, largest growth %+" PRId64 " bytes\n",
		d->n, d->max_growth);
	if (ferror(out))
		return sp_err_set(err, "cannot write the diff");
	return 0;
}
