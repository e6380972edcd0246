#!/bin/sh
# --indirect=types resolves the kernel's own call mechanisms from what can
# be registered, not from the pointer's type (void *, a parameter):
#
#   __traceiter_sched_demo   tracepoint: the class's three probes (its
#                            name is not the tracepoint's: __bpf_trace_
#                            found through _bpf_raw_tp) and probe_sched_demo,
#                            registered by main (kmech/mech.c); not
#                            probe_sched_other, nor unrelated, whose
#                            addresses are taken too, nor the probes of
#                            demo2_class, of the same prototype
#   __traceiter_sched_demo2  tracepoint: demo2_class's three and
#                            probe_sched_demo (of its prototype)
#   __traceiter_sched_other  tracepoint: probe_sched_other
#   bpf_dispatcher_nop_func  bpf: the two interpreters and <bpf jit>, whose
#                            frame is the x86-64 JIT's bound, 512 + 8 * 56
#                            bytes and 33 tail calls' 224 + 7 * 56 (21288),
#                            and whose calls are the helper and the map
#                            operation
#
# and, on Debian's 6.1 kernel when it is here, __traceiter_sched_switch's
# probes: its class's and those register_trace_sched_switch() is given;
# contention_begin's, its class's alone (each with the modules' probes,
# said apart);
# __SCT__x86_pmu_handle_irq's: what static_call_update() gives it.
. tests/e2e/lib.sh
[ "$(uname -m)" = x86_64 ] || skip "the instruction pass is x86-64's"
command -v gcc >/dev/null || skip "no gcc"

gcc -O2 -g -fno-pie -no-pie -o "$OUT/mech" tests/e2e/kmech/mech.c || fail "gcc"
"$OUT/mech" 1 || true
nm "$OUT/mech" | grep -q ' __start__bpf_raw_tp$' || fail "the linker made no __start__bpf_raw_tp"

run_sp --json --indirect=types "$OUT/mech"
expect_rc 0 "--indirect=types"
j=$OUT/mech.json
cp "$OUT/stdout" "$j"
check_json "$j"

site()
{
	jget "$j" "[[s['resolved_by'], s['type'], sorted(s['targets'])] for s in j['indirect_calls'] if s['function'] == '$1']"
}
expect_eq "__traceiter_sched_demo" "$(site __traceiter_sched_demo)" \
	'[["tracepoint", "__tracepoint_sched_demo", ["__bpf_trace_demo_class", "perf_trace_demo_class", "probe_sched_demo", "trace_event_raw_event_demo_class"]]]'
expect_eq "__traceiter_sched_demo2" "$(site __traceiter_sched_demo2)" \
	'[["tracepoint", "__tracepoint_sched_demo2", ["__bpf_trace_demo2_class", "perf_trace_demo2_class", "probe_sched_demo", "trace_event_raw_event_demo2_class"]]]'
expect_eq "__traceiter_sched_other" "$(site __traceiter_sched_other)" \
	'[["tracepoint", "__tracepoint_sched_other", ["probe_sched_other"]]]'
expect_eq "bpf_dispatcher_nop_func" "$(site bpf_dispatcher_nop_func)" \
	'[["bpf", "unsigned int(void*,struct bpf_insn*)", ["<bpf jit>", "__bpf_prog_run32", "__bpf_prog_run64"]]]'
# <bpf jit> reaches the report as a callee (not selected itself)
jit="[f for f in j['all_functions'] if f['name'] == '<bpf jit>'][0]"
expect_eq "<bpf jit>" \
	"$(jget "$j" "[$jit[k] for k in ('self', 'frame_source', 'assumed')] + [sorted(c['name'] for c in $jit['calls'])]")" \
	'[21288, "jit", true, ["bpf_demo_helper", "demo_map_lookup"]]'
# its total: its frame on its deepest callee's
expect_eq "<bpf jit> total" "$(jget "$j" "$jit['total']")" \
	"$(jget "$j" "21288 + max(f['total'] for f in j['all_functions'] if f['name'] in ('bpf_demo_helper', 'demo_map_lookup'))")"
# every edge of the mechanisms is assumed, and says how
expect_eq "edges" \
	"$(jget "$j" "sorted({(c['via'], c['resolved_by']) for f in j['all_functions'] for c in f['calls'] if f['name'] in ('__traceiter_sched_demo', '<bpf jit>', 'bpf_dispatcher_nop_func')})")" \
	'[["assumed", "bpf"], ["assumed", "tracepoint"]]'
rm -f "$j"

debian_kernel_part
debian_typed_report "$OUT/vmlinux.json"
# one read of the report (jget would expand every path of it, each time):
# per site the caller, how and the sorted targets; <bpf jit>'s callees
python3 - "$OUT/vmlinux.json" >"$OUT/kernel.txt" <<'PY' || fail "reading the kernel's report"
import json, sys
j = json.load(open(sys.argv[1]))
names = [f["name"] for f in j["functions"]]
sites = {}
for s in j["indirect_calls"]:
    targets = sorted(names[i] for i in j["target_sets"][s["targets"]]) if s["targets"] is not None else None
    sites.setdefault(names[s["function"]], []).append((s["resolved_by"], s["type"], targets))
