#!/bin/sh
# Time `stackprof vmlinux` in the same run, alternating, against
#  - the kernel's own checkstack pipeline (objdump -d | checkstack.pl),
#  - bench/dwarfwalk: a bare libdwarf walk of every DIE and its attributes,
# and hold its peak RSS against the size of .debug_info.  Prints medians
# and the ratios of the medians.  `make bench` builds and runs it.
#   bench/run.sh [VMLINUX] [RUNS]     (default: bench/build-kernel.sh's tree, 5)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
vmlinux=${1:-$("$top/bench/build-kernel.sh" dwarf4 | tail -n 1)}
runs=${2:-5}
walker=${DWARFWALK:-$top/build/bench/dwarfwalk}
tree=$(dirname "$vmlinux")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

run() {	# FILE CMD...: append "wall-seconds peak-KiB" of one run to FILE
	out=$1
	shift
	/usr/bin/time -f '%e %M' -o "$tmp/t" "$@" >/dev/null 2>&1
	cat "$tmp/t" >>"$out"
}
median() {	# FIELD FILE
	awk -v f="$1" '{ print $f }' "$2" | sort -n |
		awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}

cd "$tree"
i=0
while [ "$i" -lt "$runs" ]; do
	run "$tmp/sp" "$top/stackprof" -o /dev/null "$vmlinux"
	run "$tmp/cs" sh -c "objdump -d '$vmlinux' | perl scripts/checkstack.pl x86_64"
	run "$tmp/dw" "$walker" "$vmlinux"
	i=$((i + 1))
done
sp=$(median 1 "$tmp/sp")
cs=$(median 1 "$tmp/cs")
dw=$(median 1 "$tmp/dw")
rss=$(median 2 "$tmp/sp")
info=$((0x$(objdump -h "$vmlinux" | awk '$2 == ".debug_info" { print $3 }')))
echo "stackprof vmlinux:          ${sp} s, peak RSS $((rss / 1024)) MiB (medians of $runs)"
echo "objdump | checkstack.pl:    ${cs} s"
echo "bench/dwarfwalk vmlinux:    ${dw} s"
echo "ratio stackprof/checkstack: $(echo "scale=3; $sp / $cs" | bc)   (target <= 0.5)"
echo "ratio stackprof/dwarfwalk:  $(echo "scale=3; $sp / $dw" | bc)   (target <= 0.75)"
echo "peak RSS / .debug_info:     $(echo "scale=2; $rss * 1024 / $info" | bc)   (target <= 3)"
