#!/bin/sh
# What `--indirect=types` costs on a distribution kernel: the plain run
# (`stackprof VMLINUX`) and `stackprof --indirect=types VMLINUX`, text
# reports to /dev/null, in turn RUNS times; the medians of wall time, CPU
# time (user + system) and peak RSS of each, and the median of the
# typed / plain ratios taken pair by pair, with their min and max (a
# busy machine moves both runs of a pair alike; target: at most 1.5).
#   bench/indirect-speed.sh [STACKPROF-OPTION ...]   (e.g. --json)
# Environment: VMLINUX (Debian's 6.1 cloud debug kernel, unpacked under
# /tmp/debian-kernel, by default), RUNS (default 5), STACKPROF (the
# binary, default the build tree's).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
vmlinux=${VMLINUX:-/tmp/debian-kernel/root/usr/lib/debug/boot/vmlinux-6.1.0-47-cloud-amd64}
runs=${RUNS:-5}
stackprof=${STACKPROF:-$top/stackprof}
if [ ! -f "$vmlinux" ]; then
	echo "skip: no vmlinux at $vmlinux (set VMLINUX)"
	exit 0
fi
[ -x "$stackprof" ] || {
	echo "no $stackprof: run make first" >&2
	exit 2
}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

run() {	# OUT ARGS...: append "wall cpu peak-KiB" of one run to OUT
	out=$1
	shift
	/usr/bin/time -f '%e %U %S %M' -o "$tmp/t" "$stackprof" -o /dev/null "$@" \
		>/dev/null 2>&1 || {
		echo "stackprof $* failed" >&2
		exit 2
	}
	awk '{ printf "%s %.2f %s\n", $1, $2 + $3, $4 }' "$tmp/t" >>"$out"
}
median() {	# FIELD FILE
	awk -v f="$1" '{ print $f }' "$2" | sort -n |
		awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}
ratios() {	# FIELD: "median (min-max)" of typed / plain, pair by pair
	paste -d ' ' "$tmp/typed" "$tmp/plain" |
		awk -v f="$1" '{ if ($(f + 3) > 0) printf "%.2f\n", $f / $(f + 3) }' |
		sort -n | awk '{ v[NR] = $1 } END {
			printf "%s (%s-%s)", v[int((NR + 1) / 2)], v[1], v[NR] }'
}

i=0
while [ "$i" -lt "$runs" ]; do
	run "$tmp/plain" "$@" "$vmlinux"
	run "$tmp/typed" --indirect=types "$@" "$vmlinux"
	i=$((i + 1))
done

echo "$vmlinux, $runs pairs, medians${*:+ (options: $*)}; load $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-18s %16s %16s %10s\n' run 'wall s' 'CPU s' 'RSS MB'
for k in plain typed; do
	printf '%-18s %16s %16s %10d\n' "$([ $k = plain ] && echo plain ||
		echo --indirect=types)" "$(median 1 "$tmp/$k")" "$(median 2 "$tmp/$k")" \
		$(($(median 3 "$tmp/$k") / 1024))
done
printf '%-18s %16s %16s %10s\n' 'typed / plain' "$(ratios 1)" "$(ratios 2)" "$(ratios 3)"
