#!/bin/sh
# An inlined copy as an annotation's name (FUNC/INLINED) on
# tests/data/annot/inlined.c: wake -> unlock_slow -> raise_off ->
# [wakeup_thread, inlined] -> wake, bounded by a state that only the
# inlined copy marks (interrupts off outside an interrupt).  The calls
# raise_off makes from inside its copy of wakeup_thread go through a node
# of no frame, raise_off/wakeup_thread, an ancestor like any function;
# kick calls wake from inside its copy and outside it, and keeps both.
# Totals are summed by hand from the .su rows.  Then 'unless' (oops turns
# interrupts on again: below it the call happens), the copy as FUNC of
# once, and the bad names.
. tests/e2e/lib.sh

[ "$(uname -m)" = x86_64 ] || skip "x86-64 only (the red-zone check reads x86-64 code)"
annot_sample inlined main wake unlock_slow raise_off kick oops
m=$(su_self $su main) W=$(su_self $su wake) U=$(su_self $su unlock_slow)
R=$(su_self $su raise_off) K=$(su_self $su kick) O=$(su_self $su oops)
names='["main", "kick", "oops", "wake", "unlock_slow", "raise_off"]'
node=raise_off/wakeup_thread

run_sp --json $bin $su
expect_rc 0 "plain"
expect_eq "plain: the cycle" \
	"$(jget $OUT/stdout 'sorted(f["name"] for f in j["functions"] if f["recursive"])')" \
	'["raise_off", "unlock_slow", "wake"]'
expect_eq "plain: no node without an annotation naming it" \
	"$(jget $OUT/stdout '[f["name"] for f in j["functions"] if "/" in f["name"]]')" '[]'

max()
{
	_m=$1
	for _v; do [ "$_v" -gt "$_m" ] && _m=$_v; done
	echo "$_m"
}

# below the copy unlock_slow calls nothing: wake = W + U there, and
# raise_off = R + 0 + that; elsewhere unlock_slow raises
raise=$((R + W + U)) unlock=$((U + R + W + U))
wake=$((W + unlock)) kick=$((K + wake)) oops=$((O + wake))
main=$((m + $(max $wake $raise $kick $oops)))
ann=$OUT/i.ann
printf '# interrupts are off below the inlined wakeup\nignore unlock_slow raise_off below %s\n' \
	$node >"$ann"
run_sp --json --annotate "$ann" $bin $su
expect_rc 0 "below the copy"
cp "$OUT/stdout" "$OUT/below.json"
j=$OUT/below.json
expect_eq "below the copy: totals of $names" \
	"$(jget $j '[fn(n)["total"] for n in '"$names"']')" \
	"[$main, $kick, $oops, $wake, $unlock, $raise]"
expect_eq "below the copy: all bounded, none recursive" \
	"$(jget $j 'sorted(set((f["bounded"], f["recursive"]) for f in j["functions"] if "/" not in f["name"]))')" \
	'[[true, false]]'
expect_eq "below the copy: wake's path goes through the node" \
	"$(jget $j 'fn("wake")["path"]')" \
	"[\"wake\", \"unlock_slow\", \"raise_off\", \"$node\", \"wake\", \"unlock_slow\"]"
expect_eq "below the copy: the node has no frame, marked inlined" \
	"$(jget $j '[(d["self"], d["frame_source"]) for d in fn("raise_off")["path_detail"][1:2]]')" \
	'[[0, "inlined"]]'
expect_eq "below the copy: paths sum to their totals" \
	"$(jget $j '[f["name"] for f in j["functions"] if sum(d["self"] for d in f["path_detail"]) != f["total"]]')" '[]'
expect_eq "below the copy: raise_off calls wake only through the node" \
	"$(jget $j 'sorted(c["name"] for c in fn("raise_off")["calls"])')" \
	"[\"$node\"]"
