#!/bin/sh
# 'nest v per h' below two cycles of counted functions
# (tests/data/annot/credits.c): a -> h -> a at most 40 a, each a may
# leave for c -> e -> c (at most 2000 c and 2000 e), and c prints v,
# which nests once per h below it.  A credit stays exact at every
# coarseness, so the contexts of c and e pair each count (pooled: each
# budget) with each credit 0-39: 168,201 contexts, past the 65536 the
# last attempt had (it exited 2); it has room for them now
# (analysis/nest.c, MAX_CONTEXTS_LAST).  Totals summed by hand from the .su rows; the pooled
# budgets lose nothing here (c and e alternate), so they are exact.
. tests/e2e/lib.sh

[ "$(uname -m)" = x86_64 ] || skip "x86-64 only (the red-zone check reads x86-64 code)"
annot_sample credits main a h c e v
M=$(su_self $su main) A=$(su_self $su a) H=$(su_self $su h)
C=$(su_self $su c) E=$(su_self $su e) V=$(su_self $su v)
# the last c of the deepest stack goes on to v, not to a last e
[ $((39 * V)) -gt "$E" ] || fail "frames: 39 v ($V) not above one e ($E)"

# the program nests as the totals say: it runs, at the depth they count
"$bin" deep || fail "credits exits $?"

ann=$OUT/c.ann
printf 'nest a 40\nnest c 2000\nnest e 2000\nnest v per h\n' >"$ann"
# below a: 40 a, 39 h between them, then 2000 c, 1999 e and 39 v (one
# per h); below h, 40 of each; c and e alone print nothing (no holder
# below: v is cut), 2000 of each; v alone counts as under one holder
cyc=$((2000 * C + 1999 * E))
a=$((40 * A + 39 * H + cyc + 39 * V))
h=$((40 * H + 40 * A + cyc + 40 * V))
ce=$((2000 * C + 2000 * E))
want="[$((M + a)), $a, $h, $ce, $ce, $V]"
totals='[fn(n)["total"] for n in ["main", "a", "h", "c", "e", "v"]]'

# the attempts before the last stop at 1000 contexts; the last one has
# a limit of its own, which was 65536
STACKPROF_NEST_CONTEXTS=1000 run_sp --json -v --annotate "$ann" $bin $su
expect_rc 0 "limit 1000"
cp "$OUT/stdout" "$OUT/credits.json"
j=$OUT/credits.json
expect_eq "totals of main, a, h, c, e, v" "$(jget $j "$totals")" "$want"
expect_eq "all bounded" "$(jget $j '[f["name"] for f in j["functions"] if not f["bounded"]]')" '[]'
line=$(grep 'once/nest:' "$OUT/stderr")
n=$(echo "$line" | sed -n 's/^stackprof: once\/nest: 5 functions, \([0-9]*\) contexts .*(coarse: over the limit of 1000 of exact counts, 3 functions counted in one budget per cycle, of at most 4000 activations, 0 ancestors not known)$/\1/p')
[ -n "$n" ] || fail "-v line: $line"
# c and e, budgets 1-4000 each with a credit of 0-39 (a's 40 levels)
[ "$n" -gt 65536 ] || fail "only $n contexts: the test no longer needs the last attempt's room"
expect_eq "a's path: a and h 40 and 39 times, c 2000, e 1999, v 39" \
	"$(jget $j '[fn("main")["path"].count(x) for x in ["main", "a", "h", "c", "e", "v"]]')" \
	'[1, 40, 39, 2000, 1999, 39]'
expect_eq "paths sum to their totals" \
	"$(jget $j '[f["name"] for f in j["functions"] if sum(d["self"] for d in f["path_detail"]) != f["total"]]')" '[]'
expect_eq "v's own reason" "$(jget $j 'fn("v")["reasons"]')" \
	'["recursion v -> v bounded by annotation: v at most once per holder below it"]'
expect_eq "a's reason says coarse" "$(jget $j '"(coarse: " in fn("a")["reasons"][0]')" 'true'

# the default limit: the same totals
run_sp --json --annotate "$ann" $bin $su
expect_rc 0 "default limit"
expect_eq "default limit: totals" "$(jget $OUT/stdout "$totals")" "$want"
finish
