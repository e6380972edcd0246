#!/bin/sh
# --indirect=types follows a value the compiler spilled to the stack and
# reloaded for the call: run and step keep more values alive across the
# calls of mix than there are callee-saved registers, so GCC stores their
# cb and o to a stack slot and loads it back before the call.  The call
# goes through a copy of the parameter stored there:
#
#   run   argument: on_a (main), on_b (main -> relay -> run)
#   step  field struct ops.step: o's type, located at the store
#
# (address-taken, every function whose address is taken, without it).
# A build with -finstrument-functions is traced: every pair a run takes
# must be among the site's targets (tests/e2e/icall_check.py).
. tests/e2e/lib.sh
[ "$(uname -m)" = x86_64 ] || skip "the instruction pass is x86-64's"
command -v gcc >/dev/null || skip "no gcc"

b=$OUT/build
mkdir -p "$b"
cat >"$b/spill.c" <<'C'
struct timer { long n; };
struct ops { long (*step)(struct timer *t, long v); long k; };
typedef long (*cb_t)(struct timer *t, long v);
#define NOIPA __attribute__((noipa))
NOIPA long on_a(struct timer *t, long v) { return t->n += v; }
NOIPA long on_b(struct timer *t, long v) { return t->n += 2 * v; }
NOIPA long on_c(struct timer *t, long v) { return t->n -= v; }
NOIPA long on_s(struct timer *t, long v) { return t->n ^= v; }
NOIPA long on_x(struct timer *t, long v) { return t->n |= v; }
NOIPA long mix(long v) { return v * 7 + 1; }
NOIPA long run(cb_t cb, struct timer *t, long a, long b, long c, long d)
{
	long x1 = mix(a), x2 = mix(b), x3 = mix(c), x4 = mix(d), x5 = mix(x1 + x2);
	long x6 = mix(x3 + x4), x7 = mix(x5 ^ x6);
	return cb(t, x1 + x2 + x3 + x4 + x5 + x6 + x7 + a + b + c + d);
}
NOIPA long step(const struct ops *o, struct timer *t, long a, long b, long c, long d)
{
	long x1 = mix(a), x2 = mix(b), x3 = mix(c), x4 = mix(d), x5 = mix(x1 + x2);
	long x6 = mix(x3 + x4), x7 = mix(x5 ^ x6);
	return o->step(t, x1 + x2 + x3 + x4 + x5 + x6 + x7 + a + b + c + d);
}
NOIPA long relay(cb_t cb, struct timer *t) { return run(cb, t, 1, 2, 3, 4) + 1; }
const struct ops ops_s = { on_s, 1 };
long (*volatile hook)(struct timer *, long) = on_x;
int main(int argc, char **argv)
{
	struct timer t = { 0 };
	(void)argv;
	run(on_a, &t, argc, 2, 3, 4);
	relay(on_b, &t);
	step(&ops_s, &t, argc, 5, 6, 7);
	return (int)((t.n + hook(&t, 1) + on_c(&t, 2)) & 1);
}
C
icall_build spill || { finish; exit; }
# what this test is about: run's call goes through a register loaded
# from the stack
objdump -d --no-show-raw-insn "$b/spill" | awk '/<run>:/, /^$/' >"$OUT/run.s"
r=$(sed -n 's/.*\(call\|jmp\) *\*%\([a-z0-9]*\)$/\2/p' "$OUT/run.s" | head -1)
[ -n "$r" ] && grep -q "mov  *0x[0-9a-f]*(%rsp),%$r\$" "$OUT/run.s" ||
	skip "gcc did not spill run's callback"

run_sp --json --indirect=types --no-libs "$b/spill"
expect_rc 0 "--indirect=types"
j=$OUT/spill.json
cp "$OUT/stdout" "$j"
expect_eq "run" "$(icall_sites "$j" run)" '[["argument", "long int(struct timer*,long int)", ["on_a", "on_b"]]]'
expect_eq "step" "$(icall_sites "$j" step)" '[["field", "struct ops.step", ["on_s"]]]'
icall_traced 4
finish
