#!/bin/sh
# nest FUNC per HOLDER on tests/data/annot/vafmt.c, the kernel's %pV in
# small: vsn -> va_fmt -> vsn prints a struct va_format that a holder
# below it fills (h1, h2; h3 calls itself).  'nest va_fmt per h1 h2 h3'
# lets va_fmt on a stack once per holder below it: h2 -> h1 -> prt -> vsn
# -> va_fmt -> vsn -> va_fmt -> vsn, as main() really nests them.  Totals
# are summed by hand from the .su rows; h3 below itself stays unbounded,
# and a holder left out counts nothing.
. tests/e2e/lib.sh

[ "$(uname -m)" = x86_64 ] || skip "x86-64 only (the red-zone check reads x86-64 code)"
annot_sample vafmt main vsn va_fmt prt h1 h2 h3
M=$(su_self $su main) V=$(su_self $su vsn) F=$(su_self $su va_fmt) P=$(su_self $su prt)
H1=$(su_self $su h1) H2=$(su_self $su h2) H3=$(su_self $su h3)

# the program nests as the totals say: it runs
"$bin" || fail "vafmt exits $?"

# without annotations vsn and va_fmt are one cycle, and all is unbounded
run_sp --json $bin $su
expect_rc 0 "plain"
cp "$OUT/stdout" "$OUT/plain.json"
expect_eq "plain: the cycles" \
	"$(jget $OUT/plain.json 'sorted(f["name"] for f in j["functions"] if f["recursive"])')" \
	'["h3", "va_fmt", "vsn"]'
expect_eq "plain: nothing bounded" \
	"$(jget $OUT/plain.json '[f["name"] for f in j["functions"] if f["bounded"]]')" '[]'

# va_fmt alone, and through callers that hold nothing, prints once (a
# caller with no holder below never calls it; once is the bound); below
# h1 once, below h2 and h1 twice
vaf=$((F + V)) vsn=$((V + F + V)) prt=$((P + 2 * V + F))
h1=$((H1 + P + 2 * V + F)) h2=$((H2 + H1 + P + 3 * V + 2 * F))
ann=$OUT/v.ann
printf '# %%pV\nnest va_fmt per h1 h2 h3\n' >"$ann"
run_sp --json --annotate "$ann" $bin $su
expect_rc 0 "nest per"
cp "$OUT/stdout" "$OUT/per.json"
j=$OUT/per.json
expect_eq "totals of va_fmt, vsn, prt, h1, h2" \
	"$(jget $j '[fn(n)["total"] for n in ["va_fmt", "vsn", "prt", "h1", "h2"]]')" \
	"[$vaf, $vsn, $prt, $h1, $h2]"
expect_eq "bounded: all but h3 and main" \
	"$(jget $j 'sorted(f["name"] for f in j["functions"] if not f["bounded"])')" '["h3", "main"]'
expect_eq "h2's path: va_fmt twice" "$(jget $j 'fn("h2")["path"]')" \
	'["h2", "h1", "prt", "vsn", "va_fmt", "vsn", "va_fmt", "vsn"]'
expect_eq "paths of bounded totals sum to them" \
	"$(jget $j '[f["name"] for f in j["functions"] if f["bounded"] and sum(d["self"] for d in f["path_detail"]) != f["total"]]')" '[]'
expect_eq "h2's reason" "$(jget $j 'fn("h2")["reasons"]')" \
	'["recursion va_fmt -> vsn -> va_fmt bounded by annotation: va_fmt at most once per holder below it"]'
# h3 below itself would give va_fmt a level per call: it stays
# unbounded, a cycle of its own, and so does main through it
expect_eq "h3 unbounded by its own cycle" \
	"$(jget $j '[fn("h3")["recursive"], fn("h3")["reasons"][0]]')" '[true, "recursion h3 -> h3"]'
expect_eq "main's lower bound: through h2" "$(jget $j 'fn("main")["lower_bound"]')" "$((M + h2))"
run_sp --annotate "$ann" --entry h2 $bin $su
grep -qx '    reason: recursion va_fmt -> vsn -> va_fmt bounded by annotation: va_fmt at most once per holder below it' \
	"$OUT/stdout" || fail "text: h2's reason"

# a holder left out holds nothing: h2 -> h1 nests once, not twice (the
# list must name every function that fills one)
printf 'nest va_fmt per h1\n' >"$ann"
run_sp --json --annotate "$ann" $bin $su
expect_rc 0 "h1 alone"
expect_eq "h1 alone: h2" "$(jget $OUT/stdout 'fn("h2")["total"]')" "$((H2 + h1))"
# optional: the holders the image lacks are skipped, the rest apply; a
# line whose FUNC it lacks is skipped whole
printf 'optional nest va_fmt per nosuch h1 h2\noptional nest nosuch per h1\n' >"$ann"
run_sp --json --annotate "$ann" $bin $su
expect_rc 0 "optional"
expect_eq "optional: h2" "$(jget $OUT/stdout 'fn("h2")["total"]')" "$h2"

# errors in the existing style
printf 'nest va_fmt per\n' >"$ann"
expect_bad "per without holders" "v.ann:1: want 'nest FUNC DEPTH \| nest FUNC per HOLDER...'" \
	--annotate "$ann" $bin $su
printf 'nest va_fmt per h1 nosuch\n' >"$ann"
expect_bad "per: unknown holder" "v.ann:1: unknown function 'nosuch'" --annotate "$ann" $bin $su
printf 'nest va_fmt per h1\nnest va_fmt 2\n' >"$ann"
expect_bad "per and a count" "v.ann:2: 'va_fmt' is counted both by 'nest ... per' and by once, nest or below" \
	--annotate "$ann" $bin $su
finish
