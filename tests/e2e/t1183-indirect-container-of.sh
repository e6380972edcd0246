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
# must be among the site's targets (tests/e2e/icall_check.py).
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
finish
