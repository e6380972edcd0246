/*
 * main.c - parse the command line and wire the stages:
 *
 *	ELF, DWARF, code (elf/, dwarf/, insn/) -> graph (callgraph/)
 *	-> frames (su/, frames/) -> solver (analysis/) -> reports (report/)
 *
 * Only this file prints errors and chooses the exit status.
 */
#include <getopt.h>
#include <sys/stat.h>
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
#include "common/dirwalk.h"
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
#include "su/su.h"

enum { EXIT_BUDGET = 1, EXIT_BAD = 2 };

/* A file as the file system knows it, whatever path names it. */
struct file_id {
	dev_t dev;
	ino_t ino;
};

struct options {
	const char **elfs;	/* positional ELF files: the image, then modules */
	size_t nelfs, elfs_cap;
	struct file_id *elf_ids;	/* each one's, when it could be stat'ed */
	size_t elf_ids_cap;
	char **found;		/* modules found in directories (ours to free) */
	size_t nfound, found_cap;
	const char **su_paths;	/* positional .su files/dirs */
	size_t nsu, su_cap;
	const char **su_dirs;	/* --su-dir */
	size_t nsu_dirs, su_dirs_cap;
	const char **entries;	/* --entry specs */
	size_t nentries, entries_cap;
	const char *output;
	const char *dot, *svg, *png, *sarif, *folded;
	enum sp_gv_view view;	/* --graph=column|calls */
	bool view_given;
	bool json, keep_going, verbose, allow_unbounded, all;
	bool json_paths_all;	/* --json-paths=all */
	bool no_su;		/* --no-su: frames from the binary alone */
	bool no_libs;		/* --no-libs: the shared libraries are not read */
	const char *sysroot;	/* --sysroot: where the libraries are looked for */
	bool has_budget;
	const char **entry_globs;	/* --entry-glob patterns */
	size_t nentry_globs, entry_globs_cap;
	bool kernel_summary;
	const char **annotate;	/* --annotate files */
	size_t nannotate, annotate_cap;
	enum ind_mode indirect;
	struct cg_options cg;
	uint64_t budget, min_total;
	unsigned top, depth, graph_top;
	bool diff, has_growth_limit;	/* --diff OLD NEW, --fail-on-growth */
	const char *diff_old, *diff_new;
	uint64_t growth_limit;
	const char *html;	/* --html FILE */
	bool vla;		/* --vla[=table|warnings] */
	enum sp_vla_format vla_format;
};

