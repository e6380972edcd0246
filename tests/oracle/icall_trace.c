/*
 * icall_trace.c - the runtime side of the indirect-call soundness check
 * (tests/e2e/icall_check.py): linked into a program built with
 * -finstrument-functions, it records every (call site, callee) pair the
 * run takes, once each, and writes them at exit to the file
 * $ICALL_TRACE names (appended), one "SITE CALLEE" pair of hex
 * addresses a line.  SITE is the return address of the call that entered
 * CALLEE; the program is linked -no-pie, so that both are the ELF's own
 * addresses.  Compiled without -finstrument-functions.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define NO_TRACE __attribute__((no_instrument_function))
#define SLOTS (1u << 20)

struct pair {
	uintptr_t site, fn;
};

static struct pair seen[SLOTS];
static unsigned used;
static int overflow;

NO_TRACE static unsigned hash(uintptr_t site, uintptr_t fn)
{
	uint64_t h = (uint64_t)site * 0x9e3779b97f4a7c15u ^ (uint64_t)fn * 0xc2b2ae3d27d4eb4fu;

	return (unsigned)(h >> 40) & (SLOTS - 1);
}

NO_TRACE void __cyg_profile_func_enter(void *fn, void *site)
{
	unsigned i = hash((uintptr_t)site, (uintptr_t)fn), n;

	for (n = 0; n < SLOTS; n++, i = (i + 1) & (SLOTS - 1)) {
		if (seen[i].fn == (uintptr_t)fn && seen[i].site == (uintptr_t)site)
			return;
		if (!seen[i].fn) {
			if (used + 1 >= SLOTS / 2) {
				overflow = 1;
				return;
			}
			seen[i].fn = (uintptr_t)fn;
			seen[i].site = (uintptr_t)site;
			used++;
			return;
		}
	}
}

NO_TRACE void __cyg_profile_func_exit(void *fn, void *site)
{
	(void)fn;
	(void)site;
}

NO_TRACE __attribute__((destructor)) static void icall_trace_dump(void)
{
	const char *path = getenv("ICALL_TRACE");
	FILE *f;
	unsigned i;

	if (!path || !(f = fopen(path, "a")))
		return;
	if (overflow)
		fprintf(f, "overflow\n");
	for (i = 0; i < SLOTS; i++)
		if (seen[i].fn)
			fprintf(f, "%lx %lx\n", (unsigned long)seen[i].site, (unsigned long)seen[i].fn);
	fclose(f);
}
