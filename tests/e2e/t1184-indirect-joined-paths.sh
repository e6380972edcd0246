#!/bin/sh
# --indirect=types: a call whose register several paths each write their
# own way (f = a->run on one, f = b->go on another, then one call; GCC
# makes the same join when cross-jumping merges the calls of several
# blocks) reaches the union of what each path's chain resolves to, when
# every path's does:
#
#   dispatch  field "struct ops_b.go | struct ops_a.run": gb, ra, rb
#             (not the prototype's five: DWARF's f is only a pointer to
#             a function)
#   choose    one path's value is pick()'s return, which says only its
#             prototype: the site keeps the prototype fallback, the five
#             long(long) functions whose address is taken
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
struct ops_b { long (*go)(long); long y; };
#define NOIPA __attribute__((noipa))
NOIPA long ra(long v) { return v + 1; }
NOIPA long rb(long v) { return v + 2; }
NOIPA long gb(long v) { return v * 3; }
NOIPA long other(long v) { return v - 1; }
NOIPA long spare(long v) { return v - 2; }
NOIPA long note(long v) { return v ^ 5; }
long (*volatile hook)(long) = other;
NOIPA long (*pick(long v))(long) { return v > 8 ? spare : hook; }
NOIPA long dispatch(struct ops_a *a, struct ops_b *b, long v)
{
	long (*f)(long);

	if (v & 1) {
		v = note(v);
		f = a->run;
	} else {
		f = b->go;
	}
	return f(v) + note(v);
}
NOIPA long choose(struct ops_a *a, long v)
{
	long (*f)(long);

	if (v & 1) {
		v = note(v);
		f = a->run;
	} else {
		f = pick(v);
	}
	return f(v) + note(v);
}
static struct ops_a oa = { 0, ra };
static struct ops_b ob = { gb, 0 };
struct ops_a *volatile pa = &oa;
int main(int argc, char **argv)
{
	(void)argv;
	pa->run = argc > 2 ? rb : ra;
	return (int)(dispatch(pa, &ob, argc) + dispatch(pa, &ob, 4) + choose(pa, argc) +
		     choose(pa, 2) + choose(pa, 10) + hook(1)) & 1;
}
C
icall_build join || { finish; exit; }
# what this test is about: two different loads reach dispatch's call
objdump -d --no-show-raw-insn "$b/join" | awk '/<dispatch>:/, /^$/' >"$OUT/dispatch.s"
grep -q 'mov  *(%r[a-z0-9]*),%rax$' "$OUT/dispatch.s" &&
	grep -q 'mov  *0x8(%r[a-z0-9]*),%rax$' "$OUT/dispatch.s" &&
	[ "$(grep -c 'call  *\*%rax$' "$OUT/dispatch.s")" = 1 ] ||
	skip "gcc did not join two loads at one call in dispatch"

run_sp --json --indirect=types --no-libs "$b/join"
expect_rc 0 "--indirect=types"
j=$OUT/join.json
cp "$OUT/stdout" "$j"
expect_eq "dispatch" "$(icall_sites "$j" dispatch)" \
	'[["field", "struct ops_b.go | struct ops_a.run", ["gb", "ra", "rb"]]]'
expect_eq "choose" "$(icall_sites "$j" choose)" \
	'[["prototype", "long int(long int)", ["gb", "other", "ra", "rb", "spare"]]]'
icall_traced 6
finish
