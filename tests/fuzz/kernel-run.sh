#!/bin/sh
# kernel-run.sh STACKPROF - make check-asan: the sanitized build over the
# cached tinyconfig kernel (bench/build-kernel.sh), and once over
# Debian's 6.1 debug kernel, each when it is there: the e2e tests skip
# their Debian-kernel runs under ASan (sanitized_sp), and this one
# typed, annotated run keeps the code only that kernel reaches (ORC, the
# kernel's indirect-call mechanisms, the Linux annotations, the
# once/nest solver at scale) under the sanitizers.
sp=$1
tiny=/tmp/stackprof-kernel/linux-dwarf4/vmlinux
debian=${STACKPROF_DEBIAN_VMLINUX:-/tmp/debian-kernel/root/usr/lib/debug/boot/vmlinux-6.1.0-47-cloud-amd64}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# report STATUS NAME: the verdict of run NAME, which exited with STATUS;
# its errors when it failed
report()
{
	if [ "$1" -eq 0 ]; then
		echo "$2: ok ($(wc -c <"$out/out") bytes of report)"
		return 0
	fi
	echo "$2 FAILED:"
	head -30 "$out/err"
	return 1
}

status=0
if [ -f "$tiny" ]; then
	"$sp" --json -o "$out/out" "$tiny" 2>"$out/err" &&
		"$sp" --kernel-summary "$tiny" >/dev/null 2>>"$out/err"
	report $? "kernel run" || status=1
else
	echo "kernel run skipped: $tiny not built (bench/build-kernel.sh)"
fi
if [ -f "$debian" ]; then
	"$sp" --kernel-summary --indirect=types --annotate linux -v -o "$out/out" "$debian" \
		2>"$out/err"
	report $? "Debian kernel run" || status=1
else
	echo "Debian kernel run skipped: $debian not there (bench/kernel-table.sh fetches it)"
fi
exit $status
