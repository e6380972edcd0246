#!/bin/sh
# --indirect=types types a call through a word of the frame that the
# chain does not follow, by the variable DWARF locates there
# (DW_OP_fbreg): seven's callback is its seventh argument, passed on the
# stack; loose keeps its callback in a stack slot, set before a branch
# and, on one side, to a word of a void * table, so no one store reaches
# the reload and not every path's value is known:
#
#   seven  argument long int(long int): e_a, e_b (what main pushes:
#          e_a, and the word of pick it loads; a stack argument no
#          write of seven reaches, t1241)
#   loose  prototype long int(struct timer*,long int): on_a, on_b, on_c, on_x
#
# (address-taken, every function whose address is taken, without it).
# A build with -finstrument-functions is traced: every pair a run takes
# must be among the site's targets (tests/e2e/icall_check.py).
. tests/e2e/lib.sh
[ "$(uname -m)" = x86_64 ] || skip "the instruction pass is x86-64's"
command -v gcc >/dev/null || skip "no gcc"

b=$OUT/build
mkdir -p "$b"
cat >"$b/frame.c" <<'C'
struct timer { long n; };
typedef long (*cb_t)(struct timer *t, long v);
typedef long (*err_t)(long);
#define NOIPA __attribute__((noipa))
NOIPA long on_a(struct timer *t, long v) { return t->n += v; }
NOIPA long on_b(struct timer *t, long v) { return t->n += 2 * v; }
NOIPA long on_c(struct timer *t, long v) { return t->n -= v; }
NOIPA long on_x(struct timer *t, long v) { return t->n |= v; }
NOIPA long e_a(long v) { return v + 1; }
NOIPA long e_b(long v) { return v + 2; }
NOIPA long mix(long v) { return v * 7 + 1; }
NOIPA void lock(struct timer *t) { t->n++; }
NOIPA long seven(long a, long b, long c, long d, long e, long f, err_t err)
{
	long x = mix(a + b + c + d + e + f);

	if (x > 100)
		return err(x);
	return x;
}
void *volatile slots[2] = { (void *)on_b, (void *)on_c };
NOIPA long loose(struct timer *t, const long *v, int n, int k)
{
	cb_t fn = on_a;
	long s = 0;
	int i;

	if (k >= 0) {
		lock(t);
		fn = (cb_t)slots[k];
	}
	for (i = 0; i < n; i++) {
		long x1 = mix(v[i]), x2 = mix(x1), x3 = mix(x2), x4 = mix(x3);
		s += fn(t, x1 + x2 + x3 + x4 + s + i);
	}
	return s;
}
err_t volatile pick = e_b;
long (*volatile hook)(struct timer *, long) = on_x;
int main(int argc, char **argv)
{
	struct timer t = { 0 };
	long v[3] = { 1, 2, 3 };
	(void)argv;
	loose(&t, v, 3, argc - 2);
	loose(&t, v, 2, argc);
	return (int)((seven(argc, 2, 3, 4, 5, 6, e_a) + seven(argc, 2, 3, 4, 5, 60, pick) +
		      t.n + hook(&t, 1)) & 1);
}
C
icall_build frame || { finish; exit; }
# what this test is about: each call's register is loaded from the
# stack, above the return address in seven, from a slot two stores
# reach in loose
for f in seven loose; do
	objdump -d --no-show-raw-insn "$b/frame" | awk "/<$f>:/, /^\$/" >"$OUT/$f.s"
	r=$(sed -n 's/.*\(call\|jmp\) *\*%\([a-z0-9]*\)$/\2/p' "$OUT/$f.s" | head -1)
	[ -n "$r" ] && grep -q "mov  *0x[0-9a-f]*(%rsp),%" "$OUT/$f.s" ||
		skip "gcc did not load $f's callback from the stack"
done
grep -q "mov  *%rax,0x[0-9a-f]*(%rsp)$" "$OUT/loose.s" &&
	grep -q "movq  *\$0x[0-9a-f]*,0x[0-9a-f]*(%rsp)$" "$OUT/loose.s" ||
	skip "gcc did not store loose's callback twice into the frame"

run_sp --json --indirect=types --no-libs "$b/frame"
expect_rc 0 "--indirect=types"
j=$OUT/frame.json
cp "$OUT/stdout" "$j"
expect_eq "seven" "$(icall_sites "$j" seven)" \
	'[["argument", "long int(long int)", ["e_a", "e_b"]]]'
expect_eq "loose" "$(icall_sites "$j" loose)" \
	'[["prototype", "long int(struct timer*,long int)", ["on_a", "on_b", "on_c", "on_x"]]]'
icall_traced 5
finish
