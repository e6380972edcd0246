#!/bin/sh
# The drivers section of annotations/linux.ann: 'ignore ... from' lines
# whose chain runs through CALLEE, and the cycles they cut on Debian's 6.1
# cloud kernel.
# First tests/data/annot/fromback.c, the shape of __xenbus_switch_state ->
# xenbus_switch_fatal -> __xenbus_switch_state (fatal() switches again
# only at depth 0, and passes 1): 'ignore fatal switch_state from
# switch_state fatal' applies (CALLEE is resolved after the chain's
# copies, so FUNC's call of the copied switch_state counts), the cycle is
# gone, and the totals are summed by hand from the .su rows.
# Then the kernel (skipped without it; another one:
# STACKPROF_DEBIAN_VMLINUX=PATH): every line of the section applies
# without 'optional' (each call it names exists), and the cycles that
# the driver core's own devices (a device link's, a wakeup source's),
# ACPICA's reference counts, resource conversion and load pass, CPPC,
# PCI VC and VPD, xenbus, the ACPI EC and a failed skcipher walk step
# closed are named in reasons without the lines and not with them, no
# function is recursive that was not before, and the rpm_suspend()s that
# an asynchronous rpm_idle() calls run no suspend callback and no
# deferred resume.
. tests/e2e/lib.sh

[ "$(uname -m)" = x86_64 ] || skip "x86-64 only (the red-zone check reads x86-64 code)"
annot_sample fromback main switch_state fatal
"$bin" || fail "fromback exits $?"
m=$(su_self $su main) S=$(su_self $su switch_state) F=$(su_self $su fatal)
R=$(su_self $su report)
expect_eq "report's red zone" "$(red_zone "$bin" report)" 0
run_sp --json $bin $su
expect_rc 0 "plain"
expect_eq "plain: the cycle" \
	"$(jget $OUT/stdout 'sorted(f["name"] for f in j["functions"] if f["recursive"])')" '["fatal", "switch_state"]'
ann=$OUT/b.ann
printf '# depth 1 below\nignore fatal switch_state from switch_state fatal\n' >"$ann"
run_sp --json --annotate "$ann" $bin $su
expect_rc 0 "from switch_state fatal"
j=$OUT/stdout
inner=$((F + R))
expect_eq "from switch_state fatal: main's total" "$(jget $j 'fn("main")["total"]')" \
	"$((m + S + F + S + inner))"
expect_eq "from switch_state fatal: two fatals, the copy only reports" \
	"$(jget $j 'sorted([f["total"], sorted(c["name"] for c in f["calls"])] for f in fns("fatal"))')" \
	"[[$inner, [\"report\"]], [$((F + S + inner)), [\"report\", \"switch_state\"]]]"
expect_eq "from switch_state fatal: all bounded, none recursive" \
	"$(jget $j 'sorted(set((f["bounded"], f["recursive"]) for f in j["functions"]))')" '[[true, false]]'

vmlinux=${STACKPROF_DEBIAN_VMLINUX:-/tmp/debian-kernel/root/usr/lib/debug/boot/vmlinux-6.1.0-47-cloud-amd64}
[ -r "$vmlinux" ] || skip "no Debian debug kernel at $vmlinux"
no_kernel_under_asan part
sed -n '/^# ---- drivers /,/^# ---- end of drivers/p' annotations/linux.ann |
	grep '^optional ignore .* from ' | sed 's/^optional //; s/  #.*//' >"$OUT/lines.ann"
