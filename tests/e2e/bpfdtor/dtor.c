/*
 * A map's referenced kptrs and their destructors (t1149), laid out as
 * Linux 6.1 lays them out: register_btf_id_dtor_kfuncs() takes pairs of
 * BTF ids (kernel/bpf/btf.c:7581), bpf_prog_test_run_init()'s from a
 * BTF_ID_LIST (net/bpf/test_run.c:1720-1746); btf_parse_kptrs() stores
 * in kptr.dtor the address kallsyms_lookup_name() gives for the
 * destructor's name (btf.c:3488-3521), a value no type says;
 * bpf_map_free_kptrs() calls it (kernel/bpf/syscall.c:606-624).
 *
 *   demo_test_release, demo_memb_release
 *                    BTF_ID(func, ...) of the list, void f(T *): kept
 *   demo_acquire     BTF_ID(func, ...) of a set, returns a pointer: not a
 *                    destructor (btf_check_dtor_kfuncs())
 *   demo_pair_release
 *                    BTF_ID(func, ...), two parameters: not one either
 *   other_release    void f(T *) but no BTF id: not one
 *
 * export.h makes the image a kernel that exports
 * register_btf_id_dtor_kfuncs (a module may register its own); with
 * NO_KSYMTAB a program.
 */
#include <stdlib.h>
#include <string.h>

#include "../kexport/export.h"

typedef unsigned int u32;
#define NOINLINE __attribute__((noinline))
#define FRAME(n, x) volatile char buf[n]; buf[(x) & 15] = 1; (void)buf[1]

struct demo_ref { int refs; };
struct demo_member { long a, b; };

NOINLINE void demo_test_release(struct demo_ref *p) { FRAME(48, p->refs); }
NOINLINE void demo_memb_release(struct demo_member *p) { FRAME(80, (int)p->a); }
NOINLINE struct demo_ref *demo_acquire(struct demo_ref *p) { FRAME(112, p->refs); return p; }
NOINLINE void demo_pair_release(struct demo_ref *p, struct demo_ref *q) { FRAME(144, p->refs + q->refs); }
NOINLINE void other_release(struct demo_ref *p) { FRAME(176, p->refs); }

/* BTF_ID_LIST(demo_dtor_kfunc_ids) and a BTF_SET8 (include/linux/btf_ids.h) */
__asm__(".pushsection .BTF_ids,\"a\"\n"
	".local demo_dtor_kfunc_ids\n"
	"demo_dtor_kfunc_ids:\n"
	".local __BTF_ID__struct__demo_ref__1\n"
	"__BTF_ID__struct__demo_ref__1:\n"
	".zero 4\n"
	".local __BTF_ID__func__demo_test_release__2\n"
	"__BTF_ID__func__demo_test_release__2:\n"
	".zero 4\n"
	".local __BTF_ID__struct__demo_member__3\n"
	"__BTF_ID__struct__demo_member__3:\n"
	".zero 4\n"
	".local __BTF_ID__func__demo_memb_release__4\n"
	"__BTF_ID__func__demo_memb_release__4:\n"
	".zero 4\n"
	".local __BTF_ID__func__demo_pair_release__5\n"
	"__BTF_ID__func__demo_pair_release__5:\n"
	".zero 4\n"
	".local __BTF_ID__set8__demo_kfunc_set\n"
	"__BTF_ID__set8__demo_kfunc_set:\n"
	".zero 8\n"
	".local __BTF_ID__func__demo_acquire__6\n"
	"__BTF_ID__func__demo_acquire__6:\n"
	".zero 4\n"
	".long 0\n"
	".size __BTF_ID__set8__demo_kfunc_set, .-__BTF_ID__set8__demo_kfunc_set\n"
	".popsection\n");
extern const u32 demo_dtor_kfunc_ids[];

