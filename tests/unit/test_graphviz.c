/*
 * Unit tests of report/graphviz.c: a hand-built, hand-analysed graph is
 * exported and the DOT is read back with cgraph's agread, so the checks
 * are on the graph Graphviz sees, not on the text.
 *
 * SVG and PNG go through a handle held for the whole run (the group
 * state), and test_export_svg through sp_gv_export's own: both are the
 * process's one Graphviz context, so rendering after a handle is freed
 * must not touch what a freed context held (AddressSanitizer checks it).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <cgraph.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "report/graphviz.h"
#include "stackprof.h"

/*
 *   main(16) -> parse(48) -> leaf(8), a.c:helper(24), b.c:helper(40)
 *   main -> work(32, dynamic VLA) -tail-> leaf
 *   main -> even(16) <-> odd(32)            recursion
 *   main -> printf (no frame data)
 *   main -> jumper(16) -tail-> deep(200, dynamic,bounded)
 *   main: one indirect call
 *   util.h:clamp twice (a static of a header in two units), no calls
 *
 * Worst paths: main -> jumper -tail-> deep (216, unbounded because of
 * work/even/indirect), parse -> b.c:helper (88), even -> odd (>= 48).
 */
struct fixture {
	struct sp_graph g;
	uint32_t main_, parse, leaf, help_a, help_b, work, even, odd, printf_,
		 jumper, deep, clamp1, clamp2;
	struct sp_gv *gv;	/* the run's Graphviz context */
	char dir[64];
};

static uint32_t fn(struct sp_graph *g, const char *name, const char *file,
		   uint32_t line, uint64_t self, enum sp_qual q)
{
	uint32_t id = sp_graph_add_func(g);
	struct sp_func *f = &g->funcs[id];

	f->name = sp_intern(g, name);
	f->file = file ? sp_intern(g, file) : NULL;
	f->line = line;
	f->self = self;
	f->qual = q;
	f->flags = SP_F_HAS_CODE;
	f->res.scc = id;
	f->res.bounded = true;
	f->res.total = self;
	return id;
}

static void res(struct sp_graph *g, uint32_t id, uint64_t total, uint32_t next,
		enum sp_edge_kind kind, bool bounded)
{
	struct sp_result *r = &g->funcs[id].res;

	r->total = total;
	r->next = next;
	r->next_kind = (uint8_t)kind;
	r->bounded = bounded;
	/* no assumed call: the certain path is the worst one */
	r->certain = total;
	r->certain_next = next;
	r->certain_kind = (uint8_t)kind;
}

