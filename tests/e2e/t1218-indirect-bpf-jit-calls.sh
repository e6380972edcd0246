#!/bin/sh
# <bpf jit>'s calls are what the verifier lets a program call (Linux 6.1;
# tests/e2e/bpfjit/jit.c):
#
#   bpf_demo_helper        a struct bpf_func_proto's func: kept
#   demo_lookup, demo_update, shared_delete
#                          htab_map_ops' map_lookup_elem, map_update_elem,
#                          map_delete_elem, which do_misc_fixups() turns
#                          the map helpers into: kept
#   demo_alloc_check, demo_lookup_batch
#                          its map_alloc_check and map_lookup_batch, the
#                          bpf syscall's: left out
#   inode_lookup, inode_update
#                          inode_storage_map_ops', a map type no map
#                          helper may take (check_map_func_compatibility):
#                          left out; shared_delete, its map_delete_elem,
#                          stays (htab_map_ops holds it too)
#   queue_push, queue_lookup
#                          queue_map_ops': push is a queue's helper,
#                          lookup is not
#   rt_update              task_storage_map_ops' (idle), but main stores
#                          it in a struct bpf_map_ops too: kept
#   __htab_map_lookup_elem the hash map's map_gen_lookup code calls it: kept
#   demo_kfunc             in a BTF id set8: a kfunc, kept
#   d_path_allowed         a BTF id set's, not a set8's: left out
#
# and, on Debian's 6.1 kernel when it is here, the same rules there.
. tests/e2e/lib.sh
[ "$(uname -m)" = x86_64 ] || skip "the instruction pass is x86-64's"
command -v gcc >/dev/null || skip "no gcc"

gcc -O2 -g -fno-pie -no-pie -o "$OUT/jit" tests/e2e/bpfjit/jit.c || fail "gcc"
"$OUT/jit" 1 || true
nm -S "$OUT/jit" | grep -q ' r __BTF_ID__set8__demo_kfunc_set$' || fail "the assembler made no sized set8"

run_sp --json --indirect=types "$OUT/jit"
expect_rc 0 "--indirect=types"
j=$OUT/jit.json
cp "$OUT/stdout" "$j"
check_json "$j"

jit="[f for f in j['all_functions'] if f['name'] == '<bpf jit>'][0]"
expect_eq "<bpf jit>'s calls" "$(jget "$j" "sorted(c['name'] for c in $jit['calls'])")" \
	'["__htab_map_lookup_elem", "bpf_demo_helper", "demo_kfunc", "demo_lookup", "demo_update", "queue_push", "rt_update", "shared_delete"]'
# each one the bpf mechanism's, assumed
expect_eq "edges" "$(jget "$j" "sorted({(c['via'], c['resolved_by']) for c in $jit['calls']})")" \
	'[["assumed", "bpf"]]'
# the program's call: the interpreter and <bpf jit>
expect_eq "bpf_dispatcher_nop_func" \
	"$(jget "$j" "[sorted(s['targets']) for s in j['indirect_calls'] if s['function'] == 'bpf_dispatcher_nop_func']")" \
	'[["<bpf jit>", "__bpf_prog_run32"]]'
rm -f "$j"

root=${STACKPROF_DEBIAN_KERNEL:-/tmp/debian-kernel/root}
vmlinux=$root/usr/lib/debug/boot/vmlinux-6.1.0-47-cloud-amd64
if [ ! -f "$vmlinux" ]; then
	skip_part "no Debian kernel at $vmlinux"
	finish
	exit
fi
run_sp --json --indirect=types --entry bpf_dispatcher_xdp_func -o "$OUT/vmlinux.json" "$vmlinux"
expect_rc 0 "the kernel"
python3 - "$OUT/vmlinux.json" >"$OUT/kernel.txt" <<'PY' || fail "reading the kernel's report"
import json, sys
j = json.load(open(sys.argv[1]))
names = [f["name"] for f in j["functions"]]
jit = [f for f in j["functions"] if f["name"] == "<bpf jit>"][0]
calls = {names[c["id"]] for c in jit["calls"]}
for n in ("bpf_map_lookup_elem", "htab_map_update_elem", "htab_map_delete_elem",
          "queue_stack_map_push_elem", "sock_map_update_elem", "__htab_map_lookup_elem",
          "bpf_skb_load_helper_8_no_cache", "crash_kexec", "cgroup_rstat_flush",
          "bpf_lookup_user_key", "htab_map_alloc_check", "generic_map_update_batch",
          "bpf_fd_inode_storage_delete_elem", "fd_array_map_delete_elem",
          "queue_stack_map_lookup_elem", "vfs_truncate"):
    print(n, n in calls)
PY
rm -f "$OUT/vmlinux.json"
# helpers; map operations of a type that allows them (the hash map's
# update and delete, the queue's push, the sockmap's update:
# may_update_sockmap()); the hash map's map_gen_lookup call; eBPF's
# BPF_LD_ABS's (bpf_gen_ld_abs()); the kfuncs of tracing_btf_ids
# (kernel/bpf/helpers.c), bpf_rstat_kfunc_ids (kernel/cgroup/rstat.c),
# key_sig_kfunc_set (kernel/trace/bpf_trace.c)
for n in bpf_map_lookup_elem htab_map_update_elem htab_map_delete_elem \
	queue_stack_map_push_elem sock_map_update_elem __htab_map_lookup_elem \
	bpf_skb_load_helper_8_no_cache crash_kexec cgroup_rstat_flush bpf_lookup_user_key; do
	expect_eq "$n" "$(grep "^$n " "$OUT/kernel.txt")" "$n True"
done
# the bpf syscall's map operations; inode storage's delete (only
# bpf_inode_storage_delete, a helper of its own); prog_array's delete
# (only tail calls); a queue's lookup (only peek, pop, push); a BTF id
# set's function that is no kfunc (btf_allowlist_d_path)
for n in htab_map_alloc_check generic_map_update_batch bpf_fd_inode_storage_delete_elem \
	fd_array_map_delete_elem queue_stack_map_lookup_elem vfs_truncate; do
	expect_eq "$n" "$(grep "^$n " "$OUT/kernel.txt")" "$n False"
done
finish
