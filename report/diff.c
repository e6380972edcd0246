/*
 * diff.c - two --json reports side by side, read with json-c.
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

struct entry {
	const char *name, *file;	/* owned by the json-c tree */
	size_t order;
	struct sp_diff_side side;
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

/* A function object: it must have a name and a numeric lower_bound. */
static bool read_entry(json_object *o, size_t order, struct entry *e)
{
	json_object *lb = json_object_object_get(o, "lower_bound");
	json_object *self = json_object_object_get(o, "self");
	const char *q = get_str(o, "qualifier");

	e->name = get_str(o, "name");
	e->file = get_str(o, "file");
	if (!e->name || !json_object_is_type(lb, json_type_int))
		return false;
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

static int read_report(const char *path, json_object **root, struct entry **out,
		       size_t *n, struct sp_err *err)
{
	json_object *funcs;
	size_t i;

	*out = NULL;
	*n = 0;
	*root = json_object_from_file(path);
	if (!*root) {
		const char *why = json_util_get_last_err();
		int len = why ? (int)strcspn(why, "\n") : 0;

		return sp_err_set(err, "'%s': cannot read JSON: %.*s", path, len,
				  why ? why : "");
	}
	if (!json_object_is_type(*root, json_type_object) ||
	    json_object_get_int(json_object_object_get(*root, "version")) != 1 ||
	    !json_object_is_type(funcs = json_object_object_get(*root, "functions"),
				 json_type_array))
		return sp_err_set(err, "'%s': not a stackprof JSON report (version 1)",
				  path);
	*n = json_object_array_length(funcs);
	*out = sp_xcalloc(*n ? *n : 1, sizeof(**out));
	for (i = 0; i < *n; i++)
		if (!read_entry(json_object_array_get_idx(funcs, i), i, &(*out)[i]))
			return sp_err_set(err, "'%s': function %zu has no name or "
					  "lower_bound", path, i);
	qsort(*out, *n, sizeof(**out), entry_cmp);
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
	json_object *oroot = NULL, *nroot = NULL;
	struct entry *o = NULL, *n = NULL;
	size_t no = 0, nn = 0;
	int ret = -1;

	if (read_report(old_path, &oroot, &o, &no, err) ||
	    read_report(new_path, &nroot, &n, &nn, err))
		goto out;
	merge(d, o, no, n, nn);
	ret = 0;
out:
	free(o);
	free(n);
	json_object_put(oroot);
	json_object_put(nroot);
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
