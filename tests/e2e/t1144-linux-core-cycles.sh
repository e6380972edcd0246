#!/bin/sh
# annotations/linux.ann's facts on the direct-call cycles of mm, kernel,
# lib, block, arch/x86 and the core file systems (its section "mm,
# kernel, lib, block, arch, fs core"), on Debian's 6.1 cloud kernel:
# every line of the section applies without 'optional' (so each call it
# names exists), the cycles it breaks or bounds are named unbounded in
# the reasons of the kernel's functions without the section's lines and
# in none with them,
# and the calls the 'from' lines drop off the paths of the deepest
# system calls are there without them and gone with them.
# Needs the unpacked debug kernel (another one:
# STACKPROF_DEBIAN_VMLINUX=PATH); skips without it.
. tests/e2e/lib.sh

vmlinux=${STACKPROF_DEBIAN_VMLINUX:-/tmp/debian-kernel/root/usr/lib/debug/boot/vmlinux-6.1.0-47-cloud-amd64}
[ -r "$vmlinux" ] || skip "no Debian debug kernel at $vmlinux"
no_kernel_under_asan

# the section's lines, strict, and the rest of the file
sed -n '/^# ---- mm, kernel, lib, block, arch, fs core/,/^# ---- end of mm, kernel/p' \
	annotations/linux.ann | sed -n 's/^optional //p' >"$OUT/core.ann"
sed '/^# ---- mm, kernel, lib, block, arch, fs core/,/^# ---- end of mm, kernel/d' \
	annotations/linux.ann >"$OUT/rest.ann"
[ -s "$OUT/core.ann" ] || fail "no lines in the section of annotations/linux.ann"

run_sp --kernel-summary --json -o "$OUT/without.json" --annotate "$OUT/rest.ann" "$vmlinux"
expect_rc 0 "the kernel with the rest of annotations/linux.ann"
run_sp --kernel-summary --json -o "$OUT/with.json" --annotate "$OUT/rest.ann" \
	--annotate "$OUT/core.ann" "$vmlinux"
expect_rc 0 "the section's lines apply to $vmlinux without 'optional'"

