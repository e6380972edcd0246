#!/bin/sh
# --indirect=types types a register by a variable DWARF locates in it
# before the one jump into the straight run that reaches the load
# (insn_link.via): handler's get_probe() (inlined) finds p in rdi and
# jumps out of its loop (jb) to the code that stores ctx->probe and
# loads ctx->probe->pre through rdi, where no variable is located any
# more, and two writes reach rdi (the list's first and the loop's
# next): every path to the load passes the jb with rdi unwritten since,
# and at the jb p (struct probe *) is in rdi (arch/x86/mm/kmmio.c's
# kmmio_handler, get_kmmio_probe(), ctx->probe->pre_handler).  So
#
#   handler       field struct probe.pre: pre_a (every address-taken
#                 function without it)
#   node_handler  the same shape, its variable a struct node *: the word
#                 is node's void * fn, any function: address-taken stays
#
# A build with -finstrument-functions is traced: every pair a run takes
# must be among the site's targets (tests/e2e/icall_check.py).
. tests/e2e/lib.sh
[ "$(uname -m)" = x86_64 ] || skip "the instruction pass is x86-64's"
command -v gcc >/dev/null || skip "no gcc"

b=$OUT/build
mkdir -p "$b"
cat >"$b/km.c" <<'C'
struct list_head { struct list_head *next, *prev; };
struct probe { struct list_head list; unsigned long addr, len; void (*pre)(struct probe *p, unsigned long a); };
struct ctx { int active; struct probe *probe; unsigned long addr; };
/* the same shape through a node's void * fn: any function */
struct node { struct list_head list; unsigned long addr, len; void *fn; };
struct nctx { int active; struct node *node; unsigned long addr; };
#define NOIPA __attribute__((noipa))
struct list_head probes = { &probes, &probes }, nodes = { &nodes, &nodes };
long total;
NOIPA void pre_a(struct probe *p, unsigned long a) { total += a + p->len; }
NOIPA void warn(struct ctx *c) { total += c->active; }
NOIPA void on_node(struct node *n, unsigned long a) { total -= a + n->len; }
static inline struct probe *get_probe(unsigned long addr)
{
	struct probe *p;

	for (p = (struct probe *)*(struct list_head *volatile *)&probes.next; &p->list != &probes;
	     p = (struct probe *)*(struct list_head *volatile *)&p->list.next)
		if (addr >= p->addr && addr < p->addr + p->len)
			return p;
	return 0;
}
NOIPA int handler(struct ctx *ctx, unsigned long addr)
{
	if (ctx->active) {
		warn(ctx);
		return 1;
	}
	ctx->active++;
	ctx->probe = get_probe(addr);
	ctx->addr = addr;
	if (ctx->probe && ctx->probe->pre)
		ctx->probe->pre(ctx->probe, addr);
	return 0;
}
static inline struct node *get_node(unsigned long addr)
{
	struct node *p;

	for (p = (struct node *)*(struct list_head *volatile *)&nodes.next; &p->list != &nodes;
	     p = (struct node *)*(struct list_head *volatile *)&p->list.next)
		if (addr >= p->addr && addr < p->addr + p->len)
			return p;
	return 0;
}
NOIPA int node_handler(struct nctx *ctx, unsigned long addr)
{
	if (ctx->active) {
		warn((struct ctx *)ctx);
		return 1;
	}
	ctx->active++;
	ctx->node = get_node(addr);
	ctx->addr = addr;
	if (ctx->node && ctx->node->fn)
		((void (*)(struct node *, unsigned long))ctx->node->fn)(ctx->node, addr);
	return 0;
}
static struct node na = { .addr = 0x1000, .len = 0x100, .fn = on_node };
static struct nctx ny;
static struct probe pa = { .addr = 0x1000, .len = 0x100, .pre = pre_a };
static struct ctx cx;
int main(int argc, char **argv)
{
	(void)argv;
	pa.list.next = probes.next; pa.list.prev = &probes; probes.next->prev = &pa.list; probes.next = &pa.list;
	handler(&cx, 0x1010 + (unsigned long)argc);
	cx.active = 0;
	handler(&cx, 0x10);
	na.list.next = nodes.next; na.list.prev = &nodes; nodes.next->prev = &na.list; nodes.next = &na.list;
	node_handler(&ny, 0x1020);
	return (int)(total & 1);
}
C
icall_build km || { finish; exit; }
# what this test is about: the load through rdi is reached only by a jb
# out of the inlined loop, where p is located in rdi
objdump -d --no-show-raw-insn "$b/km" | awk '/<handler>:/,/ret/' |
	grep -q "jb .*<handler+0x[0-9a-f]*>" || skip "gcc compiled get_probe otherwise"
objdump -d --no-show-raw-insn "$b/km" | awk '/<handler>:/,/^$/' | grep -q "mov *0x20(%rdi),%rax" ||
	skip "gcc loaded ctx->probe->pre otherwise"

run_sp --json --indirect=types --no-libs "$b/km"
expect_rc 0 "--indirect=types"
j=$OUT/km.json
cp "$OUT/stdout" "$j"
expect_eq "handler" "$(icall_sites "$j" handler)" '[["field", "struct probe.pre", ["pre_a"]]]'
expect_eq "node_handler" "$(icall_sites "$j" node_handler)" '[["address-taken", null, []]]'
icall_traced 2
finish