expect_eq "the lines in the drivers section" "$(wc -l <"$OUT/lines.ann")" 35
run_sp --json "$vmlinux"
expect_rc 0 "the kernel without the lines"
cp "$OUT/stdout" "$OUT/without.json"
run_sp --json --annotate "$OUT/lines.ann" "$vmlinux"
expect_rc 0 "the lines apply to $vmlinux without 'optional'"
cp "$OUT/stdout" "$OUT/with.json"
cat >"$OUT/cycles.txt" <<'CYC'
recursion device_link_add -> device_add -> __fw_devlink_link_to_suppliers -> fw_devlink_create_devlink -> device_link_add
recursion __device_link_del -> device_unregister -> device_del -> __device_link_del
recursion bus_probe_device -> device_initial_probe -> __device_attach -> driver_bound -> device_links_driver_bound -> __fw_devlink_link_to_consumers -> fw_devlink_create_devlink -> device_link_add -> device_add -> bus_probe_device
recursion bus_remove_device -> device_release_driver -> device_release_driver_internal -> device_links_driver_cleanup -> device_link_drop_managed -> __device_link_del -> device_unregister -> device_del -> bus_remove_device
recursion dpm_sysfs_add -> pm_wakeup_source_sysfs_add -> wakeup_source_device_create -> device_add -> dpm_sysfs_add
recursion pci_acpi_setup -> acpi_add_pm_notifier -> wakeup_source_register -> wakeup_source_sysfs_add -> wakeup_source_device_create -> device_add -> acpi_device_notify -> pci_acpi_setup
recursion device_pm_remove -> device_wakeup_disable -> wakeup_source_unregister -> wakeup_source_sysfs_remove -> device_unregister -> device_del -> device_pm_remove
recursion pci_acpi_cleanup -> device_wakeup_disable -> wakeup_source_unregister -> wakeup_source_sysfs_remove -> device_unregister -> device_del -> acpi_device_notify_remove -> pci_acpi_cleanup
recursion device_change_owner -> dpm_sysfs_change_owner -> device_change_owner
recursion acpi_ut_update_object_reference -> acpi_ut_update_ref_count -> acpi_ut_update_object_reference
recursion acpi_rs_convert_aml_to_resource -> acpi_rs_get_address_common -> acpi_rs_convert_aml_to_resource
recursion acpi_rs_convert_resource_to_aml -> acpi_rs_set_address_common -> acpi_rs_convert_resource_to_aml
recursion send_pcc_cmd -> send_pcc_cmd
recursion pci_vc_do_save_buffer -> pci_vc_do_save_buffer
recursion pci_vpd_available -> __pci_read_vpd -> pci_vpd_read -> pci_vpd_available
recursion xenbus_switch_fatal -> __xenbus_switch_state -> xenbus_switch_fatal
recursion advance_transaction -> acpi_ec_close_event -> acpi_ec_unmask_events -> advance_transaction
recursion acpi_ds_exec_begin_op -> acpi_ds_load2_begin_op -> acpi_ds_exec_begin_op
recursion skcipher_walk_next -> skcipher_walk_done -> skcipher_walk_next
CYC
for r in without with; do
	python3 - "$OUT/$r.json" "$OUT/cycles.txt" >"$OUT/$r.txt" <<'PY'
import json, sys
named = set(x for f in json.load(open(sys.argv[1]))["functions"]
            for x in f.get("reasons") or [] if x.startswith("recursion ")
            and "bounded by annotation" not in x)
print(json.dumps([line.strip() in named for line in open(sys.argv[2])]))
print(json.dumps(sorted(set(f["name"] for f in json.load(open(sys.argv[1]))["functions"] if f["recursive"]))))
PY
done
expect_eq "without the lines every cycle is named" "$(head -1 "$OUT/without.txt")" \
	'[true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true]'
expect_eq "with them none is" "$(head -1 "$OUT/with.txt")" \
	'[false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false]'
expect_eq "with them no function is recursive that was not before" \
	"$(python3 -c 'import json,sys; a,b=(set(json.loads(open(p).read().splitlines()[1])) for p in sys.argv[1:]); print(sorted(b-a))' "$OUT/without.txt" "$OUT/with.txt")" '[]'
# runtime PM: the rpm_suspend()s that an asynchronous rpm_idle() calls
# (from a suspend's parent, a resume, a resume's parent put, a link's
# released supplier) call no suspend callback and no deferred resume;
# per chain of callers, [calls rpm_callback, calls rpm_resume] of each
# rpm_suspend at its end
rpm='[[" ".join(ch), sorted(set((any(F[d["id"]]["name"] == "rpm_callback" for d in s["calls"]), any(F[d["id"]]["name"] == "rpm_resume" for d in s["calls"])) for s in ends(ch)))] for ch in (("rpm_suspend", "rpm_idle"), ("rpm_resume", "rpm_idle"), ("rpm_resume", "__pm_runtime_idle", "rpm_idle"), ("__rpm_put_suppliers", "rpm_idle"))]'
for r in without with; do
	python3 - "$OUT/$r.json" "$rpm" >"$OUT/rpm-$r.txt" <<'PY'
import json, sys
F = json.load(open(sys.argv[1]))["functions"]
def ends(chain):
    at = [f for f in F if f["name"] == chain[0]]
    for name in chain[1:] + ("rpm_suspend",):
        at = [F[c["id"]] for g in at for c in g["calls"] if F[c["id"]]["name"] == name]
    return at
print(json.dumps(eval(sys.argv[2])))
PY
done
expect_eq "without the lines each rpm_suspend may call both" "$(cat "$OUT/rpm-without.txt")" \
	'[["rpm_suspend rpm_idle", [[true, true]]], ["rpm_resume rpm_idle", [[true, true]]], ["rpm_resume __pm_runtime_idle rpm_idle", [[true, true]]], ["__rpm_put_suppliers rpm_idle", [[true, true]]]]'
expect_eq "with them none does" "$(cat "$OUT/rpm-with.txt")" \
	'[["rpm_suspend rpm_idle", [[false, false]]], ["rpm_resume rpm_idle", [[false, false]]], ["rpm_resume __pm_runtime_idle rpm_idle", [[false, false]]], ["__rpm_put_suppliers rpm_idle", [[false, false]]]]'
finish
