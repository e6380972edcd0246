/*
 * tangle.c - six 'once' functions that all call each other and
 * themselves, for the once/nest solver's coarse counts
 * (tests/e2e/t1132-once-pooled.sh): exact counts need a context per
 * function and set of the others on the stack (6 * 2^5), which a low
 * STACKPROF_NEST_CONTEXTS makes too many.  Each has a frame of its own
 * size; which one it calls is decided at run time by a volatile, so
 * every call is in the call graph and none is a tail call (each result
 * is stored into the frame).  No library calls: every frame has a .su
 * row.
 */
static volatile int pick = -1;	/* never a function's number here */

int f0(int d), f1(int d), f2(int d), f3(int d), f4(int d), f5(int d);

#define TANGLED(name, bytes)						\
	__attribute__((noinline)) int name(int d)			\
	{								\
		volatile char buf[bytes];				\
									\
		buf[0] = (char)d;					\
		if (pick == 0)						\
			buf[1] = (char)f0(d + 1);			\
		if (pick == 1)						\
			buf[1] = (char)f1(d + 1);			\
		if (pick == 2)						\
			buf[1] = (char)f2(d + 1);			\
		if (pick == 3)						\
			buf[1] = (char)f3(d + 1);			\
		if (pick == 4)						\
			buf[1] = (char)f4(d + 1);			\
		if (pick == 5)						\
			buf[1] = (char)f5(d + 1);			\
		return buf[0];						\
	}

TANGLED(f0, 40)
TANGLED(f1, 72)
TANGLED(f2, 104)
TANGLED(f3, 136)
TANGLED(f4, 168)
TANGLED(f5, 200)

int main(void)
{
	return f0(0) + f3(0);
}