run_sp --annotate "$ann" $bin $su
expect_rc 0 "below the copy, text"
grep -q "$node .*\\[inlined\\]" "$OUT/stdout" ||
	fail "below the copy, text: no path line marks $node [inlined]"
printf 'ignore unlock_slow raise_off below kick/wakeup_thread\n' >"$ann"
run_sp --json --annotate "$ann" $bin $su
expect_rc 0 "kick's copy"
expect_eq "kick's copy: kick calls wake from outside it too" \
	"$(jget $OUT/stdout 'sorted(c["name"] for c in fn("kick")["calls"])')" \
	'["kick/wakeup_thread", "wake"]'
expect_eq "kick's copy: the cycle through raise_off's copy stays" \
	"$(jget $OUT/stdout '[fn(n)["bounded"] for n in '"$names"']')" \
	'[false, false, false, false, false, false]'

# unless oops: below oops (anywhere) the call happens: oops and main
# unbounded, the rest as before
printf 'ignore unlock_slow raise_off below %s unless oops\n' $node >"$ann"
run_sp --json --annotate "$ann" $bin $su
expect_rc 0 "unless"
expect_eq "unless: [bounded, total] of $names" \
	"$(jget $OUT/stdout '[[fn(n)["bounded"], fn(n)["total"] if fn(n)["bounded"] else None] for n in '"$names"']')" \
	"[[false, null], [true, $kick], [false, null], [true, $wake], [true, $unlock], [true, $raise]]"
expect_eq "unless: oops's reason is the cycle through the copy" \
	"$(jget $OUT/stdout '[r for r in fn("oops")["reasons"] if r.startswith("recursion")]')" \
	"[\"recursion $node -> wake -> unlock_slow -> raise_off -> $node\"]"

# once FUNC/INLINED: the copy is never on the stack twice; below it
# raise_off does not enter it again
raise1=$((R + W + U + R))
unlock1=$((U + raise1)) wake1=$((W + U + raise1))
printf 'once %s\n' $node >"$ann"
run_sp --json --annotate "$ann" $bin $su
expect_rc 0 "once"
expect_eq "once: totals of $names" \
	"$(jget $OUT/stdout '[fn(n)["total"] for n in '"$names"']')" \
	"[$((m + K + wake1)), $((K + wake1)), $((O + wake1)), $wake1, $unlock1, $raise1]"

# bad names: an unknown copy is an error with the line, unless optional
printf '# no such copy\nignore unlock_slow raise_off below raise_off/nosuch\n' >"$ann"
expect_bad "unknown copy" \
	"i.ann:2: no inlined copy of 'nosuch' in 'raise_off'" --annotate "$ann" $bin $su
printf 'ignore unlock_slow raise_off below nosuch/wakeup_thread\n' >"$ann"
expect_bad "unknown function" "i.ann:1: unknown function 'nosuch'" --annotate "$ann" $bin $su
printf 'ignore unlock_slow raise_off below %s unless nosuch\n' $node >"$ann"
expect_bad "unknown unless" "i.ann:1: unknown function 'nosuch'" --annotate "$ann" $bin $su
printf 'ignore unlock_slow raise_off below %s unless\n' $node >"$ann"
expect_bad "unless without a name" \
	"i.ann:1: want 'ignore FUNC CALLEE \[below ANCESTOR \[unless RESET...\] \| from CALLER...\]'" \
	--annotate "$ann" $bin $su
printf 'once wake/wakeup_thread\n' >"$ann"
expect_bad "a copy the function lacks" \
	"i.ann:1: no inlined copy of 'wakeup_thread' in 'wake'" --annotate "$ann" $bin $su
printf 'optional ignore unlock_slow raise_off below raise_off/nosuch\noptional once nosuch/wakeup_thread\nignore unlock_slow raise_off below %s\n' \
	$node >"$ann"
run_sp --json --annotate "$ann" $bin $su
expect_rc 0 "optional lines"
expect_eq "optional lines: the rest applies" "$(jget $OUT/stdout 'fn("main")["total"]')" "$main"
finish
