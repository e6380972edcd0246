#!/bin/sh
# --indirect=types types a register by a variable DWARF locates in it
# anywhere along the straight run from the register's one write to the
# load, not only at the load (insn_link.held): cancel_all's
# r = list_first_entry(&c->active, struct req, list) is rbx - 112 from
# the instruction after `mov 0x8(%rbp),%rbx` up to the call, where GCC
# has moved r itself into rdi (r->cancel(&r->rw)), and the call reads
# `call *-0x28(%rbx)`: below the list_head, where struct timer, another
# holder of a list node, has a void *, so no container candidate says
# which (fs/aio.c's free_ioctx_users, req->ki_cancel).  So
#
#   cancel_all  field struct req.cancel: cancel_a, cancel_b (every
#               address-taken function without it)
#   fire_all    the same shape, its variable a struct timer *: the word
#               is timer's void * arg, any function: address-taken stays
#
# A build with -finstrument-functions is traced: every pair a run takes
# must be among the site's targets (tests/e2e/icall_check.py).
. tests/e2e/lib.sh
[ "$(uname -m)" = x86_64 ] || skip "the instruction pass is x86-64's"
command -v gcc >/dev/null || skip "no gcc"

b=$OUT/build
mkdir -p "$b"
cat >"$b/lst.c" <<'C'
struct list_head { struct list_head *next, *prev; };
struct kiocb { long pos; };
struct req { struct kiocb rw; long flags[8]; void (*cancel)(struct kiocb *k); long more[4]; struct list_head list; };
struct ctx { long lock; struct list_head active; };
/* another holder of a list node, with a void * where struct req has
 * cancel: the node's container is not known from the node alone */
struct timer { long a[3]; void *arg; long b[4]; struct list_head list; };
#define NOIPA __attribute__((noipa))
#define container_of(p, T, m) ((T *)((char *)(p) - __builtin_offsetof(T, m)))
#define list_first_entry(h, T, m) container_of((h)->next, T, m)
long total;
NOIPA void cancel_a(struct kiocb *k) { total += k->pos; }
NOIPA void cancel_b(struct kiocb *k) { total -= k->pos; }
NOIPA void other(struct kiocb *k) { total ^= k->pos; }
NOIPA void lock(long *l) { total += *l; }
NOIPA void del(struct list_head *e) { e->next->prev = e->prev; e->prev->next = e->next; e->next = e->prev = e; }
NOIPA void cancel_all(struct ctx *c)
{
	struct req *r;

	lock(&c->lock);
	while (*(struct list_head *volatile *)&c->active.next != &c->active) {
		r = list_first_entry(&c->active, struct req, list);
		r->cancel(&r->rw);
		del(&r->list);
	}
}
/* the same shape through struct timer's void * arg: any function */
NOIPA void fire_all(struct ctx *c)
{
	struct timer *t;

	lock(&c->lock);
	while (*(struct list_head *volatile *)&c->active.next != &c->active) {
		t = list_first_entry(&c->active, struct timer, list);
		((void (*)(struct kiocb *))t->arg)((struct kiocb *)t);
		del(&t->list);
	}
}
static struct req ra = { .rw = { 1 }, .cancel = cancel_a }, rb = { .rw = { 2 }, .cancel = cancel_b };
static struct ctx cx;
struct timer tm = { .arg = other };
static struct ctx cy;
void (*volatile hook)(struct kiocb *) = other;
static void add(struct list_head *e, struct list_head *h) { e->next = h->next; e->prev = h; h->next->prev = e; h->next = e; }
int main(int argc, char **argv)
{
	(void)argv;
	cx.active.next = cx.active.prev = &cx.active;
	add(&ra.list, &cx.active);
	if (argc > 1)
		add(&rb.list, &cx.active);
	cancel_all(&cx);
	cy.active.next = cy.active.prev = &cy.active;
	add(&tm.list, &cy.active);
	fire_all(&cy);
	hook(&ra.rw);
	return (int)(total & 1);
}
C
icall_build lst || { finish; exit; }
# what this test is about: r is located at rbx - 112 before the call and
# in rdi at it, and the call loads through rbx
objdump --dwarf=loc "$b/lst" 2>/dev/null | grep -q "DW_OP_breg3 (rbx): -112; DW_OP_stack_value" ||
	skip "gcc located r otherwise"
objdump -d --no-show-raw-insn "$b/lst" | awk '/<cancel_all>:/,/ret/' | grep -q "call *\*-0x28(%rbx)" ||
	skip "gcc loaded r->cancel otherwise"

run_sp --json --indirect=types --no-libs "$b/lst"
expect_rc 0 "--indirect=types"
j=$OUT/lst.json
cp "$OUT/stdout" "$j"
expect_eq "cancel_all" "$(icall_sites "$j" cancel_all)" '[["field", "struct req.cancel", ["cancel_a", "cancel_b"]]]'
expect_eq "fire_all" "$(icall_sites "$j" fire_all)" '[["address-taken", null, []]]'
icall_traced 3
finish
