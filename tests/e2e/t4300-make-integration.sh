#!/bin/sh
# make install puts the binary, the man page, stackprof.mk and the CMake
# package under DESTDIR/PREFIX (make uninstall removes them); a project
# Makefile that includes the installed stackprof.mk gets -fstack-usage
# and -g added to its CFLAGS, keeps its default goal, and `make
# stack-check` fails the build exactly when a worst case (from GCC's .ci
# graph, ci_oracle.py) exceeds STACK_BUDGET, with a GCC-style error line.
. tests/e2e/lib.sh

# the outer make's flags and variables must not leak into these builds
clean_make()
{
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u CFLAGS make "$@"
}

dest=$(cd "$OUT" && pwd)/dest
clean_make -s install DESTDIR="$dest" PREFIX=/usr >"$OUT/install.log" 2>&1 ||
	fail "make install: $(tail -3 "$OUT/install.log")"
[ -x "$dest/usr/bin/stackprof" ] || fail "install: no executable usr/bin/stackprof"
cmp -s doc/stackprof.1 "$dest/usr/share/man/man1/stackprof.1" ||
	fail "install: usr/share/man/man1/stackprof.1 differs from doc/stackprof.1"
mk=$dest/usr/share/stackprof/stackprof.mk
cmp -s stackprof.mk "$mk" || fail "install: $mk differs from stackprof.mk"
# the CMake package (t4310 uses it), removed by uninstall below
for f in stackprofConfig.cmake stackprofConfigVersion.cmake stackprof-check.sh; do
	[ -s "$dest/usr/lib/cmake/stackprof/$f" ] || fail "install: no usr/lib/cmake/stackprof/$f"
done

# a tiny project: CFLAGS with neither -fstack-usage nor -g; .ci for the oracle
proj=$OUT/proj
mkdir -p "$proj"
cat >"$proj/prog.c" <<'C'
/* three frames in a chain: main -> middle -> leaf */
static int __attribute__((noinline)) leaf(volatile char *s, int n)
{
	volatile char buf[200];
	int i;

	for (i = 0; i < n && i < 200; i++)
		buf[i] = s[i];
	return buf[n / 2];
}

static int __attribute__((noinline)) middle(volatile char *s, int n)
{
	volatile char pad[600];

	pad[0] = s[0];
	return leaf(s, n) + pad[n % 600];
}

int main(int argc, char **argv)
{
	volatile char big[1000];

	(void)argv;
	big[0] = (char)argc;
	return middle(big, argc) & 1;
}
C
cat >"$proj/Makefile" <<MK
CFLAGS = -O2 -fcallgraph-info=su,da
include $mk
STACK_ELF = prog

prog: prog.o
	\$(CC) \$(CFLAGS) -o \$@ \$^
MK

# the default goal is still the project's first target
clean_make -C "$proj" >"$OUT/build.log" 2>&1 || fail "make: $(tail -3 "$OUT/build.log")"
[ -x "$proj/prog" ] || fail "make: prog not built"
[ -s "$proj/prog.su" ] || fail "make: no prog.su (no -fstack-usage added)"
grep -q -- ' -g\b' "$OUT/build.log" || fail "make: -g not added to CFLAGS"
grep -q 'stackprof' "$OUT/build.log" && fail "make: the default goal ran stackprof"
readelf -S "$proj/prog" | grep -q '\.debug_info' || fail "make: prog has no DWARF"

# CFLAGS that already have -g (any level) get no second one
clean_make -s -C "$proj" -n -B CC=cc CFLAGS='-O1 -g3' prog.o 2>&1 | tr -s ' ' >"$OUT/cflags"
expect_eq "CFLAGS=-O1 -g3 on the command line" "$(cat "$OUT/cflags")" "cc -O1 -g3 -fstack-usage -c -o prog.o prog.c"

$ORACLE --print --objdump "$proj/prog" "$proj" >"$OUT/oracle" || fail "oracle"
worst=$(awk -F'\t' '{ sub(/^total=/, "", $4); print $4 }' "$OUT/oracle" | sort -rn | sed -n 1p)
main=$(awk -F'\t' '$1 == "main" { sub(/^total=/, "", $4); print $4 }' "$OUT/oracle")
expect_eq "main is the worst" "$main" "$worst"
loc=$(awk -F'\t' '$1 ~ /:main$/ { sub(/:main$/, "", $1); print $1 }' "$proj/prog.su")

# a big budget passes ...
clean_make -C "$proj" stack-check STACKPROF="$dest/usr/bin/stackprof" STACK_BUDGET=1M \
	>"$OUT/big.log" 2>&1 || fail "stack-check STACK_BUDGET=1M failed: $(tail -3 "$OUT/big.log")"
grep -q -- "--budget 1M prog" "$OUT/big.log" || fail "stack-check did not run stackprof --budget 1M prog"
# ... the worst exactly passes, one byte less fails make
clean_make -C "$proj" stack-check STACKPROF="$dest/usr/bin/stackprof" STACK_BUDGET="$worst" \
	>"$OUT/eq.log" 2>&1 || fail "stack-check STACK_BUDGET=$worst (= worst) failed"
below=$((worst - 1))
if clean_make -C "$proj" stack-check STACKPROF="$dest/usr/bin/stackprof" STACK_BUDGET=$below \
	>"$OUT/below.log" 2>&1; then
	fail "stack-check STACK_BUDGET=$below (< worst $worst) did not fail make"
fi
grep -Eq "^$loc: error: stack budget exceeded: $worst > $below bytes via main → middle → leaf\$" \
	"$OUT/below.log" || fail "stack-check below the worst: no GCC-style error for main at $loc:
$(cat "$OUT/below.log")"

# no STACK_ELF: a clear message, make fails
if clean_make -C "$proj" stack-check STACK_ELF= >"$OUT/noelf.log" 2>&1; then
	fail "stack-check without STACK_ELF succeeded"
fi
grep -q 'set STACK_ELF' "$OUT/noelf.log" || fail "no STACK_ELF: $(cat "$OUT/noelf.log")"

clean_make -s uninstall DESTDIR="$dest" PREFIX=/usr >"$OUT/uninstall.log" 2>&1 ||
	fail "make uninstall: $(tail -3 "$OUT/uninstall.log")"
left=$(find "$dest" -type f | sed "s|^$dest||")
[ -z "$left" ] || fail "uninstall left $left"
[ -e "$dest/usr/share/stackprof" ] && fail "uninstall left usr/share/stackprof"
[ -e "$dest/usr/lib/cmake/stackprof" ] && fail "uninstall left usr/lib/cmake/stackprof"
finish
