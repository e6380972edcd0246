#!/bin/sh
# annotations/linux.ann's facts on the kernel's direct-call cycles through
# BUG()s, exceptions and the slab allocator's objcg vector, on Debian's
# 6.1 cloud kernel: each line applies without 'optional' (so each call it
# names exists), and the calls it drops are there without it and gone
# with it: fixup_exception(), preempt_schedule_irq() and module_flags()
# call no <invalid opcode>, fpu_reset_from_exception_fixup()'s
# restore_fpregs_from_fpstate() no <general protection>, and of the two
# allocate_slab()s, the one the vector's own allocation reaches
# (memcg_alloc_slab_cgroups -> __kmalloc_node -> __kmem_cache_alloc_node
# -> ___slab_alloc -> allocate_slab) calls no memcg_alloc_slab_cgroups()
# while the other one still does.
# Needs the unpacked debug kernel (another one:
# STACKPROF_DEBIAN_VMLINUX=PATH); skips without it.
. tests/e2e/lib.sh

vmlinux=${STACKPROF_DEBIAN_VMLINUX:-/tmp/debian-kernel/root/usr/lib/debug/boot/vmlinux-6.1.0-47-cloud-amd64}
[ -r "$vmlinux" ] || skip "no Debian debug kernel at $vmlinux"
no_kernel_under_asan

grep -E '^optional (ignore irqentry_exit irqentry_exit_to_user_mode below <|ignore restore_fpregs_from_fpstate <general protection> from |ignore (fixup_exception|preempt_schedule_irq|module_flags) <invalid opcode>$|ignore allocate_slab memcg_alloc_slab_cgroups from )' \
	annotations/linux.ann | sed 's/^optional //' >"$OUT/lines.ann"
expect_eq "the lines in annotations/linux.ann" "$(wc -l <"$OUT/lines.ann")" 8

# the call each checked line drops, and what the vector's allocation
# reaches: [callee present per function of that name], and per
# allocate_slab [reached from the vector's allocation, calls the vector's]
calls='[[n, [callee in [c["name"] for c in f["calls"]] for f in fns(n)]] for n, callee in (("fixup_exception", "<invalid opcode>"), ("preempt_schedule_irq", "<invalid opcode>"), ("module_flags", "<invalid opcode>"))]'
fpu='[["<general protection>" in [d["name"] for g in j["functions"] if g["id"] == c["id"] for d in g["calls"]] for c in f["calls"] if c["name"] == "restore_fpregs_from_fpstate"] for f in fns("fpu_reset_from_exception_fixup")]'
run_sp --json "$vmlinux"
expect_rc 0 "the kernel without the lines"
cp "$OUT/stdout" "$OUT/without.json"
expect_eq "without the lines the calls are there" "$(jget "$OUT/without.json" "$calls")" \
	'[["fixup_exception", [true]], ["preempt_schedule_irq", [true]], ["module_flags", [true]]]'
expect_eq "without the lines the FPU reset restores with a #GP" "$(jget "$OUT/without.json" "$fpu")" '[[true]]'

run_sp --json --annotate "$OUT/lines.ann" "$vmlinux"
expect_rc 0 "the lines apply to $vmlinux without 'optional'"
cp "$OUT/stdout" "$OUT/with.json"
expect_eq "with the lines the BUG()s are gone" "$(jget "$OUT/with.json" "$calls")" \
	'[["fixup_exception", [false]], ["preempt_schedule_irq", [false]], ["module_flags", [false]]]'
expect_eq "with the lines the FPU reset takes no #GP" "$(jget "$OUT/with.json" "$fpu")" '[[false]]'
for r in without with; do
	got=$(python3 - "$OUT/$r.json" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
F = j["functions"]
ends = []
for f in F:
    if f["name"] != "memcg_alloc_slab_cgroups":
        continue
    at = [f]
    for name in ("__kmalloc_node", "__kmem_cache_alloc_node", "___slab_alloc", "allocate_slab"):
        at = [F[c["id"]] for g in at for c in g["calls"] if F[c["id"]]["name"] == name]
    ends += [g["id"] for g in at]
print(sorted([f["id"] in ends, "memcg_alloc_slab_cgroups" in [F[c["id"]]["name"] for c in f["calls"]]]
             for f in F if f["name"] == "allocate_slab"))
PY
)
	echo "$r: $got" >>"$OUT/slab.txt"
done
expect_eq "the vector's new slab gets no vector; other slabs may" "$(cat "$OUT/slab.txt")" \
	"without: [[True, True]]
with: [[False, True], [True, False]]"
finish
