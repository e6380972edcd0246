/*
 * main.c - parse the command line and wire the stages:
 *
 *	ELF, DWARF, code (elf/, dwarf/, insn/) -> graph (callgraph/)
 *	-> frames (su/, frames/) -> solver (analysis/) -> reports (report/)
 *
 * Only this file (with options.c, the command line) prints errors and
 * chooses the exit status.
 */
#include <inttypes.h>
#include <limits.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "analysis/analysis.h"
#include "annotate/annotate.h"
#include "callgraph/callgraph.h"
#include "common/atomic.h"
#include "common/size.h"
#include "common/xalloc.h"
#include "frames/frames.h"
#include "indirect/indirect.h"
#include "report/diff.h"
#include "report/graphviz.h"
#include "report/html.h"
#include "report/report.h"
#include "report/vla.h"
#include "stackprof.h"
#include "src/options.h"
#include "su/su.h"

static void print_warning(void *ctx, const char *msg)
{
	(void)ctx;
	fprintf(stderr, "stackprof: warning: %s\n", msg);
}

static void print_note(void *ctx, const char *msg)
{
	(void)ctx;
	fprintf(stderr, "stackprof: %s\n", msg);
}

/* The .su files named or found, their rows given to the functions: the
 * frames they say in *frames.  Without .su files named, each image's are
 * looked for beside its compile units and itself. */
static int read_su(struct sp_graph *g, const struct options *o,
		   struct cg_image *const *imgs, struct sp_frames *frames, struct sp_err *err)
{
	struct su_image *v = sp_xcalloc(o->elfs.n, sizeof(*v));
	struct su_request r = {
		o->su_paths.v, o->su_paths.n, o->su_dirs.v, o->su_dirs.n, v, o->elfs.n,
		o->keep_going, print_warning, o->verbose ? print_note : NULL, NULL,
	};
	size_t i;
	int ret;

	for (i = 0; i < o->elfs.n; i++) {
		v[i].path = o->elfs.v[i];
		cg_units(imgs[i], &v[i].cu_first, &v[i].ncus);
	}
	ret = su_read(g, &r, frames, err);
	free(v);
	return ret;
}

/* -v: the unknown frames that make the most totals partial. */
static void print_unknown(const struct sp_graph *g)
{
	struct sp_unknown_rank top[8];
	size_t n = sp_unknown_ranking(g, top, 8), i;

	if (!n)
		return;
	fprintf(stderr, "stackprof: unknown frames: %zu make totals partial; the totals that "
		"reach each:", n);
	for (i = 0; i < n && i < 8; i++)
		fprintf(stderr, "%s %s %u", i ? "," : "", sp_func_label(&g->funcs[top[i].func]),
			top[i].totals);
	fputc('\n', stderr);
}

/* -v: what the once/nest solver did, when there was something to do. */
static void print_nest(const struct sp_graph *g)
{
	const struct sp_nest_stats *n = &g->nest;

	if (!n->functions)
		return;
	fprintf(stderr, "stackprof: once/nest: %u functions, %u contexts (%u solves)",
		n->functions, n->contexts, n->solves);
	if (n->pooled + n->forgotten + n->since)
		fprintf(stderr, " (coarse: over the limit of %u of exact counts, %u functions counted in "
			"one budget per cycle, of at most %u activations, %u ancestors not known", n->exact_limit,
			n->pooled, n->budget, n->forgotten);
	if (n->since)
		fprintf(stderr, ", %u known only since the budget's last activation", n->since);
	if (n->pooled + n->forgotten + n->since)
		fputc(')', stderr);
	fputc('\n', stderr);
}

/* -v: the recursions no annotation bounds, and the largest of them. */
static void print_cycles(const struct sp_graph *g)
{
	struct sp_cycle_stats c;

	sp_cycle_stats(g, &c);
	if (!c.components)
		return;
	fprintf(stderr, "stackprof: cycles: %u no annotation bounds, the largest of %u "
		"functions (%s); %u totals unbounded by them\n", c.components, c.largest,
		sp_func_label(&g->funcs[c.largest_root]), c.unbounded);
}

