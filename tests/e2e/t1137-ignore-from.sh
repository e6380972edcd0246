#!/bin/sh
# 'ignore FUNC CALLEE from CALLER' on tests/data/annot/fromarg.c: a cycle
# (stop_queue -> wake -> put -> release -> stop_queue) that the task
# stop_queue() passes to wake() breaks: its put() never drops the last
# reference.  Totals are summed by hand from the .su rows: stop_queue
# calls a copy of wake that only wakes; main's wake still puts and
# releases.  The program runs that path (main -> wake -> put -> release
# -> stop_queue -> wake -> put) and checks the stopper's count.  Then a
# second line for the same caller, the line with the wrong caller, the
# counted functions a copy is counted as, and the syntax (a chain of callers:
# t1138).
. tests/e2e/lib.sh

[ "$(uname -m)" = x86_64 ] || skip "x86-64 only (the red-zone check reads x86-64 code)"
annot_sample fromarg main stop_queue wake put release
"$bin" || fail "fromarg exits $?"
m=$(su_self $su main) S=$(su_self $su stop_queue) W=$(su_self $su wake)
P=$(su_self $su put) R=$(su_self $su release) T=$(su_self $su ttwu)
expect_eq "ttwu's red zone" "$(red_zone "$bin" ttwu)" 0
names='["main", "stop_queue", "put", "release"]'

run_sp --json $bin $su
expect_rc 0 "plain"
expect_eq "plain: the cycle" \
	"$(jget $OUT/stdout 'sorted(f["name"] for f in j["functions"] if f["recursive"])')" \
	'["put", "release", "stop_queue", "wake"]'

# stop_queue's wake only wakes; release = R + stop_queue; put = P +
# release; wake = W + put; main = m + wake
stop=$((S + W + T)) release=$((R + S + W + T))
put=$((P + release)) wake=$((W + P + release)) main=$((m + W + P + release))
ann=$OUT/f.ann
printf '# the stopper is never released\nignore wake put from stop_queue\n' >"$ann"
run_sp --json --annotate "$ann" $bin $su
expect_rc 0 "from stop_queue"
cp "$OUT/stdout" "$OUT/from.json"
j=$OUT/from.json
expect_eq "from stop_queue: totals of $names" \
	"$(jget $j '[fn(n)["total"] for n in '"$names"']')" "[$main, $stop, $put, $release]"
expect_eq "from stop_queue: two wakes, the copy stop_queue calls and main's" \
	"$(jget $j 'sorted([f["total"], [c["name"] for c in f["calls"]]] for f in fns("wake"))')" \
	"[[$((W + T)), [\"ttwu\"]], [$wake, [\"put\", \"ttwu\"]]]"
expect_eq "from stop_queue: all bounded, none recursive" \
	"$(jget $j 'sorted(set((f["bounded"], f["recursive"]) for f in j["functions"]))')" '[[true, false]]'
expect_eq "from stop_queue: main's path runs the cycle once" \
	"$(jget $j 'fn("main")["path"]')" \
	'["main", "wake", "put", "release", "stop_queue", "wake", "ttwu"]'
expect_eq "from stop_queue: paths sum to their totals" \
	"$(jget $j '[f["name"] for f in j["functions"] if sum(d["self"] for d in f["path_detail"]) != f["total"]]')" '[]'

# a second line for the same caller changes that copy: it calls nothing
printf 'ignore wake put from stop_queue\nignore wake ttwu from stop_queue\n' >"$ann"
run_sp --json --annotate "$ann" $bin $su
expect_rc 0 "two lines"
expect_eq "two lines: one copy, stop_queue's total" \
	"$(jget $OUT/stdout '[len(fns("wake")), fn("stop_queue")["total"]]')" "[2, $((S + W))]"

# the wrong caller: main's copy of wake loses put, the cycle stays
printf 'ignore wake put from main\n' >"$ann"
run_sp --json --annotate "$ann" $bin $su
expect_rc 0 "from main"
expect_eq "from main: the cycle stays" \
	"$(jget $OUT/stdout 'sorted(f["name"] for f in j["functions"] if f["recursive"])')" \
	'["put", "release", "stop_queue", "wake"]'

# errors: no such call, the syntax; a counted function's copy
printf 'ignore wake put from release\n' >"$ann"
expect_bad "not a caller" "f.ann:1: no call from 'wake' to 'put' that 'release' calls" --annotate "$ann" $bin $su
printf 'optional ignore wake put from release\n' >"$ann"
run_sp --json --annotate "$ann" $bin $su
expect_rc 0 "optional, not a caller"
expect_eq "optional, not a caller: skipped" "$(jget $OUT/stdout 'len(fns("wake"))')" 1
# a counted function's copy is counted as it: stop_queue's copy of wake
# is an activation of wake, cut below the other wake (main's put has none
# below it); put's release is dropped below either wake
printf 'ignore wake put from stop_queue\nonce wake\n' >"$ann"
run_sp --json --annotate "$ann" $bin $su
expect_rc 0 "once"
expect_eq "once: main, stop_queue, both wakes" \
	"$(jget $OUT/stdout '[fn("main")["total"], fn("stop_queue")["total"], sorted(f["total"] for f in fns("wake"))]')" \
	"[$((m + P + R + S + W + T)), $stop, [$((W + T)), $((W + P + R + S))]]"
printf 'ignore wake put from stop_queue\nignore put release below wake\n' >"$ann"
run_sp --json --annotate "$ann" $bin $su
expect_rc 0 "an ancestor"
expect_eq "an ancestor: put, both wakes" \
	"$(jget $OUT/stdout '[fn("put")["total"], sorted(f["total"] for f in fns("wake"))]')" \
	"[$((P + R + S + W + T)), [$((W + T)), $((W + P))]]"
printf 'ignore wake put from stop_queue main\n' >"$ann"
expect_bad "a chain main does not call" "f.ann:1: no call from 'main' to 'stop_queue'" --annotate "$ann" $bin $su
printf 'ignore wake put from\n' >"$ann"
expect_bad "no caller" "f.ann:1: want 'ignore FUNC CALLEE \[below ANCESTOR \[unless RESET...\] \| from CALLER...\]'" \
	--annotate "$ann" $bin $su
finish
