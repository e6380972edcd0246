#!/bin/sh
# --indirect=types types a register by a variable DWARF locates at the
# register plus an offset: run_entry gets a struct work * and calls
# through the struct entry that holds it (container_of), which GCC never
# puts in a register of its own: e's location is DW_OP_breg5 RDI-16 (and
# RBX-16), and the call is call *-0x8(%rbx).  So
#
#   run_entry  field struct entry.func: on_a, on_b (every
#              address-taken function without it: w's type has no
#              member at -8)
#
# A build with -finstrument-functions is traced: every pair a run takes
# must be among the site's targets (tests/e2e/icall_check.py).  And a
# container in a register of its own (below).
. tests/e2e/lib.sh
[ "$(uname -m)" = x86_64 ] || skip "the instruction pass is x86-64's"
command -v gcc >/dev/null || skip "no gcc"

b=$OUT/build
mkdir -p "$b"
cat >"$b/cont.c" <<'C'
struct work { long pending; };
struct entry { long cookie; void (*func)(long c); struct work work; };
#define NOIPA __attribute__((noipa))
#define container_of(p, T, m) ((T *)((char *)(p) - __builtin_offsetof(T, m)))
long total;
NOIPA void on_a(long c) { total += c; }
NOIPA void on_b(long c) { total -= c; }
NOIPA void on_c(long c) { total ^= c; }
NOIPA void run_entry(struct work *w)
{
	struct entry *e = container_of(w, struct entry, work);

	e->func(e->cookie);
	w->pending = 0;
}
static struct entry ea = { 1, on_a, { 1 } }, eb = { 2, on_b, { 1 } };
void (*volatile hook)(long) = on_c;
int main(int argc, char **argv)
{
	(void)argv;
	run_entry(argc > 1 ? &ea.work : &eb.work);
	run_entry(&ea.work);
	hook(3);
	return (int)(total & 1);
}
C
icall_build cont || { finish; exit; }
# what this test is about: e is located at a register minus 16
objdump --dwarf=loc "$b/cont" 2>/dev/null | grep -q "DW_OP_breg[0-9]* (r[a-z0-9]*): -16; DW_OP_stack_value" ||
	skip "gcc located no container at a register minus 16"

run_sp --json --indirect=types --no-libs "$b/cont"
expect_rc 0 "--indirect=types"
j=$OUT/cont.json
cp "$OUT/stdout" "$j"
expect_eq "run_entry" "$(icall_sites "$j" run_entry)" '[["field", "struct entry.func", ["on_a", "on_b"]]]'
icall_traced 3

# The container in a register of its own while the code loads through
# the entry: try_issue_list walks a list of requests (queuelist at 0x48);
# GCC keeps rq = list_entry(...) in r14 = lea -0x48(%rbx) and loads
# rq->end_io as 0xc0(%rbx), rbx the list node, a struct list_head *
# written on several paths (the loop) that types no member at 0xc0.
# DWARF locates rq in r14, which the one lea reaching the load wrote
# from rbx with no write of rbx since (blk_mq_try_issue_list_directly's
# rq->end_io, block/blk-mq.c:1042):
#
#   try_issue_list  field struct request.end_io: end_a (ra), end_b (rb)
cat >"$b/sib.c" <<'C'
#include <stddef.h>
struct list_head { struct list_head *next, *prev; };
struct request;
typedef int (rq_end_io_fn)(struct request *rq, int error);
struct request {
	long pad[9];
	struct list_head queuelist;
	long state, tag, more[20];
	rq_end_io_fn *end_io;
	void *end_io_data;
};
#define NOIPA __attribute__((noipa))
#define list_entry(p, t, m) ((t *)((char *)(p) - offsetof(t, m)))
NOIPA int end_a(struct request *rq, int error) { return (int)rq->tag + error; }
NOIPA int end_b(struct request *rq, int error) { return (int)rq->tag - error; }
NOIPA int other(struct request *rq, int error) { return (int)rq->state * error; }
NOIPA int issue(struct request *rq) { return rq->tag & 1 ? -1 : 0; }
NOIPA void account(struct request *rq) { rq->state++; }
NOIPA int try_issue_list(struct list_head *list)
{
	int n = 0;
	while (list->next != list) {
		struct request *rq = list_entry(list->next, struct request, queuelist);
		int ret;

		list->next = rq->queuelist.next;
		ret = issue(rq);
		if (ret < 0) {
			account(rq);
			rq->state &= ~4L;
			if (rq->end_io)
				n += rq->end_io(rq, ret);
		}
		n++;
	}
	return n;
}
struct request ra = { .tag = 1, .end_io = end_a }, rb = { .tag = 3, .end_io = end_b };
int (*volatile hook)(struct request *, int) = other;
int main(void)
{
	struct list_head head = { &ra.queuelist, &rb.queuelist };
	ra.queuelist.next = &rb.queuelist;
	rb.queuelist.next = &head;
	return (try_issue_list(&head) + hook(&ra, 1)) & 1;
}
C
icall_build sib || { finish; exit; }
objdump -d --no-show-raw-insn "$b/sib" | awk '/<try_issue_list>:/, /^$/' >"$OUT/sib.s"
grep -q "lea  *-0x48(%r[a-z0-9]*),%r" "$OUT/sib.s" &&
	grep -q "mov  *0xc0(%r[a-z0-9]*),%r" "$OUT/sib.s" ||
	skip_part "gcc loaded end_io through rq itself"
run_sp --json --indirect=types --no-libs "$b/sib"
expect_rc 0 "--indirect=types, sib"
cp "$OUT/stdout" "$OUT/sib.json"
expect_eq "try_issue_list" "$(icall_sites "$OUT/sib.json" try_issue_list)" \
	'[["field", "struct request.end_io", ["end_a", "end_b"]]]'
icall_traced 3

# Debian's kernel: dqcache_shrink_scan's dquot->dq_sb->dq_op->
# destroy_dquot(dquot) (fs/quota/dquot.c:564, do_destroy_dquot inlined;
# dquot = list_first_entry(&free_dquots, ...), kept in a register of its
# own while the loads go through the node) is struct
# dquot_operations.destroy_dquot: the .destroy_dquot initialisers of the
# 6.1 source that are functions of the image (dquot_destroy).
debian_kernel_part
src=${STACKPROF_LINUX_SRC:-/tmp/stackprof-kernel/linux-dwarf4}
[ -d "$src/fs/quota" ] || { skip_part "no Linux 6.1 source at $src"; finish; exit; }
command -v nm >/dev/null || { fail "no nm"; finish; exit; }
debian_typed_report "$OUT/vmlinux.json"
nm "$vmlinux" | awk '$2 ~ /^[tT]$/ { print $3 }' | sort -u >"$OUT/text"
grep -rhoE '^\s*\.destroy_dquot\s*=\s*[a-z_0-9]+' --include=*.c "$src" | sed 's/.*= *//' |
	sort -u | comm -12 - "$OUT/text" | tr '\n' ' ' >"$OUT/want"
expect_eq "dqcache_shrink_scan's dq_op->destroy_dquot" \
	"$(jget "$OUT/vmlinux.json" "[(s['resolved_by'], s['type'], ' '.join(sorted(s['targets'])) + ' ') for s in j['indirect_calls'] if s['function'] == 'dqcache_shrink_scan' and s['line'] == 564]")" \
	"[[\"field\", \"struct dquot_operations.destroy_dquot\", \"$(cat "$OUT/want")\"]]"
rm -f "$OUT/vmlinux.json"
finish
