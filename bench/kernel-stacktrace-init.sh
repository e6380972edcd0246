#!/bin/busybox sh
# /init of the initramfs that bench/kernel-stacktrace.sh boots: turn on
# the ftrace stack tracer, run each workload under each stack_trace_filter
# (the deepest stack at the entry of a matching function), and write every
# stack_trace to the second serial port (/dev/ttyS1), away from the
# console's messages.  The list of filters and workloads comes from
# /plan: "filter NAME PATTERN..." and "workload NAME" lines.
/bin/busybox --install -s /bin
export PATH=/bin
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
mount -t tmpfs tmp /tmp
mount -t tracefs tracefs /sys/kernel/tracing
T=/sys/kernel/tracing
out=/dev/ttyS1
ip link set lo up
ip addr add 127.0.0.1/8 dev lo 2>/dev/null

# The workloads: each a few seconds under TCG.
w_files()	# file I/O on tmpfs, read into a fresh buffer (page faults in copies)
{
	dd if=/dev/zero of=/tmp/f bs=1M count=4 2>/dev/null
	dd if=/tmp/f of=/dev/null bs=256k 2>/dev/null
	cp /tmp/f /tmp/g && cat /tmp/g >/dev/null
	mkdir -p /tmp/d/e/f && echo x >/tmp/d/e/f/x && mv /tmp/d/e/f/x /tmp/d/y
	rm -rf /tmp/d /tmp/f /tmp/g
}
w_pipes()	# pipes between processes
{
	dd if=/dev/zero bs=64k count=64 2>/dev/null | cat | wc -c >/dev/null
}
w_exec()	# fork and exec of a static binary (its bss cleared by padzero)
{
	for i in 1 2 3 4 5 6 7 8; do
		/bin/busybox true
		/bin/busybox sh -c 'echo $$ >/dev/null'
	done
}
w_net()		# TCP over loopback (IPv4, IPv6), UDP and ICMP
{
	for dst in 127.0.0.1 ::1; do
		nc -l -p 5001 >/dev/null &
		sleep 1
		dd if=/dev/zero bs=16k count=32 2>/dev/null | nc -w 1 $dst 5001
		wait
	done
	nslookup stackprof.invalid 127.0.0.1 >/dev/null 2>&1
	ping -c 2 -i 0.2 127.0.0.1 >/dev/null
	ping -c 2 -i 0.2 ::1 >/dev/null
}
w_walk()	# path walks and sysfs, procfs
{
	find / -xdev >/dev/null 2>&1
	ls -lR /sys/kernel /sys/class >/dev/null 2>&1
	cat /proc/*/status /proc/*/maps >/dev/null 2>&1
}
w_printk()	# messages to the console through printk
{
	for i in 1 2 3; do
		echo "<3>stacktrace workload message $i" >/dev/kmsg
	done
}

trace()		# NAME WORKLOAD: the deepest stack of WORKLOAD
{
	echo 0 >$T/stack_max_size
	"w_$2"
	{
		echo "=== trace $1 $2"
		echo "max $(cat $T/stack_max_size)"
		cat $T/stack_trace
		echo "=== end"
	} >$out
}

echo 1 >/proc/sys/kernel/stack_tracer_enabled
echo "=== start $(uname -r)" >$out
while read -r what name rest; do
	case $what in
	filter)
		if [ "$rest" = "*" ]; then
			echo >$T/stack_trace_filter
		else
			echo "$rest" >$T/stack_trace_filter
		fi
		filter=$name ;;
	workload)
		trace "$filter" "$name" ;;
	esac
done </plan
echo 0 >/proc/sys/kernel/stack_tracer_enabled
echo "=== done" >$out
poweroff -f
