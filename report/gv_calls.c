/*
 * gv_calls.c - the call graph view (see graphviz.h): choose the functions
 * to show (a mark per function), then build a cgraph graph of them with
 * every attribute set.
 *
 * dot's layout grows much faster than the graph: each edge that skips
 * ranks becomes a chain of virtual nodes, and the x-coordinate pass runs
 * network simplex over all of them.  A kernel's worst path is 100 frames
 * whose callees call back into the path far below, so one system call's
 * picture had 96 functions and 21,000 nodes for dot.  Past GV_NEAR_MAX
 * callees the view keeps the path only, top-down, each frame's other
 * callees folded into one node beside it: no edge skips a rank.
 */
#include "report/graphviz_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"
#include "report/cells.h"
#include "report/path.h"

/* gv_view.mark bits */
#define GV_ROOT		(1u << 0)
#define GV_PATH		(1u << 1)	/* on the worst path of a root */
#define GV_NEAR		(1u << 2)	/* direct callee of a GV_PATH function */
#define GV_SHOWN	(1u << 3)
/* Beyond this many callees of the paths, they are folded (see above). */
#define GV_NEAR_MAX	80
/* callees a folded node names in its tooltip */
#define GV_FOLDED_NAMED	12

struct gv_view {
	const struct sp_graph *g;
	const struct sp_gv_opts *o;
	uint32_t *roots;
	size_t nroots;
	uint8_t *mark;		/* GV_* per function */
	uint32_t nshown;
	uint64_t heat_max;	/* the total drawn fully red */
	bool near;		/* direct callees of the paths are shown too */
	bool folded;		/* ... as one "N more callees" node per frame */
	Agraph_t *ag;
	Agnode_t **nodes;	/* per function, NULL when not shown */
	Agedge_t **edges;	/* per graph edge, NULL when not drawn */
};

/* ---- choosing what to show ---- */

/* The roots' worst paths, as the text report lists them (below a
 * once/nest function a function may come back). */
