/*
 * xalloc.h - allocation that never returns NULL.
 *
 * The one exception to "library code never exits": like git's xmalloc,
 * running out of memory prints "stackprof: out of memory" and exits 2,
 * because no caller could do anything better and threading ENOMEM through
 * every loader would hide the real error paths.
 */
#ifndef SP_XALLOC_H
#define SP_XALLOC_H

#include <stddef.h>
#include <stdlib.h>

_Noreturn void sp_die_oom(void);
void *sp_xmalloc(size_t size);
void *sp_xcalloc(size_t n, size_t size);
void *sp_xrealloc(void *p, size_t size);
char *sp_xstrdup(const char *s);
/* For hash tables probed at random: huge pages when large; free() it. */
void *sp_xmalloc_table(size_t size);

/*
 * Arrays that grow past a few MiB (a walk's records: 150 MB at a million
 * functions) live in a mapping of their own and grow with mremap, which
 * moves the pages instead of copying them: glibc's realloc copies, its
 * own mmap being off (see main.c).  bytes is what the array holds now
 * (capacity times element size), which also tells how to free it.
 */
void *sp_big_grow(void *p, size_t bytes, size_t new_bytes);
void sp_big_free(void *p, size_t bytes);

/* The capacity an array of cap elements grows to, to hold n: doubled. */
static inline size_t sp_grown_cap(size_t cap, size_t n)
{
	size_t nc = cap ? cap * 2 : 16;

	return nc < n ? n : nc;
}

/* Grow array p (of *cap elements) so that it holds at least n elements. */
#define SP_ALLOC_GROW(p, n, cap) do { \
	if ((size_t)(n) > (size_t)(cap)) { \
		size_t sp_nc_ = sp_grown_cap((cap), (n)); \
		(p) = sp_xrealloc((p), sp_nc_ * sizeof(*(p))); \
		(cap) = sp_nc_; \
	} \
} while (0)

/* SP_ALLOC_GROW for an array freed with sp_big_free(p, cap * size). */
#define SP_BIG_GROW(p, n, cap) do { \
	if ((size_t)(n) > (size_t)(cap)) { \
		size_t sp_nc_ = sp_grown_cap((cap), (n)); \
		(p) = sp_big_grow((p), (size_t)(cap) * sizeof(*(p)), sp_nc_ * sizeof(*(p))); \
		(cap) = sp_nc_; \
	} \
} while (0)

#endif
