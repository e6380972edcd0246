/* Unit tests of annotate/: the --annotate parser, applying it to a graph,
 * and what the solver makes of it (depth bounds, resolved indirect calls). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "analysis/analysis.h"
#include "annotate/annotate.h"
#include "common/strbuf.h"
#include "frames/frames.h"
#include "graph_fixture.h"
#include "stackprof.h"

static int parse(struct sp_annots *a, const char *text, struct sp_err *err)
{
	sp_annots_init(a);
	return sp_annot_parse(a, "a.ann", text, strlen(text), err);
}

/* nest FUNC per HOLDER...: the holders are the names, no depth */
static void test_parse_nest_per(void **state)
{
	static const char text[] = "optional nest va_format per _dev_err netdev_err # %pV\n"
				   "nest per per per\n";
	struct sp_annots a;
	struct sp_err err = { { 0 } };

	(void)state;
	assert_int_equal(parse(&a, text, &err), 0);
	assert_int_equal(a.n, 2);
	assert_int_equal(a.v[0].kind, SP_ANNOT_NEST);
	assert_true(a.v[0].per);
	assert_true(a.v[0].optional);
	assert_string_equal(a.v[0].func, "va_format");
	assert_int_equal(a.v[0].nnames, 2);
	assert_string_equal(a.v[0].names[0], "_dev_err");
	assert_string_equal(a.v[0].names[1], "netdev_err");
	assert_int_equal(a.v[0].value, 0);
	/* a function named per, held by one named per: words in place */
	assert_true(a.v[1].per);
	assert_string_equal(a.v[1].func, "per");
	assert_int_equal(a.v[1].nnames, 1);
	assert_string_equal(a.v[1].names[0], "per");
	sp_annots_release(&a);
}

/* 'assume' before or after 'optional', each at most once; the line's
 * text from its directive on, for the reasons */
static void test_parse_assume(void **state)
{
	static const char text[] =
		"assume nest kfree 2 # the vector's slab has none\n"
		"optional assume once  f\n"
		"assume optional ignore\tf  g from h\n"
		"nest kfree 2\n"
		"assume ignore die oops below <page fault>\n";
	struct sp_annots a;
	struct sp_err err = { { 0 } };

	(void)state;
	assert_int_equal(parse(&a, text, &err), 0);
	assert_int_equal(a.n, 5);
	assert_true(a.v[0].assume);
	assert_false(a.v[0].optional);
	assert_int_equal(a.v[0].kind, SP_ANNOT_NEST);
	assert_string_equal(a.v[0].func, "kfree");
	assert_int_equal(a.v[0].value, 2);
	assert_string_equal(a.v[0].text, "nest kfree 2");
	assert_true(a.v[1].assume);
	assert_true(a.v[1].optional);
	assert_int_equal(a.v[1].value, 1);
	assert_string_equal(a.v[1].text, "once f");
	assert_true(a.v[2].assume);
	assert_true(a.v[2].optional);
	assert_true(a.v[2].from);
	assert_string_equal(a.v[2].names[1], "h");
	assert_string_equal(a.v[2].text, "ignore f g from h");
	assert_false(a.v[3].assume);
	assert_null(a.v[3].text);
	assert_string_equal(a.v[4].text, "ignore die oops below <page fault>");
	sp_annots_release(&a);
}

static void test_parse_good(void **state)
{
	static const char text[] =
		"# stack facts\n"
		"\n"
		"frame  asm_entry 128\n"
		"calls\tdispatch op_a  op_b # the ops table\n"
		"recursion walk 12\r\n"
		"entry irq_handler 2K\n"
		"ignore main panic\n"
		"once __schedule\n"
		"optional nest vprintk_store 5\n"
		"optional ignore die oops below <page fault>#x\n"
		"ignore <general protection>  exc_gp below <a>b\n"
		"optional ignore a b\n"
		"ignore wake put from stop";	/* no final newline */
	struct sp_annots a;
	struct sp_err err = { { 0 } };

	(void)state;
	assert_int_equal(parse(&a, text, &err), 0);
	assert_int_equal(a.n, 11);
	assert_int_equal(a.v[0].kind, SP_ANNOT_FRAME);
	assert_int_equal(a.v[0].line, 3);
	assert_string_equal(a.v[0].func, "asm_entry");
	assert_int_equal(a.v[0].value, 128);
	assert_int_equal(a.v[1].kind, SP_ANNOT_CALLS);
	assert_int_equal(a.v[1].line, 4);
	assert_int_equal(a.v[1].nnames, 2);
	assert_string_equal(a.v[1].names[0], "op_a");
	assert_string_equal(a.v[1].names[1], "op_b");
	assert_int_equal(a.v[2].kind, SP_ANNOT_RECURSION);
	assert_int_equal(a.v[2].value, 12);
	assert_int_equal(a.v[3].kind, SP_ANNOT_ENTRY);
	assert_int_equal(a.v[3].value, 2048);
	assert_int_equal(a.v[4].kind, SP_ANNOT_IGNORE);
	assert_int_equal(a.v[4].line, 7);
	assert_string_equal(a.v[4].names[0], "panic");
	assert_string_equal(a.v[4].file, "a.ann");
	assert_false(a.v[4].optional);
	assert_int_equal(a.v[5].kind, SP_ANNOT_NEST);
	assert_string_equal(a.v[5].func, "__schedule");
	assert_int_equal(a.v[5].value, 1);
	assert_false(a.v[5].optional);
	assert_int_equal(a.v[6].kind, SP_ANNOT_NEST);
	assert_string_equal(a.v[6].func, "vprintk_store");
	assert_int_equal(a.v[6].value, 5);
	assert_true(a.v[6].optional);
	/* a node's name in angle brackets holds its blanks */
	assert_string_equal(a.v[7].func, "die");
	assert_int_equal(a.v[7].nnames, 2);
	assert_string_equal(a.v[7].names[0], "oops");
	assert_string_equal(a.v[7].names[1], "<page fault>");
	assert_string_equal(a.v[8].func, "<general protection>");
	assert_string_equal(a.v[8].names[0], "exc_gp");
	assert_string_equal(a.v[8].names[1], "<a>b");
	assert_int_equal(a.v[9].kind, SP_ANNOT_IGNORE);
	assert_string_equal(a.v[9].func, "a");
	assert_string_equal(a.v[9].names[0], "b");
	assert_true(a.v[9].optional);
	assert_false(a.v[9].from);
	assert_string_equal(a.v[10].func, "wake");
	assert_true(a.v[10].from);
	assert_int_equal(a.v[10].nnames, 2);
	assert_string_equal(a.v[10].names[0], "put");
	assert_string_equal(a.v[10].names[1], "stop");
	sp_annots_release(&a);
}