# Since tracepoint_probe_register() is exported, a module may register
# a probe: its code (the stand-in) and what it can pass, the exported
# functions of the probe's prototype, among them every exported assembly
# function of no C prototype (arch/x86/lib/*.S, entry, irqflags.S:
# EXPORT_SYMBOL'd, no DWARF): said apart from the image's own probes.
ASM = {"__get_user_1", "__get_user_2", "__get_user_4", "__get_user_8",
       "__get_user_nocheck_1", "__get_user_nocheck_2", "__get_user_nocheck_4",
       "__get_user_nocheck_8", "__iowrite32_copy", "__memmove", "__memset",
       "__put_user_1", "__put_user_2", "__put_user_4", "__put_user_8",
       "__sw_hweight32", "__sw_hweight64", "clear_user_erms", "clear_user_original",
       "clear_user_rep_good", "entry_ibpb", "entry_untrain_ret", "native_save_fl",
       "retbleed_untrain_ret", "srso_alias_untrain_ret", "srso_untrain_ret",
       "x86_verw_sel"}
MODULES = "<module code: the callers of tracepoint_probe_register>"
def show(name):
    own = [[r, [x for x in t if x != MODULES and x not in ASM]] for r, _, t in sites[name]]
    modules = all(MODULES in t and ASM <= set(t) for _, _, t in sites[name])
    print(name, json.dumps(own), "+ modules" if modules else "- modules")
show("__traceiter_sched_switch")
show("__traceiter_hrtimer_cancel")
show("__traceiter_contention_begin")
show("__SCT__tp_func_contention_begin")
print("__SCT__x86_pmu_handle_irq", json.dumps(sites["__SCT__x86_pmu_handle_irq"]))
print("traceiter", sorted({r for n, v in sites.items() if n.startswith("__traceiter_") for r, _, _ in v}))
print("bpf_func", sorted({r for v in sites.values() for r, t, _ in v if t == "unsigned int(void*,struct bpf_insn*)"}))
jit = [f for f in j["functions"] if f["name"] == "<bpf jit>"][0]
print("jit", jit["self"], "bpf_map_lookup_elem" in [names[c["id"]] for c in jit["calls"]])
PY
rm -f "$OUT/vmlinux.json"
# kernel/sched/core.c's event (class sched_switch) and the probes the
# image's register_trace_sched_switch() calls pass: kernel/trace/
# trace_sched_switch.c, fgraph.c, ftrace.c, trace_events.c (pid filters)
expect_eq "__traceiter_sched_switch" "$(grep '^__traceiter_sched_switch ' "$OUT/kernel.txt")" \
	'__traceiter_sched_switch [["tracepoint", ["__bpf_trace_sched_switch", "event_filter_pid_sched_switch_probe_post", "event_filter_pid_sched_switch_probe_pre", "ftrace_filter_pid_sched_switch_probe", "ftrace_graph_probe_sched_switch", "perf_trace_sched_switch", "probe_sched_switch", "trace_event_raw_event_sched_switch"]]] + modules'
# DEFINE_EVENT(hrtimer_class, hrtimer_cancel): the class's probes,
# __bpf_trace_hrtimer_class through __bpf_raw_tp_map
expect_eq "__traceiter_hrtimer_cancel" "$(grep '^__traceiter_hrtimer_cancel ' "$OUT/kernel.txt")" \
	'__traceiter_hrtimer_cancel [["tracepoint", ["__bpf_trace_hrtimer_class", "perf_trace_hrtimer_class", "trace_event_raw_event_hrtimer_class"]]] + modules'
# TRACE_EVENT(contention_begin, TP_PROTO(void *lock, unsigned int
# flags)) (include/trace/events/lock.h): its class's three; not those of
# xen_cpu_set_ldt (TP_PROTO(const void *addr, unsigned entries),
# arch/x86/include/asm/xen/trace.h), of the same prototype, which only
# its own tracepoint gets; the static call, these and the iterator
expect_eq "__traceiter_contention_begin" "$(grep '^__traceiter_contention_begin ' "$OUT/kernel.txt")" \
	'__traceiter_contention_begin [["tracepoint", ["__bpf_trace_contention_begin", "perf_trace_contention_begin", "trace_event_raw_event_contention_begin"]]] + modules'
expect_eq "__SCT__tp_func_contention_begin" "$(grep '^__SCT__tp_func_contention_begin ' "$OUT/kernel.txt")" \
	'__SCT__tp_func_contention_begin [["static-call", ["__bpf_trace_contention_begin", "__traceiter_contention_begin", "perf_trace_contention_begin", "trace_event_raw_event_contention_begin"]]] + modules'
expect_eq "every __traceiter_ call" "$(grep '^traceiter ' "$OUT/kernel.txt")" "traceiter ['tracepoint']"
# bpf_prog_run's calls: the interpreters and <bpf jit>, which calls the
# helpers (bpf_map_lookup_elem's proto names it)
expect_eq "bpf_func calls" "$(grep '^bpf_func ' "$OUT/kernel.txt")" "bpf_func ['bpf']"
expect_eq "<bpf jit>" "$(grep '^jit ' "$OUT/kernel.txt")" "jit 21288 True"
# a static call's trampoline (t1179): arch/x86/events/core.c's
# static_call_update(x86_pmu_handle_irq, x86_pmu.handle_irq), x86_pmu a
# copy of core_pmu, intel_pmu, amd_pmu, knc_pmu, p4_pmu, p6_pmu,
# zhaoxin_pmu, or given amd_pmu_v2_handle_irq: each one's handler
expect_eq "__SCT__x86_pmu_handle_irq" "$(grep '^__SCT__x86_pmu_handle_irq ' "$OUT/kernel.txt")" \
	'__SCT__x86_pmu_handle_irq [["static-call", "__SCK__x86_pmu_handle_irq", ["amd_pmu_handle_irq", "amd_pmu_v2_handle_irq", "intel_pmu_handle_irq", "knc_pmu_handle_irq", "p4_pmu_handle_irq", "x86_pmu_handle_irq", "zhaoxin_pmu_handle_irq"]]]'
finish
