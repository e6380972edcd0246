#!/bin/sh
# The DWARF walk split over two threads (by default only for 16 MiB of
# .debug_info; STACKPROF_SPLIT_WALK=0 splits any image of two units or
# more) reports what one walk reports, byte for byte: on every sample,
# on corrupt DWARF in the second thread's units (the same one-line
# error), and on every fuzz regression input.
. tests/e2e/lib.sh

# same DESC ARGS...: one walker and two give the same output and status
same()
{
	_desc=$1
	shift
	STACKPROF_SPLIT_WALK=never "$SP" "$@" >"$OUT/one.out" 2>"$OUT/one.err"
	_one=$?
	STACKPROF_SPLIT_WALK=0 "$SP" "$@" >"$OUT/two.out" 2>"$OUT/two.err"
	_two=$?
	[ "$_one" -eq "$_two" ] || fail "$_desc: exit $_two with two walkers, $_one with one"
	cmp -s "$OUT/one.out" "$OUT/two.out" || fail "$_desc: the reports differ"
	cmp -s "$OUT/one.err" "$OUT/two.err" || fail "$_desc: stderr differs"
}

# split_units ARGS...: the units -v says the second thread walked
split_units()
{
	STACKPROF_SPLIT_WALK=0 "$SP" -v -o /dev/null "$@" 2>&1 |
		sed -n 's/^stackprof: DWARF: \([0-9]*\) of .*second thread$/\1/p'
}

n=0
for d in samples/*/; do
	s=$(basename "$d")
	[ -x "$d$s" ] || { fail "$d$s is not built (make -C samples)"; continue; }
	same "$s --json" --json "$d$s"
	same "$s --vla" --vla "$d$s"
	n=$((n + 1))
done
[ "$n" -gt 5 ] || fail "only $n samples built (make -C samples)"
need_sample chain
expect_eq "chain: units the second thread walked" "$(split_units samples/chain/chain)" 1
expect_eq "one walker unless asked" \
	"$("$SP" -v -o /dev/null samples/chain/chain 2>&1 | grep -c 'second thread')" 0

# a small unit first, then refs.c's: the second thread reads refs.c
printf 'int first(int x)\n{\n\treturn x + 1;\n}\n' >"$OUT/first.c"
gcc -c -g -O2 "$OUT/first.c" -o "$OUT/first.o" ||
	fail "cannot compile first.c"
gcc -S -g -O2 -dA -fstack-usage tests/data/dwarf/refs.c -o "$OUT/refs.s" ||
	fail "cannot compile refs.c"
for m in intact origin-cycle call-origin-far type-self sibling-self sibling-far; do
	if [ "$m" = intact ]; then
		cp "$OUT/refs.s" "$OUT/$m.s"
	elif ! python3 tests/e2e/dwarf_mutate.py "$OUT/refs.s" "$OUT/$m.s" "$m"; then
		fail "cannot mutate $m"
		continue
	fi
	if ! gcc -c "$OUT/$m.s" -o "$OUT/$m.o" ||
	   ! gcc "$OUT/first.o" "$OUT/$m.o" -o "$OUT/$m"; then
		fail "cannot build $m"
		continue
	fi
	same "$m" --json "$OUT/$m" "$OUT/refs.su"
	# the VLA's file comes from its unit's file table: the unit's index
	same "$m --vla" --vla "$OUT/$m" "$OUT/refs.su"
	case $m in
	sibling-*)
		export STACKPROF_SPLIT_WALK=0
		expect_bad "$m, two walkers" "'$OUT/$m': corrupt DWARF" "$OUT/$m" "$OUT/refs.su"
		unset STACKPROF_SPLIT_WALK ;;
	*) expect_eq "$m: units the second thread walked" \
		"$(split_units "$OUT/$m" "$OUT/refs.su")" 1 ;;
	esac
done

for f in tests/data/fuzz/elf/*; do
	[ -f "$f" ] && same "fuzz input $(basename "$f")" -o /dev/null "$f"
done
finish
