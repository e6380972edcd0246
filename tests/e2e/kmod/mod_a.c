/* mod_a.c - a module's entry points: a system call, an interrupt handler
 * and static helpers, each in its own section (-ffunction-sections). */
/* as <linux/irqreturn.h> spells it: a handler is irqreturn_t f(int, void *) */
typedef enum irqreturn { IRQ_NONE, IRQ_HANDLED } irqreturn_t;
typedef irqreturn_t (*irq_handler_t)(int, void *);

/* the core's, as kernel/irq/manage.c names its parameters */
int request_threaded_irq(unsigned int irq, irq_handler_t handler, irq_handler_t thread_fn,
			 unsigned long irqflags, const char *devname, void *dev_id);

int core_log(const char *msg, int level);
void core_fill(char *buf, int n);
int modb_work(int n);

volatile int moda_sink;

static __attribute__((noinline)) int moda_helper(int n)
{
	char buf[96];

	core_fill(buf, n);
	moda_sink += buf[n & 63];
	return buf[1];
}

static __attribute__((noinline)) int moda_deep(int n)
{
	char buf[400];

	core_fill(buf, n);
	moda_sink += buf[n & 127];
	return moda_helper(buf[2]) + buf[3];
}

long __x64_sys_frob(int n)
{
	int r = moda_deep(n) + modb_work(n);

	moda_sink += r;
	return r;
}

irqreturn_t frob_irq_handler(int irq, void *dev)
{
	int r = moda_helper(irq) + core_log(dev, irq);

	moda_sink += r;
	return r ? IRQ_HANDLED : IRQ_NONE;
}

/* run by the IRQ's kernel thread: given as thread_fn only */
irqreturn_t frob_irq_thread(int irq, void *dev)
{
	char buf[64];

	buf[0] = (char)irq;
	moda_sink += core_log(dev, buf[0]);
	return IRQ_HANDLED;
}

int frob_init(void)
{
	return request_threaded_irq(5, frob_irq_handler, frob_irq_thread, 0, "frob", 0);
}
