/*
 * clones: at -O2 GCC turns the static helpers of work.c into clones
 * (scaled.constprop.0 for a constant argument, weigh.isra.0 for a struct
 * passed by pointer of which one field is read) and splits run_hot's
 * unlikely branch into run_hot.cold, which calls report_failure.  The .su
 * and DWARF name the clones differently; the .cold part's calls belong
 * to run_hot.
 */
#include <stdio.h>

#include "clones.h"

int main(int argc, char **argv)
{
	(void)argv;
	printf("clones: %d %d\n", run_hot(argc), run_config(argc));
	return 0;
}