static void build(struct fixture *fx)
{
	struct sp_graph *g = &fx->g;

	sp_graph_init(g);
	g->binary = sp_intern(g, "bin/prog");
	fx->main_ = fn(g, "main", "src/main.c", 10, 16, SP_QUAL_STATIC);
	fx->parse = fn(g, "parse", "src/parse.c", 3, 48, SP_QUAL_STATIC);
	fx->leaf = fn(g, "leaf", "src/leaf.c", 1, 8, SP_QUAL_STATIC);
	fx->help_a = fn(g, "helper", "a.c", 5, 24, SP_QUAL_STATIC);
	fx->help_b = fn(g, "helper", "b.c", 5, 40, SP_QUAL_STATIC);
	fx->work = fn(g, "work", "w.c", 4, 32, SP_QUAL_DYNAMIC);
	g->funcs[fx->work].dyn_cause = sp_intern(g, "VLA 'buf' at w.c:5");
	fx->even = fn(g, "even", "rec.c", 1, 16, SP_QUAL_STATIC);
	fx->odd = fn(g, "odd", "rec.c", 7, 32, SP_QUAL_STATIC);
	fx->printf_ = fn(g, "printf", NULL, 0, 0, SP_QUAL_UNKNOWN);
	g->funcs[fx->printf_].flags = SP_F_EXTERNAL;
	fx->jumper = fn(g, "jumper", "j.c", 2, 16, SP_QUAL_STATIC);
	fx->deep = fn(g, "deep", "j.c", 9, 200, SP_QUAL_BOUNDED);
	fx->clamp1 = fn(g, "clamp", "util.h", 3, 4, SP_QUAL_STATIC);
	fx->clamp2 = fn(g, "clamp", "util.h", 3, 4, SP_QUAL_STATIC);
	g->funcs[fx->main_].n_indirect = 1;

	sp_graph_add_edge(g, fx->main_, fx->parse, SP_EDGE_CALL, 0);
	sp_graph_add_edge(g, fx->main_, fx->work, SP_EDGE_CALL, 0);
	sp_graph_add_edge(g, fx->main_, fx->even, SP_EDGE_CALL, 0);
	sp_graph_add_edge(g, fx->main_, fx->printf_, SP_EDGE_CALL, 0);
	sp_graph_add_edge(g, fx->main_, fx->jumper, SP_EDGE_CALL, 0);
	sp_graph_add_edge(g, fx->parse, fx->leaf, SP_EDGE_CALL, 0);
	sp_graph_add_edge(g, fx->parse, fx->help_a, SP_EDGE_CALL, 0);
	sp_graph_add_edge(g, fx->parse, fx->help_b, SP_EDGE_CALL, 0);
	sp_graph_add_edge(g, fx->work, fx->leaf, SP_EDGE_TAIL, 0);
	sp_graph_add_edge(g, fx->even, fx->odd, SP_EDGE_CALL, 0);
	sp_graph_add_edge(g, fx->odd, fx->even, SP_EDGE_CALL, 0);
	sp_graph_add_edge(g, fx->jumper, fx->deep, SP_EDGE_TAIL, 0);
	sp_graph_finalize(g);

	/* what the solver would find, worked out by hand */
	res(g, fx->parse, 48 + 40, fx->help_b, SP_EDGE_CALL, true);
	res(g, fx->work, 32, SP_NONE, SP_EDGE_CALL, false);
	res(g, fx->even, 16 + 32, fx->odd, SP_EDGE_CALL, false);
	res(g, fx->odd, 32, SP_NONE, SP_EDGE_CALL, false);
	res(g, fx->jumper, 200, fx->deep, SP_EDGE_TAIL, true);
	res(g, fx->main_, 16 + 200, fx->jumper, SP_EDGE_CALL, false);
	g->funcs[fx->main_].res.partial = true;
	g->funcs[fx->printf_].res.partial = true;
	g->funcs[fx->even].flags |= SP_F_RECURSIVE;
	g->funcs[fx->odd].flags |= SP_F_RECURSIVE;
	g->funcs[fx->even].res.scc = g->funcs[fx->odd].res.scc = 100;
	g->funcs[fx->main_].res.witness[SP_CAUSE_DYNAMIC] = fx->work;
}

