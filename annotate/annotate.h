/*
 * annotate.h - the --annotate file: what the binary cannot tell.
 *
 * One directive per line, words separated by blanks, '#' starts a
 * comment.  FUNC is a function as --entry takes it (NAME or FILE:NAME;
 * a name also matches its GCC clones), or a node stackprof adds, such
 * as "<page fault>": a word from '<' to '>' may hold blanks.
 *
 *	frame FUNC BYTES		its own frame (assembly, a VLA's bound)
 *	calls FUNC TARGET...		the targets of FUNC's indirect calls
 *	recursion FUNC DEPTH		FUNC's cycle: each member at most DEPTH
 *					times on the stack at once
 *	entry FUNC BYTES		an entry point with its own stack budget
 *	ignore FUNC CALLEE		drop the calls from FUNC to CALLEE
 *	ignore FUNC CALLEE below ANCESTOR
 *					... only while ANCESTOR is on the
 *					stack below FUNC
 *	ignore FUNC CALLEE below ANCESTOR unless RESET...
 *					... and no RESET on the stack
 *	ignore FUNC CALLEE from CALLER	FUNC, when CALLER calls it, does not
 *					call CALLEE (an argument CALLER
 *					passes): CALLER calls a copy of FUNC
 *					without those calls
 *	ignore FUNC CALLEE from CALLER CALLER2...
 *					... when CALLER is itself called by
 *					CALLER2 (by CALLER3 ...): CALLER2
 *					calls a copy of CALLER that calls
 *					that copy of FUNC
 *	once FUNC			FUNC is never on one stack twice
 *	nest FUNC DEPTH			FUNC is on one stack at most DEPTH times
 *	nest FUNC per HOLDER...		FUNC is on one stack at most as often
 *					as HOLDERs are below it (each
 *					activation of one counts once)
 *
 * FUNC, CALLEE and ANCESTOR may name the calls a function makes from
 * inside the copies of a callee the compiler inlined into it, as
 * FUNC/INLINED ("raise_softirq_irqoff/wakeup_softirqd"): a node of frame
 * 0 between the function and those calls (struct sp_inlined), made for
 * the names the lines give (sp_annot_inlined_at) when the graph is built.
 *
 * A line may start with 'optional': a name it gives that is not in the
 * image (or an ignore without such a call) skips the line instead of
 * being an error, for a file written for many builds (the Linux file).
 * A line may also start with 'assume' (before or after 'optional', each
 * at most once): the line is applied as without it, but it states what
 * run-time values make so, not a fact of the code (the Linux file
 * linux-assumed.ann).  The functions it names for that (FUNC; of 'from',
 * FUNC's copies) are flagged SP_F_ASSUME, with the line's bit in
 * assume_bits (graph->assume_lines): every total that reaches one is
 * assumed (SP_CAUSE_ASSUMPTION), and names the lines it rests on.
 * BYTES takes K, M, G (binary).  Parsing only checks the syntax; names
 * are resolved against the graph by sp_annot_apply().  Neither prints:
 * errors are "FILE:LINE: message" in struct sp_err.
 */
#ifndef SP_ANNOTATE_H
#define SP_ANNOTATE_H

#include <stdbool.h>
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
	SP_ANNOT_NEST,		/* once (value 1) and nest */
};

struct sp_annot {
	enum sp_annot_kind kind;
	const char *file;	/* the file it came from (owned by sp_annots) */
	uint32_t line;		/* 1-based line in the file */
	char *func;		/* FUNC */
	char **names;		/* calls: TARGETs; ignore: the CALLEE, then
				 * the ANCESTOR of 'below', then the RESETs
				 * of 'unless' */
	size_t nnames;
	uint64_t value;		/* frame/entry: bytes; recursion, nest: depth */
	bool optional;		/* unknown names skip the line */
	bool assume;		/* an assumption: the totals resting on it are */
	char *text;		/* assume: the line from its directive on, one
				 * blank between words, for the reasons */
	bool from;		/* ignore ... from CALLER...: names are CALLEE,
				 * then the callers, the nearest first */
	bool per;		/* nest FUNC per HOLDER...: names are the
				 * HOLDERs */
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

/* A word FUNC/INLINED: the offset of its '/' (after FUNC's FILE: part,
 * INLINED an identifier), else 0. */
size_t sp_annot_inlined_at(const char *word);

/*
 * --annotate ARG (annotate/find.c): ARG is a file, unless it is a bare
 * name (letters, digits, '-', '_') and no regular file of that name
 * exists: then the shipped file NAME.ann, from the source tree's
 * annotations/ when exe (NULL: /proc/self/exe) lies inside the tree it
 * was built from, else from BINDIR/../share/stackprof/.  Messages then
 * name the file found.  sp_annot_shipped_path() is where that file
 * would be (malloc'd; NULL when exe cannot be resolved).
 */
int sp_annot_load_named(struct sp_annots *a, const char *arg, const char *exe,
			struct sp_err *err);
char *sp_annot_shipped_path(const char *name, const char *exe);

/*
 * The "frame" lines, for the frames stage to decide with the other
 * sources (frames/frames.h): one sp_frame per function each names.
 * Checks every name of every line, in file order: a name that matches
 * no function is "FILE:LINE: unknown function 'NAME'" in err, unless
 * the line is optional (then it is skipped).  A node's name ("<page
 * fault>") is left to sp_annot_apply(): the nodes come after the frames.
 */
int sp_annot_frames(const struct sp_annots *a, const struct sp_graph *g,
		    struct sp_frames *out, struct sp_err *err);

/*
 * Apply the rest to the graph before sp_analyze(): indirect
 * targets (CALL edges flagged SP_EDGE_F_ANNOTATED,
 * the caller flagged SP_F_INDIRECT_ANNOTATED, what
 * sp_assume_address_taken() assumed for it dropped), recursion depths
 * (rec_depth), entry budgets (SP_F_BUDGET), ignored calls (removed, or
 * for 'below' listed in graph->belows, the ancestor's sp_func.nest made
 * SP_NEST_CONTEXT when it has no count; for 'from', after every other
 * line, CALLER's calls redirected to a new function, a copy of FUNC
 * without those calls) and once/nest counts (sp_func.nest, the largest
 * given; 'nest FUNC per' marks FUNC SP_NEST_PER, each holder without a
 * count SP_NEST_HOLDER, and lists the pairs in graph->pers).  A name that
 * matches no function, or an ignore without such a call, is
 * "FILE:LINE: ..." in err, unless the line is optional: then the line
 * is skipped.
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
