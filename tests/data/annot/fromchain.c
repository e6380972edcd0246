/*
 * fromchain.c - a cycle that an argument passed through a caller breaks,
 * for 'ignore FUNC CALLEE from CALLER CALLER2'
 * (tests/e2e/t1138-ignore-from-chain.sh), after the kernel's
 * blk_mq_sched_dispatch_requests() -> blk_mq_run_hw_queue(hctx, true)
 * -> __blk_mq_delay_run_hw_queue():
 *
 *   run         runs a queue: passes its own 'async' on to delay_run
 *   delay_run   dispatches now when !async, else queues the work
 *   dispatch    sends the requests; one left over runs the queue again,
 *               with async set
 *   queue_work  queues the run for later
 *
 * run -> delay_run -> dispatch -> run is a cycle of the call graph, but
 * the delay_run() below dispatch()'s run() only queues: what stops it is
 * the flag dispatch() passes to run(), which run() passes on.  Elsewhere
 * (main -> run) delay_run() dispatches.  No library calls, so every
 * frame has a .su row; every function but the frameless queue_work()
 * calls: no red zone.  noclone keeps GCC from making copies of run() for
 * each constant flag.
 */
struct queue {
	volatile int left, queued;
};

void dispatch(struct queue *q);

__attribute__((noinline, noclone)) void queue_work(struct queue *q)
{
	q->queued++;
}

__attribute__((noinline, noclone)) void delay_run(struct queue *q, int async)
{
	volatile char cpu[40];

	cpu[0] = (char)async;
	if (!async)
		dispatch(q);
	else
		queue_work(q);
	cpu[1] = cpu[0];
}

__attribute__((noinline, noclone)) void run(struct queue *q, int async)
{
	volatile char pending[24];

	pending[0] = (char)q->left;
	if (pending[0])
		delay_run(q, async);
	pending[1] = pending[0];
}

__attribute__((noinline, noclone)) void dispatch(struct queue *q)
{
	volatile char list[120];

	list[0] = (char)q->left;
	q->left--;
	run(q, 1);
	list[1] = list[0];
}

int main(void)
{
	struct queue q = { 2, 0 };

	run(&q, 0);
	return q.queued != 1;
}
