/*
 * fromarg.c - a cycle that an argument breaks, for 'ignore FUNC CALLEE
 * from CALLER' (tests/e2e/t1137-ignore-from.sh), after the kernel's
 * cpu_stop_queue_work() -> wake_up_q() -> __put_task_struct():
 *
 *   put         drops a reference; the last one releases the task
 *   release     frees a task; one that was migrating first queues the
 *               stopper's work
 *   stop_queue  queues work for the stopper thread and wakes it: it
 *               takes a reference to the stopper, which its creator
 *               holds for good, so wake()'s put() never releases it
 *   wake        wakes each queued task and drops the queue's reference
 *
 * stop_queue -> wake -> put -> release -> stop_queue is a cycle of the
 * call graph, but the put() below stop_queue()'s wake() is never the
 * last: what stops it is the task stop_queue() passes.  Elsewhere (main
 * -> wake) wake() does release.  No library calls, so every frame has a
 * .su row; every function but the frameless ttwu() calls: no red zone.
 */
struct task {
	volatile int refs, migrating;
};

static struct task stopper = { 1, 0 };
static volatile int woken;

void stop_queue(void);
void put(struct task *t);

__attribute__((noinline)) void ttwu(struct task *t)
{
	woken += t->refs;
}

__attribute__((noinline)) void wake(struct task **q, int n)
{
	volatile char node[48];
	int i;

	for (i = 0; i < n; i++) {
		node[i & 7] = (char)i;
		ttwu(q[i]);
		put(q[i]);
	}
}

__attribute__((noinline)) void release(struct task *t)
{
	volatile char pages[200];

	pages[0] = (char)t->refs;
	if (t->migrating)
		stop_queue();
	pages[1] = pages[0];
}

__attribute__((noinline)) void put(struct task *t)
{
	volatile char slot[24];

	slot[0] = 1;
	if (--t->refs == 0)
		release(t);
	slot[1] = slot[0];
}

__attribute__((noinline)) void stop_queue(void)
{
	volatile char works[32];
	struct task *q[1] = { &stopper };

	works[0] = 1;
	stopper.refs++;
	wake(q, 1);
	works[1] = works[0];
}

int main(int argc, char **argv)
{
	struct task a = { 2, 1 }, *q[1] = { &a };

	(void)argv;
	put(&a);
	wake(q, argc);
	return stopper.refs != 1;
}
