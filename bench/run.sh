#!/bin/sh
# Time `stackprof vmlinux` against the kernel's own checkstack pipeline in
# the same run, alternating A B A B, and print medians and their ratio.
#   bench/run.sh [VMLINUX] [RUNS]     (default: bench/build-kernel.sh's tree, 5)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
vmlinux=${1:-$("$top/bench/build-kernel.sh" dwarf4 | tail -n 1)}
runs=${2:-5}
tree=$(dirname "$vmlinux")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

wall() {	# seconds of one run of "$@", from GNU time
	/usr/bin/time -f %e -o "$tmp/t" "$@" >/dev/null 2>&1
	cat "$tmp/t"
}
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

cd "$tree"
i=0
while [ "$i" -lt "$runs" ]; do
	wall "$top/stackprof" "$vmlinux" >>"$tmp/a"
	wall sh -c "objdump -d '$vmlinux' | perl scripts/checkstack.pl x86_64" >>"$tmp/b"
	i=$((i + 1))
done
a=$(median <"$tmp/a")
b=$(median <"$tmp/b")
echo "stackprof vmlinux:          ${a} s (median of $runs)"
echo "objdump | checkstack.pl:    ${b} s (median of $runs)"
echo "ratio stackprof/checkstack: $(echo "scale=3; $a / $b" | bc)"
