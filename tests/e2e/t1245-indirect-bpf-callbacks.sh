#!/bin/sh
# A program's callbacks (Linux 6.1; tests/e2e/bpfcb/cb.c): the helpers
# that call a BPF function the program hands them (ARG_PTR_TO_FUNC) call
# JIT'ed code, <bpf jit> (the verifier rejects callbacks unjitted):
#
#   bpf_loop               its proto's func, bpf_loop_proto: its call of
#                          the callback; not its call through loop_hook,
#                          of another type (a table's)
#   demo_for_each          struct bpf_map_ops' map_for_each_callback,
#                          which bpf_for_each_map_elem calls
#   bpf_timer_cb           the timer's callback (by name)
#   other_caller           the callback's type, in none of those: stays
#                          the prototype's (bpf_demo_helper ...)
#
# <bpf jit> calls bpf_loop, whose callback is <bpf jit> again: recursion,
# kept (a callback may nest in another); and, on Debian's 6.1 kernel when
# it is here, the six such calls there.
. tests/e2e/lib.sh
[ "$(uname -m)" = x86_64 ] || skip "the instruction pass is x86-64's"
command -v gcc >/dev/null || skip "no gcc"

gcc -O2 -g -fno-pie -no-pie -o "$OUT/cb" tests/e2e/bpfcb/cb.c || fail "gcc"

run_sp --json --indirect=types "$OUT/cb"
expect_rc 0 "--indirect=types"
j=$OUT/cb.json
cp "$OUT/stdout" "$j"
check_json "$j"

sites="sorted([s['function'], s['resolved_by'], sorted(s['targets'])] for s in j['indirect_calls'] if s['function'] in ('bpf_loop', 'demo_for_each', 'bpf_timer_cb', 'other_caller'))"
expect_eq "the callbacks' calls" "$(jget "$j" "$sites")" \
	'[["bpf_loop", "bpf", ["<bpf jit>"]], ["bpf_loop", "table", ["some_hook"]], ["bpf_timer_cb", "bpf", ["<bpf jit>"]], ["demo_for_each", "bpf", ["<bpf jit>"]], ["other_caller", "prototype", ["bpf_demo_helper", "bpf_for_each_map_elem", "bpf_loop", "bpf_timer_set_callback"]]]'
# a callback nests: <bpf jit> below itself is recursion, no total
expect_eq "recursion" "$(jget "$j" "[[f['bounded'], f['recursive']] for f in j['all_functions'] if f['name'] in ('<bpf jit>', 'bpf_loop')]")" \
	'[[false, true], [false, true]]'
rm -f "$j"

debian_kernel_part
debian_typed_report "$OUT/vmlinux.json"
# bpf_loop, bpf_find_vma, bpf_user_ringbuf_drain (its callback through a
# void *, no type), bpf_for_each_array_elem and bpf_for_each_hash_elem
# (the map_for_each_callback of the maps), bpf_timer_cb (bpf_find_vma's
# pv_ops calls aside); and, but bpf_timer_cb, the copies under the raw
# tracepoint's and the LSM shims' programs, whose callbacks are those
# runners' nodes (t1258)
expect_eq "the kernel's callbacks" "$(jget "$OUT/vmlinux.json" "sorted([s['function'], s['resolved_by'], sorted(s['targets'] or [])] for s in j['indirect_calls'] if s['function'] in ('bpf_loop', 'bpf_find_vma', 'bpf_user_ringbuf_drain', 'bpf_for_each_array_elem', 'bpf_for_each_hash_elem', 'bpf_timer_cb') and s['resolved_by'] != 'paravirt')")" \
	'[["bpf_find_vma", "bpf", ["<bpf jit: lsm cgroup>"]], ["bpf_find_vma", "bpf", ["<bpf jit: raw tracepoint>"]], ["bpf_find_vma", "bpf", ["<bpf jit>"]], ["bpf_for_each_array_elem", "bpf", ["<bpf jit: lsm cgroup>"]], ["bpf_for_each_array_elem", "bpf", ["<bpf jit: raw tracepoint>"]], ["bpf_for_each_array_elem", "bpf", ["<bpf jit>"]], ["bpf_for_each_hash_elem", "bpf", ["<bpf jit: lsm cgroup>"]], ["bpf_for_each_hash_elem", "bpf", ["<bpf jit: raw tracepoint>"]], ["bpf_for_each_hash_elem", "bpf", ["<bpf jit>"]], ["bpf_loop", "bpf", ["<bpf jit: lsm cgroup>"]], ["bpf_loop", "bpf", ["<bpf jit: raw tracepoint>"]], ["bpf_loop", "bpf", ["<bpf jit>"]], ["bpf_timer_cb", "bpf", ["<bpf jit>"]], ["bpf_user_ringbuf_drain", "bpf", ["<bpf jit: lsm cgroup>"]], ["bpf_user_ringbuf_drain", "bpf", ["<bpf jit: raw tracepoint>"]], ["bpf_user_ringbuf_drain", "bpf", ["<bpf jit>"]]]'
rm -f "$OUT/vmlinux.json"
finish
