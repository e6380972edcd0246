#!/bin/sh
# The shipped annotations/linux.ann on Debian's 6.1 cloud kernel: every
# line names a function of that image, and every ignore a call of it (a
# copy without 'optional' is accepted), the once/nest functions leave
# their cycles, their paths keep the counts, an ignored call is gone, a
# call ignored below an ancestor stays but no path takes it below that
# ancestor (and none of its line's 'unless' functions), printk is no
# longer a cycle, nor a wakeup below a wakeup (ksoftirqd's through
# raise_softirq_irqoff's inlined wakeup_softirqd, psi's avgs_work
# through psi_group_change's inlined queue_delayed_work, RCU's
# expedited report), the calls ignored from one caller are gone from
# the copy it calls (the stopper's wakeup, kfree_rcu() with a head, a
# hardware queue run again from its own dispatch), va_format() leaves its
# %pV cycle and every holder of a struct va_format is named.  Needs
# the unpacked debug kernel (another one: STACKPROF_DEBIAN_VMLINUX=PATH);
# skips without it.
. tests/e2e/lib.sh

vmlinux=${STACKPROF_DEBIAN_VMLINUX:-/tmp/debian-kernel/root/usr/lib/debug/boot/vmlinux-6.1.0-47-cloud-amd64}
[ -r "$vmlinux" ] || skip "no Debian debug kernel at $vmlinux"
no_kernel_under_asan

# the sections whose calls --indirect=types makes (a driver's
# ->queue_rqs(), an LSM hook, a prototype's stand-in) have tests of
# their own, typed (t1256, t1269); this one is of the plain run
sed -e '/^# ---- block: a plug flushed by a task about to sleep ----/,/^# ---- end of block: a plug/d' \
	-e '/^# ---- capability checks and formats: /,/^# ---- end of capability checks and formats: /d' \
	-e '/^# ---- x86 PMU: a hook no PMU sets ----/,/^# ---- end of x86 PMU: /d' \
	annotations/linux.ann >"$OUT/linux.ann"