static const char usage_text[] =
"usage: stackprof [OPTIONS] ELF [ELF|SU-FILE|DIR ...]\n"
"   or: stackprof --diff OLD.json NEW.json [--fail-on-growth BYTES] [-o FILE]\n"
"\n"
"Worst-case stack depth of every function of ELF: its frames (GCC's\n"
"-fstack-usage .su files, else the kernel's ORC, the CFI or the machine code)\n"
"summed along the call graph that DWARF and the machine code describe.\n"
"\n"
"Input\n"
"  ELF                  executable, shared object or object file built with -g;\n"
"                       more ELF files (kernel modules...) join its call graph,\n"
"                       their calls to each other resolved by symbol name\n"
"  SU-FILE|DIR          .su files, or directories searched recursively; when\n"
"                       none are named they are found beside each compile\n"
"                       unit's source and the ELF.  A directory's kernel\n"
"                       modules (*.ko, *.ko.debug) are ELF inputs too\n"
"      --su-dir DIR     also search DIR for .su files (repeatable)\n"
"      --no-su          ignore every .su file: frames from the binary alone\n"
"                       (ORC, CFI, the machine code), to check them against .su\n"
"      --no-libs        do not follow a dynamically linked ELF into the shared\n"
"                       libraries it needs (by default each DT_NEEDED library\n"
"                       is found as ld.so finds it and analysed from its\n"
"                       .eh_frame and code, its debug file's symbols when\n"
"                       /usr/lib/debug/.build-id has one): calls into them\n"
"                       are then unknown frames\n"
"      --sysroot DIR    look for the libraries and their debug files under DIR\n"
"                       (a cross or embedded root)\n"
"      --calls=SOURCE   where calls come from: dwarf (call-site DIEs), disasm\n"
"                       (the machine code) or both (default); an ELF for a\n"
"                       machine other than x86-64, i386, AArch64 or ARM is\n"
"                       refused unless --calls=dwarf\n"
"      --annotate FILE  what the binary cannot tell (repeatable), one per line:\n"
"                       frame FUNC BYTES, calls FUNC TARGET..., recursion FUNC\n"
"                       DEPTH, entry FUNC BYTES (its own budget), ignore FUNC\n"
"                       CALLEE [below ANCESTOR], once FUNC, nest FUNC DEPTH;\n"
"                       '#' comments\n"
"      --annotate NAME  a NAME without '/' that is not a file: the file\n"
"                       shipped as PREFIX/share/stackprof/NAME.ann (the source\n"
"                       tree's annotations/ when run from the build tree);\n"
"                       linux: the Linux kernel's bounded cycles (Linux 6.1)\n"
"      --indirect=MODE  none (default: an indirect call is unbounded),\n"
"                       types (its targets from the code and DWARF's types:\n"
"                       the table, the struct member or the prototype it\n"
"                       calls through) or address-taken (any function whose\n"
"                       address the image takes); totals are then flagged\n"
"                       assumed\n"
"      --keep-going     malformed .su lines are warnings, not errors\n"
"\n"
"Selection\n"
"      --entry NAME     report only this root (repeatable; FILE:NAME picks a\n"
"                       static function of FILE)\n"
"      --entry-glob PATTERN  report only the roots whose name matches the\n"
"                       shell pattern, e.g. '__x64_sys_*' (repeatable)\n"
"\n"
"Report formats\n"
"  -o, --output FILE    write the report to FILE instead of standard output\n"
"      --top N          worst paths shown in the text report (default 10)\n"
"      --json           JSON report instead of text (version 2: each function\n"
"                       names its worst callee; doc/stackprof.schema.json)\n"
"      --json-paths=WHICH  shown (default): whole worst paths in JSON for the\n"
"                       functions the report shows; all: for every function\n"
"      --vla[=FORMAT]   list every variable-length array and alloca() user\n"
"                       (run-time, accidental: folded to a constant, or bound\n"
"                       read from the frame at -O0) with its function's worst\n"
"                       case, worst first; FORMAT table (default) or warnings\n"
"                       (-Wvla style FILE:LINE:COL lines); --json for JSON\n"
"      --html FILE      also write one self-contained HTML page: a sortable,\n"
"                       filterable table, each row opening its worst path and\n"
"                       its icicle, and the picture (as --svg) inline\n"
"      --folded FILE    also write each root's worst path as folded stacks for\n"
"                       flame graphs (flamegraph.pl, inferno, speedscope):\n"
"                       the functions nothing calls, or the --entry selection\n"
"\n"
"Pictures\n"
"      --svg FILE       draw the worst path as a column of frames, as SVG\n"
"      --png FILE       ... as PNG\n"
"      --dot FILE       ... as Graphviz DOT\n"
"      --graph=VIEW     column (default): a box per frame as high as its bytes,\n"
"                       the stack in use beside it; calls: the call graph\n"
"                       around the worst path\n"
"      --graph-top N    the worst paths of N roots (default 1; of many --entry\n"
"                       roots, the 8 worst)\n"
"      --depth N        the call graph pruned N calls below its roots\n"
"      --min-total BYTES  ... without functions whose worst case is smaller\n"
"      --all            ... of every function, unpruned (at most 800);\n"
"                       these three imply --graph=calls\n"
"\n"
"Budgets and build integration\n"
"      --budget BYTES   fail (exit 1) when a worst case exceeds BYTES (K, M, G)\n"
"      --allow-unbounded  hold an unbounded total's lower bound against the\n"
"                       budget instead of failing it\n"
"      --sarif FILE     write budget violations and dynamic frames as SARIF\n"
"                       2.1.0, for code-scanning UIs\n"
"      --diff OLD.json NEW.json  compare two --json reports: functions whose\n"
"                       worst case or frame grew or shrank, new dynamic\n"
"                       frames, new recursion, largest growth first\n"
"      --fail-on-growth BYTES  with --diff: exit 1 when a worst case grew\n"
"                       by more than BYTES\n"
"\n"
"Kernel\n"
"      --kernel-summary the worst system calls, interrupt handlers and\n"
"                       exception entries, class by class (in JSON: \"kernel\");\n"
"                       modules are more ELF arguments\n"
"\n"
"Other\n"
"  -v, --verbose        report unmatched .su rows, loader statistics, the\n"
"                       unknown frames that make the most totals partial and\n"
"                       the recursions no annotation bounds (the largest)\n"
"  -h, --help           show this help\n"
"  -V, --version        show the version\n"
"\n"
"On a terminal, a run that takes over a second shows the compile units read\n"
"on standard error (STACKPROF_PROGRESS_DELAY=SECONDS changes the second).\n"
"Exit status: 0 success, 1 stack budget exceeded, 2 bad input or usage.\n"
"In a make build: include PREFIX/share/stackprof/stackprof.mk for a\n"
"`make stack-check` that fails over STACK_BUDGET; in CMake: find_package(stackprof)\n"
"and stackprof_check(TARGET BUDGET 8K) for a TARGET-stack-check target\n"
"(see stackprof(1)).\n";