/* Each malformed line names the file and its line. */
static void test_parse_errors(void **state)
{
	static const struct {
		const char *text, *msg;
	} cases[] = {
		{ "frame f 8\nstack f 8\n", "a.ann:2: unknown directive 'stack'" },
		{ "\n\nframe f\n", "a.ann:3: want 'frame FUNC BYTES'" },
		{ "frame f 8 9\n", "a.ann:1: want 'frame FUNC BYTES'" },
		{ "frame f -8\n", "a.ann:1: invalid size '-8'" },
		{ "# x\nentry irq 1Q\n", "a.ann:2: invalid size '1Q'" },
		{ "calls f\n", "a.ann:1: want 'calls FUNC TARGET...'" },
		{ "recursion f 0\n", "a.ann:1: invalid recursion depth '0'" },
		{ "recursion f 99999999999\n", "a.ann:1: invalid recursion depth" },
		{ "recursion f x\n", "a.ann:1: invalid recursion depth 'x'" },
		{ "ignore f\n", "a.ann:1: want 'ignore FUNC CALLEE [below ANCESTOR [unless RESET...] | from CALLER...]'" },
		{ "ignore f g h\n", "a.ann:1: want 'ignore FUNC CALLEE [below ANCESTOR [unless RESET...] | from CALLER...]'" },
		{ "ignore f g above h\n", "a.ann:1: want 'ignore FUNC CALLEE [below ANCESTOR [unless RESET...] | from CALLER...]'" },
		{ "ignore f g below\n", "a.ann:1: want 'ignore FUNC CALLEE [below ANCESTOR [unless RESET...] | from CALLER...]'" },
		{ "ignore f g below h i\n", "a.ann:1: want 'ignore FUNC CALLEE [below ANCESTOR [unless RESET...] | from CALLER...]'" },
		{ "ignore f g below h unless\n",
		  "a.ann:1: want 'ignore FUNC CALLEE [below ANCESTOR [unless RESET...] | from CALLER...]'" },
		{ "ignore f g below h except i\n",
		  "a.ann:1: want 'ignore FUNC CALLEE [below ANCESTOR [unless RESET...] | from CALLER...]'" },
		{ "ignore f g from\n",
		  "a.ann:1: want 'ignore FUNC CALLEE [below ANCESTOR [unless RESET...] | from CALLER...]'" },
		{ "ignore f g from h unless i\n",
		  "a.ann:1: want 'ignore FUNC CALLEE [below ANCESTOR [unless RESET...] | from CALLER...]'" },
		{ "ignore f g from h i below j\n",
		  "a.ann:1: want 'ignore FUNC CALLEE [below ANCESTOR [unless RESET...] | from CALLER...]'" },
		/* no '>': the word ends at the blank */
		{ "ignore f g below <page fault\n",
		  "a.ann:1: want 'ignore FUNC CALLEE [below ANCESTOR [unless RESET...] | from CALLER...]'" },
		{ "frame f 8\nframe g\0 8\n", "a.ann:2: NUL byte" },
		{ "once\n", "a.ann:1: want 'once FUNC'" },
		{ "once f 2\n", "a.ann:1: want 'once FUNC'" },
		{ "nest f\n", "a.ann:1: want 'nest FUNC DEPTH | nest FUNC per HOLDER...'" },
		{ "nest f per\n", "a.ann:1: want 'nest FUNC DEPTH | nest FUNC per HOLDER...'" },
		{ "nest f 2 g\n", "a.ann:1: want 'nest FUNC DEPTH | nest FUNC per HOLDER...'" },
		{ "nest f 0\n", "a.ann:1: invalid nest depth '0' (1 to 4096)" },
		{ "nest f 4097\n", "a.ann:1: invalid nest depth '4097'" },
		{ "nest f two\n", "a.ann:1: invalid nest depth 'two'" },
		{ "optional\n", "a.ann:1: want 'optional DIRECTIVE ...'" },
		{ "optional once\n", "a.ann:1: want 'optional once FUNC'" },
		{ "optional optional once f\n", "a.ann:1: 'optional' given twice" },
		{ "assume\n", "a.ann:1: want 'assume DIRECTIVE ...'" },
		{ "optional assume\n", "a.ann:1: want 'optional assume DIRECTIVE ...'" },
		{ "assume assume nest f 2\n", "a.ann:1: 'assume' given twice" },
		{ "assume optional assume nest f 2\n", "a.ann:1: 'assume' given twice" },
		{ "optional assume optional once f\n", "a.ann:1: 'optional' given twice" },
		{ "assume nest f\n", "a.ann:1: want 'assume nest FUNC DEPTH | nest FUNC per HOLDER...'" },
		{ "assume optional once\n", "a.ann:1: want 'optional assume once FUNC'" },
		{ "assume nest f 0\n", "a.ann:1: invalid nest depth '0'" },
		{ "assume nest assume\n", "a.ann:1: want 'assume nest FUNC DEPTH" },
		{ "nest f 2 assume\n", "a.ann:1: want 'nest FUNC DEPTH" },
		{ "onse f\n", "a.ann:1: unknown directive 'onse' (frame, calls, recursion, "
		  "entry, ignore, once or nest)" },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct sp_annots a;
		struct sp_err err = { { 0 } };
		/* the NUL case: measure past the embedded NUL */
		size_t len = strlen(cases[i].text);

		if (strstr(cases[i].msg, "NUL"))
			len += 1 + strlen(cases[i].text + len + 1);
		sp_annots_init(&a);
		assert_int_equal(sp_annot_parse(&a, "a.ann", cases[i].text, len, &err), -1);
		if (strncmp(err.msg, cases[i].msg, strlen(cases[i].msg)))
			fail_msg("case %zu: '%s', want '%s'", i, err.msg, cases[i].msg);
		sp_annots_release(&a);
	}
}

static void test_load_missing(void **state)
{
	struct sp_annots a;
	struct sp_err err = { { 0 } };

	(void)state;
	sp_annots_init(&a);
	assert_int_equal(sp_annot_load(&a, "/nonexistent/x.ann", &err), -1);
	assert_non_null(strstr(err.msg, "unable to open '/nonexistent/x.ann'"));
	sp_annots_release(&a);
}

/* parse + apply + analyze; returns the apply status */
/* The fixture's frames, as .su rows would give them */
static void frames_as_su(const struct sp_graph *g, struct sp_frames *su)
{
	uint32_t i;

	for (i = 0; i < g->nfuncs; i++)
		if (g->funcs[i].qual != SP_QUAL_UNKNOWN)
			sp_frames_add(su, i, g->funcs[i].qual, g->funcs[i].self);
}

/* Apply text as main.c does: its frames decided with the fixture's, then
 * the rest, then the solver. */
static int annotate(struct sp_graph *g, const char *text, struct sp_err *err)
{
	struct sp_frames su = { 0 }, annot = { 0 };
	struct frame_opts fo = { 0 };
	struct frame_stats st;
	struct sp_annots a;
	int ret;

	sp_graph_finalize(g);
	assert_int_equal(parse(&a, text, err), 0);
	frames_as_su(g, &su);
	ret = sp_annot_frames(&a, g, &annot, err);
	if (!ret) {
		frames_decide(g, NULL, 0, &annot, &su, &fo, &st);
		ret = sp_annot_apply(&a, g, err);
	}
	sp_annots_release(&a);
	sp_frames_release(&su);
	sp_frames_release(&annot);
	if (!ret)
		assert_int_equal(sp_analyze(g, err), 0);
	return ret;
}

