#!/bin/sh
# --indirect=types types a load through a void * member by the variable
# DWARF keeps at that place where the function begins, as it types an
# argument's register by its location at the first instruction:
# read_iter's `struct seq *m = iocb->filp->private_data` is located only
# over its first instruction (DW_OP_breg5 0; DW_OP_deref;
# DW_OP_plus_uconst 8: the kernel's seq_read_iter), and GCC keeps it in
# a register it no longer names.  The chain's loads at those offsets
# from rdi, unwritten since the entry, read m: m->op->show is struct
# seq_ops's member.  read_other calls through the same place of another
# argument (rsi), cast in the call: m's location names rdi, so it stays
# address-taken (it calls run_c, which no struct seq_ops holds).
#
#   read_iter   field struct seq_ops.show: show_a, show_b
#   read_other  address-taken
#
# A build with -finstrument-functions is traced: every pair a run takes
# must be among the site's targets (tests/e2e/icall_check.py).
. tests/e2e/lib.sh
[ "$(uname -m)" = x86_64 ] || skip "the instruction pass is x86-64's"
command -v gcc >/dev/null || skip "no gcc"

b=$OUT/build
mkdir -p "$b"
cat >"$b/entry.c" <<'C'
struct seq_ops { long id; int (*show)(long); };
struct seq { long pos; const struct seq_ops *op; long count; };
struct other_ops { long id; int (*run)(long); };
struct other { long pos; const struct other_ops *op; long count; };
struct file { long flags; void *private_data; };
struct kiocb { struct file *filp; long pos; };
struct iter { long count; };
#define NOIPA __attribute__((noipa))
long total;
NOIPA int show_a(long c) { total += c; return 0; }
NOIPA int show_b(long c) { total -= c; return 1; }
NOIPA int run_c(long c) { total ^= c; return 2; }
NOIPA void lock(long *p) { total += *p; }
NOIPA void unlock(long *p) { total -= *p; }
NOIPA long copy(struct iter *it, long n) { total += n; return it->count; }
/* m is located only where the function begins: *(*(rdi) + 8) */
NOIPA long read_iter(struct kiocb *iocb, struct iter *iter)
{
	struct seq *m = iocb->filp->private_data;
	long copied = 0;

	if (!iter->count)
		return 0;
	lock(&m->count);
	if (iocb->pos != m->pos)
		copied = copy(iter, m->count);
	m->op->show(copied);
	unlock(&m->count);
	return copied;
}
/* the same place of another argument holds another type */
NOIPA long read_other(struct kiocb *iocb, struct kiocb *to, struct iter *iter)
{
	struct seq *m = iocb->filp->private_data;
	long copied = 0;

	if (!iter->count)
		return 0;
	lock(&m->count);
	copied = copy(iter, m->count);
	((struct other *)to->filp->private_data)->op->run(copied);
	unlock(&m->count);
	return copied;
}
static const struct seq_ops sa = { 1, show_a }, sb = { 2, show_b };
static const struct other_ops oc = { 3, run_c };
static struct seq ma = { 0, &sa, 1 }, mb = { 1, &sb, 2 };
static struct other mo = { 0, &oc, 3 };
static struct file fa = { 0, &ma }, fb = { 0, &mb }, fo = { 0, &mo };
int main(int argc, char **argv)
{
	struct kiocb ka = { argc > 1 ? &fa : &fb, 0 }, ko = { &fo, 0 };
	struct iter it = { 1 };

	(void)argv;
	read_iter(&ka, &it);
	ka.filp = &fa;
	read_iter(&ka, &it);
	read_other(&ka, &ko, &it);
	return (int)(total & 1);
}
C
icall_build entry || { finish; exit; }
# what this test is about: m located only where each function begins
n=$(objdump --dwarf=loc "$b/entry" 2>/dev/null |
	grep -c "(DW_OP_breg5 (rdi): 0; DW_OP_deref; DW_OP_plus_uconst: 8)$")
[ "$n" = 2 ] || skip "gcc located m otherwise"

run_sp --json --indirect=types --no-libs "$b/entry"
expect_rc 0 "--indirect=types"
j=$OUT/entry.json
cp "$OUT/stdout" "$j"
expect_eq "read_iter" "$(icall_sites "$j" read_iter)" '[["field", "struct seq_ops.show", ["show_a", "show_b"]]]'
expect_eq "read_other" "$(icall_sites "$j" read_other)" '[["address-taken", null, []]]'
icall_traced 3
finish
