/*
 * libs.c - the shared libraries a program needs, loaded once each as
 * images of the same graph: the inputs' DT_NEEDED, then theirs, breadth
 * first, each found the way ld.so finds it (elf/dynamic.c).  Their calls
 * are linked by name with the inputs' (cg_link), as modules' are.
 */
#include "callgraph/internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/xalloc.h"
#include "elf/dynamic.h"

struct libs {
	struct cg_image ***imgs;
	size_t *n, cap;
	struct sp_graph *g;
	const struct cg_options *opts;
	struct sp_lib_search search;
	const char **names;	/* DT_NEEDED names seen (interned) */
	size_t nnames, names_cap;
	struct stat *files;	/* each loaded library's file */
	size_t nfiles, files_cap;
	sp_warn_fn warn;
	void *warn_ctx;
};

static void warnf(struct libs *l, const char *fmt, const char *a, const char *b)
{
	char msg[2 * sizeof(((struct sp_err *)0)->msg) + 128];

	if (!l->warn)
		return;
	snprintf(msg, sizeof(msg), fmt, a, b);
	l->warn(l->warn_ctx, msg);
}

/* Is the name, or the file it names, one already loaded or tried? */
static bool seen(struct libs *l, const char *name, const struct stat *st)
{
	size_t i;

	for (i = 0; name && i < l->nnames; i++)
		if (l->names[i] == name)
			return true;
	for (i = 0; st && i < l->nfiles; i++)
		if (l->files[i].st_ino == st->st_ino && l->files[i].st_dev == st->st_dev)
			return true;
	return false;
}

static void add_image(struct libs *l, struct cg_image *img)
{
	SP_ALLOC_GROW(*l->imgs, *l->n + 1, l->cap);
	(*l->imgs)[(*l->n)++] = img;
}

/* Load the library at path as name; a library that cannot be read is a
 * warning, and the calls into it stay unknown. */
static void load_one(struct libs *l, const char *name, char *path)
{
	struct cg_image *img;
	struct sp_err err;
	struct stat st;
	char *debug;
	const char *kept = sp_intern(l->g, path);

	free(path);
	if (stat(kept, &st) || seen(l, NULL, &st))
		return;
	SP_ALLOC_GROW(l->files, l->nfiles + 1, l->files_cap);
	l->files[l->nfiles++] = st;
	cg_open(&img, kept, &err);
	/* the build-id is read from the library itself first */
	if (sp_elf_open(&img->elf, l->g, kept, &err)) {
		warnf(l, "%s: %s: its calls stay unknown", name, err.msg);
		cg_close(img);
		return;
	}
	debug = sp_lib_debug_file(&l->search, &img->elf);
	sp_elf_close(&img->elf);
	img->elf.fd = -1;
	if (cg_load_library(img, l->g, l->opts, name, debug ? sp_intern(l->g, debug) : NULL,
			    &err)) {
		warnf(l, "%s: %s: its calls stay unknown", name, err.msg);
		cg_close(img);
	} else {
		add_image(l, img);
	}
	free(debug);
}

/* The libraries image i needs that no image loaded yet. */
static void load_needed(struct libs *l, size_t i)
{
	struct cg_image *by = (*l->imgs)[i];
	struct sp_elf_dynamic d;
	size_t k;

	sp_elf_read_dynamic(&by->elf, &d);
	for (k = 0; k < d.nneeded; k++) {
		const char *name = sp_intern(l->g, d.needed[k]);
		char *path;

		if (seen(l, name, NULL))
			continue;
		SP_ALLOC_GROW(l->names, l->nnames + 1, l->names_cap);
		l->names[l->nnames++] = name;
		path = sp_lib_find(&l->search, name, &d, by->path);
		if (!path) {
			warnf(l, "library '%s' needed by '%s' not found: its calls stay unknown",
			      name, by->path);
			continue;
		}
		load_one(l, name, path);
	}
	sp_elf_dynamic_release(&d);
}

int cg_load_libs(struct cg_image ***imgs, size_t *n, struct sp_graph *g,
		 const struct cg_options *opts, const char *sysroot, sp_warn_fn warn,
		 void *warn_ctx)
{
	struct libs l = {
		.imgs = imgs, .n = n, .cap = *n, .g = g, .opts = opts,
		.warn = warn, .warn_ctx = warn_ctx,
	};
	size_t i, inputs = *n;
	struct stat st;

	if (!*n)
		return 0;
	l.search.sysroot = sysroot;
	l.search.machine = (*imgs)[0]->elf.machine;
	/* as ld.so reads it where the program runs: here, or the root's
	 * directories of the same names */
	l.search.library_path = getenv("LD_LIBRARY_PATH");
	for (i = 0; i < inputs; i++)
		if (!stat((*imgs)[i]->path, &st)) {
			SP_ALLOC_GROW(l.files, l.nfiles + 1, l.files_cap);
			l.files[l.nfiles++] = st;
		}
	for (i = 0; i < *n; i++)
		load_needed(&l, i);
	sp_lib_search_release(&l.search);
	free(l.names);
	free(l.files);
	return 0;
}
