#!/bin/sh
# --indirect=types follows a stack slot that different paths store into
# before one reload: walk and apply keep their callback in a stack slot
# across the loop's calls (more values live than callee-saved registers),
# set before a branch and set again on one side of it, so two stores of
# the slot reach the reload before the call:
#
#   walk   table  on_a (the initialiser), on_b (the branch's constant)
#   apply  field  on_a, and struct ops.run: on_r (o->run, loaded, then
#                 spilled: the member is the load that copies follow),
#                 on_b (walk's constant stored where no local is goes to
#                 every member of its prototype)
#
# (address-taken, every function whose address is taken, without it).
# A build with -finstrument-functions is traced: every pair a run takes
# must be among the site's targets (tests/e2e/icall_check.py).
. tests/e2e/lib.sh
[ "$(uname -m)" = x86_64 ] || skip "the instruction pass is x86-64's"
command -v gcc >/dev/null || skip "no gcc"

b=$OUT/build
mkdir -p "$b"
cat >"$b/slots.c" <<'C'
struct timer { long n; };
typedef long (*cb_t)(struct timer *t, long v);
struct ops { long k; cb_t run; };
#define NOIPA __attribute__((noipa))
NOIPA long on_a(struct timer *t, long v) { return t->n += v; }
NOIPA long on_b(struct timer *t, long v) { return t->n += 2 * v; }
NOIPA long on_c(struct timer *t, long v) { return t->n -= v; }
NOIPA long on_r(struct timer *t, long v) { return t->n *= v; }
NOIPA long on_x(struct timer *t, long v) { return t->n |= v; }
NOIPA long mix(long v) { return v * 7 + 1; }
NOIPA void lock(struct timer *t) { t->n++; }
NOIPA long walk(struct timer *t, const long *v, int n, int early)
{
	cb_t fn = on_a;
	long s = 0;
	int i;

	if (!early) {
		lock(t);
		fn = on_b;
	}
	for (i = 0; i < n; i++) {
		long x1 = mix(v[i]), x2 = mix(x1), x3 = mix(x2), x4 = mix(x3);
		s += fn(t, x1 + x2 + x3 + x4 + s + i);
	}
	return s;
}
NOIPA long apply(const struct ops *o, struct timer *t, const long *v, int n)
{
	cb_t fn = on_a;
	long s = 0;
	int i;

	if (o) {
		lock(t);
		fn = o->run;
	}
	for (i = 0; i < n; i++) {
		long x1 = mix(v[i]), x2 = mix(x1), x3 = mix(x2), x4 = mix(x3);
		s += fn(t, x1 + x2 + x3 + x4 + s + i);
	}
	return s;
}
const struct ops ops_r = { 1, on_r };
long (*volatile hook)(struct timer *, long) = on_x;
int main(int argc, char **argv)
{
	struct timer t = { 0 };
	long v[3] = { 1, 2, 3 };
	(void)argv;
	walk(&t, v, 3, argc > 1);
	walk(&t, v, 2, argc > 0);
	apply(argc > 1 ? 0 : &ops_r, &t, v, 2);
	apply(argc > 0 ? 0 : &ops_r, &t, v, 2);
	return (int)((t.n + hook(&t, 1) + on_c(&t, 2)) & 1);
}
C
icall_build slots || { finish; exit; }
# what this test is about: two stores of one slot reach each call's reload
for f in walk apply; do
	objdump -d --no-show-raw-insn "$b/slots" | awk "/<$f>:/, /^\$/" >"$OUT/$f.s"
	r=$(sed -n 's/.*call *\*%\([a-z0-9]*\)$/\1/p' "$OUT/$f.s" | head -1)
	# the slot reloaded last before the call, and the stores into it
	slot=$(sed -n "/call *\*%$r\$/q; s/.*mov  *\(0x[0-9a-f]*\)(%rsp),%$r\$/\1/p" "$OUT/$f.s" |
		tail -1)
	[ -n "$slot" ] && [ "$(grep -c "mov[q]*  *[^ ]*,$slot(%rsp)\$" "$OUT/$f.s")" -ge 2 ] ||
		skip "gcc did not store $f's callback twice into one stack slot"
done

run_sp --json --indirect=types --no-libs "$b/slots"
expect_rc 0 "--indirect=types"
j=$OUT/slots.json
cp "$OUT/stdout" "$j"
expect_eq "walk" "$(icall_sites "$j" walk)" '[["table", "on_a | on_b", ["on_a", "on_b"]]]'
expect_eq "apply" "$(icall_sites "$j" apply)" '[["field", "struct ops.run | on_a", ["on_a", "on_b", "on_r"]]]'
icall_traced 5
finish
