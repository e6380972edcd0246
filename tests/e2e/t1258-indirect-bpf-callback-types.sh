#!/bin/sh
# A program's callbacks run with its program's type (Linux 6.1;
# tests/e2e/bpfcbrun/run.c): the callback bpf_loop is handed is a BPF
# function of the program that called bpf_loop (ARG_PTR_TO_FUNC), so
# under bpf_trace_run2, whose programs are a raw tracepoint's, the
# helpers that call a callback go to copies whose callback is <bpf jit:
# raw tracepoint>:
#
#   <bpf jit: raw tracepoint>  bpf_loop', bpf_for_each_map_elem',
#                              demo_for_each' (a map helper), and the
#                              interpreter's copy ___bpf_prog_run' too
#   bpf_loop'                  <bpf jit: raw tracepoint>
#   bpf_for_each_map_elem'     demo_for_each' (its map_for_each_callback)
#   demo_for_each'             <bpf jit: raw tracepoint>
#
# while <bpf jit> (bpf_prog_test_run's, a program of any type) calls
# bpf_loop itself, whose callback is <bpf jit>, and bpf_timer_cb, on the
# timer's stack, calls <bpf jit>.  So nothing below bpf_trace_run2
# reaches bpf_sys_bpf (the syscall program's helper, 1024 bytes in the
# source); below bpf_prog_test_run it does.
#
# And, on Debian's 6.1 kernel when it is here, the same of bpf_loop,
# bpf_find_vma, bpf_user_ringbuf_drain and bpf_for_each_map_elem's
# bpf_for_each_array_elem and bpf_for_each_hash_elem under the raw
# tracepoint's and the LSM shims' nodes.
. tests/e2e/lib.sh
[ "$(uname -m)" = x86_64 ] || skip "the instruction pass is x86-64's"
command -v gcc >/dev/null || skip "no gcc"

gcc -O2 -g -fno-pie -no-pie -mindirect-branch=thunk -o "$OUT/run" tests/e2e/bpfcbrun/run.c ||
	fail "gcc"
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
def calls(i):
    return sorted(c["id"] for c in fs[i]["calls"] or [])
def one(name):
    ids = [f["id"] for f in fs if f["name"] == name]
    assert len(ids) == 1, name
    return ids[0]
def below(i):
    seen, todo = set(), [i]
    while todo:
        x = todo.pop()
        if x not in seen:
            seen.add(x)
            todo += calls(x)
    return seen
rt, jit = one("<bpf jit: raw tracepoint>"), one("<bpf jit>")
# which node a function's subtree calls back: the raw tracepoint's, the
# generic one's
def show(i):
    b = below(i)
    tag = ("rt" if rt in b else "") + ("jit" if jit in b else "")
    return "%s[%s]" % (fs[i]["name"], tag)
cb = ("bpf_loop", "bpf_for_each_map_elem", "demo_for_each", "bpf_timer_cb")
for node in (rt, jit):
    print(fs[node]["name"], "->", " ".join(sorted(show(c) for c in calls(node)
                                                   if fs[c]["name"] in cb)))
for f in fs:
    if f["name"] in cb:
        print(show(f["id"]), "->", " ".join(sorted(show(c) for c in calls(f["id"]))))
run32 = [c for c in calls(one("bpf_trace_run2")) if fs[c]["name"] == "__bpf_prog_run32"][0]
interp = [c for c in calls(run32) if fs[c]["name"] == "___bpf_prog_run"][0]
print("interpreter copy", " ".join(sorted(show(c) for c in calls(interp) if fs[c]["name"] in cb)))
sysbpf = one("bpf_sys_bpf")
print("bpf_sys_bpf below", [n for n in ("bpf_trace_run2", "bpf_prog_test_run")
                            if sysbpf in below(one(n))])
for line in sorted("site %s %s" % (show(s["function"]),
                   sorted(fs[t]["name"] for t in j["target_sets"][s["targets"]]))
                   for s in j["indirect_calls"]
                   if fs[s["function"]]["name"] in cb and s["resolved_by"] == "bpf"):
    print(line)
PY
cat >"$OUT/want.txt" <<'W'
<bpf jit: raw tracepoint> -> bpf_for_each_map_elem[rt] bpf_loop[rt] demo_for_each[rt]
<bpf jit> -> bpf_for_each_map_elem[jit] bpf_loop[jit] demo_for_each[jit]
bpf_loop[jit] -> <bpf jit>[jit]
bpf_loop[rt] -> <bpf jit: raw tracepoint>[rt]
bpf_for_each_map_elem[jit] -> demo_for_each[jit]
bpf_for_each_map_elem[rt] -> demo_for_each[rt]
bpf_timer_cb[jit] -> <bpf jit>[jit]
demo_for_each[jit] -> <bpf jit>[jit]
demo_for_each[rt] -> <bpf jit: raw tracepoint>[rt]
interpreter copy bpf_for_each_map_elem[rt] bpf_loop[rt] demo_for_each[rt]
bpf_sys_bpf below ['bpf_prog_test_run']
site bpf_loop[jit] ['<bpf jit>']
site bpf_loop[rt] ['<bpf jit: raw tracepoint>']
site bpf_timer_cb[jit] ['<bpf jit>']
site demo_for_each[jit] ['<bpf jit>']
site demo_for_each[rt] ['<bpf jit: raw tracepoint>']
W
expect_eq "the callbacks under bpf_trace_run2" "$(cat "$OUT/graph.txt")" "$(cat "$OUT/want.txt")"
rm -f "$j"

debian_kernel_part
debian_typed_report "$OUT/vmlinux.json"
python3 - "$OUT/vmlinux.json" >"$OUT/kernel.txt" <<'PY' || fail "reading the kernel's report"
import json, sys
j = json.load(open(sys.argv[1]))
fs = j["functions"]
def calls(i):
    return sorted({c["id"] for c in fs[i]["calls"] or []})
nodes = ("<bpf jit>", "<bpf jit: raw tracepoint>", "<bpf jit: lsm cgroup>")
cb = ("bpf_loop", "bpf_find_vma", "bpf_user_ringbuf_drain", "bpf_for_each_map_elem")
out = []
each = ("bpf_for_each_array_elem", "bpf_for_each_hash_elem")
for node in nodes:
    n = [f["id"] for f in fs if f["name"] == node][0]
    for c in calls(n):
        name = fs[c]["name"]
        if name not in cb:
            continue
        below = calls(c)
        if name == "bpf_for_each_map_elem":
            below = sorted({x for e in below if fs[e]["name"] in each for x in calls(e)})
        out.append("%s %s %s" % (node, name, sorted({fs[x]["name"] for x in below
                                                     if fs[x]["name"] in nodes})))
print("\n".join(sorted(out)))
PY
rm -f "$OUT/vmlinux.json"
w=
for node in "<bpf jit>" "<bpf jit: raw tracepoint>" "<bpf jit: lsm cgroup>"; do
	for h in bpf_find_vma bpf_for_each_map_elem bpf_loop bpf_user_ringbuf_drain; do
		w="$w$node $h ['$node']
"
	done
done
expect_eq "the kernel's callbacks by runner" "$(cat "$OUT/kernel.txt")" "$(printf %s "$w" | LC_ALL=C sort)"
finish
