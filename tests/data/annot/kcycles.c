/*
 * kcycles.c - the Linux kernel's bounded cycles in small, for once/nest
 * (tests/e2e/t1130-once-nest.sh):
 *
 *   chk_fail   the stack protector's failure path: calls panic
 *   panic      prints, then stops; it may be entered again
 *   printk     prints through store
 *   store      printk's body, behind a recursion counter: counts 0 and 1
 *              pass, so a third activation returns at the check; an
 *              internal error in it prints again, a corrupted canary in
 *              it calls chk_fail
 *
 * main -> printk -> store -> printk ...; store -> chk_fail -> panic ->
 * printk.  Nothing fails at run time: the failure paths are in the call
 * graph only.  No library calls, so every frame has a .su row.
 */
#define MAX_RECURSION 1

static volatile int corrupted;	/* a canary check that never fails here */
static volatile int panic_cpu = -1;
static int printk_count;

__attribute__((noinline)) void chk_fail(void);
__attribute__((noinline)) int printk(const char *msg);

__attribute__((noinline)) int store(const char *msg)
{
	volatile char buf[96];
	int n;

	if (printk_count > MAX_RECURSION)
		return 0;
	printk_count++;
	for (n = 0; msg[n] && n < (int)sizeof(buf) - 1; n++)
		buf[n] = msg[n];
	buf[n] = 0;
	if (buf[0] == '!')
		n += printk("store: internal error");
	if (corrupted)
		chk_fail();
	printk_count--;
	return n + buf[0] - buf[0];
}

__attribute__((noinline)) int printk(const char *msg)
{
	volatile char level[24];
	int n;

	level[0] = msg[0];
	n = store(msg);
	return n + level[0] - level[0];
}

__attribute__((noinline, noreturn)) void panic(const char *msg)
{
	volatile char buf[160];

	if (panic_cpu == -1)
		panic_cpu = 0;
	buf[0] = msg[0];
	printk(msg);
	for (;;)
		buf[1] = buf[0];
}

__attribute__((noinline)) void chk_fail(void)
{
	volatile char where[40];

	where[0] = 'x';
	panic("stack-protector: corrupted");
}

int main(int argc, char **argv)
{
	(void)argv;
	printk("hello");
	if (argc > 99)
		chk_fail();
	return 0;
}
