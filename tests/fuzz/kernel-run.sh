#!/bin/sh
# kernel-run.sh STACKPROF - make check-asan: the sanitized build over the
# cached tinyconfig kernel (bench/build-kernel.sh), when it is there, and
# once over Debian's 6.1 debug kernel when that is there too: the e2e
# tests skip their Debian-kernel runs under ASan (sanitized_sp), and this
# one typed, annotated run keeps the code only that kernel reaches (ORC,
# the kernel's indirect-call mechanisms, the Linux annotations, the
# once/nest solver at scale) under the sanitizers.
sp=$1 k=/tmp/stackprof-kernel/linux-dwarf4/vmlinux
debian=${STACKPROF_DEBIAN_VMLINUX:-/tmp/debian-kernel/root/usr/lib/debug/boot/vmlinux-6.1.0-47-cloud-amd64}
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
if [ ! -f "$debian" ]; then
	echo "Debian kernel run skipped: $debian not there (bench/kernel-table.sh fetches it)"
	exit 0
fi
if "$sp" --kernel-summary --indirect=types --annotate linux -v -o "$out/d.txt" "$debian" \
	2>"$out/err"; then
	echo "Debian kernel run: ok ($(grep -c . "$out/d.txt") lines)"
else
	echo "Debian kernel run FAILED:"
	head -30 "$out/err"
	exit 1
fi
