#!/bin/sh
# valgrind.sh STACKPROF - make check-valgrind: memcheck over every sample
# in text, JSON and SVG, and over bad inputs (error paths leak too).
# Any invalid access, uninitialised use or definite/indirect leak fails.
set -u
sp=$1 out=$(mktemp -d) status=0 runs=0
trap 'rm -rf "$out"' EXIT
vg()
{
	runs=$((runs + 1))
	valgrind -q --error-exitcode=99 --leak-check=full --num-callers=40 \
		--suppressions=tests/fuzz/valgrind.supp \
		--errors-for-leak-kinds=definite,indirect --show-leak-kinds=definite,indirect \
		"$sp" "$@" >/dev/null 2>"$out/log"
	if [ $? -eq 99 ]; then
		echo "valgrind: errors in stackprof $*"
		head -40 "$out/log"
		status=1
	fi
}
for d in samples/*/; do
	s=$(basename "$d")
	[ -x "$d$s" ] || continue
	vg "$d$s"
	vg --json "$d$s"
	vg --svg "$out/g.svg" --all "$d$s"
	# the DWARF walk on two threads (by default only past 16 MiB)
	STACKPROF_SPLIT_WALK=0 vg --json "$d$s"
	# every function's FDE through its own window of .eh_frame (-v)
	STACKPROF_CFI=one-by-one vg -v "$d$s"
done
vg tests/data/bad/not-elf.txt
vg samples/chain/chain tests/data/bad/garbage.su
vg --budget 1 samples/chain/chain
vg --html "$out/p.html" samples/recursion/recursion
# --annotate and --indirect=address-taken (t1100, t1110); names that
# match nothing take the error path
printf 'calls dispatch op_double op_negate\nframe printf 1K\nentry main 1M\n' >"$out/a.ann"
vg --annotate "$out/a.ann" samples/indirect/indirect
vg --indirect=address-taken samples/indirect/indirect
printf 'recursion is_even 3\nrecursion fact 5\nignore is_even leaf\n' >"$out/r.ann"
vg --json --annotate "$out/r.ann" samples/recursion/recursion
vg --annotate tests/data/annot/all.ann samples/chain/chain
# crafted DWARF (t3120): cycles and offsets out of range are read, a
# sibling at its own DIE refused
if gcc -S -g -O2 -dA -fstack-usage -mno-red-zone tests/data/dwarf/refs.c -o "$out/refs.s"; then
	for m in origin-cycle origin-mid call-origin-far type-cycle sibling-self; do
		python3 tests/e2e/dwarf_mutate.py "$out/refs.s" "$out/$m.s" $m &&
			gcc "$out/$m.s" -o "$out/$m" && vg "$out/$m" "$out/refs.su"
	done
	# the same in the second thread's units: a small unit first
	printf 'int first(int x)\n{\n\treturn x + 1;\n}\n' >"$out/first.c"
	for m in origin-cycle sibling-self; do
		gcc -O2 -g "$out/first.c" "$out/$m.s" -o "$out/$m-2" &&
			STACKPROF_SPLIT_WALK=0 vg "$out/$m-2" "$out/refs.su"
	done
else
	echo "valgrind: cannot compile tests/data/dwarf/refs.c"
	status=1
fi
echo "valgrind: $runs runs, $([ $status -eq 0 ] && echo clean || echo ERRORS)"
exit $status
