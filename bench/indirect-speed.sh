#!/bin/sh
# What `--indirect=types` costs on a distribution kernel: the plain run
# (`stackprof VMLINUX`) and `stackprof --indirect=types VMLINUX`, text
# reports to /dev/null, alternated RUNS times; the medians of wall time,
# user time and peak RSS of each, and typed / plain (target: wall <= 1.5).
#   bench/indirect-speed.sh [STACKPROF-OPTION ...]   (e.g. --json)
# Environment: VMLINUX (Debian's 6.1 cloud debug kernel, unpacked under
# /tmp/debian-kernel, by default), RUNS (default 3), STACKPROF (the
# binary, default the build tree's).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
vmlinux=${VMLINUX:-/tmp/debian-kernel/root/usr/lib/debug/boot/vmlinux-6.1.0-47-cloud-amd64}
runs=${RUNS:-3}
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

run() {	# OUT ARGS...: append "wall user peak-KiB" of one run to OUT
	out=$1
	shift
	/usr/bin/time -f '%e %U %M' -o "$tmp/t" "$stackprof" -o /dev/null "$@" \
		>/dev/null 2>&1 || {
		echo "stackprof $* failed" >&2
		exit 2
	}
	cat "$tmp/t" >>"$out"
}
median() {	# FIELD FILE
	awk -v f="$1" '{ print $f }' "$2" | sort -n |
		awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}
ratio() {	# A B: A / B to 2 places
	echo "$1 $2" | awk '{ printf "%.2f", ($2 > 0 ? $1 / $2 : 0) }'
}

i=0
while [ "$i" -lt "$runs" ]; do
	run "$tmp/plain" "$@" "$vmlinux"
	run "$tmp/typed" --indirect=types "$@" "$vmlinux"
	i=$((i + 1))
done

echo "$vmlinux, $runs runs each, medians${*:+ (options: $*)}"
printf '%-18s %8s %8s %8s\n' run 'wall s' 'user s' 'RSS MB'
for k in plain typed; do
	printf '%-18s %8s %8s %8d\n' "$([ $k = plain ] && echo plain ||
		echo --indirect=types)" "$(median 1 "$tmp/$k")" "$(median 2 "$tmp/$k")" \
		$(($(median 3 "$tmp/$k") / 1024))
done
printf '%-18s %8s %8s %8s\n' 'typed / plain' \
	"$(ratio "$(median 1 "$tmp/typed")" "$(median 1 "$tmp/plain")")" \
	"$(ratio "$(median 2 "$tmp/typed")" "$(median 2 "$tmp/plain")")" \
	"$(ratio "$(median 3 "$tmp/typed")" "$(median 3 "$tmp/plain")")"
