#!/bin/sh
# once on tests/data/annot/layers.c: 17 levels of two once functions, each
# calling both of the next level's, the last calling sink, whose call of
# deep does not happen below a1 ('ignore sink deep below a1').  A context
# keyed by every count on the stack would be one per set of level
# functions above (2^16 for a17 alone, over the solver's limit); keyed by
# the counts that can change something below it, a level function's key
# holds a1's alone (the ancestor of the gate it reaches), so each has two.
# Totals summed by hand from the .su rows: a1's path takes the b's and
# stops at sink's tick, everyone else's goes on into deep.
. tests/e2e/lib.sh

[ "$(uname -m)" = x86_64 ] || skip "x86-64 only (the red-zone check reads x86-64 code)"
annot_sample layers main a1 b1 a2 b2 a17 b17 sink deep tick
a=$(su_self $su a2) b=$(su_self $su b2) s=$(su_self $su sink)
d=$(su_self $su deep) t=$(su_self $su tick) m=$(su_self $su main)
for i in $(seq 1 17); do
	expect_eq "a$i's frame" "$(su_self $su a$i)" "$a"
	expect_eq "b$i's frame" "$(su_self $su b$i)" "$b"
done
[ "$b" -gt "$a" ] || fail "b's frame ($b) not above a's ($a)"

ann=$OUT/layers.ann
for i in $(seq 1 17); do printf 'once a%s\nonce b%s\n' $i $i; done >"$ann"
echo 'ignore sink deep below a1' >>"$ann"
run_sp --json --annotate "$ann" $bin $su
expect_rc 0 "34 once functions and a gate"
j=$OUT/stdout
# below a level: 16 more b's at most from level 2, then sink
full=$((s + d + t)) cut=$((s + t))
a1=$((a + 16 * b + cut)) b1=$((b + 16 * b + full))
a2=$((a + 15 * b + full)) a17=$((a + full))
expect_eq "totals of a1, b1, a2, a17, main" \
	"$(jget $j '[fn(n)["total"] for n in ["a1", "b1", "a2", "a17", "main"]]')" \
	"[$a1, $b1, $a2, $a17, $((m + b1))]"
expect_eq "all bounded" "$(jget $j 'sorted(set(f["bounded"] for f in j["functions"]))')" '[true]'
expect_eq "a1's path stops at tick" "$(jget $j 'fn("a1")["path"][-2:]')" '["sink", "tick"]'
expect_eq "main's path goes into deep" "$(jget $j 'fn("main")["path"][-3:]')" '["sink", "deep", "tick"]'
expect_eq "paths sum to their totals" \
	"$(jget $j '[f["name"] for f in j["functions"] if sum(d["self"] for d in f["path_detail"]) != f["total"]]')" '[]'
finish
