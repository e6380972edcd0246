/*
 * annotate.h - the --annotate file: what the binary cannot tell.
 *
 * One directive per line, words separated by blanks, '#' starts a
 * comment.  FUNC is a function as --entry takes it (NAME or FILE:NAME;
 * a name also matches its GCC clones):
 *
 *	frame FUNC BYTES		its own frame (assembly, a VLA's bound)
 *	calls FUNC TARGET...		the targets of FUNC's indirect calls
 *	recursion FUNC DEPTH		FUNC's cycle: each member at most DEPTH
 *					times on the stack at once
 *	entry FUNC BYTES		an entry point with its own stack budget
 *	ignore FUNC CALLEE		drop the calls from FUNC to CALLEE
 *
 * BYTES takes K, M, G (binary).  Parsing only checks the syntax; names
 * are resolved against the graph by sp_annot_apply().  Neither prints:
 * errors are "FILE:LINE: message" in struct sp_err.
 */
#ifndef SP_ANNOTATE_H
#define SP_ANNOTATE_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "stackprof.h"

enum sp_annot_kind {
	SP_ANNOT_FRAME = 0,
	SP_ANNOT_CALLS,
	SP_ANNOT_RECURSION,
	SP_ANNOT_ENTRY,
	SP_ANNOT_IGNORE,
};

struct sp_annot {
	enum sp_annot_kind kind;
	const char *file;	/* the file it came from (owned by sp_annots) */
	uint32_t line;		/* 1-based line in the file */
	char *func;		/* FUNC */
	char **names;		/* calls: TARGETs; ignore: the CALLEE */
	size_t nnames;
	uint64_t value;		/* frame/entry: bytes; recursion: depth */
};

struct sp_annots {
	char **files;		/* names as given, for messages */
	size_t nfiles, files_cap;
	struct sp_annot *v;
	size_t n, cap;
};

void sp_annots_init(struct sp_annots *a);
void sp_annots_release(struct sp_annots *a);

/* Parse len bytes of buf (need not be NUL-terminated), appending to a.
 * file names the buffer in messages. */
int sp_annot_parse(struct sp_annots *a, const char *file, const char *buf,
		   size_t len, struct sp_err *err);
/* Read and parse the file at path. */
int sp_annot_load(struct sp_annots *a, const char *path, struct sp_err *err);

/*
 * The "frame" lines, for the frames stage to decide with the other
 * sources (frames/frames.h): one sp_frame per function each names.
 * Checks every name of every line, in file order: a name that matches
 * no function is "FILE:LINE: unknown function 'NAME'" in err.
 */
int sp_annot_frames(const struct sp_annots *a, const struct sp_graph *g,
		    struct sp_frames *out, struct sp_err *err);

/*
 * Apply the rest to the graph before sp_analyze(): indirect
 * targets (CALL edges flagged SP_EDGE_F_ANNOTATED,
 * the caller flagged SP_F_INDIRECT_ANNOTATED, what
 * sp_assume_address_taken() assumed for it dropped), recursion depths
 * (rec_depth), entry budgets (SP_F_BUDGET) and ignored calls (removed).
 * A name that matches no function, or an ignore without such a call, is
 * "FILE:LINE: ..." in err.
 */
int sp_annot_apply(const struct sp_annots *a, struct sp_graph *g, struct sp_err *err);

/*
 * --indirect=address-taken, before sp_annot_apply(): every function with
 * indirect calls may call each function whose taken[id] is set (a set of
 * g->assumed, not edges: see struct sp_assumed), and is flagged
 * SP_F_INDIRECT_ASSUMED.  When each of its indirect calls is in
 * g->icalls, only the functions whose sp_func.proto is one of theirs or
 * unknown (and SP_F_INDIRECT_TYPED).  Sorts g->icalls.  Returns the
 * number of calls assumed (the edges the sets stand for).
 */
uint64_t sp_assume_address_taken(struct sp_graph *g, const uint8_t *taken);

#endif
