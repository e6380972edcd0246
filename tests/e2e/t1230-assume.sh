#!/bin/sh
# 'assume': a recursion that only run-time values bound, on
# tests/data/annot/objcg.c (the slab's objcg vector in small: kfree ->
# free_slab -> free_vector -> kfree).  Without a line kfree's cycle is
# unbounded; 'assume nest kfree 2' bounds it as 'nest kfree 2' does, by
# the sum of the .su rows (each frame of the cycle twice, then what the
# innermost free_vector calls but kfree: uncharge -> touch), but every
# total that reaches kfree is marked assumed ('~', "assumed": true, a
# reason naming FILE:LINE and the line); alloc_fast, which never
# reaches kfree, keeps its total unmarked.  Then the other directives,
# the prefix orders and the errors.
. tests/e2e/lib.sh

[ "$(uname -m)" = x86_64 ] || skip "x86-64 only (the red-zone check reads x86-64 code)"
annot_sample objcg main kfree free_slab free_vector uncharge touch alloc_fast refill
m=$(su_self $su main) k=$(su_self $su kfree) s=$(su_self $su free_slab)
v=$(su_self $su free_vector) u=$(su_self $su uncharge) t=$(su_self $su touch)
a=$(su_self $su alloc_fast) r=$(su_self $su refill)
max() { [ "$1" -gt "$2" ] && echo "$1" || echo "$2"; }
# kfree at most twice: the cycle's frames twice, then uncharge -> touch
kfree=$((2 * (k + s + v) + u + t))
alloc=$((a + r + t))
main=$((m + $(max $kfree $alloc)))

run_sp --json $bin $su
expect_rc 0 "plain"
cp "$OUT/stdout" "$OUT/plain.json"
expect_eq "plain: kfree and main unbounded" \
	"$(jget $OUT/plain.json '[fn(n)["bounded"] for n in ["kfree", "main", "alloc_fast"]]')" \
	'[false, false, true]'
expect_eq "plain: alloc_fast" "$(jget $OUT/plain.json 'fn("alloc_fast")["total"]')" "$alloc"

ann=$OUT/objcg.ann
printf '# the vector'"'"'s own slab has no vector\n\nassume nest kfree 2   # run-time\n' >"$ann"
run_sp --json --annotate "$ann" $bin $su
expect_rc 0 "assume nest"
cp "$OUT/stdout" "$OUT/assume.json"
j=$OUT/assume.json
expect_eq "assume: totals of kfree, main, alloc_fast" \
	"$(jget $j '[fn(n)["total"] for n in ["kfree", "main", "alloc_fast"]]')" \
	"[$kfree, $main, $alloc]"
expect_eq "assume: kfree, main assumed; alloc_fast, refill not" \
	"$(jget $j '[fn(n)["assumed"] for n in ["kfree", "free_slab", "main", "alloc_fast", "refill"]]')" \
	'[true, true, true, false, false]'
reason="assumed by annotation: $ann:3: nest kfree 2"
expect_eq "assume: main's reasons" "$(jget $j 'fn("main")["reasons"]')" \
	"[\"recursion kfree -> free_slab -> free_vector -> kfree bounded by annotation: kfree at most 2 deep\", \"$reason\"]"
expect_eq "assume: alloc_fast's reasons" "$(jget $j 'fn("alloc_fast")["reasons"]')" '[]'
run_sp --annotate "$ann" $bin $su
cp "$OUT/stdout" "$OUT/assume.txt"
grep -Eq "^ +~ $main +$m +static +main " "$OUT/assume.txt" || fail "text: main not '~ $main'"
grep -Eq "^ +$alloc +$a +static +alloc_fast " "$OUT/assume.txt" || fail "text: alloc_fast not '$alloc'"
grep -q "^  '~ N'  bounded by assumption: an 'assume' annotation line" "$OUT/assume.txt" ||
	fail "text: the legend of '~'"
run_sp --annotate "$ann" --entry main $bin $su
cp "$OUT/stdout" "$OUT/main.txt"
grep -qx "#1 main: $main bytes, assuming annotated run-time bounds" "$OUT/main.txt" ||
	fail "text: main's heading"
grep -qxF "    reason: $reason" "$OUT/main.txt" || fail "text: main's reason"

