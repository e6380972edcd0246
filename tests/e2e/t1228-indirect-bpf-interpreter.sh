#!/bin/sh
# The BPF interpreter's own calls (Linux 6.1 kernel/bpf/core.c; tests/e2e/
# bpfinterp/interp.c), built with retpolines as the kernel is, so that
# each is a site:
#
#   goto *jumptable[...]   ___bpf_prog_run's dispatch: its own labels,
#                          default_label in ___bpf_prog_run.cold: no call
#   (__bpf_call_base + insn->imm)(...), (__bpf_call_base_args + ...)(...)
#                          what the verifier writes in imm: the helpers
#                          (bpf_demo_helper), map operations (demo_lookup),
#                          emitted calls (__htab_map_lookup_elem) and
#                          interpreters_args' functions; not the kfunc
#                          demo_kfunc (only JIT'ed programs call one), nor
#                          not_a_helper, of the helpers' prototype
#   other_base_call        the same sum outside the interpreter: stays
#                          every address-taken function
#
# and, on Debian's 6.1 kernel when it is here, its ___bpf_prog_run.
. tests/e2e/lib.sh
[ "$(uname -m)" = x86_64 ] || skip "the instruction pass is x86-64's"
command -v gcc >/dev/null || skip "no gcc"

gcc -O2 -g -fno-pie -no-pie -mindirect-branch=thunk -o "$OUT/interp" tests/e2e/bpfinterp/interp.c ||
	fail "gcc"
# the premise: GCC moved default_label out, and the table holds it
cold=$(nm "$OUT/interp" | awk '$3 == "___bpf_prog_run.cold" { print $1 }')
[ -n "$cold" ] || fail "no ___bpf_prog_run.cold"
objdump -d "$OUT/interp" | grep -q '__x86_indirect_thunk_' || fail "no retpolines"

run_sp --json --indirect=types "$OUT/interp"
expect_rc 0 "--indirect=types"
j=$OUT/interp.json
cp "$OUT/stdout" "$j"
check_json "$j"

sites="sorted([s['function'], s['tail'], s['resolved_by'], s['ntargets'], sorted(s['targets'] or [])] for s in j['indirect_calls'] if s['function'] in ('___bpf_prog_run', 'other_base_call'))"
expect_eq "the interpreter's sites" "$(jget "$j" "$sites")" \
	'[["___bpf_prog_run", false, "bpf", 5, ["__bpf_prog_run_args32", "__bpf_prog_run_args64", "__htab_map_lookup_elem", "bpf_demo_helper", "demo_lookup"]], ["___bpf_prog_run", false, "bpf", 5, ["__bpf_prog_run_args32", "__bpf_prog_run_args64", "__htab_map_lookup_elem", "bpf_demo_helper", "demo_lookup"]], ["___bpf_prog_run", true, "bpf", 0, []], ["other_base_call", true, "address-taken", '"$(jget "$j" "[s['ntargets'] for s in j['indirect_calls'] if s['function'] == 'other_base_call'][0]")"', []]]'
# every address-taken function is more than the interpreter's five
expect_eq "other_base_call wide" "$(jget "$j" "[s['ntargets'] > 5 and s['targets'] is None for s in j['indirect_calls'] if s['function'] == 'other_base_call']")" \
	'[true]'
rm -f "$j"

debian_kernel_part
debian_typed_report "$OUT/vmlinux.json"
python3 - "$OUT/vmlinux.json" >"$OUT/kernel.txt" <<'PY' || fail "reading the kernel's report"
import json, sys
j = json.load(open(sys.argv[1]))
names = [f["name"] for f in j["functions"]]
run = names.index("___bpf_prog_run")
for s in sorted(j["indirect_calls"], key=lambda s: s["address"] or ""):
    if s["function"] != run:
        continue
    t = {names[i] for i in j["target_sets"][s["targets"]]} if s["targets"] is not None else set()
    print("site", s["tail"], s["resolved_by"], len(t),
          sum(1 for n in t if n.startswith("__bpf_prog_run_args")),
          *(n in t for n in ("bpf_map_lookup_elem", "htab_map_update_elem", "__htab_map_lookup_elem",
                             "bpf_trace_printk", "cgroup_rstat_flush", "bpf_lookup_user_key",
                             "htab_map_alloc_check", "vfs_truncate")))
PY
rm -f "$OUT/vmlinux.json"
# the dispatch, no call; JMP_CALL and JMP_CALL_ARGS: helpers, the hash
# map's update, its map_gen_lookup's call, the 16 interpreters_args; not
# the kfuncs of bpf_rstat_kfunc_ids and key_sig_kfunc_set, nor the bpf
# syscall's map operation, nor a function no program calls
expect_eq "the kernel's ___bpf_prog_run" "$(sed 's/^site True bpf 0 .*/dispatch/; s/^site False bpf [0-9]* /call /' "$OUT/kernel.txt" | sort | tr '\n' ';')" \
	"call 16 True True True True False False False False;call 16 True True True True False False False False;dispatch;"
finish
