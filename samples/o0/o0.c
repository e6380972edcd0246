/*
 * o0: a program built at -O0 (samples/Makefile).  GCC writes no DWARF
 * call sites without optimisation, so stackprof takes every call from
 * the machine code; the leaves (leaves.c) keep their locals in the
 * x86-64 red zone, below %rsp, which no .su frame counts.
 * main -> middle -> big_leaf is the deepest path; middle also calls
 * small_leaf, main also calls small_leaf directly.
 */
#include "o0.h"

int middle(int x)
{
	volatile char buf[40];

	buf[0] = (char)x;
	return small_leaf(x, 2) + big_leaf(x + 1) + buf[0];
}

int main(int argc, char **argv)
{
	(void)argv;
	return middle(argc) + small_leaf(argc, 3) == 0 ? 1 : 0;
}
