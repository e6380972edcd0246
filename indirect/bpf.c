/*
 * bpf.c - a call through a struct bpf_prog's bpf_func: the interpreters,
 * and the programs the JIT makes at run time, one node <bpf jit> of
 * bounded frame whose calls are what the verifier lets a program call
 * (Linux 6.1):
 *
 *	helpers		every struct bpf_func_proto's func: a call of helper
 *			ID becomes one of get_func_proto(ID)->func
 *			(do_misc_fixups(), kernel/bpf/verifier.c:14716-14728);
 *	map operations	the nine members of struct bpf_map_ops the map
 *			helpers are turned into (jit_map_ops);
 *	emitted calls	functions the kernel's generated BPF code calls
 *			directly, which no proto names (emitted);
 *	kfuncs		the functions of a BTF id set8 (read_kfuncs).
 */
#include "indirect/run.h"

#include <gelf.h>
#include <stdlib.h>
#include <string.h>

#include "common/strbuf.h"
#include "common/xalloc.h"
#include "indirect/kernel.h"

/*
 * The x86-64 JIT's worst stack (arch/x86/net/bpf_jit_comp.c, Linux 6.1):
 * the verifier lets a program and the BPF functions it calls use
 * MAX_BPF_STACK (512) bytes in all (check_max_stack_depth(), each frame
 * rounded up to 32), in at most MAX_CALL_FRAMES (8) frames; each frame
 * the JIT adds the return address, push %rbp (emit_prologue), the tail
 * call counter (push %rax) and the four callee-saved registers
 * push_callee_regs() pushes (%rbx, %r13, %r14, %r15): 8 * (8 + 8 + 8 +
 * 32) + 512.
 *
 * A tail call from a BPF function unwinds its own frame only
 * (emit_bpf_tail_call_indirect(), _direct()): its callers' stay under
 * the next program's, which may use as much again.  The verifier lets
 * it when those callers' frames hold less than 256 bytes
 * (check_max_stack_depth_subprog(), kernel/bpf/verifier.c:4449-4472:
 * "the worst case scenario would result in 8k stack size"): at most 224
 * in 32-byte steps, in at most 7 frames of 56 bytes each from the JIT;
 * and MAX_TAIL_CALL_CNT (33, include/linux/bpf.h:1493) tail calls in a
 * run.  So 33 * (224 + 7 * 56) below the last program's.
 */
#define BPF_JIT_ONE (512 + 8 * (8 + 8 + 8 + 32))
#define BPF_JIT_FRAME (BPF_JIT_ONE + 33 * (224 + 7 * (8 + 8 + 8 + 32)))

/* The interpreter, and its calls' description */
#define INTERPRETER "___bpf_prog_run"
#define INTERP_CALLS \
	"__bpf_call_base + imm: helpers, struct bpf_map_ops's map helpers, emitted calls, " \
	"interpreters_args"
/* ... in a copy of the interpreter under a runner (interp_copies) */
#define INTERP_TYPE_CALLS \
	"__bpf_call_base + imm: the type's helpers, struct bpf_map_ops's map helpers, " \
	"emitted calls, interpreters_args"

/* Is proto a struct bpf_prog's bpf_func, unsigned int (*)(const void
 * *ctx, const struct bpf_insn *insn)? */
static bool is_bpf_func_type(const char *proto)
{
	return proto && !strncmp(proto, "unsigned int(", 13) && strstr(proto, "struct bpf_insn*") &&
	       !strchr(strchr(proto, ',') ? strchr(proto, ',') + 1 : "", ',');
}

/*
 * The members of struct bpf_map_ops a program calls: do_misc_fixups()
 * turns a call of the nine map helpers into a direct call of the map's
 * own operation (kernel/bpf/verifier.c:14513-14522, 14576-14603), or,
 * for map_lookup_elem, inlines the code map_gen_lookup writes, which it
 * calls itself (14530-14548).  The other members serve the bpf syscall
 * (map_alloc_check, map_update_batch ...) and the kernel's own code,
 * which call them through map->ops as any other pointer.
 */
static const char *const jit_map_ops[] = {
	"map_lookup_elem", "map_update_elem",	     "map_delete_elem",
	"map_push_elem",   "map_pop_elem",	     "map_peek_elem",
	"map_redirect",	   "map_for_each_callback", "map_lookup_percpu_elem",
};

/*
 * Calls the kernel's generated BPF code makes with BPF_EMIT_CALL, of
 * functions no struct bpf_func_proto holds (Linux 6.1):
 * __htab_map_lookup_elem from the code the hash maps' map_gen_lookup
 * writes (kernel/bpf/hashtab.c:714, 755, 2549); classic BPF's ancillary
 * loads and packet loads as bpf_convert_filter() translates them
 * (net/core/filter.c:445-457, 531-537); eBPF's BPF_LD_ABS and BPF_LD_IND
 * (bpf_gen_ld_abs(), net/core/filter.c:8898-8904).
 */
static const char *const emitted[] = {
	"__htab_map_lookup_elem",	  "bpf_skb_get_pay_offset",
	"bpf_skb_get_nlattr",		  "bpf_skb_get_nlattr_nest",
	"bpf_get_raw_cpu_id",		  "bpf_user_rnd_u32",
	"bpf_skb_load_helper_8",	  "bpf_skb_load_helper_16",
	"bpf_skb_load_helper_32",	  "bpf_skb_load_helper_8_no_cache",
	"bpf_skb_load_helper_16_no_cache", "bpf_skb_load_helper_32_no_cache",
};


/* A symbol's address, a module's as its sections are laid out (kernel.c's
 * find_syms' way); false when it has none. */
static bool sym_value(const struct sp_elf *e, const GElf_Sym *sym, uint64_t *value)
{
	if (sym->st_shndx == SHN_UNDEF || sym->st_shndx >= SHN_LORESERVE)
		return false;
	*value = sym->st_value;
	if (e->type == ET_REL)
		*value += sym->st_shndx < e->nsec ? e->sec_base[sym->st_shndx] : 0;
	return true;
}

/* The index of member (interned, or NULL) in jit_map_ops, -1 when none. */
static int jit_map_op(const char *member)
{
	size_t i;

	for (i = 0; member && i < COUNT(jit_map_ops); i++)
		if (!strcmp(member, jit_map_ops[i]))
			return (int)i;
	return -1;
}

/* A key of struct bpf_func_proto's func: a helper (BPF_CALL's target). */
static bool helper_key(struct ind_kernel *k, const struct ind_key *key)
{
	struct sp_graph *g = k->r->g;

	return key->name == sp_intern(g, "bpf_func_proto") && key->member &&
	       key->member == sp_intern(g, "func");
}

/* A key of struct bpf_map_ops's jit_map_ops: its index there, else -1. */
static int map_op_key(struct ind_kernel *k, const struct ind_key *key)
{
	return key->name == sp_intern(k->r->g, "bpf_map_ops") ? jit_map_op(key->member) : -1;
}

/* jit_map_ops's bits */
#define OP(i) (1u << (i))
#define LOOKUP OP(0)
#define UPDATE OP(1)
#define DELETE OP(2)
#define PUSH OP(3)
#define POP OP(4)
#define PEEK OP(5)
#define REDIRECT OP(6)

/*
 * The map types whose own map helpers are fewer: a map's ops are its
 * type's (find_and_alloc_map(), kernel/bpf/syscall.c:112-138, from
 * bpf_map_types[], include/linux/bpf_types.h:83-129: an offloaded map's
 * bpf_map_offload_ops no host program may use, verifier.c:13020-13021),
 * and check_map_func_compatibility() lets a program call on a map of
 * these types only the helpers of its own switch's case
 * (kernel/bpf/verifier.c:6468-6583): so the members of their ops the
 * map helpers are not turned into are not called.  A sockmap's update
 * and delete: may_update_sockmap() lets some program types.
 */
static const struct {
	const char *ops;
	unsigned members;	/* jit_map_ops a program may call */
} map_types[] = {
	{ "prog_array_map_ops", 0 },		/* BPF_FUNC_tail_call: a jump */
	{ "perf_event_array_map_ops", 0 },
	{ "ringbuf_map_ops", 0 },
	{ "user_ringbuf_map_ops", 0 },
	{ "stack_trace_map_ops", 0 },
	{ "cgroup_array_map_ops", 0 },
	{ "cgroup_storage_map_ops", 0 },	/* and PERCPU_CGROUP_STORAGE */
	{ "dev_map_ops", REDIRECT | LOOKUP },
	{ "dev_map_hash_ops", REDIRECT | LOOKUP },
	{ "cpu_map_ops", REDIRECT },
	{ "xsk_map_ops", REDIRECT | LOOKUP },
	{ "array_of_maps_map_ops", LOOKUP },
	{ "htab_of_maps_map_ops", LOOKUP },
	{ "sock_map_ops", LOOKUP | UPDATE | DELETE },
	{ "sock_hash_ops", LOOKUP | UPDATE | DELETE },
	{ "reuseport_array_ops", 0 },
	{ "queue_map_ops", PEEK | POP | PUSH },
	{ "stack_map_ops", PEEK | POP | PUSH },
	{ "sk_storage_map_ops", 0 },
	{ "inode_storage_map_ops", 0 },
	{ "task_storage_map_ops", 0 },
	{ "bloom_filter_map_ops", PEEK | PUSH },
	/* no program may use one at all (check_map_prog_compatibility(),
	 * verifier.c:13026-13029), nor hold one in a map (no
	 * map_meta_equal: bpf_map_meta_alloc(), kernel/bpf/map_in_map.c) */
	{ "bpf_struct_ops_map_ops", 0 },
};

