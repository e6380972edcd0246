#!/bin/sh
# Time `stackprof vmlinux` in the same run, alternating, against
#  - the kernel's own checkstack pipeline (objdump -d | checkstack.pl),
#  - bench/dwarfwalk: a bare libdwarf walk of every DIE and its attributes,
# and hold its peak RSS against the size of .debug_info.  Prints medians
# and the ratios of the medians.  `make bench` builds and runs it.
#   bench/run.sh [VMLINUX] [RUNS]     (default: bench/build-kernel.sh's tree, 5)
# A vmlinux outside its source tree (a distribution's debug image, e.g.
# /usr/lib/debug/boot/vmlinux-VERSION) is run from its directory, with the
# checkstack.pl of CHECKSTACK, else of the tinyconfig tree, else of
# /usr/src/linux-source-6.1.tar.xz.
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

checkstack=${CHECKSTACK:-$tree/scripts/checkstack.pl}
if [ ! -f "$checkstack" ]; then
	checkstack=/tmp/stackprof-kernel/linux-dwarf4/scripts/checkstack.pl
	if [ ! -f "$checkstack" ]; then
		tar -xJf /usr/src/linux-source-6.1.tar.xz -C "$tmp" \
			linux-source-6.1/scripts/checkstack.pl
		checkstack=$tmp/linux-source-6.1/scripts/checkstack.pl
	fi
fi

cd "$tree"
i=0
while [ "$i" -lt "$runs" ]; do
	run "$tmp/sp" "$top/stackprof" -o /dev/null "$vmlinux"
	run "$tmp/cs" sh -c "objdump -d '$vmlinux' | perl '$checkstack' x86_64"
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
echo "ratio stackprof/checkstack: $(echo "scale=3; $sp / $cs" | bc)"
echo "ratio stackprof/dwarfwalk:  $(echo "scale=3; $sp / $dw" | bc)"
echo "peak RSS / .debug_info:     $(echo "scale=2; $rss * 1024 / $info" | bc)"