/* -v: the 'assume' lines applied, and the totals resting on them (the
 * bounded ones: those the lines may have made so). */
static void print_assumes(const struct sp_graph *g)
{
	uint32_t i, rest = 0, bounded = 0;

	if (!g->nassume_lines)
		return;
	for (i = 0; i < g->nfuncs; i++)
		if (g->funcs[i].res.assume_lines) {
			rest++;
			bounded += g->funcs[i].res.bounded;
		}
	fprintf(stderr, "stackprof: assume: %u %s applied; %u totals rest on them, "
		"%u of them bounded\n", g->nassume_lines,
		g->nassume_lines == 1 ? "line" : "lines", rest, bounded);
}

static void print_stats(const struct sp_graph *g, struct cg_image *const *imgs,
			size_t n, uint32_t linked, const struct frame_stats *fs)
{
	struct cg_stats s = { 0 };
	size_t i;

	for (i = 0; i < n; i++) {
		const struct cg_stats *t = cg_stats(imgs[i]);

		s.call_sites += t->call_sites;
		s.edges_decoded += t->edges_decoded;
		s.indirect += t->indirect;
		s.orphan_sites += t->orphan_sites;
		s.disasm_edges += t->disasm_edges;
		s.disasm_completed += t->disasm_completed;
		s.split_units += t->split_units;
	}
	fprintf(stderr, "stackprof: %u functions, %" PRIu64 " edges, %u compile units; "
		"%u call sites (%u decoded, %u indirect, %u outside functions); "
		"code: %u more call pairs, %u functions completed; "
		".su: %u rows in %u files, %u matched\n",
		g->nfuncs, g->nedges + sp_assumed_edges(g), g->ncus, s.call_sites, s.edges_decoded,
		s.indirect, s.orphan_sites, s.disasm_edges, s.disasm_completed,
		g->su_rows, g->su_files, g->su_matched);
	if (fs->from[SP_SRC_ORC] || fs->orc_not_sp || fs->checked[SP_SRC_ORC])
		fprintf(stderr, "stackprof: ORC: %u frames where .su has none (%u more "
			"functions not on the stack pointer), %u of %u .su frames and "
			"%u of %u CFI frames agree with it (%u CFI frames smaller)\n",
			fs->from[SP_SRC_ORC], fs->orc_not_sp, fs->agree[SP_SRC_ORC],
			fs->checked[SP_SRC_ORC], fs->orc_cfi_agree, fs->orc_cfi_checked,
			fs->orc_cfi_less);
	fprintf(stderr, "stackprof: CFI: %u frames where .su%s has none, %u of %u "
		".su frames agree with it; red zone: %u leaves\n", fs->from[SP_SRC_CFI],
		fs->from[SP_SRC_ORC] ? " and ORC" : "", fs->agree[SP_SRC_CFI],
		fs->checked[SP_SRC_CFI], fs->red_zones);
	fprintf(stderr, "stackprof: code: %u frames where no other source has one, %u of %u "
		"static .su frames agree with it\n", fs->from[SP_SRC_CODE],
		fs->agree[SP_SRC_CODE], fs->checked[SP_SRC_CODE]);
	if (s.split_units)
		fprintf(stderr, "stackprof: DWARF: %u of %u compile units walked by a "
			"second thread\n", s.split_units, g->ncus);
	if (n > 1)
		fprintf(stderr, "stackprof: %zu ELF inputs, %u calls linked by name "
			"between them\n", n, linked);
}

/* The DWARF walk's progress line: only on a terminal and only once the
 * run has taken STACKPROF_PROGRESS_DELAY seconds (default 1), so that
 * pipes, files and quick runs stay silent. */
struct progress {
	struct timespec start;
	double delay;
	bool shown;
};

