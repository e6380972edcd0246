/*
 * The BPF interpreter's calls (t1228), laid out as Linux 6.1's
 * kernel/bpf/core.c lays them out: ___bpf_prog_run dispatches through
 * its own labels (goto *jumptable[insn->code]), and calls
 * (__bpf_call_base + insn->imm)(...) for JMP_CALL and
 * (__bpf_call_base_args + insn->imm)(...) for JMP_CALL_ARGS, imm what
 * the verifier wrote: a helper's, a map operation's or an emitted
 * function's offset from __bpf_call_base, or an interpreters_args
 * function's.  Never a kfunc's.
 */
#include <stdlib.h>

typedef unsigned long long u64;
#define NOINLINE __attribute__((noinline))
/* a frame of n bytes the compiler keeps */
#define FRAME(n, x) volatile char buf[n]; buf[(x) & 15] = 1; return buf[2]

struct bpf_insn { unsigned char code, regs; short off; int imm; };

/* ---- what a program may call ---- */
struct bpf_func_proto { u64 (*func)(u64, u64, u64, u64, u64); int ret_type; };
NOINLINE u64 bpf_demo_helper(u64 a, u64 b, u64 c, u64 d, u64 e) { FRAME(64, a + b + c + d + e); }
const struct bpf_func_proto bpf_demo_helper_proto = { bpf_demo_helper, 1 };
struct bpf_map_ops { void *(*map_lookup_elem)(void *map, void *key); };
NOINLINE void *demo_lookup(void *map, void *key) { volatile char b[40]; b[(long)key & 7] = 1; return map; }
const struct bpf_map_ops htab_map_ops = { demo_lookup };
NOINLINE void *__htab_map_lookup_elem(void *map, void *key) { volatile char b[112]; b[(long)key & 7] = 1; return map; }
/* a kfunc: only JIT'ed programs call one */
NOINLINE int demo_kfunc(int x) { FRAME(120, x); }
__asm__(".pushsection .BTF_ids,\"a\"\n"
	".local __BTF_ID__set8__demo_kfunc_set\n"
	"__BTF_ID__set8__demo_kfunc_set:\n"
	".zero 8\n"
	".local __BTF_ID__func__demo_kfunc__7\n"
	"__BTF_ID__func__demo_kfunc__7:\n"
	".zero 4\n"
	".long 0\n"
	".size __BTF_ID__set8__demo_kfunc_set, .-__BTF_ID__set8__demo_kfunc_set\n"
	".popsection\n");
/* address-taken, of the helpers' prototype, but no program's */
NOINLINE u64 not_a_helper(u64 a, u64 b, u64 c, u64 d, u64 e) { FRAME(200, a + b + c + d + e); }
u64 (*volatile elsewhere)(u64, u64, u64, u64, u64) = not_a_helper;

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
static NOINLINE u64 __bpf_prog_run_args64(u64 r1, u64 r2, u64 r3, u64 r4, u64 r5,
					  const struct bpf_insn *insn)
{
	u64 regs[10] = { r1, r2, r3, r4, r5, 0 };

	return ___bpf_prog_run(regs, insn);
}
u64 (*interpreters_args[])(u64, u64, u64, u64, u64, const struct bpf_insn *) = {
	__bpf_prog_run_args32, __bpf_prog_run_args64,
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
	/* GCC moves it out, to ___bpf_prog_run.cold, as the kernel's */
	bad_insn(insn->code);
	return 0;
}

NOINLINE unsigned int __bpf_prog_run32(const void *ctx, const struct bpf_insn *insn)
{
	u64 regs[11] = { 0, (u64)ctx };

	return (unsigned int)___bpf_prog_run(regs, insn);
}

/* the same sum elsewhere: not the interpreter, nothing known */
NOINLINE u64 other_base_call(const struct bpf_insn *insn, u64 a)
{
	return (__bpf_call_base + insn->imm)(a, a, a, a, a);
}

int main(int argc, char **argv)
{
	struct bpf_insn prog[3] = {
		{ 1, 0, 0, (int)((char *)bpf_demo_helper - (char *)__bpf_call_base) },
		{ 3, 0, 0, argc },
		{ 0, 0, 0, 0 },
	};
	u64 r;

	(void)argv;
	r = __bpf_prog_run32(&argc, prog);
	r += (u64)htab_map_ops.map_lookup_elem(0, 0);
	r += (u64)__htab_map_lookup_elem(0, 0) + (u64)demo_kfunc(argc);
	r += other_base_call(prog, (u64)argc) + elsewhere(1, 2, 3, 4, 5);
	r += bpf_demo_helper_proto.func(1, 2, 3, 4, 5);
	return (int)r;
}
