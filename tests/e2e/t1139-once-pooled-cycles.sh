#!/bin/sh
# Pooled counts, one budget per cycle (tests/data/annot/twocycles.c):
# a0 and a1 call each other and each calls b0; b0 and b1 call each
# other; all four 'once'.  Past STACKPROF_NEST_CONTEXTS the solver pools
# the counts, and a stack that leaves a0 and a1's cycle never comes back
# to it, so each cycle has a budget of its own (2 activations each): the
# totals stay the exact ones.  One budget of 4 for all would let a0 and
# a1 alternate four deep (2 * (a0 + a1)), spending b0 and b1's counts.
# Totals summed by hand from the .su rows.
. tests/e2e/lib.sh

[ "$(uname -m)" = x86_64 ] || skip "x86-64 only (the red-zone check reads x86-64 code)"
annot_sample twocycles main a0 a1 b0 b1
"$bin" || fail "twocycles exits $?"
m=$(su_self $su main) A0=$(su_self $su a0) A1=$(su_self $su a1)
B0=$(su_self $su b0) B1=$(su_self $su b1)
# the one-budget bound exceeds the exact one only if a's frames are the larger
[ $((A0 + A1)) -gt $((B0 + B1)) ] || fail "frames: a0 + a1 not above b0 + b1"

ann=$OUT/t.ann
printf 'once a0\nonce a1\nonce b0\nonce b1\n' >"$ann"
names='["main", "a0", "a1", "b0", "b1"]'
totals="[fn(n)[\"total\"] for n in $names]"
B=$((B0 + B1))
exact="[$((m + A0 + A1 + B)), $((A0 + A1 + B)), $((A1 + A0 + B)), $B, $B]"

run_sp --json -v --annotate "$ann" $bin $su
expect_rc 0 "exact"
expect_eq "exact totals" "$(jget $OUT/stdout "$totals")" "$exact"
grep -q 'stackprof: once/nest: 4 functions, [0-9]* contexts ([0-9]* solves)$' "$OUT/stderr" ||
	fail "exact: -v line: $(grep once/nest "$OUT/stderr")"

STACKPROF_NEST_CONTEXTS=2 run_sp --json -v --annotate "$ann" $bin $su
expect_rc 0 "pooled"
cp "$OUT/stdout" "$OUT/pooled.json"
j=$OUT/pooled.json
expect_eq "pooled: the exact totals" "$(jget $j "$totals")" "$exact"
grep -q '4 functions counted in one budget per cycle, of at most 2 activations' "$OUT/stderr" ||
	fail "pooled: -v line: $(grep once/nest "$OUT/stderr")"
expect_eq "pooled: a0's path" "$(jget $j 'fn("a0")["path"]')" '["a0", "a1", "b0", "b1"]'
expect_eq "pooled: every reason says coarse" \
	"$(jget $j '[f["name"] for f in ["a0", "a1", "b0", "b1"] if "coarse" not in str(fn(f)["reasons"])]')" '[]'
finish
