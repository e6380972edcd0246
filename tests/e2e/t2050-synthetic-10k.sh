#!/bin/sh
# A 10,000-function program from bench/gen-synthetic (random call DAG,
# mutual recursion, VLAs, indirect calls): every function's total must
# agree with ci_oracle.py --fast, which computes it from GCC's .ci graphs
# alone; a report with one total changed must be caught.
. tests/e2e/lib.sh

dir=$OUT/syn
if ! bench/gen-synthetic 10000 "$dir" >"$OUT/gen" 2>&1; then
	fail "gen-synthetic failed: $(head -3 "$OUT/gen")"
	finish
	exit
fi
if ! make -C "$dir" -j2 -s >"$OUT/make" 2>&1; then
	fail "the synthetic program does not build: $(head -3 "$OUT/make")"
	finish
	exit
fi

run_sp --json "$dir/synth"
expect_rc 0 "stackprof --json synth"
cp "$OUT/stdout" "$OUT/synth.json"
if ! $ORACLE --fast --json "$OUT/synth.json" "$dir" >"$OUT/oracle" 2>&1; then
	fail "the oracle disagrees"
	head -20 "$OUT/oracle" | sed 's/^/    /'
fi
expect_eq "functions in the report" \
	"$(jget "$OUT/synth.json" 'len(j["functions"])')" \
	"$(cat "$dir"/*.su | wc -l)"

# every kind the generator writes is there, unbounded with its cause
for word in recursion indirect dynamic; do
	n=$(jget "$OUT/synth.json" "sum(1 for f in j['functions'] if not f['bounded'] and any('$word' in r for r in f['reasons']))")
	[ "$n" -gt 0 ] || fail "no unbounded function names '$word'"
done
# the generator's VLAs are volatile arrays: DWARF names them
expect_eq "dynamic frames without their VLA named" \
	"$(jget "$OUT/synth.json" "[f['name'] for f in j['functions'] if f['qualifier'] == 'dynamic' and not (f['dynamic_cause'] or '').startswith(\"VLA 'v' at \")]")" \
	"[]"
expect_eq "dynamic frames" \
	"$(jget "$OUT/synth.json" "sum(f['qualifier'] == 'dynamic' for f in j['functions'])")" \
	"$(grep -c 'dynamic$' "$dir"/*.su | awk -F: '{ s += $2 } END { print s }')"

# the check can fail: one bounded total off by 8 bytes
python3 - "$OUT/synth.json" "$OUT/bad.json" <<'PY'
import json, sys
sys.path.insert(0, "tests/e2e")
import sp_report
j = sp_report.load(sys.argv[1])
f = next(f for f in j["functions"] if f["bounded"] and f["path"][1:])
f["total"] += 8
f["lower_bound"] += 8
json.dump(j, open(sys.argv[2], "w"))
PY
if $ORACLE --fast --json "$OUT/bad.json" "$dir" >"$OUT/oracle-bad" 2>&1; then
	fail "the oracle accepts a wrong total"
fi
rm -f "$dir"/*.o
finish