static void test_apply_unknown_names(void **state)
{
	static const struct {
		const char *text, *msg;
	} cases[] = {
		{ "frame main 8\nframe nosuch 8\n", "a.ann:2: unknown function 'nosuch'" },
		{ "calls main f nosuch\n", "a.ann:1: unknown function 'nosuch'" },
		{ "\nignore main nosuch\n", "a.ann:2: unknown function 'nosuch'" },
		{ "entry x.c:main 8\n", "a.ann:1: unknown function 'x.c:main'" },
		{ "ignore f main\n", "a.ann:1: no call from 'f' to 'main'" },
		{ "ignore f main below main\n", "a.ann:1: no call from 'f' to 'main'" },
		{ "ignore main f below nosuch\n", "a.ann:1: unknown function 'nosuch'" },
		{ "ignore main f below main\n", "a.ann:1: 'main' below itself: say how often "
		  "it nests with once or nest" },
		{ "ignore f main from main\n", "a.ann:1: no call from 'f' to 'main' that 'main' calls" },
		{ "ignore main f from f\n", "a.ann:1: no call from 'main' to 'f' that 'f' calls" },
		{ "ignore f main from nosuch\n", "a.ann:1: unknown function 'nosuch'" },
		{ "once nosuch\n", "a.ann:1: unknown function 'nosuch'" },
		{ "optional once main\nnest nosuch 2\n", "a.ann:2: unknown function 'nosuch'" },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct sp_graph g;
		struct sp_err err = { { 0 } };
		uint32_t m, f;

		sp_graph_init(&g);
		m = fs(&g, "main", 16);
		f = fs(&g, "f", 32);
		call(&g, m, f);
		assert_int_equal(annotate(&g, cases[i].text, &err), -1);
		if (strcmp(err.msg, cases[i].msg))
			fail_msg("case %zu: '%s', want '%s'", i, err.msg, cases[i].msg);
		sp_graph_release(&g);
	}
}

/* main -> dispatch -(indirect)-> a | b; main -> asm (no frame data) */
static void test_apply_frame_calls_ignore_entry(void **state)
{
	struct sp_graph g;
	struct sp_err err = { { 0 } };
	uint32_t m, d, a, b, as, x;

	(void)state;
	sp_graph_init(&g);
	m = fs(&g, "main", 16);
	d = fs(&g, "dispatch", 64);
	a = fs(&g, "op_a", 100);
	b = fs(&g, "op_b", 300);
	as = fs(&g, "asm_stub", 0);
	x = fs(&g, "panic", 5000);
	g.funcs[as].qual = SP_QUAL_UNKNOWN;
	g.funcs[d].n_indirect = 1;
	call(&g, m, d);
	call(&g, m, as);
	call(&g, m, x);
	sp_graph_finalize(&g);
	assert_int_equal(sp_analyze(&g, &err), 0);
	assert_false(g.funcs[m].res.bounded);
	assert_true(g.funcs[m].res.partial);
	assert_int_equal(g.funcs[m].res.total, 5016);

	assert_int_equal(annotate(&g, "calls dispatch op_a op_b\nframe asm_stub 40\n"
				  "ignore main panic\nentry main 1K\n", &err), 0);
	assert_true(g.funcs[d].res.bounded);
	assert_false(g.funcs[d].res.assumed);
	assert_int_equal(g.funcs[d].res.total, 64 + 300);
	assert_int_equal(g.funcs[d].res.next, b);
	assert_int_equal(g.funcs[d].res.next_flags, SP_EDGE_F_ANNOTATED);
	assert_int_equal(g.funcs[as].src, SP_SRC_ANNOT);
	assert_int_equal(g.funcs[as].self, 40);
	assert_true(g.funcs[m].res.bounded);
	assert_false(g.funcs[m].res.partial);
	assert_int_equal(g.funcs[m].res.total, 16 + 364);	/* panic is ignored */
	assert_true(g.funcs[m].flags & SP_F_BUDGET);
	assert_int_equal(g.funcs[m].budget, 1024);
	(void)a;
	sp_graph_release(&g);
}

struct reasons {
	char text[8][256];
	size_t n;
};

static void collect_reason(void *ctx, const char *reason)
{
	struct reasons *r = ctx;

	assert_true(r->n < 8);
	snprintf(r->text[r->n++], sizeof(r->text[0]), "%s", reason);
}

/* main -> even <-> odd -> leaf; fact -> fact.  Depth D bounds a cycle at
 * D * (sum of its frames) + the worst exit. */
static void test_recursion_depth(void **state)
{
	struct sp_graph g;
	struct sp_err err = { { 0 } };
	struct reasons r = { .n = 0 };
	uint32_t m, e, o, l, f;

	(void)state;
	sp_graph_init(&g);
	m = fs(&g, "main", 16);
	e = fs(&g, "even", 80);
	o = fs(&g, "odd", 112);
	l = fs(&g, "leaf", 88);
	f = fs(&g, "fact", 48);
	call(&g, m, e);
	call(&g, e, o);
	call(&g, o, e);
	call(&g, e, l);
	call(&g, m, f);
	call(&g, f, f);
	assert_int_equal(annotate(&g, "recursion odd 3\nrecursion fact 5\n", &err), 0);
	assert_true(g.funcs[e].res.bounded);
	assert_true(g.funcs[o].res.bounded);
	assert_int_equal(g.funcs[e].res.total, 3 * (80 + 112) + 88);
	assert_int_equal(g.funcs[o].res.total, 3 * (80 + 112) + 88);
	assert_int_equal(g.funcs[f].res.total, 5 * 48);
	assert_true(g.funcs[m].res.bounded);
	assert_int_equal(g.funcs[m].res.total, 16 + 664);
	assert_true(g.funcs[e].flags & SP_F_RECURSIVE);
	sp_reasons(&g, o, collect_reason, &r);
	assert_int_equal(r.n, 1);
	assert_string_equal(r.text[0], "recursion odd -> even -> odd bounded by "
			    "annotation: at most 3 deep");
	sp_graph_release(&g);
}

/* Without the annotation the same cycle stays unbounded. */
static void test_recursion_without_depth(void **state)
{
	struct sp_graph g;
	struct sp_err err = { { 0 } };
	uint32_t f;

	(void)state;
	sp_graph_init(&g);
	f = fs(&g, "fact", 48);
	call(&g, f, f);
	assert_int_equal(annotate(&g, "# nothing\n", &err), 0);
	assert_false(g.funcs[f].res.bounded);
	assert_int_equal(g.funcs[f].res.total, 48);
	sp_graph_release(&g);
}

/*
 * optional: a line naming a function the image lacks (kernels differ by
 * configuration), or an ignore without such a call, is skipped whole;
 * the lines that match still apply.
 */