enum {
	OPT_SU_DIR = 256, OPT_ENTRY, OPT_JSON, OPT_TOP, OPT_BUDGET, OPT_ALLOW_UNB,
	OPT_KEEP_GOING, OPT_DOT, OPT_SVG, OPT_PNG, OPT_DEPTH, OPT_MIN_TOTAL, OPT_ALL,
	OPT_GRAPH_TOP, OPT_CALLS, OPT_ENTRY_GLOB, OPT_KERNEL_SUMMARY,
	OPT_DIFF, OPT_FAIL_ON_GROWTH, OPT_SARIF,
	OPT_ANNOTATE, OPT_INDIRECT,
	OPT_HTML,
	OPT_VLA,
	OPT_GRAPH, OPT_FOLDED,
	OPT_NO_SU,
	OPT_JSON_PATHS,
	OPT_NO_LIBS, OPT_SYSROOT,
};

/* in the order of --help's groups */
static const struct option long_opts[] = {
	{ "su-dir", required_argument, NULL, OPT_SU_DIR },
	{ "no-su", no_argument, NULL, OPT_NO_SU },
	{ "no-libs", no_argument, NULL, OPT_NO_LIBS },
	{ "sysroot", required_argument, NULL, OPT_SYSROOT },
	{ "calls", required_argument, NULL, OPT_CALLS },
	{ "annotate", required_argument, NULL, OPT_ANNOTATE },
	{ "indirect", required_argument, NULL, OPT_INDIRECT },
	{ "keep-going", no_argument, NULL, OPT_KEEP_GOING },
	{ "entry", required_argument, NULL, OPT_ENTRY },
	{ "entry-glob", required_argument, NULL, OPT_ENTRY_GLOB },
	{ "output", required_argument, NULL, 'o' },
	{ "top", required_argument, NULL, OPT_TOP },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "json-paths", required_argument, NULL, OPT_JSON_PATHS },
	{ "vla", optional_argument, NULL, OPT_VLA },
	{ "html", required_argument, NULL, OPT_HTML },
	{ "folded", required_argument, NULL, OPT_FOLDED },
	{ "svg", required_argument, NULL, OPT_SVG },
	{ "png", required_argument, NULL, OPT_PNG },
	{ "dot", required_argument, NULL, OPT_DOT },
	{ "graph", required_argument, NULL, OPT_GRAPH },
	{ "graph-top", required_argument, NULL, OPT_GRAPH_TOP },
	{ "depth", required_argument, NULL, OPT_DEPTH },
	{ "min-total", required_argument, NULL, OPT_MIN_TOTAL },
	{ "all", no_argument, NULL, OPT_ALL },
	{ "budget", required_argument, NULL, OPT_BUDGET },
	{ "allow-unbounded", no_argument, NULL, OPT_ALLOW_UNB },
	{ "sarif", required_argument, NULL, OPT_SARIF },
	{ "diff", no_argument, NULL, OPT_DIFF },
	{ "fail-on-growth", required_argument, NULL, OPT_FAIL_ON_GROWTH },
	{ "kernel-summary", no_argument, NULL, OPT_KERNEL_SUMMARY },
	{ "verbose", no_argument, NULL, 'v' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 },
};

static int bad_usage(const char *fmt, const char *arg)
{
	fprintf(stderr, "stackprof: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\nTry 'stackprof --help' for more information.\n");
	return -1;
}

static int parse_count(const char *opt, const char *s, unsigned *out)
{
	char *end;
	unsigned long v;

	if (*s < '0' || *s > '9')
		return bad_usage("invalid number for --%s", opt);
	v = strtoul(s, &end, 10);
	if (*end || v > 1000000000ul)
		return bad_usage("invalid number for --%s", opt);
	*out = (unsigned)v;
	return 0;
}