static int setup(void **state)
{
	struct fixture *fx = calloc(1, sizeof(*fx));

	if (!fx)
		return -1;
	fx->gv = *state;
	build(fx);
	strcpy(fx->dir, "/tmp/test_graphviz.XXXXXX");
	if (!mkdtemp(fx->dir))
		return -1;
	*state = fx;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *fx = *state;
	DIR *d = opendir(fx->dir);
	struct dirent *de;
	char p[512];

	while (d && (de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(p, sizeof(p), "%s/%s", fx->dir, de->d_name);
		if (unlink(p))
			rmdir(p);
	}
	if (d)
		closedir(d);
	rmdir(fx->dir);
	sp_graph_release(&fx->g);
	free(fx);
	return 0;
}

static const char *tmp_path(struct fixture *fx, const char *name)
{
	static char buf[4][512];
	static int next;
	char *p = buf[next++ % 4];

	snprintf(p, sizeof(buf[0]), "%s/%s", fx->dir, name);
	return p;
}

/* Export DOT with o, then read it back. */
static Agraph_t *export_read(struct fixture *fx, const struct sp_gv_opts *o)
{
	const char *p = tmp_path(fx, "out.dot");
	struct sp_err err = { { 0 } };
	Agraph_t *ag;
	FILE *fp;

	assert_int_equal(sp_gv_export(&fx->g, o, "dot", p, &err), 0);
	fp = fopen(p, "r");
	assert_non_null(fp);
	ag = agread(fp, NULL);
	fclose(fp);
	assert_non_null(ag);
	return ag;
}

static const char *attr(void *obj, const char *name)
{
	const char *v = agget(obj, (char *)name);

	return v ? v : "";
}

static Agnode_t *node(Agraph_t *ag, const char *name)
{
	Agnode_t *n = agnode(ag, (char *)name, 0);

	if (!n)
		fail_msg("no node '%s'", name);
	return n;
}

static Agedge_t *edge(Agraph_t *ag, const char *from, const char *to)
{
	Agedge_t *e = agedge(ag, node(ag, from), node(ag, to), NULL, 0);

	if (!e)
		fail_msg("no edge '%s' -> '%s'", from, to);
	return e;
}

static bool is_red(Agedge_t *e)
{
	return !strcmp(attr(e, "color"), "red") && !strcmp(attr(e, "penwidth"), "3");
}

static int count_red(Agraph_t *ag)
{
	Agnode_t *n;
	Agedge_t *e;
	int red = 0;

	for (n = agfstnode(ag); n; n = agnxtnode(ag, n))
		for (e = agfstout(ag, n); e; e = agnxtout(ag, e))
			red += is_red(e);
	return red;
}

static bool has(const char *hay, const char *needle)
{
	return strstr(hay, needle) != NULL;
}

static void test_default_view(void **state)
{
	struct fixture *fx = *state;
	struct sp_gv_opts o = { .view = SP_GV_CALLS, .top = 1 };
	Agraph_t *ag = export_read(fx, &o);
	Agedge_t *e;

	/* path main, jumper, deep + main's callees + <indirect> */
	assert_int_equal(agnnodes(ag), 8);
	assert_int_equal(agnedges(ag), 7);
	assert_null(agnode(ag, "rec.c:odd", 0));
	assert_null(agnode(ag, "src/leaf.c:leaf", 0));
	assert_null(agnode(ag, "b.c:helper", 0));

	assert_int_equal(count_red(ag), 2);
	e = edge(ag, "src/main.c:main", "j.c:jumper");
	assert_true(is_red(e));
	assert_string_equal(attr(e, "label"), "200 B");
	e = edge(ag, "j.c:jumper", "j.c:deep");
	assert_true(is_red(e));
	assert_string_equal(attr(e, "style"), "dotted");
	assert_false(is_red(edge(ag, "src/main.c:main", "src/parse.c:parse")));

	assert_string_equal(attr(node(ag, "src/main.c:main"), "peripheries"), "2");
	assert_string_equal(attr(node(ag, "src/parse.c:parse"), "peripheries"), "1");
	assert_true(has(attr(ag, "label"), "showing 7 of 13 functions"));
	assert_true(has(attr(ag, "label"), "worst path of the top 1 entry and its callees"));
	assert_string_equal(attr(ag, "rankdir"), "LR");
	agclose(ag);
}

static void test_node_styles(void **state)
{
	struct fixture *fx = *state;
	struct sp_gv_opts o = { .view = SP_GV_CALLS, .top = 1 };
	Agraph_t *ag = export_read(fx, &o);
	Agnode_t *n;

	n = node(ag, "src/main.c:main");
	assert_true(has(attr(n, "label"), "main (main.c)"));
	assert_true(has(attr(n, "label"), "self 16 B"));
	assert_true(has(attr(n, "label"), "total >= 216+ B"));
	assert_string_equal(attr(n, "tooltip"), "src/main.c:10");
	assert_string_equal(attr(n, "shape"), "box");
	assert_string_equal(attr(n, "fillcolor"), "#ff0000");	/* the largest */

	n = node(ag, "w.c:work");
	assert_string_equal(attr(n, "shape"), "octagon");
	assert_true(has(attr(n, "label"), "dynamic: VLA 'buf' at w.c:5"));
	n = node(ag, "j.c:deep");
	assert_string_equal(attr(n, "shape"), "octagon");
	assert_true(has(attr(n, "label"), "dynamic,bounded"));
	assert_true(has(attr(n, "label"), "total 200 B"));
	assert_false(has(attr(n, "label"), "partial"));

	n = node(ag, "printf");
	assert_true(has(attr(n, "style"), "dashed"));
	assert_true(has(attr(n, "label"), "self ?"));
	assert_false(has(attr(n, "label"), "partial"));
	assert_false(has(attr(node(ag, "src/parse.c:parse"), "style"), "dashed"));
	assert_string_equal(attr(node(ag, "src/parse.c:parse"), "shape"), "box");

	assert_string_equal(attr(edge(ag, "src/main.c:main", "<indirect>"), "style"), "dashed");
	assert_string_equal(attr(edge(ag, "src/main.c:main", "w.c:work"), "style"), "");
	agclose(ag);
}

static void test_heat_budget(void **state)
{
	struct fixture *fx = *state;
	struct sp_gv_opts o = { .view = SP_GV_CALLS, .top = 1, .has_budget = true, .budget = 432 };
	Agraph_t *ag = export_read(fx, &o);

	/* 216 of 432: half way, yellow; 0 of 432: white */
	assert_string_equal(attr(node(ag, "src/main.c:main"), "fillcolor"), "#ffff00");
	assert_string_equal(attr(node(ag, "printf"), "fillcolor"), "#ffffff");
	assert_true(has(attr(ag, "label"), "budget 432 B"));
	agclose(ag);
}

static void test_all(void **state)
{
	struct fixture *fx = *state;
	struct sp_gv_opts o = { .view = SP_GV_CALLS, .top = 1, .all = true, .depth = 1, .min_total = 1000 };
	Agraph_t *ag = export_read(fx, &o);
	Agraph_t *rec;

	/* every function (both clamps apart) and <indirect>, every call */
	assert_int_equal(agnnodes(ag), 14);
	assert_int_equal(agnedges(ag), 13);
	assert_non_null(agnode(ag, "util.h:clamp", 0));
	assert_non_null(agnode(ag, "a.c:helper", 0));
	assert_non_null(agnode(ag, "b.c:helper", 0));
	assert_int_equal(count_red(ag), 2);
	assert_string_equal(attr(edge(ag, "w.c:work", "src/leaf.c:leaf"), "style"), "dotted");
	assert_true(has(attr(ag, "label"), "all 13 functions"));

	rec = agsubg(ag, "cluster_rec100", 0);
	assert_non_null(rec);
	assert_int_equal(agnnodes(rec), 2);
	assert_non_null(agsubnode(rec, node(ag, "rec.c:even"), 0));
	assert_non_null(agsubnode(rec, node(ag, "rec.c:odd"), 0));
	assert_string_equal(attr(rec, "label"), "recursion");
	agclose(ag);
}

static void test_given_roots(void **state)
{
	struct fixture *fx = *state;
	uint32_t roots[] = { fx->parse, fx->even, fx->parse };
	struct sp_gv_opts o = { .view = SP_GV_CALLS, .roots = roots, .nroots = 3, .top = 1 };
	Agraph_t *ag = export_read(fx, &o);
	Agraph_t *rec;

	/* parse, its three callees; even, odd */
	assert_int_equal(agnnodes(ag), 6);
	assert_null(agnode(ag, "src/main.c:main", 0));
	assert_int_equal(count_red(ag), 2);
	assert_true(is_red(edge(ag, "src/parse.c:parse", "b.c:helper")));
	assert_true(is_red(edge(ag, "rec.c:even", "rec.c:odd")));
	assert_false(is_red(edge(ag, "rec.c:odd", "rec.c:even")));
	assert_string_equal(attr(edge(ag, "rec.c:even", "rec.c:odd"), "label"), ">= 32 B");
	rec = agsubg(ag, "cluster_rec100", 0);
	assert_non_null(rec);
	assert_int_equal(agnnodes(rec), 2);
	assert_null(agsubnode(rec, node(ag, "a.c:helper"), 0));
	assert_true(has(attr(ag, "label"), "2 given entries"));
	agclose(ag);
}

static void test_prune_depth(void **state)
{
	struct fixture *fx = *state;
	struct sp_gv_opts o = { .view = SP_GV_CALLS, .top = 1, .depth = 1 };
	Agraph_t *ag = export_read(fx, &o);

	/* deep is two calls below main */
	assert_int_equal(agnnodes(ag), 7);
	assert_null(agnode(ag, "j.c:deep", 0));
	assert_int_equal(count_red(ag), 1);
	assert_true(is_red(edge(ag, "src/main.c:main", "j.c:jumper")));
	assert_true(has(attr(ag, "label"), "depth <= 1"));
	agclose(ag);
}

static void test_prune_min_total(void **state)
{
	struct fixture *fx = *state;
	struct sp_gv_opts o = { .view = SP_GV_CALLS, .top = 1, .min_total = 40 };
	Agraph_t *ag = export_read(fx, &o);

	/* work (32) and printf (0) go; main stays though it is a root */
	assert_int_equal(agnnodes(ag), 6);
	assert_null(agnode(ag, "w.c:work", 0));
	assert_null(agnode(ag, "printf", 0));
	assert_non_null(agnode(ag, "rec.c:even", 0));
	assert_int_equal(count_red(ag), 2);
	assert_true(has(attr(ag, "label"), "total >= 40 B"));
	agclose(ag);
}

static void test_top2(void **state)
{
	struct fixture *fx = *state;
	struct sp_gv_opts o = { .view = SP_GV_CALLS, .top = 2, .min_total = 100 };
	Agraph_t *ag = export_read(fx, &o);

	/* deep and jumper tie at 200: deep sorts first by name */
	assert_string_equal(attr(node(ag, "j.c:deep"), "peripheries"), "2");
	assert_string_equal(attr(node(ag, "j.c:jumper"), "peripheries"), "1");
	assert_int_equal(agnnodes(ag), 4);	/* main, jumper, deep, <indirect> */
	agclose(ag);
}

static char *slurp(const char *p, size_t *len)
{
	FILE *fp = fopen(p, "rb");
	char *buf;
	long n;

	assert_non_null(fp);
	fseek(fp, 0, SEEK_END);
	n = ftell(fp);
	rewind(fp);
	buf = malloc((size_t)n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, fp), (size_t)n);
	buf[n] = '\0';
	fclose(fp);
	*len = (size_t)n;
	return buf;
}

