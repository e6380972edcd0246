/*
 * inlined.c - a cycle whose bounding state is set inside a function the
 * compiler inlined, for annotations that name the inlined copy
 * (FUNC/INLINED; tests/e2e/t1136-inlined-ancestor.sh).  Modelled on
 * Linux's wakeup of ksoftirqd below try_to_wake_up():
 *
 *   wake          wakes a thread, then leaves its read-side section
 *   unlock_slow   with interrupts on, raises the pending work
 *   raise_off     turns interrupts off, and outside an interrupt wakes
 *                 the thread through wakeup_thread(), always inlined
 *   kick          wakes the thread through wakeup_thread() when asked
 *                 to, and calls wake() itself otherwise
 *   oops          ends a task that failed: turns interrupts on again,
 *                 then wakes its parent
 *
 * wake -> unlock_slow -> raise_off -> [wakeup_thread] -> wake -> ...:
 * below the inlined wakeup_thread() interrupts are off, so unlock_slow()
 * does not raise again, unless oops() turned them on (below it,
 * anywhere).  raise_off() calls nothing but the inlined copy's wake();
 * kick() calls wake() from inside its copy and outside.
 * Nothing runs the cycle at run time: it is in the call graph only.  No
 * library calls, so every frame has a .su row, and every function calls:
 * no red zone.
 */
static volatile int irqs_off, in_irq, pending, asked;

__attribute__((noinline)) void wake(void);

__attribute__((noinline)) void raise_off(void);

__attribute__((noinline)) void unlock_slow(void)
{
	volatile char state[48];

	state[0] = (char)pending;
	if (!irqs_off)
		raise_off();
	state[1] = state[0];
}

__attribute__((noinline)) void wake(void)
{
	volatile char task[80];

	task[0] = 1;
	unlock_slow();
	task[1] = task[0];
}

static inline __attribute__((always_inline)) void wakeup_thread(int why)
{
	volatile char mark[8];

	mark[0] = (char)why;
	wake();
	pending = mark[0];
}

__attribute__((noinline)) void raise_off(void)
{
	volatile char flags[24];

	flags[0] = (char)irqs_off;
	irqs_off = 1;
	if (!in_irq)
		wakeup_thread(1);
	irqs_off = flags[0];
}

__attribute__((noinline)) void kick(int now)
{
	volatile char k[16];

	k[0] = (char)now;
	if (now)
		wakeup_thread(2);
	asked = k[0];
	if (asked > 1)
		wake();
	k[1] = k[0];
}

__attribute__((noinline)) void oops(void)
{
	volatile char regs[32];

	regs[0] = 0;
	irqs_off = 0;
	wake();
	regs[1] = regs[0];
}

int main(int argc, char **argv)
{
	(void)argv;
	wake();
	raise_off();
	kick(argc);
	if (argc > 99)
		oops();
	return 0;
}
