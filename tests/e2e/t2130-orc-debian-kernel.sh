#!/bin/sh
# Debian's 6.1 cloud kernel (package linux-image-6.1.0-47-cloud-amd64-dbg,
# unpacked under /tmp/debian-kernel; skipped when absent): no .su, so
# frames come from ORC, then CFI.  Checked against orc_dump.py (the table
# read from the ELF by Python) and dump_frames.py (the frame rule) over
# nm's function ranges: every ORC frame in the report is the oracle's,
# every function the oracle gives a frame has it, and no function left
# unknown has a stack-pointer ORC frame.  napi_complete_done is ORC's 48
# where .debug_frame says 40 (its local_irq_save becomes "pushf; pop"):
# on this kernel no CFI frame is larger than ORC's, a few hundred are
# smaller.  Prints the figures.
. tests/e2e/lib.sh
root=${STACKPROF_DEBIAN_KERNEL:-/tmp/debian-kernel/root}
vmlinux=$root/usr/lib/debug/boot/vmlinux-6.1.0-47-cloud-amd64
[ -f "$vmlinux" ] || skip "no Debian kernel at $vmlinux"
no_kernel_under_asan
src=tests/e2e/orc

run_sp -v --json -o "$OUT/vmlinux.json" "$vmlinux"
expect_rc 0 "stackprof -v vmlinux"
grep -v '^stackprof: \(ORC\|CFI\|code\|DWARF\|unknown frames\|cycles\|[0-9]* functions\)' "$OUT/stderr" |
	sed 's/^/    /' | grep . && fail "stackprof printed more than its -v lines"
python3 $src/orc_dump.py "$vmlinux" >"$OUT/dump" &&
	nm -S --defined-only "$vmlinux" >"$OUT/nm" &&
	python3 $src/dump_frames.py "$OUT/dump" "$OUT/nm" >"$OUT/oracle" ||
	{ fail "the oracle failed"; finish; exit; }

python3 - "$OUT/oracle" "$OUT/vmlinux.json" >"$OUT/check" <<'PY' || fail "no check"
import collections, json, sys
sys.path.insert(0, "tests/e2e")
import sp_report
oracle = collections.defaultdict(set)
for line in open(sys.argv[1]):
    name, what = line.split()
    if what != "undefined-inside":
        oracle[name].add(what)
fns = sp_report.load(sys.argv[2])["functions"]
src = collections.Counter(f["frame_source"] for f in fns)
seen = set()
for f in fns:
    want = oracle.get(f["symbol"] or "")
    if not want:
        continue
    if f["frame_source"] == "orc":
        if str(f["self"]) not in want:
            print(f"{f['symbol']}: ORC frame {f['self']}, the oracle says {sorted(want)}")
        seen.add(f["symbol"])
    elif f["qualifier"] == "unknown" and len(want) == 1 and want.pop().isdigit():
        print(f"{f['symbol']}: unknown, the oracle gives an ORC frame")
missing = {f["symbol"] for f in fns} - seen
for name, want in oracle.items():
    if len(want) == 1 and next(iter(want)).isdigit() and name in missing:
        print(f"{name}: the oracle gives {next(iter(want))}, the report no ORC frame")
napi = [f for f in fns if f["symbol"] == "napi_complete_done"]
if [(f["frame_source"], f["self"]) for f in napi] != [("orc", 48)]:
    print(f"napi_complete_done: {[(f['frame_source'], f['self']) for f in napi]}, want orc 48")
if src["orc"] < 40000:
    print(f"only {src['orc']} ORC frames")
# the frames ORC gives on %rbp only come from the code: realigned frames
# (push %rbp; mov %rsp,%rbp; push %rbx; and $-16,%rsp: 8 + 8 + 8 of
# padding + the return address), GCC's DRAP, the masked random offset
partial = sum(f["partial"] for f in fns)
if partial * 100 > len(fns):
    print(f"{partial} of {len(fns)} totals partial, more than 1 %")
want = {"__update_load_avg_blocked_se": ("code", "static", 32),
        "do_syscall_64": ("code", "dynamic,bounded", 24 + 1032)}
for f in fns:
    w = want.pop(f["symbol"], None)
    if w and (f["frame_source"], f["qualifier"], f["self"]) != w:
        print(f"{f['symbol']}: {(f['frame_source'], f['qualifier'], f['self'])}, want {w}")
for name in want:
    print(f"{name}: not in the report")
print(f"figures: {src['orc']} ORC, {src['cfi']} CFI, {src['code']} code, {src[None]} "
      f"unknown of {len(fns)} functions in the report, {partial} totals partial",
      file=sys.stderr)
PY
while read -r line; do
	fail "$line"
done <"$OUT/check"

# -v: on this kernel the CFI is never larger than ORC, and a few hundred
# times smaller (paravirt irq-save sites, sync_core's iret frame)
line=$(grep '^stackprof: ORC:' "$OUT/stderr")
set -- $(echo "$line" | sed -n 's/.* and \([0-9]*\) of \([0-9]*\) CFI frames agree with it (\([0-9]*\) CFI frames smaller)$/\1 \2 \3/p')
if [ $# -ne 3 ]; then
	fail "-v: ORC line: $line"
else
	expect_eq "-v: CFI frames that agree or are smaller" "$(($1 + $3))" "$2"
	[ "$3" -ge 100 ] || fail "-v: only $3 CFI frames smaller than ORC's"
	echo "  figures: $line"
fi
finish