/* An object of map_types in an image: [addr, end), its members. */
struct ops_obj {
	uint64_t addr, end;
	unsigned members;
};

/* What the map operations' data words say, image by image. */
struct map_scan {
	struct ind_kernel *k;
	const struct sp_elf *e;
	struct ops_obj *objs;
	size_t nobjs, cap;
	uint64_t off[COUNT(jit_map_ops)];	/* each member's offset, ~0 unknown */
	struct sp_u64map addr;		/* a candidate's address in the image -> id */
	uint64_t lo, hi;		/* the lowest and highest of them */
	struct cg_tool_tables tools;	/* ftrace's __mcount_loc ...: no calls */
	struct sp_u64map *idle;		/* id -> 1: held only where no program calls */
	struct sp_u64map *kept;		/* id -> 1: held where a program may call */
};

static void find_ops(void *arg, const GElf_Sym *sym, const char *name)
{
	struct map_scan *b = arg;
	uint64_t value;
	size_t i;

	if (GELF_ST_TYPE(sym->st_info) != STT_OBJECT || !sym_value(b->e, sym, &value))
		return;
	for (i = 0; i < COUNT(map_types); i++)
		if (!strcmp(name, map_types[i].ops)) {
			SP_ALLOC_GROW(b->objs, b->nobjs + 1, b->cap);
			b->objs[b->nobjs].addr = value;
			b->objs[b->nobjs].end = value + sym->st_size;
			b->objs[b->nobjs++].members = map_types[i].members;
		}
}

/* Is the word at addr a member of an object of map_types that no
 * program calls? */
static bool idle_word(const struct map_scan *b, uint64_t addr)
{
	size_t i, m;

	for (i = 0; i < b->nobjs; i++) {
		if (addr < b->objs[i].addr || addr >= b->objs[i].end)
			continue;
		for (m = 0; m < COUNT(jit_map_ops); m++)
			if (b->off[m] == addr - b->objs[i].addr)
				return !(b->objs[i].members & OP(m));
	}
	return false;
}

static void scan_word(void *arg, uint64_t addr, uint64_t value)
{
	struct map_scan *b = arg;
	uint32_t id;

	/* ind_data_words gave only words in [b->lo, b->hi] */
	id = sp_u64map_get(&b->addr, value);
	if (id == SP_NONE || cg_tool_table_has(&b->tools, addr))
		return;
	sp_u64map_put(idle_word(b, addr) ? b->idle : b->kept, id, 1);
}

/* A BTF id set8 of an image: [addr, end). */
struct set8 {
	uint64_t addr, end;
};

/* An image's set8s, then its kfuncs (kernel.c's find_syms' way with a
 * module's symbols). */
struct kfunc_syms {
	struct ind_kernel *k;
	const struct sp_elf *e;
	uint32_t image;
	struct set8 *sets;
	size_t nsets, cap;
	bool any;		/* every __BTF_ID__func__ symbol, not a set8's only */
	struct ids *out;
};

#define BTF_ID_SET8 "__BTF_ID__set8__"
#define BTF_ID_FUNC "__BTF_ID__func__"

static void find_sets(void *arg, const GElf_Sym *sym, const char *name)
{
	struct kfunc_syms *b = arg;
	uint64_t value;

	if (strncmp(name, BTF_ID_SET8, strlen(BTF_ID_SET8)) || !sym_value(b->e, sym, &value))
		return;
	if (b->nsets == b->cap) {
		b->cap = b->cap ? 2 * b->cap : 16;
		b->sets = sp_xrealloc(b->sets, b->cap * sizeof(*b->sets));
	}
	b->sets[b->nsets].addr = value;
	b->sets[b->nsets++].end = value + sym->st_size;
}

static bool in_set8(const struct kfunc_syms *b, uint64_t value)
{
	size_t i;

	for (i = 0; i < b->nsets; i++)
		if (value >= b->sets[i].addr && value < b->sets[i].end)
			return true;
	return false;
}

/* The function named name of image im, else of any image (a module's
 * set may name the kernel's). */
static uint32_t func_named_any(struct ind_kernel *k, uint32_t im, const char *name)
{
	uint32_t id = ind_kernel_func_named(k, im, name);
	size_t i;

	for (i = 0; id == SP_NONE && i < k->r->nims; i++)
		id = ind_kernel_func_named(k, (uint32_t)i, name);
	return id;
}

/* __BTF_ID__func__NAME__N inside a set8 (or anywhere, b->any): NAME's
 * function. */
static void find_kfunc(void *arg, const GElf_Sym *sym, const char *name)
{
	struct kfunc_syms *b = arg;
	const char *start = name + strlen(BTF_ID_FUNC), *end;
	struct sp_strbuf sb = { 0 };
	uint64_t value;
	uint32_t id;

	if (strncmp(name, BTF_ID_FUNC, strlen(BTF_ID_FUNC)) || !sym_value(b->e, sym, &value) ||
	    (!b->any && !in_set8(b, value)))
		return;
	end = strrchr(start, '_');
	if (!end || end - start < 2 || end[-1] != '_')
		return;
	sp_strbuf_addf(&sb, "%.*s", (int)(end - 1 - start), start);
	id = func_named_any(b->k, b->image, sp_intern(b->k->r->g, sb.buf));
	free(sb.buf);
	if (id != SP_NONE)
		ids_add(b->out, id);
}

/*
 * The kfuncs: the kernel functions a program calls by BTF id
 * (fixup_kfunc_call(), kernel/bpf/verifier.c:14207-14228, the address
 * add_kfunc_call() looked up by the function's name).  Only a set
 * given to register_btf_kfunc_id_set() lets a program call one, a
 * struct btf_kfunc_id_set's set, a struct btf_id_set8
 * (include/linux/btf.h:71-74); BTF_SET8_START(NAME) ... BTF_SET8_END(NAME)
 * makes it the sized symbol __BTF_ID__set8__NAME, and each
 * BTF_ID_FLAGS(func, F) in it the symbol __BTF_ID__func__F__N
 * (include/linux/btf_ids.h).  So the functions of the __BTF_ID__func__
 * symbols inside a set8 hold every kfunc, those of sets no one
 * registers as well; a set8 of no symbol size hides its kfuncs
 * (assumed: none does).
 */
static void read_kfuncs(struct ind_kernel *k, struct ids *out)
{
	size_t i;

	for (i = 0; i < k->r->nims; i++) {
		struct kfunc_syms b = { .k = k, .e = k->r->ims[i].elf, .image = (uint32_t)i,
					.out = out };

		sp_elf_each_symbol(b.e, find_sets, &b);
		if (b.nsets)
			sp_elf_each_symbol(b.e, find_kfunc, &b);
		free(b.sets);
	}
}

/* The emitted functions of each image, by name. */
static void emitted_calls(struct ind_kernel *k, struct ids *out)
{
	struct sp_graph *g = k->r->g;
	uint32_t id;
	size_t i, m;

	for (m = 0; m < k->r->nims; m++)
		for (i = 0; i < COUNT(emitted); i++) {
			id = ind_kernel_func_named(k, (uint32_t)m, sp_intern(g, emitted[i]));
			if (id != SP_NONE)
				ids_add(out, id);
		}
}

/* The data words of image m that hold a function of ops (the map
 * operations, of no code store), into b's idle and kept. */
static void scan_image(struct map_scan *b, uint32_t m, const struct ids *ops)
{
	const struct ind_image *im = &b->k->r->ims[m];
	const struct sp_graph *g = b->k->r->g;
	uint32_t first, end, i;
	size_t sec;

	b->e = im->elf;
	b->nobjs = 0;
	sp_elf_each_symbol(b->e, find_ops, b);
	if (!b->nobjs || !im->data.word)
		return;
	cg_tool_tables(b->e, &b->tools);
	cg_funcs(im->img, &first, &end);
	sp_u64map_init(&b->addr, ops->n);
	b->lo = UINT64_MAX;
	b->hi = 0;
	for (i = 0; i < ops->n; i++)
		if (ops->v[i] >= first && ops->v[i] < end) {
			uint64_t a = g->funcs[ops->v[i]].addr;

			sp_u64map_put(&b->addr, a, ops->v[i]);
			if (a < b->lo)
				b->lo = a;
			if (a > b->hi)
				b->hi = a;
		}
	for (sec = 0; sec < im->data.nsecs; sec++)
		ind_data_words(&im->data, sec, b->lo, b->hi, scan_word, b);
	sp_u64map_release(&b->addr);
}

/*
 * Leave out of ops (the map operations the keys of jit_map_ops hold)
 * those a program cannot call: every data word that holds one is a
 * member of an object of map_types that the map's type lets no program
 * call, and no code stores one in a struct bpf_map_ops (code).  A word
 * anywhere else, of any member, keeps it.
 */
