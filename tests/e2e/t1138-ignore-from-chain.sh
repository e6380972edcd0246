#!/bin/sh
# 'ignore FUNC CALLEE from CALLER CALLER2' on tests/data/annot/fromchain.c:
# a cycle (run -> delay_run -> dispatch -> run) that the flag dispatch()
# passes to run(), and run() passes on to delay_run(), breaks.  Totals
# are summed by hand from the .su rows: dispatch calls a copy of run
# that calls a copy of delay_run that only queues; main's run still
# dispatches.  The program runs that path (main -> run -> delay_run ->
# dispatch -> run -> delay_run -> queue_work) and checks the count of
# queued runs.  Then a second line for the same chain, the wrong chain,
# a missing link, a copied caller that is counted, and the syntax.
. tests/e2e/lib.sh

[ "$(uname -m)" = x86_64 ] || skip "x86-64 only (the red-zone check reads x86-64 code)"
annot_sample fromchain main run delay_run dispatch
"$bin" || fail "fromchain exits $?"
m=$(su_self $su main) R=$(su_self $su run) D=$(su_self $su delay_run)
P=$(su_self $su dispatch) Q=$(su_self $su queue_work)
expect_eq "queue_work's red zone" "$(red_zone "$bin" queue_work)" 0
cycle='["delay_run", "dispatch", "run"]'

run_sp --json $bin $su
expect_rc 0 "plain"
expect_eq "plain: the cycle" \
	"$(jget $OUT/stdout 'sorted(f["name"] for f in j["functions"] if f["recursive"])')" "$cycle"

# dispatch's run -> its delay_run -> queue_work; main's run -> delay_run
# -> dispatch -> (that run)
dispatch=$((P + R + D + Q)) delay=$((D + P + R + D + Q))
run=$((R + delay)) main=$((m + R + delay))
ann=$OUT/c.ann
printf '# a run from dispatch is async\nignore delay_run dispatch from run dispatch\n' >"$ann"
run_sp --json --annotate "$ann" $bin $su
expect_rc 0 "from run dispatch"
cp "$OUT/stdout" "$OUT/chain.json"
j=$OUT/chain.json
expect_eq "from run dispatch: totals of main, dispatch" \
	"$(jget $j '[fn(n)["total"] for n in ["main", "dispatch"]]')" "[$main, $dispatch]"
expect_eq "from run dispatch: two runs, dispatch's copy and main's" \
	"$(jget $j 'sorted(f["total"] for f in fns("run"))')" "[$((R + D + Q)), $run]"
expect_eq "from run dispatch: two delay_runs, the copy only queues" \
	"$(jget $j 'sorted([f["total"], sorted(c["name"] for c in f["calls"])] for f in fns("delay_run"))')" \
	"[[$((D + Q)), [\"queue_work\"]], [$delay, [\"dispatch\", \"queue_work\"]]]"
expect_eq "from run dispatch: dispatch's run calls the copy" \
	"$(jget $j '(lambda by: [by[c["id"]]["total"] for c in by[[c["id"] for c in fn("dispatch")["calls"]][0]]["calls"]])({f["id"]: f for f in j["functions"]})')" \
	"[$((D + Q))]"
expect_eq "from run dispatch: all bounded, none recursive" \
	"$(jget $j 'sorted(set((f["bounded"], f["recursive"]) for f in j["functions"]))')" '[[true, false]]'
expect_eq "from run dispatch: main's path runs the cycle once" \
	"$(jget $j 'fn("main")["path"]')" \
	'["main", "run", "delay_run", "dispatch", "run", "delay_run", "queue_work"]'
expect_eq "from run dispatch: paths sum to their totals" \
	"$(jget $j '[f["name"] for f in j["functions"] if sum(d["self"] for d in f["path_detail"]) != f["total"]]')" '[]'

# a second line for the same chain changes those copies: no new ones
printf 'ignore delay_run dispatch from run dispatch\nignore delay_run queue_work from run dispatch\n' >"$ann"
run_sp --json --annotate "$ann" $bin $su
expect_rc 0 "two lines"
expect_eq "two lines: two runs, two delay_runs, dispatch's total" \
	"$(jget $OUT/stdout '[len(fns("run")), len(fns("delay_run")), fn("dispatch")["total"]]')" \
	"[2, 2, $((P + R + D))]"

# the wrong chain: main's run loses the dispatch, dispatch's keeps it
printf 'ignore delay_run dispatch from run main\n' >"$ann"
run_sp --json --annotate "$ann" $bin $su
expect_rc 0 "from run main"
expect_eq "from run main: the cycle stays" \
	"$(jget $OUT/stdout 'sorted(set(f["name"] for f in j["functions"] if f["recursive"]))')" "$cycle"

# errors: a missing link, the syntax; a counted caller's copy
printf 'ignore delay_run dispatch from run queue_work\n' >"$ann"
expect_bad "not a caller" "c.ann:1: no call from 'queue_work' to 'run'" --annotate "$ann" $bin $su
printf 'optional ignore delay_run dispatch from run queue_work\n' >"$ann"
run_sp --json --annotate "$ann" $bin $su
expect_rc 0 "optional, not a caller"
expect_eq "optional, not a caller: skipped" \
	"$(jget $OUT/stdout '[len(fns("run")), len(fns("delay_run"))]')" '[1, 1]'
# a counted caller's copy is counted as it: dispatch's run is an
# activation of run, cut below main's
printf 'ignore delay_run dispatch from run dispatch\nonce run\n' >"$ann"
run_sp --json --annotate "$ann" $bin $su
expect_rc 0 "once"
expect_eq "once: main, both runs" \
	"$(jget $OUT/stdout '[fn("main")["total"], sorted(f["total"] for f in fns("run"))]')" \
	"[$((m + R + D + P)), [$((R + D + Q)), $((R + D + P))]]"
printf 'ignore delay_run dispatch from\n' >"$ann"
expect_bad "no caller" "c.ann:1: want 'ignore FUNC CALLEE \[below ANCESTOR \[unless RESET...\] \| from CALLER...\]'" \
	--annotate "$ann" $bin $su
finish
