/*
 * What a BPF program may call (t1218), laid out as Linux 6.1 lays it out:
 *
 *   helpers          struct bpf_func_proto's func;
 *   map operations   the nine members of struct bpf_map_ops the verifier
 *                    turns the map helpers into, of a map type whose
 *                    helpers include them (kernel/bpf/verifier.c,
 *                    do_misc_fixups(), check_map_func_compatibility());
 *   emitted calls    __htab_map_lookup_elem, which the hash map's
 *                    map_gen_lookup code calls (kernel/bpf/hashtab.c);
 *   kfuncs           the functions of a BTF id set8, whose symbols
 *                    BTF_SET8_START and BTF_ID_FLAGS make
 *                    (include/linux/btf_ids.h).
 */
#include <stdlib.h>

typedef unsigned long long u64;
#define NOINLINE __attribute__((noinline))
/* a frame of n bytes the compiler keeps */
#define FRAME(n, x) volatile char buf[n]; buf[(x) & 15] = 1; return buf[2]

/* ---- helpers ---- */
struct bpf_func_proto { u64 (*func)(u64, u64, u64, u64, u64); int ret_type; };
NOINLINE u64 bpf_demo_helper(u64 a, u64 b, u64 c, u64 d, u64 e) { FRAME(64, a + b + c + d + e); }
const struct bpf_func_proto bpf_demo_helper_proto = { bpf_demo_helper, 1 };

/* ---- map operations ---- */
struct bpf_map_ops {
	int (*map_alloc_check)(void *attr);
	void *(*map_lookup_elem)(void *map, void *key);
	int (*map_update_elem)(void *map, void *key, void *value, u64 flags);
	int (*map_delete_elem)(void *map, void *key);
	int (*map_push_elem)(void *map, void *value, u64 flags);
	int (*map_lookup_batch)(void *map, void *attr);
};
/* the bpf syscall's, never a program's */
NOINLINE int demo_alloc_check(void *attr) { FRAME(32, (long)attr); }
NOINLINE int demo_lookup_batch(void *map, void *attr) { FRAME(32, (long)map + (long)attr); }
NOINLINE void *demo_lookup(void *map, void *key) { volatile char b[40]; b[(long)key & 7] = 1; return map; }
NOINLINE int demo_update(void *map, void *key, void *value, u64 flags) { FRAME(48, (long)map + (long)key + (long)value + (int)flags); }
NOINLINE int shared_delete(void *map, void *key) { FRAME(56, (long)map + (long)key); }
/* a map type of no restriction: a program calls the nine */
const struct bpf_map_ops htab_map_ops = {
	demo_alloc_check, demo_lookup, demo_update, shared_delete, 0, demo_lookup_batch,
};
/* BPF_MAP_TYPE_INODE_STORAGE: only bpf_inode_storage_get/delete, no map helper */
NOINLINE void *inode_lookup(void *map, void *key) { volatile char b[72]; b[(long)key & 7] = 1; return map; }
NOINLINE int inode_update(void *map, void *key, void *value, u64 flags) { FRAME(80, (long)map + (long)key + (long)value + (int)flags); }
NOINLINE int rt_update(void *map, void *key, void *value, u64 flags) { FRAME(88, (long)map + (long)key + (long)value + (int)flags); }
const struct bpf_map_ops inode_storage_map_ops = {
	0, inode_lookup, inode_update, shared_delete, 0, 0,
};
/* BPF_MAP_TYPE_QUEUE: peek, pop, push */
NOINLINE void *queue_lookup(void *map, void *key) { volatile char b[96]; b[(long)key & 7] = 1; return map; }
NOINLINE int queue_push(void *map, void *value, u64 flags) { FRAME(104, (long)map + (long)value + (int)flags); }
const struct bpf_map_ops queue_map_ops = { 0, queue_lookup, 0, 0, queue_push, 0 };
/* held by an idle member too, but stored by the code: kept */
const struct bpf_map_ops task_storage_map_ops = { 0, 0, rt_update, 0, 0, 0 };

/* the map helper's own call: only a program calls it, on a map whose
 * type lets it (inode storage's and a queue's lookup are not its);
 * the syscall's lookup may reach each */
struct bpf_map { const struct bpf_map_ops *ops; };
NOINLINE u64 bpf_map_lookup_elem(u64 map, u64 key, u64 c, u64 d, u64 e)
{
	struct bpf_map *m = (struct bpf_map *)map;

	(void)c, (void)d, (void)e;
	return (u64)m->ops->map_lookup_elem(m, (void *)key);
}
const struct bpf_func_proto bpf_map_lookup_elem_proto = { bpf_map_lookup_elem, 1 };
NOINLINE void *map_lookup_sys(struct bpf_map *m, void *key)
{
	return m->ops->map_lookup_elem(m, key);
}

/* ---- an emitted call ---- */
NOINLINE void *__htab_map_lookup_elem(void *map, void *key) { volatile char b[112]; b[(long)key & 7] = 1; return map; }

