/* kernel.c - the "kernel" image the module test links against: functions
 * that the relocatable modules call by name. */
#include <string.h>

#define EXPORT __attribute__((used, noinline))

volatile int core_sink;

#ifdef RETHUNK
/* as arch/x86/lib/retpoline.S defines it: a label, not a function */
__asm__(".text\n.globl __x86_return_thunk\n__x86_return_thunk:\n\tret\n\tint3\n");
#endif

EXPORT void core_fill(char *buf, int n)
{
	char tmp[200];

	memset(tmp, n, sizeof(tmp));
	for (int i = 0; i < n && i < (int)sizeof(tmp); i++)
		buf[i] = tmp[i];
	core_sink += buf[0];
}

EXPORT int core_log(const char *msg, int level)
{
	char line[320];

	core_fill(line, level);
	return (int)strlen(msg) + line[level & 63];
}

typedef enum irqreturn { IRQ_NONE, IRQ_HANDLED } irqreturn_t;
typedef irqreturn_t (*irq_handler_t)(int, void *);

/* kernel/irq/manage.c's signature: what its thread_fn parameter gets
 * runs in the IRQ's thread */
EXPORT int request_threaded_irq(unsigned int irq, irq_handler_t handler, irq_handler_t thread_fn,
				unsigned long irqflags, const char *devname, void *dev_id)
{
	core_sink += (int)irq + (int)irqflags + (devname != 0) + (dev_id != 0);
	return (handler != 0) + (thread_fn != 0);
}

int main(void)
{
	return core_log("boot", 1) < 0;
}
