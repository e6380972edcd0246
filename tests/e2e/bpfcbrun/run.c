/*
 * A program's callbacks under a runner of known types (t1258), laid out
 * as Linux 6.1 lays them out: bpf_trace_run2 (kernel/trace/bpf_trace.c)
 * runs a raw tracepoint's program, through its bpf_func (the JIT's code)
 * or an interpreter (kernel/bpf/core.c); bpf_prog_test_run a program of
 * any type.  bpf_loop (kernel/bpf/bpf_iter.c), every type's
 * (bpf_base_func_proto), calls the callback it is handed, a BPF function
 * of the calling program; bpf_for_each_map_elem calls it through its
 * map's map_for_each_callback (demo_for_each); bpf_timer_cb
 * (kernel/bpf/helpers.c) calls a timer's callback from the hrtimer.
 * bpf_sys_bpf is a BPF_PROG_TYPE_SYSCALL program's helper only.  The
 * rest as tests/e2e/bpfrun/run.c (t1257).
 */
#include <stdlib.h>

typedef unsigned long long u64;
#define NOINLINE __attribute__((noinline))
/* a frame of n bytes the compiler keeps */
#define FRAME(n, x) volatile char buf[n]; buf[(x) & 15] = 1; return buf[2]

struct bpf_insn { unsigned char code, regs; short off; int imm; };
struct bpf_prog {
	unsigned int len, expected_attach_type;
	unsigned int (*bpf_func)(const void *ctx, const struct bpf_insn *insn);
	struct bpf_insn insnsi[4];
};

/* ---- the helpers, and the types' get_func_proto ---- */
struct bpf_func_proto { u64 (*func)(u64, u64, u64, u64, u64); int ret_type; };
NOINLINE u64 bpf_demo_helper(u64 a, u64 b, u64 c, u64 d, u64 e) { FRAME(64, a + b + c + d + e); }
NOINLINE u64 bpf_trace_helper(u64 a, u64 b, u64 c, u64 d, u64 e) { FRAME(136, a + b + c + d + e); }
NOINLINE u64 bpf_sys_bpf(u64 a, u64 b, u64 c, u64 d, u64 e) { FRAME(1024, a + b + c + d + e); }
const struct bpf_func_proto bpf_demo_helper_proto = { bpf_demo_helper, 1 };
const struct bpf_func_proto bpf_trace_helper_proto = { bpf_trace_helper, 1 };
const struct bpf_func_proto bpf_sys_bpf_proto = { bpf_sys_bpf, 1 };
struct bpf_verifier_ops {
	const struct bpf_func_proto *(*get_func_proto)(int func_id, const struct bpf_prog *prog);
};
/* ---- the helpers that call a program's callback ---- */
typedef u64 (*bpf_callback_t)(u64, u64, u64, u64, u64);
NOINLINE u64 bpf_loop(u64 nr, u64 fn, u64 ctx, u64 flags, u64 e)
{
	bpf_callback_t callback = (bpf_callback_t)fn;
	u64 i, ret = 0;

	(void)flags, (void)e;
	for (i = 0; i < nr && !ret; i++)
		ret = callback(i, ctx, 0, 0, 0);
	return i;
}
const struct bpf_func_proto bpf_loop_proto = { bpf_loop, 1 };
struct bpf_map;
struct bpf_map_ops {
	int (*map_for_each_callback)(struct bpf_map *map, bpf_callback_t cb, void *ctx, u64 flags);
};
struct bpf_map { const struct bpf_map_ops *ops; };
NOINLINE int demo_for_each(struct bpf_map *map, bpf_callback_t cb, void *ctx, u64 flags)
{
	(void)flags;
	return (int)cb((u64)map, 0, (u64)ctx, 0, 0);
}
const struct bpf_map_ops demo_map_ops = { demo_for_each };
NOINLINE u64 bpf_for_each_map_elem(u64 map, u64 fn, u64 ctx, u64 flags, u64 e)
{
	struct bpf_map *m = (struct bpf_map *)map;

	(void)e;
	return m->ops->map_for_each_callback(m, (bpf_callback_t)fn, (void *)ctx, flags);
}
const struct bpf_func_proto bpf_for_each_map_elem_proto = { bpf_for_each_map_elem, 1 };
struct bpf_hrtimer { void *callback_fn; u64 value; };
NOINLINE u64 bpf_timer_set_callback(u64 timer, u64 fn, u64 c, u64 d, u64 e)
{
	(void)c, (void)d, (void)e;
	((struct bpf_hrtimer *)timer)->callback_fn = (void *)fn;
	return 0;
}
const struct bpf_func_proto bpf_timer_set_callback_proto = { bpf_timer_set_callback, 1 };
NOINLINE int bpf_timer_cb(struct bpf_hrtimer *t)
{
	bpf_callback_t callback_fn = (bpf_callback_t)t->callback_fn;

	if (!callback_fn)
		return 0;
	callback_fn(0, t->value, 0, 0, 0);
	return 1;
}
NOINLINE const struct bpf_func_proto *bpf_base_func_proto(int func_id)
{
	switch (func_id) {
	case 1: return &bpf_demo_helper_proto;
	case 181: return &bpf_loop_proto;
	case 164: return &bpf_for_each_map_elem_proto;
	case 170: return &bpf_timer_set_callback_proto;
	}
	return 0;
}
#include "../bpfrun/runner.h"

int main(int argc, char **argv)
{
	struct bpf_prog *prog = calloc(1, sizeof(*prog));
	int r;

	(void)argv;
	if (!prog)
		return 1;
	prog->insnsi[0] = (struct bpf_insn){ 1, 0, 0,
		(int)((char *)bpf_demo_helper - (char *)__bpf_call_base) };
	prog->bpf_func = interpreters[0];
	bpf_trace_run2(prog, 1, 2);
	r = (int)bpf_prog_test_run(prog, &argc);
	r += raw_tracepoint_verifier_ops.get_func_proto(argc, prog) != 0;
	r += bpf_syscall_verifier_ops.get_func_proto(argc, prog) != 0;
	r += tracing_verifier_ops.get_func_proto(argc, prog) != 0;
	r += (int)interpreters_args[0](1, 2, 3, 4, 5, prog->insnsi + 3);
	{
		struct bpf_map m = { &demo_map_ops };
		struct bpf_hrtimer t = { 0, 0 };

		r += (int)bpf_loop_proto.func(0, (u64)bpf_demo_helper, 0, 0, 0);
		r += (int)bpf_for_each_map_elem_proto.func((u64)&m, (u64)bpf_demo_helper, 0, 0, 0);
		r += (int)bpf_timer_set_callback_proto.func((u64)&t, (u64)bpf_demo_helper, 0, 0, 0);
		r += bpf_timer_cb(&t);
	}
	return r == -1;
}
