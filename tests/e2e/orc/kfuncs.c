/*
 * kfuncs.c - kernel-like functions for t1020: objtool writes their ORC.
 * Each one's frame is what GCC's .su says (the test reads it there);
 * the comments say which shape of ORC table each one makes.
 */
#include <alloca.h>
#include <string.h>

void sink(volatile char *p, int n);
/* objtool knows panic() does not return (its global_noreturns) */
void panic(const char *why) __attribute__((noreturn));
extern void (*hook)(int);

/* nothing pushed: one row, sp+8 */
__attribute__((noinline)) int k_leaf(int x)
{
	return x * 3 + 1;
}

/* sub $N,%rsp around a call */
__attribute__((noinline)) void k_buffer(int n)
{
	char buf[64];

	memset(buf, n, sizeof(buf));
	sink(buf, n);
}

/* pushes callee-saved registers and a larger array */
__attribute__((noinline)) long k_big(int n)
{
	volatile char buf[300];
	long s = 0;

	for (int i = 0; i < n && i < 300; i++) {
		buf[i] = (char)i;
		s += buf[i];
	}
	k_buffer(n);
	return s + k_leaf(n);
}

/* an indirect tail call: "jmp *%rax" then int3 (-mharden-sls=all),
 * which objtool never reaches: an UNDEFINED row inside the function */
__attribute__((noinline)) void k_tail(int n)
{
	char buf[32];

	sink(buf, n);
	hook(n + buf[3]);
}

/* code after a call to a noreturn function is never reached */
__attribute__((noinline)) int k_check(int n)
{
	char buf[48];

	if (n < 0)
		panic("negative");
	sink(buf, n);
	return buf[n & 15];
}

/* a frame pointer: ORC puts the CFA on %rbp, so no ORC frame */
__attribute__((noinline, optimize("no-omit-frame-pointer"))) int k_fp(int n)
{
	char buf[40];

	sink(buf, n);
	return buf[1] + k_leaf(n);
}

/* alloca: a dynamic frame, on %rbp as well */
__attribute__((noinline)) int k_alloca(int n)
{
	char *p = alloca((unsigned)n + 16);

	sink(p, n);
	return p[0];
}

int k_top(int n)
{
	return (int)k_big(n) + k_check(n) + k_fp(n) + k_alloca(n);
}
