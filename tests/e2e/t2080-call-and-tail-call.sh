#!/bin/sh
# A function that calls a callee on one branch and jumps to it (a tail
# call) on the other: at the call the callee's frame sits on top of the
# caller's, so the worst case is the normal call's, and ci_oracle.py
# --objdump must not take the jmp for the only edge.  By hand from .su:
#	total(both) = self(both) + total(big)   (not max(self(both), big))
. tests/e2e/lib.sh

b=$OUT/build
mkdir -p "$b"
cat >"$b/cj.c" <<'C'
__attribute__((noinline)) long big(long x)
{
	volatile char buf[200];

	buf[x & 63] = (char)x;
	return buf[(x + 1) & 63] + x;
}

/* calls big on one branch and jumps to it (a tail call) on the other */
__attribute__((noinline)) long both(long x)
{
	volatile char pad[40];

	pad[x & 7] = 1;
	if (x > 5)
		return big(x) * 3 + pad[1];
	return big(x + pad[2]);
}

int main(int argc, char **argv)
{
	(void)argv;
	return (int)both(argc) & 1;
}
C
gcc -O2 -g -fstack-usage -fcallgraph-info=su,da -c "$b/cj.c" -o "$b/cj.o" ||
	fail "cannot compile cj.c"
gcc -o "$b/cj" "$b/cj.o" || fail "cannot link cj"
objdump -d --no-show-raw-insn "$b/cj" |
	awk '$2 == "<both>:" { on = 1; next } /^$/ { on = 0 } on' >"$OUT/both.dis"
grep -Eq 'jmp +[0-9a-f]+ <big>' "$OUT/both.dis" || fail "both makes no tail call to big"
grep -Eq 'call +[0-9a-f]+ <big>' "$OUT/both.dis" || fail "both makes no call to big"

run_sp --json "$b/cj" "$b"
expect_rc 0 "stackprof --json cj"
j=$OUT/stdout
$ORACLE --red-zones "$b/cj" >"$OUT/red" || fail "objdump red zones"
red() { awk -v f="$1" '$1 == f { print $2 }' "$OUT/red"; }
bigt=$(( $(su_self "$b/cj.su" big) + $(red big) ))
expect_eq "total(both)" "$(jget $j 'fn("both")["total"]')" \
	"$(( $(su_self "$b/cj.su" both) + bigt ))"
if ! $ORACLE --objdump "$b/cj" --json "$j" "$b" >"$OUT/oracle" 2>&1; then
	fail "the oracle disagrees"
	head -10 "$OUT/oracle" | sed 's/^/    /'
fi
finish
