#!/bin/sh
# DWARF with a reference cycle or out-of-range offsets (the table of
# doc/robustness.md): tests/e2e/dwarf_mutate.py edits one kind of
# reference in the assembly GCC writes of tests/data/dwarf/refs.c, which
# is then assembled and linked.  Within 30 s, each is either bad input
# (exit 2, one line naming the file) or, where the reference only names
# things the code says anyway, the totals of the hand sums from the .su
# rows with main and vla still unbounded for the VLA - never a hang, a
# crash or a silent zero.
. tests/e2e/lib.sh
b=$OUT/refs
gcc -S -g -O2 -dA -fstack-usage -mno-red-zone tests/data/dwarf/refs.c -o "$b.s" ||
	fail "cannot compile refs.c"
su=$b.su
printf '#!/bin/sh\nexec timeout 30 "%s" "$@"\n' "$SP" >"$OUT/sp"
chmod +x "$OUT/sp"
SP=$OUT/sp

# by hand from the .su rows: work calls both clones, main calls work and vla
leaf=$(su_self "$su" leaf.constprop) twig=$(su_self "$su" twig.constprop)
work_want=$(( $(su_self "$su" work) + (leaf > twig ? leaf : twig) ))
main_want=$(( $(su_self "$su" main) + work_want ))

build()
{
	python3 tests/e2e/dwarf_mutate.py "$b.s" "$OUT/$1.s" "$1" &&
		gcc -c "$OUT/$1.s" -o "$OUT/$1.o" && gcc "$OUT/$1.o" -o "$OUT/$1"
}

# sound NAME [OPTION]: analysed, the same totals as the hand sums
sound()
{
	run_sp --json ${2:-} "$OUT/$1" "$su"
	expect_rc 0 "$1 ${2:-}"
	[ "$rc" -eq 0 ] || return
	r=$OUT/stdout
	expect_eq "$1 ${2:-}: work" "$(jget "$r" 'fn("work")["total"]')" "$work_want"
	expect_eq "$1 ${2:-}: leaf.constprop" "$(jget "$r" 'fn("leaf.constprop")["total"]')" "$leaf"
	expect_eq "$1 ${2:-}: twig.constprop" "$(jget "$r" 'fn("twig.constprop")["total"]')" "$twig"
	expect_eq "$1 ${2:-}: main unbounded at >= its hand sum" \
		"$(jget "$r" '[fn("main")["bounded"], fn("main")["lower_bound"] >= '$main_want']')" \
		'[false, true]'
	expect_eq "$1 ${2:-}: vla says dynamic" \
		"$(jget "$r" '[fn("vla")["bounded"], "dynamic frame in vla" in fn("vla")["reasons"][0]]')" \
		'[false, true]'
	expect_eq "$1 ${2:-}: every .su row matched" \
		"$(jget "$r" 'len(j["functions"])')" "$(wc -l <"$su")"
}

gcc -c "$b.s" -o "$b.o" && gcc "$b.o" -o "$b" || fail "cannot build refs"
cp "$b" "$OUT/intact"
sound intact

# a subprogram's abstract_origin: itself, a two-clone cycle, beyond the CU,
# into the middle of a DIE; every call_origin beyond the CU, into the middle
# of a DIE, at the caller itself; a VLA's type chain in a cycle, at itself,
# beyond the CU: the names come from the symbols, the calls from the code
for m in origin-self origin-cycle origin-far origin-mid call-origin-far \
	 call-origin-mid call-origin-self type-cycle type-self type-far; do
	if ! build $m; then
		fail "cannot build $m"
		continue
	fi
	sound $m
	sound $m --calls=dwarf
done

# a DW_AT_sibling beyond the CU, at its own DIE (libdwarf would follow
# that forever), before its DIE: the walk cannot go on
for m in sibling-far sibling-self sibling-back; do
	if ! build $m; then
		fail "cannot build $m"
		continue
	fi
	expect_bad "$m" "'$OUT/$m': corrupt DWARF" "$OUT/$m" "$su"
done
run_sp "$OUT/sibling-self" "$su"
expect_eq "sibling-self: names the DIE" \
	"$(grep -c "a DW_AT_sibling at or under the DIE at 0x[0-9a-f]* does not point past its DIE" "$OUT/stderr")" 1
finish
