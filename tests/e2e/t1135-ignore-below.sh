#!/bin/sh
# 'ignore FUNC CALLEE below ANCESTOR' on tests/data/annot/errpath.c: a
# cycle that only an error path closes (lock -> panic -> unblank ->
# lock), bounded by a state panic() sets for everything below it
# (unblank only tries the lock).  Totals are summed by hand from the .su
# rows: below panic, unblank is its own frame; elsewhere it takes the
# lock, whose error path runs panic.  Then the same line with the wrong
# ancestor (only emit's total is bounded, by the cut below emit), the
# line without 'below' (unsound here, and its smaller total shows what
# 'below' keeps), and the syntax errors.
. tests/e2e/lib.sh

[ "$(uname -m)" = x86_64 ] || skip "x86-64 only (the red-zone check reads x86-64 code)"
annot_sample errpath main panic lock unblank emit
m=$(su_self $su main) P=$(su_self $su panic) L=$(su_self $su lock)
u=$(su_self $su unblank) e=$(su_self $su emit)
names='["main", "emit", "unblank", "lock", "panic"]'

run_sp --json $bin $su
expect_rc 0 "plain"
cp "$OUT/stdout" "$OUT/plain.json"
expect_eq "plain: the cycle" \
	"$(jget $OUT/plain.json 'sorted(f["name"] for f in j["functions"] if f["recursive"])')" \
	'["lock", "panic", "unblank"]'
expect_eq "plain: all unbounded" \
	"$(jget $OUT/plain.json '[fn(n)["bounded"] for n in '"$names"']')" \
	'[false, false, false, false, false]'

# below panic: unblank = u; panic = P + u; lock = L + panic; elsewhere
# unblank = u + lock; emit = e + lock; main = m + the largest of its calls
panic=$((P + u)) lock=$((L + P + u))
unblank=$((u + lock)) emit=$((e + lock))
max=$unblank
[ $emit -gt $max ] && max=$emit
[ $panic -gt $max ] && max=$panic
main=$((m + max))
ann=$OUT/e.ann
printf '# below panic, unblank only tries the lock\nignore unblank lock below panic\n' >"$ann"
run_sp --json --annotate "$ann" $bin $su
expect_rc 0 "below panic"
cp "$OUT/stdout" "$OUT/below.json"
j=$OUT/below.json
expect_eq "below panic: totals of $names" \
	"$(jget $j '[fn(n)["total"] for n in '"$names"']')" \
	"[$main, $emit, $unblank, $lock, $panic]"
expect_eq "below panic: all bounded, none recursive" \
	"$(jget $j 'sorted(set((f["bounded"], f["recursive"]) for f in j["functions"]))')" '[[true, false]]'
expect_eq "below panic: unblank's path takes the lock, then panic's unblank stops" \
	"$(jget $j 'fn("unblank")["path"]')" '["unblank", "lock", "panic", "unblank"]'
expect_eq "below panic: paths sum to their totals" \
	"$(jget $j '[f["name"] for f in j["functions"] if sum(d["self"] for d in f["path_detail"]) != f["total"]]')" '[]'
expect_eq "below panic: no path calls lock below panic" \
	"$(jget $j '[f["name"] for f in j["functions"] if "panic" in f["path"] and "lock" in f["path"][f["path"].index("panic"):]]')" '[]'

# the wrong ancestor: the cycle stays; below emit the call is cut, so
# emit -> lock -> panic -> unblank ends there
printf '# not what bounds it\nignore unblank lock below emit\n' >"$ann"
run_sp --json --annotate "$ann" $bin $su
expect_rc 0 "below emit"
cp "$OUT/stdout" "$OUT/emit.json"
expect_eq "below emit: bounded, recursive of $names" \
	"$(jget $OUT/emit.json '[[fn(n)["bounded"], fn(n)["recursive"]] for n in '"$names"']')" \
	'[[false, false], [true, false], [false, true], [false, true], [false, true]]'
expect_eq "below emit: emit's total" "$(jget $OUT/emit.json 'fn("emit")["total"]')" "$((e + L + P + u))"
expect_eq "below emit: unblank's reason names the cycle" \
	"$(jget $OUT/emit.json '[r for r in fn("unblank")["reasons"] if r.startswith("recursion")]')" \
	'["recursion unblank -> lock -> panic -> unblank"]'

# without 'below' the call is dropped everywhere: unblank alone from main
printf '# everywhere\nignore unblank lock\n' >"$ann"
run_sp --json --annotate "$ann" $bin $su
expect_rc 0 "everywhere"
expect_eq "everywhere: unblank, lock" \
	"$(jget $OUT/stdout '[fn("unblank")["total"], fn("lock")["total"]]')" "[$u, $lock]"

# errors: the syntax, names, and FUNC below itself
printf 'ignore unblank lock above panic\n' >"$ann"
expect_bad "above" "e.ann:1: want 'ignore FUNC CALLEE \[below ANCESTOR \[unless RESET...\] \| from CALLER...\]'" --annotate "$ann" $bin $su
printf 'ignore unblank lock below\n' >"$ann"
expect_bad "no ancestor" "e.ann:1: want 'ignore FUNC CALLEE \[below ANCESTOR \[unless RESET...\] \| from CALLER...\]'" --annotate "$ann" $bin $su
printf 'ignore unblank lock below nosuch\n' >"$ann"
expect_bad "unknown ancestor" "e.ann:1: unknown function 'nosuch'" --annotate "$ann" $bin $su
printf 'ignore unblank emit below panic\n' >"$ann"
expect_bad "no such call" "e.ann:1: no call from 'unblank' to 'emit'" --annotate "$ann" $bin $su
printf 'ignore panic unblank below panic\n' >"$ann"
expect_bad "below itself" "e.ann:1: 'panic' below itself" --annotate "$ann" $bin $su
printf 'optional ignore unblank emit below panic\noptional ignore unblank lock below nosuch\nignore unblank lock below panic\n' >"$ann"
run_sp --json --annotate "$ann" $bin $su
expect_rc 0 "optional lines"
expect_eq "optional lines: the rest applies" "$(jget $OUT/stdout 'fn("main")["total"]')" "$main"
finish