static void drop_idle_ops(struct ind_kernel *k, struct ids *ops, const struct sp_u64map *code,
			  const uint64_t *off)
{
	struct sp_u64map idle, kept;
	struct map_scan b = { .k = k, .idle = &idle, .kept = &kept };
	uint32_t i, n = 0;

	memcpy(b.off, off, sizeof(b.off));
	sp_u64map_init(&idle, 64);
	sp_u64map_init(&kept, ops->n);
	for (i = 0; i < k->r->nims; i++)
		scan_image(&b, i, ops);
	for (i = 0; i < ops->n; i++)
		if (sp_u64map_get(&idle, ops->v[i]) == SP_NONE ||
		    sp_u64map_get(&kept, ops->v[i]) != SP_NONE ||
		    sp_u64map_get(code, ops->v[i]) != SP_NONE)
			ops->v[n++] = ops->v[i];
		else
			ids_add(&k->idle_ops, ops->v[i]);
	ops->n = n;
	free(b.objs);
	sp_u64map_release(&idle);
	sp_u64map_release(&kept);
}

/* The map operations a program may call, into out. */
static void map_ops(struct ind_kernel *k, struct ids *out)
{
	const struct ind_keys *keys = &k->r->keys;
	uint64_t off[COUNT(jit_map_ops)];
	struct sp_u64map code;
	struct ids ops = { 0 };
	uint32_t i, j;
	int m;

	memset(off, 0xff, sizeof(off));
	sp_u64map_init(&code, 16);
	for (i = 0; i < keys->n; i++) {
		if ((m = map_op_key(k, &keys->v[i])) < 0)
			continue;
		off[m] = keys->v[i].off;
		for (j = 0; j < keys->v[i].ntargets; j++)
			ids_add(&ops, keys->v[i].targets[j]);
		for (j = 0; j < keys->v[i].ncode; j++)
			sp_u64map_put(&code, keys->v[i].code[j], 1);
	}
	ops.n = ind_unique_ids(ops.v, ops.n);
	drop_idle_ops(k, &ops, &code, off);
	for (i = 0; i < ops.n; i++)
		ids_add(out, ops.v[i]);
	free(ops.v);
	sp_u64map_release(&code);
}

/* The words of table interpreters_args: the functions an interpreted
 * program's BPF-to-BPF calls go to (bpf_patch_call_args()). */
struct args_table {
	struct ind_kernel *k;
	const struct ind_image *im;
	struct ids *out;
	bool found, whole;
};

static void find_args_table(void *arg, const GElf_Sym *sym, const char *name)
{
	struct args_table *b = arg;
	uint64_t value, at, fn;
	uint32_t id;

	if (GELF_ST_TYPE(sym->st_info) != STT_OBJECT || strcmp(name, "interpreters_args") ||
	    !sym_value(b->im->elf, sym, &value) || !sym->st_size)
		return;
	b->found = true;
	for (at = value; at + b->im->data.word <= value + sym->st_size; at += b->im->data.word)
		if (!ind_data_word(&b->im->data, at, &fn) || (id = ind_func_at(b->im, fn)) == SP_NONE)
			b->whole = false;
		else
			ids_add(b->out, id);
}

/* interpreters_args' functions into out; false when no image has the
 * table, or a word of it is not a function. */
static bool read_args_table(struct ind_kernel *k, struct ids *out)
{
	struct args_table b = { .k = k, .out = out, .whole = true };
	size_t i;

	for (i = 0; i < k->r->nims; i++) {
		b.im = &k->r->ims[i];
		if (b.im->data.word)
			sp_elf_each_symbol(b.im->elf, find_args_table, &b);
	}
	return b.found && b.whole;
}

/* What a program may call, once: the helpers into k->helpers, the rest
 * (map operations, emitted calls, kfuncs) into k->other, each sorted
 * and unique. */
static void jit_sets(struct ind_kernel *k)
{
	const struct ind_keys *keys = &k->r->keys;
	uint32_t i, j;

	if (k->sets_made)
		return;
	k->sets_made = true;
	for (i = 0; i < keys->n; i++)
		if (helper_key(k, &keys->v[i]))
			for (j = 0; j < keys->v[i].ntargets; j++)
				ids_add(&k->helpers, keys->v[i].targets[j]);
	k->helpers.n = ind_unique_ids(k->helpers.v, k->helpers.n);
	map_ops(k, &k->other);
	emitted_calls(k, &k->other);
	for (i = 0; i < k->other.n; i++)
		ids_add(&k->interp, k->other.v[i]);
	k->interp_ok = read_args_table(k, &k->interp);
	k->interp.n = ind_unique_ids(k->interp.v, k->interp.n);
	read_kfuncs(k, &k->other);
	k->other.n = ind_unique_ids(k->other.v, k->other.n);
	k->idle_ops.n = ind_unique_ids(k->idle_ops.v, k->idle_ops.n);
}

/*
 * A node for programs the JIT compiled, which the image has no code of:
 * its frame is BPF_JIT_FRAME, the verifier's bound; its calls, assumed,
 * are added by jit_calls.
 */
static uint32_t new_jit(struct ind_kernel *k, const char *name)
{
	struct sp_graph *g = k->r->g;
	uint32_t jit = sp_graph_add_func(g);
	struct sp_func *f = &g->funcs[jit];

	f->name = sp_intern(g, name);
	f->self = BPF_JIT_FRAME;
	f->qual = SP_QUAL_STATIC;
	f->src = SP_SRC_JIT;
	f->n_indirect = 1;
	f->flags = SP_F_INDIRECT_ASSUMED;
	return jit;
}

/* jit's calls, v[0..n) (sorted, unique): said in the reports as a site
 * of its own at no address, of type type, and an assumed edge each. */
static void jit_calls(struct ind_kernel *k, uint32_t jit, const uint32_t *v, uint32_t n,
		      const char *type)
{
	struct sp_graph *g = k->r->g;
	struct sp_isite *is = sp_graph_add_isite(g);
	uint32_t i;

	is->func = jit;
	is->how = SP_RES_BPF;
	is->type = sp_intern(g, type);
	sp_graph_set_isite_targets(g, is, v, n);
	for (i = 0; i < n; i++) {
		struct sp_edge *x;

		sp_graph_add_edge(g, jit, v[i], SP_EDGE_CALL, 0);
		x = &g->edges[g->nedges - 1];
		x->flags = SP_EDGE_F_ASSUMED;
		x->how = SP_RES_BPF;
		k->edges++;
	}
}

/* helpers and the rest, into k->scratch, sorted and unique */
static void merge_calls(struct ind_kernel *k, const struct ids *helpers)
{
	uint32_t i;

	k->scratch.n = 0;
	for (i = 0; i < helpers->n; i++)
		ids_add(&k->scratch, helpers->v[i]);
	for (i = 0; i < k->other.n; i++)
		ids_add(&k->scratch, k->other.v[i]);
	k->scratch.n = ind_unique_ids(k->scratch.v, k->scratch.n);
}

/*
 * <bpf jit>: a program of any type.  A tail call jumps to a program of
 * the same type in the caller's frame (its calls are among these).
 * A helper that calls back into the program (bpf_loop's callback)
 * calls <bpf jit> again (callback_targets).
 */
static uint32_t jit_node(struct ind_kernel *k)
{
	if (k->jit != SP_NONE)
		return k->jit;
	jit_sets(k);
	k->jit = new_jit(k, "<bpf jit>");
	merge_calls(k, &k->helpers);
	jit_calls(k, k->jit, k->scratch.v, k->scratch.n,
		  "helpers: struct bpf_func_proto.func, struct bpf_map_ops's map helpers, "
		  "emitted calls, kfuncs");
	return k->jit;
}

/* ---- the programs of one type: a raw tracepoint's, an LSM hook's ---- */

/*
 * Functions that run programs of known types, and those types' verifier
 * ops (Linux 6.1).  A program may call the helpers its ops'
 * get_func_proto returns (check_helper_call(), do_misc_fixups()); a
 * tail call stays in its type and attach type (bpf_prog_map_compatible(),
 * kernel/bpf/core.c:2176-2230); a freplace program takes its target's
 * ops; an fentry program on one is a BPF_PROG_TYPE_TRACING program.
 *
 *	bpf_trace_runN() (kernel/trace/bpf_trace.c:2291-2334) runs the
 *		programs bpf_probe_register() put on a raw tracepoint, which
 *		only bpf_raw_tp_link_attach() calls (kernel/bpf/syscall.c:
 *		3385-3440): BPF_PROG_TYPE_RAW_TRACEPOINT, _WRITABLE, or
 *		BPF_PROG_TYPE_TRACING attached as BPF_TRACE_RAW_TP (tp_btf);
 *	__cgroup_bpf_run_lsm_sock, _socket, _current (kernel/bpf/cgroup.c:
 *		83-144), the shims bpf_lsm_find_cgroup_shim() gives an
 *		LSM_CGROUP program's trampoline (kernel/bpf/bpf_lsm.c:
 *		93-116), run the cgroup's programs of the shim's LSM
 *		attach type, which only BPF_PROG_TYPE_LSM programs get
 *		(attach_type_to_prog_type(), bpf_prog_attach_check_attach_type());
 *	__bpf_prog_test_run_raw_tp() (net/bpf/test_run.c:838-851), which
 *		bpf_prog_test_run_raw_tp() runs (889, 898), the test_run of
 *		raw_tracepoint_prog_ops only (kernel/trace/bpf_trace.c:
 *		2005-2009): a BPF_PROG_TYPE_RAW_TRACEPOINT program, one of
 *		the raw tracepoints' types.
 */