static void test_optional_lines(void **state)
{
	struct sp_graph g;
	struct sp_err err = { { 0 } };
	uint32_t m, f;

	(void)state;
	sp_graph_init(&g);
	m = fs(&g, "main", 16);
	f = fs(&g, "f", 32);
	call(&g, m, f);
	call(&g, f, f);
	assert_int_equal(annotate(&g, "optional once nosuch\n"
				  "optional calls main f nosuch\n"
				  "optional ignore f main\n"
				  "optional frame nosuch 8\n"
				  "optional nest f 4\n", &err), 0);
	assert_int_equal(g.funcs[f].nest, 4);
	assert_int_equal(g.funcs[m].n_indirect, 0);
	assert_false(g.funcs[m].flags & SP_F_INDIRECT_ANNOTATED);
	assert_int_equal(g.funcs[f].res.total, 4 * 32);
	assert_int_equal(g.funcs[m].res.total, 16 + 4 * 32);
	assert_true(g.funcs[m].res.bounded);
	sp_graph_release(&g);
}

/*
 * once and nest through the file: a panic-like function that a
 * canary-failure path calls, and a printk whose body nests 2 deep.
 * main -> work -> scf -> panic -> printk -> store -> printk ...;
 * store -> scf.  The largest count given wins.
 */
static void test_once_and_nest(void **state)
{
	struct sp_graph g;
	struct sp_err err = { { 0 } };
	struct reasons r = { .n = 0 };
	uint32_t m, w, scf, pn, pk, st;

	(void)state;
	sp_graph_init(&g);
	m = fs(&g, "main", 16);
	w = fs(&g, "work", 64);
	scf = fs(&g, "scf", 8);
	pn = fs(&g, "panic", 200);
	pk = fs(&g, "printk", 40);
	st = fs(&g, "store", 100);
	call(&g, m, w);
	call(&g, w, scf);
	call(&g, scf, pn);
	call(&g, pn, pk);
	call(&g, pk, st);
	call(&g, st, pk);
	call(&g, st, scf);
	assert_int_equal(annotate(&g, "once scf\nnest store 1\nnest store 2\n", &err), 0);
	assert_int_equal(g.funcs[st].nest, 2);
	/* below scf, store is entered afresh: 2 deep, printk after each */
	assert_int_equal(g.funcs[scf].res.total, 8 + 200 + 2 * (40 + 100) + 40);
	/* from store: store printk store, then scf panic printk (store's
	 * third entry is cut) */
	assert_int_equal(g.funcs[st].res.total, 100 + 40 + 100 + 8 + 200 + 40);
	assert_int_equal(g.funcs[m].res.total, 16 + 64 + 528);
	assert_true(g.funcs[m].res.bounded);
	assert_false(g.funcs[pk].flags & SP_F_RECURSIVE);
	sp_reasons(&g, m, collect_reason, &r);
	assert_int_equal(r.n, 1);
	assert_string_equal(r.text[0], "recursion scf -> panic -> printk -> store -> scf "
			    "bounded by annotation: scf at most once on a stack");
	sp_graph_release(&g);
}

/*
 * nest FUNC per HOLDER: %pV in small.  main -> h2 -> h1 -> prt -> vsn
 * -> vaf -> vsn; each holder below vaf lets it on the stack once more.
 */
struct pv {
	uint32_t main, h2, h1, vaf;
};

static struct pv pv_graph(struct sp_graph *g)
{
	struct pv p = { fs(g, "main", 16), fs(g, "h2", 50), fs(g, "h1", 30), 0 };
	uint32_t prt = fs(g, "prt", 20), vsn = fs(g, "vsn", 100);

	p.vaf = fs(g, "vaf", 10);
	call(g, p.main, p.h2);
	call(g, p.h2, p.h1);
	call(g, p.h1, prt);
	call(g, prt, vsn);
	call(g, vsn, p.vaf);
	call(g, p.vaf, vsn);
	return p;
}

static void test_nest_per(void **state)
{
	struct sp_graph g;
	struct sp_err err = { { 0 } };
	struct reasons r = { .n = 0 };
	struct pv p;

	(void)state;
	sp_graph_init(&g);
	p = pv_graph(&g);
	assert_int_equal(annotate(&g, "nest vaf per h1 h2\n", &err), 0);
	/* vaf alone: once (its callers elsewhere hold nothing); below h2
	 * and h1: vsn vaf vsn vaf vsn */
	assert_int_equal(g.funcs[p.vaf].res.total, 10 + 100);
	assert_int_equal(g.funcs[p.h1].res.total, 30 + 20 + 100 + 110);
	assert_int_equal(g.funcs[p.h2].res.total, 50 + 30 + 20 + 2 * 110 + 100);
	assert_int_equal(g.funcs[p.main].res.total, 16 + 420);
	assert_true(g.funcs[p.main].res.bounded);
	sp_reasons(&g, p.main, collect_reason, &r);
	assert_int_equal(r.n, 1);
	assert_string_equal(r.text[0], "recursion vaf -> vsn -> vaf bounded by annotation: "
			    "vaf at most once per holder below it");
	sp_graph_release(&g);

	/* a 'from' copy of a holder holds too: h2 calls h1's copy without
	 * its call of x, and still nests vaf twice */
	sp_graph_init(&g);
	p = pv_graph(&g);
	call(&g, p.h1, fs(&g, "x", 8));
	call(&g, p.main, p.h1);	/* so that h2's is a copy */
	assert_int_equal(annotate(&g, "nest vaf per h1 h2\nignore h1 x from h2\n", &err), 0);
	assert_int_equal(g.funcs[p.h2].res.total, 420);
	sp_graph_release(&g);

	/* optional: a holder the image lacks is skipped, not the line */
	sp_graph_init(&g);
	p = pv_graph(&g);
	assert_int_equal(annotate(&g, "optional nest vaf per nosuch h1\n", &err), 0);
	assert_int_equal(g.funcs[p.h2].res.total, 50 + 260);
	sp_graph_release(&g);
}

/* id's reason of the 'assume' lines (a static buffer), "" when none. */
static const char *reason_of(struct sp_graph *g, uint32_t id)
{
	static char buf[512];
	struct sp_strbuf t = { NULL, 0, 0 };

	buf[0] = '\0';
	if (sp_reason_text(g, id, SP_CAUSE_ASSUMPTION, &t))
		snprintf(buf, sizeof(buf), "%s", t.buf);
	free(t.buf);
	return buf;
}

/* Is id's total assumed, and by the 'assume' line want (NULL: none)? */
static void assert_assumed_by(struct sp_graph *g, uint32_t id, const char *want)
{
	struct sp_strbuf t = { NULL, 0, 0 };
	bool said = sp_reason_text(g, id, SP_CAUSE_ASSUMPTION, &t);

	assert_int_equal(g->funcs[id].res.assumed, want != NULL);
	assert_int_equal(said, want != NULL);
	if (want)
		assert_string_equal(t.buf, want);
	free(t.buf);
}

/*
 * main -> kfree -> slab -> vec -> kfree, main -> other -> leaf (frames
 * 16, 64, 128, 96; 30, 20).  Every
 * directive may be assumed: what reaches the function it rests on is
 * assumed, with the same total as without 'assume'; what does not is not.
 */
