#!/bin/sh
# Through the shared libraries, against a runtime oracle: a program that
# calls strtol, memcpy, snprintf, qsort, sscanf and strtod in libc
# (tests/e2e/libc/), built with -fstack-usage and dynamically linked
# with -z now, runs each function on a painted stack
# (tests/oracle/paint.c).  Every bounded total must be at least the
# peak, libc's use included; every frame on a worst path is known (from
# .su, CFI or the code) and no total is partial; an unbounded total names
# its cause inside libc (a dynamic frame says what makes it so); libc's
# frames are marked [lib libc.so.6] and JSON "image".  --no-libs leaves
# libc unknown, as before, and a --sysroot without the debug file still
# finds libc by its exports.  With libc6-dbg, libc's DWARF gives its
# functions' source locations.  qsort's comparator is an assumed target
# of its indirect calls, by the argument use_qsort passes.
. tests/e2e/lib.sh
unset STACKPROF_LIBS

[ "$(uname -m)" = x86_64 ] || skip "the painted-stack call (tests/oracle/paint.c) is x86-64 assembly"
command -v gcc >/dev/null || skip "no gcc"
LIBC=/lib/x86_64-linux-gnu/libc.so.6
[ -f $LIBC ] || skip "no $LIBC"

B=$OUT/build
mkdir -p "$B"
cp tests/e2e/libc/libcuse.c tests/oracle/paint.c "$B/"
if ! (cd "$B" && gcc -O2 -g -fstack-usage -c libcuse.c paint.c &&
	gcc -O2 -rdynamic -Wl,-z,now -o libcuse-now libcuse.o paint.o &&
	gcc -O2 -rdynamic -Wl,-z,lazy -o libcuse-lazy libcuse.o paint.o) >"$OUT/build.log" 2>&1; then
	fail "cannot build: $(head -3 "$OUT/build.log")"
	finish
	exit
fi

ENTRIES="use_strtol s:123;use_strtol_only 0;use_memcpy 300;use_snprintf 7;use_qsort 3;use_sscanf 0;use_strtod 0"
# NAME WANT: bounded when the whole path is known and bounded
WANT="use_strtol_only bounded
use_memcpy bounded
use_strtol unbounded
use_snprintf unbounded
use_qsort unbounded
use_sscanf unbounded
use_strtod unbounded"

# check BUILD: stackprof's JSON of $B/libcuse-BUILD against its peaks,
# $WANT saying which totals are bounded
check()
{
	_b=$1
	if ! "$SP" --json "$B/libcuse-$_b" >"$OUT/$_b.json" 2>"$OUT/$_b.err"; then
		fail "$_b: stackprof failed: $(head -1 "$OUT/$_b.err")"
		return
	fi
	if ! ORACLE_ENTRIES=$ENTRIES "$B/libcuse-$_b" >"$OUT/$_b.peaks" 2>"$OUT/$_b.run"; then
		fail "$_b: the painted run failed: $(head -1 "$OUT/$_b.run")"
		return
	fi
	echo "$WANT" >"$OUT/want"
	python3 - "$OUT/$_b.json" "$OUT/$_b.peaks" "$OUT/want" "$_b" >"$OUT/$_b.cmp" <<'PY'
import json, sys
rep = json.load(open(sys.argv[1]))
peaks = dict(l.split() for l in open(sys.argv[2]))
want = dict(l.split() for l in open(sys.argv[3]) if l.strip())
build = sys.argv[4]
funcs = {f["name"]: f for f in rep["functions"] if f["selected"]}
bad = 0
for name, peak in peaks.items():
    peak = int(peak)
    f = funcs.get(name)
    if f is None:
        print(f"FAIL {build} {name}: not in the report")
        bad += 1
        continue
    path = f["path_detail"]
    libc = [d["name"] for d in path if d.get("image") == "libc.so.6"]
    unknown = [d["name"] for d in path if d["self"] is None]
    if not libc:
        print(f"FAIL {build} {name}: its worst path does not go into libc.so.6: {f['path']}")
        bad += 1
    if unknown:
        print(f"FAIL {build} {name}: unknown frames on its path: {unknown}")
        bad += 1
    if f["partial"]:
        print(f"FAIL {build} {name}: partial, an unknown frame or call below it: {f['reasons']}")
        bad += 1
    dyn = [r for r in f["reasons"] if r.startswith("dynamic frame in ") and "(" not in r]
    if dyn:
        print(f"FAIL {build} {name}: a dynamic frame without its cause: {dyn}")
        bad += 1
    if f["total"] is not None and not f["partial"]:
        slack = f["total"] - peak
        print(f"{'OK  ' if slack >= 0 else 'FAIL'} {build}\t{name}\tbound {f['total']}\t"
              f"peak {peak}\tslack {slack}\tvia {' '.join(libc)}")
        bad += slack < 0
    else:
        kind = "partial" if f["partial"] else "unbounded"
        why = "; ".join(f["reasons"][:3])
        print(f"INFO {build}\t{name}\t{kind} >= {f['lower_bound']}\tpeak {peak}\t({why})")
        if not f["reasons"]:
            print(f"FAIL {build} {name}: {kind} without a reason")
            bad += 1
    # the program's own slots (libc's are lazily bound whatever the program says)
    lazy = [d["name"] for d in path if d["name"].endswith("@plt") and d.get("image") is None]
    if build == "lazy" and not lazy and f["total"] is None:
        print(f"FAIL {build} {name}: no [lazy binding] on its path: {f['path']}")
        bad += 1
    if build == "now" and lazy:
        print(f"FAIL {build} {name}: lazy binding in a -z now build: {lazy}")
        bad += 1
    got = "bounded" if f["total"] is not None and not f["partial"] else "unbounded"
    if want.get(name) != got:
        print(f"FAIL {build} {name}: {got}, expected {want.get(name)}")
        bad += 1
for name in ("strtol", "memcpy", "qsort", "snprintf"):
    if name in funcs:
        print(f"FAIL {build}: libc's {name} is a root of the report")
        bad += 1
sys.exit(1 if bad else 0)
PY
	_st=$?
	cat "$OUT/$_b.cmp"
	[ $_st -eq 0 ] || fail "$_b: see the FAIL lines above"
}

