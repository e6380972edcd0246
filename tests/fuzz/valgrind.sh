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
done
vg tests/data/bad/not-elf.txt
vg samples/chain/chain tests/data/bad/garbage.su
vg --budget 1 samples/chain/chain
echo "valgrind: $runs runs, $([ $status -eq 0 ] && echo clean || echo ERRORS)"
exit $status
