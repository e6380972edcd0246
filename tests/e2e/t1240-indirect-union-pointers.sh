#!/bin/sh
# --indirect=types: a load from a union where several members are
# pointers to structs (the kernel's struct page: lru.next, rcu_head.next
# and the ZONE_DEVICE pgmap at 8; free_zone_device_page()'s
# page->pgmap->ops->page_free(page)) goes on through each member whose
# struct holds a word where the next load reads; each such must type the
# rest of the chain, and the call is one of their members.
#
#   free_dev   o->pgmap->ops->page_free: of the pointers at 8 only
#              struct pagemap holds a word at 0x70 (list_head,
#              rcu_head are 16 bytes): field, pf_a and pf_b
#   run_alt    o->a->ops->run (struct a_obj at 0x10) or o->b->bops->go
#              (struct b_obj, the same offsets): both fit, the call is
#              one of both members: h_run, h_go
#   run_blob   o->blob->priv (struct blob_obj at 0x18, priv a void *
#              at 0x70) called through the next word: that struct fits
#              but types no function: every address-taken function
#
# A build with -finstrument-functions is traced: every pair a run takes
# must be among the site's targets (tests/e2e/icall_check.py).
. tests/e2e/lib.sh
[ "$(uname -m)" = x86_64 ] || skip "the instruction pass is x86-64's"
command -v gcc >/dev/null || skip "no gcc"

b=$OUT/build
mkdir -p "$b"
cat >"$b/cu.c" <<'C'
#define NOIPA __attribute__((noipa))
struct list_head { struct list_head *next, *prev; };
struct rcu_head { struct rcu_head *next; void (*func)(struct rcu_head *); };
struct obj;
struct pagemap_ops { void (*page_free)(struct obj *); long (*migrate)(long); };
struct pagemap { long pad[14]; const struct pagemap_ops *ops; };
struct a_ops { long (*run)(long); };
struct b_ops { long (*go)(long); };
struct a_obj { long pad[14]; const struct a_ops *ops; };
struct b_obj { long pad[14]; const struct b_ops *bops; };
struct c_obj { long x; };
struct blob_obj { long pad[14]; void *priv; };
struct obj {
	unsigned long flags;
	union {
		struct list_head lru;
		struct { void *filler; unsigned int count; };
		struct { unsigned long head; };
		struct { struct pagemap *pgmap; void *data; };
		struct rcu_head rcu;
	};
	union { struct a_obj *a; struct b_obj *b; struct c_obj *c; };
	union { struct blob_obj *blob; struct list_head *list; };
};
long total;
NOIPA void pf_a(struct obj *o) { total += (long)o->flags; }
NOIPA void pf_b(struct obj *o) { total -= (long)o->flags; }
NOIPA long mig(long x) { return x + 1; }
NOIPA long h_run(long x) { total += x; return 1; }
NOIPA long h_go(long x) { total -= x; return 2; }
NOIPA long other(long x) { total ^= x; return 3; }
NOIPA void rcu_cb(struct rcu_head *h) { total += (long)h; }
NOIPA void free_dev(struct obj *o) { o->pgmap->ops->page_free(o); }
NOIPA long run_alt(struct obj *o) { return o->a->ops->run(3); }
NOIPA long run_blob(struct obj *o) { return ((long (*)(long))o->blob->priv)(4); }
static const struct pagemap_ops ops_a = { pf_a, mig }, ops_b = { pf_b, mig };
static const struct a_ops aops = { h_run };
static const struct b_ops bops = { h_go };
struct pagemap pm_a = { .ops = &ops_a }, pm_b = { .ops = &ops_b };
struct a_obj ao = { .ops = &aops };
struct b_obj bo = { .bops = &bops };
struct blob_obj blob = { .priv = (void *)other };
struct obj o1 = { .pgmap = &pm_a, .a = &ao, .blob = &blob };
struct obj o2 = { .pgmap = &pm_b, .b = &bo };
struct rcu_head rh = { 0, rcu_cb };
long (*volatile hook)(long) = other;
int main(int argc, char **argv)
{
	(void)argv;
	free_dev(argc > 5 ? &o2 : &o1);
	run_alt(&o1);
	run_alt(&o2);
	run_blob(&o1);
	rh.func(&rh);
	hook(5);
	return (int)(total & 1);
}
C
icall_build cu || { finish; exit; }
# what this test is about: the loads through the unions
objdump -d --no-show-raw-insn "$b/cu" | awk '/<free_dev>:/,/jmp/' | grep -q 'mov *0x8(%rdi)' ||
	skip "gcc loaded free_dev's pgmap otherwise"

run_sp --json --indirect=types --no-libs "$b/cu"
expect_rc 0 "--indirect=types"
j=$OUT/cu.json
cp "$OUT/stdout" "$j"
expect_eq "free_dev" "$(icall_sites "$j" free_dev)" \
	'[["field", "struct pagemap_ops.page_free", ["pf_a", "pf_b"]]]'
expect_eq "run_alt" "$(icall_sites "$j" run_alt)" \
	'[["field", "struct a_ops.run | struct b_ops.go", ["h_go", "h_run"]]]'
expect_eq "run_blob" "$(icall_sites "$j" run_blob)" '[["address-taken", null, []]]'
icall_traced 6
finish
