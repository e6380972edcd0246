#!/bin/sh
# annotations/linux.ann's tracing block (from "# ---- Tracing re-entry"
# to "# ---- end of tracing re-entry") on Debian's 6.1 cloud kernel:
# each line applies without 'optional'; the post-call triggers and a
# hist trigger's .trace() action call the functions the lines give, and
# nothing else; and the guards' counts cut a re-entry: five test lines
# make the call that the kernel's guards bound (a BPF program that runs
# trace_call_bpf() again, a perf overflow that fires a perf tracepoint
# event again, a stack trace recorded below one, a trace_printk() below
# one), which stays a cycle without the block and is cut at 2, 4, 6 and
# 5 activations with it.
# Needs the unpacked debug kernel (another one:
# STACKPROF_DEBIAN_VMLINUX=PATH); skips without it.
. tests/e2e/lib.sh

vmlinux=${STACKPROF_DEBIAN_VMLINUX:-/tmp/debian-kernel/root/usr/lib/debug/boot/vmlinux-6.1.0-47-cloud-amd64}
[ -r "$vmlinux" ] || skip "no Debian debug kernel at $vmlinux"
no_kernel_under_asan

sed -n '/^# ---- Tracing re-entry/,/^# ---- end of tracing re-entry/p' annotations/linux.ann |
	sed 's/^optional //' >"$OUT/tracing.ann"
[ "$(grep -c '^[a-z]' "$OUT/tracing.ann")" -ge 4 ] || fail "no tracing block in annotations/linux.ann"
cat >"$OUT/reenter.ann" <<'ANN'
calls trace_call_bpf trace_call_bpf
calls perf_swevent_event perf_tp_event
ANN
# apart: perf_tp_event reaches __ftrace_trace_stack, and a total names
# one cut cycle, the first the solver meets
echo 'calls __ftrace_trace_stack __ftrace_trace_stack' >"$OUT/stack.ann"
printf 'calls trace_vbprintk trace_vbprintk\ncalls __trace_array_vprintk __trace_array_vprintk\n' >"$OUT/printk.ann"
grep -v '^nest __ftrace_trace_stack ' "$OUT/tracing.ann" >"$OUT/tracing-nostack.ann"
set -- --entry trace_call_bpf --entry perf_tp_event --entry __ftrace_trace_stack \
	--entry trace_vbprintk --entry __trace_array_vprintk --entry event_triggers_post_call --entry action_trace

# without the block the re-entries are cycles, and the two indirect
# calls have no annotated target
run_sp --json --annotate "$OUT/reenter.ann" --annotate "$OUT/stack.ann" --annotate "$OUT/printk.ann" "$@" "$vmlinux"
expect_rc 0 "the test lines apply"
cp "$OUT/stdout" "$OUT/wide.json"
expect_eq "without the block the re-entries are cycles" \
	"$(jget "$OUT/wide.json" '[fn(n)["recursive"] for n in ("trace_call_bpf", "perf_tp_event", "__ftrace_trace_stack", "trace_vbprintk", "__trace_array_vprintk")]')" '[true, true, true, true, true]'
expect_eq "without the block no annotated trigger or probe" \
	"$(jget "$OUT/wide.json" '[c["name"] for n in ("event_triggers_post_call", "action_trace") for c in fn(n)["calls"] if c.get("via") == "annotated"]')" '[]'

run_sp --json --annotate "$OUT/tracing-nostack.ann" --annotate "$OUT/reenter.ann" "$@" "$vmlinux"
expect_rc 0 "the block (but its stack trace line) applies to $vmlinux"
cp "$OUT/stdout" "$OUT/k.json"
j=$OUT/k.json
expect_eq "post-call triggers: traceon, traceoff, stacktrace" \
	"$(jget $j 'sorted((c["name"], c.get("via")) for c in fn("event_triggers_post_call")["calls"] if c.get("via"))')" \
	'[["stacktrace_count_trigger", "annotated"], ["stacktrace_trigger", "annotated"], ["traceoff_count_trigger", "annotated"], ["traceoff_trigger", "annotated"], ["traceon_count_trigger", "annotated"], ["traceon_trigger", "annotated"]]'
expect_eq "a .trace() action calls the synthetic event's probe" \
	"$(jget $j '[(c["name"], c.get("via")) for c in fn("action_trace")["calls"]]')" \
	'[["trace_event_raw_event_synth", "annotated"]]'
expect_eq "the guards' counts cut the re-entries" \
	"$(jget $j '[[fn(n)["recursive"], [r for r in fn(n)["reasons"] if "bounded by annotation" in r]] for n in ("trace_call_bpf", "perf_tp_event")]')" \
	'[[false, ["recursion trace_call_bpf -> trace_call_bpf bounded by annotation: trace_call_bpf at most 2 deep"]], [false, ["recursion perf_tp_event -> perf_swevent_event -> perf_tp_event bounded by annotation: perf_tp_event at most 4 deep"]]]'
expect_eq "no path holds more than the counts" \
	"$(jget $j '[f["name"] for f in j["functions"] if f["path"].count("trace_call_bpf") > 2 or f["path"].count("perf_tp_event") > 4]')" '[]'

run_sp --json --annotate "$OUT/tracing.ann" --annotate "$OUT/stack.ann" "$@" "$vmlinux"
expect_rc 0 "the whole block applies to $vmlinux"
cp "$OUT/stdout" "$OUT/stack.json"
# the cut cycle named may be the kernel's own: a WARN() below it records
# one through disable_trace_on_warning()
expect_eq "the recursion bits cut a stack trace below one" \
	"$(jget "$OUT/stack.json" '[fn("__ftrace_trace_stack")["recursive"], [r.endswith("bounded by annotation: __ftrace_trace_stack at most 6 deep") for r in fn("__ftrace_trace_stack")["reasons"] if "bounded by annotation" in r], [f["name"] for f in j["functions"] if f["path"].count("__ftrace_trace_stack") > 6]]')" \
	'[false, [true], []]'

# trace_printk() below itself: the per-CPU buffers' count cuts it
run_sp --json --annotate "$OUT/tracing.ann" --annotate "$OUT/printk.ann" "$@" "$vmlinux"
expect_rc 0 "the block and a trace_printk() below one"
cp "$OUT/stdout" "$OUT/printk.json"
expect_eq "the buffers' count cuts a trace_printk() below one" \
	"$(jget "$OUT/printk.json" '[[fn(n)["recursive"], [f["name"] for f in j["functions"] if f["path"].count(n) > 5]] for n in ("trace_vbprintk", "__trace_array_vprintk")]')" \
	'[[false, []], [false, []]]'
finish
