#!/bin/sh
# The kernel's own stack tracer against stackprof: Debian's 6.1 cloud
# kernel boots under QEMU (TCG) with a busybox initramfs, the ftrace stack
# tracer records the deepest stacks of file I/O, fork/exec, loopback
# networking and path walks, some under a stack_trace_filter (the page
# fault handler, the allocators), and bench/kernel_stacktrace.py holds
# every traced frame against stackprof's frame for its function and every
# finite total against the stack used from that frame up: none may be
# smaller.  The page fault that padzero() takes when execve clears a bss
# is among the traces, and on padzero's worst path.  Skips without the
# kernel package and its -dbg
# vmlinux (STACKPROF_DEBIAN_DEB, STACKPROF_DEBIAN_VMLINUX), qemu, a static
# busybox or cpio.
. tests/e2e/lib.sh

deb=${STACKPROF_DEBIAN_DEB:-/tmp/debian-kernel/linux-image-6.1.0-47-cloud-amd64-unsigned_6.1.170-3_amd64.deb}
vmlinux=${STACKPROF_DEBIAN_VMLINUX:-/tmp/debian-kernel/root/usr/lib/debug/boot/vmlinux-6.1.0-47-cloud-amd64}
[ -r "$deb" ] || skip "no Debian kernel package at $deb"
[ -r "$vmlinux" ] || skip "no Debian debug kernel at $vmlinux"
no_kernel_under_asan
for tool in qemu-system-x86_64 cpio dpkg-deb gzip readelf; do
	command -v $tool >/dev/null 2>&1 || skip "no $tool"
done
busybox=${BUSYBOX:-/bin/busybox}
[ -x "$busybox" ] || skip "no busybox (busybox-static)"
readelf -l "$busybox" | grep -q INTERP && skip "$busybox is not static (busybox-static)"

# a fault's frames above a user copy are exception edges: a total below
# the kernel's with an exception above it fails too
KERNEL_TRACE_TIMEOUT=${KERNEL_TRACE_TIMEOUT:-600} BUSYBOX=$busybox \
	sh bench/kernel-stacktrace.sh --quick -o "$OUT/run" "$deb" "$vmlinux" >"$OUT/check" 2>&1
rc=$?
sed 's/^/  /' "$OUT/check"
[ "$rc" -eq 0 ] || fail "the check failed (exit $rc)"
grep -q '^=== done' "$OUT/run/traces.txt" || fail "the guest did not finish"
n=$(sed -n 's/^frames compared: \([0-9]*\) .*/\1/p' "$OUT/check")
[ "${n:-0}" -ge 50 ] || fail "only ${n:-no} frames compared"
# padzero's total holds the page fault the guest took there
run_sp --json --entry padzero "$vmlinux"
expect_eq "padzero's worst path takes a page fault" \
	"$(jget $OUT/stdout '["<page fault>" in [d["name"] for d in f["path_detail"]] for f in fns("padzero")]')" \
	'[true, true]'
finish