static void test_assume_marks(void **state)
{
	static const struct {
		const char *text;
		uint64_t main_total;
		bool kfree_assumed;
		const char *reason;	/* main's */
	} cases[] = {
		{ "nest kfree 2\n", 16 + 2 * (64 + 128 + 96), true, NULL },
		{ "# x\nassume nest kfree 2\n", 16 + 2 * (64 + 128 + 96), true,
		  "assumed by annotation: a.ann:2: nest kfree 2" },
		{ "optional assume nest kfree 2\n", 16 + 2 * (64 + 128 + 96), true,
		  "assumed by annotation: a.ann:1: nest kfree 2" },
		{ "assume optional nest kfree 2\noptional assume once nosuch\n",
		  16 + 2 * (64 + 128 + 96), true,
		  "assumed by annotation: a.ann:1: nest kfree 2" },
		{ "assume recursion vec 3\n", 16 + 3 * (64 + 128 + 96), true,
		  "assumed by annotation: a.ann:1: recursion vec 3" },
		{ "assume ignore vec kfree\nassume frame vec 8\n", 16 + 64 + 128 + 8, true,
		  "assumed by annotation: a.ann:1: ignore vec kfree; "
		  "assumed by annotation: a.ann:2: frame vec 8" },
		/* main's calls go to a copy of kfree without its call to slab,
		 * which it rests on; kfree itself stays unbounded */
		{ "assume ignore kfree slab from main\n", 16 + 64, false,
		  "assumed by annotation: a.ann:1: ignore kfree slab from main" },
		{ "assume calls other leaf\n", 0, false, NULL },
		/* two lines on two functions: main rests on both */
		{ "assume nest kfree 2\nassume calls other leaf\n", 16 + 2 * (64 + 128 + 96),
		  true, "assumed by annotation: a.ann:1: nest kfree 2; "
		  "assumed by annotation: a.ann:2: calls other leaf" },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct sp_graph g;
		struct sp_err err = { { 0 } };
		uint32_t m, k, sl, v, o, l, k2;

		sp_graph_init(&g);
		m = fs(&g, "main", 16);
		k = fs(&g, "kfree", 64);
		sl = fs(&g, "slab", 128);
		v = fs(&g, "vec", 96);
		o = fs(&g, "other", 30);
		l = fs(&g, "leaf", 20);
		call(&g, m, k);
		call(&g, k, sl);
		call(&g, sl, v);
		call(&g, v, k);
		call(&g, m, o);
		call(&g, o, l);
		assert_int_equal(annotate(&g, cases[i].text, &err), 0);
		if (cases[i].main_total) {
			assert_true(g.funcs[m].res.bounded);
			assert_int_equal(g.funcs[m].res.total, cases[i].main_total);
			assert_assumed_by(&g, m, cases[i].reason);
		}
		assert_int_equal(g.funcs[k].res.assumed && g.funcs[k].res.bounded,
				 cases[i].kfree_assumed && cases[i].reason != NULL);
		/* other does not reach the cycle: never assumed by its lines */
		if (!strstr(cases[i].text, "calls other"))
			assert_assumed_by(&g, o, NULL);
		else	/* calls other leaf: other and main rest on it */
			assert_non_null(strstr(reason_of(&g, o), "a.ann:"));
		/* the lines and the witness agree on what rests on one */
		for (k2 = 0; k2 < g.nfuncs; k2++)
			assert_int_equal(g.funcs[k2].res.witness[SP_CAUSE_ASSUMPTION] != SP_NONE,
					 g.funcs[k2].res.assume_lines != 0);
		assert_int_equal(g.funcs[o].res.total, 30 + 20);
		assert_assumed_by(&g, l, NULL);
		sp_graph_release(&g);
	}
}

/* Through --indirect=address-taken's sets (no edges): the lines of a
 * target reach the caller, both as one reason each and as the witness. */
static void test_assume_through_sets(void **state)
{
	struct sp_graph g;
	struct sp_err err = { { 0 } };
	struct reasons r = { .n = 0 };
	uint32_t m, d, x, y, l;
	uint8_t taken[5] = { 0 };

	(void)state;
	sp_graph_init(&g);
	m = fs(&g, "main", 16);
	d = fs(&g, "dispatch", 64);
	x = fs(&g, "op_x", 100);
	y = fs(&g, "op_y", 300);
	l = fs(&g, "leaf", 8);
	g.funcs[d].n_indirect = 1;
	call(&g, m, d);
	call(&g, x, l);
	call(&g, y, l);
	sp_graph_finalize(&g);
	taken[x] = taken[y] = 1;
	sp_assume_address_taken(&g, taken);
	assert_int_equal(annotate(&g, "assume frame op_x 40\nassume ignore op_y leaf\n", &err), 0);
	assert_int_equal(g.funcs[m].res.total, 16 + 64 + 300);
	sp_reasons(&g, m, collect_reason, &r);
	assert_int_equal(r.n, 3);
	assert_string_equal(r.text[1], "assumed by annotation: a.ann:1: frame op_x 40");
	assert_string_equal(r.text[2], "assumed by annotation: a.ann:2: ignore op_y leaf");
	assert_assumed_by(&g, l, NULL);
	sp_graph_release(&g);
}

static void test_nest_per_errors(void **state)
{
	static const struct {
		const char *text, *msg;
	} cases[] = {
		{ "nest vaf per nosuch\n", "a.ann:1: unknown function 'nosuch'" },
		{ "nest vaf per h1 vaf\n", "a.ann:1: 'vaf' is its own holder" },
		{ "nest vaf 2\nnest vaf per h1\n", "a.ann:2: 'vaf' is counted both by "
		  "'nest ... per' and by once, nest or below" },
		{ "nest vaf per h1\nonce vaf\n", "a.ann:2: 'vaf' is counted both by "
		  "'nest ... per' and by once, nest or below" },
		{ "nest vaf per h1\nignore vsn prt below vaf\n", "a.ann:2: 'vaf' is counted "
		  "both by 'nest ... per' and by once, nest or below" },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct sp_graph g;
		struct sp_err err = { { 0 } };

		sp_graph_init(&g);
		pv_graph(&g);
		assert_int_equal(annotate(&g, cases[i].text, &err), -1);
		assert_string_equal(err.msg, cases[i].msg);
		sp_graph_release(&g);
	}
}

/*
 * ignore ... below: the call stays in the graph, listed for the solver,
 * and the ancestor becomes a once/nest function without a count (one
 * with a count keeps it).  panic -> unblank -> lock -> sleep; below
 * panic, unblank does not take the lock.
 */