# the same line without 'assume': the same totals, nothing assumed
printf 'nest kfree 2\n' >"$OUT/fact.ann"
run_sp --json --annotate "$OUT/fact.ann" $bin $su
expect_rc 0 "nest, no assume"
expect_eq "fact: the same totals" "$(jget $OUT/stdout '[[f["name"], f["total"]] for f in j["functions"]]')" \
	"$(jget $j '[[f["name"], f["total"]] for f in j["functions"]]')"
expect_eq "fact: nothing assumed" "$(jget $OUT/stdout '[f["name"] for f in j["functions"] if f["assumed"]]')" '[]'

# both prefix orders, with 'optional': the same report
for pre in "optional assume" "assume optional"; do
	printf '%s nest kfree 2\n%s once nosuch\n' "$pre" "$pre" >"$OUT/order.ann"
	run_sp --json --annotate "$OUT/order.ann" $bin $su
	expect_rc 0 "$pre"
	expect_eq "$pre: totals and marks" \
		"$(jget $OUT/stdout '[[f["name"], f["total"], f["assumed"]] for f in j["functions"]]')" \
		"$(jget $j '[[f["name"], f["total"], f["assumed"]] for f in j["functions"]]')"
	expect_eq "$pre: the reason quotes the directive" \
		"$(jget $OUT/stdout 'fn("kfree")["reasons"][1]')" "\"assumed by annotation: $OUT/order.ann:1: nest kfree 2\""
done

# ignore: FUNC (free_vector) rests on it, and what reaches it; a 'from'
# copy: main calls a copy of kfree without its call of free_slab, which
# main rests on, while kfree itself stays unbounded
printf 'assume ignore free_vector kfree\n' >"$OUT/ignore.ann"
run_sp --json --annotate "$OUT/ignore.ann" $bin $su
expect_eq "ignore: totals" "$(jget $OUT/stdout '[fn(n)["total"] for n in ["kfree", "main"]]')" \
	"[$((k + s + v + u + t)), $((m + $(max $((k + s + v + u + t)) $alloc)))]"
expect_eq "ignore: marks" \
	"$(jget $OUT/stdout '[fn(n)["assumed"] for n in ["free_vector", "kfree", "uncharge", "alloc_fast"]]')" \
	'[true, true, false, false]'
printf 'assume ignore kfree free_slab from main\n' >"$OUT/from.ann"
run_sp --json --annotate "$OUT/from.ann" $bin $su
expect_eq "from: main bounded and assumed, kfree unbounded" \
	"$(jget $OUT/stdout '[fn("main")["total"], fn("main")["assumed"], sorted(f["bounded"] for f in fns("kfree"))]')" \
	"[$((m + $(max $((k + t)) $alloc))), true, [false, true]]"
expect_eq "from: main's reason" "$(jget $OUT/stdout 'fn("main")["reasons"]')" \
	"[\"assumed by annotation: $OUT/from.ann:1: ignore kfree free_slab from main\"]"