/* Render with the run's context into path, as sp_gv_export would. */
static int render(struct fixture *fx, const struct sp_gv_opts *o, const char *format,
		  const char *path, struct sp_err *err)
{
	FILE *fp = fopen(path, "wb");
	int ret;

	assert_non_null(fp);
	ret = sp_gv_render(fx->gv, &fx->g, o, format, fp, err);
	assert_int_equal(fclose(fp), 0);
	return ret;
}

/* The SVG is well-formed and has a <title> for every node of the DOT. */
static void check_svg(const char *p, Agraph_t *ag)
{
	char cmd[1100], title[512];
	Agnode_t *n;
	size_t len;
	char *svg = slurp(p, &len);

	assert_true(has(svg, "<svg"));
	assert_true(has(svg, "</svg>"));
	for (n = agfstnode(ag); n; n = agnxtnode(ag, n)) {
		snprintf(title, sizeof(title), "<title>%s</title>",
			 strcmp(agnameof(n), "<indirect>") ? agnameof(n) :
			 "&lt;indirect&gt;");
		if (!has(svg, title))
			fail_msg("svg has no %s", title);
	}
	free(svg);
	if (system("command -v xmllint >/dev/null 2>&1") == 0) {
		snprintf(cmd, sizeof(cmd), "xmllint --noout '%s'", p);
		assert_int_equal(system(cmd), 0);
	}
}

