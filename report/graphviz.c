/*
 * graphviz.c - the analysed call graph through Graphviz (see graphviz.h).
 *
 * Three steps: choose the roots and the functions to show (a mark per
 * function), build a cgraph graph of them with every attribute set, then
 * either agwrite it (DOT) or lay it out with "dot" and render it (SVG,
 * PNG) into an atomic output file.
 */
#include "report/graphviz.h"

#include <gvc.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "common/atomic.h"
#include "common/strbuf.h"
#include "common/xalloc.h"

/* gv_view.mark bits */
#define GV_ROOT		(1u << 0)
#define GV_PATH		(1u << 1)	/* on the worst path of a root */
#define GV_NEAR		(1u << 2)	/* direct callee of a GV_PATH function */
/* Beyond this many functions the paths' callees are left out: dot's layout
 * grows much faster than linearly, and a kernel's worst path has hundreds. */
#define GV_NEAR_MAX	80
#define GV_SHOWN	(1u << 3)

#define GV_FONT		"Helvetica"

struct gv_view {
	const struct sp_graph *g;
	const struct sp_gv_opts *o;
	uint32_t *roots;
	size_t nroots;
	uint8_t *mark;		/* GV_* per function */
	uint32_t nshown;
	uint64_t heat_max;	/* the total drawn fully red */
	bool near;		/* direct callees of the paths are shown too */
	Agraph_t *ag;
	Agnode_t **nodes;	/* per function, NULL when not shown */
	Agedge_t **edges;	/* per graph edge, NULL when not drawn */
};

/*
 * Graphviz gives backslashes in labels a meaning ("\n", "\N"), so text
 * from the input has each one doubled to stay literal.
 */
static void gv_add_text(struct sp_strbuf *b, const char *s)
{
	for (; *s; s++) {
		SP_ALLOC_GROW(b->buf, b->len + 3, b->cap);
		if (*s == '\\')
			b->buf[b->len++] = '\\';
		b->buf[b->len++] = *s;
		b->buf[b->len] = '\0';
	}
}

static const char *gv_str(const struct sp_strbuf *b)
{
	return b->buf ? b->buf : "";
}

static bool gv_valid(const struct sp_graph *g, uint32_t id)
{
	return id != SP_NONE && id < g->nfuncs;
}

/* ---- choosing what to show ---- */

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

/* The given entries (each once), or the o->top worst functions with code. */
static void gv_pick_roots(struct gv_view *v)
{
	const struct sp_graph *g = v->g;
	size_t i, want = v->o->top ? v->o->top : 1;

	v->roots = sp_xmalloc(((size_t)g->nfuncs + 1) * sizeof(*v->roots));
	if (v->o->nroots) {
		for (i = 0; i < v->o->nroots; i++) {
			uint32_t id = v->o->roots[i];

			if (!gv_valid(g, id) || (v->mark[id] & GV_ROOT))
				continue;
			v->mark[id] |= GV_ROOT;
			v->roots[v->nroots++] = id;
		}
		return;
	}
	for (i = 0; i < g->nfuncs; i++)
		if (g->funcs[i].flags & SP_F_HAS_CODE)
			v->roots[v->nroots++] = (uint32_t)i;
	qsort_r(v->roots, v->nroots, sizeof(*v->roots), gv_cmp_worst, (void *)g);
	if (v->nroots > want)
		v->nroots = want;
	for (i = 0; i < v->nroots; i++)
		v->mark[v->roots[i]] |= GV_ROOT;
}

/* root's worst path (below a once/nest function a function may come
 * back): ids, and the kind of the call that reaches each. */
static size_t gv_path(const struct sp_graph *g, uint32_t root, uint32_t **ids,
		      uint8_t **kinds)
{
	size_t n = sp_worst_path(g, root, NULL, NULL, SIZE_MAX);

	*ids = sp_xmalloc((n ? n : 1) * sizeof(**ids));
	*kinds = sp_xmalloc((n ? n : 1) * sizeof(**kinds));
	return sp_worst_path(g, root, *ids, *kinds, n);
}

