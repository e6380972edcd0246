#!/bin/sh
# --indirect=types follows a register that several writes reach when
# each is the same load from a base holding the same value: run loads
# t->func before its loop (mov 0x10(%rdi),%rax) and again at the end of
# each pass (mov 0x10(%rbx),%rax, rbx a copy of rdi), and the loads join
# at the call.  The call's value is then task.func of run's argument:
#
#   run   field struct task.func: on_a, on_b (the prototype without it,
#         DWARF's f in rax being only a pointer to a function)
#
# A build with -finstrument-functions is traced: every pair a run takes
# must be among the site's targets (tests/e2e/icall_check.py).
. tests/e2e/lib.sh
[ "$(uname -m)" = x86_64 ] || skip "the instruction pass is x86-64's"
command -v gcc >/dev/null || skip "no gcc"

b=$OUT/build
mkdir -p "$b"
cat >"$b/join.c" <<'C'
struct task { long n; int flag; void (*func)(struct task *t); };
#define NOIPA __attribute__((noipa))
NOIPA void on_a(struct task *t) { t->n++; if (t->n > 3) t->func = 0; }
NOIPA void on_b(struct task *t) { t->n += 2; if (t->n > 3) t->func = 0; }
NOIPA void on_c(struct task *t) { t->n += 3; }
NOIPA void note(struct task *t) { t->n += 100; }
NOIPA void run(struct task *t)
{
	void (*f)(struct task *);

	for (f = t->func; f; f = t->func) {
		f(t);
		if (t->flag)
			note(t);
	}
}
static struct task a = { 0, 0, on_a }, b = { 0, 1, on_b };
void (*volatile hook)(struct task *) = on_c;
int main(int argc, char **argv)
{
	(void)argv;
	run(argc > 1 ? &a : &b);
	run(&a);
	hook(&b);
	return (int)(a.n & 1);
}
C
icall_build join || { finish; exit; }
# what this test is about: two loads of t->func reach run's call
objdump -d --no-show-raw-insn "$b/join" | awk '/<run>:/, /^$/' >"$OUT/run.s"
[ "$(grep -c 'mov  *0x10(%r[a-z0-9]*),%rax$' "$OUT/run.s")" -ge 2 ] &&
	grep -q 'call  *\*%rax$' "$OUT/run.s" ||
	skip "gcc did not load t->func twice into the called register"

run_sp --json --indirect=types --no-libs "$b/join"
expect_rc 0 "--indirect=types"
j=$OUT/join.json
cp "$OUT/stdout" "$j"
expect_eq "run" "$(icall_sites "$j" run)" '[["field", "struct task.func", ["on_a", "on_b"]]]'
icall_traced 3
finish