static void test_ignore_below(void **state)
{
	struct sp_graph g;
	struct sp_err err = { { 0 } };
	uint32_t m, pn, ub, lk, sl;

	(void)state;
	sp_graph_init(&g);
	m = fs(&g, "main", 16);
	pn = fs(&g, "panic", 200);
	ub = fs(&g, "unblank", 8);
	lk = fs(&g, "lock", 24);
	sl = fs(&g, "sleep", 400);
	call(&g, m, pn);
	call(&g, m, ub);
	call(&g, pn, ub);
	call(&g, ub, lk);
	call(&g, lk, sl);
	assert_int_equal(annotate(&g, "ignore unblank lock below panic\n"
				  "optional ignore unblank lock below nosuch\n"
				  "optional ignore lock unblank below panic\n", &err), 0);
	assert_int_equal(g.nbelows, 1);
	assert_int_equal(g.belows[0].from, ub);
	assert_int_equal(g.belows[0].to, lk);
	assert_int_equal(g.belows[0].ancestor, pn);
	assert_int_equal(g.funcs[pn].nest, SP_NEST_CONTEXT);
	assert_int_equal(g.funcs[pn].res.total, 208);
	assert_int_equal(g.funcs[ub].res.total, 432);
	assert_int_equal(g.funcs[m].res.total, 16 + 432);
	sp_graph_release(&g);

	sp_graph_init(&g);
	pn = fs(&g, "panic", 200);
	ub = fs(&g, "unblank", 8);
	call(&g, pn, ub);
	call(&g, ub, pn);
	assert_int_equal(annotate(&g, "ignore unblank panic below panic\nnest panic 2\n",
				  &err), 0);
	assert_int_equal(g.funcs[pn].nest, 2);
	assert_int_equal(g.funcs[pn].res.total, 208);
	assert_true(g.funcs[pn].res.bounded);
	sp_graph_release(&g);
}

/*
 * ignore ... from: stop -> wake -> put -> stop is a cycle, but wake puts
 * only what stop queued, never the last reference: stop calls a copy of
 * wake without put, other callers (main) the whole of it.
 */
static void test_ignore_from(void **state)
{
	struct sp_graph g;
	struct sp_err err = { { 0 } };
	uint32_t m, st, wk, pt, ts, cp;

	(void)state;
	sp_graph_init(&g);
	m = fs(&g, "main", 16);
	st = fs(&g, "stop", 32);
	wk = fs(&g, "wake", 8);
	pt = fs(&g, "put", 100);
	ts = fs(&g, "ttwu", 40);
	call(&g, m, st);
	call(&g, m, wk);
	call(&g, st, wk);
	call(&g, wk, pt);
	call(&g, wk, ts);
	call(&g, pt, st);
	assert_int_equal(annotate(&g, "ignore wake put from stop\n"
				  "optional ignore wake put from nosuch\n"
				  "optional ignore wake nosuch from stop\n", &err), 0);
	assert_int_equal(g.nfuncs, 6);
	cp = 5;
	assert_string_equal(g.funcs[cp].name, "wake");
	assert_int_equal(g.funcs[cp].self, 8);
	/* the copy calls ttwu only; wake itself still calls put */
	assert_int_equal(g.funcs[cp].res.total, 8 + 40);
	assert_true(g.funcs[cp].res.bounded);
	assert_int_equal(g.funcs[st].res.total, 32 + 8 + 40);
	assert_true(g.funcs[st].res.bounded);
	assert_int_equal(g.funcs[pt].res.total, 100 + 32 + 8 + 40);
	assert_int_equal(g.funcs[wk].res.total, 8 + 100 + 32 + 8 + 40);
	assert_int_equal(g.funcs[m].res.total, 16 + 8 + 100 + 32 + 8 + 40);
	sp_graph_release(&g);

	/* a second line for the same caller changes its copy in place; a
	 * function counted by once, nest or below is not copied */
	sp_graph_init(&g);
	st = fs(&g, "stop", 32);
	wk = fs(&g, "wake", 8);
	pt = fs(&g, "put", 100);
	ts = fs(&g, "ttwu", 40);
	call(&g, st, wk);
	call(&g, wk, pt);
	call(&g, wk, ts);
	assert_int_equal(annotate(&g, "ignore wake put from stop\nignore wake ttwu from stop\n",
				  &err), 0);
	assert_int_equal(g.nfuncs, 5);
	assert_int_equal(g.funcs[st].res.total, 32 + 8);
	assert_int_equal(g.funcs[wk].res.total, 8 + 100);
	sp_graph_release(&g);

	sp_graph_init(&g);
	st = fs(&g, "stop", 32);
	wk = fs(&g, "wake", 8);
	pt = fs(&g, "put", 100);
	call(&g, st, wk);
	call(&g, wk, pt);
	/* a counted function's copy shares its count: it names its original */
	assert_int_equal(annotate(&g, "ignore wake put from stop\nonce wake\n", &err), 0);
	assert_int_equal(g.nfuncs, 4);
	assert_int_equal(g.funcs[3].nest, 1);
	assert_int_equal(g.funcs[3].original, wk);
	assert_int_equal(g.funcs[wk].original, SP_NONE);
	sp_graph_release(&g);

	/* a copy keeps the indirect calls: unbounded still, with the site */
	sp_graph_init(&g);
	st = fs(&g, "stop", 32);
	wk = fs(&g, "wake", 8);
	pt = fs(&g, "put", 100);
	call(&g, st, wk);
	call(&g, wk, pt);
	g.funcs[wk].n_indirect = 1;
	sp_graph_add_isite(&g)->func = wk;
	assert_int_equal(annotate(&g, "ignore wake put from stop\n", &err), 0);
	cp = 3;
	assert_string_equal(g.funcs[cp].name, "wake");
	assert_int_equal(g.funcs[cp].n_indirect, 1);
	assert_false(g.funcs[cp].res.bounded);
	assert_false(g.funcs[st].res.bounded);
	assert_int_equal(g.nisites, 2);
	assert_int_equal(g.isites[1].func, cp);
	sp_graph_release(&g);
}

/*
 * ignore ... from a chain: run -> delay -> dispatch -> run is a cycle,
 * but dispatch passes run a flag that run passes on, and with it delay
 * does not dispatch: dispatch calls a copy of run that calls a copy of
 * delay without dispatch; main's run and delay are whole.
 */
static void test_ignore_from_chain(void **state)
{
	struct sp_graph g;
	struct sp_annots a;
	struct sp_err err = { { 0 } };
	uint32_t m, rn, dl, dp, qw;

	(void)state;
	assert_int_equal(parse(&a, "ignore delay dispatch from run dispatch\n", &err), 0);
	assert_true(a.v[0].from);
	assert_int_equal(a.v[0].nnames, 3);
	assert_string_equal(a.v[0].names[0], "dispatch");
	assert_string_equal(a.v[0].names[1], "run");
	assert_string_equal(a.v[0].names[2], "dispatch");
	sp_annots_release(&a);

	sp_graph_init(&g);
	m = fs(&g, "main", 16);
	rn = fs(&g, "run", 24);
	dl = fs(&g, "delay", 40);
	dp = fs(&g, "dispatch", 100);
	qw = fs(&g, "queue", 8);
	call(&g, m, rn);
	call(&g, rn, dl);
	call(&g, dl, dp);
	call(&g, dl, qw);
	call(&g, dp, rn);
	assert_int_equal(annotate(&g, "ignore delay dispatch from run dispatch\n"
				  "optional ignore delay dispatch from run queue\n", &err), 0);
	/* the copies: dispatch's run, then its delay */
	assert_int_equal(g.nfuncs, 7);
	assert_string_equal(g.funcs[5].name, "run");
	assert_string_equal(g.funcs[6].name, "delay");
	assert_int_equal(g.funcs[6].res.total, 40 + 8);
	assert_int_equal(g.funcs[5].res.total, 24 + 40 + 8);
	assert_int_equal(g.funcs[dp].res.total, 100 + 24 + 40 + 8);
	assert_true(g.funcs[dp].res.bounded);
	assert_int_equal(g.funcs[dl].res.total, 40 + 100 + 24 + 40 + 8);
	assert_int_equal(g.funcs[m].res.total, 16 + 24 + 40 + 100 + 24 + 40 + 8);
	sp_graph_release(&g);

	/* a link that is no call is an error naming it */
	sp_graph_init(&g);
	rn = fs(&g, "run", 24);
	dl = fs(&g, "delay", 40);
	dp = fs(&g, "dispatch", 100);
	qw = fs(&g, "queue", 8);
	call(&g, rn, dl);
	call(&g, dl, dp);
	call(&g, dp, rn);
	call(&g, qw, dl);
	assert_int_equal(annotate(&g, "ignore delay dispatch from run queue\n", &err), -1);
	assert_string_equal(err.msg, "a.ann:1: no call from 'queue' to 'run'");
	sp_graph_release(&g);
}