#define RUNNERS IND_BPF_RUNNERS
static const struct runner {
	const char *prefix;	/* the functions' names: prefix, then digits */
	bool digits;		/* ... or anything */
	const char *also;	/* another function of the same types, or NULL */
	bool shim;		/* its functions are shims: is_shim() */
	const char *node;
	const char *ops[3];	/* their types' struct bpf_verifier_ops */
} runners[RUNNERS] = {
	{ "bpf_trace_run", true, "__bpf_prog_test_run_raw_tp", false, "<bpf jit: raw tracepoint>",
	  { "raw_tracepoint_verifier_ops", "raw_tracepoint_writable_verifier_ops",
	    "tracing_verifier_ops" } },
	{ "__cgroup_bpf_run_lsm_", false, NULL, true, "<bpf jit: lsm cgroup>",
	  { "lsm_verifier_ops" } },
};

/* The runner func is, -1 when none. */
static int runner_of(const struct sp_func *f)
{
	const char *p = f->name;
	size_t r, len;

	for (r = 0; p && r < RUNNERS; r++) {
		if (runners[r].also && !strcmp(p, runners[r].also))
			return (int)r;
		len = strlen(runners[r].prefix);
		if (strncmp(p, runners[r].prefix, len) || !p[len])
			continue;
		if (!runners[r].digits)
			return (int)r;
		for (p += len; *p >= '0' && *p <= '9'; p++)
			;
		return *p ? -1 : (int)r;
	}
	return -1;
}

static size_t nops(const struct runner *run)
{
	size_t n = 0;

	while (n < COUNT(run->ops) && run->ops[n])
		n++;
	return n;
}

/* The key of struct name's member, NULL when none. */
static const struct ind_key *key_of(struct ind_kernel *k, const char *name, const char *member)
{
	const struct ind_keys *keys = &k->r->keys;
	const char *interned = sp_intern(k->r->g, name);
	uint32_t i;

	for (i = 0; i < keys->n; i++)
		if (keys->v[i].name == interned && keys->v[i].member &&
		    !strcmp(keys->v[i].member, member))
			return &keys->v[i];
	return NULL;
}

/* The walk over the get_func_proto functions of a runner's types. */
struct proto_walk {
	struct ind_kernel *k;
	const struct runner *run;
	struct ids funcs;		/* the functions that return protos, found */
	struct sp_u64map seen;		/* id -> 1 */
	struct ids helpers;		/* the helpers their protos name */
	uint64_t func_off;		/* struct bpf_func_proto's func */
	bool wide;			/* something unknown: every helper */
	const char *why;
	struct insn_decoder *dec;
	struct insn_buf code;
	/* find_roots */
	const struct sp_elf *e;
	uint32_t image;
	uint64_t ops_off;		/* struct bpf_verifier_ops' get_func_proto */
	uint32_t roots;
};

static void walk_add(struct proto_walk *w, uint32_t id)
{
	if (sp_u64map_get(&w->seen, id) != SP_NONE)
		return;
	sp_u64map_put(&w->seen, id, 1);
	ids_add(&w->funcs, id);
}

static void find_roots(void *arg, const GElf_Sym *sym, const char *name)
{
	struct proto_walk *w = arg;
	const struct ind_image *im = &w->k->r->ims[w->image];
	uint64_t value, fn;
	uint32_t id;
	size_t i;

	if (GELF_ST_TYPE(sym->st_info) != STT_OBJECT || !sym_value(w->e, sym, &value))
		return;
	for (i = 0; i < nops(w->run); i++)
		if (!strcmp(name, w->run->ops[i]) && ind_data_word(&im->data, value + w->ops_off, &fn) &&
		    (id = ind_func_at(im, fn)) != SP_NONE) {
			walk_add(w, id);
			w->roots++;
		}
}

/* addr, loaded by a get_func_proto's code: a proto when its func word
 * holds a helper; and the word there, a pointer to one. */
static void loaded(struct proto_walk *w, const struct ind_image *im, uint64_t addr, bool deref)
{
	uint64_t fn, ptr;
	uint32_t id;

	if (!addr || sp_elf_is_code(im->elf, addr))
		return;
	if (ind_data_word(&im->data, addr + w->func_off, &fn) &&
	    (id = ind_func_at(im, fn)) != SP_NONE && ind_ids_has(w->k->helpers.v, w->k->helpers.n, id))
		ids_add(&w->helpers, id);
	if (deref && ind_data_word(&im->data, addr, &ptr))
		loaded(w, im, ptr, false);
}

enum { RIP = 16 };	/* DWARF's x86-64 number */

/* The addresses function id's code loads: its immediates and
 * RIP-relative operands (and the words these read). */
static void proto_loads(struct proto_walk *w, uint32_t id)
{
	const struct sp_func *f = &w->k->r->g->funcs[id];
	const struct ind_image *im = ind_image_of(w->k->r, id);
	struct sp_elf_run run = { .addr = f->addr, .end = f->addr + f->size };
	size_t i;

	w->code.n = 0;
	if (!im || !f->addr || !f->size || im->elf->arch->id != SP_ARCH_X86_64 ||
	    im->elf->type == ET_REL || (!w->dec && !(w->dec = insn_decoder_open(im->elf->machine))) ||
	    insn_decode(w->dec, im->elf, &run, false, &w->code) != INSN_WHOLE) {
		w->wide = true;
		w->why = f->name;
		return;
	}
	for (i = 0; i < w->code.n; i++) {
		const struct insn *x = &w->code.v[i];

		if (x->op == INSN_OP_INVALID || (x->groups & (INSN_G_CALL | INSN_G_JUMP)))
			continue;
		if (x->flags & INSN_F_IMM)
			loaded(w, im, (uint64_t)x->imm, false);
		if ((x->flags & INSN_F_MEM) && x->base == RIP)
			loaded(w, im, x->addr + x->len + (uint64_t)x->disp, x->op != INSN_OP_LEA);
	}
}

/* Does callee id return a proto (its prototype says, or it is a part of
 * caller: caller.cold, caller.part.0 ...)? */
static bool returns_proto(struct proto_walk *w, uint32_t caller, uint32_t id)
{
	const struct sp_graph *g = w->k->r->g;
	const char *cn = g->funcs[caller].name, *n = g->funcs[id].name, *proto = NULL;
	struct ind_image *im = ind_image_of(w->k->r, id);
	size_t len = cn ? strlen(cn) : 0;

	if (im)
		proto = ind_func_proto(w->k->r, im, id);

	/* proto.c's form drops the qualifiers */
	if (proto && !strncmp(proto, "const ", 6))
		proto += 6;
	if (proto && !strncmp(proto, "struct bpf_func_proto*(", 23))
		return true;
	return n && cn && !strncmp(n, cn, len) && n[len] == '.';
}

/*
 * The helpers of an iterator program only: tracing_prog_func_proto()
 * asks bpf_iter_get_func_proto() (the iterators' own get_func_proto,
 * bpf_iter_tcp_get_func_proto()'s bpf_sk_getsockopt ...) only for a
 * program of attach type BPF_TRACE_ITER (kernel/trace/bpf_trace.c:
 * 1970-1973, Linux 6.1), which bpf_iter_run_prog() runs, no runner: a
 * raw tracepoint's TRACING program is a BPF_TRACE_RAW_TP one
 * (bpf_raw_tp_link_attach(), kernel/bpf/syscall.c), an LSM shim's a
 * BPF_LSM_CGROUP one; a tail call keeps the attach type
 * (bpf_prog_map_compatible(), kernel/bpf/core.c:2209-2212), a freplace
 * program takes its target's (verifier.c:15457-15458).
 */
#define ITER_PROTO "bpf_iter_get_func_proto"

/* Is function f ITER_PROTO, or a part of it (ITER_PROTO.part.0 ...)? */
static bool iter_proto(const struct sp_func *f)
{
	size_t len = strlen(ITER_PROTO);

	return f->name && !strncmp(f->name, ITER_PROTO, len) && (!f->name[len] || f->name[len] == '.');
}

/* Follow function id's calls: to a function that returns a proto (not
 * an iterator's, iter_proto), and no call it cannot know. */
static void proto_calls(struct proto_walk *w, uint32_t id)
{
	const struct sp_graph *g = w->k->r->g;
	uint32_t i;

	for (i = 0; i < g->nisites; i++)
		if (g->isites[i].func == id && g->isites[i].how == SP_RES_NONE) {
			w->wide = true;
			w->why = g->funcs[id].name;
		}
	for (i = 0; i < g->nedges; i++) {
		const struct sp_edge *x = &g->edges[i];

		if (x->from != id)
			continue;
		if (!(g->funcs[x->to].flags & SP_F_HAS_CODE) && x->how != SP_RES_NONE) {
			w->wide = true;	/* a stand-in: a module's code ... */
			w->why = g->funcs[x->to].name;
		} else if (returns_proto(w, id, x->to) && !iter_proto(&g->funcs[x->to])) {
			walk_add(w, x->to);
		}
	}
}

