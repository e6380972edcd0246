/*
 * An interpreted program of a known type (t1257), laid out as Linux 6.1
 * lays it out: bpf_trace_run2 (kernel/trace/bpf_trace.c) runs a raw
 * tracepoint's program through its bpf_func, the JIT's code or an
 * interpreter __bpf_prog_runN (kernel/bpf/core.c's interpreters[]),
 * which runs ___bpf_prog_run on the program's instructions; there
 * JMP_CALL calls (__bpf_call_base + insn->imm)(...), a helper the
 * program's type's get_func_proto returned, and JMP_CALL_ARGS
 * (__bpf_call_base_args + insn->imm)(...), an interpreters_args
 * function on a BPF function of the same program.  bpf_sys_bpf is a
 * BPF_PROG_TYPE_SYSCALL program's helper only; bpf_demo_helper every
 * type's (bpf_base_func_proto), bpf_trace_helper a raw tracepoint's,
 * bpf_iter_helper an iterator's (a TRACING program of attach type
 * BPF_TRACE_ITER, no raw tracepoint's).
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
NOINLINE const struct bpf_func_proto *bpf_base_func_proto(int func_id)
{
	return func_id == 1 ? &bpf_demo_helper_proto : 0;
}
#include "runner.h"

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
	return r == -1;
}
