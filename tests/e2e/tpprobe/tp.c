/*
 * A tracepoint's probes (t1246), laid out as Linux 6.1 lays them out
 * (include/linux/tracepoint.h, kernel/tracepoint.c): __traceiter_demo
 * calls each struct tracepoint_func's func; tracepoint_probe_register()
 * adds one.  demo_probe is registered (register_trace_demo(), inlined:
 * the constant the code loads); other_hook, of the probe's prototype,
 * is only a table's.  -DWIDE: a wrapper registers what its callers pass
 * (pass_probe), in a way not read; -DEXPORT: the function is exported to
 * modules (__ksymtab_), which may register their own.
 */
#include <stdlib.h>

#define NOINLINE __attribute__((noinline))

struct tracepoint_func { void *func; void *data; };
struct tracepoint { const char *name; struct tracepoint_func funcs[4]; int n; };
struct tracepoint __tracepoint_demo = { "demo", { { 0, 0 } }, 0 };

NOINLINE int __traceiter_demo(void *data, int x)
{
	struct tracepoint_func *it;

	(void)data;
	for (it = __tracepoint_demo.funcs; it < __tracepoint_demo.funcs + __tracepoint_demo.n; it++)
		((void (*)(void *, int))it->func)(it->data, x);
	return 0;
}

NOINLINE int tracepoint_probe_register(struct tracepoint *tp, void *probe, void *data)
{
	if (tp->n >= 4)
		return -1;
	tp->funcs[tp->n].func = probe;
	tp->funcs[tp->n++].data = data;
	return 0;
}
#ifdef EXPORT
__asm__(".pushsection .rodata\n"
	".globl __ksymtab_tracepoint_probe_register\n"
	"__ksymtab_tracepoint_probe_register:\n"
	".long tracepoint_probe_register - .\n"
	".popsection\n");
#endif

static inline int register_trace_demo(void (*probe)(void *, int), void *data)
{
	return tracepoint_probe_register(&__tracepoint_demo, (void *)probe, data);
}

NOINLINE void demo_probe(void *data, int x) { volatile char b[32]; b[x & 7] = (char)(long)data; }
NOINLINE void pass_probe(void *data, int x) { volatile char b[48]; b[x & 7] = (char)(long)data; }
NOINLINE void other_hook(void *data, int x) { volatile char b[64]; b[x & 7] = (char)(long)data; }
void (*hooks[2])(void *, int) = { other_hook, 0 };

int registered;

NOINLINE int demo_init(void)
{
	int r = register_trace_demo(demo_probe, 0);

	registered += !r;
	return r;
}

#ifdef WIDE
/* a wrapper passing its argument on in a register copy, which neither
 * DWARF nor a constant in the code says */
NOINLINE int register_wrapped(void (*probe)(void *, int))
{
	int r = register_trace_demo(probe, 0);

	registered += !r;
	return r;
}
#endif

int main(int argc, char **argv)
{
	int r = demo_init();

#ifdef WIDE
	r += register_wrapped(pass_probe);
#endif
	(void)argv;
	if (argc > 3)
		hooks[0](0, argc);
	return r + __traceiter_demo(0, argc);
}
