#!/bin/sh
# --indirect=types types an argument by a container DWARF says is the
# argument's entry value minus an offset: run_entry gets a struct work *
# and GCC keeps container_of(w, struct entry, work) in rbp, but loads
# e->ops through rbx, its copy of w (mov -0x48(%rbx),%rax: a negative
# offset into struct work, which has no member there).  e's location
# names rbp while the call is made, and DW_OP_entry_value(RDI) - 80,
# DW_OP_stack_value once rbp is restored.  So
#
#   run_entry  field struct ops.run: on_a, on_b (every address-taken
#              function without it)
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
struct ops { void (*run)(long c); };
struct entry { long cookie; const struct ops *ops; char pad[64]; struct work work; };
#define NOIPA __attribute__((noipa))
#define container_of(p, T, m) ((T *)((char *)(p) - __builtin_offsetof(T, m)))
long total;
NOIPA void on_a(long c) { total += c; }
NOIPA void on_b(long c) { total -= c; }
NOIPA void on_c(long c) { total ^= c; }
NOIPA void lock(struct entry *e) { total += e->cookie; }
NOIPA void unlock(struct entry *e) { total -= e->cookie; }
NOIPA int run_entry(struct work *w)
{
	struct entry *e = container_of(w, struct entry, work);

	lock(e);
	w->pending++;
	e->ops->run(w->pending);
	unlock(e);
	return 0;
}
static const struct ops oa = { on_a }, ob = { on_b };
static struct entry ea = { 1, &oa, "", { 1 } }, eb = { 2, &ob, "", { 1 } };
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
# what this test is about: e is the entry's rdi minus 80, and the load
# goes through another register at an offset below struct work
objdump --dwarf=loc "$b/cont" 2>/dev/null |
	grep -q "DW_OP_entry_value: (DW_OP_reg5 (rdi)); DW_OP_const1u: 80; DW_OP_minus; DW_OP_stack_value" ||
	skip "gcc located no container at the entry's rdi minus 80"
objdump -d --no-show-raw-insn "$b/cont" | awk '/<run_entry>:/,/ret/' | grep -q -- "-0x48(%r" ||
	skip "gcc loaded e->ops otherwise"

run_sp --json --indirect=types --no-libs "$b/cont"
expect_rc 0 "--indirect=types"
j=$OUT/cont.json
cp "$OUT/stdout" "$j"
expect_eq "run_entry" "$(icall_sites "$j" run_entry)" '[["field", "struct ops.run", ["on_a", "on_b"]]]'
icall_traced 3
finish
