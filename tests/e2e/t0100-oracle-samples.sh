#!/bin/sh
# Every sample: stackprof --json (finding the .su files by itself) must
# agree with ci_oracle.py, which works from GCC's .ci graphs alone.
. tests/e2e/lib.sh

for dir in samples/*/; do
	s=$(basename "$dir")
	[ -f "samples/$s/$s.c" ] || ls samples/"$s"/*.c >/dev/null 2>&1 || continue
	# Clang writes no .ci files: t1220 sums the clang sample by hand
	[ "$s" = clang ] && continue
	need_sample "$s"
	run_sp --json "samples/$s/$s"
	expect_rc 0 "$s: stackprof --json"
	[ "$rc" -eq 0 ] || continue
	cp "$OUT/stdout" "$OUT/$s.json"
	# GCC's .ci sums tail calls: the oracle finds them with objdump
	# (t0110 checks the tailcall sample by hand)
	if ! $ORACLE --objdump "samples/$s/$s" --json "$OUT/$s.json" "samples/$s" >"$OUT/$s.oracle" 2>&1; then
		fail "$s: the oracle disagrees"
		sed 's/^/    /' "$OUT/$s.oracle"
	fi
done
finish
