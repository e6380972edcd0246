/*
 * errpath.c - a cycle that only an error path closes, and the state that
 * bounds it below one function, for 'ignore FUNC CALLEE below ANCESTOR'
 * (tests/e2e/t1135-ignore-below.sh):
 *
 *   panic     raises oops_in_progress, then unblanks the console; it
 *             does not return
 *   unblank   with oops_in_progress set only tries the console lock;
 *             otherwise takes it with lock()
 *   lock      waits for the console; a corrupted lock panics
 *   emit      prints a line under the console lock
 *
 * main -> unblank -> lock -> panic -> unblank -> lock -> ...: the cycle
 * goes through lock()'s error path, and below panic() unblank() does not
 * call lock(), since oops_in_progress is set before any call and nothing
 * clears it.  Elsewhere (main -> unblank) it does.  Nothing fails at run
 * time: the failure paths are in the call graph only.  No library calls,
 * so every frame has a .su row, and every function calls: no red zone.
 */
static volatile int oops_in_progress, console_sem, corrupted;

__attribute__((noinline, noreturn)) void panic(const char *msg);

__attribute__((noinline)) void lock(void)
{
	volatile char waiter[64];

	waiter[0] = 1;
	while (console_sem)
		waiter[1] = waiter[0];
	console_sem = 1;
	if (corrupted)
		panic("lock: corrupted");
}

__attribute__((noinline)) void unblank(void)
{
	volatile char state[32];

	state[0] = 0;
	if (oops_in_progress) {
		/* a trylock: no wait, no call */
		if (__atomic_exchange_n(&console_sem, 1, __ATOMIC_ACQUIRE))
			return;
	} else {
		lock();
	}
	state[1] = state[0];
	console_sem = 0;
}

__attribute__((noinline)) void emit(const char *msg)
{
	volatile char line[128];
	int n;

	lock();
	for (n = 0; msg[n] && n < (int)sizeof(line) - 1; n++)
		line[n] = msg[n];
	line[n] = 0;
	console_sem = 0;
}

__attribute__((noinline, noreturn)) void panic(const char *msg)
{
	volatile char buf[160];

	oops_in_progress++;
	buf[0] = msg[0];
	unblank();
	for (;;)
		buf[1] = buf[0];
}

int main(int argc, char **argv)
{
	(void)argv;
	unblank();
	emit("hello");
	if (argc > 99)
		panic("main");
	return 0;
}
