#!/bin/sh
# --indirect=types against what a run does: samples/ops built with
# -finstrument-functions (and tests/oracle/icall_trace.c, which records
# every call site and callee a run takes), run on inputs that take every
# branch of main (each handler, both shapes, both devices, both
# callbacks, the quiet and the loud hook); each indirect call taken must
# be one of the targets stackprof gives its site (tests/e2e/icall_check.py).
. tests/e2e/lib.sh
[ "$(uname -m)" = x86_64 ] || skip "the instruction pass is x86-64's"

b=$OUT/build
mkdir -p "$b"
cp samples/ops/*.c samples/ops/*.h tests/oracle/icall_trace.c "$b/"
(
	cd "$b" &&
	gcc -O2 -g -fno-pie -finstrument-functions -c ops.c drivers.c &&
	gcc -O2 -g -fno-pie -c icall_trace.c &&
	gcc -no-pie -o ops ops.o drivers.o icall_trace.o
) >"$OUT/build.log" 2>&1 || { fail "cannot build: $(head -3 "$OUT/build.log")"; finish; exit; }

for a in 0 1 2 3 4 5 6 7 200 203 205; do
	ICALL_TRACE=$OUT/trace.txt "$b/ops" "$a" >/dev/null 2>&1 || fail "ops $a failed"
done
run_sp --json --indirect=types "$b/ops"
expect_rc 0 "--indirect=types"
cp "$OUT/stdout" "$OUT/ops.json"
# every site of ops.c and drivers.c is taken by one run or another: the
# handlers (3), the shapes' areas (2), both devices' start and read (4),
# both callbacks (2), on_tick (1), both hooks (2)
icall_pairs "$b/ops" "$OUT/ops.json" 14
finish
