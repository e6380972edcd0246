/*
 * options.c - the command line: every option in one table, in the order
 * of --help's groups, from which the parser, --help and the errors of
 * the options that take one of a few words are made.
 */
#include "src/options.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/dirwalk.h"
#include "common/size.h"
#include "common/xalloc.h"
#include "dwarf/dwarf.h"
#include "report/graphviz.h"
#include "report/vla.h"

/* One of the words an option takes, and the value it stands for. */
struct opt_value {
	const char *word;
	int value;
};

static const struct opt_value calls_values[] = {
	{ "dwarf", CG_CALLS_DWARF }, { "disasm", CG_CALLS_DISASM }, { "both", CG_CALLS_BOTH },
	{ NULL, 0 },
};
static const struct opt_value indirect_values[] = {
	{ "none", IND_NONE }, { "types", IND_TYPES },
	{ "address-taken", IND_ADDRESS_TAKEN }, { NULL, 0 },
};
static const struct opt_value vla_values[] = {
	{ "table", SP_VLA_TABLE }, { "warnings", SP_VLA_WARNINGS }, { NULL, 0 },
};
static const struct opt_value json_paths_values[] = {
	{ "shown", 0 }, { "all", 1 }, { NULL, 0 },
};
static const struct opt_value cfi_values[] = {
	{ "one-by-one", DW_CFI_ONE_BY_ONE }, { "list", DW_CFI_LIST }, { NULL, 0 },
};
static const struct opt_value graph_values[] = {
	{ "column", SP_GV_COLUMN }, { "calls", SP_GV_CALLS }, { NULL, 0 },
};

enum opt_kind {
	OPT_TEXT,	/* --help only: a positional argument, a second form */
	OPT_GROUP,	/* --help's group title */
	OPT_FLAG,	/* bool */
	OPT_STR,	/* const char * */
	OPT_LIST,	/* struct strlist, repeatable */
	OPT_COUNT,	/* unsigned */
	OPT_BYTES,	/* uint64_t, with K, M, G */
	OPT_ENUM,	/* int, one of values */
	OPT_HELP,
	OPT_VERSION,
};

/*
 * An option: its form in --help ("--su-dir DIR", "--vla[=FORMAT]" for an
 * optional value; a flag takes none), short letter, --help text (lines
 * of 55 characters at most) and where its value goes in struct options;
 * set names a bool made true when it is given (0: none, never the first).
 */
struct opt {
	const char *syn;
	char sh;
	const char *help;
	enum opt_kind kind;
	size_t off, set;
	const struct opt_value *values;
};

#define AT(field) .off = offsetof(struct options, field)
#define GROUP(title) { title, 0, NULL, .kind = OPT_GROUP }
#define FLAG(f) .kind = OPT_FLAG, AT(f)
#define STR(f) .kind = OPT_STR, AT(f)
#define LIST(f) .kind = OPT_LIST, AT(f)
#define COUNT(f) .kind = OPT_COUNT, AT(f)
#define BYTES(f) .kind = OPT_BYTES, AT(f)
#define BYTES_SET(f, s) BYTES(f), .set = offsetof(struct options, s)
#define ENUM(f, v) .kind = OPT_ENUM, AT(f), .values = v
#define ENUM_SET(f, v, s) ENUM(f, v), .set = offsetof(struct options, s)

