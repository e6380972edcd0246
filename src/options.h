/*
 * options.h - the command line, as main reads it: one table of the
 * options (options.c) gives the parser, --help and the errors.
 */
#ifndef SP_OPTIONS_H
#define SP_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "callgraph/callgraph.h"
#include "indirect/indirect.h"

enum { EXIT_BUDGET = 1, EXIT_BAD = 2 };

/* A file as the file system knows it, whatever path names it. */
struct file_id {
	dev_t dev;
	ino_t ino;
};

struct strlist {
	const char **v;
	size_t n, cap;
};

struct options {
	struct strlist elfs;	/* positional ELF files: the image, then modules */
	struct file_id *elf_ids;	/* each one's, when it could be stat'ed */
	size_t elf_ids_cap;
	char **found;		/* modules found in directories (ours to free) */
	size_t nfound, found_cap;
	struct strlist su_paths;	/* positional .su files/dirs */
	struct strlist su_dirs;		/* --su-dir */
	struct strlist entries;		/* --entry specs */
	struct strlist entry_globs;	/* --entry-glob patterns */
	struct strlist annotate;	/* --annotate files */
	const char *output;
	const char *dot, *svg, *png, *sarif, *folded, *html;
	const char *sysroot;	/* --sysroot: where the libraries are looked for */
	int view;		/* --graph: enum sp_gv_view */
	int indirect;		/* --indirect: enum ind_mode */
	int json_paths_all;	/* --json-paths=all */
	int vla_format;		/* --vla=: enum sp_vla_format */
	int cfi_lookup;		/* STACKPROF_CFI: enum dw_cfi_lookup */
	uint32_t nest_limit;	/* STACKPROF_NEST_CONTEXTS: sp_graph.nest_limit */
	bool view_given, vla, has_budget, has_growth_limit;
	bool json, keep_going, verbose, allow_unbounded, all, kernel_summary;
	bool no_su;		/* --no-su: frames from the binary alone */
	bool no_libs;		/* --no-libs: the shared libraries are not read */
	bool diff;		/* --diff OLD NEW */
	struct cg_options cg;
	uint64_t budget, min_total, growth_limit;
	unsigned top, depth, graph_top;
	const char *diff_old, *diff_new;
};

/* 1 when the command is done (--help, --version), -1 on bad usage (the
 * message printed), 0 to run. */
int parse_args(struct options *o, int argc, char **argv);
void release_options(struct options *o);

#endif
