#!/bin/sh
# GCC calls a frame "dynamic,bounded" when it pushes a call's stack
# arguments (at -Os, and in every kernel built for size: all such frames
# of tinyconfig); that is no alloca(), and the report says so, naming the
# call.  A real alloca() and a VLA in the same unit keep their own names.
# The qualifiers are the .su's; the callee is the one the source names.
. tests/e2e/lib.sh

b=$OUT/build
mkdir -p "$b"
cat >"$b/pushed.c" <<'C'
#include <alloca.h>
#include <string.h>

__attribute__((noinline)) long sink(long a, long b, long c, long d, long e,
				    long f, long g, long h)
{
	return a + b + c + d + e + f + g * h;
}

__attribute__((noinline)) long eight(long x)
{
	return sink(x, 1, 2, 3, 4, 5, x, 7) + 1;
}

__attribute__((noinline)) long dup_len(const char *s)
{
	char *copy = alloca(strlen(s) + 1);

	strcpy(copy, s);
	return (long)strlen(copy);
}

__attribute__((noinline)) long vla_sum(int n)
{
	long row[n];
	long t = 0;

	for (int i = 0; i < n; i++)
		row[i] = i;
	for (int i = 0; i < n; i++)
		t += row[i];
	return t;
}

int main(int argc, char **argv)
{
	return (int)(eight(argc) + dup_len(argv[0]) + vla_sum(argc)) & 1;
}
C
gcc -Os -g -fstack-usage -c "$b/pushed.c" -o "$b/pushed.o" || fail "cannot compile pushed.c"
gcc -o "$b/pushed" "$b/pushed.o" || fail "cannot link pushed"
su=$b/pushed.su
qual() { awk -F'\t' -v n="$1" '{ f = $1; sub(/^.*:/, "", f); if (f == n) print $3 }' "$su"; }
expect_eq "eight's .su qualifier" "$(qual eight)" "dynamic,bounded"
expect_eq "dup_len's .su qualifier" "$(qual dup_len)" "dynamic"
expect_eq "vla_sum's .su qualifier" "$(qual vla_sum)" "dynamic"
objdump -d --no-show-raw-insn "$b/pushed" |
	awk '$2 == "<eight>:" { on = 1; next } /^$/ { on = 0 } on' >"$OUT/eight.dis"
grep -q 'push' "$OUT/eight.dis" || fail "eight pushes no stack argument"

for calls in both dwarf; do
	run_sp --json --calls=$calls "$b/pushed" "$b"
	expect_rc 0 "stackprof --calls=$calls"
	j=$OUT/stdout
	expect_eq "$calls: eight's qualifier" "$(jget $j 'fn("eight")["qualifier"]')" \
		'"dynamic,bounded"'
	expect_eq "$calls: eight's cause" "$(jget $j 'fn("eight")["dynamic_cause"]')" \
		'"stack arguments pushed for a call to sink"'
	expect_eq "$calls: dup_len's cause is alloca" \
		"$(jget $j 'fn("dup_len")["dynamic_cause"].startswith("alloca()")')" true
	expect_eq "$calls: vla_sum's cause names the VLA" \
		"$(jget $j 'fn("vla_sum")["dynamic_cause"].startswith("VLA '"'"'row'"'"'")')" true
	expect_eq "$calls: main is unbounded" "$(jget $j 'fn("main")["bounded"]')" false
done
finish
