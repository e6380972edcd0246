#!/bin/sh
# annotations/linux.ann's sections "capability checks and formats: calls
# their arguments rule out" and "x86 PMU: a hook no PMU sets", whose
# calls --indirect=types makes, and linux-assumed.ann's lines on the return
# stacks of the function graph tracer and rethook, on Debian's 6.1
# cloud kernel, typed: every line applies without 'optional' (so each
# call it names exists), and one run shows both sides of each: below
# has_capability_noaudit(), has_ns_capability_noaudit(),
# ns_capable_noaudit() and ptracer_capable() SELinux's capability check
# does not audit, below capable() it still does; __sprint_symbol()'s and
# slab_err()'s formats reach no restricted_pointer() (%pK), snprintf()'s
# still do; x86_pmu_enable() calls no function of type int(int), while
# do_blank_screen() (a console's blank hook) still does; and the two
# assumed calls are gone.
# Needs the unpacked debug kernel (another one:
# STACKPROF_DEBIAN_VMLINUX=PATH); skips without it.
. tests/e2e/lib.sh

vmlinux=${STACKPROF_DEBIAN_VMLINUX:-/tmp/debian-kernel/root/usr/lib/debug/boot/vmlinux-6.1.0-47-cloud-amd64}
[ -r "$vmlinux" ] || skip "no Debian debug kernel at $vmlinux"
no_kernel_under_asan

s='capability checks and formats: calls their arguments rule out'
sed -n "/^# ---- $s ----/,/^# ---- end of $s ----/p" annotations/linux.ann |
	sed -n 's/^optional //p' >"$OUT/lines.ann"
expect_eq "lines in the section" "$(grep -c '^ignore ' "$OUT/lines.ann")" 6
s='x86 PMU: a hook no PMU sets'
sed -n "/^# ---- $s ----/,/^# ---- end of $s ----/p" annotations/linux.ann |
	sed -n 's/^optional //p' >>"$OUT/lines.ann"
expect_eq "lines in both sections" "$(grep -c '^ignore ' "$OUT/lines.ann")" 7
grep -E '^optional assume ignore (ftrace_return_to_handler|rethook_trampoline_handler) ' \
	annotations/linux-assumed.ann | sed 's/^optional //' >>"$OUT/lines.ann"
expect_eq "the assumed lines" "$(grep -c '^assume ignore ' "$OUT/lines.ann")" 2

run_sp --indirect=types --json -o "$OUT/r.json" --annotate "$OUT/lines.ann" "$vmlinux"
expect_rc 0 "the lines apply to $vmlinux without 'optional'"

# [the callees, of those named, of the function at the end of the chain
# of calls by name from each root]
python3 - "$OUT/r.json" >"$OUT/calls" <<'PY'
import json, sys
sys.path.insert(0, "tests/e2e")
import sp_report
rep = json.load(open(sys.argv[1]))
def follow(root, chain, wanted):
    return sp_report.callees_along(rep, root, chain, wanted)
check = ["security_capable", "selinux_capable", "cred_has_capability"]
for root in ("has_capability_noaudit", "has_ns_capability_noaudit", "ns_capable_noaudit",
             "ptracer_capable", "capable"):
    print(root, follow(root, check, ["slow_avc_audit", "avc_has_perm_noaudit"]))
for root, chain in (("__sprint_symbol", ["sprintf"]), ("slab_err", []), ("snprintf", [])):
    print(root, follow(root, chain + ["vsnprintf", "pointer"], ["restricted_pointer", "default_pointer"]))
print([follow(f, [], ["<prototype int(int)>"]) for f in ("x86_pmu_enable", "do_blank_screen")])
print(follow("ftrace_return_to_handler", [], ["static_key_enable", "trace_clock_local"]),
      follow("rethook_trampoline_handler", [], ["_printk", "rethook_recycle"]))
PY
expect_eq "the calls below each root" "$(cat "$OUT/calls")" \
"has_capability_noaudit ['avc_has_perm_noaudit']
has_ns_capability_noaudit ['avc_has_perm_noaudit']
ns_capable_noaudit ['avc_has_perm_noaudit']
ptracer_capable ['avc_has_perm_noaudit']
capable ['avc_has_perm_noaudit', 'slow_avc_audit']
__sprint_symbol ['default_pointer']
slab_err ['default_pointer']
snprintf ['default_pointer', 'restricted_pointer']
[[], ['<prototype int(int)>']]
['trace_clock_local'] ['rethook_recycle']"
finish
