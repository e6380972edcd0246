#!/bin/sh
# A count on a function that 'ignore ... from' copies
# (tests/data/annot/kvcopy.c, after the kernel's kvfree -> vfree ->
# __vunmap -> kvfree): 'ignore vunmap unmap_aliases from vfree
# fpstate_free' copies vfree and vunmap for fpstate_free, and 'nest
# vunmap 2' counts both vunmaps as one function, so fpstate_free's copy
# is the first of the two on its stacks.  Totals are summed by hand from
# the .su rows; the program runs the cycle once from each caller (two
# vunmaps on the stack) and checks that depth.  Counted apart, the copy
# would allow a third vunmap below fpstate_free: its total says it is not.
. tests/e2e/lib.sh

[ "$(uname -m)" = x86_64 ] || skip "x86-64 only (the red-zone check reads x86-64 code)"
annot_sample kvcopy main kvfree vfree vunmap unmap_aliases fpstate_free
"$bin" || fail "kvcopy exits $?"
m=$(su_self $su main) K=$(su_self $su kvfree) F=$(su_self $su vfree)
V=$(su_self $su vunmap) U=$(su_self $su unmap_aliases) k=$(su_self $su kfree)
S=$(su_self $su fpstate_free)
expect_eq "kfree's red zone" "$(red_zone "$bin" kfree)" 0
max() { [ "$1" -gt "$2" ] && echo "$1" || echo "$2"; }

ann=$OUT/kv.ann
printf 'ignore vunmap unmap_aliases from vfree fpstate_free\n' >"$ann"
run_sp --json --annotate "$ann" $bin $su
expect_rc 0 "copies alone"
expect_eq "copies alone: two vfrees, two vunmaps, fpstate_free reaches the cycle" \
	"$(jget $OUT/stdout '[len(fns("vfree")), len(fns("vunmap")), fn("fpstate_free")["bounded"]]')" \
	'[2, 2, false]'

# kvN: kvfree with N vunmaps on the stack (at two, vfree's is cut)
kv2=$((K + $(max $k $F)))
vu2=$((V + $(max $((U + k)) $kv2)))
kv1=$((K + $(max $k $((F + vu2)))))
vu1=$((V + $(max $((U + k)) $kv1)))
kv0=$((K + $(max $k $((F + vu1)))))
# fpstate_free's vunmap is the first, and never flushes
fp=$((S + F + V + kv1))
main=$((m + $(max $kv0 $fp)))
names='["main", "kvfree", "fpstate_free"]'
totals="[fn(n)[\"total\"] for n in $names] + [sorted(f[\"total\"] for f in fns(\"vunmap\"))]"
exact="[$main, $kv0, $fp, [$((V + kv1)), $vu1]]"
printf 'ignore vunmap unmap_aliases from vfree fpstate_free\nnest vunmap 2\n' >"$ann"
run_sp --json -v --annotate "$ann" $bin $su
expect_rc 0 "nest vunmap 2"
cp "$OUT/stdout" "$OUT/exact.json"
j=$OUT/exact.json
expect_eq "nest vunmap 2: totals of $names, the vunmaps" "$(jget $j "$totals")" "$exact"
expect_eq "nest vunmap 2: all bounded" \
	"$(jget $j 'sorted(set(f["bounded"] for f in j["functions"]))')" '[true]'
expect_eq "nest vunmap 2: fpstate_free's path, two vunmaps" "$(jget $j 'fn("fpstate_free")["path"]')" \
	"$(python3 -c "import json; print(json.dumps(['fpstate_free', 'vfree', 'vunmap', 'kvfree', 'vfree', 'vunmap'] +
	       (['unmap_aliases', 'kfree'] if $((U + k)) > $kv2 else ['kvfree'] + (['vfree'] if $F > $k else ['kfree']))))")"
expect_eq "nest vunmap 2: paths sum to their totals" \
	"$(jget $j '[f["name"] for f in j["functions"] if sum(d["self"] for d in f["path_detail"]) != f["total"]]')" '[]'
grep -qx 'stackprof: once/nest: 2 functions, [0-9]* contexts ([0-9]* solves)' "$OUT/stderr" ||
	fail "nest vunmap 2: -v line: $(grep once/nest "$OUT/stderr")"

# pooled, the one count is the whole budget: the same totals
STACKPROF_NEST_CONTEXTS=1 run_sp --json -v --annotate "$ann" $bin $su
expect_rc 0 "pooled"
expect_eq "pooled: the exact totals" "$(jget $OUT/stdout "$totals")" "$exact"
grep -q 'counted in one budget per cycle, of at most 2 activations' "$OUT/stderr" ||
	fail "pooled: -v line: $(grep once/nest "$OUT/stderr")"

# the count on vfree instead, copied too: the same bound, one function up
printf 'ignore vunmap unmap_aliases from vfree fpstate_free\nnest vfree 2\n' >"$ann"
run_sp --json --annotate "$ann" $bin $su
expect_rc 0 "nest vfree 2"
expect_eq "nest vfree 2: fpstate_free" "$(jget $OUT/stdout 'fn("fpstate_free")["total"]')" \
	"$((S + F + V + K + F + V + $(max $((U + k)) $((K + k)))))"
finish
