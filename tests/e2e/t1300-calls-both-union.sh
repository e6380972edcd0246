#!/bin/sh
# --calls=both merges DWARF's call sites with the code's calls: in the
# --json "calls" lists no (caller, callee, tail) edge repeats, and the
# edges are exactly the union of --calls=dwarf and --calls=disasm
# (tests/e2e/calls_union.py).  mixed/ makes the two sources differ: hello
# (-O2 -fno-plt) calls puts through the GOT, which only DWARF names, and
# unopt (-O0, no call-site DIEs) calls leaf, which only the code shows.
. tests/e2e/lib.sh

union()	# NAME ELF [SU-DIR] [--need-both-sides]
{
	name=$1 elf=$2 dir=${3:-} need=${4:-}
	for calls in both dwarf disasm; do
		run_sp --json --calls=$calls "$elf" $dir
		expect_rc 0 "$name --calls=$calls"
		cp "$OUT/stdout" "$OUT/$name.$calls.json"
	done
	if ! python3 tests/e2e/calls_union.py "$OUT/$name.both.json" "$OUT/$name.dwarf.json" \
		"$OUT/$name.disasm.json" $need >"$OUT/$name.union" 2>&1; then
		fail "$name: --calls=both is not the union of dwarf and disasm"
		sed 's/^/    /' "$OUT/$name.union"
	fi
}

b=$OUT/mixed
mkdir -p "$b"
cat >"$b/opt.c" <<'C'
#include <stdio.h>
void unopt(int n);
__attribute__((noinline)) void hello(const char *s)
{
	puts(s);
	unopt(1);
}
int main(void)
{
	hello("x");
	return 0;
}
C
cat >"$b/unopt.c" <<'C'
void leaf(int *p);
void unopt(int n);
void leaf(int *p) { *p += 1; }
void unopt(int n) { int x = n; leaf(&x); }
C
(cd "$b" && gcc -O2 -fno-plt -g -fstack-usage -c opt.c &&
	gcc -O0 -g -fstack-usage -c unopt.c && gcc -o mixed opt.o unopt.o) ||
	fail "cannot build mixed"
union mixed "$b/mixed" "$b" --need-both-sides
expect_eq "hello calls puts: from DWARF only" \
	"$(jget "$OUT/mixed.disasm.json" '[c["name"] for c in fn("hello")["calls"]]')" '["unopt"]'
expect_eq "unopt calls leaf: from the code only" \
	"$(jget "$OUT/mixed.dwarf.json" 'fn("unopt")["calls"]')" '[]'

for s in chain tailcall clones recursion indirect statics firmware lto clang; do
	need_sample $s
	union $s samples/$s/$s
done

# the checker fails when an edge is missing: dwarf alone is no union here
python3 tests/e2e/calls_union.py "$OUT/mixed.dwarf.json" "$OUT/mixed.dwarf.json" \
	"$OUT/mixed.disasm.json" >/dev/null 2>&1 && fail "calls_union.py accepts a missing edge"
finish
