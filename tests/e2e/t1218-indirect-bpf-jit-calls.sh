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
#   bpf_trace_helper, bpf_sys_bpf
#                          helpers of raw_tp_prog_func_proto and of
#                          syscall_prog_func_proto: both <bpf jit>'s
#
#   bpf_map_lookup_elem    the helper's call of map->ops->map_lookup_elem:
#                          demo_lookup, not queue_lookup (main's map
#                          may be a queue: map_lookup_sys's keeps it)
#
# and bpf_trace_run2's programs, <bpf jit: raw tracepoint>, call the
# helpers the get_func_proto of raw_tracepoint_verifier_ops,
# raw_tracepoint_writable_verifier_ops and tracing_verifier_ops return,
# with the functions they call that return a proto (bpf_base_func_proto's
# bpf_demo_helper, bpf_trace_helper), not bpf_sys_bpf;
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
	'["__htab_map_lookup_elem", "bpf_demo_helper", "bpf_map_lookup_elem", "bpf_sys_bpf", "bpf_trace_helper", "demo_kfunc", "demo_lookup", "demo_update", "queue_push", "rt_update", "shared_delete"]'
trace="[f for f in j['all_functions'] if f['name'] == '<bpf jit: raw tracepoint>'][0]"
expect_eq "<bpf jit: raw tracepoint>'s calls" "$(jget "$j" "sorted(c['name'] for c in $trace['calls'])")" \
	'["__htab_map_lookup_elem", "bpf_demo_helper", "bpf_trace_helper", "demo_kfunc", "demo_lookup", "demo_update", "queue_push", "rt_update", "shared_delete"]'
# the map helper's call, and the syscall side's
expect_eq "bpf_map_lookup_elem" \
	"$(jget "$j" "sorted([s['function'], s['resolved_by'], sorted(s['targets'])] for s in j['indirect_calls'] if s['function'] in ('bpf_map_lookup_elem', 'map_lookup_sys'))")" \
	'[["bpf_map_lookup_elem", "field", ["demo_lookup"]], ["map_lookup_sys", "field", ["demo_lookup", "queue_lookup"]]]'
expect_eq "<bpf jit: raw tracepoint>" "$(jget "$j" "[$trace[k] for k in ('self', 'frame_source', 'assumed')]")" \
	'[21288, "jit", true]'
# each one the bpf mechanism's, assumed
expect_eq "edges" "$(jget "$j" "sorted({(c['via'], c['resolved_by']) for c in $jit['calls']})")" \
	'[["assumed", "bpf"]]'
# the program's call: the interpreter and <bpf jit>
expect_eq "bpf_dispatcher_nop_func" \
	"$(jget "$j" "[sorted(s['targets']) for s in j['indirect_calls'] if s['function'] == 'bpf_dispatcher_nop_func']")" \
	'[["<bpf jit>", "__bpf_prog_run32"]]'
expect_eq "bpf_trace_run2" \
	"$(jget "$j" "[sorted(s['targets']) for s in j['indirect_calls'] if s['function'] == 'bpf_trace_run2']")" \
	'[["<bpf jit: raw tracepoint>", "__bpf_prog_run32"]]'
rm -f "$j"

debian_kernel_part
debian_typed_report "$OUT/vmlinux.json"
python3 - "$OUT/vmlinux.json" >"$OUT/kernel.txt" <<'PY' || fail "reading the kernel's report"
import json, re, sys
j = json.load(open(sys.argv[1]))
names = [f["name"] for f in j["functions"]]
jit = [f for f in j["functions"] if f["name"] == "<bpf jit>"][0]
calls = {names[c["id"]] for c in jit["calls"]}
trace = [f for f in j["functions"] if f["name"] == "<bpf jit: raw tracepoint>"][0]
tcalls = {names[c["id"]] for c in trace["calls"]}
for n in ("bpf_probe_read_kernel", "bpf_get_stackid_raw_tp", "bpf_d_path", "bpf_sk_setsockopt",
          "bpf_map_delete_elem", "crash_kexec", "bpf_sys_bpf", "bpf_get_socket_uid"):
    print("trace", n, n in tcalls)
