#!/bin/sh
# kernel-run.sh STACKPROF - make check-asan: the sanitized build over the
# cached tinyconfig kernel (bench/build-kernel.sh), when it is there.
sp=$1 k=/tmp/stackprof-kernel/linux-dwarf4/vmlinux
if [ ! -f "$k" ]; then
	echo "kernel run skipped: $k not built (bench/build-kernel.sh)"
	exit 0
fi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
if "$sp" --json -o "$out/k.json" "$k" 2>"$out/err" &&
   "$sp" --kernel-summary "$k" >"$out/k.txt" 2>>"$out/err"; then
	echo "kernel run: ok ($(wc -c <"$out/k.json") bytes of JSON)"
else
	echo "kernel run FAILED:"
	head -30 "$out/err"
	exit 1
fi
