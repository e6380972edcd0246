#!/bin/sh
# --annotate: each directive on the samples, totals summed by hand from the
# .su lines (a leaf's frame: its .su row plus its red zone, read from
# objdump).  samples/indirect: main -> dispatch -(ops[i])-> op_double |
# op_negate, main -> direct -> op_double, main -> printf (no frame data).
# samples/recursion: main -> is_even <-> is_odd -> leaf, main -> fact -> fact.
. tests/e2e/lib.sh
need_sample indirect
need_sample recursion

max() { [ "$1" -gt "$2" ] && echo "$1" || echo "$2"; }
bin=samples/indirect/indirect
su=samples/indirect/indirect.su
s_main=$(su_self $su main)
s_dispatch=$(su_self $su dispatch)
s_direct=$(su_self $su direct)
s_double=$(( $(su_self $su op_double) + $(red_zone samples/indirect/indirect op_double) ))
rz_negate=$(red_zone samples/indirect/indirect op_negate)
s_negate=$(( $(su_self $su op_negate) + rz_negate ))
direct=$((s_direct + s_double))
ann=$OUT/a.ann

# calls: the indirect call's targets make dispatch bounded
cat >"$ann" <<'ANN'
# the ops table of indirect.c
calls dispatch op_double op_negate
ANN
dispatch=$((s_dispatch + $(max $s_double $s_negate)))
main=$((s_main + $(max $dispatch $direct)))
run_sp --json --annotate "$ann" $bin
expect_rc 0 "calls"
cp "$OUT/stdout" "$OUT/calls.json"
j=$OUT/calls.json
expect_eq "calls: dispatch total" "$(jget $j 'fn("dispatch")["total"]')" "$dispatch"
expect_eq "calls: dispatch bounded" "$(jget $j 'fn("dispatch")["bounded"]')" true
expect_eq "calls: dispatch not assumed" "$(jget $j 'fn("dispatch")["assumed"]')" false
expect_eq "calls: dispatch reasons" "$(jget $j 'fn("dispatch")["reasons"]')" "[]"
expect_eq "calls: the target is annotated" \
	"$(jget $j 'fn("dispatch")["path_detail"][1]["via"]')" '"annotated"'
expect_eq "calls: main lower bound" "$(jget $j 'fn("main")["lower_bound"]')" "$main"
expect_eq "calls: main bounded" "$(jget $j 'fn("main")["bounded"]')" true
expect_eq "calls: main still partial (printf)" "$(jget $j 'fn("main")["partial"]')" true
run_sp --annotate "$ann" $bin
grep -Eq "^ +$(su_self $su op_negate)(\+$rz_negate)? +$dispatch +op_negate +indirect/indirect.c:[0-9]+( \[red-zone $rz_negate\])? \[annotated\]$" \
	"$OUT/stdout" || fail "calls: text path does not mark op_negate [annotated]"

# frame: printf gets a frame, so main is no longer partial
printf 'calls dispatch op_double op_negate\nframe printf 1K\n' >"$ann"
run_sp --json --annotate "$ann" $bin
expect_rc 0 "frame"
cp "$OUT/stdout" "$OUT/frame.json"
j=$OUT/frame.json
expect_eq "frame: main total" "$(jget $j 'fn("main")["total"]')" "$((s_main + $(max $main 1024)))"
expect_eq "frame: main not partial" "$(jget $j 'fn("main")["partial"]')" false
expect_eq "frame: main's worst path" "$(jget $j '[(d["name"], d["self"]) for d in fn("main")["path_detail"]]')" \
	"[[\"main\", $s_main], [\"printf\", 1024]]"
run_sp --json --annotate "$ann" --entry printf $bin
cp "$OUT/stdout" "$OUT/printf.json"
expect_eq "frame: printf frame source" "$(jget $OUT/printf.json 'fn("printf")["frame_source"]')" '"annotation"'

# ignore: main without its dispatch calls
printf 'ignore main dispatch\n' >"$ann"
run_sp --json --annotate "$ann" $bin
expect_rc 0 "ignore"
cp "$OUT/stdout" "$OUT/ignore.json"
j=$OUT/ignore.json
expect_eq "ignore: main" "$(jget $j 'fn("main")["lower_bound"]')" "$((s_main + direct))"
expect_eq "ignore: main bounded" "$(jget $j 'fn("main")["bounded"]')" true
expect_eq "ignore: main path" "$(jget $j 'fn("main")["path"]')" '["main", "direct", "op_double"]'

# entry: its own budget, GCC-style, exit 1; at the worst case, exit 0
loc=$(awk -F'\t' '$1 ~ /:main$/ { sub(/:main$/, "", $1); print $1 }' $su)
printf 'calls dispatch op_double op_negate\nentry main %s\n' $((main - 1)) >"$ann"
run_sp --annotate "$ann" $bin
expect_rc 1 "entry main $((main - 1))"
expect_eq "entry: one diagnostic" "$(wc -l <"$OUT/stderr")" 1
grep -Eq "^$loc: error: stack budget exceeded: $main > $((main - 1)) bytes via main → dispatch → op_negate\$" \
	"$OUT/stderr" || fail "entry: '$(cat "$OUT/stderr")' is not the GCC-style diagnostic"