static void show_progress(void *arg, const char *path, uint32_t done, uint32_t total)
{
	struct progress *p = arg;
	struct timespec now;

	if (done >= total) {
		if (p->shown)
			fputs("\r\033[K", stderr);	/* the line goes when the walk ends */
		p->shown = false;
		return;
	}
	clock_gettime(CLOCK_MONOTONIC, &now);
	if ((double)(now.tv_sec - p->start.tv_sec) +
	    (double)(now.tv_nsec - p->start.tv_nsec) / 1e9 < p->delay)
		return;
	fprintf(stderr, "\rstackprof: %s: %u/%u compile units read", path, done, total);
	p->shown = true;
}

static void setup_progress(struct cg_options *cg, struct progress *p)
{
	const char *delay = getenv("STACKPROF_PROGRESS_DELAY");

	if (!isatty(STDERR_FILENO))
		return;
	clock_gettime(CLOCK_MONOTONIC, &p->start);
	p->delay = delay && *delay ? strtod(delay, NULL) : 1.0;
	p->shown = false;
	cg->progress = show_progress;
	cg->progress_arg = p;
}

static void print_typed(const struct ind_stats *st, uint32_t ntaken)
{
	uint64_t precise = st->targets[SP_RES_TABLE] + st->targets[SP_RES_FIELD], all = 0;
	uint32_t nprecise = st->by[SP_RES_TABLE] + st->by[SP_RES_FIELD];
	int r;

	for (r = SP_RES_TABLE; r < SP_RES__COUNT; r++)
		all += st->targets[r];

	fprintf(stderr, "stackprof: indirect calls: %u sites:", st->sites);
	for (r = SP_RES_TABLE; r < SP_RES__COUNT; r++)
		if (r != SP_RES_ANNOTATION)
			fprintf(stderr, "%s %u %s", r == SP_RES_TABLE ? "" : ",", st->by[r],
				sp_resolved_name((enum sp_resolved)r));
	fprintf(stderr, " (%u switches left out)\n", st->switches);
	fprintf(stderr, "stackprof: indirect calls: mean targets per site: table or field "
		"%.1f, argument %.1f, prototype %.1f, exported %.1f, all %.1f; %u address-taken "
		"functions (%u of no prototype known declared only as objects)\n",
		nprecise ? (double)precise / nprecise : 0.0,
		st->by[SP_RES_ARGUMENT] ?
		(double)st->targets[SP_RES_ARGUMENT] / st->by[SP_RES_ARGUMENT] : 0.0,
		st->by[SP_RES_PROTOTYPE] ?
		(double)st->targets[SP_RES_PROTOTYPE] / st->by[SP_RES_PROTOTYPE] : 0.0,
		st->by[SP_RES_EXPORTED] ?
		(double)st->targets[SP_RES_EXPORTED] / st->by[SP_RES_EXPORTED] : 0.0,
		st->sites ? (double)all / st->sites : 0.0, ntaken, st->object_decls);
	fprintf(stderr, "stackprof: indirect calls: %u struct members hold functions (%u "
		"written with values of unknown origin), %u of %u function stores typed, "
		"%llu assumed edges; %u field sites narrowed by the objects a pointer member "
		"holds\n", st->keys, st->escaped, st->stores_typed, st->stores,
		(unsigned long long)st->edges, st->narrowed);
	fprintf(stderr, "stackprof: indirect calls: prototype sites: %u through members "
		"written with values of unknown origin, %u members empty but of a struct a parameter "
		"holds, %u members empty, %u words, %u arguments not every caller says, %u only "
		"a function type known\n", st->why[IND_WHY_ESCAPED], st->why[IND_WHY_LOCAL],
		st->why[IND_WHY_EMPTY], st->why[IND_WHY_WORD], st->why[IND_WHY_ARGUMENT],
		st->why[IND_WHY_TYPE]);
}

/* What --indirect did: -v's counts, and the annotations it left out. */
static void print_indirect(const struct ind_summary *s, bool verbose)
{
	if (verbose && s->resolved && s->mode == IND_ADDRESS_TAKEN)
		fprintf(stderr, "stackprof: %u address-taken functions, %" PRIu64 " assumed "
			"indirect call edges, %u call sites typed\n", s->ntaken, s->added,
			s->nicalls);
	if (verbose && s->resolved && s->mode == IND_TYPES)
		print_typed(&s->st, s->ntaken);
	if (s->nest_dropped)
		fprintf(stderr, "stackprof: note: once/nest annotations of %u functions "
			"not applied with --indirect=address-taken\n", s->nest_dropped);
	if (s->belows_dropped)
		fprintf(stderr, "stackprof: note: %u 'ignore ... below' calls not dropped "
			"with --indirect=address-taken\n", s->belows_dropped);
}