# the shipped file, found by name from the build tree: its kfree line
# applies here too (objcg's kfree is the kernel's in small)
line=$(grep -n '^optional assume nest kfree [0-9]*$' annotations/linux-assumed.ann)
depth=${line##* } lineno=${line%%:*}
[ -n "$lineno" ] || fail "linux-assumed.ann has no kfree line"
run_sp --json --annotate linux-assumed $bin $su
expect_rc 0 "--annotate linux-assumed"
expect_eq "linux-assumed: kfree's total and mark" \
	"$(jget $OUT/stdout '[fn("kfree")["total"], fn("kfree")["assumed"], fn("alloc_fast")["assumed"]]')" \
	"[$((depth * (k + s + v) + u + t)), true, false]"
expect_eq "linux-assumed: the reason names the shipped file's line" \
	"$(jget $OUT/stdout 'fn("kfree")["reasons"][1]')" \
	"\"assumed by annotation: $PWD/annotations/linux-assumed.ann:$lineno: nest kfree $depth\""
# every directive of it is an optional assumption under a comment
awk '/^[ \t]*#/ || /^[ \t]*$/ { if (/#/) commented = 1; else commented = 0; next }
     { if (!commented || !(($1 == "optional" && $2 == "assume") || ($1 == "assume" && $2 == "optional")))
	 print FILENAME ":" NR ": " $0 }' annotations/linux-assumed.ann >"$OUT/unmarked"
[ -s "$OUT/unmarked" ] && fail "linux-assumed.ann lines not 'optional assume' under a comment: $(cat "$OUT/unmarked")"
# installed beside linux.ann, found from the installed binary
root=$(mktemp -d /tmp/stackprof-t1230.XXXXXX)
MAKEFLAGS= make -s --no-print-directory install DESTDIR="$root" PREFIX=/usr >"$OUT/install.log" 2>&1 ||
	fail "make install: $(cat "$OUT/install.log")"
cmp -s annotations/linux-assumed.ann "$root/usr/share/stackprof/linux-assumed.ann" ||
	fail "linux-assumed.ann not installed"
"$root/usr/bin/stackprof" --json --annotate linux-assumed $bin $su >"$OUT/installed.json" 2>"$OUT/installed.err" ||
	fail "installed --annotate linux-assumed: $(cat "$OUT/installed.err")"
expect_eq "installed: kfree assumed" "$(jget $OUT/installed.json 'fn("kfree")["assumed"]')" true
MAKEFLAGS= make -s --no-print-directory uninstall DESTDIR="$root" PREFIX=/usr >>"$OUT/install.log" 2>&1
[ -e "$root/usr/share/stackprof/linux-assumed.ann" ] && fail "make uninstall left linux-assumed.ann"
rm -rf "$root"

# -v says how many lines applied and how many totals rest on them
# (kfree, free_slab, free_vector, main, all bounded)
run_sp -v --annotate "$ann" $bin $su
grep -qx "stackprof: assume: 1 line applied; 4 totals rest on them, 4 of them bounded" "$OUT/stderr" ||
	fail "-v: $(grep assume: "$OUT/stderr")"

# two lines on two functions: main rests on both, one reason each;
# kfree on the first only, alloc_fast on the second only
printf 'assume nest kfree 2\nassume frame refill 8\n' >"$OUT/two.ann"
run_sp --json --annotate "$OUT/two.ann" $bin $su
expect_eq "two lines: main's reasons" "$(jget $OUT/stdout '[x for x in fn("main")["reasons"] if x.startswith("assumed")]')" \
	"[\"assumed by annotation: $OUT/two.ann:1: nest kfree 2\", \"assumed by annotation: $OUT/two.ann:2: frame refill 8\"]"
expect_eq "two lines: kfree's and alloc_fast's" \
	"$(jget $OUT/stdout '[[x for x in fn(n)["reasons"] if x.startswith("assumed")] for n in ["kfree", "alloc_fast"]]')" \
	"[[\"assumed by annotation: $OUT/two.ann:1: nest kfree 2\"], [\"assumed by annotation: $OUT/two.ann:2: frame refill 8\"]]"
expect_eq "two lines: alloc_fast's total" "$(jget $OUT/stdout 'fn("alloc_fast")["total"]')" "$((a + 8 + t))"
run_sp --annotate "$OUT/two.ann" --entry main $bin $su
grep -c "^    reason: assumed by annotation: " "$OUT/stdout" >"$OUT/count"
expect_eq "two lines: text, one reason each" "$(cat "$OUT/count")" 2

# errors: one line, FILE:LINE, exit 2
printf 'assume\n' >"$OUT/bad.ann"
expect_bad "assume alone" "bad.ann:1: want 'assume DIRECTIVE ...'" --annotate "$OUT/bad.ann" $bin $su
printf '# x\nassume optional assume nest kfree 2\n' >"$OUT/bad.ann"
expect_bad "assume twice" "bad.ann:2: 'assume' given twice" --annotate "$OUT/bad.ann" $bin $su
printf 'assume nest kfree\n' >"$OUT/bad.ann"
expect_bad "assume nest without depth" "bad.ann:1: want 'assume nest FUNC DEPTH" --annotate "$OUT/bad.ann" $bin $su
printf 'assume nest nosuch 2\n' >"$OUT/bad.ann"
expect_bad "assume: unknown name" "bad.ann:1: unknown function 'nosuch'" --annotate "$OUT/bad.ann" $bin $su
finish
