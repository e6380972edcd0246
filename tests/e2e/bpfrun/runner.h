/*
 * runner.h - the part of tests/e2e/bpfrun/run.c (t1257) and
 * tests/e2e/bpfcbrun/run.c (t1258) that both lay out as Linux 6.1 does:
 * the program types' get_func_proto, the interpreters and their
 * tables, and the runners.  Included where each defines these, after
 * its helpers and bpf_base_func_proto.
 */
NOINLINE const struct bpf_func_proto *raw_tp_prog_func_proto(int func_id, const struct bpf_prog *prog)
{
	if (func_id == 7 && prog)
		return &bpf_trace_helper_proto;
	return bpf_base_func_proto(func_id);
}
/* kernel/bpf/bpf_iter.c: an iterator's own helpers (the tcp iterator's
 * bpf_sk_getsockopt ...), for a BPF_TRACE_ITER program only */
NOINLINE u64 bpf_iter_helper(u64 a, u64 b, u64 c, u64 d, u64 e) { FRAME(152, a + b + c + d + e); }
const struct bpf_func_proto bpf_iter_helper_proto = { bpf_iter_helper, 1 };
NOINLINE const struct bpf_func_proto *bpf_iter_get_func_proto(int func_id, const struct bpf_prog *prog)
{
	return func_id == 9 && prog ? &bpf_iter_helper_proto : 0;
}
#define BPF_TRACE_ITER 28
NOINLINE const struct bpf_func_proto *tracing_prog_func_proto(int func_id, const struct bpf_prog *prog)
{
	const struct bpf_func_proto *fn = raw_tp_prog_func_proto(func_id + 1, prog);

	if (!fn && prog->expected_attach_type == BPF_TRACE_ITER)
		fn = bpf_iter_get_func_proto(func_id, prog);
	return fn;
}
NOINLINE const struct bpf_func_proto *syscall_prog_func_proto(int func_id, const struct bpf_prog *prog)
{
	if (func_id == 166 && prog)
		return &bpf_sys_bpf_proto;
	return bpf_base_func_proto(func_id);
}
const struct bpf_verifier_ops raw_tracepoint_verifier_ops = { raw_tp_prog_func_proto };
const struct bpf_verifier_ops raw_tracepoint_writable_verifier_ops = { raw_tp_prog_func_proto };
const struct bpf_verifier_ops tracing_verifier_ops = { tracing_prog_func_proto };
const struct bpf_verifier_ops bpf_syscall_verifier_ops = { syscall_prog_func_proto };

/* ---- the interpreter ---- */
NOINLINE u64 __bpf_call_base(u64 r1, u64 r2, u64 r3, u64 r4, u64 r5)
{
	return r1 + r2 + r3 + r4 + r5;
}
#define __bpf_call_base_args \
	((u64 (*)(u64, u64, u64, u64, u64, const struct bpf_insn *))(void *)__bpf_call_base)

static u64 ___bpf_prog_run(u64 *regs, const struct bpf_insn *insn);
NOINLINE __attribute__((cold)) void bad_insn(int code) { volatile int x = code; (void)x; }

static NOINLINE u64 __bpf_prog_run_args32(u64 r1, u64 r2, u64 r3, u64 r4, u64 r5,
					  const struct bpf_insn *insn)
{
	u64 regs[6] = { r1, r2, r3, r4, r5, 0 };

	return ___bpf_prog_run(regs, insn);
}
u64 (*interpreters_args[])(u64, u64, u64, u64, u64, const struct bpf_insn *) = {
	__bpf_prog_run_args32,
};

static NOINLINE u64 ___bpf_prog_run(u64 *regs, const struct bpf_insn *insn)
{
	static const void *const jumptable[8] = {
		&&EXIT, &&JMP_CALL, &&JMP_CALL_ARGS, &&ALU,
		&&default_label, &&default_label, &&default_label, &&default_label,
	};

select_insn:
	goto *jumptable[insn->code & 7];
ALU:
	regs[0] += (u64)insn->imm;
	insn++;
	goto select_insn;
JMP_CALL:
	regs[0] = (__bpf_call_base + insn->imm)(regs[1], regs[2], regs[3], regs[4], regs[5]);
	insn++;
	goto select_insn;
JMP_CALL_ARGS:
	regs[0] = (__bpf_call_base_args + insn->imm)(regs[1], regs[2], regs[3], regs[4], regs[5],
						      insn + insn->off + 1);
	insn++;
	goto select_insn;
EXIT:
	return regs[0];
default_label: __attribute__((cold));
	bad_insn(insn->code);
	return 0;
}

static NOINLINE unsigned int __bpf_prog_run32(const void *ctx, const struct bpf_insn *insn)
{
	u64 regs[11] = { 0, (u64)ctx };

	return (unsigned int)___bpf_prog_run(regs, insn);
}
unsigned int (*interpreters[])(const void *, const struct bpf_insn *) = { __bpf_prog_run32 };

/* ---- who runs a program ---- */
/* kernel/trace/bpf_trace.c: a raw tracepoint's programs, bpf_prog_run()
 * inlined */
NOINLINE void bpf_trace_run2(struct bpf_prog *prog, u64 a, u64 b)
{
	u64 args[2] = { a, b };

	prog->bpf_func(args, prog->insnsi);
}
/* kernel/bpf/syscall.c's BPF_PROG_RUN: a program of any type */
NOINLINE unsigned int bpf_prog_test_run(const struct bpf_prog *prog, const void *ctx)
{
	return prog->bpf_func(ctx, prog->insnsi);
}
