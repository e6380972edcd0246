#!/bin/sh
# Contexts that give their region the same inputs share one solve of it
# (analysis/nest.c, solve_frame()), and each one's path goes on below
# its own leaves.  tests/data/annot/samein.c: y -> z, z -> w and y,
# w -> w and z, with 'once y', 'once z', 'nest w 3': y's contexts keep
# w's count, and below z each has its one call cut.  Then six functions
# that all call each other and themselves (tests/data/annot/tangle.c)
# with 'nest FUNC 2' on each: thousands of contexts, whose paths must be
# real stacks.  Totals summed by hand from the .su rows.
. tests/e2e/lib.sh

[ "$(uname -m)" = x86_64 ] || skip "x86-64 only (the red-zone check reads x86-64 code)"

# the -v line's contexts and solves, as "CONTEXTS SOLVES"
counts()
{
	sed -n 's/^stackprof: once\/nest: [0-9]* functions, \([0-9]*\) contexts (\([0-9]*\) solves)$/\1 \2/p' \
		"$OUT/stderr"
}

annot_sample samein main y z w
m=$(su_self $su main) y=$(su_self $su y) z=$(su_self $su z) w=$(su_self $su w)
ann=$OUT/samein.ann
printf 'once y\nonce z\nnest w 3\n' >"$ann"
run_sp --json -v --annotate "$ann" $bin $su
expect_rc 0 "samein"
j=$OUT/stdout
# y -> z -> w w w (w's call into z cut); z: y (its z cut) or w w w;
# w: w w z y; main: the deeper of y and w
zt=$((z + (y > 3 * w ? y : 3 * w)))
wt=$((3 * w + z + y))
expect_eq "samein totals" "$(jget $j '[fn(n)["total"] for n in ["y", "z", "w", "main"]]')" \
	"[$((y + z + 3 * w)), $zt, $wt, $((m + wt))]"
set -- $(counts)
[ $# = 2 ] || fail "samein: -v line: $(grep once/nest "$OUT/stderr")"
[ "$2" -lt "$1" ] || fail "samein: no context shared a solve: $(grep once/nest "$OUT/stderr")"
expect_eq "samein: w's path" "$(jget $j 'fn("w")["path"]')" '["w", "w", "w", "z", "y"]'
expect_eq "samein: paths sum to their totals" \
	"$(jget $j '[f["name"] for f in j["functions"] if sum(d["self"] for d in f["path_detail"]) != f["total"]]')" '[]'

annot_sample tangle main f0 f1 f2 f3 f4 f5
m=$(su_self $su main)
S=0
for i in 0 1 2 3 4 5; do S=$((S + $(su_self $su f$i))); done
ann=$OUT/tangle.ann
printf 'nest f0 2\nnest f1 2\nnest f2 2\nnest f3 2\nnest f4 2\nnest f5 2\n' >"$ann"
names='["f0", "f1", "f2", "f3", "f4", "f5", "main"]'
run_sp --json -v --annotate "$ann" $bin $su
expect_rc 0 "tangle"
j=$OUT/stdout
# each function twice on a stack
expect_eq "tangle totals" "$(jget $j "[fn(n)[\"total\"] for n in $names]")" \
	"[$((2 * S)), $((2 * S)), $((2 * S)), $((2 * S)), $((2 * S)), $((2 * S)), $((m + 2 * S))]"
set -- $(counts)
[ $# = 2 ] || fail "tangle: -v line: $(grep once/nest "$OUT/stderr")"
expect_eq "tangle: paths, each f twice" \
	"$(jget $j "[sorted(fn(n)[\"path\"]) for n in $names[:6]]")" \
	"$(python3 -c "import json; print(json.dumps([sorted(['f0', 'f1', 'f2', 'f3', 'f4', 'f5'] * 2)] * 6))")"
expect_eq "tangle: paths start at their function" \
	"$(jget $j "[fn(n)[\"path\"][0] for n in $names]")" "$(echo "$names")"
expect_eq "tangle: paths sum to their totals" \
	"$(jget $j '[f["name"] for f in j["functions"] if sum(d["self"] for d in f["path_detail"]) != f["total"]]')" '[]'
finish