static void test_svg(void **state)
{
	struct fixture *fx = *state;
	struct sp_gv_opts o = { .view = SP_GV_CALLS, .top = 1, .all = true };
	struct sp_err err = { { 0 } };
	const char *p = tmp_path(fx, "out.svg");
	Agraph_t *ag = export_read(fx, &o);

	assert_int_equal(render(fx, &o, "svg", p, &err), 0);
	check_svg(p, ag);
	agclose(ag);
}

static void test_png(void **state)
{
	struct fixture *fx = *state;
	struct sp_gv_opts o = { .view = SP_GV_CALLS, .top = 1 };
	struct sp_err err = { { 0 } };
	const char *p = tmp_path(fx, "out.png");
	size_t len;
	char *png;

	if (render(fx, &o, "png", p, &err)) {
		/* no cairo plugin: the error must say so */
		assert_string_equal(err.msg, "graphviz has no 'png' renderer");
		return;
	}
	png = slurp(p, &len);
	assert_true(len > 8);
	assert_memory_equal(png, "\x89PNG\r\n\x1a\n", 8);
	free(png);
}

static int count_entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int n = 0;

	assert_non_null(d);
	while ((de = readdir(d)))
		n += de->d_name[0] != '.';
	closedir(d);
	return n;
}

static void test_errors(void **state)
{
	struct fixture *fx = *state;
	struct sp_gv_opts o = { .view = SP_GV_CALLS, .top = 1 };
	struct sp_err err = { { 0 } };
	const char *nodir = tmp_path(fx, "nodir/out.svg");
	const char *isdir = tmp_path(fx, "sub");

	assert_int_equal(sp_gv_export(&fx->g, &o, "svg", nodir, &err), -1);
	assert_true(has(err.msg, "cannot write '"));
	assert_true(has(err.msg, "nodir/out.svg': No such file or directory"));
	assert_int_equal(access(nodir, F_OK), -1);

	assert_int_equal(sp_gv_export(&fx->g, &o, "gif", isdir, &err), -1);
	assert_string_equal(err.msg, "unknown graph format 'gif'");

	/* the target is a directory: rename fails, the temp file must go */
	assert_int_equal(mkdir(isdir, 0700), 0);
	assert_int_equal(sp_gv_export(&fx->g, &o, "dot", isdir, &err), -1);
	assert_true(has(err.msg, "cannot write '"));
	assert_int_equal(count_entries(fx->dir), 1);
}

