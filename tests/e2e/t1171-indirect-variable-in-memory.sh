#!/bin/sh
# --indirect=types types a load through a void * member by the variable
# DWARF keeps at that place: file_show's `struct handler *h =
# of->kn->priv` is in no register, GCC locates it in memory where the
# code loaded it from (DW_OP_breg5 8; DW_OP_deref; DW_OP_plus_uconst 8;
# DW_OP_deref; DW_OP_plus_uconst 8: m->private->kn->priv), so the load
# of h->show reads struct handler's member (the kernel's
# rdtgroup_seqfile_show, `rft = of->kn->priv`).  file_aux's call goes
# through kn->aux, cast in the call: a load at another offset from the
# register h's place is computed from, so it stays address-taken (it
# calls show_c, which no struct handler holds).
#
#   file_show  field struct handler.show: show_a, show_b
#   file_aux   address-taken
#
# A build with -finstrument-functions is traced: every pair a run takes
# must be among the site's targets (tests/e2e/icall_check.py).
. tests/e2e/lib.sh
[ "$(uname -m)" = x86_64 ] || skip "the instruction pass is x86-64's"
command -v gcc >/dev/null || skip "no gcc"

b=$OUT/build
mkdir -p "$b"
cat >"$b/vm.c" <<'C'
struct node { long ino; void *priv; void *aux; };
struct open_file { long flags; struct node *kn; };
struct seq { long pos; void *private; };
struct handler { long id; int (*show)(long); };
struct other { long id; int (*show)(long); };
#define NOIPA __attribute__((noipa))
long total;
NOIPA int show_a(long c) { total += c; return 0; }
NOIPA int show_b(long c) { total -= c; return 1; }
NOIPA int show_c(long c) { total ^= c; return 2; }
NOIPA int show_d(long c) { total |= c; return 3; }
/* h is kept where it was loaded from, of->kn->priv (a void *) */
NOIPA int file_show(struct seq *m)
{
	struct open_file *of = m->private;
	struct handler *h = of->kn->priv;

	if (h->show)
		return h->show(m->pos);
	return 0;
}
/* the same object's other void *, cast in the call: no variable is there */
NOIPA int file_aux(struct seq *m)
{
	struct open_file *of = m->private;
	struct handler *h = of->kn->priv;

	total += h->id;
	return ((struct other *)of->kn->aux)->show(m->pos);
}
static const struct handler ha = { 1, show_a }, hb = { 2, show_b };
static const struct other oc = { 3, show_c };
static struct node na = { 1, (void *)&ha, (void *)&oc }, nb = { 2, (void *)&hb, (void *)&oc };
static struct open_file fa = { 0, &na }, fb = { 0, &nb };
int (*volatile hook)(long) = show_d;
int main(int argc, char **argv)
{
	struct seq s = { 3, argc > 1 ? &fa : &fb };

	(void)argv;
	file_show(&s);
	s.private = &fa;
	file_show(&s);
	file_aux(&s);
	hook(3);
	return (int)(total & 1);
}
C
icall_build vm || { finish; exit; }
# what this test is about: h in memory at rdi's loads, and file_aux's
# aux loaded from the register h's place is at, at another offset
objdump --dwarf=loc "$b/vm" 2>/dev/null |
	grep -q "DW_OP_breg5 (rdi): 8; DW_OP_deref; DW_OP_plus_uconst: 8; DW_OP_deref; DW_OP_plus_uconst: 8)" ||
	skip "gcc located h otherwise"
objdump --dwarf=loc "$b/vm" 2>/dev/null | grep -q "(DW_OP_breg0 (rax): 8)" ||
	skip "gcc located file_aux's h otherwise"

run_sp --json --indirect=types --no-libs "$b/vm"
expect_rc 0 "--indirect=types"
j=$OUT/vm.json
cp "$OUT/stdout" "$j"
expect_eq "file_show" "$(icall_sites "$j" file_show)" '[["field", "struct handler.show", ["show_a", "show_b"]]]'
expect_eq "file_aux" "$(icall_sites "$j" file_aux)" '[["address-taken", null, []]]'
icall_traced 4
finish
