/*
 * stretch.c - a cycle that a 'below' gate cuts in another function's
 * region, next to a cycle of counted functions, for the once/nest
 * solver's budgets with ancestors kept since the budget's last
 * activation (tests/e2e/t1148-below-stretch.sh):
 *
 *   wake      wakes a thread with interrupts off: calls ttwu()
 *   ttwu      the wakeup: takes the read lock, unlocks it with unlock()
 *   unlock    with interrupts on raises a soft interrupt (softirq()), and
 *             outside a wakeup runs deferred work (defer()); it may
 *             allocate (alloc())
 *   softirq   wakes the soft interrupt thread: wake()
 *   alloc     reclaims once (reclaim(), which allocates again), warns
 *   warn      with interrupts on sleeps a little (nap())
 *
 * wake -> ttwu -> unlock -> softirq -> wake -> ...: below wake()
 * interrupts stay off, so unlock() does not call softirq(), nor warn()
 * nap().  alloc() and reclaim() reach each other (alloc -> reclaim ->
 * alloc, then no more reclaim).  Nothing loops at run time: the flags
 * keep each path finite.  No library calls, so every frame has a .su
 * row, and every function but tick() calls: no red zone.
 */
static volatile int irqs_off, in_ttwu, in_reclaim, special, pressure, ticks;

__attribute__((noinline)) void wake(void);
__attribute__((noinline)) void alloc(void);

/* no frame: a leaf that keeps nap() and defer() from being leaves */
__attribute__((noinline)) void tick(void)
{
	ticks++;
}

__attribute__((noinline)) void nap(void)
{
	volatile char timer[512];

	timer[0] = 1;
	tick();
	timer[1] = timer[0];
}

__attribute__((noinline)) void warn(void)
{
	volatile char line[48];

	line[0] = 1;
	if (!irqs_off)
		nap();
	line[1] = line[0];
}

__attribute__((noinline)) void reclaim(void)
{
	volatile char scan[80];

	scan[0] = 1;
	in_reclaim = 1;
	alloc();
	in_reclaim = 0;
	scan[1] = scan[0];
}

__attribute__((noinline)) void alloc(void)
{
	volatile char req[24];

	req[0] = 1;
	if (pressure && !in_reclaim)
		reclaim();
	if (pressure > 1)
		warn();
	req[1] = req[0];
}

__attribute__((noinline)) void defer(void)
{
	volatile char work[2048];

	work[0] = 1;
	tick();
	work[1] = work[0];
}

__attribute__((noinline)) void softirq(void)
{
	volatile char pending[16];

	pending[0] = 1;
	wake();
	pending[1] = pending[0];
}

__attribute__((noinline)) void unlock(void)
{
	volatile char nesting[40];

	nesting[0] = 1;
	if (special && !irqs_off)
		softirq();
	if (special && !in_ttwu)
		defer();
	if (pressure)
		alloc();
	nesting[1] = nesting[0];
}

__attribute__((noinline)) void ttwu(void)
{
	volatile char task[96];
	int was = in_ttwu;

	task[0] = 1;
	in_ttwu = 1;
	unlock();
	in_ttwu = was;
	task[1] = task[0];
}

__attribute__((noinline)) void wake(void)
{
	volatile char flags[64];
	int was = irqs_off;

	flags[0] = 1;
	irqs_off = 1;
	ttwu();
	irqs_off = was;
	flags[1] = flags[0];
}

int main(int argc, char **argv)
{
	(void)argv;
	special = argc > 1;
	pressure = argc > 2 ? 2 : argc > 1;
	wake();
	ttwu();
	alloc();
	return 0;
}
