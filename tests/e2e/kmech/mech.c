/*
 * The kernel's tracepoints and BPF programs in miniature (t1185), laid
 * out as Linux 6.1 lays them out:
 *
 *   __traceiter_NAME   calls each struct tracepoint_func's void *func as
 *                      void (*)(void *, ARGS) (include/linux/tracepoint.h);
 *   the event class    trace_event_raw_event_CLASS and perf_trace_CLASS in
 *                      struct trace_event_class, __bpf_trace_CLASS in the
 *                      _bpf_raw_tp section ({ &__tracepoint_NAME, probe }),
 *                      which the linker brackets with __start__bpf_raw_tp
 *                      and __stop__bpf_raw_tp as the kernel's script does;
 *   bpf_prog_run       calls prog->bpf_func through the dispatcher's
 *                      parameter: an interpreter from interpreters[], or
 *                      JIT code; helpers in struct bpf_func_proto, map
 *                      operations in struct bpf_map_ops.
 */
#include <stdlib.h>

typedef unsigned long long u64;
struct task { int pid; char comm[16]; };

/* ---- tracepoints (include/linux/tracepoint.h) ---- */
struct tracepoint_func { void *func; void *data; };
struct tracepoint { const char *name; struct tracepoint_func *funcs; };
struct tracepoint __tracepoint_sched_demo = { "sched_demo", 0 };
struct tracepoint __tracepoint_sched_other = { "sched_other", 0 };
struct tracepoint __tracepoint_sched_demo2 = { "sched_demo2", 0 };

__attribute__((noinline)) int __traceiter_sched_demo(void *__data, struct task *prev, int cpu)
{
	struct tracepoint_func *it = __atomic_load_n(&__tracepoint_sched_demo.funcs, __ATOMIC_RELAXED);

	if (it)
		do {
			void *f = __atomic_load_n(&it->func, __ATOMIC_RELAXED);

			__data = it->data;
			((void (*)(void *, struct task *, int))f)(__data, prev, cpu);
		} while ((++it)->func);
	return 0;
}

/* an event of another class, of sched_demo's prototype */
__attribute__((noinline)) int __traceiter_sched_demo2(void *__data, struct task *prev, int cpu)
{
	struct tracepoint_func *it = __atomic_load_n(&__tracepoint_sched_demo2.funcs, __ATOMIC_RELAXED);

	if (it)
		do {
			void *f = __atomic_load_n(&it->func, __ATOMIC_RELAXED);

			__data = it->data;
			((void (*)(void *, struct task *, int))f)(__data, prev, cpu);
		} while ((++it)->func);
	return 0;
}

__attribute__((noinline)) int __traceiter_sched_other(void *__data, long x)
{
	struct tracepoint_func *it = __atomic_load_n(&__tracepoint_sched_other.funcs, __ATOMIC_RELAXED);

	if (it)
		do {
			void *f = __atomic_load_n(&it->func, __ATOMIC_RELAXED);

			__data = it->data;
			((void (*)(void *, long))f)(__data, x);
		} while ((++it)->func);
	return 0;
}

/* the event class: its name is not the tracepoint's (DEFINE_EVENT) */
__attribute__((noinline)) void trace_event_raw_event_demo_class(void *d, struct task *p, int cpu)
{
	volatile char buf[200];
	buf[cpu & 127] = (char)p->pid;
	(void)d;
}
__attribute__((noinline)) void perf_trace_demo_class(void *d, struct task *p, int cpu)
{
	volatile char buf[300];
	buf[cpu & 127] = (char)p->pid;
	(void)d;
}
__attribute__((noinline)) void __bpf_trace_demo_class(void *d, struct task *p, int cpu)
{
	volatile char buf[40];
	buf[cpu & 31] = (char)p->pid;
	(void)d;
}
/* sched_demo2's class */
__attribute__((noinline)) void trace_event_raw_event_demo2_class(void *d, struct task *p, int cpu)
{
	volatile char buf[1200];
	buf[cpu & 127] = (char)p->pid;
	(void)d;
}
__attribute__((noinline)) void perf_trace_demo2_class(void *d, struct task *p, int cpu)
{
	volatile char buf[1300];
	buf[cpu & 127] = (char)p->pid;
	(void)d;
}
__attribute__((noinline)) void __bpf_trace_demo2_class(void *d, struct task *p, int cpu)
{
	volatile char buf[1040];
	buf[cpu & 31] = (char)p->pid;
	(void)d;
}
struct trace_event_class { const char *system; void *probe; void *perf_probe; };
struct trace_event_class event_class_demo_class = { "demo", trace_event_raw_event_demo_class,
						    perf_trace_demo_class };
struct trace_event_class event_class_demo2_class = { "demo", trace_event_raw_event_demo2_class,
						     perf_trace_demo2_class };
struct trace_event_call { struct trace_event_class *class; struct tracepoint *tp; };
struct trace_event_call event_sched_demo = { &event_class_demo_class, &__tracepoint_sched_demo };
struct trace_event_call event_sched_demo2 = { &event_class_demo2_class, &__tracepoint_sched_demo2 };

struct bpf_raw_event_map {
	struct tracepoint *tp;
	void *bpf_func;
	unsigned int num_args, writable_size;
} __attribute__((aligned(32)));
__attribute__((used, section("_bpf_raw_tp"))) static struct bpf_raw_event_map
	__bpf_trace_tp_map_sched_demo = { &__tracepoint_sched_demo, __bpf_trace_demo_class, 3, 0 };
