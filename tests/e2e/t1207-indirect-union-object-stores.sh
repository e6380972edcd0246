#!/bin/sh
# --indirect=types: a store into a place where a union puts a function
# pointer over a data pointer writes the data member when its value is
# no function.  struct page's way (the kernel's list_del() and list_add()
# on page->lru, whose prev is page->rcu_head.func): a list's links over
# a deferred call's.  Two such values: a pointer DWARF types as a
# pointer to a struct (item_link's), and list_del()'s LIST_POISON2, a
# constant GCC makes by adding 0x22 to LIST_POISON1 (slot_unlink's).
# Neither makes the function member escape: a call through it reaches
# the functions stored there, not every function of its prototype.  A
# void pointer stored into a member (job_set's) may hold a function:
# that member stays wide (main passes one a call returns: no caller's
# load says what it holds, as a global word's would, t1215).
. tests/e2e/lib.sh
[ "$(uname -m)" = x86_64 ] || skip "the instruction pass is x86-64's"
command -v gcc >/dev/null || skip "no gcc"

cat >"$OUT/u.c" <<'C'
#include <stdlib.h>
struct node { struct node *next, *prev; };
struct cb { struct cb *next; void (*func)(struct cb *); };
struct item { long flags; union { struct node lru; struct cb rcu; }; };
struct cb2 { struct cb2 *next; void (*func)(struct cb2 *); };
struct slot { long flags; union { struct node lru; struct cb2 rcu; }; };
#define POISON1 ((struct node *)0xdead000000000100)
#define POISON2 ((struct node *)0xdead000000000122)
long seen;
void item_free(struct cb *c) { seen += (long)c; }
void item_keep(struct cb *c) { seen -= (long)c; }
void other_cb(struct cb *c) { seen ^= (long)c; }
void (*volatile hook)(struct cb *) = other_cb;
void slot_free(struct cb2 *c) { seen += 2 * (long)c; }
void other_cb2(struct cb2 *c) { seen ^= 2 * (long)c; }
void (*volatile hook2)(struct cb2 *) = other_cb2;
__attribute__((noinline)) void item_link(struct item *it, struct node *head)
{
	it->lru.next = head->next;
	it->lru.prev = head;
	head->next->prev = &it->lru;
	head->next = &it->lru;
}
__attribute__((noinline)) void item_defer(struct item *it, int keep)
{
	it->rcu.func = keep ? item_keep : item_free;
}
__attribute__((noinline)) void cb_run(struct cb *c) { c->func(c); }
__attribute__((noinline)) void slot_unlink(struct slot *s)
{
	s->lru.next->prev = s->lru.prev;
	s->lru.prev->next = s->lru.next;
	s->lru.next = POISON1;
	s->lru.prev = POISON2;
}
__attribute__((noinline)) void node_init(struct node *n, struct node *h) { n->next = n->prev = h; }
__attribute__((noinline)) void slot_defer(struct slot *s) { s->rcu.func = slot_free; }
__attribute__((noinline)) void cb2_run(struct cb2 *c) { c->func(c); }
struct job { long n; void (*run)(struct job *); };
void job_a(struct job *j) { j->n++; }
void job_b(struct job *j) { j->n--; }
void (*volatile job_hook)(struct job *) = job_b;
void *volatile job_any = (void *)job_a;
__attribute__((noinline)) void job_set(struct job *j, void *fn) { j->run = (void (*)(struct job *))fn; }
__attribute__((noinline)) void job_call(struct job *j) { j->run(j); }
__attribute__((noinline)) void *job_pick(void) { return job_any; }
int main(int argc, char **argv)
{
	struct node *head = malloc(sizeof(*head));
	struct item *it = malloc(sizeof(*it));
	struct slot *s = malloc(sizeof(*s));
	struct job j = { 0, 0 };

	(void)argv;
	head->next = head->prev = head;
	item_link(it, head);
	item_defer(it, argc > 2);
	cb_run(&it->rcu);
	hook(&it->rcu);
	node_init(&s->lru, head);
	slot_unlink(s);
	slot_defer(s);
	cb2_run(&s->rcu);
	hook2(&s->rcu);
	job_set(&j, job_pick());
	job_call(&j);
	job_hook(&j);
	return (int)seen + (int)j.n;
}
C
# -mgeneral-regs-only: as the kernel, no 16-byte store of the two poisons
gcc -O2 -g -fno-pie -no-pie -mgeneral-regs-only -o "$OUT/u" "$OUT/u.c" || fail "gcc"
objdump -d --no-show-raw-insn "$OUT/u" >"$OUT/u.dis"
awk '/<slot_unlink>:/,/ret/' "$OUT/u.dis" | grep -Eq 'add +\$0x22,' ||
	skip_part "gcc made LIST_POISON2 by no add \$0x22"

run_sp --json --no-libs --indirect=types "$OUT/u"
expect_rc 0 "--indirect=types"
cp "$OUT/stdout" "$OUT/u.json"
site()
{
	jget "$OUT/u.json" "[(s['resolved_by'], s.get('type'), sorted(s['targets'])) for s in j['indirect_calls'] if s['function'] == '$1']"
}
expect_eq "c->func after pointers to structs stored over it: what item_defer stores" \
	"$(site cb_run)" '[["field", "struct cb.func", ["item_free", "item_keep"]]]'
expect_eq "c->func after LIST_POISON2 (0xdead000000000100 + 0x22) stored over it" \
	"$(site cb2_run)" '[["field", "struct cb2.func", ["slot_free"]]]'
expect_eq "j->run after a void pointer stored there: every function of its prototype's class" \
	"$(site job_call)" \
	'[["prototype", "void(struct job*)", ["item_free", "item_keep", "job_a", "job_b", "other_cb", "other_cb2", "slot_free"]]]'
finish
