#!/bin/sh
# doc/kernel-6.1.md: the worst-case stack of every system call, IRQ
# handler and exception entry of Debian's 6.1 cloud kernel, from its
# debug package.  The package is fetched (apt-get download, 281 MB) and
# unpacked under /tmp/debian-kernel when it is not there yet.
#
#   bench/kernel-table.sh [VMLINUX]   (make kernel-table)
#
# STACKPROF names the binary (default: the build's); OUT the table
# (default doc/kernel-6.1.md).  The sentences on the deepest paths are
# doc/kernel-6.1.notes, written by a person who read each path.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
sp=${STACKPROF:-$top/stackprof}
out=${OUT:-$top/doc/kernel-6.1.md}
pkg=linux-image-6.1.0-47-cloud-amd64-dbg
cache=/tmp/debian-kernel
vmlinux=${1:-$cache/root/usr/lib/debug/boot/vmlinux-6.1.0-47-cloud-amd64}

if [ ! -r "$vmlinux" ] && [ $# -eq 0 ]; then
	echo "bench/kernel-table.sh: fetching $pkg into $cache" >&2
	mkdir -p "$cache/root"
	(cd "$cache" && apt-get download "$pkg")
	dpkg-deb -x "$cache/${pkg}_"*.deb "$cache/root"
fi
[ -r "$vmlinux" ] || { echo "bench/kernel-table.sh: no $vmlinux" >&2; exit 2; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# --top 120: the paths of the 50 deepest system calls, whose symbols
# (__x64_sys_, __ia32_sys_, compat) share rows
"$sp" --kernel-summary --indirect=types --annotate linux --json --top 120 \
	-o "$tmp/report.json" "$vmlinux"
# the same with the assumptions of linux-assumed.ann: the counts only
"$sp" --kernel-summary --indirect=types --annotate linux --annotate linux-assumed \
	--json -o "$tmp/assumed.json" "$vmlinux"
version=$(dpkg-deb -f "$cache/${pkg}_"*.deb Version 2>/dev/null || echo unknown)
python3 "$top/bench/kernel_table.py" --report "$tmp/report.json" \
	--notes "$top/doc/kernel-6.1.notes" --assumed-report "$tmp/assumed.json" \
	--title "Worst-case stacks of Debian's 6.1 cloud kernel ($pkg $version)" \
	>"$tmp/table.md"
mv "$tmp/table.md" "$out"
echo "$out"
