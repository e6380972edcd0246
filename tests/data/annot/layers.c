/*
 * layers.c - once functions that reach each other in 2^16 ways
 * (tests/e2e/t1131-once-layers.sh):
 *
 *   a1..a17, b1..b17   each level's two functions call both of the next
 *                      level's, so a function of level j is entered below
 *                      2^(j-1) different sets of once functions
 *   sink               what the last level calls: deep(), unless a flag
 *                      set by a1 says not (the 'below a1' line), then tick()
 *
 * Every level function is 'once'; none reaches a function above it, so no
 * count on the stack but a1's (the ancestor of sink's dropped call) changes
 * anything below it.  Nothing runs deep: the paths are in the call graph
 * only.  No library calls, so every frame has a .su row.
 */
static volatile int sel, quiet;

__attribute__((noinline)) void tick(void)
{
	sel++;
}

__attribute__((noinline)) void deep(void)
{
	volatile char buf[400];

	buf[0] = (char)sel;
	tick();
	buf[1] = buf[0];
}

__attribute__((noinline)) void sink(void)
{
	volatile char buf[24];

	buf[0] = (char)sel;
	if (!quiet)
		deep();
	tick();
	buf[1] = buf[0];
}

/* name calls na or nb, with a frame of size bytes (a and b differ, so
 * that no two functions are one) */
#define LEVEL(name, size, na, nb)				\
	__attribute__((noinline)) void name(void)		\
	{							\
		volatile char buf[size];			\
								\
		buf[0] = (char)sel;				\
		if (sel & 1)					\
			na();					\
		else						\
			nb();					\
		buf[1] = buf[0];				\
	}
#define PAIR(i, next) LEVEL(a##i, 32, a##next, b##next) LEVEL(b##i, 64, a##next, b##next)

LEVEL(a17, 32, sink, sink)
LEVEL(b17, 64, sink, sink)
PAIR(16, 17) PAIR(15, 16) PAIR(14, 15) PAIR(13, 14) PAIR(12, 13) PAIR(11, 12)
PAIR(10, 11) PAIR(9, 10) PAIR(8, 9) PAIR(7, 8) PAIR(6, 7) PAIR(5, 6) PAIR(4, 5)
PAIR(3, 4) PAIR(2, 3)

__attribute__((noinline)) void a1(void)
{
	volatile char buf[32];

	buf[0] = (char)sel;
	quiet = 1;
	if (sel & 1)
		a2();
	else
		b2();
	quiet = 0;
	buf[1] = buf[0];
}

LEVEL(b1, 64, a2, b2)

int main(void)
{
	if (sel)
		a1();
	else
		b1();
	return 0;
}