/* Every function's frame, from the .su rows, the annotations and what
 * the images show, and what makes a dynamic one dynamic. */
static int decide_frames(struct sp_graph *g, struct cg_image *const *imgs, size_t n,
			 const struct options *o, const struct sp_annots *annots,
			 struct frame_stats *st, struct sp_err *err)
{
	struct frame_opts fo = { .cfi_lookup = (enum dw_cfi_lookup)o->cfi_lookup,
				 .compare = o->verbose, .warn = print_warning };
	struct sp_frames su = { 0 }, annot = { 0 };
	int ret = -1;

	if ((!o->no_su && read_su(g, o, imgs, &su, err)) || sp_annot_frames(annots, g, &annot, err))
		goto out;
	frames_decide(g, imgs, n, &annot, &su, &fo, st);
	frames_describe(g, imgs, n);
	if (o->vla)
		frames_find_vlas(g, imgs, n);
	ret = 0;
out:
	sp_frames_release(&su);
	sp_frames_release(&annot);
	return ret;
}

/* Is (func, callee) in reqs already? */
static bool inlined_req_known(const struct cg_inline_req *reqs, size_t n,
			      const char *func, const char *callee)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(reqs[i].func, func) && !strcmp(reqs[i].callee, callee))
			return true;
	return false;
}

/* The inlined copies the annotations name (FUNC/INLINED words), for the
 * graph builder: FUNC's name without its FILE: part, once however many
 * lines name it (each request makes a node).  *words holds the strings
 * to free. */
static size_t inlined_reqs(const struct sp_annots *a, struct cg_inline_req **out,
			   char ***words)
{
	size_t i, k, n = 0, cap = 0;

	*out = NULL;
	*words = NULL;
	for (i = 0; i < a->n; i++)
		for (k = 0; k <= a->v[i].nnames; k++) {
			const char *w = k ? a->v[i].names[k - 1] : a->v[i].func;
			size_t slash = sp_annot_inlined_at(w);
			const char *colon;
			char *copy;

			if (!slash)
				continue;
			copy = sp_xstrdup(w);
			copy[slash] = '\0';
			colon = strrchr(copy, ':');
			if (inlined_req_known(*out, n, colon ? colon + 1 : copy,
					      copy + slash + 1)) {
				free(copy);
				continue;
			}
			SP_ALLOC_GROW(*out, n + 1, cap);
			(*out)[n] = (struct cg_inline_req){ colon ? colon + 1 : copy,
							    copy + slash + 1 };
			*words = sp_xrealloc(*words, (n + 1) * sizeof(**words));
			(*words)[n++] = copy;
		}
	return n;
}

/*
 * The stages in the order the data flows: each image's ELF, DWARF and
 * code into the graph (callgraph/), calls between images linked, frames
 * decided (su/, frames/), kernel entries marked, indirect calls resolved
 * (indirect/) and the annotations' edges, then the solver (analysis/).
 */
