/*
 * graphviz.c - the pictures through Graphviz (see graphviz.h): what the
 * views share, and the writing: agwrite for DOT, or a "dot" layout
 * rendered by gvc (SVG, PNG) into the caller's stream or an atomic file.
 */
#include "report/graphviz_int.h"

#include <gvc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/atomic.h"
#include "common/xalloc.h"

void gv_add_text(struct sp_strbuf *b, const char *s)
{
	for (; *s; s++) {
		SP_ALLOC_GROW(b->buf, b->len + 3, b->cap);
		if (*s == '\\')
			b->buf[b->len++] = '\\';
		b->buf[b->len++] = *s;
		b->buf[b->len] = '\0';
	}
}

void gv_add_html(struct sp_strbuf *b, const char *s, size_t max)
{
	size_t i;

	for (i = 0; s[i]; i++) {
		if (max && i == max) {
			sp_strbuf_addf(b, "...");
			return;
		}
		switch (s[i]) {
		case '&':
			sp_strbuf_addf(b, "&amp;");
			break;
		case '<':
			sp_strbuf_addf(b, "&lt;");
			break;
		case '>':
			sp_strbuf_addf(b, "&gt;");
			break;
		case '"':
			sp_strbuf_addf(b, "&quot;");
			break;
		default:
			sp_strbuf_addf(b, "%c", s[i]);
		}
	}
}

const char *gv_str(const struct sp_strbuf *b)
{
	return b->buf ? b->buf : "";
}

const char *gv_basename(const char *file)
{
	const char *slash = strrchr(file, '/');

	return slash ? slash + 1 : file;
}

void gv_heat(char out[8], uint64_t value, uint64_t max)
{
	double t = max ? (double)value / (double)max : 0.0;
	unsigned green = 255, blue = 0;

	if (t > 1.0)
		t = 1.0;
	/* white -> yellow over the first half, yellow -> red over the second */
	if (t <= 0.5)
		blue = (unsigned)(255.0 * (1.0 - 2.0 * t) + 0.5);
	else
		green = (unsigned)(255.0 * (2.0 - 2.0 * t) + 0.5);
	snprintf(out, 8, "#ff%02x%02x", green, blue);
}

void gv_label_binary(struct sp_strbuf *b, const struct sp_graph *g)
{
	if (!g->binary)
		return;
	gv_add_text(b, gv_basename(g->binary));
	sp_strbuf_addf(b, ": ");
}

/* ---- the roots ---- */

static int gv_cmp_worst(const void *pa, const void *pb, void *ctx)
{
	const struct sp_graph *g = ctx;
	uint32_t ia = *(const uint32_t *)pa, ib = *(const uint32_t *)pb;
	const struct sp_func *a = &g->funcs[ia], *b = &g->funcs[ib];
	int c;

	if (a->res.total != b->res.total)
		return a->res.total > b->res.total ? -1 : 1;
	c = strcmp(a->name ? a->name : "", b->name ? b->name : "");
	if (!c)
		c = strcmp(a->file ? a->file : "", b->file ? b->file : "");
	return c ? c : (ia > ib) - (ia < ib);
}

size_t gv_pick_roots(const struct sp_graph *g, const struct sp_gv_opts *o,
		     uint32_t **roots)
{
	uint8_t *seen = sp_xcalloc((size_t)g->nfuncs + 1, 1);
	size_t i, n = 0, want = o->top ? o->top : 1;

	*roots = sp_xmalloc(((size_t)g->nfuncs + 1) * sizeof(**roots));
	for (i = 0; i < o->nroots; i++) {
		uint32_t id = o->roots[i];

		if (!gv_valid(g, id) || seen[id])
			continue;
		seen[id] = 1;
		(*roots)[n++] = id;
	}
	for (i = 0; !o->nroots && i < g->nfuncs; i++)
		if (g->funcs[i].flags & SP_F_HAS_CODE)
			(*roots)[n++] = (uint32_t)i;
	qsort_r(*roots, n, sizeof(**roots), gv_cmp_worst, (void *)g);
	if (!o->nroots && n > want)
		n = want;
	free(seen);
	return n;
}

/* ---- writing ---- */

/*
 * One Graphviz context for the whole process, as Graphviz's own
 * "Using Graphviz as a library" guide has a program do: the pango plugin
 * caches a font name in process-wide state that gvFreeContext frees, and
 * a second context reads it again (a use-after-free under
 * AddressSanitizer).  So the context is made at the first sp_gv_new and
 * freed only at exit; sp_gv handles share it.
 */
