/*
 * A kernel in miniature for t1262: global function pointers as
 * drivers/base/core.c keeps platform_notify (Linux 6.1, core.c:2281-2282,
 * called when set at core.c:2328), each written its own way or not at
 * all.  EXPORT_SYMBOL: ../kexport/export.h.  No libc.
 *
 *	platform_notify		nothing writes it, nothing takes its address,
 *				not exported: it holds its NULL
 *	platform_notify_remove	the same, but exported: a module may set it
 *	ipi_callback		an exchange (xchg) writes it
 *	init_handler		its address is handed to set_hook, which
 *				writes through it
 *	exception_handler	set once to acpi_notify by a plain store
 */
#include "export.h"

struct device { int id; };
#define NOIPA __attribute__((noipa))

NOIPA int acpi_notify(struct device *d)
{
	volatile char buf[100];

	buf[d->id & 63] = 1;
	return buf[1];
}
NOIPA int swnode_notify(struct device *d)
{
	volatile char buf[200];

	buf[d->id & 127] = 2;
	return buf[2];
}
NOIPA int uv_notify(struct device *d)
{
	volatile char buf[300];

	buf[d->id & 255] = 3;
	return buf[3];
}

int (*platform_notify)(struct device *dev) = 0;
int (*platform_notify_remove)(struct device *dev) = 0;
int (*ipi_callback)(struct device *dev) = 0;
int (*init_handler)(struct device *dev) = 0;
int (*exception_handler)(struct device *dev) = 0;
EXPORT_SYMBOL(platform_notify_remove);

NOIPA void set_hook(int (**slot)(struct device *), int (*fn)(struct device *)) { *slot = fn; }

NOIPA int notify_add(struct device *d)
{
	return platform_notify ? platform_notify(d) : 0;
}
NOIPA int notify_remove(struct device *d)
{
	return platform_notify_remove ? platform_notify_remove(d) : 0;
}
NOIPA int ipi(struct device *d)
{
	return ipi_callback ? ipi_callback(d) : 0;
}
NOIPA int init_one(struct device *d)
{
	return init_handler ? init_handler(d) : 0;
}
NOIPA int method_error(struct device *d)
{
	return exception_handler ? exception_handler(d) : 0;
}

NOIPA int start_kernel(int argc)
{
	struct device d = { argc };

	exception_handler = acpi_notify;
	__atomic_exchange_n(&ipi_callback, swnode_notify, __ATOMIC_SEQ_CST);
	set_hook(&init_handler, uv_notify);
	return notify_add(&d) + notify_remove(&d) + ipi(&d) + init_one(&d) + method_error(&d);
}

void _start(void)
{
	__asm__ volatile("syscall" : : "a"(60), "D"(start_kernel(1)));
	__builtin_unreachable();
}
