#!/bin/sh
# 'ignore FUNC CALLEE from CALLER ... FUNC CALLER_N' whose chain runs
# through FUNC itself, on tests/data/annot/fromself.c (the kernel's
# kfree -> __kmem_cache_free -> __slab_free -> [put_cpu_partial ->
# __unfreeze_partials ->] discard_slab -> __free_slab -> kfree of the
# slab's vector, whose slab has none: linux.ann): release -> put_slab ->
# [drain ->] drop_slab -> release, where the release() two rounds down
# gets NULL.  One line per route, the second sharing the copies the
# first made.  Totals are summed by hand from the .su rows: three
# releases on a stack (the object's, the vector's, the NULL one), the
# last a leaf.  The program runs that path (main -> release -> put_slab
# -> drop_slab -> release -> put_slab -> drain -> drop_slab -> release)
# and checks the counts of releases and drops.  Then a chain whose link
# is an inlined copy's node.
. tests/e2e/lib.sh

[ "$(uname -m)" = x86_64 ] || skip "x86-64 only (the red-zone check reads x86-64 code)"
annot_sample fromself main release put_slab drain drop_slab
"$bin" || fail "fromself exits $?"
m=$(su_self $su main) R=$(su_self $su release) P=$(su_self $su put_slab)
Dr=$(su_self $su drain) D=$(su_self $su drop_slab)
cycle='["drain", "drop_slab", "put_slab", "release"]'

run_sp --json $bin $su
expect_rc 0 "plain"
expect_eq "plain: the cycle" \
	"$(jget $OUT/stdout 'sorted(f["name"] for f in j["functions"] if f["recursive"])')" "$cycle"

ann=$OUT/c.ann
line1='ignore release put_slab from drop_slab put_slab release drop_slab'
line2='ignore release put_slab from drop_slab drain put_slab release drop_slab'

# one route cut: the other (through drain) is still a cycle
printf '%s\n' "$line1" >"$ann"
run_sp --json --annotate "$ann" $bin $su
expect_rc 0 "one route"
expect_eq "one route: main unbounded, drain still in a cycle" \
	"$(jget $OUT/stdout '[fn("main")["total"], "drain" in [f["name"] for f in j["functions"] if f["recursive"]]]')" \
	'[null, true]'

# both routes: the vector's release (a copy) calls put_slab's copy,
# whose drop_slab and drain's drop_slab call releases that only return
printf '%s\n%s\n' "$line1" "$line2" >"$ann"
run_sp --json --annotate "$ann" $bin $su
expect_rc 0 "both routes"
j=$OUT/both.json
cp "$OUT/stdout" $j
vec=$((2 * R + P + Dr + D))
drop=$((D + vec)) put=$((P + Dr + drop)) rel=$((R + put))
expect_eq "both routes: main, release, put_slab, drop_slab" \
	"$(jget $j '[fn("main")["total"]] + [max(f["total"] for f in fns(n)) for n in ["release", "put_slab", "drop_slab"]]')" \
	"[$((m + rel)), $rel, $put, $drop]"
expect_eq "both routes: the releases (the leaves, the vector's, the object's)" \
	"$(jget $j 'sorted(f["total"] for f in fns("release"))')" "[$R, $R, $vec, $rel]"
expect_eq "both routes: the leaves call nothing" \
	"$(jget $j 'sorted(len(f["calls"]) for f in fns("release"))')" "[0, 0, 1, 1]"
expect_eq "both routes: copies of put_slab, drain, drop_slab" \
	"$(jget $j '[len(fns(n)) for n in ["put_slab", "drain", "drop_slab"]]')" '[2, 2, 3]'
expect_eq "both routes: all bounded, none recursive" \
	"$(jget $j 'sorted(set((f["bounded"], f["recursive"]) for f in j["functions"]))')" '[[true, false]]'
expect_eq "both routes: main's path, three releases" \
	"$(jget $j 'fn("main")["path"]')" \
	'["main", "release", "put_slab", "drain", "drop_slab", "release", "put_slab", "drain", "drop_slab", "release"]'
expect_eq "both routes: paths sum to their totals" \
	"$(jget $j '[f["name"] for f in j["functions"] if sum(d["self"] for d in f["path_detail"]) != f["total"]]')" '[]'

# the copies are release's for a count: three on a stack, so 'nest
# release 2' cuts the leaf below the vector's (its frame, R)
printf '%s\n%s\nnest release 2\n' "$line1" "$line2" >"$ann"
run_sp --json --annotate "$ann" $bin $su
expect_rc 0 "nest 2"
expect_eq "nest 2: main" "$(jget $OUT/stdout 'fn("main")["total"]')" "$((m + rel - R))"

# a link of the chain may be an inlined copy's node (linux.ann's
# 'ignore try_to_wake_up __rcu_read_unlock from wake_up_process
# raise_softirq_irqoff/wakeup_softirqd'), on tests/data/annot/inlined.c
# (t1136): wake -> unlock_slow -> raise_off -> [wakeup_thread, inlined]
# -> wake; the unlock_slow of the wake that the node calls raises
# nothing.  Totals as t1136's 'below the copy', by hand.
annot_sample inlined main wake unlock_slow raise_off kick oops
m=$(su_self $su main) W=$(su_self $su wake) U=$(su_self $su unlock_slow)
R=$(su_self $su raise_off) K=$(su_self $su kick) O=$(su_self $su oops)
node=raise_off/wakeup_thread
printf 'ignore unlock_slow raise_off from wake %s\n' $node >"$ann"
run_sp --json --annotate "$ann" $bin $su
expect_rc 0 "inlined link"
raise=$((R + W + U)) unlock=$((U + R + W + U))
wake=$((W + unlock)) kick=$((K + wake)) oops=$((O + wake))
main=$((m + $(printf '%s\n' $wake $raise $kick $oops | sort -n | tail -1)))
expect_eq "inlined link: totals of main, kick, oops, wake, unlock_slow, raise_off" \
	"$(jget $OUT/stdout '[max(f["total"] for f in fns(n)) for n in ["main", "kick", "oops", "wake", "unlock_slow", "raise_off"]]')" \
	"[$main, $kick, $oops, $wake, $unlock, $raise]"
expect_eq "inlined link: the node's wake and its unlock_slow are copies" \
	"$(jget $OUT/stdout '[sorted(f["total"] for f in fns(n)) for n in ["wake", "unlock_slow"]]')" \
	"[[$((W + U)), $wake], [$U, $unlock]]"
expect_eq "inlined link: oops's path" "$(jget $OUT/stdout 'fn("oops")["path"]')" \
	"[\"oops\", \"wake\", \"unlock_slow\", \"raise_off\", \"$node\", \"wake\", \"unlock_slow\"]"

# two lines that name the same copy share its node (one request per
# FUNC/INLINED, however many lines give it)
printf 'ignore unlock_slow raise_off from wake %s\nignore unlock_slow raise_off below %s\n' $node $node >"$ann"
run_sp --json --annotate "$ann" $bin $su
expect_rc 0 "named twice"
expect_eq "named twice: raise_off calls one node" \
	"$(jget $OUT/stdout '[c["name"] for c in fn("raise_off")["calls"]]')" "[\"$node\"]"
expect_eq "named twice: totals as with the from line alone" \
	"$(jget $OUT/stdout '[max(f["total"] for f in fns(n)) for n in ["main", "kick", "oops", "wake", "unlock_slow", "raise_off"]]')" \
	"[$main, $kick, $oops, $wake, $unlock, $raise]"
finish