static void gv_mark_paths(struct gv_view *v)
{
	struct sp_path p;
	size_t r, i;

	for (r = 0; r < v->nroots; r++) {
		sp_path_load(v->g, v->roots[r], &p);
		for (i = 0; i < p.n; i++)
			v->mark[p.ids[i]] |= GV_PATH;
		v->mark[v->roots[r]] |= GV_PATH | GV_ROOT;
		sp_path_release(&p);
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

/* The direct callees of the paths: marked when few, else folded. */
static void gv_mark_near(struct gv_view *v)
{
	const struct sp_graph *g = v->g;
	const struct sp_edge *e;
	uint32_t i, near = 0;

	for (i = 0; i < g->nfuncs; i++)
		if (v->mark[i] & GV_PATH)
			sp_func_for_each_edge(g, &g->funcs[i], e)
				near += gv_valid(g, e->to);
	v->near = near <= GV_NEAR_MAX;
	v->folded = !v->near;
	for (i = 0; v->near && i < g->nfuncs; i++)
		if (v->mark[i] & GV_PATH)
			sp_func_for_each_edge(g, &g->funcs[i], e)
				if (gv_valid(g, e->to))
					v->mark[e->to] |= GV_NEAR;
}

static void gv_select(struct gv_view *v)
{
	const struct sp_graph *g = v->g;
	uint32_t i;

	v->nroots = gv_pick_roots(g, v->o, &v->roots);
	gv_mark_paths(v);
	if (v->o->all) {
		for (i = 0; i < g->nfuncs; i++)
			v->mark[i] |= GV_SHOWN;
	} else {
		gv_mark_near(v);
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

/* As the text report writes it: "416 B", "416+ B", "~ 416 B", ">= 416 B". */
static void gv_add_total(struct sp_strbuf *b, const struct sp_func *f)
{
	char cell[48];
	size_t n;

	if (f->res.overflow) {
		sp_strbuf_addf(b, "overflow");
		return;
	}
	sp_cell_total(&f->res, cell, sizeof(cell));
	n = strlen(cell);
	while (n && cell[n - 1] == ' ')
		cell[--n] = '\0';
	sp_strbuf_addf(b, "%s B", cell);
}

static bool gv_is_dynamic(const struct sp_func *f)
{
	return f->qual == SP_QUAL_DYNAMIC || f->qual == SP_QUAL_BOUNDED;
}

static void gv_node_label(struct sp_strbuf *b, const struct sp_func *f)
{
	char self[48];

	gv_add_text(b, f->name ? f->name : "?");
	if (f->file) {
		sp_strbuf_addf(b, " (");
		gv_add_text(b, gv_basename(f->file));
		sp_strbuf_addf(b, ")");
	}
	sp_cell_self(f, self, sizeof(self));
	sp_strbuf_addf(b, "\\nself %s%s\\ntotal ", self,
		       f->qual == SP_QUAL_UNKNOWN && !f->red_zone ? "" : " B");
	gv_add_total(b, f);
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

static void gv_style_edge(Agedge_t *ae, const struct sp_edge *e)
{
	if (e->kind == SP_EDGE_TAIL)
		agsafeset(ae, "style", "dotted", "");
	/* an indirect call's target that no instruction names */
	if (e->flags & SP_EDGE_F_ASSUMED) {
		agsafeset(ae, "style", "dashed", "");
		agsafeset(ae, "tooltip", "assumed: an address-taken function", "");
	} else if (e->flags & SP_EDGE_F_ANNOTATED) {
		agsafeset(ae, "style", "dashed", "");
		agsafeset(ae, "tooltip", "annotated indirect call", "");
	} else if (e->flags & SP_EDGE_F_EXCEPTION) {
		agsafeset(ae, "style", "dashed", "");
		agsafeset(ae, "label", "exception", "");
		agsafeset(ae, "tooltip", "a trap taken on this stack", "");
	}
}

/* Calls made on another stack, between shown functions: drawn, labelled,
 * and no part of any total (graph->switches). */
static void gv_add_switches(struct gv_view *v)
{
	const struct sp_graph *g = v->g;
	uint32_t i;

	for (i = 0; !v->folded && i < g->nswitches; i++) {
		const struct sp_edge *e = &g->switches[i];
		Agedge_t *ae;

		if (!gv_valid(g, e->from) || !gv_valid(g, e->to) || !v->nodes[e->from] ||
		    !v->nodes[e->to])
			continue;
		ae = agedge(v->ag, v->nodes[e->from], v->nodes[e->to], NULL, 1);
		agsafeset(ae, "style", "dashed", "");
		agsafeset(ae, "label", "stack switch", "");
		agsafeset(ae, "tooltip", "runs on another stack: not in the caller's total", "");
	}
}

/* Every call between shown functions (not when folded: see the top). */
static void gv_add_edges(struct gv_view *v)
{
	const struct sp_graph *g = v->g;
	const struct sp_edge *e;

	/* g->edges is NULL in a graph without edges (NULL + 0 is undefined) */
	for (e = g->edges; !v->folded && e && e < g->edges + g->nedges; e++) {
		Agnode_t *from, *to;

		if (!gv_valid(g, e->from) || !gv_valid(g, e->to))
			continue;
		from = v->nodes[e->from];
		to = v->nodes[e->to];
		if (!from || !to)
			continue;
		v->edges[e - g->edges] = agedge(v->ag, from, to, NULL, 1);
		gv_style_edge(v->edges[e - g->edges], e);
	}
}

static bool gv_unresolved_indirect(const struct sp_func *f)
{
	return f->n_indirect &&
	       !(f->flags & (SP_F_INDIRECT_ANNOTATED | SP_F_INDIRECT_ASSUMED));
}

/* One "<indirect>" node collects every unresolved indirect call. */
static void gv_add_indirect(struct gv_view *v)
{
	const struct sp_graph *g = v->g;
	Agnode_t *ind = NULL;
	uint32_t i;

	for (i = 0; !v->folded && i < g->nfuncs; i++) {
		Agedge_t *e;

		if (!v->nodes[i] || !gv_unresolved_indirect(&g->funcs[i]))
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

/* ---- folded callees ---- */

struct gv_folded {
	uint32_t count;		/* callees other than the path's next frame */
	uint32_t named[GV_FOLDED_NAMED];	/* the largest totals first */
	uint32_t nnamed;
};

/* Keep the GV_FOLDED_NAMED largest totals, by insertion. */
static void gv_folded_add(const struct sp_graph *g, struct gv_folded *fo, uint32_t id)
{
	uint64_t t = g->funcs[id].res.total;
	uint32_t i;

	fo->count++;
	if (fo->nnamed < GV_FOLDED_NAMED)
		fo->nnamed++;
	else if (g->funcs[fo->named[fo->nnamed - 1]].res.total >= t)
		return;
	for (i = fo->nnamed - 1; i && g->funcs[fo->named[i - 1]].res.total < t; i--)
		fo->named[i] = fo->named[i - 1];
	fo->named[i] = id;
}

/* Distinct callees but the next frame (edges are sorted by callee). */
static void gv_folded_collect(const struct sp_graph *g, uint32_t id, struct gv_folded *fo)
{
	const struct sp_func *f = &g->funcs[id];
	const struct sp_edge *e;
	uint32_t last = SP_NONE;

	fo->count = fo->nnamed = 0;
	sp_func_for_each_edge(g, f, e) {
		if (!gv_valid(g, e->to) || e->to == f->res.next || e->to == last)
			continue;
		last = e->to;
		gv_folded_add(g, fo, e->to);
	}
}

static void gv_folded_tooltip(struct sp_strbuf *b, const struct sp_graph *g,
			      const struct gv_folded *fo)
{
	uint32_t i;

	for (i = 0; i < fo->nnamed; i++) {
		const struct sp_func *c = &g->funcs[fo->named[i]];

		if (i)
			sp_strbuf_addf(b, ", ");
		gv_add_text(b, c->name ? c->name : "?");
		sp_strbuf_addf(b, " ");
		gv_add_total(b, c);
	}
	if (fo->count > fo->nnamed)
		sp_strbuf_addf(b, ", ...");
}

static void gv_add_folded_node(struct gv_view *v, uint32_t id)
{
	const struct sp_func *f = &v->g->funcs[id];
	struct sp_strbuf name = { 0 }, label = { 0 }, tip = { 0 };
	struct gv_folded fo;
	Agnode_t *n;
	Agedge_t *e;

	gv_folded_collect(v->g, id, &fo);
	if (!fo.count && !gv_unresolved_indirect(f))
		return;
	sp_strbuf_addf(&name, "more#%u", id);
	if (fo.count)
		sp_strbuf_addf(&label, "%u more callee%s", fo.count, fo.count == 1 ? "" : "s");
	if (gv_unresolved_indirect(f))
		sp_strbuf_addf(&label, "%sindirect calls", fo.count ? "\\nand " : "");
	if (fo.nnamed) {
		sp_strbuf_addf(&label, "\\nlargest ");
		gv_add_text(&label, v->g->funcs[fo.named[0]].name ? v->g->funcs[fo.named[0]].name : "?");
		sp_strbuf_addf(&label, " ");
		gv_add_total(&label, &v->g->funcs[fo.named[0]]);
	}
	gv_folded_tooltip(&tip, v->g, &fo);
	n = agnode(v->ag, name.buf, 1);
	agsafeset(n, "label", label.buf, "");
	agsafeset(n, "tooltip", tip.buf ? tip.buf : "calls through a pointer", "");
	agsafeset(n, "style", "dashed", "filled");
	agsafeset(n, "fontcolor", "gray30", "");
	agsafeset(n, "color", "gray50", "");
	e = agedge(v->ag, v->nodes[id], n, NULL, 1);
	agsafeset(e, "style", "dashed", "");
	free(name.buf);
	free(label.buf);
	free(tip.buf);
}

static void gv_add_folded(struct gv_view *v)
{
	uint32_t i;

	for (i = 0; v->folded && i < v->g->nfuncs; i++)
		if (v->nodes[i] && (v->mark[i] & GV_PATH))
			gv_add_folded_node(v, i);
}

/* ---- the worst paths ---- */

static Agedge_t *gv_path_edge(struct gv_view *v, uint32_t from, uint32_t to, uint8_t kind)
{
	const struct sp_graph *g = v->g;
	const struct sp_edge *e;

	sp_func_for_each_edge(g, &g->funcs[from], e) {
		if (e->to != to || e->kind != kind)
			continue;
		if (!v->edges[e - g->edges]) {
			v->edges[e - g->edges] = agedge(v->ag, v->nodes[from],
							v->nodes[to], NULL, 1);
			gv_style_edge(v->edges[e - g->edges], e);
		}
		return v->edges[e - g->edges];
	}
	/* a result that names no edge of the graph: still draw the path */
	return agedge(v->ag, v->nodes[from], v->nodes[to], NULL, 1);
}

static void gv_mark_path_edges(struct gv_view *v, uint32_t root)
{
	const struct sp_graph *g = v->g;
	struct sp_path p;
	size_t i;

	sp_path_load(g, root, &p);
	for (i = 1; i < p.n; i++) {
		struct sp_strbuf label = { 0 };
		Agedge_t *e;

		if (!v->nodes[p.ids[i - 1]] || !v->nodes[p.ids[i]])
			break;
		e = gv_path_edge(v, p.ids[i - 1], p.ids[i], p.kinds[i]);
		if (!e)
			break;
		gv_add_total(&label, &g->funcs[p.ids[i]]);
		/* folded: the path stays one straight column, callees beside it */
		if (v->folded)
			agsafeset(e, "weight", "100", "1");
		agsafeset(e, "color", "red", "");
		agsafeset(e, "fontcolor", "red", "");
		agsafeset(e, "penwidth", "3", "");
		agsafeset(e, "label", label.buf, "");
		free(label.buf);
	}
	sp_path_release(&p);
}

static void gv_graph_label(struct sp_strbuf *b, const struct gv_view *v)
{
	const struct sp_gv_opts *o = v->o;

	gv_label_binary(b, v->g);
	if (o->all) {
		sp_strbuf_addf(b, "all %u functions", v->g->nfuncs);
	} else {
		sp_strbuf_addf(b, "showing %u of %u functions: worst path%s of %s%zu %s%s",
			v->nshown, v->g->nfuncs, v->nroots == 1 ? "" : "s",
			o->nroots ? "" : "the top ", v->nroots,
			o->nroots ? "given entr" : "entr", v->nroots == 1 ? "y" : "ies");
		if (v->near)
			sp_strbuf_addf(b, " and %s callees", v->nroots == 1 ? "its" : "their");
		if (v->folded)
			sp_strbuf_addf(b, ", other callees folded");
		if (o->depth)
			sp_strbuf_addf(b, ", depth <= %u", o->depth);
		if (o->min_total)
			sp_strbuf_addf(b, ", total >= %llu B", (unsigned long long)o->min_total);
	}
	sp_strbuf_addf(b, "\\lheat relative to %s %llu B\\l",
		o->has_budget && o->budget ? "the budget" : "the largest total",
		(unsigned long long)v->heat_max);
}

static void gv_set_defaults(Agraph_t *ag, bool top_down)
{
	agattr(ag, AGRAPH, "rankdir", top_down ? "TB" : "LR");
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
	gv_set_defaults(v->ag, v->folded);
	for (i = 0; i < g->nfuncs; i++)
		if (v->mark[i] & GV_SHOWN)
			gv_add_node(v, i);
	gv_add_edges(v);
	gv_add_indirect(v);
	gv_add_switches(v);
	gv_add_folded(v);
	for (r = 0; r < v->nroots; r++)
		gv_mark_path_edges(v, v->roots[r]);
	gv_graph_label(&label, v);
	agsafeset(v->ag, "label", (char *)gv_str(&label), "");
	free(label.buf);
}

/* Calls between shown functions, as gv_add_edges will draw them. */
static uint32_t gv_count_edges(const struct gv_view *v)
{
	const struct sp_graph *g = v->g;
	uint32_t i, n = 0;

	for (i = 0; i < g->nedges; i++)
		n += gv_valid(g, g->edges[i].from) && gv_valid(g, g->edges[i].to) &&
		     (v->mark[g->edges[i].from] & GV_SHOWN) &&
		     (v->mark[g->edges[i].to] & GV_SHOWN);
	return n;
}

static int gv_check_size(const struct gv_view *v, struct sp_err *err)
{
	uint32_t nedges = v->folded ? 0 : gv_count_edges(v);

	if (v->nshown <= SP_GV_NODES_MAX && nedges <= SP_GV_EDGES_MAX)
		return 0;
	if (v->o->all)
		return sp_err_set(err, "--all would draw %u functions and %u calls, more "
				  "than a picture can lay out (%u, %u): name roots with "
				  "--entry instead", v->nshown, nedges, SP_GV_NODES_MAX,
				  SP_GV_EDGES_MAX);
	return sp_err_set(err, "the call graph would draw %u functions and %u calls, "
			  "more than a picture can lay out (%u, %u): narrow it with "
			  "--entry, --depth or --min-total", v->nshown, nedges,
			  SP_GV_NODES_MAX, SP_GV_EDGES_MAX);
}

int gv_calls_build(const struct sp_graph *g, const struct sp_gv_opts *o,
		   Agraph_t **ag, struct sp_err *err)
{
	struct gv_view v = { .g = g, .o = o };
	int ret = 0;

	v.mark = sp_xcalloc((size_t)g->nfuncs + 1, sizeof(*v.mark));
	gv_select(&v);
	if ((ret = gv_check_size(&v, err)))
		goto out_free;
	v.nodes = sp_xcalloc((size_t)g->nfuncs + 1, sizeof(*v.nodes));
	v.edges = sp_xcalloc((size_t)g->nedges + 1, sizeof(*v.edges));
	gv_build(&v);
	*ag = v.ag;
out_free:
	free(v.roots);
	free(v.mark);
	free(v.nodes);
	free(v.edges);
	return ret;
}