static const struct opt opts[] = {
	GROUP("Input"),
	{ "ELF", 0,
		"executable, shared object or object file built with -g;\n"
		"more ELF files (kernel modules...) join its call graph,\n"
		"their calls to each other resolved by symbol name",
	  .kind = OPT_TEXT },
	{ "SU-FILE|DIR", 0,
		".su files, or directories searched recursively; when\n"
		"none are named they are found beside each compile\n"
		"unit's source and the ELF.  A directory's kernel\n"
		"modules (*.ko, *.ko.debug) are ELF inputs too",
	  .kind = OPT_TEXT },
	{ "--su-dir DIR", 0,
		"also search DIR for .su files (repeatable)",
	  LIST(su_dirs) },
	{ "--no-su", 0,
		"ignore every .su file: frames from the binary alone\n"
		"(ORC, CFI, the machine code), to check them against .su",
	  FLAG(no_su) },
	{ "--no-libs", 0,
		"do not follow a dynamically linked ELF into the shared\n"
		"libraries it needs (by default each DT_NEEDED library\n"
		"is found as ld.so finds it and analysed from its\n"
		".eh_frame and code, its debug file's symbols when\n"
		"/usr/lib/debug/.build-id has one): calls into them\n"
		"are then unknown frames",
	  FLAG(no_libs) },
	{ "--sysroot DIR", 0,
		"look for the libraries and their debug files under DIR\n"
		"(a cross or embedded root)",
	  STR(sysroot) },
	{ "--calls=SOURCE", 0,
		"where calls come from: dwarf (call-site DIEs), disasm\n"
		"(the machine code) or both (default); an ELF for a\n"
		"machine other than x86-64, i386, AArch64 or ARM is\n"
		"refused unless --calls=dwarf",
	  ENUM(cg.calls, calls_values) },
	{ "--annotate FILE", 0,
		"what the binary cannot tell (repeatable), one per line:\n"
		"frame FUNC BYTES, calls FUNC TARGET..., recursion FUNC\n"
		"DEPTH, entry FUNC BYTES (its own budget), ignore FUNC\n"
		"CALLEE [below ANCESTOR [unless RESET...] | from\n"
		"CALLER...], once FUNC,\n"
		"nest FUNC DEPTH, nest FUNC per HOLDER... (once per\n"
		"HOLDER below it); FUNC/INLINED names the calls FUNC\n"
		"makes inside its inlined copies of INLINED; a line may\n"
		"start with optional (unknown names skip it) and assume\n"
		"(run-time values, not the code: its totals assumed,\n"
		"'~'); '#' comments",
	  LIST(annotate) },
	{ "--annotate NAME", 0,
		"a NAME without '/' that is not a file: the file\n"
		"shipped as PREFIX/share/stackprof/NAME.ann (the source\n"
		"tree's annotations/ when run from the build tree);\n"
		"linux: the Linux kernel's bounded cycles (Linux 6.1);\n"
		"linux-assumed: cycles its run-time values bound\n"
		"(assume lines)",
	  .kind = OPT_TEXT },
	{ "--indirect=MODE", 0,
		"none (default: an indirect call is unbounded),\n"
		"types (its targets from the code and DWARF's types:\n"
		"the table, the struct member or the prototype it\n"
		"calls through) or address-taken (any function whose\n"
		"address the image takes); totals are then flagged\n"
		"assumed",
	  ENUM(indirect, indirect_values) },
	{ "--keep-going", 0,
		"malformed .su lines are warnings, not errors",
	  FLAG(keep_going) },
	GROUP("Selection"),
	{ "--entry NAME", 0,
		"report only this root (repeatable; FILE:NAME picks a\n"
		"static function of FILE)",
	  LIST(entries) },
	{ "--entry-glob PATTERN", 0,
		"report only the roots whose name matches the\n"
		"shell pattern, e.g. '__x64_sys_*' (repeatable)",
	  LIST(entry_globs) },
	GROUP("Report formats"),
	{ "--output FILE", 'o',
		"write the report to FILE instead of standard output",
	  STR(output) },
	{ "--top N", 0,
		"worst paths shown in the text report (default 10)",
	  COUNT(top) },
	{ "--json", 0,
		"JSON report instead of text (version 2: each function\n"
		"names its worst callee; doc/stackprof.schema.json)",
	  FLAG(json) },
	{ "--json-paths=WHICH", 0,
		"shown (default): whole worst paths in JSON for the\n"
		"functions the report shows; all: for every function",
	  ENUM(json_paths_all, json_paths_values) },
	{ "--vla[=FORMAT]", 0,
		"list every variable-length array and alloca() user\n"
		"(run-time, accidental: folded to a constant, or bound\n"
		"read from the frame at -O0) with its function's worst\n"
		"case, worst first; FORMAT table (default) or warnings\n"
		"(-Wvla style FILE:LINE:COL lines); --json for JSON",
	  ENUM_SET(vla_format, vla_values, vla) },
	{ "--html FILE", 0,
		"also write one self-contained HTML page: a sortable,\n"
		"filterable table, each row opening its worst path and\n"
		"its icicle, and the picture (as --svg) inline",
	  STR(html) },
	{ "--folded FILE", 0,
		"also write each root's worst path as folded stacks for\n"
		"flame graphs (flamegraph.pl, inferno, speedscope):\n"
		"the functions nothing calls, or the --entry selection",
	  STR(folded) },
	GROUP("Pictures"),
	{ "--svg FILE", 0,
		"draw the worst path as a column of frames, as SVG",
	  STR(svg) },
	{ "--png FILE", 0,
		"... as PNG",
	  STR(png) },
	{ "--dot FILE", 0,
		"... as Graphviz DOT",
	  STR(dot) },
	{ "--graph=VIEW", 0,
		"column (default): a box per frame as high as its bytes,\n"
		"the stack in use beside it; calls: the call graph\n"
		"around the worst path",
	  ENUM_SET(view, graph_values, view_given) },
	{ "--graph-top N", 0,
		"the worst paths of N roots (default 1; of many --entry\n"
		"roots, the 8 worst)",
	  COUNT(graph_top) },
	{ "--depth N", 0,
		"the call graph pruned N calls below its roots",
	  COUNT(depth) },
	{ "--min-total BYTES", 0,
		"... without functions whose worst case is smaller",
	  BYTES(min_total) },
	{ "--all", 0,
		"... of every function, unpruned (at most 800);\n"
		"these three imply --graph=calls",
	  FLAG(all) },
	GROUP("Budgets and build integration"),
	{ "--budget BYTES", 0,
		"fail (exit 1) when a worst case exceeds BYTES (K, M, G)",
	  BYTES_SET(budget, has_budget) },
	{ "--allow-unbounded", 0,
		"hold an unbounded total's lower bound against the\n"
		"budget instead of failing it",
	  FLAG(allow_unbounded) },
	{ "--sarif FILE", 0,
		"write budget violations and dynamic frames as SARIF\n"
		"2.1.0, for code-scanning UIs",
	  STR(sarif) },
	{ "--diff OLD.json NEW.json", 0,
		"compare two --json reports: functions whose\n"
		"worst case or frame grew or shrank, new dynamic\n"
		"frames, new recursion, largest growth first",
	  FLAG(diff) },
	{ "--fail-on-growth BYTES", 0,
		"with --diff: exit 1 when a worst case grew\n"
		"by more than BYTES",
	  BYTES_SET(growth_limit, has_growth_limit) },
	GROUP("Kernel"),
	{ "--kernel-summary", 0,
		"the worst system calls, interrupt handlers and\n"
		"exception entries, class by class (in JSON: \"kernel\");\n"
		"modules are more ELF arguments",
	  FLAG(kernel_summary) },
	GROUP("Other"),
	{ "--verbose", 'v',
		"report unmatched .su rows, loader statistics, the\n"
		"unknown frames that make the most totals partial and\n"
		"the recursions no annotation bounds (the largest)",
	  FLAG(verbose) },
	{ "--help", 'h',
		"show this help",
	  .kind = OPT_HELP },
	{ "--version", 'V',
		"show the version",
	  .kind = OPT_VERSION },
};

