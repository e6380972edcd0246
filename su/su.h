/*
 * su.h - GCC -fstack-usage (.su) files: parse them, find them beside a
 * program's compile units, and give each row's frame to its function.
 *
 * A .su line is "FILE:LINE:COL:NAME<TAB>BYTES<TAB>QUALIFIER" (Clang omits
 * COL).  Rows are only collected here; su_match() writes them into the
 * graph, so parsing needs nothing but a string table.
 */
#ifndef SU_SU_H
#define SU_SU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "common/strtab.h"
#include "common/u64map.h"
#include "stackprof.h"

struct su_row {
	const char *file;	/* interned, as written in the .su line */
	uint32_t line, col;	/* col 0 when absent (Clang writes file:line:name) */
	const char *name;	/* interned, as .su spells it: "foo", "foo.constprop",
				 * "ns::f(int, char*)" */
	uint64_t bytes;
	enum sp_qual qual;	/* STATIC, DYNAMIC or BOUNDED (dynamic,bounded) */
	uint32_t su_file;	/* index into set->paths */
	uint32_t su_line;	/* 1-based line in that .su file */
};

struct su_set {
	struct su_row *rows;
	size_t nrows, rows_cap;
	const char **paths;	/* interned .su file paths, as given */
	uint32_t npaths, paths_cap;
	/* private: normalised absolute path (interned pointer) -> paths index,
	 * so that a file reached twice is read once */
	struct sp_u64map seen;
};

void su_set_init(struct su_set *s);
void su_set_release(struct su_set *s);

/* Parse one buffer (need not be NUL-terminated) named path.  On error
 * (malformed line without keep_going) the set is left as it was. */
int su_parse_buffer(struct su_set *s, struct sp_strtab *strs, const char *path,
		    const char *buf, size_t len, bool keep_going,
		    sp_warn_fn warn, void *warn_ctx, struct sp_err *err);
/* Read and parse one file; a file already in the set is skipped. */
int su_parse_file(struct su_set *s, struct sp_strtab *strs, const char *path,
		  bool keep_going, sp_warn_fn warn, void *warn_ctx, struct sp_err *err);
/* A file, or a directory searched recursively for *.su (sorted, deterministic). */
int su_add_path(struct su_set *s, struct sp_strtab *strs, const char *path,
		bool keep_going, sp_warn_fn warn, void *warn_ctx, struct sp_err *err);

/* One ELF input of su_discover(): its path and the compile units it
 * added to the graph, g->cus[cu_first .. cu_first + ncus). */
struct su_image {
	const char *path;
	uint32_t cu_first, ncus;
};

/*
 * Find .su files for the graph's compile units when the user named none:
 * for each CU of each image try GCC's one-step "<elf dir>/<elf>-<stem>.su"
 * (the image's own ELF), then <comp_dir>/<CU name with its extension
 * replaced by .su> (CU name may be absolute or relative to comp_dir),
 * <comp_dir>/<stem>.su, the ELF's own directory + <stem>.su, then each
 * extra root in dirs[] (searched recursively, indexed by basename once).
 * The first found wins.  LTO's "<elf>.ltransN.ltrans.su" beside each ELF
 * are read too.  Missing files are not errors; an unreadable dirs[] root
 * is.
 */
int su_discover(struct su_set *s, struct sp_graph *g, const struct su_image *imgs,
		size_t nimgs, const char *const *dirs, size_t ndirs, bool keep_going,
		sp_warn_fn warn, void *warn_ctx, struct sp_err *err);

/*
 * Give each row to at most one function with code: its frame appended to
 * frames (for the frames stage to decide with the other sources), and
 * the .su spelling of its name/file/line/col; fill g->su_rows, su_matched
 * and su_files.  The rows must have been parsed with g->strs:
 * their names are compared with the model's by pointer.  Unmatched rows
 * are passed to verbose (may be NULL) as "FILE:LINE: no function in the
 * image for 'NAME'".
 */
int su_match(struct sp_graph *g, const struct su_set *s, struct sp_frames *frames,
	     sp_warn_fn verbose, void *verbose_ctx, struct sp_err *err);

/* What the stage is asked for: the .su files and directories named
 * (paths), more directories (dirs: more files when paths are named, the
 * roots discovery searches when none is), the images whose compile
 * units discovery looks beside, and where warnings (warn) and unmatched
 * rows (note, may be NULL) go. */
struct su_request {
	const char *const *paths;
	size_t npaths;
	const char *const *dirs;
	size_t ndirs;
	const struct su_image *imgs;
	size_t nimgs;
	bool keep_going;
	sp_warn_fn warn, note;
	void *ctx;
};

/* The stage: the files named, or found (su_discover), their rows matched
 * to the functions (su_match) and their frames appended to frames. */
int su_read(struct sp_graph *g, const struct su_request *r, struct sp_frames *frames,
	    struct sp_err *err);

/* Shared by find.c and match.c: lexical path helpers (internal). */
/* Join dir and path unless path is absolute, fold "." and ".." and
 * repeated slashes; the result is malloc'ed.  A NULL dir means the
 * current directory. */
char *su_path_normalize(const char *dir, const char *path);
/* Length of s without its extension (the last '.' after the last '/'). */
size_t su_path_stem_len(const char *s);
/* How many trailing path components [a, a+alen) and [b, b+blen) share. */
size_t su_path_common_suffix(const char *a, size_t alen, const char *b, size_t blen);
/* The *.su files under dir, sorted; each path and the array are malloc'ed. */
int su_collect_dir(const char *dir, char ***paths, size_t *n, struct sp_err *err);

#endif