check now

# qsort calls back the comparator use_qsort passes it (its call site's
# DWARF value): the path through it is the assumed one, resolved by the
# argument, at least the comparator's frame deeper than the certain path
python3 - "$OUT/now.json" "$B/libcuse.su" <<'PY' || fail "use_qsort's comparator: see above"
import json, sys
fs = json.load(open(sys.argv[1]))["functions"]
cmp = [int(l.split("\t")[1]) for l in open(sys.argv[2]) if l.split("\t")[0].endswith(":cmp_long")][0]
f = [f for f in fs if f["name"] == "use_qsort"][0]
path = f.get("assumed_path_detail") or []
print(f"  use_qsort: lower bound {f['lower_bound']}, through the comparator {f.get('assumed_lower_bound')}")
if not path or path[-1]["name"] != "cmp_long" or path[-1]["resolved_by"] != "argument":
    print(f"  use_qsort: the assumed path does not end in cmp_long by its argument: {f.get('assumed_path')}")
    sys.exit(1)
if f["assumed_lower_bound"] < f["lower_bound"] + cmp:
    print(f"  use_qsort: {f['assumed_lower_bound']} < {f['lower_bound']} + cmp_long's {cmp}")
    sys.exit(1)
PY

# no function of libc or ld.so is an unknown frame (glibc's VLA frames,
# sp kept in a frame slot, are read from the code), and libc's calls
# through its .plt.got (malloc, free) are known: -v names no unknown
# frame, and every total above is complete
"$SP" -v -o /dev/null "$B/libcuse-now" 2>"$OUT/verbose.err" || fail "-v failed"
if grep -q "unknown frames:" "$OUT/verbose.err"; then
	fail "unknown frames in the libraries: $(grep 'unknown frames:' "$OUT/verbose.err")"
fi

# libc's DWARF from its debug file (libc6-dbg, by build-id): qsort's
# location is glibc's source, the file and line addr2line gives its
# entry (the first row of its body: at or a few lines below the
# declaration's line), and qsort_r's dynamic frame names its place
id=$(readelf -n $LIBC | sed -n 's/.*Build ID: *//p')
DBG=/usr/lib/debug/.build-id/$(echo "$id" | cut -c1-2)/$(echo "$id" | cut -c3-).debug
if [ -n "$id" ] && [ -f "$DBG" ] && command -v addr2line >/dev/null; then
	addr=$(readelf -W --dyn-syms $LIBC | awk '$8 ~ /^qsort@@/ { print $2 }')
	where=$(addr2line -e "$DBG" "0x$addr")
	python3 - "$OUT/now.json" "$where" <<'PY' || fail "libc's DWARF: see above"
import json, sys
fs = json.load(open(sys.argv[1]))["functions"]
file, line = sys.argv[2].rsplit(":", 1)
f = [f for f in fs if f["name"] == "use_qsort"][0]
q = [d for d in f["path_detail"] if d["name"] == "qsort"]
print(f"  qsort: {q[0]['file'] if q else None}:{q[0]['line'] if q else None}, addr2line {sys.argv[2]}")
if not q or not q[0]["file"] or not file.endswith(q[0]["file"].lstrip("./")) or \
        not 0 < q[0]["line"] <= int(line) <= q[0]["line"] + 10:
    print(f"  qsort's location is not glibc's: {q}")
    sys.exit(1)
