#!/bin/sh
# Time each picture of one entry of a kernel against the text report of
# the same entry, run for run in turn (text, svg, png, dot, html, folded,
# calls, text, svg...), and print the medians and the ratios of the
# medians (target: every picture <= 1.3x the text run).  Then
# `--all --svg` on the tinyconfig kernel of bench/build-kernel.sh, which
# must finish within 60 s or refuse in one line.
#
#   bench/pictures.sh [VMLINUX] [ENTRY] [RUNS]
#
# VMLINUX defaults to Debian's 6.1 cloud debug kernel unpacked under
# /tmp/debian-kernel, ENTRY to __x64_sys_read, RUNS to 5.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
sp=$top/stackprof
vmlinux=${1:-/tmp/debian-kernel/root/usr/lib/debug/boot/vmlinux-6.1.0-47-cloud-amd64}
entry=${2:-__x64_sys_read}
runs=${3:-5}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
[ -r "$vmlinux" ] || { echo "bench/pictures.sh: no $vmlinux" >&2; exit 2; }

# the picture options of each measured kind ("text": none)
kinds="text svg png dot html folded calls"
opts()
{
	case $1 in
	text) ;;
	svg | png | dot | html | folded) echo "--$1 $tmp/out.$1" ;;
	calls) echo "--graph=calls --svg $tmp/calls.svg" ;;
	esac
}

i=0
while [ "$i" -lt "$runs" ]; do
	for k in $kinds; do
		# shellcheck disable=SC2046
		/usr/bin/time -f %e -o "$tmp/t" "$sp" --entry "$entry" -o /dev/null \
			$(opts "$k") "$vmlinux" >/dev/null 2>"$tmp/err" ||
			{ echo "$k: $(cat "$tmp/err")" >&2; exit 1; }
		cat "$tmp/t" >>"$tmp/$k"
	done
	i=$((i + 1))
done
median()
{
	sort -n "$1" | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}
text=$(median "$tmp/text")
echo "$(basename "$vmlinux") --entry $entry, medians of $runs runs:"
printf '  %-8s %6s s\n' text "$text"
for k in $kinds; do
	[ "$k" = text ] && continue
	m=$(median "$tmp/$k")
	printf '  %-8s %6s s  %5s x text   (target <= 1.3)\n' "$k" "$m" \
		"$(echo "scale=2; $m / $text" | bc)"
done

tiny=$("$top/bench/build-kernel.sh" dwarf4 | tail -n 1)
start=$(date +%s.%N)
set +e
timeout 120 "$sp" --all --svg "$tmp/all.svg" -o /dev/null "$tiny" 2>"$tmp/all.err"
status=$?
set -e
end=$(date +%s.%N)
echo "--all --svg on the tinyconfig kernel: exit $status after $(echo "scale=1; ($end - $start) / 1" | bc) s" \
	"(within 60 s, or a one-line refusal):"
sed 's/^/  /' "$tmp/all.err"