__attribute__((used, section("_bpf_raw_tp"))) static struct bpf_raw_event_map
	__bpf_trace_tp_map_sched_demo2 = { &__tracepoint_sched_demo2, __bpf_trace_demo2_class, 3, 0 };

/* kernel/trace/bpf_trace.c: a raw tracepoint's map entry, by name */
extern struct bpf_raw_event_map __start__bpf_raw_tp[], __stop__bpf_raw_tp[];
__attribute__((noinline)) struct bpf_raw_event_map *bpf_get_raw_tracepoint(const char *name)
{
	struct bpf_raw_event_map *btp;

	for (btp = __start__bpf_raw_tp; btp < __stop__bpf_raw_tp; btp++)
		if (btp->tp->name[0] == name[0])
			return btp;
	return 0;
}

/* probes that register_trace_NAME() callers pass */
__attribute__((noinline)) void probe_sched_demo(void *d, struct task *p, int cpu)
{
	volatile char buf[64];
	buf[cpu & 63] = (char)p->pid;
	(void)d;
}
__attribute__((noinline)) void probe_sched_other(void *d, long x)
{
	volatile char buf[500];
	buf[x & 255] = 1;
	(void)d;
}
/* address-taken, of neither probe prototype */
__attribute__((noinline)) void unrelated(void *d, long x, long y)
{
	volatile char buf[900];
	buf[(x + y) & 255] = 1;
	(void)d;
}
void (*volatile keep)(void *, long, long) = unrelated;

static struct tracepoint_func funcs[3][5];
__attribute__((noinline)) int tracepoint_probe_register(struct tracepoint *tp, void *probe, void *data)
{
	struct tracepoint_func *f = funcs[(tp == &__tracepoint_sched_other) + 2 * (tp == &__tracepoint_sched_demo2)];
	int i = 0;

	while (f[i].func)
		i++;
	f[i].func = probe;
	f[i].data = data;
	tp->funcs = f;
	return 0;
}

/* ---- BPF (include/linux/filter.h, kernel/bpf/core.c) ---- */
struct bpf_insn { unsigned char code, regs; short off; int imm; };
struct bpf_prog {
	unsigned int len;
	unsigned int (*bpf_func)(const void *ctx, const struct bpf_insn *insn);
	struct bpf_insn insnsi[4];
};
__attribute__((noinline)) static unsigned int __bpf_prog_run32(const void *ctx, const struct bpf_insn *insn)
{
	volatile u64 stack[4];
	stack[insn->imm & 3] = (u64)ctx;
	return (unsigned int)stack[0];
}
__attribute__((noinline)) static unsigned int __bpf_prog_run64(const void *ctx, const struct bpf_insn *insn)
{
	volatile u64 stack[8];
	stack[insn->imm & 7] = (u64)ctx;
	return (unsigned int)stack[1];
}
static unsigned int (*const interpreters[])(const void *, const struct bpf_insn *) = {
	__bpf_prog_run32, __bpf_prog_run64,
};
struct bpf_func_proto { u64 (*func)(u64, u64, u64, u64, u64); int ret_type; };
__attribute__((noinline)) u64 bpf_demo_helper(u64 a, u64 b, u64 c, u64 d, u64 e)
{
	volatile char buf[100];
	buf[a & 63] = (char)(b + c + d + e);
	return buf[1];
}
const struct bpf_func_proto bpf_demo_helper_proto = { bpf_demo_helper, 1 };
struct bpf_map_ops { void *(*map_lookup_elem)(void *map, void *key); };
__attribute__((noinline)) void *demo_map_lookup(void *map, void *key)
{
	volatile char buf[48];
	buf[(long)key & 15] = 1;
	return map;
}
const struct bpf_map_ops demo_map_ops = { demo_map_lookup };

__attribute__((noinline)) unsigned int bpf_dispatcher_nop_func(const void *ctx, const struct bpf_insn *insnsi,
		unsigned int (*bpf_func)(const void *, const struct bpf_insn *))
{
	return bpf_func(ctx, insnsi);
}
__attribute__((noinline)) unsigned int bpf_prog_run(const struct bpf_prog *prog, const void *ctx)
{
	return bpf_dispatcher_nop_func(ctx, prog->insnsi, prog->bpf_func);
}

int main(int argc, char **argv)
{
	struct task t = { argc, "demo" };
	struct bpf_prog *prog = calloc(1, sizeof(*prog));

	(void)argv;
	tracepoint_probe_register(&__tracepoint_sched_demo, event_sched_demo.class->probe, 0);
	tracepoint_probe_register(&__tracepoint_sched_demo, event_sched_demo.class->perf_probe, 0);
	tracepoint_probe_register(&__tracepoint_sched_demo, bpf_get_raw_tracepoint("sched_demo")->bpf_func, 0);
	tracepoint_probe_register(&__tracepoint_sched_demo, (void *)probe_sched_demo, 0);
	tracepoint_probe_register(&__tracepoint_sched_other, (void *)probe_sched_other, 0);
	tracepoint_probe_register(&__tracepoint_sched_demo2, event_sched_demo2.class->probe, 0);
	tracepoint_probe_register(&__tracepoint_sched_demo2, (void *)probe_sched_demo, 0);
	__traceiter_sched_demo(0, &t, argc);
	__traceiter_sched_demo2(0, &t, argc);
	__traceiter_sched_other(0, argc);
	if (!prog)
		return 1;
	prog->bpf_func = interpreters[argc & 1];
	return (int)bpf_prog_run(prog, &t);
}