/* kallsyms: names to addresses, every function's */
static const struct { const char *name; void *addr; } kallsyms[] = {
	{ "demo_test_release", (void *)demo_test_release },
	{ "demo_memb_release", (void *)demo_memb_release },
	{ "demo_acquire", (void *)demo_acquire },
	{ "demo_pair_release", (void *)demo_pair_release },
	{ "other_release", (void *)other_release },
};
NOINLINE unsigned long kallsyms_lookup_name(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(kallsyms) / sizeof(kallsyms[0]); i++)
		if (!strcmp(kallsyms[i].name, name))
			return (unsigned long)kallsyms[i].addr;
	return 0;
}

struct btf_id_dtor_kfunc { u32 btf_id; u32 kfunc_btf_id; };
static struct btf_id_dtor_kfunc dtor_tab[8];
static u32 ndtors;
NOINLINE int register_btf_id_dtor_kfuncs(const struct btf_id_dtor_kfunc *dtors, u32 cnt, void *owner)
{
	(void)owner;
	if (ndtors + cnt > 8)
		return -1;
	memcpy(dtor_tab + ndtors, dtors, cnt * sizeof(*dtors));
	ndtors += cnt;
	return 0;
}
EXPORT_SYMBOL(register_btf_id_dtor_kfuncs);

NOINLINE int bpf_prog_test_run_init(void)
{
	const struct btf_id_dtor_kfunc d[] = {
		{ demo_dtor_kfunc_ids[0], demo_dtor_kfunc_ids[1] },
		{ demo_dtor_kfunc_ids[2], demo_dtor_kfunc_ids[3] },
	};

	return register_btf_id_dtor_kfuncs(d, 2, NULL);
}

typedef void (*btf_dtor_kfunc_t)(void *);
struct bpf_map_value_off_desc {
	u32 offset;
	int type;
	struct {
		void *btf;
		void *module;
		btf_dtor_kfunc_t dtor;
		u32 btf_id;
	} kptr;
};
struct bpf_map_value_off { u32 nr_off; struct bpf_map_value_off_desc off[]; };
struct bpf_map { int map_type; struct bpf_map_value_off *kptr_off_tab; };

/* a dtor's name by its BTF id: the test's ids are their own names' indexes */
static const char *const btf_names[] = { "demo_test_release", "demo_memb_release" };
NOINLINE struct bpf_map_value_off *btf_parse_kptrs(u32 n)
{
	struct bpf_map_value_off *tab = calloc(1, sizeof(*tab) + n * sizeof(tab->off[0]));
	u32 i;

	if (!tab)
		return NULL;
	for (i = 0; i < n; i++) {
		tab->off[i].offset = 8 * i;
		tab->off[i].type = 1;
		tab->off[i].kptr.dtor = (void *)kallsyms_lookup_name(btf_names[i & 1]);
	}
	tab->nr_off = n;
	return tab;
}

NOINLINE void bpf_map_free_kptrs(struct bpf_map *map, void *map_value)
{
	struct bpf_map_value_off *tab = map->kptr_off_tab;
	u32 i;

	for (i = 0; i < tab->nr_off; i++) {
		struct bpf_map_value_off_desc *off_desc = &tab->off[i];
		unsigned long *p = (unsigned long *)((char *)map_value + off_desc->offset);
		unsigned long old = __atomic_exchange_n(p, 0, __ATOMIC_SEQ_CST);

		if (off_desc->type != 1)
			continue;
		off_desc->kptr.dtor((void *)old);
	}
}

/* the same type elsewhere: not a destructor's call */
NOINLINE void other_caller(btf_dtor_kfunc_t f, void *p)
{
	f(p);
	__asm__ volatile("" ::: "memory");
}

int main(int argc, char **argv)
{
	struct demo_ref r = { 1 };
	struct demo_member m = { 1, 2 };
	unsigned long value[2] = { (unsigned long)&r, (unsigned long)&m };
	struct bpf_map map = { 1, btf_parse_kptrs(2) };

	if (bpf_prog_test_run_init() || !map.kptr_off_tab)
		return 1;
	bpf_map_free_kptrs(&map, value);
	if (argc > 2)
		other_caller((btf_dtor_kfunc_t)kallsyms_lookup_name(argv[1]), &r);
	if (argc > 3)
		other_release(demo_acquire(&r)), demo_pair_release(&r, &r);
	free(map.kptr_off_tab);
	return 0;
}