/*
 * The helpers of w->run's programs, into w->helpers: the protos whose
 * addresses their get_func_proto loads, and the functions returning a
 * proto it calls (bpf_tracing_func_proto(), bpf_base_func_proto(),
 * bpf_get_trace_printk_proto(), and through bpf_iter_reg's
 * get_func_proto the iterators' ...); and what the code stores in a
 * proto's func, which its initialiser would not say.  Wide when a root
 * is missing, a call of theirs is not known, or a value of unknown
 * origin is stored in a proto's func.
 */
static void run_helpers(struct ind_kernel *k, struct proto_walk *w)
{
	const struct ind_key *ops = key_of(k, "bpf_verifier_ops", "get_func_proto");
	const struct ind_key *func = key_of(k, "bpf_func_proto", "func");
	uint32_t i;

	w->k = k;
	sp_u64map_init(&w->seen, 64);
	if (!ops || !func || func->escaped) {
		w->wide = true;
		w->why = "struct bpf_func_proto.func";
		return;
	}
	/* a proto whose func the code writes: what it may write */
	for (i = 0; i < func->ncode; i++)
		ids_add(&w->helpers, func->code[i]);
	w->ops_off = ops->off;
	w->func_off = func->off;
	for (w->image = 0; w->image < k->r->nims; w->image++) {
		w->e = k->r->ims[w->image].elf;
		if (k->r->ims[w->image].data.word)
			sp_elf_each_symbol(w->e, find_roots, w);
	}
	if (w->roots < nops(w->run)) {
		w->wide = true;
		w->why = w->run->ops[0];
		return;
	}
	for (i = 0; i < w->funcs.n && !w->wide; i++) {
		proto_loads(w, w->funcs.v[i]);
		proto_calls(w, w->funcs.v[i]);
	}
	w->helpers.n = ind_unique_ids(w->helpers.v, w->helpers.n);
}

/* ---- the interpreter under a runner ---- */

/* Is every indirect call site of function id resolved by bpf.c? */
static bool all_bpf_sites(const struct sp_graph *g, uint32_t id)
{
	uint32_t i;

	for (i = 0; i < g->nisites; i++)
		if (g->isites[i].func == id && g->isites[i].how != SP_RES_BPF)
			return false;
	return true;
}

static bool bpf_edge(const struct sp_edge *e)
{
	return (e->flags & SP_EDGE_F_ASSUMED) && e->how == SP_RES_BPF;
}

/* The copies of one runner's interpreters: copy[function id] (a map),
 * the interpreter's own in, the type's helpers. */
struct interp_copy {
	struct ind_kernel *k;
	int r;
	uint32_t in, copy;
	struct sp_u64map callers;	/* the interpreter's direct callers -> 1 */
	struct sp_u64map entry;		/* one the runner calls -> its copy */
	const struct ids *helpers;	/* the type's, sorted */
};

/* Does the interpreter's edge e call a helper the type's programs do
 * not (one of every program's, and no map operation, emitted call or
 * interpreters_args function too)? */
static bool other_type_helper(const struct interp_copy *c, const struct sp_edge *e)
{
	const struct ind_kernel *k = c->k;

	return bpf_edge(e) && ind_ids_has(k->helpers.v, k->helpers.n, e->to) &&
	       !ind_ids_has(c->helpers->v, c->helpers->n, e->to) &&
	       !ind_ids_has(k->interp.v, k->interp.n, e->to);
}

/* The copy of function to (the interpreter, a caller of it) under the
 * runner, else to. */
static uint32_t copy_of(const struct interp_copy *c, uint32_t to)
{
	uint32_t id = to == c->in ? c->copy : sp_u64map_get(&c->entry, to);

	return id != SP_NONE ? id : to;
}

/* Is edge e (from the runner's functions or the interpreter) a call of
 * an interpreter that calls ___bpf_prog_run (direct, as every
 * __bpf_prog_runN and __bpf_prog_run_argsN does)? */
static bool interp_entry(const struct interp_copy *c, const struct sp_edge *e)
{
	return bpf_edge(e) && sp_u64map_get(&c->callers, e->to) != SP_NONE;
}

/* Is function id one of runner r's? */
static bool runner_func(const struct sp_graph *g, uint32_t id, int r)
{
	return g->funcs[id].original == SP_NONE && runner_of(&g->funcs[id]) == r;
}

/* The calls of the copies: the interpreter's but the other types'
 * helpers, its callers' (edges [0, n)), each into the copies. */
static void copy_edges(struct interp_copy *c, uint32_t n)
{
	struct sp_graph *g = c->k->r->g;
	uint32_t i, from;

	for (i = 0; i < n; i++) {
		struct sp_edge e = g->edges[i];

		from = copy_of(c, e.from);
		if (from == e.from || (e.from == c->in && other_type_helper(c, &e)))
			continue;
		e.from = from;
		if (e.to == c->in || (g->edges[i].from == c->in && bpf_edge(&e)))
			e.to = copy_of(c, e.to);
		SP_ALLOC_GROW(g->edges, (size_t)g->nedges + 1, g->edges_cap);
		g->edges[g->nedges++] = e;
		c->k->edges += bpf_edge(&e);
	}
	g->finalized = false;
}

/* Site s's targets, the copies' in place of their functions (and the
 * other types' helpers left out of the interpreter's): its targets
 * anew. */
static void copy_site_targets(struct interp_copy *c, uint32_t s, bool interp)
{
	struct sp_graph *g = c->k->r->g;
	struct ids *x = &c->k->scratch;
	uint32_t i;

	x->n = 0;
	for (i = 0; g->isites[s].first != SP_NONE && i < g->isites[s].ntargets; i++) {
		uint32_t to = g->isite_targets[g->isites[s].first + i];
		struct sp_edge e = { .to = to, .flags = SP_EDGE_F_ASSUMED, .how = SP_RES_BPF };

		if (!interp || !other_type_helper(c, &e))
			ids_add(x, copy_of(c, to));
	}
	x->n = ind_unique_ids(x->v, x->n);
	sp_graph_set_isite_targets(g, &g->isites[s], x->v, x->n);
}

/* The interpreter's sites again, for its copy; the runner's sites call
 * the copies. */
static void copy_sites(struct interp_copy *c)
{
	struct sp_graph *g = c->k->r->g;
	uint32_t i, n = g->nisites;

	for (i = 0; i < n; i++) {
		if (g->isites[i].func == c->in) {
			struct sp_isite s = g->isites[i];

			s.func = c->copy;
			if (s.type && !strcmp(s.type, INTERP_CALLS))
				s.type = sp_intern(g, INTERP_TYPE_CALLS);
			*sp_graph_add_isite(g) = s;
			copy_site_targets(c, g->nisites - 1, true);
		} else if (g->isites[i].how == SP_RES_BPF && runner_func(g, g->isites[i].func, c->r)) {
			copy_site_targets(c, i, false);
		}
	}
}

/*
 * An interpreted program of runner r's types.  bpf_prog_select_func()
 * (kernel/bpf/core.c:2263-2272 of Linux 6.1, from
 * bpf_prog_select_runtime()) gives a program the JIT did not compile an
 * interpreter of interpreters[] (core.c:2139-2143), __bpf_prog_runN,
 * which runs ___bpf_prog_run on that program's instructions
 * (core.c:2092-2102): so what the runner calls through
 * bpf_func runs its own program.  Its JMP_CALL calls what
 * do_misc_fixups() wrote, get_func_proto(ID)->func of the program's own
 * type for a helper (verifier.c:14716-14728), as for the JIT; its
 * JMP_CALL_ARGS an interpreters_args function on a BPF function of the
 * same program (bpf_patch_call_args(), core.c:2155-2161), which runs
 * ___bpf_prog_run again (core.c:2105-2119); its tail call, a jump in the
 * loop (JMP_TAIL_CALL, core.c:1914-1940), a program of the same type
 * and attach type (bpf_prog_map_compatible(), core.c:2206-2212).  So
 * the runner's calls of the interpreters go to copies of them, each
 * standing for its function (sp_func.original), whose ___bpf_prog_run
 * calls the type's helpers only, and its interpreters_args' copies.
 * Only when every site of ___bpf_prog_run is bpf.c's: the helper edges
 * left out are that mechanism's own.
 */
static void interp_copies(struct ind_kernel *k, int r, const struct ids *helpers)
{
	struct sp_graph *g = k->r->g;
	struct interp_copy c = { .k = k, .r = r, .in = k->interp_fn, .helpers = helpers };
	uint32_t i, n = g->nedges;

	if (c.in == SP_NONE || !all_bpf_sites(g, c.in))
		return;
	sp_u64map_init(&c.callers, 64);
	sp_u64map_init(&c.entry, 64);
	for (i = 0; i < n; i++)
		if (g->edges[i].to == c.in && !(g->edges[i].flags & SP_EDGE_F_ASSUMED))
			sp_u64map_put(&c.callers, g->edges[i].from, 1);
	/* interp_entry() first: a flag of the edge rules out most of a
	 * kernel's, where runner_func() compared every caller's name
	 * (1.6 M times on Debian's kernel) */
	for (i = 0; i < n; i++) {
		const struct sp_edge *e = &g->edges[i];

		if (interp_entry(&c, e) && (e->from == c.in || runner_func(g, e->from, r)) &&
		    sp_u64map_get(&c.entry, e->to) == SP_NONE)
			sp_u64map_put(&c.entry, e->to, sp_graph_copy_func(g, e->to));
	}
	if (c.entry.count) {
		c.copy = sp_graph_copy_func(g, c.in);
		copy_edges(&c, n);
		for (i = 0; i < n; i++)
			if (interp_entry(&c, &g->edges[i]) && runner_func(g, g->edges[i].from, r))
				g->edges[i].to = copy_of(&c, g->edges[i].to);
		copy_sites(&c);
	}
	sp_u64map_release(&c.callers);
	sp_u64map_release(&c.entry);
}