dyn = [r for r in f["reasons"] if r.startswith("dynamic frame in qsort_r at ") and "msort.c:" in r]
if not dyn:
    print(f"  qsort_r's dynamic frame without its place: {f['reasons']}")
    sys.exit(1)
PY
else
	skip_part "no libc debug file (libc6-dbg) at $DBG"
fi

# lazily bound: the first call through each PLT slot runs ld.so's
# resolver, whose error paths recurse (_dl_signal_error -> fatal_error ->
# ... -> a lazily bound call): no total is bounded, each says why, and
# the path shows the binding (NAME@plt)
WANT="use_strtol_only unbounded
use_memcpy unbounded
use_strtol unbounded
use_snprintf unbounded
use_qsort unbounded
use_sscanf unbounded
use_strtod unbounded"
check lazy
run_sp --entry use_strtol_only "$B/libcuse-lazy"
grep -q 'strtol@plt .*\[lazy binding\]' "$OUT/stdout" || fail "no [lazy binding] mark for strtol"
grep -q '_dl_runtime_resolve_xsavec' "$OUT/stdout" ||
	run_sp --entry use_strtol_only --json "$B/libcuse-lazy"
python3 - "$B/libcuse-lazy" "$SP" <<'PY' || fail "lazy: see above"
import json, subprocess, sys
out = subprocess.run([sys.argv[2], "--json", "--entry", "use_strtol_only", sys.argv[1]],
                     capture_output=True, text=True).stdout
funcs = json.loads(out)["functions"]
f = funcs[0]
calls = [funcs[c["id"]]["name"] for c in f["calls"]]
stub = "strtol@plt"
if stub not in calls:
    print(f"  lazy: use_strtol_only does not call {stub}: {calls}")
    sys.exit(1)
PY

# an IFUNC calls every implementation its resolver can return: libc's
# memcpy is a tail call to each __memcpy_* (AVX, EVEX, SSE2, ERMS...)
"$SP" --json --entry memcpy "$B/libcuse-now" >"$OUT/memcpy.json" 2>"$OUT/memcpy.err"
python3 - "$OUT/memcpy.json" <<'PY' || fail "memcpy: see above"
import json, sys
funcs = json.load(open(sys.argv[1]))["functions"]
f = [f for f in funcs if f["image"] == "libc.so.6" and f["selected"]]
if len(f) != 1:
    print(f"  memcpy: {len(f)} of libc's functions named memcpy")
    sys.exit(1)
f = f[0]
impls = [funcs[c["id"]]["name"] for c in f["calls"]
         if funcs[c["id"]]["name"].startswith("__memcpy_") and c["tail"]]
print(f"  memcpy: total {f['total']}, tail calls to {len(impls)} implementations")
if len(impls) < 3 or f["total"] is None:
    print(f"  memcpy: expected a bounded total over its implementations: {f['calls']}")
    sys.exit(1)
PY

# the text report marks libc's frames
run_sp --entry use_strtol_only "$B/libcuse-now"
grep -q '\[lib libc.so.6\]' "$OUT/stdout" || fail "no [lib libc.so.6] mark in the text report"

# --no-libs: libc is not read, strtol is an unknown frame
run_sp --no-libs --entry use_strtol_only "$B/libcuse-now"
grep -q 'unknown frame size for strtol' "$OUT/stdout" ||
	fail "--no-libs: strtol is not an unknown frame: $(grep reason "$OUT/stdout")"

# --sysroot: libc found in a root without its debug file; the internal
# functions it calls are then unnamed code, so no total through them is
# bounded, and none is a silent zero either
R=$OUT/root
mkdir -p "$R/lib/x86_64-linux-gnu"
cp $LIBC "$R/lib/x86_64-linux-gnu/"
run_sp --sysroot "$R" --json "$B/libcuse-now"
python3 - "$OUT/stdout" <<'PY' || fail "--sysroot: see above"
import json, sys
funcs = {f["name"]: f for f in json.load(open(sys.argv[1]))["functions"]}
f = funcs["use_strtol_only"]
images = {d.get("image") for d in f["path_detail"]}
if "libc.so.6" not in images:
    print(f"  --sysroot: libc.so.6 not on use_strtol_only's path: {f['path']}")
    sys.exit(1)
if f["total"] is not None and not f["partial"]:
    print(f"  --sysroot: use_strtol_only bounded ({f['total']}) without libc's local functions")
    sys.exit(1)
PY
grep -q "ld-linux-x86-64.so.2.*not found" "$OUT/stderr" ||
	fail "--sysroot: the missing ld.so is not said: $(head -2 "$OUT/stderr")"
finish
