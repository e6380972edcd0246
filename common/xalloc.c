#include "common/xalloc.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

_Noreturn void sp_die_oom(void)
{
	static const char msg[] = "stackprof: out of memory\n";

	/* write(2): stdio may itself need memory */
	if (write(STDERR_FILENO, msg, sizeof(msg) - 1) < 0)
		_exit(2);
	_exit(2);
}

void *sp_xmalloc(size_t size)
{
	void *p = malloc(size ? size : 1);

	if (!p)
		sp_die_oom();
	return p;
}

void *sp_xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (!p)
		sp_die_oom();
	return p;
}

void *sp_xrealloc(void *p, size_t size)
{
	void *q = realloc(p, size ? size : 1);

	if (!q)
		sp_die_oom();
	return q;
}

char *sp_xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;

	return memcpy(sp_xmalloc(n), s, n);
}

/* From here an array is mapped: below, malloc's heap serves it better.
 * Under AddressSanitizer never, so that it keeps guarding the records
 * (GCC says so with __SANITIZE_ADDRESS__, Clang with __has_feature). */
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SP_UNDER_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(SP_UNDER_ASAN)
#define SP_BIG SIZE_MAX
#else
#define SP_BIG ((size_t)4 << 20)
#endif

static size_t page_round(size_t n)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);

	return (n + page - 1) / page * page;
}

void *sp_big_grow(void *p, size_t bytes, size_t new_bytes)
{
	void *q;

	if (new_bytes < SP_BIG)
		return sp_xrealloc(p, new_bytes);
	if (bytes >= SP_BIG) {
		q = mremap(p, page_round(bytes), page_round(new_bytes), MREMAP_MAYMOVE);
		if (q == MAP_FAILED)
			sp_die_oom();
		return q;
	}
	q = mmap(NULL, page_round(new_bytes), PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (q == MAP_FAILED)
		sp_die_oom();
	if (bytes)
		memcpy(q, p, bytes);
	free(p);
	return q;
}

void sp_big_free(void *p, size_t bytes)
{
	if (p && bytes >= SP_BIG)
		munmap(p, page_round(bytes));
	else
		free(p);
}

#define SP_HUGE_PAGE ((size_t)2 << 20)

void *sp_xmalloc_table(size_t size)
{
	void *p;

	if (size < 2 * SP_HUGE_PAGE)
		return sp_xmalloc(size);
	size = (size + SP_HUGE_PAGE - 1) & ~(SP_HUGE_PAGE - 1);
	p = aligned_alloc(SP_HUGE_PAGE, size);
	if (!p)
		sp_die_oom();
	/* a probe of a table larger than the caches misses the TLB too;
	 * 2 MiB pages make that one miss, not two (advice only) */
	madvise(p, size, MADV_HUGEPAGE);
	return p;
}