/* sp_gv_render: the same picture into a stream the caller owns */
static void test_write_stream(void **state)
{
	struct fixture *fx = *state;
	struct sp_gv_opts o = { .view = SP_GV_CALLS, .top = 1 };
	struct sp_err err = { { 0 } };
	FILE *fp = tmpfile();
	Agraph_t *ag;

	assert_non_null(fp);
	assert_int_equal(sp_gv_render(NULL, &fx->g, &o, "dot", fp, &err), 0);
	rewind(fp);
	ag = agread(fp, NULL);
	assert_non_null(ag);
	assert_int_equal(agnnodes(ag), 8);
	assert_int_equal(count_red(ag), 2);
	agclose(ag);
	assert_int_equal(sp_gv_render(fx->gv, &fx->g, &o, "jpeg", fp, &err), -1);
	assert_string_equal(err.msg, "unknown graph format 'jpeg'");
	assert_int_equal(sp_gv_render(NULL, &fx->g, &o, "svg", fp, &err), -1);
	assert_string_equal(err.msg, "no graphviz context to render svg");
	fclose(fp);
}

/* backslashes in names stay literal: "\\n" must not become a line break */
static void test_escapes(void **state)
{
	struct fixture *fx = *state;
	struct sp_gv_opts o = { .view = SP_GV_CALLS, .top = 1 };
	Agraph_t *ag;
	Agnode_t *n;

	fx->g.funcs[fx->jumper].name = sp_intern(&fx->g, "j\\nump");
	fx->g.funcs[fx->jumper].file = sp_intern(&fx->g, "dir\\x.c");
	ag = export_read(fx, &o);
	n = node(ag, "dir\\x.c:j\\nump");
	assert_true(has(attr(n, "label"), "j\\\\nump (dir\\\\x.c)\\nself 16 B"));
	assert_string_equal(attr(n, "tooltip"), "dir\\\\x.c:2");
	agclose(ag);
}

static void test_empty_graph(void **state)
{
	struct fixture *fx = *state;
	struct sp_gv_opts o = { .view = SP_GV_CALLS, .top = 1 };
	struct sp_err err = { { 0 } };
	struct sp_graph g;
	const char *p = tmp_path(fx, "empty.svg");
	FILE *fp = fopen(p, "w");

	assert_non_null(fp);
	sp_graph_init(&g);
	sp_graph_finalize(&g);
	assert_int_equal(sp_gv_render(fx->gv, &g, &o, "svg", fp, &err), 0);
	assert_int_equal(fclose(fp), 0);
	assert_int_equal(access(p, R_OK), 0);
	sp_graph_release(&g);
}

/* sp_gv_export's own handle, beside the group's (see the top of the file) */
static void test_export_svg(void **state)
{
	struct fixture *fx = *state;
	struct sp_gv_opts o = { .view = SP_GV_CALLS, .top = 1, .all = true };
	struct sp_err err = { { 0 } };
	const char *p = tmp_path(fx, "out.svg");
	Agraph_t *ag = export_read(fx, &o);

	assert_int_equal(sp_gv_export(&fx->g, &o, "svg", p, &err), 0);
	check_svg(p, ag);
	agclose(ag);
	assert_int_equal(count_entries(fx->dir), 2);	/* out.dot, out.svg */
}

/* ---- the column view ---- */

/* The <TD ...> tag that holds ID="id": from *start to its '>'. */
static const char *td_tag(const char *label, const char *id, const char **start)
{
	char want[64];
	const char *at, *td;

	snprintf(want, sizeof(want), "ID=\"%s\"", id);
	at = strstr(label, want);
	if (!at)
		fail_msg("no cell %s", id);
	for (td = at; td > label && strncmp(td, "<TD", 3); td--)
		;
	*start = td;
	return strchr(at, '>');
}

/* The value of attribute name in the cell's tag, -1 without it. */
static long td_attr(const char *label, const char *id, const char *name)
{
	const char *td, *end = td_tag(label, id, &td), *v;
	char key[64];

	snprintf(key, sizeof(key), " %s=\"", name);
	v = strstr(td, key);
	if (!v || v > end)
		return -1;
	return strtol(v + strlen(key), NULL, 10);
}

/* The text of the cell with ID="id", up to </TD>. */
static char *td_text(const char *label, const char *id)
{
	const char *td, *open = td_tag(label, id, &td) + 1;

	return strndup(open, (size_t)(strstr(open, "</TD>") - open));
}

static bool td_has(const char *label, const char *id, const char *attr_text)
{
	const char *td, *end = td_tag(label, id, &td), *at = strstr(td, attr_text);

	return at && at < end;
}