printf 'calls dispatch op_double op_negate\nentry main %s\n' $main >"$ann"
run_sp --annotate "$ann" $bin
expect_rc 0 "entry main $main"
# the entry's budget replaces --budget for it; the others keep --budget
run_sp --annotate "$ann" --budget 1 --entry main --entry direct $bin
expect_rc 1 "entry + --budget"
expect_eq "entry + --budget: only direct is over" "$(grep -c 'error:' "$OUT/stderr")" 1
grep -q "stack budget exceeded: $direct > 1 bytes via direct" "$OUT/stderr" ||
	fail "entry + --budget: '$(cat "$OUT/stderr")'"
# an unbounded entry fails its budget unless --allow-unbounded
printf 'entry main 1M\n' >"$ann"
run_sp --annotate "$ann" $bin
expect_rc 1 "entry with an unresolved indirect call"
grep -q "error: stack usage unbounded (indirect call in dispatch)" "$OUT/stderr" ||
	fail "entry unbounded: '$(cat "$OUT/stderr")'"

# recursion: DEPTH x (the cycle's frames) + the worst exit
rsu=samples/recursion/recursion.su
s_even=$(su_self $rsu is_even)
s_odd=$(su_self $rsu is_odd)
s_leaf=$(( $(su_self $rsu leaf.constprop) + $(red_zone samples/recursion/recursion leaf.constprop.0) ))
s_fact=$(su_self $rsu fact)
s_rmain=$(su_self $rsu main)
even=$((3 * (s_even + s_odd) + s_leaf))
fact=$((5 * s_fact))
printf 'recursion is_odd 3\nrecursion fact 5\n' >"$ann"
run_sp --json --annotate "$ann" samples/recursion/recursion
expect_rc 0 "recursion"
cp "$OUT/stdout" "$OUT/rec.json"
j=$OUT/rec.json
expect_eq "recursion: is_even" "$(jget $j 'fn("is_even")["total"]')" "$even"
expect_eq "recursion: is_odd" "$(jget $j 'fn("is_odd")["total"]')" "$even"
expect_eq "recursion: fact" "$(jget $j 'fn("fact")["total"]')" "$fact"
expect_eq "recursion: still recursive" "$(jget $j 'fn("fact")["recursive"]')" true
expect_eq "recursion: main" "$(jget $j 'fn("main")["lower_bound"]')" \
	"$((s_rmain + $(max $even $fact)))"
expect_eq "recursion: main bounded" "$(jget $j 'fn("main")["bounded"]')" true
expect_eq "recursion: fact's reason" "$(jget $j 'fn("fact")["reasons"]')" \
	'["recursion fact -> fact bounded by annotation: at most 5 deep"]'
# only one cycle annotated: the other keeps main unbounded
printf 'recursion fact 5\n' >"$ann"
run_sp --json --annotate "$ann" samples/recursion/recursion
cp "$OUT/stdout" "$OUT/rec1.json"
expect_eq "one cycle annotated: main unbounded" "$(jget $OUT/rec1.json 'fn("main")["bounded"]')" false
# -v: the cycles left open, their largest, and the totals they unbound,
# as many as the JSON reasons name an open recursion
open_reasons() {
	jget "$1" 'sum(1 for f in j["functions"] if any(r.startswith("recursion") and "bounded by annotation" not in r for r in f["reasons"]))'
}
run_sp -v --annotate "$ann" samples/recursion/recursion
grep -Eq "^stackprof: cycles: 1 no annotation bounds, the largest of 2 functions \((is_even|is_odd)\); $(open_reasons $OUT/rec1.json) totals unbounded by them\$" \
	"$OUT/stderr" || fail "-v: one open cycle: $(grep cycles "$OUT/stderr")"
run_sp --json samples/recursion/recursion
cp "$OUT/stdout" "$OUT/rec0.json"
run_sp -v samples/recursion/recursion
grep -Eq "^stackprof: cycles: 2 no annotation bounds, the largest of 2 functions \((is_even|is_odd)\); $(open_reasons $OUT/rec0.json) totals unbounded by them\$" \
	"$OUT/stderr" || fail "-v: two open cycles: $(grep cycles "$OUT/stderr")"
printf 'recursion fact 5\nrecursion is_odd 3\n' >"$ann"
run_sp -v --annotate "$ann" samples/recursion/recursion
! grep -q "cycles:" "$OUT/stderr" || fail "-v: no open cycle, yet $(grep cycles "$OUT/stderr")"

# bad files: exit 2, one line naming FILE:LINE, no output file
printf 'frame main 8\n\ncalls dispatch op_double nosuch\n' >"$ann"
expect_bad "unknown target" "$ann:3: unknown function 'nosuch'\$" --annotate "$ann" $bin
printf '# x\nentry nosuch 512\n' >"$ann"
expect_bad "unknown entry" "$ann:2: unknown function 'nosuch'\$" --annotate "$ann" $bin
printf 'ignore direct dispatch\n' >"$ann"
expect_bad "ignore without such a call" "$ann:1: no call from 'direct' to 'dispatch'\$" \
	--annotate "$ann" $bin
printf 'frame main\n' >"$ann"
expect_bad "missing value" "$ann:1: want 'frame FUNC BYTES'\$" --annotate "$ann" $bin
printf 'stack main 8\n' >"$ann"
expect_bad "unknown directive" "$ann:1: unknown directive 'stack'" --annotate "$ann" $bin
printf 'recursion fact 0\n' >"$ann"
expect_bad "depth 0" "$ann:1: invalid recursion depth '0'" --annotate "$ann" $bin
expect_bad "missing file" "unable to open '$OUT/nosuch.ann'" --annotate "$OUT/nosuch.ann" $bin
finish