static void gv_mark_paths(struct gv_view *v)
{
	uint32_t *ids;
	uint8_t *kinds;
	size_t r, i, n;

	for (r = 0; r < v->nroots; r++) {
		n = gv_path(v->g, v->roots[r], &ids, &kinds);
		for (i = 0; i < n; i++)
			v->mark[ids[i]] |= GV_PATH;
		v->mark[v->roots[r]] |= GV_PATH;
		free(ids);
		free(kinds);
	}
}

static bool gv_candidate(const struct gv_view *v, uint32_t id)
{
	uint8_t m = v->mark[id];

	if (m & GV_ROOT)
		return true;
	return (m & (GV_PATH | GV_NEAR)) &&
	       v->g->funcs[id].res.total >= v->o->min_total;
}

/*
 * Breadth-first from the roots through the candidates, so that depth
 * counts calls from the nearest root and whatever min_total cut off from
 * every root disappears with it.
 */
static void gv_mark_reachable(struct gv_view *v)
{
	const struct sp_graph *g = v->g;
	uint32_t *queue = sp_xmalloc(((size_t)g->nfuncs + 1) * sizeof(*queue));
	uint32_t *dist = sp_xmalloc(((size_t)g->nfuncs + 1) * sizeof(*dist));
	size_t head = 0, tail = 0, r;

	for (r = 0; r < v->nroots; r++) {
		v->mark[v->roots[r]] |= GV_SHOWN;
		dist[v->roots[r]] = 0;
		queue[tail++] = v->roots[r];
	}
	while (head < tail) {
		uint32_t id = queue[head++];
		const struct sp_func *f = &g->funcs[id];
		const struct sp_edge *e;

		if (v->o->depth && dist[id] >= v->o->depth)
			continue;
		sp_func_for_each_edge(g, f, e) {
			if (!gv_valid(g, e->to) || (v->mark[e->to] & GV_SHOWN) ||
			    !gv_candidate(v, e->to))
				continue;
			v->mark[e->to] |= GV_SHOWN;
			dist[e->to] = dist[id] + 1;
			queue[tail++] = e->to;
		}
	}
	free(queue);
	free(dist);
}

static void gv_select(struct gv_view *v)
{
	const struct sp_graph *g = v->g;
	const struct sp_edge *e;
	uint32_t i;

	gv_pick_roots(v);
	gv_mark_paths(v);
	if (v->o->all) {
		for (i = 0; i < g->nfuncs; i++)
			v->mark[i] |= GV_SHOWN;
	} else {
		uint32_t near = 0;

		for (i = 0; i < g->nfuncs; i++)
			if (v->mark[i] & GV_PATH)
				sp_func_for_each_edge(g, &g->funcs[i], e)
					near += gv_valid(g, e->to);
		v->near = near <= GV_NEAR_MAX;
		for (i = 0; v->near && i < g->nfuncs; i++)
			if (v->mark[i] & GV_PATH)
				sp_func_for_each_edge(g, &g->funcs[i], e)
					if (gv_valid(g, e->to))
						v->mark[e->to] |= GV_NEAR;
		gv_mark_reachable(v);
	}
	for (i = 0; i < g->nfuncs; i++) {
		if (!(v->mark[i] & GV_SHOWN))
			continue;
		v->nshown++;
		if (g->funcs[i].res.total > v->heat_max)
			v->heat_max = g->funcs[i].res.total;
	}
	if (v->o->has_budget && v->o->budget)
		v->heat_max = v->o->budget;
}

/* ---- building the cgraph graph ---- */

static void gv_add_total(struct sp_strbuf *b, const struct sp_func *f)
{
	if (f->res.overflow)
		sp_strbuf_addf(b, "overflow");
	else
		sp_strbuf_addf(b, "%s%llu B", f->res.bounded ? "" : ">= ",
			(unsigned long long)f->res.total);
}

static bool gv_is_dynamic(const struct sp_func *f)
{
	return f->qual == SP_QUAL_DYNAMIC || f->qual == SP_QUAL_BOUNDED;
}

static const char *gv_basename(const char *file)
{
	const char *slash = strrchr(file, '/');

	return slash ? slash + 1 : file;
}