#define NOPTS (sizeof(opts) / sizeof(opts[0]))

static const char usage_head[] =
"usage: stackprof [OPTIONS] ELF [ELF|SU-FILE|DIR ...]\n"
"   or: stackprof --diff OLD.json NEW.json [--fail-on-growth BYTES] [-o FILE]\n"
"\n"
"Worst-case stack depth of every function of ELF: its frames (GCC's\n"
"-fstack-usage .su files, else the kernel's ORC, the CFI or the machine code)\n"
"summed along the call graph that DWARF and the machine code describe.\n";

static const char usage_tail[] =
"\n"
"On a terminal, a run that takes over a second shows the compile units read\n"
"on standard error (STACKPROF_PROGRESS_DELAY=SECONDS changes the second).\n"
"Exit status: 0 success, 1 stack budget exceeded, 2 bad input or usage.\n"
"In a make build: include PREFIX/share/stackprof/stackprof.mk for a\n"
"`make stack-check` that fails over STACK_BUDGET; in CMake: find_package(stackprof)\n"
"and stackprof_check(TARGET BUDGET 8K) for a TARGET-stack-check target\n"
"(see stackprof(1)).\n";

/* --help: each option's form, then its text from column 23. */
static void print_help(FILE *fp)
{
	const struct opt *p;
	const char *s, *nl;
	int col;

	fputs(usage_head, fp);
	for (p = opts; p < opts + NOPTS; p++) {
		if (p->kind == OPT_GROUP) {
			fprintf(fp, "\n%s\n", p->syn);
			continue;
		}
		col = p->sh ? fprintf(fp, "  -%c, %s", p->sh, p->syn) :
		      fprintf(fp, "  %s%s", p->syn[0] == '-' ? "    " : "", p->syn);
		fprintf(fp, "%*s", col < 23 ? 23 - col : 2, "");
		for (s = p->help; (nl = strchr(s, '\n')); s = nl + 1)
			fprintf(fp, "%.*s\n%23s", (int)(nl - s), s, "");
		fprintf(fp, "%s\n", s);
	}
	fputs(usage_tail, fp);
}