static void test_column(void **state)
{
	struct fixture *fx = *state;
	struct sp_gv_opts o = { .top = 1 };
	Agraph_t *ag = export_read(fx, &o);
	Agnode_t *n = node(ag, "worst_path");
	const char *label = attr(n, "label");
	char *text;

	/* one node, its label a table: main, jumper, deep (216 B: 1 B per pt) */
	assert_int_equal(agnnodes(ag), 1);
	assert_int_equal(agnedges(ag), 0);
	assert_true(aghtmlstr((char *)label));
	assert_true(has(attr(ag, "label"), "worst path of the top 1 entry"));
	assert_true(has(attr(ag, "label"), "box height 1 pt per 1 B (at least 18 pt)"));
	assert_int_equal(td_attr(label, "c0f0", "HEIGHT"), 18);	/* 16 B */
	assert_int_equal(td_attr(label, "c0f1", "HEIGHT"), 18);
	assert_int_equal(td_attr(label, "c0f2", "HEIGHT"), 200);
	assert_false(has(label, "ID=\"c0f3\""));
	assert_false(has(label, "ID=\"c1f0\""));
	text = td_text(label, "c0f2");
	assert_string_equal(text, "<B>deep</B>  200 B [dynamic] [tail]");
	free(text);
	assert_true(td_has(label, "c0f2", "STYLE=\"dotted\""));	/* tail call */
	assert_true(td_has(label, "c0f2", "COLOR=\"#d05000\""));	/* dynamic */
	assert_true(td_has(label, "c0f2", "BGCOLOR=\"#ff0000\""));	/* the largest */
	assert_true(td_has(label, "c0f2", "TOOLTIP=\"deep (j.c:9): frame 200 B, stack 216 B\""));
	assert_false(td_has(label, "c0f0", "STYLE="));
	/* the stack in use beside each box, a tail callee replacing its caller */
	assert_true(has(label, ">16 B</TD>"));
	assert_true(has(label, ">32 B</TD>"));
	assert_true(has(label, ">216 B</TD>"));
	/* heading and reasons as the text report */
	assert_true(has(label, "<B>main</B>: at least 216 B, unbounded"));
	assert_true(has(label, "<FONT COLOR=\"#a04000\">reason: dynamic frame in work at w.c:4 (VLA 'buf' at w.c:5)"));
	agclose(ag);
}

static void test_column_budget(void **state)
{
	struct fixture *fx = *state;
	struct sp_gv_opts o = { .top = 1, .has_budget = true, .budget = 100 };
	Agraph_t *ag = export_read(fx, &o);
	const char *label = attr(node(ag, "worst_path"), "label");

	/* deep runs from 16 to 216 B: the line at 84 of its 200 B, i.e.
	 * 0.42 of the 197 pt left beside the 3 pt line, 83 pt down */
	assert_int_equal(td_attr(label, "c0f2a", "HEIGHT"), 83);
	assert_int_equal(td_attr(label, "c0budget", "HEIGHT"), 3);
	assert_int_equal(td_attr(label, "c0f2b", "HEIGHT"), 114);
	assert_true(td_has(label, "c0budget", "BGCOLOR=\"red\""));
	assert_true(td_has(label, "c0f2a", "SIDES=\"LTR\""));
	assert_true(td_has(label, "c0f2b", "SIDES=\"LBR\""));
	assert_true(has(attr(ag, "label"), "red line: budget 100 B"));
	agclose(ag);

	/* a budget the path never reaches draws no line */
	o.budget = 1000;
	ag = export_read(fx, &o);
	label = attr(node(ag, "worst_path"), "label");
	assert_false(has(label, "c0budget"));
	assert_int_equal(td_attr(label, "c0f2", "HEIGHT"), 200);
	agclose(ag);
}

static void test_column_entries(void **state)
{
	struct fixture *fx = *state;
	uint32_t roots[10];
	struct sp_gv_opts o = { .roots = roots, .nroots = 10 };
	Agraph_t *ag;
	const char *label;
	char *text;
	uint32_t i;

	for (i = 0; i < 10; i++)
		roots[i] = i;
	ag = export_read(fx, &o);
	label = attr(node(ag, "worst_path"), "label");
	/* the SP_GV_COLUMNS_MAX worst, worst first: main (216) leads */
	assert_true(has(label, "ID=\"c7f0\""));
	assert_false(has(label, "ID=\"c8f0\""));
	text = td_text(label, "c0f0");
	assert_true(has(text, "<B>main</B>"));
	free(text);
	assert_true(has(attr(ag, "label"), "the 8 worst of 10 given entries"));
	agclose(ag);

	o.top = 2;	/* --graph-top says how many */
	ag = export_read(fx, &o);
	label = attr(node(ag, "worst_path"), "label");
	assert_true(has(label, "ID=\"c1f0\""));
	assert_false(has(label, "ID=\"c2f0\""));
	agclose(ag);
}