static int parse_bytes(const char *opt, const char *s, uint64_t *out)
{
	if (sp_parse_size(s, out))
		return bad_usage("invalid size for --%s (e.g. 4096, 8K, 1M)", opt);
	return 0;
}

static int parse_calls(const char *s, enum cg_calls *out)
{
	if (!strcmp(s, "both"))
		*out = CG_CALLS_BOTH;
	else if (!strcmp(s, "dwarf"))
		*out = CG_CALLS_DWARF;
	else if (!strcmp(s, "disasm"))
		*out = CG_CALLS_DISASM;
	else
		return bad_usage("invalid --calls '%s' (dwarf, disasm or both)", s);
	return 0;
}

static int parse_indirect(const char *s, struct options *o)
{
	if (!strcmp(s, "none"))
		o->indirect = IND_NONE;
	else if (!strcmp(s, "address-taken"))
		o->indirect = IND_ADDRESS_TAKEN;
	else if (!strcmp(s, "types"))
		o->indirect = IND_TYPES;
	else
		return bad_usage("invalid --indirect '%s' (none, types or address-taken)", s);
	return 0;
}

static int parse_vla(const char *s, struct options *o)
{
	o->vla = true;
	if (!s || !strcmp(s, "table"))
		o->vla_format = SP_VLA_TABLE;
	else if (!strcmp(s, "warnings"))
		o->vla_format = SP_VLA_WARNINGS;
	else
		return bad_usage("invalid --vla '%s' (table or warnings)", s);
	return 0;
}

static int parse_json_paths(const char *s, struct options *o)
{
	if (strcmp(s, "shown") && strcmp(s, "all"))
		return bad_usage("invalid --json-paths '%s' (shown or all)", s);
	o->json_paths_all = !strcmp(s, "all");
	return 0;
}

static int parse_graph(const char *s, struct options *o)
{
	o->view_given = true;
	if (!strcmp(s, "column"))
		o->view = SP_GV_COLUMN;
	else if (!strcmp(s, "calls"))
		o->view = SP_GV_CALLS;
	else
		return bad_usage("invalid --graph '%s' (column or calls)", s);
	return 0;
}

/* --depth, --min-total and --all prune the call graph: they choose it,
 * unless --graph=column says otherwise, which is a contradiction. */
static int check_graph_options(struct options *o)
{
	if (!o->depth && !o->min_total && !o->all)
		return 0;
	if (o->view_given && o->view != SP_GV_CALLS)
		return bad_usage("%s", "--depth, --min-total and --all apply to --graph=calls");
	o->view = SP_GV_CALLS;
	return 0;
}

static void push(const char ***v, size_t *n, size_t *cap, const char *s)
{
	SP_ALLOC_GROW(*v, *n + 1, *cap);
	(*v)[(*n)++] = s;
}

