/*
 * icall_trace.c - the runtime side of the indirect-call soundness check
 * (tests/e2e/icall_check.py): linked into a program built with
 * -finstrument-functions, it records every (call site, callee) pair the
 * run takes, once each, and writes them at exit to the file
 * $ICALL_TRACE names (appended), one "SITE CALLEE HOOK" triple of hex
 * addresses a line.  SITE is the return address of the call that entered
 * CALLEE; HOOK is where the hook was called from, which tells a callee
 * entered from one inlined into another function (GCC instruments those
 * too, with the outer function's SITE): HOOK is then outside CALLEE's
 * code.  The program is linked -no-pie, so that all are the ELF's own
 * addresses.  Compiled without -finstrument-functions.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define NO_TRACE __attribute__((no_instrument_function))
#define SLOTS (1u << 20)

struct pair {
	uintptr_t site, fn, hook;
};

static struct pair seen[SLOTS];
static unsigned used;
static int overflow;

NO_TRACE static unsigned hash(uintptr_t site, uintptr_t fn, uintptr_t hook)
{
	uint64_t h = (uint64_t)site * 0x9e3779b97f4a7c15u ^ (uint64_t)fn * 0xc2b2ae3d27d4eb4fu ^
		     (uint64_t)hook * 0x165667b19e3779f9u;

	return (unsigned)(h >> 40) & (SLOTS - 1);
}

NO_TRACE __attribute__((noinline)) void __cyg_profile_func_enter(void *fn, void *site)
{
	uintptr_t hook = (uintptr_t)__builtin_return_address(0);
	unsigned i = hash((uintptr_t)site, (uintptr_t)fn, hook), n;

	for (n = 0; n < SLOTS; n++, i = (i + 1) & (SLOTS - 1)) {
		if (seen[i].fn == (uintptr_t)fn && seen[i].site == (uintptr_t)site &&
		    seen[i].hook == hook)
			return;
		if (!seen[i].fn) {
			if (used + 1 >= SLOTS / 2) {
				overflow = 1;
				return;
			}
			seen[i].fn = (uintptr_t)fn;
			seen[i].site = (uintptr_t)site;
			seen[i].hook = hook;
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
			fprintf(f, "%lx %lx %lx\n", (unsigned long)seen[i].site,
				(unsigned long)seen[i].fn, (unsigned long)seen[i].hook);
	fclose(f);
}
