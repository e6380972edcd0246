/*
 * clang: built with clang -O2 -g -fstack-usage (DWARF 5, no .ci files).
 * The expected totals are summed by hand from the .su rows along these
 * calls (tests/e2e/t1220-clang.sh):
 *   main -> prepare (inlined) -> fill
 *   main -> checksum -> mix (tail call, DW_AT_call_pc) -> fill
 *   main -> dispatch -> indirect call (unbounded)
 *   main -> countdown -> countdown (recursion)
 * util.c has a static "mix" too, with another frame.
 */
#include "util.h"

__attribute__((noinline)) static int mix(int x)
{
	volatile char big[300];

	big[0] = (char)x;
	return fill(big, x & 7) + big[0];
}

__attribute__((noinline)) int checksum(int seed)
{
	volatile int acc[16];

	acc[0] = seed;
	return mix(acc[0] + 1);
}

static int twice(int x)
{
	return 2 * x;
}

int main(int argc, char **argv)
{
	volatile char line[64];

	(void)argv;
	line[0] = (char)argc;
	line[1] = (char)(prepare(argc) + checksum(line[0]) + dispatch(twice, argc) +
			 countdown(argc));
	return 0;
}