static int parse_option(struct options *o, int c, const char *arg)
{
	switch (c) {
	case OPT_SU_DIR:
		push(&o->su_dirs, &o->nsu_dirs, &o->su_dirs_cap, arg);
		return 0;
	case OPT_ENTRY:
		push(&o->entries, &o->nentries, &o->entries_cap, arg);
		return 0;
	case OPT_JSON:
		o->json = true;
		return 0;
	case 'o':
		o->output = arg;
		return 0;
	case OPT_TOP:
		return parse_count("top", arg, &o->top);
	case OPT_GRAPH_TOP:
		return parse_count("graph-top", arg, &o->graph_top);
	case OPT_DEPTH:
		return parse_count("depth", arg, &o->depth);
	case OPT_BUDGET:
		o->has_budget = true;
		return parse_bytes("budget", arg, &o->budget);
	case OPT_MIN_TOTAL:
		return parse_bytes("min-total", arg, &o->min_total);
	case OPT_ALLOW_UNB:
		o->allow_unbounded = true;
		return 0;
	case OPT_KEEP_GOING:
		o->keep_going = true;
		return 0;
	case OPT_DOT:
		o->dot = arg;
		return 0;
	case OPT_SVG:
		o->svg = arg;
		return 0;
	case OPT_PNG:
		o->png = arg;
		return 0;
	case OPT_ALL:
		o->all = true;
		return 0;
	case 'v':
		o->verbose = true;
		return 0;
	case OPT_CALLS:
		return parse_calls(arg, &o->cg.calls);
	case OPT_ENTRY_GLOB:
		push(&o->entry_globs, &o->nentry_globs, &o->entry_globs_cap, arg);
		return 0;
	case OPT_KERNEL_SUMMARY:
		o->kernel_summary = true;
		return 0;
	case OPT_DIFF:
		o->diff = true;
		return 0;
	case OPT_FAIL_ON_GROWTH:
		o->has_growth_limit = true;
		return parse_bytes("fail-on-growth", arg, &o->growth_limit);
	case OPT_SARIF:
		o->sarif = arg;
		return 0;
	case OPT_ANNOTATE:
		push(&o->annotate, &o->nannotate, &o->annotate_cap, arg);
		return 0;
	case OPT_INDIRECT:
		return parse_indirect(arg, o);
	case OPT_HTML:
		o->html = arg;
		return 0;
	case OPT_VLA:
		return parse_vla(arg, o);
	case OPT_NO_SU:
		o->no_su = true;
		return 0;
	case OPT_NO_LIBS:
		o->no_libs = true;
		return 0;
	case OPT_SYSROOT:
		o->sysroot = arg;
		return 0;
	case OPT_GRAPH:
		return parse_graph(arg, o);
	case OPT_FOLDED:
		o->folded = arg;
		return 0;
	case OPT_JSON_PATHS:
		return parse_json_paths(arg, o);
	}
	return bad_usage("%s", "invalid option");
}

/* An ELF input, unless it is one already: named twice (overlapping
 * globs), or found in a directory as well. */
static void push_elf(struct options *o, const char *path)
{
	struct file_id id = { 0, 0 };
	struct stat st;
	size_t i;

	if (!stat(path, &st)) {
		id.dev = st.st_dev;
		id.ino = st.st_ino;
	}
	for (i = 0; i < o->nelfs; i++)
		if (!strcmp(o->elfs[i], path) ||
		    (id.ino && o->elf_ids[i].ino == id.ino && o->elf_ids[i].dev == id.dev))
			return;
	SP_ALLOC_GROW(o->elf_ids, o->nelfs + 1, o->elf_ids_cap);
	o->elf_ids[o->nelfs] = id;
	push(&o->elfs, &o->nelfs, &o->elfs_cap, path);
}

/* A kernel module's name: "x.ko", or "x.ko.debug" as debuginfo packages
 * name them. */
static bool is_module_name(const char *name)
{
	size_t len = strlen(name);

	return (len > 3 && !strcmp(name + len - 3, ".ko")) ||
	       (len > 9 && !strcmp(name + len - 9, ".ko.debug"));
}

/*
 * The kernel modules under dir join the inputs as more images, in path
 * order.  Other ELF files there are not read: a build tree's objects are
 * the image's own code, and its other programs are not part of it.  A
 * directory that cannot be read is reported by the .su search of it.
 */
static void push_dir_modules(struct options *o, const char *dir)
{
	char *trimmed = sp_xstrdup(dir), **paths;
	size_t len = strlen(trimmed), n, i;
	struct sp_err err;

	while (len > 1 && trimmed[len - 1] == '/')
		trimmed[--len] = '\0';	/* "dir/" finds "dir/x.ko", not "dir//x.ko" */
	if (!sp_collect_files(trimmed, is_module_name, &paths, &n, &err)) {
		for (i = 0; i < n; i++) {
			SP_ALLOC_GROW(o->found, o->nfound + 1, o->found_cap);
			o->found[o->nfound++] = paths[i];
			if (cg_is_elf_file(paths[i]))
				push_elf(o, paths[i]);
		}
		free(paths);
	}
	free(trimmed);
}