# each cycle, as the reasons name it, is there without the lines and
# gone with them
cat >"$OUT/cycles.txt" <<'EOF'
do_clear_cpu_cap -> do_clear_cpu_cap
kernfs_put -> kernfs_put
bpf_prog_put -> __bpf_prog_put -> bpf_prog_put_deferred -> __bpf_prog_put_noref -> bpf_prog_free -> bpf_prog_put
iput -> evict -> destroy_inode -> __destroy_inode -> __fsnotify_inode_delete -> fsnotify_destroy_marks -> fsnotify_drop_object -> iput
fsnotify_put_mark -> fsnotify_drop_object -> iput -> evict -> destroy_inode -> __destroy_inode -> __fsnotify_inode_delete -> fsnotify_destroy_marks -> fsnotify_put_mark
submit_bio_noacct -> submit_bio_noacct_nocheck -> __submit_bio -> blk_mq_submit_bio -> __bio_split_to_limits -> submit_bio_noacct
alloc_surplus_huge_page -> free_huge_page -> hugepage_subpool_put_pages -> hugetlb_acct_memory -> alloc_surplus_huge_page
free_huge_page -> hugepage_subpool_put_pages -> hugetlb_acct_memory -> free_huge_page
cleanup_mnt -> mntput_no_expire -> cleanup_mnt
simple_pin_fs -> vfs_kern_mount -> vfs_kern_mount -> vfs_get_tree -> fc_drop_locked -> deactivate_locked_super -> unregister_shrinker -> debugfs_remove -> simple_pin_fs
put_ctx -> put_ctx
ring_buffer_wake_waiters -> ring_buffer_wake_waiters
__seccomp_filter -> __seccomp_filter
find_fetch_type -> find_fetch_type
FSE_readNCount_body_default -> FSE_readNCount_body_default
try_one_irq -> handle_irq_event -> note_interrupt -> try_one_irq
hist_field_name -> hist_field_name
expr_str -> expr_str
field_has_hist_vars -> field_has_hist_vars
destroy_hist_field -> destroy_hist_field
parse_expr -> parse_expr
create_hist_field -> create_hist_field
event_hist_trigger_parse -> action_create -> event_hist_trigger_parse
__nla_validate_parse -> __nla_validate_parse
__bpf_core_types_are_compat -> __bpf_core_types_are_compat
__bpf_core_types_match -> __bpf_core_types_match
genradix_free_recurse -> genradix_free_recurse
memblock_reserve -> memblock_add_range -> memblock_double_array -> memblock_reserve
memremap -> arch_memremap_can_ram_remap -> memremap
emit_bpf_dispatcher -> emit_bpf_dispatcher
__btf_type_is_scalar_struct -> __btf_type_is_scalar_struct
find_css_set -> find_css_set
parse_probe_arg -> parse_probe_arg
__kmalloc -> __kmalloc_large_node -> __alloc_pages -> __alloc_pages_slowpath -> __alloc_pages_direct_compact -> try_to_compact_pages -> compact_zone_order -> compact_zone -> migrate_pages -> migrate_pages_batch -> split_huge_page_to_list -> xas_split_alloc -> kmem_cache_alloc_lru -> memcg_list_lru_alloc -> __kmalloc
__alloc_pages -> __alloc_pages_slowpath -> __alloc_pages_direct_compact -> try_to_compact_pages -> compact_zone_order -> compact_zone -> isolate_migratepages_block -> isolate_or_dissolve_huge_page -> alloc_buddy_huge_page -> __alloc_pages
__get_free_pages -> alloc_pages -> __alloc_pages -> __alloc_pages_slowpath -> __alloc_pages_direct_compact -> try_to_compact_pages -> compact_zone_order -> compact_zone -> isolate_migratepages_block -> isolate_or_dissolve_huge_page -> __prep_new_huge_page -> hugetlb_vmemmap_optimize -> vmemmap_remap_range -> __get_free_pages
<warning> -> exc_invalid_op -> handle_bug -> report_bug -> disable_trace_on_warning -> trace_array_printk_buf -> __trace_array_vprintk -> ring_buffer_write -> <warning>
EOF
for r in without with; do
	python3 - "$OUT/$r.json" "$OUT/cycles.txt" >"$OUT/$r.named" <<'PY'
import json, sys
F = json.load(open(sys.argv[1]))["functions"]
named = {x[len("recursion "):] for f in F for x in f.get("reasons") or []
         if x.startswith("recursion ") and " bounded by annotation" not in x}
for c in open(sys.argv[2]).read().splitlines():
    print(sum(x == c or x.startswith(c + " ") for x in named), c)
PY
done
expect_eq "without the lines every cycle is named" "$(grep -c '^0 ' "$OUT/without.named")" 0
expect_eq "with the lines no cycle is named" "$(grep -vc '^0 ' "$OUT/with.named")" 0
grep -v '^0 ' "$OUT/with.named" | sed 's/^/    still named: /'

# the 'from' lines on the deepest system calls' paths: [does some
# function named FUNC that CALLER calls call CALLEE]
calls='[[c, [callee in [d["name"] for g in j["functions"] if g["id"] == e["id"] for d in g["calls"]] for f in fns(caller) for e in f["calls"] if e["name"] == c]] for caller, c, callee in (("alloc_surplus_huge_page", "alloc_fresh_huge_page", "alloc_contig_pages"), ("mm_release", "do_futex", "futex_wait_requeue_pi"), ("mm_release", "do_futex", "futex_lock_pi"), ("create_io_thread", "copy_process", "dup_mmap"))]'
expect_eq "without the lines the calls are there" "$(jget "$OUT/without.json" "$calls")" \
	'[["alloc_fresh_huge_page", [true]], ["do_futex", [true]], ["do_futex", [true]], ["copy_process", [true]]]'
expect_eq "with the lines they are gone" "$(jget "$OUT/with.json" "$calls")" \
	'[["alloc_fresh_huge_page", [false]], ["do_futex", [false]], ["do_futex", [false]], ["copy_process", [false]]]'
finish