/* names are escaped for the HTML-like label and cut after 48 bytes */
static void test_column_escapes(void **state)
{
	struct fixture *fx = *state;
	struct sp_gv_opts o = { .top = 1 };
	Agraph_t *ag;
	char *text;

	fx->g.funcs[fx->jumper].name = sp_intern(&fx->g,
		"operator<<(std::ostream&, const vector<int>&) and more and more");
	ag = export_read(fx, &o);
	text = td_text(attr(node(ag, "worst_path"), "label"), "c0f1");
	assert_string_equal(text, "<B>operator&lt;&lt;(std::ostream&amp;, const "
			    "vector&lt;int&gt;&amp;) an...</B>  16 B");
	free(text);
	agclose(ag);
}

static void test_column_svg(void **state)
{
	struct fixture *fx = *state;
	struct sp_gv_opts o = { .top = 1 };
	struct sp_err err = { { 0 } };
	const char *p = tmp_path(fx, "column.svg");
	size_t len;
	char *svg;

	assert_int_equal(render(fx, &o, "svg", p, &err), 0);
	svg = slurp(p, &len);
	/* each box a link with its tooltip, for a browser */
	assert_true(has(svg, "<g id=\"a_c0f2\"><a xlink:href=\"#c0f2\" "
			"xlink:title=\"deep (j.c:9): frame 200 B, stack 216 B\">"));
	free(svg);
}

/* a call graph too large for dot is refused, naming its size */
static void test_calls_too_large(void **state)
{
	struct fixture *fx = *state;
	struct sp_gv_opts o = { .view = SP_GV_CALLS, .all = true };
	struct sp_err err = { { 0 } };
	struct sp_graph g;
	FILE *fp = tmpfile();
	uint32_t i;

	(void)fx;
	assert_non_null(fp);
	sp_graph_init(&g);
	for (i = 0; i < SP_GV_NODES_MAX + 1; i++) {
		uint32_t id = sp_graph_add_func(&g);

		g.funcs[id].name = sp_intern(&g, "f");
		g.funcs[id].flags = SP_F_HAS_CODE;
	}
	sp_graph_finalize(&g);
	assert_int_equal(sp_gv_render(NULL, &g, &o, "dot", fp, &err), -1);
	assert_string_equal(err.msg, "--all would draw 801 functions and 0 calls, more "
			    "than a picture can lay out (800, 1600): name roots with "
			    "--entry instead");
	assert_int_equal(ftell(fp), 0);
	sp_graph_release(&g);
	fclose(fp);
}

static int group_setup(void **state)
{
	struct sp_err err = { { 0 } };

	*state = sp_gv_new(&err);
	return *state ? 0 : -1;
}

static int group_teardown(void **state)
{
	sp_gv_free(*state);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_default_view, setup, teardown),
		cmocka_unit_test_setup_teardown(test_node_styles, setup, teardown),
		cmocka_unit_test_setup_teardown(test_heat_budget, setup, teardown),
		cmocka_unit_test_setup_teardown(test_all, setup, teardown),
		cmocka_unit_test_setup_teardown(test_given_roots, setup, teardown),
		cmocka_unit_test_setup_teardown(test_prune_depth, setup, teardown),
		cmocka_unit_test_setup_teardown(test_prune_min_total, setup, teardown),
		cmocka_unit_test_setup_teardown(test_top2, setup, teardown),
		cmocka_unit_test_setup_teardown(test_svg, setup, teardown),
		cmocka_unit_test_setup_teardown(test_png, setup, teardown),
		cmocka_unit_test_setup_teardown(test_errors, setup, teardown),
		cmocka_unit_test_setup_teardown(test_write_stream, setup, teardown),
		cmocka_unit_test_setup_teardown(test_escapes, setup, teardown),
		cmocka_unit_test_setup_teardown(test_empty_graph, setup, teardown),
		cmocka_unit_test_setup_teardown(test_export_svg, setup, teardown),
		cmocka_unit_test_setup_teardown(test_column, setup, teardown),
		cmocka_unit_test_setup_teardown(test_column_budget, setup, teardown),
		cmocka_unit_test_setup_teardown(test_column_entries, setup, teardown),
		cmocka_unit_test_setup_teardown(test_column_escapes, setup, teardown),
		cmocka_unit_test_setup_teardown(test_column_svg, setup, teardown),
		cmocka_unit_test_setup_teardown(test_calls_too_large, setup, teardown),
	};

	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