/* ---- kfuncs: a set8, and a BTF id set that is none ---- */
NOINLINE int demo_kfunc(int x) { FRAME(120, x); }
NOINLINE int d_path_allowed(int x) { FRAME(128, x); }
__asm__(".pushsection .BTF_ids,\"a\"\n"
	".local __BTF_ID__set8__demo_kfunc_set\n"
	"__BTF_ID__set8__demo_kfunc_set:\n"
	".zero 8\n"
	".local __BTF_ID__func__demo_kfunc__7\n"
	"__BTF_ID__func__demo_kfunc__7:\n"
	".zero 4\n"
	".long 0\n"
	".size __BTF_ID__set8__demo_kfunc_set, .-__BTF_ID__set8__demo_kfunc_set\n"
	".local __BTF_ID__set__d_path_allowlist\n"
	"__BTF_ID__set__d_path_allowlist:\n"
	".zero 4\n"
	".local __BTF_ID__func__d_path_allowed__8\n"
	"__BTF_ID__func__d_path_allowed__8:\n"
	".zero 4\n"
	".size __BTF_ID__set__d_path_allowlist, .-__BTF_ID__set__d_path_allowlist\n"
	".popsection\n");

/* ---- the helpers of a program type: its verifier ops' get_func_proto ---- */
struct bpf_prog;
NOINLINE u64 bpf_trace_helper(u64 a, u64 b, u64 c, u64 d, u64 e) { FRAME(136, a + b + c + d + e); }
NOINLINE u64 bpf_sys_bpf(u64 a, u64 b, u64 c, u64 d, u64 e) { FRAME(144, a + b + c + d + e); }
const struct bpf_func_proto bpf_trace_helper_proto = { bpf_trace_helper, 1 };
const struct bpf_func_proto bpf_sys_bpf_proto = { bpf_sys_bpf, 1 };
struct bpf_verifier_ops {
	const struct bpf_func_proto *(*get_func_proto)(int func_id, const struct bpf_prog *prog);
};
NOINLINE const struct bpf_func_proto *bpf_base_func_proto(int func_id)
{
	return func_id == 1 ? &bpf_demo_helper_proto : 0;
}
NOINLINE const struct bpf_func_proto *raw_tp_prog_func_proto(int func_id, const struct bpf_prog *prog)
{
	if (func_id == 7 && prog)
		return &bpf_trace_helper_proto;
	return bpf_base_func_proto(func_id);
}
NOINLINE const struct bpf_func_proto *tracing_prog_func_proto(int func_id, const struct bpf_prog *prog)
{
	return raw_tp_prog_func_proto(func_id + 1, prog);
}
/* BPF_PROG_TYPE_SYSCALL's: bpf_sys_bpf, no raw tracepoint's */
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

/* ---- the program's call ---- */
struct bpf_insn { unsigned char code, regs; short off; int imm; };
struct bpf_prog {
	unsigned int len;
	unsigned int (*bpf_func)(const void *ctx, const struct bpf_insn *insn);
	struct bpf_insn insnsi[4];
};
NOINLINE static unsigned int __bpf_prog_run32(const void *ctx, const struct bpf_insn *insn)
{
	volatile u64 stack[4];
	stack[insn->imm & 3] = (u64)ctx;
	return (unsigned int)stack[0];
}
/* a parameter: the kernel's mechanism, not the member's stores, says */
NOINLINE unsigned int bpf_dispatcher_nop_func(const void *ctx, const struct bpf_insn *insnsi,
		unsigned int (*bpf_func)(const void *, const struct bpf_insn *))
{
	return bpf_func(ctx, insnsi);
}
NOINLINE unsigned int bpf_prog_run(const struct bpf_prog *prog, const void *ctx)
{
	return bpf_dispatcher_nop_func(ctx, prog->insnsi, prog->bpf_func);
}
/* kernel/trace/bpf_trace.c: a raw tracepoint's programs, bpf_prog_run()
 * inlined; bpf_func holds the JIT's image too (unknown to the member) */
NOINLINE void bpf_trace_run2(struct bpf_prog *prog, u64 a, u64 b)
{
	u64 args[2] = { a, b };

	prog->bpf_func(args, prog->insnsi);
}
NOINLINE void *bpf_jit_binary_alloc(void)
{
	return malloc(64);
}

int main(int argc, char **argv)
{
	struct bpf_prog *prog = calloc(1, sizeof(*prog));
	struct bpf_map_ops *ops = calloc(1, sizeof(*ops));
	int r;

	(void)argv;
	if (!prog || !ops)
		return 1;
	ops->map_update_elem = rt_update;
	prog->bpf_func = __bpf_prog_run32;
	r = (int)bpf_prog_run(prog, ops);
	if (argc > 5)
		prog->bpf_func = (unsigned int (*)(const void *, const struct bpf_insn *))bpf_jit_binary_alloc();
	bpf_trace_run2(prog, 1, 2);
	r += raw_tracepoint_verifier_ops.get_func_proto(argc, prog) != 0;
	r += bpf_syscall_verifier_ops.get_func_proto(argc, prog) != 0;
	{
		struct bpf_map m = { argc > 1 ? &queue_map_ops : &htab_map_ops };

		r += map_lookup_sys(&m, 0) != 0;
	}
	r += demo_kfunc(argc) + d_path_allowed(argc);
	r += (int)(long)__htab_map_lookup_elem(ops, 0);
	return r + (int)(long)ops->map_update_elem(0, 0, 0, 0);
}