static int load(struct sp_graph *g, const struct options *o,
		const struct sp_annots *annots, struct sp_err *err)
{
	struct cg_image **imgs = sp_xcalloc(o->elfs.n, sizeof(*imgs));
	size_t n = o->elfs.n;
	struct cg_options cg = o->cg;
	struct cg_inline_req *reqs;
	char **req_words;
	struct frame_stats fs;
	struct progress progress;
	struct ind_policy *ind = NULL;
	struct ind_summary is;
	uint32_t linked = 0;
	bool resolved;
	size_t i;
	int ret = -1;

	cg.addr_taken = o->indirect != IND_NONE;
	cg.typed = o->indirect == IND_TYPES;
	cg.ninlined = inlined_reqs(annots, &reqs, &req_words);
	cg.inlined = reqs;
	setup_progress(&cg, &progress);
	for (i = 0; i < o->elfs.n; i++)
		if (cg_open(&imgs[i], o->elfs.v[i], err) || cg_load(imgs[i], g, &cg, err))
			goto out;
	if (!o->no_libs) {
		cg_load_libs(&imgs, &n, g, &cg, o->sysroot, print_warning, NULL);
		cg_lazy_binding(imgs, n, g);
	}
	g->binary = sp_intern(g, o->elfs.v[0]);
	g->nest_limit = o->nest_limit;
	if (n > 1)
		cg_link(imgs, n, g, &linked);
	if (n > o->elfs.n)
		cg_lib_callbacks(imgs, n, g);
	ind = ind_begin((enum ind_mode)o->indirect, g, imgs, n, o->json);
	if (decide_frames(g, imgs, n, o, annots, &fs, err))
		goto out;
	cg_add_exceptions(imgs, n, g);
	if (o->kernel_summary)
		cg_mark_kernel_entries(imgs, n, g);
	resolved = !ind_resolve(ind, annots, &is, err);
	ind = NULL;
	print_indirect(&is, o->verbose);
	if (!resolved || sp_analyze(g, err))
		goto out;
	if (o->verbose) {	/* the edges counted once the solver merged them */
		print_stats(g, imgs, n, linked, &fs);
		print_unknown(g);
		print_cycles(g);
		print_nest(g);
		print_assumes(g);
	}
	ret = 0;
out:
	ind_release(ind);
	for (i = 0; i < n; i++)
		cg_close(imgs[i]);
	free(imgs);
	for (i = 0; i < cg.ninlined; i++)
		free(req_words[i]);
	free(req_words);
	free(reqs);
	return ret;
}

static int resolve_entries(const struct sp_graph *g, const struct options *o,
			   uint32_t **ids, size_t *n, struct sp_err *err)
{
	size_t i, cap = 0;

	*ids = NULL;
	*n = 0;
	for (i = 0; i < o->entries.n; i++)
		if (sp_find_entries(g, o->entries.v[i], ids, n, &cap, err))
			return -1;
	for (i = 0; i < o->entry_globs.n; i++)
		if (sp_find_entries_glob(g, o->entry_globs.v[i], ids, n, &cap, err))
			return -1;
	return 0;
}

/* What each writer reads. */
struct out_ctx {
	const struct sp_graph *g;
	const struct options *o;
	const struct sp_report_opts *ro;
	const struct sp_gv_opts *go;
	struct sp_gv *gv;
};

typedef int writer_fn(const struct out_ctx *c, FILE *fp, struct sp_err *err);

static int write_dot(const struct out_ctx *c, FILE *fp, struct sp_err *err)
{
	return sp_gv_render(c->gv, c->g, c->go, "dot", fp, err);
}

static int write_svg(const struct out_ctx *c, FILE *fp, struct sp_err *err)
{
	return sp_gv_render(c->gv, c->g, c->go, "svg", fp, err);
}

static int write_png(const struct out_ctx *c, FILE *fp, struct sp_err *err)
{
	return sp_gv_render(c->gv, c->g, c->go, "png", fp, err);
}

static int write_sarif(const struct out_ctx *c, FILE *fp, struct sp_err *err)
{
	return sp_report_sarif(c->g, c->ro, fp, err);
}

static int write_html(const struct out_ctx *c, FILE *fp, struct sp_err *err)
{
	return sp_report_html(c->gv, c->g, c->ro, c->go, fp, err);
}

static int write_folded(const struct out_ctx *c, FILE *fp, struct sp_err *err)
{
	return sp_report_folded(c->g, c->ro, fp, err);
}

static int write_vla(const struct out_ctx *c, FILE *fp, struct sp_err *err)
{
	return sp_report_vla(c->g, c->o->json ? SP_VLA_JSON : (enum sp_vla_format)c->o->vla_format,
			     fp, err);
}

