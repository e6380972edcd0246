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
