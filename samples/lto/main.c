/*
 * lto: built with -flto, so GCC generates the code, and writes the .su
 * and .ci rows, at link time, one "lto.ltransN.ltrans.su" per partition.
 * filter.c and report.c each have a static "scale" of their own (LTO
 * keeps them apart, as scale.lto_priv.N when they are promoted), small
 * functions are inlined across files, and report_twice ends in a tail
 * call across files.
 */
#include "lto.h"

__attribute__((noinline)) static int scale(int x)
{
	volatile int pad[24];

	pad[0] = x;
	return pad[0] * 3;
}

int main(int argc, char **argv)
{
	volatile char line[80];

	(void)argv;
	line[0] = (char)argc;
	line[1] = (char)(filter_run(argc + 4) + report_twice(scale(line[0])));
	return 0;
}
