#!/bin/sh
# once and nest on tests/data/annot/kcycles.c, the kernel's bounded cycles
# in small: main -> printk -> store -> printk ...; store -> chk_fail ->
# panic -> printk.  'once chk_fail' (the stack protector's failure path)
# and 'nest store 3' (a recursion counter that lets two bodies through and
# stops the third call at its check).  Totals are summed by hand from the
# .su rows, context by context (below); then errors, optional lines, and
# the shipped Linux file: found from the build tree and once installed.
. tests/e2e/lib.sh

[ "$(uname -m)" = x86_64 ] || skip "x86-64 only (the red-zone check reads x86-64 code)"
annot_sample kcycles main printk store chk_fail panic
m=$(su_self $su main) p=$(su_self $su printk) s=$(su_self $su store)
c=$(su_self $su chk_fail) P=$(su_self $su panic)

# without annotations all but main are one cycle, and all are unbounded
run_sp --json $bin $su
expect_rc 0 "plain"
cp "$OUT/stdout" "$OUT/plain.json"
expect_eq "plain: one cycle" \
	"$(jget $OUT/plain.json 'sorted(f["name"] for f in j["functions"] if f["recursive"])')" \
	'["chk_fail", "panic", "printk", "store"]'
expect_eq "plain: unbounded" "$(jget $OUT/plain.json '[f["bounded"] for f in j["functions"]]')" \
	'[false, false, false, false, false]'

# store entered with k activations on the stack and chk_fail on it (f = 1)
# or not: A(k, f) = s + max(p + A(k + 1, f), chk_fail's B(k) when f = 0),
# where A(4, f) is cut (printk alone) and B(k) = c + P + p + A(k + 1, 1).
A31=$((s + p)); A21=$((s + p + A31)); A11=$((s + p + A21))
B3=$((c + P + p)); B2=$((c + P + p + A31)); B1=$((c + P + p + A21)); B0=$((c + P + p + A11))
max() { [ "$1" -gt "$2" ] && echo "$1" || echo "$2"; }
A30=$((s + $(max $p $B3)))
A20=$((s + $(max $((p + A30)) $B2)))
A10=$((s + $(max $((p + A20)) $B1)))
store=$A10 chk=$B0 printk=$((p + A10))
panic=$((P + printk)) main=$((m + $(max $printk $chk)))

ann=$OUT/k.ann
printf '# kcycles\nonce chk_fail\nnest store 3\n' >"$ann"
run_sp --json --annotate "$ann" $bin $su
expect_rc 0 "once + nest"
cp "$OUT/stdout" "$OUT/k.json"
j=$OUT/k.json
expect_eq "totals of store, chk_fail, printk, panic, main" \
	"$(jget $j '[fn(n)["total"] for n in ["store", "chk_fail", "printk", "panic", "main"]]')" \
	"[$store, $chk, $printk, $panic, $main]"
expect_eq "all bounded, none recursive" \
	"$(jget $j 'sorted(set((f["bounded"], f["recursive"]) for f in j["functions"]))')" '[[true, false]]'
# each path is real: chk_fail at most once, store at most 3 deep
expect_eq "chk_fail's path" "$(jget $j 'fn("chk_fail")["path"]')" \
	'["chk_fail", "panic", "printk", "store", "printk", "store", "printk", "store", "printk"]'
expect_eq "paths sum to their totals" \
	"$(jget $j '[f["name"] for f in j["functions"] if sum(d["self"] for d in f["path_detail"]) != f["total"]]')" '[]'
expect_eq "paths keep the counts" \
	"$(jget $j '[f["name"] for f in j["functions"] if f["path"].count("chk_fail") > 1 or f["path"].count("store") > 3]')" '[]'
expect_eq "chk_fail's reason" "$(jget $j 'fn("chk_fail")["reasons"]')" \
	'["recursion chk_fail -> panic -> printk -> store -> chk_fail bounded by annotation: chk_fail at most once on a stack"]'
run_sp --annotate "$ann" --entry store $bin $su
grep -qx '    reason: recursion store -> printk -> store bounded by annotation: store at most 3 deep' \
	"$OUT/stdout" || fail "text: store's reason"

# once alone: store's own cycle stays, unbounded, and says so
printf 'once chk_fail\n' >"$ann"
run_sp --json --annotate "$ann" $bin $su
expect_rc 0 "once alone"
cp "$OUT/stdout" "$OUT/once.json"
expect_eq "once alone: store recursive" \
	"$(jget $OUT/once.json '[fn("store")["recursive"], fn("store")["bounded"], fn("chk_fail")["recursive"]]')" \
	'[true, false, false]'