callers = {names[s["function"]] for s in j["indirect_calls"]
           if s["targets"] is not None and trace["id"] in j["target_sets"][s["targets"]]}
print("trace-callers", "bpf_trace_run2" in callers,
      sorted(c for c in callers if not re.fullmatch("bpf_trace_run[0-9]+", c)))
lsm = [f for f in j["functions"] if f["name"] == "<bpf jit: lsm cgroup>"][0]
lcalls = {names[c["id"]] for c in lsm["calls"]}
for n in ("bpf_inode_storage_get", "bpf_bprm_opts_set", "bpf_get_current_pid_tgid",
          "bpf_sys_bpf", "bpf_get_socket_uid"):
    print("lsm", n, n in lcalls)
print("lsm-callers", sorted({names[s["function"]] for s in j["indirect_calls"]
                             if s["targets"] is not None and lsm["id"] in j["target_sets"][s["targets"]]}))
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
# a raw tracepoint's programs: bpf_tracing_func_proto's (raw_tp's
# bpf_get_stackid_raw_tp, bpf_probe_read_kernel), tracing_prog_func_proto's
# (bpf_d_path), the map helpers, the kfuncs; not bpf_sys_bpf
# (syscall_prog_func_proto's), bpf_get_socket_uid (the socket filters')
# nor, through bpf_iter_get_func_proto, the tcp iterator's
# bpf_sk_setsockopt (a BPF_TRACE_ITER program's only)
for n in bpf_probe_read_kernel bpf_get_stackid_raw_tp bpf_d_path \
	bpf_map_delete_elem crash_kexec; do
	expect_eq "raw tracepoint $n" "$(grep "^trace $n " "$OUT/kernel.txt")" "trace $n True"
done
for n in bpf_sys_bpf bpf_get_socket_uid bpf_sk_setsockopt; do
	expect_eq "raw tracepoint $n" "$(grep "^trace $n " "$OUT/kernel.txt")" "trace $n False"
done
# its callers: bpf_trace_run2, and the other bpf_trace_runN the report
# holds, a raw tracepoint program's test run (t1267), and the copies of
# the helpers that call its programs' callbacks (t1258), no other function
expect_eq "bpf_trace_runN" "$(grep "^trace-callers " "$OUT/kernel.txt")" \
	"trace-callers True ['__bpf_prog_test_run_raw_tp', 'bpf_find_vma', 'bpf_for_each_array_elem', 'bpf_for_each_hash_elem', 'bpf_loop', 'bpf_user_ringbuf_drain']"
# an LSM cgroup shim's programs (BPF_PROG_TYPE_LSM): bpf_lsm_func_proto's
# (bpf_inode_storage_get, bpf_bprm_opts_set) and through
# tracing_prog_func_proto the base helpers; not bpf_sys_bpf nor
# bpf_get_socket_uid
for n in bpf_inode_storage_get bpf_bprm_opts_set bpf_get_current_pid_tgid; do
	expect_eq "lsm cgroup $n" "$(grep "^lsm $n " "$OUT/kernel.txt")" "lsm $n True"
done
for n in bpf_sys_bpf bpf_get_socket_uid; do
	expect_eq "lsm cgroup $n" "$(grep "^lsm $n " "$OUT/kernel.txt")" "lsm $n False"
done
expect_eq "the shims" "$(grep "^lsm-callers " "$OUT/kernel.txt")" \
	"lsm-callers ['__cgroup_bpf_run_lsm_current', '__cgroup_bpf_run_lsm_sock', '__cgroup_bpf_run_lsm_socket', 'bpf_find_vma', 'bpf_for_each_array_elem', 'bpf_for_each_hash_elem', 'bpf_loop', 'bpf_user_ringbuf_drain']"
finish
