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
 */
#define BPF_JIT_FRAME (512 + 8 * (8 + 8 + 8 + 32))

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

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

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
	uint32_t id = sp_u64map_get(&b->addr, value);

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

/* __BTF_ID__func__NAME__N inside a set8: NAME's function. */
static void find_kfunc(void *arg, const GElf_Sym *sym, const char *name)
{
	struct kfunc_syms *b = arg;
	const char *start = name + strlen(BTF_ID_FUNC), *end;
	struct sp_strbuf sb = { 0 };
	uint64_t value;
	uint32_t id;

	if (strncmp(name, BTF_ID_FUNC, strlen(BTF_ID_FUNC)) || !sym_value(b->e, sym, &value) ||
	    !in_set8(b, value))
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
	for (i = 0; i < ops->n; i++)
		if (ops->v[i] >= first && ops->v[i] < end)
			sp_u64map_put(&b->addr, g->funcs[ops->v[i]].addr, ops->v[i]);
	for (sec = 0; sec < im->data.nsecs; sec++)
		ind_data_words(&im->data, sec, scan_word, b);
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
			k->idle_map_ops++;
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

/* What a program may call, into k->scratch, sorted and unique. */
static void jit_calls(struct ind_kernel *k)
{
	const struct ind_keys *keys = &k->r->keys;
	uint32_t i, j;

	k->scratch.n = 0;
	for (i = 0; i < keys->n; i++)
		if (helper_key(k, &keys->v[i]))
			for (j = 0; j < keys->v[i].ntargets; j++)
				ids_add(&k->scratch, keys->v[i].targets[j]);
	map_ops(k, &k->scratch);
	emitted_calls(k, &k->scratch);
	read_kfuncs(k, &k->scratch);
	k->scratch.n = ind_unique_ids(k->scratch.v, k->scratch.n);
}

/*
 * <bpf jit>: a program the JIT compiled, which the image has no code
 * of.  Its frame is BPF_JIT_FRAME, the verifier's bound; its calls are
 * jit_calls'.  A tail call jumps to a program of the same type in the
 * caller's frame (its calls are among these).  Assumed: a helper that
 * calls back into a program (bpf_loop's callback) has its call typed as
 * any other.
 */
static uint32_t jit_node(struct ind_kernel *k)
{
	struct sp_graph *g = k->r->g;
	struct sp_isite *is;
	struct sp_func *f;
	uint32_t i, jit;

	if (k->jit != SP_NONE)
		return k->jit;
	jit_calls(k);
	jit = k->jit = sp_graph_add_func(g);
	f = &g->funcs[jit];
	f->name = sp_intern(g, "<bpf jit>");
	f->self = BPF_JIT_FRAME;
	f->qual = SP_QUAL_STATIC;
	f->src = SP_SRC_JIT;
	/* its calls are the program's, assumed */
	f->n_indirect = 1;
	f->flags = SP_F_INDIRECT_ASSUMED;
	/* said in the reports as a site of its own, at no address */
	is = sp_graph_add_isite(g);
	is->func = jit;
	is->how = SP_RES_BPF;
	is->type = sp_intern(g, "helpers: struct bpf_func_proto.func, struct bpf_map_ops's map "
				"helpers, emitted calls, kfuncs");
	sp_graph_set_isite_targets(g, is, k->scratch.v, k->scratch.n);
	for (i = 0; i < k->scratch.n; i++) {
		struct sp_edge *x;

		sp_graph_add_edge(g, jit, k->scratch.v[i], SP_EDGE_CALL, 0);
		x = &g->edges[g->nedges - 1];
		x->flags = SP_EDGE_F_ASSUMED;
		x->how = SP_RES_BPF;
		k->edges++;
	}
	return jit;
}

/*
 * A call through a struct bpf_prog's bpf_func (bpf_prog_run(), the BPF
 * dispatchers): what bpf_prog_select_runtime() and the JIT store there,
 * an interpreter (__bpf_prog_runN through interpreters[],
 * __bpf_prog_ret0_warn): the address-taken functions of bpf_func's
 * prototype; or the JIT's code, <bpf jit>.
 */
enum sp_resolved ind_bpf_targets(struct ind_kernel *k, const struct ind_site *s, struct ids *out,
				 const char **desc)
{
	if (!is_bpf_func_type(s->t.proto))
		return SP_RES_NONE;
	ind_kernel_exact_typed(k, s->t.proto, out);
	ids_add(out, jit_node(k));
	*desc = s->t.proto;
	return SP_RES_BPF;
}