static void cb_copies(struct ind_kernel *k, int r, uint32_t first);

/*
 * The node of runner r's programs.  Its calls wait for every other
 * site's (bpf_iter_get_func_proto's call through bpf_iter_reg's
 * get_func_proto): ind_bpf_finish.
 */
static uint32_t run_node(struct ind_kernel *k, int r)
{
	if (k->run_jit[r] == SP_NONE)
		k->run_jit[r] = new_jit(k, runners[r].node);
	return k->run_jit[r];
}

static void run_calls(struct ind_kernel *k, int r)
{
	struct proto_walk w = { .run = &runners[r] };
	uint32_t first;

	jit_sets(k);
	run_helpers(k, &w);
	k->run_helpers[r] = w.wide ? SP_NONE : w.helpers.n;
	merge_calls(k, w.wide ? &k->helpers : &w.helpers);
	jit_calls(k, k->run_jit[r], k->scratch.v, k->scratch.n,
		  w.wide ? "helpers: struct bpf_func_proto.func, struct bpf_map_ops's map helpers, "
			   "emitted calls, kfuncs"
			 : "the type's helpers, struct bpf_map_ops's map helpers, emitted calls, "
			   "kfuncs");
	first = k->r->g->nfuncs;
	if (!w.wide)
		interp_copies(k, r, &w.helpers);
	cb_copies(k, r, first);
	free(w.funcs.v);
	free(w.helpers.v);
	free(w.code.v);
	if (w.dec)
		insn_decoder_close(w.dec);
	sp_u64map_release(&w.seen);
}

void ind_bpf_finish(struct ind_kernel *k)
{
	int r;

	for (r = 0; r < RUNNERS; r++)
		if (k->run_jit[r] != SP_NONE)
			run_calls(k, r);
}

/* ---- a program's callbacks ---- */

/*
 * The helpers that call a BPF function the program hands them
 * (is_callback_calling_function(), kernel/bpf/verifier.c:445-452, Linux
 * 6.1): bpf_loop, bpf_find_vma and bpf_user_ringbuf_drain call it
 * themselves (kernel/bpf/bpf_iter.c:761, task_iter.c:807, ringbuf.c:
 * 771); bpf_for_each_map_elem through its map's map_for_each_callback
 * (bpf_iter.c:731, the only caller of that member); the callback
 * bpf_timer_set_callback() stores in a struct bpf_hrtimer is called by
 * bpf_timer_cb (helpers.c:1141-1167), which bpf_timer_init() gives the
 * hrtimer.  The first three by their protos' func, the objects
 * check_helper_call() reads (the same func do_misc_fixups() calls).
 */
static const char *const callback_protos[] = {
	"bpf_loop_proto", "bpf_find_vma_proto", "bpf_user_ringbuf_drain_proto",
};
#define CB_MAP_OP "map_for_each_callback"
#define CB_TIMER "bpf_timer_cb"
/* bpf_callback_t, u64 (*)(u64, u64, u64, u64, u64) (include/linux/bpf.h),
 * in proto.c's form */
#define U64 "long long unsigned int"
#define CB_PROTO U64 "(" U64 "," U64 "," U64 "," U64 "," U64 ")"

struct cb_syms {
	struct ind_kernel *k;
	const struct ind_image *im;
	uint64_t func_off;	/* struct bpf_func_proto's func */
};

static void find_cb_proto(void *arg, const GElf_Sym *sym, const char *name)
{
	struct cb_syms *b = arg;
	uint64_t value, fn;
	uint32_t id;
	size_t i;

	if (GELF_ST_TYPE(sym->st_info) != STT_OBJECT || !sym_value(b->im->elf, sym, &value))
		return;
	for (i = 0; i < COUNT(callback_protos); i++)
		if (!strcmp(name, callback_protos[i]) &&
		    ind_data_word(&b->im->data, value + b->func_off, &fn) &&
		    (id = ind_func_at(b->im, fn)) != SP_NONE)
			ids_add(&b->k->cb_callers, id);
}

/* The functions that call a program's callback, once, into
 * k->cb_callers (sorted). */
static void cb_callers(struct ind_kernel *k)
{
	const struct ind_key *func, *op;
	struct cb_syms b = { .k = k };
	uint32_t i, id;

	if (k->cb_read)
		return;
	k->cb_read = true;
	func = key_of(k, "bpf_func_proto", "func");
	op = key_of(k, "bpf_map_ops", CB_MAP_OP);
	for (i = 0; func && i < k->r->nims; i++) {
		b.im = &k->r->ims[i];
		b.func_off = func->off;
		if (b.im->data.word)
			sp_elf_each_symbol(b.im->elf, find_cb_proto, &b);
	}
	for (i = 0; op && i < op->ntargets; i++)
		ids_add(&k->cb_callers, op->targets[i]);
	for (i = 0; op && i < op->ncode; i++)
		ids_add(&k->cb_callers, op->code[i]);
	for (i = 0; i < k->r->nims; i++)
		if ((id = ind_kernel_func_named(k, i, sp_intern(k->r->g, CB_TIMER))) != SP_NONE)
			ids_add(&k->cb_callers, id);
	k->cb_callers.n = ind_unique_ids(k->cb_callers.v, k->cb_callers.n);
}

/*
 * A call of a program's callback: a site of one of k->cb_callers that
 * nothing else resolved, through bpf_callback_t or a pointer of no type
 * known (bpf_user_ringbuf_drain's void *callback_fn, cast).  The verifier
 * checked that the argument is a BPF function of the program
 * (ARG_PTR_TO_FUNC, a BPF_PSEUDO_FUNC load: check_func_arg()), and only a
 * JIT'ed program may pass one (fixup_call_args(), verifier.c:14186-14192:
 * "callbacks are not allowed in non-JITed programs"): JIT code, <bpf
 * jit>.  Its frame is a whole program's, more than the callback's (the
 * verifier counts the callback's stack and frames with its program's,
 * check_max_stack_depth_subprog(), 4437-4546; a timer's callback on its
 * own, 4502-4508, 4554); its calls are those of a program of any type, a
 * superset of what the callback's may call.  A callback that calls
 * bpf_loop again is <bpf jit> below itself: recursion, kept.  Under a
 * runner of known types the helper is a copy whose callback is the
 * runner's node (cb_copies).
 */
static enum sp_resolved callback_targets(struct ind_kernel *k, const struct ind_site *s,
					 struct ids *out, const char **desc)
{
	if (s->func == SP_NONE || (s->t.proto && s->t.proto != sp_intern(k->r->g, CB_PROTO)))
		return SP_RES_NONE;
	cb_callers(k);
	if (!ind_ids_has(k->cb_callers.v, k->cb_callers.n, s->func))
		return SP_RES_NONE;
	ids_add(out, jit_node(k));
	*desc = "a program's callback (ARG_PTR_TO_FUNC): JIT'ed code";
	return SP_RES_BPF;
}

/* ---- a program's callbacks under a runner ---- */

/* The copies of the functions that call runner r's programs' callbacks. */
struct cb_copy {
	struct ind_kernel *k;
	uint32_t jit;			/* the runner's node */
	uint32_t first;			/* its interpreters' copies: [first, end) */
	uint32_t end;
	struct sp_u64map copy;		/* function -> its copy */
};

/* Does function id call a program's callback on the program's stack
 * (not bpf_timer_cb, on the timer's)? */
static bool calls_callback(struct ind_kernel *k, uint32_t id)
{
	const char *name = k->r->g->funcs[id].name;

	return ind_ids_has(k->cb_callers.v, k->cb_callers.n, id) &&
	       !(name && !strcmp(name, CB_TIMER));
}

/* Is function id the runner's programs' code: its node, an
 * interpreter's copy? */
static bool type_code(const struct cb_copy *c, uint32_t id)
{
	return id == c->jit || (id >= c->first && id < c->end);
}

static uint32_t cb_copy_of(const struct cb_copy *c, uint32_t id)
{
	uint32_t x = sp_u64map_get(&c->copy, id);

	return x != SP_NONE ? x : id;
}

static void cb_copy_add(struct cb_copy *c, uint32_t id)
{
	if (sp_u64map_get(&c->copy, id) == SP_NONE)
		sp_u64map_put(&c->copy, id, sp_graph_copy_func(c->k->r->g, id));
}

/* The helpers the runner's programs call that call a callback, or call
 * a function that does (bpf_for_each_map_elem its map's
 * map_for_each_callback), with those: a copy each. */
