#!/bin/sh
# --indirect=types: a call whose register several paths' writes reach
# (insn_icall.way) where one path writes a NULL (xor %r13d,%r13d) takes
# the union of the other paths' targets: no call goes through the NULL
# (the kernel's klist_next(): put = i->i_klist->put, NULL when the node
# is still referenced, then if (put && last) put(last)).
#
#   next    put(last): field struct klist.put, p1 and p2 (what
#           klist_init() is passed)
#   next2   the same, but the other path loads put from a void * the
#           call casts: that path says nothing, and the call keeps its
#           prototype
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
struct node { long refs; struct node *next; };
struct klist { long lock; struct node *head; void (*get)(struct node *); void (*put)(struct node *);
	       void *priv; };
struct iter { struct klist *k; struct node *cur; };
long total;
NOIPA void lock(struct klist *k) { k->lock++; }
NOIPA void unlock(struct klist *k) { k->lock--; }
NOIPA int dec(struct node *n) { return --n->refs == 0; }
NOIPA void klist_init(struct klist *k, void (*get)(struct node *), void (*put)(struct node *))
{
	k->get = get;
	k->put = put;
}
NOIPA void g1(struct node *n) { total += n->refs; }
NOIPA void p1(struct node *n) { total -= n->refs; }
NOIPA void p2(struct node *n) { total ^= n->refs; }
NOIPA void other(struct node *n) { total |= n->refs; }
#define NEXT(name, init)						\
NOIPA struct node *name(struct iter *i)					\
{									\
	void (*put)(struct node *) = init;				\
	struct node *last = i->cur, *n;					\
									\
	lock(i->k);							\
	if (last) {							\
		n = last->next;						\
		if (!dec(last))						\
			put = 0;					\
	} else {							\
		n = i->k->head;						\
	}								\
	i->cur = 0;							\
	while (n) {							\
		if (n->refs > 0) {					\
			n->refs++;					\
			i->cur = n;					\
			break;						\
		}							\
		n = n->next;						\
	}								\
	unlock(i->k);							\
	if (put && last)						\
		put(last);						\
	return i->cur;							\
}
NEXT(next, i->k->put)
NEXT(next2, (void (*)(struct node *))i->k->priv)
struct klist ka, kb = { .priv = (void *)other };
void (*volatile hook)(struct node *) = other;
int main(int argc, char **argv)
{
	struct node b = { 3, 0 }, a = { 1, &b }, c = { 1, &b };
	struct iter it = { argc > 5 ? &kb : &ka, &a }, it2 = { &kb, &c };

	(void)argv;
	klist_init(&ka, g1, p1);
	klist_init(&kb, g1, p2);
	next(&it);
	next(&it);
	next2(&it2);
	hook(&a);
	return (int)(total & 1);
}
C
icall_build cu || { finish; exit; }
# what this test is about: the call's register, NULL on one path
for f in next next2; do
	objdump -d --no-show-raw-insn "$b/cu" | awk "/<$f>:/,/^\$/" >"$OUT/$f.s"
	r=$(sed -n 's/.*call *\*%r\([0-9a-z]*\)$/\1/p' "$OUT/$f.s" | head -1)
	[ -n "$r" ] && grep -q "xor *%r${r}d,%r${r}d" "$OUT/$f.s" ||
		skip "gcc did not write $f's NULL on a path of its own"
done

run_sp --json --indirect=types --no-libs "$b/cu"
expect_rc 0 "--indirect=types"
j=$OUT/cu.json
cp "$OUT/stdout" "$j"
expect_eq "next" "$(icall_sites "$j" next)" '[["field", "struct klist.put", ["p1", "p2"]]]'
expect_eq "next2" "$(jget "$j" "[s['resolved_by'] for s in j['indirect_calls'] if s['function'] == 'next2']")" \
	'["prototype"]'
icall_traced 3
finish
