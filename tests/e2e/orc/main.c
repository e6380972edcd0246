/* main.c - the program around kfuncs.c and kcold.c (t1020) */
#include <stdio.h>
#include <stdlib.h>

int k_top(int n);
int c_hot(int n);
void k_tail(int n);

static void on_hook(int n)
{
	printf("hook %d\n", n);
}

void (*hook)(int) = on_hook;

void sink(volatile char *p, int n)
{
	p[0] = (char)n;
}

void panic(const char *why)
{
	fprintf(stderr, "%s\n", why);
	exit(1);
}

int main(int argc, char **argv)
{
	(void)argv;
	k_tail(argc);
	return k_top(argc) + c_hot(argc);
}