static void gv_node_label(struct sp_strbuf *b, const struct sp_func *f)
{
	gv_add_text(b, f->name ? f->name : "?");
	if (f->file) {
		sp_strbuf_addf(b, " (");
		gv_add_text(b, gv_basename(f->file));
		sp_strbuf_addf(b, ")");
	}
	if (f->qual == SP_QUAL_UNKNOWN)
		sp_strbuf_addf(b, "\\nself ?");
	else
		sp_strbuf_addf(b, "\\nself %llu B", (unsigned long long)f->self);
	sp_strbuf_addf(b, "\\ntotal ");
	gv_add_total(b, f);
	/* "self ?" already says it of a function without frame data */
	if (f->res.partial && f->qual != SP_QUAL_UNKNOWN)
		sp_strbuf_addf(b, " (partial)");
	if (gv_is_dynamic(f)) {
		sp_strbuf_addf(b, "\\n%s", sp_qual_name(f->qual));
		if (f->dyn_cause) {
			sp_strbuf_addf(b, ": ");
			gv_add_text(b, f->dyn_cause);
		}
	}
}

static void gv_node_tooltip(struct sp_strbuf *b, const struct sp_func *f)
{
	if (f->file) {
		gv_add_text(b, f->file);
		if (f->line)
			sp_strbuf_addf(b, ":%u", f->line);
		return;
	}
	gv_add_text(b, f->name ? f->name : "?");
	sp_strbuf_addf(b, " (%s)", (f->flags & SP_F_EXTERNAL) ? "external" : "no source location");
}

/*
 * "file:name" names a node for people reading the DOT; statics of a
 * header included twice share even that, so the id makes them unique.
 */
static Agnode_t *gv_new_node(Agraph_t *ag, const struct sp_func *f, uint32_t id)
{
	struct sp_strbuf name = { 0 };
	Agnode_t *n;

	if (f->file)
		sp_strbuf_addf(&name, "%s:", f->file);
	sp_strbuf_addf(&name, "%s", f->name ? f->name : "?");
	if (agnode(ag, name.buf, 0) || !strcmp(name.buf, "<indirect>"))
		sp_strbuf_addf(&name, "#%u", id);
	n = agnode(ag, name.buf, 1);
	free(name.buf);
	return n;
}