static int write_json(const struct out_ctx *c, FILE *fp, struct sp_err *err)
{
	return sp_report_json(c->g, c->ro, fp, err);
}

static int write_kernel(const struct out_ctx *c, FILE *fp, struct sp_err *err)
{
	return sp_report_kernel_text(c->g, c->ro, fp, err);
}

static int write_text(const struct out_ctx *c, FILE *fp, struct sp_err *err)
{
	return sp_report_text(c->g, c->ro, fp, err);
}

/*
 * The outputs, one row per format: the option that names it (a file
 * option's path, or a report format's bool: the report goes to -o or
 * stdout, in the first format whose option is given, text when none),
 * its writer, whether it draws with Graphviz, and whether it lists every
 * call (JSON's "calls", the pictures' edges: --indirect=address-taken's
 * sets are then written out as edges).
 */
struct writer {
	const char *name;
	size_t opt;		/* offsetof(struct options, ...); 0: text */
	writer_fn *write;
	bool gv, edges;
};

#define OPT(f) offsetof(struct options, f)
static const struct writer files[] = {
	{ "dot", OPT(dot), write_dot, false, true },
	{ "svg", OPT(svg), write_svg, true, true },
	{ "png", OPT(png), write_png, true, true },
	{ "sarif", OPT(sarif), write_sarif, false, false },
	{ "html", OPT(html), write_html, true, true },
	{ "folded", OPT(folded), write_folded, false, false },
};
static const struct writer reports[] = {
	{ "vla", OPT(vla), write_vla, false, false },
	{ "json", OPT(json), write_json, false, true },
	{ "kernel", OPT(kernel_summary), write_kernel, false, false },
	{ "text", 0, write_text, false, false },
};
#define NFILES (sizeof(files) / sizeof(files[0]))

static const char *file_path(const struct options *o, const struct writer *w)
{
	return *(const char *const *)((const char *)o + w->opt);
}

static const struct writer *report_format(const struct options *o)
{
	const struct writer *w = reports;

	while (w->opt && !*(const bool *)((const char *)o + w->opt))
		w++;
	return w;
}

/* Does an output list every call?  Then the assumed sets become edges. */
static bool lists_edges(const struct options *o)
{
	size_t i;

	for (i = 0; i < NFILES; i++)
		if (file_path(o, &files[i]) && files[i].edges)
			return true;
	return report_format(o)->edges;
}

/*
 * The files and the report (-o or stdout): every file is written to a
 * temporary first and only renamed once all of them are whole, so that an
 * exit 2 leaves no output behind; stdout comes last for the same reason.
 * One graphviz context serves every picture (see report/graphviz.h).
 */
static int write_outputs(const struct sp_graph *g, const struct options *o,
			 const struct sp_report_opts *ro, struct sp_err *err)
{
	struct sp_gv_opts go = {
		.view = (enum sp_gv_view)o->view, .roots = ro->entries, .nroots = ro->nentries,
		.top = o->graph_top, .depth = o->depth, .min_total = o->min_total, .all = o->all,
		.has_budget = o->has_budget, .budget = o->budget,
	};
	struct out_ctx c = { g, o, ro, &go, NULL };
	const struct writer *w[NFILES + 1];
	const char *paths[NFILES + 1];
	struct sp_atomic out[NFILES + 1] = { { 0 } };
	size_t i, n = 0;
	int ret = -1;

	for (i = 0; i < NFILES; i++)
		if ((paths[n] = file_path(o, &files[i])))
			w[n++] = &files[i];
	paths[n] = o->output;
	w[n++] = report_format(o);
	for (i = 0; i < n && !c.gv; i++)
		if (w[i]->gv && !(c.gv = sp_gv_new(err)))
			return -1;
	for (i = 0; i < n; i++)
		if ((paths[i] && sp_atomic_open(&out[i], paths[i], err)) ||
		    w[i]->write(&c, paths[i] ? out[i].fp : stdout, err))
			goto out_abort;
	if (!o->output && fflush(stdout))
		goto out_abort;
	for (i = 0; i < n; i++)
		if (paths[i] && sp_atomic_commit(&out[i], err))
			goto out_abort;
	ret = 0;
out_abort:
	/* committed files stay (a rename cannot be undone); the rest go */
	for (i = 0; i < n; i++)
		if (paths[i])
			sp_atomic_abort(&out[i]);
	sp_gv_free(c.gv);
	return ret;
}