static void cb_copy_funcs(struct cb_copy *c, uint32_t n)
{
	struct sp_graph *g = c->k->r->g;
	struct sp_u64map parent, wrap;
	uint32_t i;

	sp_u64map_init(&parent, 64);
	sp_u64map_init(&wrap, 16);
	for (i = 0; i < n; i++)
		if (calls_callback(c->k, g->edges[i].to))
			sp_u64map_put(&parent, g->edges[i].from, 1);
	for (i = 0; i < n; i++) {
		uint32_t to = g->edges[i].to;

		if (!type_code(c, g->edges[i].from) || !bpf_edge(&g->edges[i]))
			continue;
		if (calls_callback(c->k, to))
			cb_copy_add(c, to);
		if (sp_u64map_get(&parent, to) != SP_NONE) {
			cb_copy_add(c, to);
			sp_u64map_put(&wrap, to, 1);
		}
	}
	for (i = 0; i < n && wrap.count; i++)
		if (sp_u64map_get(&wrap, g->edges[i].from) != SP_NONE &&
		    calls_callback(c->k, g->edges[i].to))
			cb_copy_add(c, g->edges[i].to);
	sp_u64map_release(&parent);
	sp_u64map_release(&wrap);
}

/* Where a copy's call to goes: the runner's node for <bpf jit> (the
 * callback), a copy for a copied function. */
static uint32_t cb_target(const struct cb_copy *c, uint32_t to)
{
	return to == c->k->jit ? c->jit : cb_copy_of(c, to);
}

/* The copies' calls (of edges [0, n)) and sites; the runner's code
 * calls the copies. */
static void cb_copy_calls(struct cb_copy *c, uint32_t n)
{
	struct sp_graph *g = c->k->r->g;
	struct ids *x = &c->k->scratch;
	uint32_t i, j, ns = g->nisites;

	for (i = 0; i < n; i++) {
		struct sp_edge e = g->edges[i];

		if (type_code(c, e.from) && bpf_edge(&e)) {
			g->edges[i].to = cb_copy_of(c, e.to);
			continue;
		}
		if ((e.from = cb_copy_of(c, e.from)) == g->edges[i].from)
			continue;
		e.to = cb_target(c, e.to);
		SP_ALLOC_GROW(g->edges, (size_t)g->nedges + 1, g->edges_cap);
		g->edges[g->nedges++] = e;
		c->k->edges += bpf_edge(&e);
	}
	g->finalized = false;
	for (i = 0; i < ns; i++) {
		uint32_t from = cb_copy_of(c, g->isites[i].func);
		bool own = type_code(c, g->isites[i].func);
		struct sp_isite *s = &g->isites[i];

		if (from == s->func && !own)
			continue;
		if (!own) {
			struct sp_isite copy = g->isites[i];

			copy.func = from;
			s = sp_graph_add_isite(g);
			*s = copy;
		}
		x->n = 0;
		for (j = 0; s->first != SP_NONE && j < s->ntargets; j++)
			ids_add(x, own ? cb_copy_of(c, g->isite_targets[s->first + j])
				       : cb_target(c, g->isite_targets[s->first + j]));
		x->n = ind_unique_ids(x->v, x->n);
		sp_graph_set_isite_targets(g, s, x->v, x->n);
	}
}

/*
 * A callback under runner r.  The callback a helper calls is a BPF
 * function of the program that called the helper (ARG_PTR_TO_FUNC: the
 * verifier's check_func_arg() takes a BPF_PSEUDO_FUNC load of the same
 * program, kernel/bpf/verifier.c, Linux 6.1), so of the runner's types:
 * its code is the runner's node's, not <bpf jit>.  The helpers the
 * runner's node and its interpreters' copies (from id first on) call
 * that call a callback (directly, or through their map's
 * map_for_each_callback) go to copies of them, each standing for its
 * function (sp_func.original: its once/nest count is the original's),
 * whose callback is the runner's node.  Not bpf_timer_cb: a timer's
 * callback runs on the timer's stack, from the hrtimer.
 */
static void cb_copies(struct ind_kernel *k, int r, uint32_t first)
{
	struct sp_graph *g = k->r->g;
	struct cb_copy c = { .k = k, .jit = k->run_jit[r], .first = first, .end = g->nfuncs };
	uint32_t n = g->nedges;

	if (k->jit == SP_NONE)
		return;
	cb_callers(k);
	sp_u64map_init(&c.copy, 16);
	cb_copy_funcs(&c, n);
	if (c.copy.count)
		cb_copy_calls(&c, n);
	sp_u64map_release(&c.copy);
}

/* ---- the destructors of a map's referenced kptrs ---- */

/*
 * bpf_map_free_kptrs() calls off_desc->kptr.dtor (kernel/bpf/syscall.c:
 * 606-624, Linux 6.1), which btf_parse_kptrs() sets to the address
 * kallsyms_lookup_name() gives for the name of the BTF function
 * btf_find_dtor_kfunc() finds (btf.c:3488-3521): the kfunc_btf_id of a
 * struct btf_id_dtor_kfunc given to register_btf_id_dtor_kfuncs()
 * (btf.c:7581-7656), which btf_check_dtor_kfuncs() made sure is 'void
 * func(type *)' (btf.c:7543-7578).  The kernel's one caller,
 * bpf_prog_test_run_init() (net/bpf/test_run.c:1720-1746), takes the ids
 * from a BTF_ID_LIST, whose BTF_ID(func, F) is the symbol
 * __BTF_ID__func__F__N (include/linux/btf_ids.h).  So the destructors
 * are among the functions of those symbols, in any list or set, of such
 * a prototype (or of none known); the function is exported, so a
 * module's own code too.  Assumed: a module registers its own functions
 * only, not a kernel function by a BTF id of its own.
 */
#define DTOR_CALLER "bpf_map_free_kptrs"
#define DTOR_REGISTER "register_btf_id_dtor_kfuncs"
#define DTOR_PROTO "void(void*)"	/* btf_dtor_kfunc_t */

/* Is proto (NULL: none known) void of one parameter, a pointer (a '*'
 * anywhere in it: a pointer to a function too)? */
static bool dtor_shaped(const char *proto)
{
	size_t n = proto ? strlen(proto) : 0;
	int depth = 0;
	bool ptr = false;
	size_t i;

	if (!proto)
		return true;
	if (n < 7 || strncmp(proto, "void(", 5) || proto[n - 1] != ')')
		return false;
	for (i = 5; i < n - 1; i++) {
		depth += (proto[i] == '(') - (proto[i] == ')');
		if (proto[i] == ',' && !depth)
			return false;
		ptr |= proto[i] == '*';
	}
	return ptr;
}

/* The destructors, once, into k->dtors: the functions of every image's
 * __BTF_ID__func__ symbols of a destructor's prototype, and the
 * stand-in of the modules' code when one may register its own. */
static void read_dtors(struct ind_kernel *k)
{
	const char *reg = sp_intern(k->r->g, DTOR_REGISTER);
	uint32_t i, n = 0, id;

	if (k->dtors_read)
		return;
	k->dtors_read = true;
	for (i = 0; i < k->r->nims; i++) {
		struct kfunc_syms b = { .k = k, .e = k->r->ims[i].elf, .image = i, .any = true,
					.out = &k->dtors };

		sp_elf_each_symbol(b.e, find_kfunc, &b);
	}
	for (i = 0; i < k->dtors.n; i++) {
		struct ind_image *im = ind_image_of(k->r, k->dtors.v[i]);

		if (dtor_shaped(im ? ind_func_proto(k->r, im, k->dtors.v[i]) : NULL))
			k->dtors.v[n++] = k->dtors.v[i];
	}
	k->dtors.n = ind_unique_ids(k->dtors.v, n);
	for (i = 0; i < k->r->nims; i++)
		if ((id = ind_kernel_func_named(k, i, reg)) != SP_NONE && ind_exported(k, id))
			ids_add(&k->dtors, ind_exported_callers(k, id));
}

/* A call of bpf_map_free_kptrs of a destructor's type (or of none known,
 * as Debian's 6.1 kernel's is) that nothing else resolved: the
 * destructors. */
static enum sp_resolved dtor_targets(struct ind_kernel *k, const struct ind_site *s,
				     struct ids *out, const char **desc)
{
	const char *name;
	uint32_t i;

	if (s->func == SP_NONE || (s->t.proto && s->t.proto != sp_intern(k->r->g, DTOR_PROTO)))
		return SP_RES_NONE;
	name = k->r->g->funcs[s->func].name;
	if (!name || strcmp(name, DTOR_CALLER))
		return SP_RES_NONE;
	read_dtors(k);
	for (i = 0; i < k->dtors.n; i++)
		ids_add(out, k->dtors.v[i]);
	*desc = "a map's kptr destructor (register_btf_id_dtor_kfuncs)";
	return SP_RES_BPF;
}

/* ---- the interpreter's own calls ---- */


/* Does every word of table t lie in the code of function id (its ranges:
 * ___bpf_prog_run.cold's default_label too), none at its entry: the
 * addresses of its own labels? */
static bool own_labels(const struct sp_graph *g, const struct ind_image *im, uint32_t id,
		       const struct ind_target *t)
{
	uint64_t at, v;

	if (t->kind != IND_TK_TABLE || t->stride != im->data.word || t->end <= t->first)
		return false;
	for (at = t->first; at + im->data.word <= t->end; at += t->stride)
		if (!ind_data_word(&im->data, at, &v) || v == g->funcs[id].addr ||
		    cg_func_containing(im->img, v) != id)
			return false;
	return true;
}

