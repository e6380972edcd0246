#!/bin/sh
# The programs a bpf_func call runs (Linux 6.1; tests/e2e/bpfshim/shim.c):
# the functions stored in struct bpf_prog's bpf_func are the interpreter
# __bpf_prog_run32 (interpreters[]) and the LSM cgroup shim
# __cgroup_bpf_run_lsm_current (cgroup_shim_alloc()'s store), besides
# the JIT's code.  A shim is the bpf_func of a shim program only, which
# an LSM hook's trampoline alone holds: no runner's program is one.  So
#
#   bpf_trace_run1              <bpf jit: raw tracepoint>, __bpf_prog_run32
#   __bpf_prog_test_run_raw_tp  the same (a raw tracepoint program's
#                               test run: a runner of those types)
#   __cgroup_bpf_run_lsm_current  <bpf jit: lsm cgroup>, __bpf_prog_run32
#   bpf_prog_test_run           <bpf jit>, __bpf_prog_run32 and the shim
#                               (a program of any type; the trampoline
#                               that calls a shim is code the image
#                               lacks, so the other calls keep it)
#
# and __bpf_prog_test_run_raw_tp's programs call the raw tracepoint's
# helper, not bpf_sys_bpf.  And, on Debian's 6.1 kernel when it is here,
# the same for its bpf_trace_run2, __cgroup_bpf_run_lsm_current,
# __bpf_prog_test_run_raw_tp and bpf_test_run.
. tests/e2e/lib.sh
[ "$(uname -m)" = x86_64 ] || skip "the instruction pass is x86-64's"
command -v gcc >/dev/null || skip "no gcc"

gcc -O2 -g -fno-pie -no-pie -mindirect-branch=thunk -o "$OUT/shim" tests/e2e/bpfshim/shim.c ||
	fail "gcc"
"$OUT/shim" || fail "the program"

run_sp --json --indirect=types --no-libs "$OUT/shim"
expect_rc 0 "--indirect=types"
j=$OUT/shim.json
cp "$OUT/stdout" "$j"
check_json "$j"

python3 - "$j" >"$OUT/sites.txt" <<'PY' || fail "reading the report"
import json, sys
j = json.load(open(sys.argv[1]))
fs = {f["id"]: f for f in j.get("all_functions", j["functions"])}
for s in j["indirect_calls"]:
    name = fs[s["function"]]["name"]
    if name != "main" and not name.startswith("<"):
        print(name, s["resolved_by"],
              " ".join(sorted(fs[t]["name"] for t in j["target_sets"][s["targets"]])))
raw = [f for f in fs.values() if f["name"] == "<bpf jit: raw tracepoint>"][0]
print("raw tracepoint's programs", " ".join(sorted(fs[c["id"]]["name"] for c in raw["calls"])))
PY
cat >"$OUT/want.txt" <<'W'
bpf_prog_test_run bpf <bpf jit> __bpf_prog_run32 __cgroup_bpf_run_lsm_current
__bpf_prog_test_run_raw_tp bpf <bpf jit: raw tracepoint> __bpf_prog_run32
bpf_trace_run1 bpf <bpf jit: raw tracepoint> __bpf_prog_run32
__cgroup_bpf_run_lsm_current bpf <bpf jit: lsm cgroup> __bpf_prog_run32
raw tracepoint's programs bpf_trace_helper
W
expect_eq "the bpf_func calls" "$(sort "$OUT/sites.txt")" "$(sort "$OUT/want.txt")"
rm -f "$j"

debian_kernel_part
debian_typed_report "$OUT/vmlinux.json"
python3 - "$OUT/vmlinux.json" >"$OUT/kernel.txt" <<'PY' || fail "reading the kernel's report"
import json, sys
j = json.load(open(sys.argv[1]))
fs = {f["id"]: f for f in j.get("all_functions", j["functions"])}
shims = {"__cgroup_bpf_run_lsm_current", "__cgroup_bpf_run_lsm_sock", "__cgroup_bpf_run_lsm_socket"}
for name in ("bpf_trace_run2", "__cgroup_bpf_run_lsm_current", "__bpf_prog_test_run_raw_tp",
             "bpf_test_run"):
    got = set()
    for s in j["indirect_calls"]:
        if fs[s["function"]]["name"] == name and s["resolved_by"] == "bpf":
            t = {fs[i]["name"] for i in j["target_sets"][s["targets"]]}
            got.add((len(t & shims), " ".join(sorted(x for x in t if x.startswith("<")))))
    print(name, sorted(got))
PY
rm -f "$OUT/vmlinux.json"
expect_eq "the kernel's bpf_func calls" "$(cat "$OUT/kernel.txt")" \
	"bpf_trace_run2 [(0, '<bpf jit: raw tracepoint>')]
__cgroup_bpf_run_lsm_current [(0, '<bpf jit: lsm cgroup>')]
__bpf_prog_test_run_raw_tp [(0, '<bpf jit: raw tracepoint>')]
bpf_test_run [(3, '<bpf jit>')]"
finish
