#!/bin/sh
# annotations/linux.ann's sections "block: a plug flushed by a task
# about to sleep" and "Xen: the hypercall static call's first target" on
# Debian's 6.1 cloud kernel, typed: every line applies without
# 'optional' (so each call it names exists), and one run shows both
# sides of each line: below schedule(), io_schedule() and
# wakeup_flusher_threads() (blk_flush_plug(..., true)) the plug's flush
# calls no driver queue function (->queue_rqs(), a direct issue, a
# synchronous queue run), while below blk_finish_plug() (false) it still
# does; __xen_hypercall_setfunc() calls no __static_call_update(), while
# xen_hypercall_setfunc() still does.
# Needs the unpacked debug kernel (another one:
# STACKPROF_DEBIAN_VMLINUX=PATH); skips without it.
. tests/e2e/lib.sh

vmlinux=${STACKPROF_DEBIAN_VMLINUX:-/tmp/debian-kernel/root/usr/lib/debug/boot/vmlinux-6.1.0-47-cloud-amd64}
[ -r "$vmlinux" ] || skip "no Debian debug kernel at $vmlinux"
no_kernel_under_asan

for s in 'block: a plug flushed by a task about to sleep' \
	"Xen: the hypercall static call's first target"; do
	sed -n "/^# ---- $s ----/,/^# ---- end of $s ----/p" annotations/linux.ann |
		sed -n 's/^optional //p'
done >"$OUT/lines.ann"
expect_eq "lines in the two sections" "$(grep -c '^ignore ' "$OUT/lines.ann")" 21

run_sp --indirect=types --json -o "$OUT/r.json" --annotate "$OUT/lines.ann" "$vmlinux"
expect_rc 0 "the sections' lines apply to $vmlinux without 'optional'"

# [the callees, of those named, of the function at the end of the chain
# of calls by name from each root]
python3 - "$OUT/r.json" >"$OUT/calls" <<'PY'
import json, sys
sys.path.insert(0, "tests/e2e")
import sp_report
rep = json.load(open(sys.argv[1]))
def follow(root, chain, wanted):
    return sp_report.callees_along(rep, root, chain, wanted)
flush = ["__blk_flush_plug", "blk_mq_flush_plug_list", "blk_mq_flush_plug_list"]
for root in ("schedule", "io_schedule", "wakeup_flusher_threads", "blk_finish_plug"):
    print(root, follow(root, flush, ["nvme_queue_rqs", "blk_mq_plug_issue_direct",
                                     "blk_mq_sched_insert_requests"]),
          follow(root, flush + ["blk_mq_sched_insert_requests"],
                 ["blk_mq_try_issue_list_directly", "blk_mq_run_hw_queue"]),
          follow(root, flush + ["blk_mq_sched_insert_requests", "blk_mq_run_hw_queue",
                                "__blk_mq_delay_run_hw_queue"],
                 ["__blk_mq_run_hw_queue", "kblockd_mod_delayed_work_on"]))
for f in ("__xen_hypercall_setfunc", "xen_hypercall_setfunc"):
    print(f, follow(f, [], ["__static_call_update"]))
PY
expect_eq "the calls below each root" "$(cat "$OUT/calls")" \
"schedule ['blk_mq_sched_insert_requests'] ['blk_mq_run_hw_queue'] ['kblockd_mod_delayed_work_on']
io_schedule ['blk_mq_sched_insert_requests'] ['blk_mq_run_hw_queue'] ['kblockd_mod_delayed_work_on']
wakeup_flusher_threads ['blk_mq_sched_insert_requests'] ['blk_mq_run_hw_queue'] ['kblockd_mod_delayed_work_on']
blk_finish_plug ['blk_mq_plug_issue_direct', 'blk_mq_sched_insert_requests', 'nvme_queue_rqs'] ['blk_mq_run_hw_queue', 'blk_mq_try_issue_list_directly'] ['__blk_mq_run_hw_queue', 'kblockd_mod_delayed_work_on']
__xen_hypercall_setfunc []
xen_hypercall_setfunc ['__static_call_update']"
finish
