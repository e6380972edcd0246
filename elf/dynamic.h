/*
 * dynamic.h - what the dynamic linker reads of an image: the libraries
 * it needs and where to look for them (.dynamic), its interpreter
 * (PT_INTERP), whether it is bound at load time; and how it finds each
 * library (ld.so's order: DT_RPATH, LD_LIBRARY_PATH, DT_RUNPATH,
 * /etc/ld.so.cache, the default directories), the whole under a
 * --sysroot when one is given.
 *
 *	struct sp_elf_dynamic d;
 *	sp_elf_read_dynamic(&elf, &d);
 *	path = sp_lib_find(&search, d.needed[i], &d, image_path);
 *	sp_elf_dynamic_release(&d);
 */
#ifndef SP_ELF_DYNAMIC_H
#define SP_ELF_DYNAMIC_H

#include <stdbool.h>
#include <stddef.h>

#include "elf/elf.h"

struct sp_elf_dynamic {
	char **needed;		/* DT_NEEDED, in order */
	size_t nneeded;
	char *rpath, *runpath;	/* DT_RPATH, DT_RUNPATH (NULL when absent) */
	char *soname;		/* DT_SONAME, NULL when absent */
	char *interp;		/* PT_INTERP, NULL when absent */
	bool bind_now;		/* DF_BIND_NOW or DF_1_NOW: no lazy binding */
	bool dynamic;		/* has a .dynamic section at all */
};

/* Read e's .dynamic (all empty for a static or relocatable image). */
void sp_elf_read_dynamic(const struct sp_elf *e, struct sp_elf_dynamic *d);
void sp_elf_dynamic_release(struct sp_elf_dynamic *d);

/* Where and for what libraries are looked up; one per run. */
struct sp_lib_search {
	const char *sysroot;	/* prefix of every path, NULL for "/" */
	uint16_t machine;	/* e_machine a library must have */
	const char *library_path;	/* LD_LIBRARY_PATH's ':' list, NULL: none */
	char *cache;		/* /etc/ld.so.cache, read once (NULL: absent) */
	size_t cache_len;
	bool cache_read;
};

/*
 * The file the dynamic linker would load for DT_NEEDED name, needed by
 * the image at by_path whose .dynamic is by: malloc'ed, or NULL when no
 * directory holds one for the machine.
 */
char *sp_lib_find(struct sp_lib_search *s, const char *name, const struct sp_elf_dynamic *by,
		  const char *by_path);
/* The separate debug file of e by its build-id
 * (SYSROOT/usr/lib/debug/.build-id/xx/yyyy.debug), malloc'ed, or NULL. */
char *sp_lib_debug_file(const struct sp_lib_search *s, const struct sp_elf *e);
void sp_lib_search_release(struct sp_lib_search *s);

#endif