/*
 * ignore ... below ... unless: the call happens again while a function
 * 'unless' names is on the stack.  main -> rescue -> panic -> unblank ->
 * lock -> sleep, and main -> panic: below panic alone unblank does not
 * lock; below rescue it does.
 */
static void test_ignore_below_unless(void **state)
{
	struct sp_graph g;
	struct sp_err err = { { 0 } };
	uint32_t m, rs, pn, ub, lk, sl;
	struct sp_annots a;

	(void)state;
	sp_graph_init(&g);
	m = fs(&g, "main", 16);
	rs = fs(&g, "rescue", 32);
	pn = fs(&g, "panic", 200);
	ub = fs(&g, "unblank", 8);
	lk = fs(&g, "lock", 24);
	sl = fs(&g, "sleep", 400);
	call(&g, m, pn);
	call(&g, m, rs);
	call(&g, rs, pn);
	call(&g, pn, ub);
	call(&g, ub, lk);
	call(&g, lk, sl);
	assert_int_equal(annotate(&g, "ignore unblank lock below panic unless rescue main\n",
				  &err), 0);
	assert_int_equal(g.nbelows, 1);
	assert_int_equal(g.belows[0].nunless, 2);
	assert_int_equal(g.below_unless[g.belows[0].unless_first], rs);
	assert_int_equal(g.funcs[rs].nest, SP_NEST_CONTEXT);
	assert_int_equal(g.funcs[pn].res.total, 208);
	assert_int_equal(g.funcs[rs].res.total, 32 + 200 + 8 + 24 + 400);
	assert_int_equal(g.funcs[m].res.total, 16 + 32 + 200 + 8 + 24 + 400);
	sp_graph_release(&g);

	assert_int_equal(parse(&a, "ignore f g below h unless i j\n", &err), 0);
	assert_int_equal(a.v[0].nnames, 4);
	assert_string_equal(a.v[0].names[0], "g");
	assert_string_equal(a.v[0].names[1], "h");
	assert_string_equal(a.v[0].names[2], "i");
	assert_string_equal(a.v[0].names[3], "j");
	sp_annots_release(&a);
}

/* FUNC/INLINED: where the '/' is, and the words that are none. */
static void test_inlined_word(void **state)
{
	(void)state;
	assert_int_equal(sp_annot_inlined_at("raise/wakeup_softirqd"), 5);
	assert_int_equal(sp_annot_inlined_at("kernel/softirq.c:raise/wakeup"), 22);
	assert_int_equal(sp_annot_inlined_at("f.constprop.0/g2"), 13);
	assert_int_equal(sp_annot_inlined_at("kernel/softirq.c:raise"), 0);
	assert_int_equal(sp_annot_inlined_at("<module code: a/b>"), 0);
	assert_int_equal(sp_annot_inlined_at("operator/="), 0);
	assert_int_equal(sp_annot_inlined_at("f/"), 0);
	assert_int_equal(sp_annot_inlined_at("/g"), 0);
	assert_int_equal(sp_annot_inlined_at("a.c:/g"), 0);
	assert_int_equal(sp_annot_inlined_at("f/1g"), 0);
	assert_int_equal(sp_annot_inlined_at("plain"), 0);
}

/*
 * --annotate NAME: a bare name that is not a file is the shipped NAME.ann,
 * beside an installed binary (BINDIR/../share/stackprof), or in the
 * source tree's annotations/ for a binary inside the tree it was built
 * from (this test's own binary).
 */
static void test_shipped_files(void **state)
{
	char dir[] = "/tmp/stackprof-find.XXXXXX", path[256], *found;
	struct sp_annots a;
	struct sp_err err = { { 0 } };
	FILE *fp;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/bin", dir);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/share", dir);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/share/stackprof", dir);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/share/stackprof/tiny.ann", dir);
	assert_non_null(fp = fopen(path, "w"));
	fputs("once f\nnest g 2\n", fp);
	fclose(fp);
	snprintf(path, sizeof(path), "%s/bin/stackprof", dir);
	assert_non_null(fp = fopen(path, "w"));
	fclose(fp);

	sp_annots_init(&a);
	assert_int_equal(sp_annot_load_named(&a, "tiny", path, &err), 0);
	assert_int_equal(a.n, 2);
	assert_int_equal(a.v[1].value, 2);
	assert_non_null(strstr(a.v[0].file, "/bin/../share/stackprof/tiny.ann"));
	assert_int_equal(sp_annot_load_named(&a, "absent", path, &err), -1);
	assert_non_null(strstr(err.msg, "no annotation file 'absent': not a file, and no '"));
	assert_non_null(strstr(err.msg, "/bin/../share/stackprof/absent.ann'"));
	/* a path is a path, never a shipped name */
	assert_int_equal(sp_annot_load_named(&a, "./tiny", path, &err), -1);
	assert_non_null(strstr(err.msg, "unable to open './tiny'"));
	sp_annots_release(&a);

	/* this binary lies in the source tree: its annotations/ */
	found = sp_annot_shipped_path("linux", NULL);
	assert_non_null(found);
	assert_non_null(strstr(found, "/annotations/linux.ann"));
	assert_null(strstr(found, "share/stackprof"));
	free(found);
	sp_annots_init(&a);
	assert_int_equal(sp_annot_load_named(&a, "linux", NULL, &err), 0);
	assert_true(a.n > 0);
	sp_annots_release(&a);

	snprintf(path, sizeof(path), "rm -rf '%s'", dir);
	assert_int_equal(system(path), 0);
}

/* The assumed targets of from, as one sorted list. */
static size_t targets(const struct sp_graph *g, uint32_t from, uint32_t *out, size_t max)
{
	uint32_t *t;
	size_t n = sp_assumed_targets(g, from, NULL, &t);

	assert_true(n <= max);
	if (n)
		memcpy(out, t, n * sizeof(*t));
	free(t);
	return n;
}