static GVC_t *gv_context;

static void gv_context_free(void)
{
	gvFreeContext(gv_context);
	gv_context = NULL;
}

static GVC_t *gv_context_get(void)
{
	agerrlevel_t saved;

	if (gv_context)
		return gv_context;
	saved = agseterr(AGMAX);
	gv_context = gvContext();
	agseterr(saved);
	if (gv_context)
		atexit(gv_context_free);
	return gv_context;
}

struct sp_gv {
	GVC_t *gvc;
};

struct sp_gv *sp_gv_new(struct sp_err *err)
{
	GVC_t *gvc = gv_context_get();
	struct sp_gv *gv;

	if (!gvc) {
		sp_err_set(err, "cannot start graphviz");
		return NULL;
	}
	gv = sp_xcalloc(1, sizeof(*gv));
	gv->gvc = gvc;
	return gv;
}

void sp_gv_free(struct sp_gv *gv)
{
	free(gv);
}

static bool gv_has_device(GVC_t *gvc, const char *format)
{
	int i, n = 0;
	char **list = gvPluginList(gvc, "device", &n, NULL);
	bool found = false;

	for (i = 0; i < n; i++) {
		if (!strcmp(list[i], format))
			found = true;
		free(list[i]);
	}
	free(list);
	return found;
}

/* err = "cannot WHAT: <graphviz's last message>" */
static int gv_fail(struct sp_err *err, const char *what)
{
	const char *msg = aglasterr();
	size_t n = msg ? strlen(msg) : 0;

	while (n && (msg[n - 1] == '\n' || msg[n - 1] == ' '))
		n--;
	if (!n)
		return sp_err_set(err, "cannot %s", what);
	return sp_err_set(err, "cannot %s: %.*s", what, (int)n, msg);
}

static int gv_layout_render(GVC_t *gvc, Agraph_t *ag, const char *format, FILE *fp,
			    struct sp_err *err)
{
	char what[64];
	int ret = 0;

	if (gvLayout(gvc, ag, "dot"))
		return gv_fail(err, "lay out the picture");
	if (gvRender(gvc, ag, format, fp)) {
		snprintf(what, sizeof(what), "render the picture as %s", format);
		ret = gv_fail(err, what);
	}
	gvFreeLayout(gvc, ag);
	return ret;
}

static bool gv_known_format(const char *format)
{
	return !strcmp(format, "dot") || !strcmp(format, "svg") ||
	       !strcmp(format, "png");
}

int sp_gv_render(struct sp_gv *gv, const struct sp_graph *g,
		 const struct sp_gv_opts *o, const char *format, FILE *fp,
		 struct sp_err *err)
{
	bool dot = !strcmp(format, "dot");
	Agraph_t *ag = NULL;
	agerrlevel_t saved;
	int ret;

	if (!gv_known_format(format))
		return sp_err_set(err, "unknown graph format '%s'", format);
	if (!dot && !gv)
		return sp_err_set(err, "no graphviz context to render %s", format);
	if (!dot && !gv_has_device(gv->gvc, format))
		return sp_err_set(err, "graphviz has no '%s' renderer", format);
	/* graphviz prints its errors unless told not to; keep them for err */
	saved = agseterr(AGMAX);
	if (o->view == SP_GV_CALLS)
		ret = gv_calls_build(g, o, &ag, err);
	else
		ret = gv_column_build(g, o, &ag, err);
	if (ret)
		goto out;
	if (!dot)
		ret = gv_layout_render(gv->gvc, ag, format, fp, err);
	else if ((ret = agwrite(ag, fp) ? -1 : 0))
		sp_err_set(err, "cannot write the picture: write error");
	agclose(ag);
out:
	agseterr(saved);
	return ret;
}

int sp_gv_export(const struct sp_graph *g, const struct sp_gv_opts *o,
		 const char *format, const char *out_path, struct sp_err *err)
{
	struct sp_gv *gv = NULL;
	struct sp_atomic out;
	int ret = -1;

	/* a bad format should not cost a temporary file */
	if (!gv_known_format(format))
		return sp_err_set(err, "unknown graph format '%s'", format);
	if (strcmp(format, "dot") && !(gv = sp_gv_new(err)))
		return -1;
	if (sp_atomic_open(&out, out_path, err))
		goto out_free_gv;
	if (sp_gv_render(gv, g, o, format, out.fp, err)) {
		sp_atomic_abort(&out);
		goto out_free_gv;
	}
	ret = sp_atomic_commit(&out, err);
out_free_gv:
	sp_gv_free(gv);
	return ret;
}