/* Is call c's target __bpf_call_base plus a register: the last write of
 * the register it calls through before it, in its function's code, an
 * add of that immediate (x86-64)?  Only a check that the code is the
 * 6.1 interpreter's: the site is known by its function's name. */
static bool call_base_sum(struct ind_kernel *k, const struct ind_site *s,
			  const struct insn_icall *c)
{
	const struct ind_image *im = &k->r->ims[s->image];
	const struct insn_link *l = &im->code->icalls.links[c->link];
	const struct sp_func *f = &k->r->g->funcs[s->func];
	uint32_t base = ind_kernel_func_named(k, s->image, sp_intern(k->r->g, "__bpf_call_base"));
	struct sp_elf_run run = { .addr = f->addr, .end = f->addr + f->size };
	struct insn_decoder *dec;
	struct insn_buf code = { 0 };
	bool ok = false;
	size_t i;

	if (!c->nlinks || l->reg >= 64 || base == SP_NONE || !f->size ||
	    im->elf->arch->id != SP_ARCH_X86_64 || !(dec = insn_decoder_open(im->elf->machine)))
		return false;
	if (insn_decode(dec, im->elf, &run, false, &code) != INSN_WHOLE)
		code.n = 0;
	for (i = 0; i < code.n && code.v[i].addr != c->pc; i++)
		;
	while (i-- > 0 && i < code.n) {
		const struct insn *x = &code.v[i];

		if (x->groups & (INSN_G_CALL | INSN_G_JUMP))
			break;
		if (!(x->wregs & (1ull << l->reg)))
			continue;
		ok = x->op == INSN_OP_ADD && (x->flags & INSN_F_IMM) && x->reg == l->reg &&
		     !(x->flags & INSN_F_MEM) && (uint64_t)x->imm == k->r->g->funcs[base].addr;
		break;
	}
	free(code.v);
	insn_decoder_close(dec);
	return ok;
}

/*
 * The interpreter ___bpf_prog_run (kernel/bpf/core.c:1728-2043, found by
 * its name, a static function): an interpreted program's calls of
 * helpers, JMP_CALL's (__bpf_call_base + insn->imm)(...), and of its BPF
 * functions, JMP_CALL_ARGS' (__bpf_call_base_args + insn->imm)(...)
 * (core.c:1898-1912): the code adds __bpf_call_base's address to the
 * instruction's imm.  Only the verifier writes imm: a helper's or map
 * operation's or emitted function's address less __bpf_call_base
 * (do_misc_fixups(), BPF_CALL_IMM), or an interpreters_args function's
 * (bpf_patch_call_args(), core.c:2155-2161, from fixup_call_args());
 * a kfunc is never called (fixup_call_args(), verifier.c:14175-14178:
 * 'calling kernel functions are not allowed in non-JITed programs').
 * Both calls: the union of those.  Its dispatch, goto
 * *jumptable[insn->code] (core.c:1753), jumps to its own labels: no
 * call.  Anything else of it stays as it was.
 */
static enum sp_resolved interp_targets(struct ind_kernel *k, const struct ind_site *s,
				       struct ids *out, const char **desc)
{
	const struct sp_graph *g = k->r->g;
	const struct ind_image *im = &k->r->ims[s->image];
	const struct insn_icall *c;
	uint32_t i;

	if (s->func == SP_NONE || !g->funcs[s->func].name ||
	    strcmp(g->funcs[s->func].name, INTERPRETER) || !im->code)
		return SP_RES_NONE;
	c = &im->code->icalls.calls[s->icall];
	if (c->tail && own_labels(g, im, s->func, &s->t)) {
		*desc = "___bpf_prog_run's jumptable: its own labels";
		return SP_RES_BPF;
	}
	if (c->tail || s->t.kind != IND_TK_NONE || !call_base_sum(k, s, c))
		return SP_RES_NONE;
	jit_sets(k);
	if (!k->interp_ok)
		return SP_RES_NONE;
	k->interp_fn = s->func;
	for (i = 0; i < k->helpers.n; i++)
		ids_add(out, k->helpers.v[i]);
	for (i = 0; i < k->interp.n; i++)
		ids_add(out, k->interp.v[i]);
	*desc = INTERP_CALLS;
	return SP_RES_BPF;
}

/*
 * Is f an LSM cgroup shim?  cgroup_shim_alloc() makes it the bpf_func of
 * a program of its own (kernel/bpf/trampoline.c:693-726), which no fd
 * or id names (bpf_prog_alloc(), not bpf_prog_load()) and only an LSM
 * hook's trampoline holds (__bpf_trampoline_link_prog(), 788): the
 * trampoline's code calls it (invoke_bpf_prog(),
 * arch/x86/net/bpf_jit_comp.c:1950), never a runner's program.
 */
static bool is_shim(const struct sp_func *f)
{
	int r = runner_of(f);

	return r >= 0 && runners[r].shim;
}

/* Leave the LSM cgroup shims out of out: a bpf_func call's targets, those
 * the stores into struct bpf_prog's bpf_func gave it too (site_targets()
 * keeps what precise_targets() found). */
static void drop_shims(const struct sp_graph *g, struct ids *out)
{
	uint32_t i, kept = 0;

	for (i = 0; i < out->n; i++)
		if (!is_shim(&g->funcs[out->v[i]]))
			out->v[kept++] = out->v[i];
	out->n = kept;
}

/*
 * A call through a struct bpf_prog's bpf_func (bpf_prog_run(), the BPF
 * dispatchers): what bpf_prog_select_runtime() and the JIT store there,
 * an interpreter (__bpf_prog_runN through interpreters[],
 * __bpf_prog_ret0_warn): the address-taken functions of bpf_func's
 * prototype; or the JIT's code, <bpf jit>, in a runner its node, and
 * not an LSM cgroup shim, which no runner's program is (is_shim(); the
 * other calls keep them, as the trampolines are code the image lacks).
 */
enum sp_resolved ind_bpf_targets(struct ind_kernel *k, const struct ind_site *s, struct ids *out,
				 const char **desc)
{
	enum sp_resolved how = interp_targets(k, s, out, desc);
	int r;

	if (how == SP_RES_NONE)
		how = callback_targets(k, s, out, desc);
	if (how == SP_RES_NONE)
		how = dtor_targets(k, s, out, desc);
	if (how != SP_RES_NONE)
		return how;
	if (!is_bpf_func_type(s->t.proto))
		return SP_RES_NONE;
	r = s->func != SP_NONE ? runner_of(&k->r->g->funcs[s->func]) : -1;
	ind_kernel_exact_typed(k, s->t.proto, out);
	if (r >= 0)
		drop_shims(k->r->g, out);
	ids_add(out, r >= 0 ? run_node(k, r) : jit_node(k));
	*desc = s->t.proto;
	return SP_RES_BPF;
}

/*
 * The map helpers' own calls of the map's operation (kernel/bpf/
 * helpers.c: bpf_map_lookup_elem() ... map->ops->map_lookup_elem;
 * kernel/bpf/bpf_iter.c: bpf_for_each_map_elem(); net/core/filter.c:
 * bpf_xdp_redirect_map()): only programs call them, through their
 * protos, and the verifier let the map's type take the helper
 * (check_map_func_compatibility()): the map operations of k->idle_ops
 * are not the call's.
 */
static const struct {
	const char *helper, *member;
} map_helpers[] = {
	{ "bpf_map_lookup_elem", "map_lookup_elem" },
	{ "bpf_map_update_elem", "map_update_elem" },
	{ "bpf_map_delete_elem", "map_delete_elem" },
	{ "bpf_map_push_elem", "map_push_elem" },
	{ "bpf_map_pop_elem", "map_pop_elem" },
	{ "bpf_map_peek_elem", "map_peek_elem" },
	{ "bpf_map_lookup_percpu_elem", "map_lookup_percpu_elem" },
	{ "bpf_for_each_map_elem", "map_for_each_callback" },
	{ "bpf_xdp_redirect_map", "map_redirect" },
};

void ind_bpf_map_helper(struct ind_kernel *k, const struct ind_site *s, struct ids *out,
			uint32_t n)
{
	const struct ind_key *key;
	const char *name;
	uint32_t i, kept = n;
	size_t h;

	if (s->t.kind != IND_TK_KEY || s->func == SP_NONE)
		return;
	key = &k->r->keys.v[s->t.key];
	name = k->r->g->funcs[s->func].name;
	if (!name || key->name != sp_intern(k->r->g, "bpf_map_ops") || !key->member)
		return;
	for (h = 0; h < COUNT(map_helpers); h++)
		if (!strcmp(name, map_helpers[h].helper) && !strcmp(key->member, map_helpers[h].member))
			break;
	if (h == COUNT(map_helpers))
		return;
	jit_sets(k);
	for (i = n; i < out->n; i++)
		if (!ind_ids_has(k->idle_ops.v, k->idle_ops.n, out->v[i]))
			out->v[kept++] = out->v[i];
	k->helper_drops += out->n - kept;
	out->n = kept;
}