/* --indirect=address-taken: every taken function is a target, in a set
 * the solver reads as it is, and becomes an edge flagged assumed when a
 * report lists the edges; a 'calls' annotation replaces them. */
static void test_address_taken(void **state)
{
	struct sp_graph g;
	struct sp_err err = { { 0 } };
	struct sp_annots a;
	uint32_t m, d, x, y, z, t[5];
	uint8_t taken[5] = { 0 };
	struct reasons r = { .n = 0 };

	(void)state;
	sp_graph_init(&g);
	m = fs(&g, "main", 16);
	d = fs(&g, "dispatch", 64);
	x = fs(&g, "op_x", 100);
	y = fs(&g, "op_y", 300);
	z = fs(&g, "op_z", 50);
	g.funcs[d].n_indirect = 2;
	call(&g, m, d);
	call(&g, d, x);		/* a direct call stays unflagged */
	sp_graph_finalize(&g);
	taken[x] = taken[y] = taken[z] = 1;
	assert_int_equal(sp_assume_address_taken(&g, taken), 3);
	assert_int_equal(targets(&g, d, t, 5), 3);
	assert_int_equal(t[0], x);
	assert_int_equal(t[2], z);
	assert_true(sp_assumes(&g, d, y));
	assert_false(sp_assumes(&g, m, y));
	assert_int_equal(sp_analyze(&g, &err), 0);
	assert_int_equal(g.funcs[d].edge_count, 1);	/* no edge per target */
	assert_int_equal(sp_assumed_edges(&g), 2);	/* d -> x is there already */
	assert_true(g.funcs[d].res.bounded);
	assert_true(g.funcs[d].res.assumed);
	assert_true(g.funcs[m].res.assumed);
	assert_false(g.funcs[x].res.assumed);
	assert_int_equal(g.funcs[d].res.total, 64 + 300);
	assert_int_equal(g.funcs[d].res.next_flags, SP_EDGE_F_ASSUMED);
	sp_reasons(&g, m, collect_reason, &r);
	assert_int_equal(r.n, 1);
	assert_string_equal(r.text[0], "indirect call in dispatch: targets assumed "
			    "(every address-taken function)");
	/* as edges: the direct call to op_x stays unflagged */
	sp_graph_expand_assumed(&g, SP_NONE);
	assert_int_equal(g.funcs[d].edge_count, 3);
	assert_int_equal(g.edges[g.funcs[d].edge_first].to, x);
	assert_int_equal(g.edges[g.funcs[d].edge_first].flags, 0);
	assert_int_equal(g.edges[g.funcs[d].edge_first + 1].flags, SP_EDGE_F_ASSUMED);

	assert_int_equal(parse(&a, "calls dispatch op_z\n", &err), 0);
	assert_int_equal(sp_annot_apply(&a, &g, &err), 0);
	sp_annots_release(&a);
	assert_int_equal(sp_analyze(&g, &err), 0);
	assert_false(g.funcs[d].res.assumed);
	assert_int_equal(g.funcs[d].res.total, 64 + 100);	/* op_x, the direct call */
	assert_int_equal(g.funcs[d].edge_count, 2);
	sp_graph_release(&g);
}

/* Typed call sites narrow the targets to their prototypes (and to the
 * functions whose prototype is unknown); one untyped site widens them
 * back to every taken function. */
static void test_address_taken_by_prototype(void **state)
{
	struct sp_graph g;
	struct sp_err err = { { 0 } };
	uint32_t un, bin, two, a, b, c, u, t[7];
	uint8_t taken[7] = { 0 };
	struct reasons r = { .n = 0 };
	const char *p_un, *p_bin;

	(void)state;
	sp_graph_init(&g);
	p_un = sp_intern(&g, "int(int)");
	p_bin = sp_intern(&g, "long(long,long)");
	un = fs(&g, "apply_un", 16);
	bin = fs(&g, "apply_bin", 16);
	two = fs(&g, "two_sites", 16);
	a = fs(&g, "inc", 100);
	b = fs(&g, "add", 800);
	c = fs(&g, "mul", 400);
	u = fs(&g, "asm_thing", 10);	/* no DWARF: its prototype is unknown */
	g.funcs[a].proto = p_un;
	g.funcs[b].proto = p_bin;
	g.funcs[c].proto = p_bin;
	g.funcs[un].n_indirect = 1;
	g.funcs[bin].n_indirect = 1;
	g.funcs[two].n_indirect = 2;	/* one of them typed */
	sp_graph_add_icall(&g, bin, p_bin);
	sp_graph_add_icall(&g, two, p_un);
	sp_graph_add_icall(&g, un, p_un);
	sp_graph_finalize(&g);
	taken[a] = taken[b] = taken[c] = taken[u] = 1;
	assert_int_equal(sp_assume_address_taken(&g, taken), 2 + 3 + 4);
	assert_int_equal(targets(&g, un, t, 7), 2);	/* inc, asm_thing */
	assert_int_equal(t[0], a);
	assert_int_equal(t[1], u);
	assert_int_equal(targets(&g, bin, t, 7), 3);	/* add, mul, asm_thing */
	assert_int_equal(t[0], b);
	assert_int_equal(t[1], c);
	assert_int_equal(t[2], u);
	assert_int_equal(targets(&g, two, t, 7), 4);
	assert_true(g.funcs[un].flags & SP_F_INDIRECT_TYPED);
	assert_false(g.funcs[two].flags & SP_F_INDIRECT_TYPED);
	assert_int_equal(sp_analyze(&g, &err), 0);
	assert_int_equal(g.funcs[un].res.total, 16 + 100);
	assert_int_equal(g.funcs[bin].res.total, 16 + 800);
	assert_int_equal(g.funcs[two].res.total, 16 + 800);
	sp_reasons(&g, un, collect_reason, &r);
	assert_int_equal(r.n, 1);
	assert_string_equal(r.text[0], "indirect call in apply_un: targets assumed "
			    "(the address-taken functions of its prototype)");
	sp_graph_release(&g);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_good),
		cmocka_unit_test(test_parse_assume),
		cmocka_unit_test(test_assume_marks),
		cmocka_unit_test(test_assume_through_sets),
		cmocka_unit_test(test_parse_nest_per),
		cmocka_unit_test(test_nest_per),
		cmocka_unit_test(test_nest_per_errors),
		cmocka_unit_test(test_parse_errors),
		cmocka_unit_test(test_load_missing),
		cmocka_unit_test(test_apply_unknown_names),
		cmocka_unit_test(test_apply_frame_calls_ignore_entry),
		cmocka_unit_test(test_recursion_depth),
		cmocka_unit_test(test_recursion_without_depth),
		cmocka_unit_test(test_optional_lines),
		cmocka_unit_test(test_once_and_nest),
		cmocka_unit_test(test_ignore_below),
		cmocka_unit_test(test_ignore_below_unless),
		cmocka_unit_test(test_ignore_from),
		cmocka_unit_test(test_ignore_from_chain),
		cmocka_unit_test(test_inlined_word),
		cmocka_unit_test(test_shipped_files),
		cmocka_unit_test(test_address_taken),
		cmocka_unit_test(test_address_taken_by_prototype),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
