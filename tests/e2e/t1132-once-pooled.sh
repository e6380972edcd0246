#!/bin/sh
# once on six functions that all call each other and themselves
# (tests/data/annot/tangle.c): exact counts need 6 * 2^5 contexts; with
# STACKPROF_NEST_CONTEXTS below that the solver counts them in one budget
# of 6 activations instead (analysis/nest.c).  Totals summed by hand
# from the .su rows: exactly, each stack holds each function once;
# pooled, any 6 activations where no function calls itself (a 'once'
# root's own call is still cut), so the two largest frames alternate.
# The coarse totals are never below the exact ones and say they are
# coarse; within the limit they are the exact ones.
. tests/e2e/lib.sh

[ "$(uname -m)" = x86_64 ] || skip "x86-64 only (the red-zone check reads x86-64 code)"
annot_sample tangle main f0 f1 f2 f3 f4 f5
m=$(su_self $su main)
for i in 0 1 2 3 4 5; do eval "s$i=$(su_self $su f$i)"; done
# the hand sums below take the frames in this order
[ "$s0" -lt "$s1" ] && [ "$s1" -lt "$s2" ] && [ "$s2" -lt "$s3" ] &&
	[ "$s3" -lt "$s4" ] && [ "$s4" -lt "$s5" ] || fail "frames not in order: $s0 $s1 $s2 $s3 $s4 $s5"

ann=$OUT/t.ann
printf 'once f0\nonce f1\nonce f2\nonce f3\nonce f4\nonce f5\n' >"$ann"
names='["f0", "f1", "f2", "f3", "f4", "f5", "main"]'
totals="[fn(n)[\"total\"] for n in $names]"

# exact: every function once on any stack, main above f0 or f3
S=$((s0 + s1 + s2 + s3 + s4 + s5))
exact="[$S, $S, $S, $S, $S, $S, $((m + S))]"
run_sp --json -v --annotate "$ann" $bin $su
expect_rc 0 "exact"
cp "$OUT/stdout" "$OUT/exact.json"
expect_eq "exact totals" "$(jget $OUT/exact.json "$totals")" "$exact"
grep -qx 'stackprof: once/nest: 6 functions, 192 contexts ([0-9]* solves)' "$OUT/stderr" ||
	fail "exact: -v line: $(grep once/nest "$OUT/stderr")"
expect_eq "exact: no reason says coarse" \
	"$(jget $OUT/exact.json '[f["name"] for f in j["functions"] if "coarse" in str(f["reasons"])]')" '[]'

# just enough room: still exact
STACKPROF_NEST_CONTEXTS=200 run_sp --json --annotate "$ann" $bin $su
expect_rc 0 "limit 200"
expect_eq "limit 200: exact totals" "$(jget $OUT/stdout "$totals")" "$exact"

# pooled: 6 activations from the root, consecutive ones differ; f0..f3
# go on f5 f4 f5 f4 f5, f4 and f5 alternate with each other 3 times each
low=$((3 * s5 + 2 * s4)) top=$((3 * s5 + 3 * s4))
pooled="[$((s0 + low)), $((s1 + low)), $((s2 + low)), $((s3 + low)), $top, $top, $((m + s3 + low))]"
STACKPROF_NEST_CONTEXTS=50 run_sp --json -v --annotate "$ann" $bin $su
expect_rc 0 "pooled"
cp "$OUT/stdout" "$OUT/pooled.json"
j=$OUT/pooled.json
expect_eq "pooled totals" "$(jget $j "$totals")" "$pooled"
grep -qx 'stackprof: once/nest: 6 functions, 36 contexts ([0-9]* solves) (coarse: over the limit of 50 of exact counts, 6 functions counted in one budget per cycle, of at most 6 activations, 0 ancestors not known)' \
	"$OUT/stderr" || fail "pooled: -v line: $(grep once/nest "$OUT/stderr")"
expect_eq "pooled: never below exact" \
	"$(python3 -c "print([p >= e for p, e in zip($pooled, $exact)])")" \
	'[True, True, True, True, True, True, True]'
expect_eq "pooled: f0's path" "$(jget $j 'fn("f0")["path"]')" '["f0", "f5", "f4", "f5", "f4", "f5"]'
expect_eq "pooled: paths sum to their totals" \
	"$(jget $j '[f["name"] for f in j["functions"] if sum(d["self"] for d in f["path_detail"]) != f["total"]]')" '[]'
expect_eq "pooled: no function calls itself on a path" \
	"$(jget $j '[f["name"] for f in j["functions"] if any(a == b for a, b in zip(f["path"], f["path"][1:]))]')" '[]'
expect_eq "f2's reason" "$(jget $j 'fn("f2")["reasons"]')" \
	'["recursion f2 -> f2 bounded by annotation: f2 at most once on a stack (coarse: 6 once/nest functions counted in one budget per cycle, of at most 6 activations, over the limit of 50 contexts of exact counts; the total may be above the exact one)"]'
expect_eq "pooled: every reason says coarse" \
	"$(jget $j '[f["name"] for f in j["functions"] if "coarse" not in str(f["reasons"])]')" '[]'

# a value not understood is a warning, and the default limit stays
STACKPROF_NEST_CONTEXTS=0 run_sp --json --annotate "$ann" $bin $su
expect_rc 0 "limit 0"
grep -qx "stackprof: warning: ignoring STACKPROF_NEST_CONTEXTS='0' (1 to 524288)" "$OUT/stderr" ||
	fail "limit 0: no warning"
expect_eq "limit 0: exact totals" "$(jget $OUT/stdout "$totals")" "$exact"
finish
