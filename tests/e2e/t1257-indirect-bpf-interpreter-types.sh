#!/bin/sh
# An interpreted program of a known type calls that type's helpers only
# (Linux 6.1; tests/e2e/bpfrun/run.c): bpf_trace_run2 runs a raw
# tracepoint's program, and when the JIT did not compile it, through
# __bpf_prog_run32 (interpreters[]) the interpreter ___bpf_prog_run on
# its instructions, whose JMP_CALL calls what the program's type's
# get_func_proto returned.  So the runner calls copies of the
# interpreters:
#
#   __bpf_prog_run32'      calls ___bpf_prog_run'
#   ___bpf_prog_run'       bpf_demo_helper (bpf_base_func_proto's) and
#                          bpf_trace_helper (raw_tp_prog_func_proto's),
#                          not bpf_sys_bpf (syscall_prog_func_proto's
#                          only) nor bpf_iter_helper (an iterator's,
#                          which tracing_prog_func_proto gives a
#                          BPF_TRACE_ITER program only); its
#                          JMP_CALL_ARGS __bpf_prog_run_args32'
#   __bpf_prog_run_args32' calls ___bpf_prog_run' again (a BPF function
#                          of the same program)
#
# while bpf_prog_test_run, a program of any type, calls the interpreter
# itself, which calls all four.  The copies' deepest helper is
# bpf_trace_helper (136 bytes in the source), the interpreter's
# bpf_sys_bpf (1024 bytes).
#
# And, on Debian's 6.1 kernel when it is here, bpf_trace_run2's
# interpreter copy calls no bpf_sys_bpf, the interpreter does.
. tests/e2e/lib.sh
[ "$(uname -m)" = x86_64 ] || skip "the instruction pass is x86-64's"
command -v gcc >/dev/null || skip "no gcc"

gcc -O2 -g -fno-pie -no-pie -mindirect-branch=thunk -o "$OUT/run" tests/e2e/bpfrun/run.c ||
	fail "gcc"
# the premise: the program runs through the interpreter, and the
# interpreter's calls are sites (retpolines)
"$OUT/run" || fail "the program"
objdump -d "$OUT/run" | grep -q '__x86_indirect_thunk_' || fail "no retpolines"

run_sp --json --indirect=types --no-libs "$OUT/run"
expect_rc 0 "--indirect=types"
j=$OUT/run.json
cp "$OUT/stdout" "$j"
check_json "$j"

python3 - "$j" >"$OUT/graph.txt" <<'PY' || fail "reading the report"
import json, sys
j = json.load(open(sys.argv[1]))
fs = j["functions"]
def calls(f):
    return sorted(c["id"] for c in f["calls"] or [])
def named(ids, name):
    return [i for i in ids if fs[i]["name"] == name]
def show(i):
    return "%s(%s)" % (fs[i]["name"], "copy" if i in copies else "own")
interp = [f["id"] for f in fs if f["name"] == "___bpf_prog_run"]
runner = [f for f in fs if f["name"] == "bpf_trace_run2"][0]
test = [f for f in fs if f["name"] == "bpf_prog_test_run"][0]
run32 = named(calls(runner), "__bpf_prog_run32")
own32 = named(calls(test), "__bpf_prog_run32")
copies = set(run32)
# the copy of the interpreter the runner reaches, and its args' copy
cinterp = named(calls(fs[run32[0]]), "___bpf_prog_run")
copies |= set(cinterp)
cargs = named(calls(fs[cinterp[0]]), "__bpf_prog_run_args32")
copies |= set(cargs)
print("functions", len(interp), len(run32), len(own32), run32 != own32)
for i in sorted(copies | set(own32), key=lambda i: (fs[i]["name"], i in copies)):
    print(show(i), "->", " ".join(sorted(show(c) for c in calls(fs[i]))))
i = named(calls(fs[own32[0]]), "___bpf_prog_run")[0]
print(show(i), "->", " ".join(sorted(show(c) for c in calls(fs[i]))))
print("args", show(cargs[0]), "->", " ".join(show(c) for c in calls(fs[cargs[0]])))
for i in (cinterp[0], i):
    print("deepest", show(i), fs[fs[i]["assumed_callee"]]["name"],
          sorted({(c.get("via"), c.get("resolved_by")) for c in fs[i]["calls"]
                  if fs[c["id"]]["name"].startswith("bpf_")}))
