#!/bin/sh
# --budget: a worst case above it is a GCC-style error on stderr naming
# the function and its path, exit 1; unbounded totals fail it unless
# --allow-unbounded, which holds their lower bound to the budget.
. tests/e2e/lib.sh
need_sample chain
need_sample recursion

RE='^[^:]+:[0-9]+:[0-9]+: error: stack budget exceeded: [0-9]+ > [0-9]+ bytes via '
bin=samples/chain/chain
$ORACLE --print --objdump $bin samples/chain >"$OUT/oracle" || fail "oracle"
# the two deepest totals of the chain sample
worst=$(awk -F'\t' '{ sub(/^total=/, "", $4); print $4 }' "$OUT/oracle" | sort -rn | sed -n 1p)
second=$(awk -F'\t' '{ sub(/^total=/, "", $4); print $4 }' "$OUT/oracle" | sort -rn | sed -n 2p)
main=$(oracle_value chain main)
expect_eq "main is the chain's deepest" "$main" "$worst"
[ "$second" -lt "$worst" ] || fail "chain: two functions share the worst total"
loc=$(awk -F'\t' '$1 ~ /:main$/ { sub(/:main$/, "", $1); print $1 }' samples/chain/a.su)

# just below main: main alone is over
run_sp --budget "$second" $bin
expect_rc 1 "--budget $second"
expect_eq "--budget $second: stderr lines" "$(wc -l <"$OUT/stderr")" 1
grep -Eq "$RE" "$OUT/stderr" || fail "--budget: '$(cat "$OUT/stderr")' is not GCC-style"
grep -Eq "^$loc: error: stack budget exceeded: $worst > $second bytes via main( → level1)? → level2 → level3 → level4 → level5\$" \
	"$OUT/stderr" || fail "--budget: '$(cat "$OUT/stderr")' does not name main at $loc and its path"
[ -s "$OUT/stdout" ] || fail "--budget: no report on stdout"

# at the worst: nothing is over
run_sp --budget "$worst" $bin
expect_rc 0 "--budget $worst (= worst)"
[ -s "$OUT/stderr" ] && fail "--budget $worst: stderr: $(cat "$OUT/stderr")"

# K suffix: one line per function over 1024 bytes
over=$(awk -F'\t' '{ sub(/^total=/, "", $4); if ($4 + 0 > 1024) n++ } END { print n + 0 }' "$OUT/oracle")
run_sp --budget 1K $bin
if [ "$over" -gt 0 ]; then
	expect_rc 1 "--budget 1K"
else
	expect_rc 0 "--budget 1K"
fi
expect_eq "--budget 1K: errors" "$(grep -cE "$RE" "$OUT/stderr")" "$over"
expect_eq "--budget 1K: stderr lines" "$(wc -l <"$OUT/stderr")" "$over"

# --json with a budget: the report is still complete
run_sp --json --budget "$second" $bin
expect_rc 1 "--json --budget"
python3 -m json.tool "$OUT/stdout" >/dev/null 2>&1 || fail "--json --budget: stdout is not JSON"

# the budget covers the --entry roots only
run_sp --entry side --budget "$second" $bin
expect_rc 0 "--entry side --budget $second"

# recursion: unbounded fails any budget ...
rbin=samples/recursion/recursion
run_sp --budget 1M $rbin
expect_rc 1 "recursion --budget 1M"
grep -Eq '^recursion/recursion\.c:[0-9]+:[0-9]+: error: stack usage unbounded .*recursion.* via is_odd' \
	"$OUT/stderr" || fail "recursion --budget 1M: no unbounded error for is_odd"
# ... unless --allow-unbounded: then the lower bounds are below 1M
run_sp --budget 1M --allow-unbounded $rbin
expect_rc 0 "recursion --budget 1M --allow-unbounded"
[ -s "$OUT/stderr" ] && fail "--allow-unbounded: stderr: $(cat "$OUT/stderr")"
# and a lower bound above the budget still fails it
is_odd_self=$(su_self samples/recursion/recursion.su is_odd)
budget=$((is_odd_self - 1))
run_sp --budget $budget --allow-unbounded --entry is_odd $rbin
expect_rc 1 "recursion --budget $budget --allow-unbounded --entry is_odd"
grep -Eq "^recursion/recursion\.c:[0-9]+:[0-9]+: error: stack budget exceeded: [0-9]+ > $budget bytes via is_odd" \
	"$OUT/stderr" || fail "--allow-unbounded below is_odd's frame: '$(cat "$OUT/stderr")'"

# the budget works with -o too: the file is written, exit 1
run_sp -o "$OUT/r.txt" --budget "$second" $bin
expect_rc 1 "-o with --budget"
[ -s "$OUT/r.txt" ] || fail "-o with --budget exceeded: no report file"
finish
