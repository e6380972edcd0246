#!/bin/sh
# --indirect=types: a call whose own chain says nothing of what its
# register holds (DWARF's f is a void *, cast at the call) where the
# paths that write it each say at least their prototype: the union of
# what each path may hold, a prototype site, not every address-taken
# function:
#
#   untyped   one path loads a->run (field struct ops_a.run: ra, rb), the
#             other takes pick()'s return (prototype long(long): other,
#             ra, rb, spare, whose addresses are taken); not wide(), whose
#             address is taken but whose prototype is int(int, int)
#
# A build with -finstrument-functions is traced: every pair a run takes
# must be among the site's targets (tests/e2e/icall_check.py).
. tests/e2e/lib.sh
[ "$(uname -m)" = x86_64 ] || skip "the instruction pass is x86-64's"
command -v gcc >/dev/null || skip "no gcc"

b=$OUT/build
mkdir -p "$b"
cat >"$b/join.c" <<'C'
struct ops_a { long x; long (*run)(long); };
#define NOIPA __attribute__((noipa))
NOIPA long ra(long v) { return v + 1; }
NOIPA long rb(long v) { return v + 2; }
NOIPA long other(long v) { return v - 1; }
NOIPA long spare(long v) { return v - 2; }
NOIPA long note(long v) { return v ^ 5; }
NOIPA int wide(int a, int b) { return a + b; }
int (*volatile wide_hook)(int, int) = wide;
long (*volatile hook)(long) = other;
NOIPA long (*pick(long v))(long) { return v > 8 ? spare : hook; }
NOIPA long untyped(struct ops_a *a, long v)
{
	void *f;

	if (v & 1) {
		v = note(v);
		f = (void *)a->run;
	} else {
		f = (void *)pick(v);
	}
	return ((long (*)(long))f)(v) + note(v);
}
static struct ops_a oa = { 0, ra };
struct ops_a *volatile pa = &oa;
int main(int argc, char **argv)
{
	(void)argv;
	pa->run = argc > 2 ? rb : ra;
	return (int)(untyped(pa, argc) + untyped(pa, 2) + untyped(pa, 10) + hook(1) +
		     wide_hook(1, 2)) & 1;
}
C
icall_build join || { finish; exit; }
# what this test is about: a load and a call's return reach one call
objdump -d --no-show-raw-insn "$b/join" | awk '/<untyped>:/, /^$/' >"$OUT/untyped.s"
grep -q 'mov  *0x8(%r[a-z0-9]*),%rax$' "$OUT/untyped.s" &&
	grep -q 'call  *[0-9a-f]* <pick>$' "$OUT/untyped.s" &&
	[ "$(grep -c 'call  *\*%rax$' "$OUT/untyped.s")" = 1 ] ||
	skip "gcc did not join a load and pick()'s return at one call in untyped"

run_sp --json --indirect=types --no-libs "$b/join"
expect_rc 0 "--indirect=types"
j=$OUT/join.json
cp "$OUT/stdout" "$j"
expect_eq "untyped" "$(icall_sites "$j" untyped)" \
	'[["prototype", "struct ops_a.run | long int(long int)", ["other", "ra", "rb", "spare"]]]'
# through the prototype's stand-in, not every address-taken function's
expect_eq "untyped's assumed callees" \
	"$(jget "$j" "sorted(c['name'] for f in fns('untyped') for c in f['calls'] if c['via'] == 'assumed')")" \
	'["<prototype long int(long int)>"]'
icall_traced 5
finish