# 'nest va_format per' lines list the holders of every configuration:
# they stay optional (a holder the image lacks is skipped); the image's
# own are checked below
sed '/^optional nest [^ ]* per /!s/^optional //' "$OUT/linux.ann" >"$OUT/strict.ann"
names=$(awk '$1 == "optional" && ($2 == "once" || $2 == "nest") { print $3 }' "$OUT/linux.ann" | sort -u)
# ignore FUNC CALLEE [below ANCESTOR [unless RESET...]] as JSON lists
# [FUNC, CALLEE, ANCESTOR, RESET...]; a node's name ("<page fault>")
# holds a blank
ignores=$(python3 -c 'import json, sys; sys.path.insert(0, "bench"); import kernel_cycles
print(json.dumps([w[2:4] + w[5:6] + w[7:] for w in map(kernel_cycles.words, open(sys.argv[1]))
                  if w[:2] == ["optional", "ignore"] and w[4:5] != ["from"]]))' "$OUT/linux.ann")
# ignore FUNC CALLEE from CALLER... as [FUNC, CALLEE, CALLER...]
froms=$(python3 -c 'import json, sys; sys.path.insert(0, "bench"); import kernel_cycles
print(json.dumps([w[2:4] + w[5:] for w in map(kernel_cycles.words, open(sys.argv[1]))
                  if w[:2] == ["optional", "ignore"] and w[4:5] == ["from"]]))' "$OUT/linux.ann")
# every name a line gives is an entry (nodes too), each as one argument
set -- $(for n in $names _printk try_to_wake_up; do echo "--entry $n"; done)
for n in $(python3 -c 'import json, sys
print("\n".join(sorted({n.replace(" ", "@") for i in json.loads(sys.argv[1]) + json.loads(sys.argv[2])
                         for n in i})))' "$ignores" "$froms"); do
	set -- "$@" --entry "$(echo "$n" | tr @ ' ')"
done
run_sp --json --annotate "$OUT/strict.ann" "$@" "$vmlinux"
expect_rc 0 "every line applies to $vmlinux"
cp "$OUT/stdout" "$OUT/k.json"
j=$OUT/k.json
list=$(echo $names | sed 's/\([^ ]*\)/"\1"/g; s/ /, /g')
# (a function 'from' lines copy, __vunmap, counts its copies too)
expect_eq "annotated functions are in no cycle" \
	"$(jget $j "sorted({n for n in [$list] for f in fns(n) if f['recursive']})")" '[]'
# the functions of the image whose frame holds a struct va_format (its
# DWARF: a DW_TAG_variable of that type in 39 subprograms, none in an
# inlined copy; llvm-dwarfdump --debug-info), each named by a per line
# (va_format, in the list above, leaves its cycle)
held=$(awk '$1 == "optional" && $2 == "nest" && $4 == "per" { for (i = 5; i <= NF && $i != "#"; i++) print $i }' \
	"$OUT/linux.ann" | sort -u)
missing=
for h in __acpi_handle_debug __dynamic_dev_dbg __dynamic_ibdev_dbg __dynamic_netdev_dbg \
	__dynamic_pr_debug __ext4_error __ext4_error_file __ext4_error_inode \
	__ext4_grp_locked_error __ext4_msg __ext4_warning __ext4_warning_inode __quota_error \
	_dev_alert _dev_crit _dev_emerg _dev_err _dev_info _dev_notice _dev_printk _dev_warn \
	acpi_handle_printk dev_err_probe fscrypt_msg fsverity_msg logfc netdev_alert netdev_crit \
	netdev_emerg netdev_err netdev_info netdev_notice netdev_printk netdev_warn slab_bug \
	slab_fix sysctl_err umip_printk warn_alloc; do
	echo "$held" | grep -qx "$h" || missing="$missing $h"
done
expect_eq "every holder of a struct va_format is named" "$missing" ""
expect_eq "__stack_chk_fail's cut cycle, said" \
	"$(jget $j '[r for r in fn("__stack_chk_fail")["reasons"] if "bounded by annotation" in r]')" \
	'["recursion __stack_chk_fail -> panic -> _printk -> __stack_chk_fail bounded by annotation: __stack_chk_fail at most once on a stack"]'
# a path may hold each annotated function as often as its line allows
expect_eq "paths keep the counts" \
	"$(jget $j '[f["name"] for f in j["functions"] for n, k in [("__stack_chk_fail", 1), ("__schedule", 1), ("vprintk_store", 5), ("try_to_free_pages", 1), ("try_to_free_mem_cgroup_pages", 1), ("__node_reclaim", 1), ("out_of_memory", 1), ("add_taint", 3)] if f["path"].count(n) > k]')" '[]'
# a plain ignore removes the call; one below an ancestor keeps it for the
# other callers, and no path takes it with the ancestor before it
expect_eq "ignored calls are gone" \
	"$(jget $j "[i for i in $ignores if len(i) == 2 and i[1] in [c['name'] for f in fns(i[0]) for c in f['calls']]]")" '[]'
expect_eq "calls ignored below an ancestor stay" \
	"$(jget $j "[i for i in $ignores if len(i) >= 3 and i[1] not in [c['name'] for f in fns(i[0]) for c in f['calls']]]")" '[]'
expect_eq "no path takes them below it" \
	"$(jget $j "[(f['name'], i) for f in j['functions'] for i in $ignores if len(i) >= 3 for k in range(len(f['path']) - 1) if f['path'][k:k + 2] == i[:2] and i[2] in f['path'][:k] and not set(i[3:]) & set(f['path'][:k])]")" '[]'
# one ignored from a caller (or a chain of them): the caller (the copy
# of it that the chain's next caller calls) calls a copy without it, the
# function itself keeps it, and no path takes it right below the chain
expect_eq "calls ignored from a caller are gone from its copy" \
	"$(jget $j "(lambda by: [i for i in $froms for d in __import__('functools').reduce(lambda fs, n: [by[c['id']] for f in fs for c in f['calls'] if by[c['id']]['name'] == n], i[2:-1][::-1] + [i[0]], fns(i[-1])) if i[1] in [by[e['id']]['name'] for e in d['calls']]])({h['id']: h for h in j['all_functions']})")" '[]'
expect_eq "calls ignored from a caller stay elsewhere" \
	"$(jget $j "[i for i in $froms if i[1] not in [c['name'] for f in fns(i[0]) for c in f['calls']]]")" '[]'
expect_eq "no path takes them from that caller" \
	"$(jget $j "[(f['name'], i) for f in j['functions'] for i in $froms for k in range(len(f['path'])) if f['path'][k:k + len(i)] == i[2:][::-1] + i[:2]]")" '[]'
# the stopper's wakeup: cpu_stop_queue_work is in no cycle of direct calls
expect_eq "the stopper's wakeup is no cycle" "$(jget $j 'fn("cpu_stop_queue_work")["recursive"]')" false
# printk below the console's semaphore and below console_emit_next_record
# does not flush again: no cycle of direct calls takes printk through the
# console but a WARN() while printing (report_bug() prints; linux.ann
# says why that one stays)
expect_eq "printk through the console is no cycle" \
	"$(jget $j '[r for r in fn("_printk")["reasons"] if r.startswith("recursion") and "console_unlock" in r and "<warning> -> exc_invalid_op -> handle_bug -> report_bug" not in r]')" '[]'
# the wakeups below a wakeup that the file cuts: ksoftirqd's, psi's
# avgs_work, RCU's expedited report; of direct calls try_to_wake_up is
# then in no cycle
expect_eq "a wakeup below a wakeup is no cycle" \
	"$(jget $j '[any(f["recursive"] for f in fns("try_to_wake_up")), [r for f in fns("try_to_wake_up") for r in f["reasons"] if r.startswith("recursion") and "try_to_wake_up" in r]]')" \
	'[false, []]'
expect_eq "raise_softirq_irqoff calls wake_up_process through its inlined wakeup_softirqd" \
	"$(jget $j '[[c["name"] for c in fn("raise_softirq_irqoff")["calls"] if c["name"] in ("wake_up_process", "raise_softirq_irqoff/wakeup_softirqd")], [c["name"] for c in fn("raise_softirq_irqoff/wakeup_softirqd")["calls"]]]')" \
	'[["raise_softirq_irqoff/wakeup_softirqd"], ["wake_up_process"]]'
finish
