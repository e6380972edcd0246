#!/bin/sh
# 'below' ancestors kept since the budget's last activation
# (tests/data/annot/stretch.c): wake -> ttwu -> unlock -> softirq ->
# wake, a cycle that 'ignore unlock softirq below wake' cuts in ttwu's
# region (ttwu is the ancestor of another line, so a region of its own),
# next to alloc -> reclaim -> alloc, whose counts are pooled.  Exactly,
# every total is bounded.  Past STACKPROF_NEST_CONTEXTS the attempt that
# keeps wake and ttwu only since the last activation of a pooled
# function still cuts the cycle (no pooled function on it): bounded,
# but below alloc it forgets wake, so warn() may nap there.  The last
# attempt forgets them for good, and the cycle is one.  Totals summed by
# hand from the .su rows.
. tests/e2e/lib.sh

[ "$(uname -m)" = x86_64 ] || skip "x86-64 only (the red-zone check reads x86-64 code)"
annot_sample stretch main wake ttwu unlock softirq defer alloc reclaim warn nap
"$bin" a b || fail "stretch exits $?"
m=$(su_self $su main) W=$(su_self $su wake) T=$(su_self $su ttwu)
U=$(su_self $su unlock) S=$(su_self $su softirq) D=$(su_self $su defer)
A=$(su_self $su alloc) R=$(su_self $su reclaim) WA=$(su_self $su warn)
N=$(su_self $su nap) K=$(su_self $su tick)

ann=$OUT/s.ann
printf '%s\n' 'ignore unlock softirq below wake' 'ignore unlock defer below ttwu' \
	'ignore warn nap below wake' 'nest alloc 2' 'once reclaim' >"$ann"
names='["main", "wake", "ttwu", "softirq", "alloc", "reclaim"]'
totals="[fn(n)[\"total\"] for n in $names]"
max() { [ "$1" -gt "$2" ] && echo "$1" || echo "$2"; }

# alloc -> reclaim -> alloc -> warn (-> nap unless below wake), and
# reclaim no more; below wake and ttwu unlock only allocates
nap=$((N + K))
alloc=$((A + R + A + WA + nap)) reclaim=$((R + A + WA + nap))
alloc_w=$((A + R + A + WA))
wake=$((W + T + U + alloc_w))
softirq=$((S + wake))
ttwu=$((T + U + $(max $softirq $alloc)))
main=$((m + $(max $(max $wake $ttwu) $alloc)))
exact="[$main, $wake, $ttwu, $softirq, $alloc, $reclaim]"
run_sp --json -v --annotate "$ann" $bin $su
expect_rc 0 "exact"
expect_eq "exact totals" "$(jget $OUT/stdout "$totals")" "$exact"
grep -q 'stackprof: once/nest: 4 functions, [0-9]* contexts ([0-9]* solves)$' "$OUT/stderr" ||
	fail "exact: -v line: $(grep once/nest "$OUT/stderr")"

# kept since the last pooled activation: alloc forgets wake, warn naps
wake=$((W + T + U + alloc))
softirq=$((S + wake))
ttwu=$((T + U + $(max $softirq $alloc)))
main=$((m + $(max $(max $wake $ttwu) $alloc)))
since="[$main, $wake, $ttwu, $softirq, $alloc, $reclaim]"
STACKPROF_NEST_CONTEXTS=11 run_sp --json -v --annotate "$ann" $bin $su
expect_rc 0 "since"
cp "$OUT/stdout" "$OUT/since.json"
j=$OUT/since.json
grep -q "(coarse: over the limit of 11 of exact counts, 2 functions counted in one budget per cycle, of at most 3 activations, 0 ancestors not known, 2 known only since the budget's last activation)$" "$OUT/stderr" ||
	fail "since: -v line: $(grep once/nest "$OUT/stderr")"
expect_eq "since: totals" "$(jget $j "$totals")" "$since"
expect_eq "since: all bounded" "$(jget $j '[f["name"] for f in j["functions"] if not f["bounded"]]')" '[]'
expect_eq "since: none below the exact totals" \
	"$(jget $j "[a >= b for a, b in zip($totals, $exact)]")" '[true, true, true, true, true, true]'
expect_eq "since: ttwu's path goes round once" "$(jget $j 'fn("ttwu")["path"]')" \
	'["ttwu", "unlock", "softirq", "wake", "ttwu", "unlock", "alloc", "reclaim", "alloc", "warn", "nap", "tick"]'
expect_eq "since: paths sum to their totals" \
	"$(jget $j '[f["name"] for f in j["functions"] if sum(d["self"] for d in f["path_detail"]) != f["total"]]')" '[]'
expect_eq "since: wake's reason says how coarse" \
	"$(jget $j '"2 ancestors of '"'"'below'"'"' lines known only since the budget'"'"'s last activation" in fn("wake")["reasons"][0]')" 'true'

# the last attempt: wake forgotten in ttwu's region, the cycle is one
STACKPROF_NEST_CONTEXTS=9 run_sp --json -v --annotate "$ann" $bin $su
expect_rc 0 "forgotten"
grep -q "2 ancestors not known)$" "$OUT/stderr" ||
	fail "forgotten: -v line: $(grep once/nest "$OUT/stderr")"
expect_eq "forgotten: the cycle's totals unbounded" \
	"$(jget $OUT/stdout '[fn(n)["bounded"] for n in ["main", "wake", "ttwu", "softirq", "alloc"]]')" \
	'[false, false, false, false, true]'
finish
