#!/bin/sh
# 'nest v per h' where v is unbounded whatever its credit
# (tests/data/annot/vafloop.c): v goes on into r -> r, which nothing
# bounds.  Credits kept as none or one (analysis/nest.c,
# credit_one_holds()) give the same totals, as every v context is
# unbounded, in far fewer contexts: a key per count of a (1-40) and
# credit none or one for each of a, h and v, 240 at most; exact credits
# pair each count of a with each credit the h above it gave (1722).
# With 'nest r 5' v is bounded, and the attempt is made again with the
# credits exact: totals summed by hand from the .su rows.
. tests/e2e/lib.sh

[ "$(uname -m)" = x86_64 ] || skip "x86-64 only (the red-zone check reads x86-64 code)"
annot_sample vafloop main a h v r
M=$(su_self $su main) A=$(su_self $su a) H=$(su_self $su h)
V=$(su_self $su v) R=$(su_self $su r)

# the program nests as the annotations say: it runs
"$bin" deep || fail "vafloop exits $?"

ann=$OUT/u.ann
printf 'nest a 40\nnest v per h\n' >"$ann"
run_sp --json -v --annotate "$ann" $bin $su
expect_rc 0 "r unbounded"
cp "$OUT/stdout" "$OUT/u.json"
j=$OUT/u.json
expect_eq "main, a, h, v unbounded by r -> r" \
	"$(jget $j '[(fn(n)["bounded"], fn(n)["reasons"][0]) for n in ["main", "a", "h", "v"]]')" \
	'[[false, "recursion r -> r"], [false, "recursion r -> r"], [false, "recursion r -> r"], [false, "recursion r -> r"]]'
line=$(grep 'once/nest:' "$OUT/stderr")
n=$(echo "$line" | sed -n 's/^stackprof: once\/nest: 3 functions, \([0-9]*\) contexts .*/\1/p')
[ -n "$n" ] || fail "-v line: $line"
[ "$n" -le 240 ] || fail "$n contexts: more than a key per count of a and credit none or one"

ann=$OUT/b.ann
printf 'nest a 40\nnest v per h\nnest r 5\n' >"$ann"
run_sp --json --annotate "$ann" $bin $su
expect_rc 0 "r bounded"
cp "$OUT/stdout" "$OUT/b.json"
j=$OUT/b.json
# below a: 40 a, 39 h between them, 39 v (one per h) and 5 r; below h,
# 40 of a, h and v; v alone counts as under one holder
a=$((40 * A + 39 * H + 39 * V + 5 * R))
h=$((40 * H + 40 * A + 40 * V + 5 * R))
expect_eq "r bounded: totals of main, a, h, v" \
	"$(jget $j '[fn(n)["total"] for n in ["main", "a", "h", "v"]]')" \
	"[$((M + a)), $a, $h, $((V + 5 * R))]"
expect_eq "r bounded: all bounded" \
	"$(jget $j '[f["name"] for f in j["functions"] if not f["bounded"]]')" '[]'
finish