static int run(const struct options *o, struct sp_graph *g, struct sp_err *err)
{
	struct sp_report_opts ro = {
		.top = o->top, .has_budget = o->has_budget, .budget = o->budget,
		.allow_unbounded = o->allow_unbounded, .kernel_summary = o->kernel_summary,
		.all_paths = o->json_paths_all,
	};
	uint32_t *entries = NULL;
	size_t nentries = 0, i;
	struct sp_annots annots;
	int ret = -1;

	sp_annots_init(&annots);
	for (i = 0; i < o->annotate.n; i++)
		if (sp_annot_load_named(&annots, o->annotate.v[i], NULL, err))
			goto out;
	if (load(g, o, &annots, err) || resolve_entries(g, o, &entries, &nentries, err))
		goto out;
	ro.entries = entries;
	ro.nentries = nentries;
	if (lists_edges(o))
		sp_graph_expand_assumed(g, SP_NONE);
	if (write_outputs(g, o, &ro, err))
		goto out;
	ret = 0;
	/* also without --budget: an annotated entry has its own */
	if (sp_report_budget(g, &ro, stderr))
		ret = EXIT_BUDGET;
out:
	sp_annots_release(&annots);
	free(entries);
	return ret;
}

/* --diff: no ELF, two reports; exit 1 when a total grew past the limit. */
static int run_diff(const struct options *o, struct sp_err *err)
{
	struct sp_diff d;
	struct sp_atomic out = { 0 };
	int ret = -1;

	sp_diff_init(&d);
	if (sp_diff_load(&d, o->diff_old, o->diff_new, err))
		goto out;
	if (o->output) {
		if (sp_atomic_open(&out, o->output, err) ||
		    sp_diff_print(&d, out.fp, err) || sp_atomic_commit(&out, err))
			goto out_abort;
	} else if (sp_diff_print(&d, stdout, err) || fflush(stdout)) {
		goto out;
	}
	ret = 0;
	if (o->has_growth_limit && d.max_growth > 0 &&
	    (uint64_t)d.max_growth > o->growth_limit) {
		fprintf(stderr, "stackprof: stack growth of %lld bytes exceeds "
			"--fail-on-growth %llu\n", (long long)d.max_growth,
			(unsigned long long)o->growth_limit);
		ret = EXIT_BUDGET;
	}
out_abort:
	if (o->output)
		sp_atomic_abort(&out);
out:
	sp_diff_release(&d);
	return ret;
}

/*
 * Keep freed memory in the heap instead of handing it back to the kernel.
 * glibc serves large blocks with mmap (from 128 KiB, a threshold that
 * rises to 32 MiB as they are freed) and unmaps them on free, so
 * every table that grows, every sort's scratch array and libdwarf's CFI
 * list would come back as fresh pages the kernel must zero (seconds of
 * system time at a million functions); a run of this size never returns
 * memory it needs again before it exits anyway.
 */
static void keep_freed_memory(void)
{
	mallopt(M_MMAP_MAX, 0);
	mallopt(M_TRIM_THRESHOLD, INT_MAX);
}

int main(int argc, char **argv)
{
	struct options o = { 0 };
	struct sp_graph g;
	struct sp_err err = { { 0 } };
	int ret = parse_args(&o, argc, argv);

	if (ret)
		return ret > 0 ? 0 : EXIT_BAD;
	keep_freed_memory();
	sp_graph_init(&g);
	ret = o.diff ? run_diff(&o, &err) : run(&o, &g, &err);
	if (ret < 0)
		fprintf(stderr, "stackprof: %s\n", err.msg);
	sp_graph_release(&g);
	release_options(&o);
	return ret < 0 ? EXIT_BAD : ret;
}
