#!/bin/sh
# Boot Debian's 6.1 cloud kernel under QEMU (TCG: no KVM needed) with a
# busybox initramfs, let the kernel's own ftrace stack tracer record the
# deepest stacks of a set of workloads, and hold stackprof's frames and
# totals for the -dbg vmlinux of the same build against them
# (bench/kernel_stacktrace.py says how the tracer counts).
#   bench/kernel-stacktrace.sh [--quick] [-o DIR] [CHECK OPTIONS] [DEB [VMLINUX]]
# DEB is the bootable linux-image-*-unsigned package, VMLINUX its -dbg
# image (defaults: /tmp/debian-kernel's).  --quick runs fewer filters and
# workloads (the e2e test); DIR keeps the console log, the traces and the
# check (default: a temporary directory).  --annotate FILE (repeatable),
# --indirect MODE, --no-exception-edges and --require-total FUNC go to
# the checker (--indirect types --annotate linux --annotate linux-assumed
# holds the typed run's totals, assumed ones included); this
# exits with its status: 1 when a frame or total is below what the
# kernel used.  Needs
# qemu-system-x86, busybox-static, cpio, dpkg-deb (tools/install-deps).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
quick= out= check=
while [ $# -gt 0 ]; do
	case $1 in
	--quick) quick=1 ;;
	-o) out=$2; shift ;;
	--annotate | --require-total | --indirect) check="$check $1 $2"; shift ;;
	--no-exception-edges) check="$check $1" ;;
	*) break ;;
	esac
	shift
done
deb=${1:-/tmp/debian-kernel/linux-image-6.1.0-47-cloud-amd64-unsigned_6.1.170-3_amd64.deb}
vmlinux=${2:-/tmp/debian-kernel/root/usr/lib/debug/boot/vmlinux-6.1.0-47-cloud-amd64}
busybox=${BUSYBOX:-/bin/busybox}
timeout=${KERNEL_TRACE_TIMEOUT:-900}
for f in "$deb" "$vmlinux"; do
	[ -r "$f" ] || { echo "kernel-stacktrace: no $f" >&2; exit 2; }
done
if [ -z "$out" ]; then
	out=$(mktemp -d)
	trap 'rm -rf "$out"' EXIT
fi
mkdir -p "$out"
work=$out/work
rm -rf "$work"
mkdir -p "$work/root/bin" "$work/root/proc" "$work/root/sys" "$work/root/dev" "$work/root/tmp"

# the kernel image from the package
dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$work" --wildcards './boot/vmlinuz-*'
kernel=$(ls "$work"/boot/vmlinuz-*)

# the plan: "filter NAME PATTERN" (stack_trace_filter; * for every
# function), then the workloads to trace under it
if [ -n "$quick" ]; then
	cat >"$work/root/plan" <<-EOF
	filter all *
	workload files
	workload exec
	workload net
	workload walk
	filter fault handle_mm_fault
	workload files
	workload exec
	filter alloc __alloc_pages kmem_cache_alloc* __kmalloc*
	workload net
	workload pipes
	EOF
else
	{
		echo 'filter all *'
		for w in files pipes exec net walk printk; do echo "workload $w"; done
		while read -r name pattern; do
			echo "filter $name $pattern"
			for w in files pipes exec net walk printk; do echo "workload $w"; done
		done <<-EOF
		fault handle_mm_fault
		alloc __alloc_pages kmem_cache_alloc* __kmalloc*
		net tcp_* ip_* ip6_* udp_* __dev_queue_xmit icmp*
		vfs vfs_* path_* d_* shmem_*
		sched enqueue_task_fair dequeue_task_fair update_curr try_to_wake_up pick_next_task_fair
		tty uart_* serial8250_* tty_* n_tty_*
		rcu call_rcu rcu_* kfree*
		mm mas_* vma_* mmap_region do_mmap
		printk vprintk_emit console_unlock
		exec load_elf_binary begin_new_exec setup_arg_pages copy_strings*
		EOF
	} >"$work/root/plan"
fi
cp "$busybox" "$work/root/bin/busybox"
cp "$top/bench/kernel-stacktrace-init.sh" "$work/root/init"
chmod +x "$work/root/init"
(cd "$work/root" && find . | cpio -o -H newc --quiet) | gzip -1 >"$work/initrd.gz"

# ttyS0: the console; ttyS1: the traces
rm -f "$out/console.txt" "$out/traces.txt"
start=$(date +%s)
status=0
timeout "$timeout" qemu-system-x86_64 -nodefaults -no-user-config -display none \
	-machine pc -m 512 -smp 1 -no-reboot -kernel "$kernel" -initrd "$work/initrd.gz" \
	-append "console=ttyS0 nokaslr panic=-1 quiet" \
	-serial "file:$out/console.txt" -serial "file:$out/traces.txt" || status=$?
echo "qemu: $(($(date +%s) - start)) s, status $status"
grep -q '^=== done' "$out/traces.txt" ||
	echo "kernel-stacktrace: the guest did not finish (timeout ${timeout} s?): checking what it wrote"
# shellcheck disable=SC2086
python3 "$top/bench/kernel_stacktrace.py" --stackprof "$top/stackprof" $check \
	"$vmlinux" "$out/traces.txt"
