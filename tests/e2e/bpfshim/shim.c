/*
 * The programs a bpf_func call runs (t1267), laid out as Linux 6.1 lays
 * them out.  A struct bpf_prog's bpf_func is an interpreter of
 * interpreters[] (kernel/bpf/core.c), the JIT's code, or, in a shim
 * program cgroup_shim_alloc() makes (kernel/bpf/trampoline.c:693-726),
 * an LSM cgroup shim __cgroup_bpf_run_lsm_* (kernel/bpf/cgroup.c) that
 * bpf_lsm_find_cgroup_shim() chose.  Only an LSM hook's trampoline
 * holds a shim program: no runner's program is one.  The runners:
 * bpf_trace_run1 (a raw tracepoint's programs), __bpf_prog_test_run_raw_tp
 * (net/bpf/test_run.c: a BPF_PROG_TYPE_RAW_TRACEPOINT program, the
 * test_run of raw_tracepoint_prog_ops) and the shim itself (the cgroup's
 * BPF_PROG_TYPE_LSM programs); bpf_prog_test_run runs a program of any
 * type.  bpf_trace_helper is a raw tracepoint's helper, bpf_lsm_helper
 * an LSM program's, bpf_sys_bpf a BPF_PROG_TYPE_SYSCALL program's.
 */
#include <stdlib.h>

typedef unsigned long long u64;
#define NOINLINE __attribute__((noinline))
/* a frame of n bytes the compiler keeps */
#define FRAME(n, x) volatile char buf[n]; buf[(x) & 15] = 1; return buf[2]

struct bpf_insn { unsigned char code, regs; short off; int imm; };
typedef unsigned int (*bpf_func_t)(const void *ctx, const struct bpf_insn *insn);
struct bpf_prog {
	unsigned int len, type;
	bpf_func_t bpf_func;
	struct bpf_prog *next;
	struct bpf_insn insnsi[4];
};

/* ---- the helpers, and the types' get_func_proto ---- */
struct bpf_func_proto { u64 (*func)(u64, u64, u64, u64, u64); int ret_type; };
NOINLINE u64 bpf_trace_helper(u64 a, u64 b, u64 c, u64 d, u64 e) { FRAME(136, a + b + c + d + e); }
NOINLINE u64 bpf_lsm_helper(u64 a, u64 b, u64 c, u64 d, u64 e) { FRAME(200, a + b + c + d + e); }
NOINLINE u64 bpf_sys_bpf(u64 a, u64 b, u64 c, u64 d, u64 e) { FRAME(1024, a + b + c + d + e); }
const struct bpf_func_proto bpf_trace_helper_proto = { bpf_trace_helper, 1 };
const struct bpf_func_proto bpf_lsm_helper_proto = { bpf_lsm_helper, 1 };
const struct bpf_func_proto bpf_sys_bpf_proto = { bpf_sys_bpf, 1 };
struct bpf_verifier_ops {
	const struct bpf_func_proto *(*get_func_proto)(int func_id, const struct bpf_prog *prog);
};
NOINLINE const struct bpf_func_proto *raw_tp_prog_func_proto(int func_id, const struct bpf_prog *prog)
{
	return func_id == 7 && prog ? &bpf_trace_helper_proto : 0;
}
NOINLINE const struct bpf_func_proto *bpf_lsm_func_proto(int func_id, const struct bpf_prog *prog)
{
	return func_id == 8 && prog ? &bpf_lsm_helper_proto : 0;
}
NOINLINE const struct bpf_func_proto *syscall_prog_func_proto(int func_id, const struct bpf_prog *prog)
{
	return func_id == 166 && prog ? &bpf_sys_bpf_proto : 0;
}
const struct bpf_verifier_ops raw_tracepoint_verifier_ops = { raw_tp_prog_func_proto };
const struct bpf_verifier_ops raw_tracepoint_writable_verifier_ops = { raw_tp_prog_func_proto };
const struct bpf_verifier_ops tracing_verifier_ops = { raw_tp_prog_func_proto };
const struct bpf_verifier_ops lsm_verifier_ops = { bpf_lsm_func_proto };
const struct bpf_verifier_ops bpf_syscall_verifier_ops = { syscall_prog_func_proto };

/* ---- the interpreter (kernel/bpf/core.c) ---- */
static NOINLINE unsigned int __bpf_prog_run32(const void *ctx, const struct bpf_insn *insn)
{
	volatile u64 regs[11] = { 0, (u64)ctx };

	return (unsigned int)(regs[1] + (u64)insn->imm);
}
unsigned int (*interpreters[])(const void *, const struct bpf_insn *) = { __bpf_prog_run32 };

/* ---- the cgroup's LSM programs, and the shim that runs them ---- */
struct bpf_prog *cgroup_lsm_progs;

/* kernel/bpf/cgroup.c: bpf_prog_run_array_cg() inlined */
NOINLINE unsigned int __cgroup_bpf_run_lsm_current(const void *ctx, const struct bpf_insn *insn)
{
	struct bpf_prog *p;
	unsigned int r = 0;

	(void)insn;
	for (p = cgroup_lsm_progs; p; p = p->next)
		r |= p->bpf_func(ctx, p->insnsi);
	return r;
}

/* kernel/bpf/bpf_lsm.c, kernel/bpf/trampoline.c: the shim program of an
 * LSM hook's trampoline */
NOINLINE struct bpf_prog *cgroup_shim_alloc(int current)
{
	struct bpf_prog *p = calloc(1, sizeof(*p));

	if (p && current)
		p->bpf_func = __cgroup_bpf_run_lsm_current;
	return p;
}

/* ---- who runs a program ---- */
/* kernel/trace/bpf_trace.c: a raw tracepoint's programs, bpf_prog_run()
 * inlined */
NOINLINE void bpf_trace_run1(struct bpf_prog *prog, u64 a)
{
	u64 args[1] = { a };

	prog->bpf_func(args, prog->insnsi);
}
/* net/bpf/test_run.c: a raw tracepoint program's test run */
struct bpf_raw_tp_test_run_info { struct bpf_prog *prog; void *ctx; unsigned int retval; };
NOINLINE void __bpf_prog_test_run_raw_tp(void *data)
{
	struct bpf_raw_tp_test_run_info *info = data;

	info->retval = info->prog->bpf_func(info->ctx, info->prog->insnsi);
}
/* kernel/bpf/syscall.c's BPF_PROG_RUN: a program of any type */
NOINLINE unsigned int bpf_prog_test_run(const struct bpf_prog *prog, const void *ctx)
{
	return prog->bpf_func(ctx, prog->insnsi);
}

int main(int argc, char **argv)
{
	struct bpf_prog *prog = calloc(1, sizeof(*prog)), *shim = cgroup_shim_alloc(argc);
	struct bpf_raw_tp_test_run_info info = { prog, &argc, 0 };
	int r;

	(void)argv;
	if (!prog || !shim)
		return 1;
	prog->bpf_func = interpreters[0];
	cgroup_lsm_progs = prog;
	bpf_trace_run1(prog, 1);
	__bpf_prog_test_run_raw_tp(&info);
	r = (int)bpf_prog_test_run(prog, &argc) + (int)info.retval;
	r += (int)shim->bpf_func(&argc, shim->insnsi);
	r += raw_tracepoint_verifier_ops.get_func_proto(argc, prog) != 0;
	r += lsm_verifier_ops.get_func_proto(argc, prog) != 0;
	r += bpf_syscall_verifier_ops.get_func_proto(argc, prog) != 0;
	return r == -1;
}
