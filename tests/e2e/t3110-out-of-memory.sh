#!/bin/sh
# Memory pressure: under a small ulimit -v, with a large .su beside the
# chain sample (400,000 rows), stackprof either succeeds or says "out of
# memory" in one line and exits 2: never a signal.  A sanitizer build
# reserves terabytes of shadow memory, so it cannot run under ulimit -v.
. tests/e2e/lib.sh
need_sample chain
bin=samples/chain/chain

if command -v ldd >/dev/null && ldd "$SP" 2>/dev/null | grep -q 'lib[at]san'; then
	skip "$SP is a sanitizer build (no ulimit -v)"
fi
awk 'BEGIN { for (i = 0; i < 400000; i++)
	printf "gen/f%d.c:%d:5:function_number_%d\t%d\tstatic\n", i % 997, i, i, i % 300 }' \
	>"$OUT/many.su"
run_sp -o "$OUT/report" --json $bin samples/chain "$OUT/many.su"
expect_rc 0 "400,000 rows without a limit"
oom=0
for kb in 24000 32000 40000 48000 64000 80000 96000 128000; do
	rm -f "$OUT/report"
	(ulimit -v $kb && exec "$SP" -o "$OUT/report" --json $bin samples/chain "$OUT/many.su") \
		>"$OUT/stdout" 2>"$OUT/stderr"
	rc=$?
	case $rc in
	0) [ -s "$OUT/report" ] || fail "ulimit -v $kb: exit 0 without a report" ;;
	2) if [ "$(wc -l <"$OUT/stderr")" -ne 1 ] ||
	      ! grep -q '^stackprof: .*out of memory' "$OUT/stderr"; then
		fail "ulimit -v $kb: want one 'out of memory' line, got '$(head -3 "$OUT/stderr")'"
	   fi
	   [ -e "$OUT/report" ] && fail "ulimit -v $kb: left a report"
	   oom=$((oom + 1)) ;;
	*) fail "ulimit -v $kb: exit $rc: $(head -3 "$OUT/stderr")" ;;
	esac
	ls "$OUT" | grep -q '\.tmp' && fail "ulimit -v $kb: left a temporary file"
done
[ $oom -gt 0 ] || fail "no limit ran out of memory: the test proves nothing"
# what a limit let through is a whole report
[ -s "$OUT/report" ] && check_json "$OUT/report"
echo "  $oom of 8 limits ran out of memory"
rm -f "$OUT/many.su"
finish
