/*
 * A kernel in miniature for t1186: a driver interface no code of this
 * image fills, struct demo_ops's get_link (a module would: mod.c),
 * beside a member the image's data fills (reset) and one written with a
 * value of unknown origin (esc, set_esc's argument, which nothing here
 * calls), and struct work_for_cpu's fn, which only a local of
 * work_on_cpu holds, written from its parameter (kernel/workqueue.c's
 * work_on_cpu: a store to the stack of a value of unknown origin, which
 * the analysis does not type).  EXPORT_SYMBOL: export.h.  No libc: a
 * kernel has none, and its stores would fill members.
 */
#include "export.h"

struct dev;
struct demo_ops {
	int (*get_link)(struct dev *);
	void (*reset)(struct dev *, int);
	int (*esc)(struct dev *);
};
struct dev { const struct demo_ops *ops; int state; };
struct other_ops { int (*probe)(struct dev *); };
/* a second driver interface, which the module does not fill either */
struct stats_ops { int (*get_stats)(struct dev *); };

__attribute__((noinline)) int demo_link_small(struct dev *d) { return d->state & 1; }
__attribute__((noinline)) int demo_link_big(struct dev *d)
{
	volatile char buf[200];

	buf[d->state & 127] = 1;
	return buf[3];
}
__attribute__((noinline)) int demo_link_void(void *p) { return *(int *)p; }
__attribute__((noinline)) void demo_reset_x(struct dev *d, int how) { d->state = how; }
__attribute__((noinline)) int probe_local(struct dev *d)
{
	volatile char buf[400];

	buf[d->state & 255] = 2;
	return buf[5];
}
EXPORT_SYMBOL(demo_link_small);
EXPORT_SYMBOL(demo_link_big);
EXPORT_SYMBOL(demo_link_void);
EXPORT_SYMBOL(demo_reset_x);

struct work_for_cpu {
	long (*fn)(void *);
	void *arg;
	long ret;
};

__attribute__((noipa)) long probe_pci(void *p)
{
	volatile char buf[300];

	buf[*(int *)p & 255] = 3;
	return buf[7];
}
__attribute__((noipa)) void work_for_cpu_fn(struct work_for_cpu *wfc)
{
	wfc->ret = wfc->fn(wfc->arg);
}
__attribute__((noipa)) long work_on_cpu(long (*fn)(void *), void *arg)
{
	struct work_for_cpu wfc = { .fn = fn, .arg = arg };

	work_for_cpu_fn(&wfc);
	return wfc.ret;
}

const struct demo_ops used_ops = { .reset = demo_reset_x };
const struct other_ops locals = { .probe = probe_local };

__attribute__((noinline, used)) void set_esc(struct demo_ops *o, int (*f)(struct dev *))
{
	o->esc = f;
}
__attribute__((noinline)) int link_up(struct dev *d) { return d->ops->get_link(d) ^ 1; }
__attribute__((noinline)) long __x64_sys_demo(struct dev *d) { return link_up(d); }
__attribute__((noinline)) void do_reset(struct dev *d) { d->ops->reset(d, 0); }
__attribute__((noinline)) int do_esc(struct dev *d) { return d->ops->esc(d); }
__attribute__((noinline)) int do_stats(const struct stats_ops *s, struct dev *d)
{
	return s->get_stats(d);
}

__attribute__((noinline)) int start_kernel(int argc)
{
	struct dev d = { &used_ops, argc };

	do_reset(&d);
	if (argc > 5)
		return (int)__x64_sys_demo(&d) + do_esc(&d) + (int)work_on_cpu(probe_pci, &d) +
		       do_stats((const struct stats_ops *)d.ops, &d);
	return locals.probe(&d) & 0;
}

void _start(void)
{
	__asm__ volatile("syscall" : : "a"(60), "D"(start_kernel(1)));
	__builtin_unreachable();
}