for s in j["indirect_calls"]:
    if s["function"] in cinterp and not s["tail"]:
        print("site", s["resolved_by"], s["type"].split(":")[1].strip().split(",")[0],
              sorted(fs[t]["name"] for t in j["target_sets"][s["targets"]]))
PY
cat >"$OUT/want.txt" <<'W'
functions 2 1 1 True
___bpf_prog_run(copy) -> __bpf_prog_run_args32(copy) bad_insn(own) bpf_demo_helper(own) bpf_trace_helper(own)
__bpf_prog_run32(own) -> ___bpf_prog_run(own)
__bpf_prog_run32(copy) -> ___bpf_prog_run(copy)
__bpf_prog_run_args32(copy) -> ___bpf_prog_run(copy)
___bpf_prog_run(own) -> __bpf_prog_run_args32(own) bad_insn(own) bpf_demo_helper(own) bpf_iter_helper(own) bpf_sys_bpf(own) bpf_trace_helper(own)
args __bpf_prog_run_args32(copy) -> ___bpf_prog_run(copy)
deepest ___bpf_prog_run(copy) bpf_trace_helper [('assumed', 'bpf')]
deepest ___bpf_prog_run(own) bpf_sys_bpf [('assumed', 'bpf')]
site bpf the type's helpers ['__bpf_prog_run_args32', 'bpf_demo_helper', 'bpf_trace_helper']
site bpf the type's helpers ['__bpf_prog_run_args32', 'bpf_demo_helper', 'bpf_trace_helper']
W
expect_eq "the interpreters under bpf_trace_run2" "$(cat "$OUT/graph.txt")" "$(cat "$OUT/want.txt")"
# and the JIT's code of the raw tracepoint's programs: the same helpers
expect_eq "<bpf jit: raw tracepoint>" \
	"$(jget "$j" "sorted(c['name'] for c in [f for f in j['all_functions'] if f['name'] == '<bpf jit: raw tracepoint>'][0]['calls'])")" \
	'["bpf_demo_helper", "bpf_trace_helper"]'
rm -f "$j"

debian_kernel_part
debian_typed_report "$OUT/vmlinux.json"
python3 - "$OUT/vmlinux.json" >"$OUT/kernel.txt" <<'PY' || fail "reading the kernel's report"
import json, sys
j = json.load(open(sys.argv[1]))
fs = j["functions"]
names = [f["name"] for f in fs]
def calls(i):
    return {c["id"] for c in fs[i]["calls"] or []}
def named(ids, name):
    return sorted(i for i in ids if names[i] == name)
runner = names.index("bpf_trace_run2")
run512 = named(calls(runner), "__bpf_prog_run512")
interp = named(calls(run512[0]), "___bpf_prog_run")
own = names.index("___bpf_prog_run")
for i in (interp[0], own):
    print("copy" if i != own else "own", *("%s=%s" % (n, bool(named(calls(i), n))) for n in
          ("bpf_sys_bpf", "bpf_get_socket_uid", "bpf_probe_read_kernel", "bpf_map_lookup_elem",
           "htab_map_update_elem", "__bpf_prog_run_args512")))
print("args", all(named(calls(a), "___bpf_prog_run") == interp
                  for a in named(calls(interp[0]), "__bpf_prog_run_args512")))
PY
rm -f "$OUT/vmlinux.json"
# the raw tracepoint's helpers (bpf_probe_read_kernel), the map helpers
# and their operations, interpreters_args: in both; the syscall
# program's bpf_sys_bpf and the socket filters' bpf_get_socket_uid: the
# interpreter's only
expect_eq "the kernel's interpreters under bpf_trace_run2" "$(cat "$OUT/kernel.txt")" \
	"copy bpf_sys_bpf=False bpf_get_socket_uid=False bpf_probe_read_kernel=True bpf_map_lookup_elem=True htab_map_update_elem=True __bpf_prog_run_args512=True
own bpf_sys_bpf=True bpf_get_socket_uid=True bpf_probe_read_kernel=True bpf_map_lookup_elem=True htab_map_update_elem=True __bpf_prog_run_args512=True
args True"
finish
