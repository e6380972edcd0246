#!/bin/sh
# A tracepoint's probes are those the images register (Linux 6.1;
# tests/e2e/tpprobe/tp.c): __traceiter_demo's call goes to the functions
# of the probe's prototype that a caller of tracepoint_probe_register()
# passes (demo_probe, a constant the code loads), not to other_hook, of
# the same prototype but only a table's;
#
#   -DWIDE     a wrapper passes on what its callers give, in a way not
#              read: every function of the prototype stays (other_hook)
#   -DEXPORT   tracepoint_probe_register() is exported: a module may
#              register its own, <module code: the callers of ...>
#
# and, on Debian's 6.1 kernel when it is here, softirq_raise's probes:
# its class's three, not native_set_ldt, xen_set_ldt, jit_fill_hole (of
# its prototype, registered nowhere); sched_switch's keep the ftrace,
# graph tracer and event pid filter probes the kernel registers.
. tests/e2e/lib.sh
[ "$(uname -m)" = x86_64 ] || skip "the instruction pass is x86-64's"
command -v gcc >/dev/null || skip "no gcc"

probes="[sorted(s['targets'] or ['?']) for s in j['indirect_calls'] if s['function'] == '__traceiter_demo']"
for v in plain WIDE EXPORT; do
	flag=
	[ $v = plain ] || flag=-D$v
	gcc -O2 -g -fno-pie -no-pie $flag -o "$OUT/tp-$v" tests/e2e/tpprobe/tp.c || fail "gcc $v"
	run_sp --json --indirect=types "$OUT/tp-$v"
	expect_rc 0 "--indirect=types $v"
	cp "$OUT/stdout" "$OUT/tp-$v.json"
done
expect_eq "registered" "$(jget "$OUT/tp-plain.json" "$probes")" '[["demo_probe"]]'
expect_eq "a registration not read" "$(jget "$OUT/tp-WIDE.json" "$probes")" \
	'[["demo_probe", "other_hook", "pass_probe"]]'
expect_eq "exported" "$(jget "$OUT/tp-EXPORT.json" "$probes")" \
	'[["<module code: the callers of tracepoint_probe_register>", "demo_probe"]]'
rm -f "$OUT"/tp-*.json

debian_kernel_part
debian_typed_report "$OUT/vmlinux.json"
tp="[s['targets'] for s in j['indirect_calls'] if s['function'] == '__traceiter_NAME'][0]"
expect_eq "softirq_raise" "$(jget "$OUT/vmlinux.json" "sorted(t for t in $(echo "$tp" | sed s/NAME/softirq_raise/) if not t.startswith('__') and t != '<module code: the callers of tracepoint_probe_register>' and 'softirq' in t or t in ('native_set_ldt', 'xen_set_ldt', 'jit_fill_hole'))")" \
	'["perf_trace_softirq", "trace_event_raw_event_softirq"]'
expect_eq "softirq_raise's modules" "$(jget "$OUT/vmlinux.json" "'<module code: the callers of tracepoint_probe_register>' in $(echo "$tp" | sed s/NAME/softirq_raise/)")" 'true'
expect_eq "sched_switch" "$(jget "$OUT/vmlinux.json" "sorted(t for t in $(echo "$tp" | sed s/NAME/sched_switch/) if 'sched_switch' in t)")" \
	'["__bpf_trace_sched_switch", "event_filter_pid_sched_switch_probe_post", "event_filter_pid_sched_switch_probe_pre", "ftrace_filter_pid_sched_switch_probe", "ftrace_graph_probe_sched_switch", "perf_trace_sched_switch", "probe_sched_switch", "trace_event_raw_event_sched_switch"]'
rm -f "$OUT/vmlinux.json"
finish