static int bad_usage(const char *fmt, const char *arg)
{
	fprintf(stderr, "stackprof: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\nTry 'stackprof --help' for more information.\n");
	return -1;
}

/* The option's name ("su-dir" of "--su-dir DIR"), into buf. */
static const char *opt_name(const struct opt *p, char *buf, size_t size)
{
	size_t n = strcspn(p->syn + 2, " =[");

	snprintf(buf, size, "%.*s", (int)n, p->syn + 2);
	return buf;
}

/* "dwarf, disasm or both" */
static const char *words(const struct opt_value *values, char *buf, size_t size)
{
	const struct opt_value *v;
	size_t n = 0;

	buf[0] = '\0';
	for (v = values; v->word && n < size; v++)
		n += (size_t)snprintf(buf + n, size - n, "%s%s",
				      v == values ? "" : v[1].word ? ", " : " or ", v->word);
	return buf;
}

/* The value of word (NULL: the first) among values; false if none. */
static bool find_word(const struct opt_value *values, const char *word, int *out)
{
	const struct opt_value *v;

	for (v = values; v->word; v++)
		if (!strcmp(v->word, word ? word : values[0].word)) {
			*out = v->value;
			return true;
		}
	return false;
}

static int parse_word(const struct opt *p, const char *name, const char *arg, int *out)
{
	char msg[256], list[128];

	if (find_word(p->values, arg, out))
		return 0;
	snprintf(msg, sizeof(msg), "invalid --%s '%%s' (%s)", name,
		 words(p->values, list, sizeof(list)));
	return bad_usage(msg, arg);
}

static int parse_count(const char *name, const char *s, unsigned *out)
{
	char *end;
	unsigned long v;

	if (*s < '0' || *s > '9')
		return bad_usage("invalid number for --%s", name);
	v = strtoul(s, &end, 10);
	if (*end || v > 1000000000ul)
		return bad_usage("invalid number for --%s", name);
	*out = (unsigned)v;
	return 0;
}

static void push(struct strlist *l, const char *s)
{
	SP_ALLOC_GROW(l->v, l->n + 1, l->cap);
	l->v[l->n++] = s;
}

