/*
 * A kernel in miniature for t1161: callbacks passed as arguments to
 * functions the kernel exports to modules (a module may call them with
 * callbacks of its own) and to one it does not.  EXPORT_SYMBOL:
 * export.h.
 */
#include "export.h"

struct dev { int state; };
#define NOIPA __attribute__((noipa))

NOIPA int cb_small(struct dev *d) { return d->state & 1; }
NOIPA int cb_big(struct dev *d)
{
	volatile char buf[200];

	buf[d->state & 127] = 1;
	return buf[3];
}
NOIPA long cb_void(void *p) { return *(int *)p; }
NOIPA int cb_local(struct dev *d) { return d->state + 1; }
NOIPA int cb_other(struct dev *d) { return d->state + 2; }
EXPORT_SYMBOL(cb_small);
EXPORT_SYMBOL(cb_big);
EXPORT_SYMBOL(cb_void);

/* exported, the kernel passes cb_local */
NOIPA int for_each_dev(struct dev *d, int (*fn)(struct dev *)) { return fn(d) + 1; }
EXPORT_SYMBOL(for_each_dev);
/* exported, no caller in the kernel */
NOIPA int find_dev(struct dev *d, int (*match)(struct dev *)) { return match(d) ? 2 : 3; }
EXPORT_SYMBOL(find_dev);
/* not exported: its one caller passes cb_other */
NOIPA static int walk(struct dev *d, int (*fn)(struct dev *)) { return fn(d) * 2; }

/* a member an exported function stores its argument in: the kernel
 * passes cb_local, a module may pass its own */
struct job { int (*run)(struct dev *); struct dev *d; };
NOIPA void job_init(struct job *j, int (*run)(struct dev *)) { j->run = run; }
EXPORT_SYMBOL(job_init);
NOIPA int job_run(struct job *j) { return j->run(j->d); }

NOIPA int start_kernel(int argc)
{
	struct dev d = { argc };
	struct job j = { 0, &d };

	job_init(&j, cb_local);
	return for_each_dev(&d, cb_local) + walk(&d, cb_other) + job_run(&j);
}

void _start(void)
{
	__asm__ volatile("syscall" : : "a"(60), "D"(start_kernel(1)));
	__builtin_unreachable();
}
