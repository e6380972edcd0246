#ifndef UTIL_H
#define UTIL_H

int fill(volatile char *buf, int n);
int checksum(int seed);
int dispatch(int (*op)(int), int x);
int countdown(int n);

/* inlined into its callers: its call to fill is a DW_TAG_call_site
 * nested in a DW_TAG_inlined_subroutine */
static inline int prepare(int n)
{
	volatile char scratch[48];

	return fill(scratch, n) + scratch[0];
}

#endif