/* The value of option p into o. */
static int parse_option(struct options *o, const struct opt *p, const char *arg)
{
	char *at = (char *)o + p->off, name[32];

	opt_name(p, name, sizeof(name));
	if (p->set)
		*((bool *)((char *)o + p->set)) = true;
	switch (p->kind) {
	case OPT_FLAG:
		*(bool *)at = true;
		return 0;
	case OPT_STR:
		*(const char **)at = arg;
		return 0;
	case OPT_LIST:
		push((struct strlist *)at, arg);
		return 0;
	case OPT_COUNT:
		return parse_count(name, arg, (unsigned *)at);
	case OPT_BYTES:
		if (sp_parse_size(arg, (uint64_t *)at))
			return bad_usage("invalid size for --%s (e.g. 4096, 8K, 1M)", name);
		return 0;
	case OPT_ENUM:
		return parse_word(p, name, arg, (int *)at);
	default:
		return bad_usage("%s", "invalid option");
	}
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
	for (i = 0; i < o->elfs.n; i++)
		if (!strcmp(o->elfs.v[i], path) ||
		    (id.ino && o->elf_ids[i].ino == id.ino && o->elf_ids[i].dev == id.dev))
			return;
	SP_ALLOC_GROW(o->elf_ids, o->elfs.n + 1, o->elf_ids_cap);
	o->elf_ids[o->elfs.n] = id;
	push(&o->elfs, path);
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

/* The inputs: the first is the image; later ELF files are more images
 * (modules), anything else is a .su file or directory, which may hold
 * modules. */
static int parse_inputs(struct options *o, int argc, char **argv)
{
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
	push_elf(o, argv[optind++]);
	for (; optind < argc; optind++) {
		if (cg_is_elf_file(argv[optind])) {
			push_elf(o, argv[optind]);
			continue;
		}
		push(&o->su_paths, argv[optind]);
		if (is_dir(argv[optind]))
			push_dir_modules(o, argv[optind]);
	}
	return 0;
}

/* getopt_long's table: each option's val is its row in opts, past the
 * short letters. */
static void getopt_table(struct option *lo, char *shorts, char (*names)[32])
{
	const struct opt *p;
	size_t n = 0;

	*shorts++ = ':';
	for (p = opts; p < opts + NOPTS; p++) {
		bool flag = p->kind == OPT_FLAG || p->kind == OPT_HELP || p->kind == OPT_VERSION;

		if (p->kind == OPT_TEXT || p->kind == OPT_GROUP)
			continue;
		lo[n].name = opt_name(p, names[n], sizeof(names[n]));
		lo[n].has_arg = flag ? no_argument : strstr(p->syn, "[=") ? optional_argument :
				required_argument;
		lo[n].flag = NULL;
		lo[n++].val = 256 + (int)(p - opts);
		if (p->sh) {
			*shorts++ = p->sh;
			if (lo[n - 1].has_arg == required_argument)
				*shorts++ = ':';
		}
	}
	memset(&lo[n], 0, sizeof(lo[n]));
	*shorts = '\0';
}

static const struct opt *opt_of(int c)
{
	const struct opt *p;

	if (c >= 256)
		return &opts[c - 256];
	for (p = opts; p < opts + NOPTS; p++)
		if (p->sh == c)
			return p;
	return NULL;
}

/*
 * What the environment asks, for tests and measurements: STACKPROF_LIBS=no
 * is --no-libs for every run (the tests whose oracles stop at the
 * program's own code, GCC's call graph and the .su files, run as they
 * were written); STACKPROF_SPLIT_WALK the .debug_info size from which
 * the DWARF walk is split over two threads (a size, e.g. 0 or 4M, or
 * "never"; unset: the loader's default); STACKPROF_CFI how CFI frames
 * find their FDEs, each through .eh_frame_hdr or libdwarf's list of all
 * (unset: one by one when few functions need a frame);
 * STACKPROF_NEST_CONTEXTS the most contexts the once/nest solver makes
 * in each attempt but its coarsest (1 to 524288; tests reach the coarse
 * counts with small graphs).  A value not understood is a
 * warning.
 */
static void read_env(struct options *o)
{
	const char *libs = getenv("STACKPROF_LIBS"), *split = getenv("STACKPROF_SPLIT_WALK");
	const char *cfi = getenv("STACKPROF_CFI"), *nest = getenv("STACKPROF_NEST_CONTEXTS");
	char list[128], *end;
	unsigned long most;
	uint64_t min;

	if (libs && !strcmp(libs, "no"))
		o->no_libs = true;
	if (split && !strcmp(split, "never"))
		o->cg.split_walk_min = UINT64_MAX;
	else if (split && *split && !sp_parse_size(split, &min))
		o->cg.split_walk_min = min ? min : 1;
	else if (split && *split)
		fprintf(stderr, "stackprof: warning: ignoring STACKPROF_SPLIT_WALK='%s' "
			"(a size such as 16M, or never)\n", split);
	if (cfi && *cfi && !find_word(cfi_values, cfi, &o->cfi_lookup))
		fprintf(stderr, "stackprof: warning: ignoring STACKPROF_CFI='%s' (%s)\n", cfi,
			words(cfi_values, list, sizeof(list)));
	if (nest && *nest) {
		most = strtoul(nest, &end, 10);
		if (*end || most < 1 || most > 524288 || *nest == '-')
			fprintf(stderr, "stackprof: warning: ignoring STACKPROF_NEST_CONTEXTS='%s' "
				"(1 to 524288)\n", nest);
		else
			o->nest_limit = (uint32_t)most;
	}
}

int parse_args(struct options *o, int argc, char **argv)
{
	struct option lo[NOPTS + 1];
	char shorts[2 * NOPTS + 2], names[NOPTS][32];
	const struct opt *p;
	int c;

	getopt_table(lo, shorts, names);
	o->top = 10;
	opterr = 0;
	while ((c = getopt_long(argc, argv, shorts, lo, NULL)) != -1) {
		if (c == '?')
			return bad_usage("unknown option '%s'", argv[optind - 1]);
		if (c == ':')
			return bad_usage("option '%s' needs a value", argv[optind - 1]);
		if (!(p = opt_of(c)))
			return bad_usage("%s", "invalid option");
		if (p->kind == OPT_HELP) {
			print_help(stdout);
			return 1;
		}
		if (p->kind == OPT_VERSION) {
			printf("stackprof %s\n", STACKPROF_VERSION);
			return 1;
		}
		if (parse_option(o, p, optarg))
			return -1;
	}
	if (check_graph_options(o) || parse_inputs(o, argc, argv))
		return -1;
	read_env(o);
	return 0;
}

void release_options(struct options *o)
{
	size_t i;

	free(o->su_dirs.v);
	free(o->entries.v);
	free(o->elfs.v);
	free(o->elf_ids);
	for (i = 0; i < o->nfound; i++)
		free(o->found[i]);
	free(o->found);
	free(o->entry_globs.v);
	free(o->annotate.v);
	free(o->su_paths.v);
}