static void gv_heat(char out[8], uint64_t total, uint64_t max)
{
	double t = max ? (double)total / (double)max : 0.0;
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

static void gv_add_to_cluster(struct gv_view *v, Agnode_t *n, const struct sp_func *f)
{
	char name[32];
	Agraph_t *sg;

	snprintf(name, sizeof(name), "cluster_rec%u", f->res.scc);
	sg = agsubg(v->ag, name, 0);
	if (!sg) {
		sg = agsubg(v->ag, name, 1);
		agsafeset(sg, "label", "recursion", "");
		agsafeset(sg, "style", "dashed", "");
		agsafeset(sg, "color", "purple", "");
		agsafeset(sg, "fontcolor", "purple", "");
	}
	agsubnode(sg, n, 1);
}

static void gv_add_node(struct gv_view *v, uint32_t id)
{
	const struct sp_func *f = &v->g->funcs[id];
	struct sp_strbuf label = { 0 }, tip = { 0 };
	Agnode_t *n = gv_new_node(v->ag, f, id);
	char fill[8];

	gv_node_label(&label, f);
	gv_node_tooltip(&tip, f);
	gv_heat(fill, f->res.total, v->heat_max);
	agsafeset(n, "label", label.buf, "");
	agsafeset(n, "tooltip", tip.buf, "");
	agsafeset(n, "fillcolor", fill, "white");
	if (gv_is_dynamic(f))
		agsafeset(n, "shape", "octagon", "box");
	if (f->qual == SP_QUAL_UNKNOWN)
		agsafeset(n, "style", "filled,dashed", "filled");
	if (v->mark[id] & GV_ROOT)
		agsafeset(n, "peripheries", "2", "1");
	if ((f->flags & SP_F_RECURSIVE) && f->res.scc != SP_NONE)
		gv_add_to_cluster(v, n, f);
	v->nodes[id] = n;
	free(label.buf);
	free(tip.buf);
}

static void gv_add_edges(struct gv_view *v)
{
	const struct sp_graph *g = v->g;
	const struct sp_edge *e;

	/* g->edges is NULL in a graph without edges (NULL + 0 is undefined) */
	for (e = g->edges; e && e < g->edges + g->nedges; e++) {
		Agnode_t *from, *to;

		if (!gv_valid(g, e->from) || !gv_valid(g, e->to))
			continue;
		from = v->nodes[e->from];
		to = v->nodes[e->to];
		if (!from || !to)
			continue;
		v->edges[e - g->edges] = agedge(v->ag, from, to, NULL, 1);
		if (e->kind == SP_EDGE_TAIL)
			agsafeset(v->edges[e - g->edges], "style", "dotted", "");
		/* an indirect call's target that no instruction names */
		if (e->flags & SP_EDGE_F_ASSUMED) {
			agsafeset(v->edges[e - g->edges], "style", "dashed", "");
			agsafeset(v->edges[e - g->edges], "tooltip",
				  "assumed: an address-taken function", "");
		} else if (e->flags & SP_EDGE_F_ANNOTATED) {
			agsafeset(v->edges[e - g->edges], "style", "dashed", "");
			agsafeset(v->edges[e - g->edges], "tooltip",
				  "annotated indirect call", "");
		}
	}
}

/* One "<indirect>" node collects every unresolved indirect call. */
static void gv_add_indirect(struct gv_view *v)
{
	const struct sp_graph *g = v->g;
	Agnode_t *ind = NULL;
	uint32_t i;

	for (i = 0; i < g->nfuncs; i++) {
		Agedge_t *e;

		if (!v->nodes[i] || !g->funcs[i].n_indirect ||
		    (g->funcs[i].flags & (SP_F_INDIRECT_ANNOTATED | SP_F_INDIRECT_ASSUMED)))
			continue;	/* its targets are edges of their own */
		if (!ind) {
			ind = agnode(v->ag, "<indirect>", 1);
			agsafeset(ind, "label", "<indirect>", "");
			agsafeset(ind, "shape", "diamond", "box");
			agsafeset(ind, "fillcolor", "lightgrey", "white");
			agsafeset(ind, "tooltip", "calls through a pointer: targets unknown", "");
		}
		e = agedge(v->ag, v->nodes[i], ind, NULL, 1);
		agsafeset(e, "style", "dashed", "");
	}
}

static Agedge_t *gv_path_edge(struct gv_view *v, uint32_t from, uint32_t to, uint8_t kind)
{
	const struct sp_graph *g = v->g;
	const struct sp_edge *e;

	sp_func_for_each_edge(g, &g->funcs[from], e)
		if (e->to == to && e->kind == kind)
			return v->edges[e - g->edges];
	/* a result that names no edge of the graph: still draw the path */
	return agedge(v->ag, v->nodes[from], v->nodes[to], NULL, 1);
}

static void gv_mark_path_edges(struct gv_view *v, uint32_t root)
{
	const struct sp_graph *g = v->g;
	uint32_t *ids;
	uint8_t *kinds;
	size_t n = gv_path(g, root, &ids, &kinds), i;

	for (i = 1; i < n; i++) {
		struct sp_strbuf label = { 0 };
		Agedge_t *e;

		if (!v->nodes[ids[i - 1]] || !v->nodes[ids[i]])
			break;
		e = gv_path_edge(v, ids[i - 1], ids[i], kinds[i]);
		if (!e)
			break;
		gv_add_total(&label, &g->funcs[ids[i]]);
		agsafeset(e, "color", "red", "");
		agsafeset(e, "fontcolor", "red", "");
		agsafeset(e, "penwidth", "3", "");
		agsafeset(e, "label", label.buf, "");
		free(label.buf);
	}
	free(ids);
	free(kinds);
}

static void gv_graph_label(struct sp_strbuf *b, const struct gv_view *v)
{
	const struct sp_gv_opts *o = v->o;

	if (v->g->binary) {
		gv_add_text(b, gv_basename(v->g->binary));
		sp_strbuf_addf(b, ": ");
	}
	if (o->all) {
		sp_strbuf_addf(b, "all %u functions", v->g->nfuncs);
	} else {
		sp_strbuf_addf(b, "showing %u of %u functions: worst path%s of %s%zu %s%s",
			v->nshown, v->g->nfuncs, v->nroots == 1 ? "" : "s",
			o->nroots ? "" : "the top ", v->nroots,
			o->nroots ? "given entr" : "entr", v->nroots == 1 ? "y" : "ies");
		if (v->near)
			sp_strbuf_addf(b, " and %s callees", v->nroots == 1 ? "its" : "their");
		if (o->depth)
			sp_strbuf_addf(b, ", depth <= %u", o->depth);
		if (o->min_total)
			sp_strbuf_addf(b, ", total >= %llu B", (unsigned long long)o->min_total);
	}
	sp_strbuf_addf(b, "\\nheat relative to %s %llu B",
		o->has_budget && o->budget ? "the budget" : "the largest total",
		(unsigned long long)v->heat_max);
}

static void gv_set_defaults(Agraph_t *ag)
{
	agattr(ag, AGRAPH, "rankdir", "LR");
	agattr(ag, AGRAPH, "fontname", GV_FONT);
	agattr(ag, AGRAPH, "labelloc", "t");
	agattr(ag, AGRAPH, "labeljust", "l");
	agattr(ag, AGNODE, "shape", "box");
	agattr(ag, AGNODE, "style", "filled");
	agattr(ag, AGNODE, "fontname", GV_FONT);
	agattr(ag, AGNODE, "fontsize", "10");
	agattr(ag, AGEDGE, "fontname", GV_FONT);
	agattr(ag, AGEDGE, "fontsize", "9");
	agattr(ag, AGEDGE, "color", "gray40");
}

static void gv_build(struct gv_view *v)
{
	const struct sp_graph *g = v->g;
	struct sp_strbuf label = { 0 };
	uint32_t i;
	size_t r;

	v->ag = agopen("stackprof", Agdirected, NULL);
	gv_set_defaults(v->ag);
	for (i = 0; i < g->nfuncs; i++)
		if (v->mark[i] & GV_SHOWN)
			gv_add_node(v, i);
	gv_add_edges(v);
	gv_add_indirect(v);
	for (r = 0; r < v->nroots; r++)
		gv_mark_path_edges(v, v->roots[r]);
	gv_graph_label(&label, v);
	agsafeset(v->ag, "label", (char *)gv_str(&label), "");
	free(label.buf);
}

/* ---- writing ---- */

struct sp_gv {
	GVC_t *gvc;
};

struct sp_gv *sp_gv_new(struct sp_err *err)
{
	struct sp_gv *gv = sp_xcalloc(1, sizeof(*gv));
	agerrlevel_t saved = agseterr(AGMAX);

	gv->gvc = gvContext();
	agseterr(saved);
	if (!gv->gvc) {
		free(gv);
		sp_err_set(err, "cannot start graphviz");
		return NULL;
	}
	return gv;
}

void sp_gv_free(struct sp_gv *gv)
{
	if (!gv)
		return;
	gvFreeContext(gv->gvc);
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
		return gv_fail(err, "lay out the call graph");
	if (gvRender(gvc, ag, format, fp)) {
		snprintf(what, sizeof(what), "render the call graph as %s", format);
		ret = gv_fail(err, what);
	}
	gvFreeLayout(gvc, ag);
	return ret;
}

static void gv_view_release(struct gv_view *v)
{
	if (v->ag)
		agclose(v->ag);
	free(v->roots);
	free(v->mark);
	free(v->nodes);
	free(v->edges);
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
	struct gv_view v = { .g = g, .o = o };
	bool dot = !strcmp(format, "dot");
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
	v.mark = sp_xcalloc((size_t)g->nfuncs + 1, sizeof(*v.mark));
	v.nodes = sp_xcalloc((size_t)g->nfuncs + 1, sizeof(*v.nodes));
	v.edges = sp_xcalloc((size_t)g->nedges + 1, sizeof(*v.edges));
	gv_select(&v);
	gv_build(&v);
	if (!dot)
		ret = gv_layout_render(gv->gvc, v.ag, format, fp, err);
	else if ((ret = agwrite(v.ag, fp) ? -1 : 0))
		sp_err_set(err, "cannot write the call graph: write error");
	gv_view_release(&v);
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
