#!/bin/sh
# A dynamically linked program and the shared libraries it needs (libc,
# ld.so): build tests/e2e/libc/libcuse.c as t3030 does and time
# `stackprof prog` against `stackprof --no-libs prog`, RUNS runs each with
# /usr/bin/time, printing each run's wall, user and system seconds and
# peak KiB, then the medians.
#   bench/libs.sh [RUNS]            (default 5)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
runs=${1:-5}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp "$top/tests/e2e/libc/libcuse.c" "$top/tests/oracle/paint.c" "$tmp/"
(cd "$tmp" && gcc -O2 -g -fstack-usage -c libcuse.c paint.c &&
	gcc -O2 -rdynamic -o libcuse libcuse.o paint.o)
for mode in libs no-libs; do
	flag=
	[ $mode = no-libs ] && flag=--no-libs
	i=0
	while [ $i -lt "$runs" ]; do
		/usr/bin/time -f "%e %U %S %M" -a -o "$tmp/$mode.times" \
			"$top/stackprof" $flag -o /dev/null "$tmp/libcuse"
		i=$((i + 1))
	done
	cat "$tmp/$mode.times" | sed "s/^/$mode: /"
	sort -n -k2 "$tmp/$mode.times" | awk -v m=$mode '{ u[NR] = $2 + $3; w[NR] = $1; k[NR] = $4 }
		END { h = int((NR + 1) / 2); printf "%s: median cpu %.2f s, wall %.2f s, %d KiB\n", m, u[h], w[h], k[h] }'
done