static bool is_dir(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

/* Returns 1 when the command is done (--help, --version), -1 on bad usage. */
static int parse_args(struct options *o, int argc, char **argv)
{
	int c;

	o->top = 10;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":o:vhV", long_opts, NULL)) != -1) {
		if (c == 'h') {
			fputs(usage_text, stdout);
			return 1;
		}
		if (c == 'V') {
			printf("stackprof %s\n", STACKPROF_VERSION);
			return 1;
		}
		if (c == '?')
			return bad_usage("unknown option '%s'", argv[optind - 1]);
		if (c == ':')
			return bad_usage("option '%s' needs a value", argv[optind - 1]);
		if (parse_option(o, c, optarg))
			return -1;
	}
	if (check_graph_options(o))
		return -1;
	if (o->diff) {
		if (argc - optind != 2)
			return bad_usage("%s", "--diff needs two JSON reports: OLD NEW");
		o->diff_old = argv[optind];
		o->diff_new = argv[optind + 1];
		return 0;
	}
	if (o->has_growth_limit)
		return bad_usage("%s", "--fail-on-growth needs --diff");
	if (optind >= argc)
		return bad_usage("%s", "no ELF file given");
	/* the first is the image; later ELF files are more images (modules),
	 * anything else is a .su file or directory, which may hold modules */
	push_elf(o, argv[optind++]);
	for (; optind < argc; optind++) {
		if (cg_is_elf_file(argv[optind])) {
			push_elf(o, argv[optind]);
			continue;
		}
		push(&o->su_paths, &o->nsu, &o->su_cap, argv[optind]);
		if (is_dir(argv[optind]))
			push_dir_modules(o, argv[optind]);
	}
	return 0;
}

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
	struct su_image *v = sp_xcalloc(o->nelfs, sizeof(*v));
	struct su_request r = {
		o->su_paths, o->nsu, o->su_dirs, o->nsu_dirs, v, o->nelfs,
		o->keep_going, print_warning, o->verbose ? print_note : NULL, NULL,
	};
	size_t i;
	int ret;

	for (i = 0; i < o->nelfs; i++) {
		v[i].path = o->elfs[i];
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

/* STACKPROF_SPLIT_WALK: the .debug_info size from which the DWARF walk
 * is split over two threads (a size, e.g. 0 or 4M, or "never"); unset or
 * unreadable: the loader's default. */
static void setup_split_walk(struct cg_options *cg)
{
	const char *v = getenv("STACKPROF_SPLIT_WALK");
	uint64_t min;

	if (!v || !*v)
		return;
	if (!strcmp(v, "never"))
		cg->split_walk_min = UINT64_MAX;
	else if (!sp_parse_size(v, &min))
		cg->split_walk_min = min ? min : 1;
	else
		fprintf(stderr, "stackprof: warning: ignoring STACKPROF_SPLIT_WALK='%s' "
			"(a size such as 16M, or never)\n", v);
}

/* STACKPROF_LIBS=no: --no-libs for every run, so that the tests whose
 * oracles stop at the program's own code (GCC's call graph, the .su
 * files) run as they were written; unset or anything else: the option
 * decides. */
static void setup_libs(struct options *o)
{
	const char *v = getenv("STACKPROF_LIBS");

	if (v && !strcmp(v, "no"))
		o->no_libs = true;
}

/* STACKPROF_CFI: how CFI frames find their FDEs, "one-by-one" (each
 * through .eh_frame_hdr) or "list" (libdwarf's list of all); unset: one
 * by one when few functions need a frame.  For tests. */
static void setup_cfi(struct frame_opts *fo)
{
	const char *v = getenv("STACKPROF_CFI");

	if (!v || !*v)
		return;
	if (!strcmp(v, "one-by-one"))
		fo->cfi_lookup = DW_CFI_ONE_BY_ONE;
	else if (!strcmp(v, "list"))
		fo->cfi_lookup = DW_CFI_LIST;
	else
		fprintf(stderr, "stackprof: warning: ignoring STACKPROF_CFI='%s' "
			"(one-by-one or list)\n", v);
}

static void print_typed(const struct ind_stats *st, uint32_t ntaken)
{
	uint64_t precise = st->targets[SP_RES_TABLE] + st->targets[SP_RES_FIELD];
	uint32_t nprecise = st->by[SP_RES_TABLE] + st->by[SP_RES_FIELD];
	int r;

	fprintf(stderr, "stackprof: indirect calls: %u sites:", st->sites);
	for (r = SP_RES_TABLE; r < SP_RES__COUNT; r++)
		if (r != SP_RES_ANNOTATION)
			fprintf(stderr, "%s %u %s", r == SP_RES_TABLE ? "" : ",", st->by[r],
				sp_resolved_name((enum sp_resolved)r));
	fprintf(stderr, " (%u switches left out)\n", st->switches);
	fprintf(stderr, "stackprof: indirect calls: mean targets per site: table or field "
		"%.1f, prototype %.1f, all %.1f; %u address-taken functions\n",
		nprecise ? (double)precise / nprecise : 0.0,
		st->by[SP_RES_PROTOTYPE] ?
		(double)st->targets[SP_RES_PROTOTYPE] / st->by[SP_RES_PROTOTYPE] : 0.0,
		st->sites ? (double)(precise + st->targets[SP_RES_PROTOTYPE] +
				     st->targets[SP_RES_ADDRESS_TAKEN]) / st->sites : 0.0, ntaken);
	fprintf(stderr, "stackprof: indirect calls: %u struct members hold functions (%u "
		"written with values of unknown origin), %u of %u function stores typed, "
		"%llu assumed edges\n", st->keys, st->escaped, st->stores_typed, st->stores,
		(unsigned long long)st->edges);
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
	struct frame_opts fo = { .compare = o->verbose, .warn = print_warning };
	struct sp_frames su = { 0 }, annot = { 0 };
	int ret = -1;

	setup_cfi(&fo);
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

/*
 * The stages in the order the data flows: each image's ELF, DWARF and
 * code into the graph (callgraph/), calls between images linked, frames
 * decided (su/, frames/), kernel entries marked, indirect calls resolved
 * (indirect/) and the annotations' edges, then the solver (analysis/).
 */
static int load(struct sp_graph *g, const struct options *o,
		const struct sp_annots *annots, struct sp_err *err)
{
	struct cg_image **imgs = sp_xcalloc(o->nelfs, sizeof(*imgs));
	size_t n = o->nelfs;
	struct cg_options cg = o->cg;
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
	setup_progress(&cg, &progress);
	setup_split_walk(&cg);
	for (i = 0; i < o->nelfs; i++)
		if (cg_open(&imgs[i], o->elfs[i], err) || cg_load(imgs[i], g, &cg, err))
			goto out;
	if (!o->no_libs) {
		cg_load_libs(&imgs, &n, g, &cg, o->sysroot, print_warning, NULL);
		cg_lazy_binding(imgs, n, g);
	}
	g->binary = sp_intern(g, o->elfs[0]);
	if (n > 1)
		cg_link(imgs, n, g, &linked);
	ind = ind_begin(o->indirect, g, imgs, n, o->json);
	if (decide_frames(g, imgs, n, o, annots, &fs, err))
		goto out;
	cg_add_exceptions(imgs, n, g);
	for (i = 0; o->kernel_summary && i < n; i++)
		cg_mark_kernel_entries(imgs[i], g);
	resolved = !ind_resolve(ind, annots, &is, err);
	ind = NULL;
	print_indirect(&is, o->verbose);
	if (!resolved || sp_analyze(g, err))
		goto out;
	if (o->verbose) {	/* the edges counted once the solver merged them */
		print_stats(g, imgs, n, linked, &fs);
		print_unknown(g);
		print_cycles(g);
	}
	ret = 0;
out:
	ind_release(ind);
	for (i = 0; i < n; i++)
		cg_close(imgs[i]);
	free(imgs);
	return ret;
}

static int resolve_entries(const struct sp_graph *g, const struct options *o,
			   uint32_t **ids, size_t *n, struct sp_err *err)
{
	size_t i, cap = 0;

	*ids = NULL;
	*n = 0;
	for (i = 0; i < o->nentries; i++)
		if (sp_find_entries(g, o->entries[i], ids, n, &cap, err))
			return -1;
	for (i = 0; i < o->nentry_globs; i++)
		if (sp_find_entries_glob(g, o->entry_globs[i], ids, n, &cap, err))
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
	for (i = 0; i < o->nannotate; i++)
		if (sp_annot_load_named(&annots, o->annotate[i], NULL, err))
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
	size_t i;

	if (ret)
		return ret > 0 ? 0 : EXIT_BAD;
	setup_libs(&o);
	keep_freed_memory();
	sp_graph_init(&g);
	ret = o.diff ? run_diff(&o, &err) : run(&o, &g, &err);
	if (ret < 0)
		fprintf(stderr, "stackprof: %s\n", err.msg);
	sp_graph_release(&g);
	free(o.su_dirs);
	free(o.entries);
	free(o.elfs);
	free(o.elf_ids);
	for (i = 0; i < o.nfound; i++)
		free(o.found[i]);
	free(o.found);
	free(o.entry_globs);
	free(o.annotate);
	free(o.su_paths);
	return ret < 0 ? EXIT_BAD : ret;
}