expect_eq "once alone: chk_fail unbounded by store" "$(jget $OUT/once.json 'fn("chk_fail")["reasons"]')" \
	'["recursion printk -> store -> printk", "recursion chk_fail -> panic -> printk -> store -> chk_fail bounded by annotation: chk_fail at most once on a stack"]'

# errors in the existing style; optional lines skip unknown names
printf 'once chk_fail\nonce nosuch\n' >"$ann"
expect_bad "once: unknown name" "k.ann:2: unknown function 'nosuch'" --annotate "$ann" $bin $su
printf 'nest store 0\n' >"$ann"
expect_bad "nest: depth 0" "k.ann:1: invalid nest depth '0' \(1 to 4096\)" --annotate "$ann" $bin $su
printf 'once chk_fail 2\n' >"$ann"
expect_bad "once: extra word" "k.ann:1: want 'once FUNC'" --annotate "$ann" $bin $su
printf 'optional once nosuch\noptional ignore main store\nonce chk_fail\nnest store 3\n' >"$ann"
run_sp --json --annotate "$ann" $bin $su
expect_rc 0 "optional lines"
expect_eq "optional lines: the rest applies" "$(jget $OUT/stdout 'fn("main")["total"]')" "$main"

# the shipped file: every directive has its comment, and is optional (a
# kernel's configuration decides which functions exist)
awk '/^[ \t]*#/ || /^[ \t]*$/ { if (/#/) commented = 1; else commented = 0; next }
     { if (!commented || $1 != "optional" || ($2 != "once" && $2 != "nest" && $2 != "ignore" && $2 != "calls")) print FILENAME ":" NR ": " $0 }' \
	annotations/linux.ann >"$OUT/uncommented"
[ -s "$OUT/uncommented" ] && fail "linux.ann lines without a comment block: $(cat "$OUT/uncommented")"
# found by name from the build tree; it names no function of kcycles
run_sp --json --annotate linux $bin $su
expect_rc 0 "--annotate linux"
expect_eq "--annotate linux: nothing of it applies here" \
	"$(jget $OUT/stdout '[f["lower_bound"] for f in j["functions"]]')" \
	"$(jget $OUT/plain.json '[f["lower_bound"] for f in j["functions"]]')"
expect_bad "an unknown shipped name" "no annotation file 'nosuch': not a file, and no '.*/annotations/nosuch.ann'" \
	--annotate nosuch $bin $su
# a file of that name wins over the shipped one
printf 'once chk_fail\nnest store 3\n' >"$OUT/linux"
(cd "$OUT" && "$OLDPWD/$SP" --json --annotate linux kcycles kcycles.su >linux.json 2>linux.err) ||
	fail "--annotate linux with a file named linux: $(cat "$OUT/linux.err")"
expect_eq "a file named linux wins" "$(jget $OUT/linux.json 'fn("main")["total"]')" "$main"
check_json "$OUT/linux.json"

# installed: PREFIX/share/stackprof/linux.ann, found beside the binary
# (outside the source tree, so the build tree's copy is not used)
root=$(mktemp -d /tmp/stackprof-t1130.XXXXXX)
MAKEFLAGS= make -s --no-print-directory install DESTDIR="$root" PREFIX=/usr >"$OUT/install.log" 2>&1 ||
	fail "make install: $(cat "$OUT/install.log")"
cmp -s annotations/linux.ann "$root/usr/share/stackprof/linux.ann" || fail "linux.ann not installed"
"$root/usr/bin/stackprof" --json --annotate linux $bin $su >"$OUT/installed.json" 2>"$OUT/installed.err" ||
	fail "installed --annotate linux: $(cat "$OUT/installed.err")"
check_json "$OUT/installed.json"
"$root/usr/bin/stackprof" --annotate nosuch $bin $su 2>"$OUT/installed.err"
grep -q "no '$root/usr/bin/../share/stackprof/nosuch.ann'" "$OUT/installed.err" ||
	fail "installed: the message names '$(cat "$OUT/installed.err")'"
MAKEFLAGS= make -s --no-print-directory uninstall DESTDIR="$root" PREFIX=/usr >>"$OUT/install.log" 2>&1
[ -e "$root/usr/share/stackprof/linux.ann" ] && fail "make uninstall left linux.ann"
rm -rf "$root"
finish
