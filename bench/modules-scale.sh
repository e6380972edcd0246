#!/bin/sh
# How `stackprof vmlinux` grows with a distribution's kernel modules:
# vmlinux alone and vmlinux + the first N modules (in path order, so
# every N holds the smaller ones) are run side by side, alternated, RUNS
# times each; per N the medians of wall and CPU (user + system) time and
# of peak RSS, each held against vmlinux alone, and the size of all the
# inputs' .debug_info against vmlinux's: a run linear in the input
# takes time in proportion to that ratio ("per info", target <= 1.2),
# and peak RSS is held against the summed .debug_info (target <= 2.5).
# Then `--indirect=address-taken` against the plain run (target <= 2).
#   bench/modules-scale.sh [N ...]        (default: 100 280 560 all)
# Environment: VMLINUX, MODDIR (Debian's 6.1 cloud debug kernel, unpacked
# under /tmp/debian-kernel, by default), RUNS (default 3).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
deb=/tmp/debian-kernel/root/usr/lib/debug
vmlinux=${VMLINUX:-$deb/boot/vmlinux-6.1.0-47-cloud-amd64}
moddir=${MODDIR:-$deb/lib/modules/6.1.0-47-cloud-amd64}
runs=${RUNS:-3}
[ -f "$vmlinux" ] && [ -d "$moddir" ] || {
	echo "no kernel: set VMLINUX and MODDIR" >&2
	exit 2
}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

find "$moddir" -name '*.ko' | LC_ALL=C sort >"$tmp/mods"
total=$(wc -l <"$tmp/mods")
[ $# -gt 0 ] || set -- 100 280 560 "$total"

info() {	# FILE: bytes of its .debug_info
	h=$(objdump -h "$1" | awk '$2 == ".debug_info" { print $3 }')
	echo $((0x${h:-0}))
}
# the summed .debug_info of the first N modules, N = 1..total
while read -r m; do info "$m"; done <"$tmp/mods" |
	awk '{ s += $1; print s }' >"$tmp/cum"
base_info=$(info "$vmlinux")

run() {	# OUT ARGS...: append "wall cpu peak-KiB" of one run to OUT
	out=$1
	shift
	/usr/bin/time -f '%e %U %S %M' -o "$tmp/t" "$top/stackprof" -o /dev/null "$@" \
		>/dev/null 2>&1
	awk '{ print $1, $2 + $3, $4 }' "$tmp/t" >>"$out"
}
median() {	# FIELD FILE
	awk -v f="$1" '{ print $f }' "$2" | sort -n |
		awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}
ratio() {	# A B: A / B to 2 places
	echo "$1 $2" | awk '{ printf "%.2f", $1 / $2 }'
}

printf '%6s %9s %6s | %7s %6s %6s | %7s %6s %9s | %7s %6s %8s\n' modules \
	'info MB' ratio 'wall s' ratio 'per' 'cpu s' ratio 'per info' \
	'RSS MB' ratio 'RSS/info'
for n in "$@"; do
	[ "$n" -le "$total" ] || n=$total
	head -n "$n" "$tmp/mods" >"$tmp/list"
	: >"$tmp/alone"
	: >"$tmp/with"
	i=0
	while [ "$i" -lt "$runs" ]; do
		run "$tmp/alone" "$vmlinux"
		# shellcheck disable=SC2046
		run "$tmp/with" "$vmlinux" $(cat "$tmp/list")
		i=$((i + 1))
	done
	inf=$(( base_info + $(sed -n "${n}p" "$tmp/cum") ))
	ir=$(ratio "$inf" "$base_info")
	wa=$(median 1 "$tmp/alone") ww=$(median 1 "$tmp/with")
	ca=$(median 2 "$tmp/alone") cw=$(median 2 "$tmp/with")
	rw=$(median 3 "$tmp/with")
	printf '%6s %9s %6s | %7s %6s %6s | %7.2f %6s %9s | %7s %6s %8s\n' "$n" \
		"$((inf / 1000000))" "$ir" "$ww" "$(ratio "$ww" "$wa")" \
		"$(ratio "$(ratio "$ww" "$wa")" "$ir")" "$cw" "$(ratio "$cw" "$ca")" \
		"$(ratio "$(ratio "$cw" "$ca")" "$ir")" "$((rw / 1024))" \
		"$(ratio "$rw" "$(median 3 "$tmp/alone")")" "$(ratio "$((rw * 1024))" "$inf")"
done
echo "(vmlinux alone: $(median 1 "$tmp/alone") s wall, $(median 2 "$tmp/alone") s cpu," \
	"$(( $(median 3 "$tmp/alone") / 1024 )) MB, .debug_info $((base_info / 1000000)) MB;" \
	"medians of $runs)"

: >"$tmp/plain"
: >"$tmp/taken"
i=0
while [ "$i" -lt "$runs" ]; do
	run "$tmp/plain" "$vmlinux"
	run "$tmp/taken" --indirect=address-taken "$vmlinux"
	i=$((i + 1))
done
echo "--indirect=address-taken: $(median 1 "$tmp/taken") s wall" \
	"($(ratio "$(median 1 "$tmp/taken")" "$(median 1 "$tmp/plain")")x)," \
	"$(median 2 "$tmp/taken") s cpu ($(ratio "$(median 2 "$tmp/taken")" "$(median 2 "$tmp/plain")")x)," \
	"$(( $(median 3 "$tmp/taken") / 1024 )) MB   (target <= 2x the plain run)"
