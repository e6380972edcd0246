# oracle/run.sh - sourced by the runtime-oracle e2e tests after lib.sh,
# with OPT set (-O2, -O0...): build each sample again at $OPT together
# with tests/oracle/paint.c and libc_stubs.c (ORACLE_SRC=DIR: the
# programs' sources are DIR/SAMPLE, not samples/), analyse that build with
# stackprof, run every entry of entries.txt on a painted stack and check
# that each bounded total is at least the measured peak, and that the
# entries entries.txt says are bounded are, and only those.  Prints one
# line per entry: sample, entry, arguments, bound, peak, slack, and
# whether the slack is within the target (64 bytes + 5 % of the peak).
# The bound includes the red zone of the leaves (x86-64: stack used below
# %rsp, in no .su frame), printed as "red zone R" (on the worst path):
# any shortfall fails.

# oracle_toolchain SAMPLE: sets _cc and _lto the way samples/Makefile
# builds SAMPLE (clang with clang, lto with -flto, so that its .su rows
# come from the link: $_s.ltransN.ltrans.su), or prints why no oracle
# runs the sample and returns 1.
oracle_toolchain()
{
	_cc=gcc _lto=
	case $1 in
	firmware)
		echo "  not run: firmware is Cortex-M3 Thumb-2 code, run by no oracle" \
			"here (t1200 checks its totals against GCC's .ci files)"
		return 1 ;;
	clang) _cc=clang ;;
	lto) _lto=-flto ;;
	esac
}

oracle_build()
{
	_s=$1 _dir=$OUT/build _src=${ORACLE_SRC:-samples}/$1
	oracle_toolchain "$_s" || return 1
	mkdir -p "$_dir/$_s"
	cp "$_src"/*.c "$_dir/$_s/" && cp "$_src"/*.h "$_src"/*.S "$_dir/$_s/" 2>/dev/null
	cp tests/oracle/paint.c tests/oracle/libc_stubs.c "$_dir/$_s/"
	(
		cd "$_dir" || exit 1
		for c in "$_s"/*.c "$_s"/*.S; do
			[ -f "$c" ] || continue
			case $c in
			*/libc_stubs.c) extra="-fno-builtin -fno-tree-loop-distribute-patterns" ;;
			*/paint.c | *.S) extra= ;;
			*) extra=$_lto ;;
			esac
			[ "$_cc" = clang ] && extra=${extra%% -fno-tree-loop-distribute-patterns}
			$_cc $OPT -g -fstack-usage $extra -c "$c" -o "${c%.[cS]}.o" || exit 1
		done
		$_cc $OPT $_lto ${_lto:+-fstack-usage} -rdynamic -o "$_s/$_s" "$_s"/*.o
	)
}

oracle_check_sample()
{
	_s=$1
	if ! oracle_build "$_s" >"$OUT/$_s.build" 2>&1; then
		fail "$_s: cannot build at $OPT: $(head -3 "$OUT/$_s.build")"
		return
	fi
	_bin=$OUT/build/$_s/$_s
	if ! "$SP" --json "$_bin" >"$OUT/$_s.json" 2>"$OUT/$_s.err"; then
		fail "$_s: stackprof failed: $(head -1 "$OUT/$_s.err")"
		return
	fi
	# SAMPLE BOUND NAME ARGS... lines; the program is given "NAME ARGS;..."
	awk -v s="$_s" '$1 == s' tests/oracle/entries.txt >"$OUT/$_s.entries"
	if [ ! -s "$OUT/$_s.entries" ]; then
		fail "$_s: no entry in tests/oracle/entries.txt"
		return
	fi
	_entries=$(awk '{ $1 = $2 = ""; sub(/^ +/, ""); printf "%s%s", sep, $0; sep = ";" }' \
		"$OUT/$_s.entries")
	if ! ORACLE_ENTRIES=$_entries "$_bin" >"$OUT/$_s.peaks" 2>"$OUT/$_s.run"; then
		fail "$_s: the oracle run failed: $(head -1 "$OUT/$_s.run")"
		return
	fi
	python3 - "$OUT/$_s.json" "$OUT/$_s.peaks" "$OUT/$_s.entries" "$OPT" \
		>"$OUT/$_s.cmp" <<'PY'
import json, sys
sys.path.insert(0, "tests/e2e")
import sp_report
rep = sp_report.load(sys.argv[1])
peaks = [l.rstrip("\n").split("\t") for l in open(sys.argv[2])]
entries = [l.split() for l in open(sys.argv[3])]
opt = sys.argv[4]
bad = 0

def must_be_bounded(word):
    """entries.txt's BOUND at this OPT: True, False, or None (not a BOUND)"""
    if word in ("bounded", "unbounded"):
        return word == "bounded"
    if word.startswith("bounded@"):
        return opt in word[len("bounded@"):].split(",")
    return None

for (sample, word, *spec), (name, peak) in zip(entries, peaks):
    spec, peak, want = " ".join(spec), int(peak), must_be_bounded(word)
    hits = [f for f in rep["functions"] if f["name"] == name]
    if want is None:
        print(f"FAIL {sample} {spec}: BOUND '{word}' in entries.txt is not "
              "bounded, unbounded or bounded@OPT")
        bad += 1
        continue
    if len(hits) != 1:
        print(f"FAIL {sample} {spec}: {len(hits)} functions named {name}")
        bad += 1
        continue
    f = hits[0]
    if f["total"] is None or f["partial"]:
        why = "; ".join(f["reasons"][:2])
        kind = "partial" if f["partial"] else "unbounded"
        verdict = "FAIL" if want else "INFO"
        print(f"{verdict} {sample}\t{spec}\t{kind} >= {f['lower_bound']}\tpeak {peak}\t({why})")
        if want:
            print(f"FAIL {sample} {spec}: the bound is lost (entries.txt: {word} at {opt})")
            bad += 1
        if f["bounded"] and not f["partial"]:
            print(f"FAIL {sample} {spec}: bounded without a total")
            bad += 1
        continue
    slack = f["total"] - peak
    target = 64 + peak * 5 // 100
    within = "within target" if 0 <= slack <= target else f"over target {target}"
    verdict = "OK  " if slack >= 0 and want else "FAIL"
    red = sum(d.get("red_zone") or 0 for d in f["path_detail"])
    print(f"{verdict} {sample}\t{spec}\tbound {f['total']}\tpeak {peak}\tslack {slack}\t"
          f"red zone {red}\t{within}")
    if slack < 0:
        print(f"FAIL {sample} {spec}: the bound is below the measured peak")
        bad += 1
    if not want:
        print(f"FAIL {sample} {spec}: bounded, but entries.txt says {word} at {opt} "
              "(recursion, a VLA or alloca(), or an unknown indirect call on its paths)")
        bad += 1
if len(peaks) != len(entries):
    print(f"FAIL {entries[0][0]}: {len(entries)} entries, {len(peaks)} peaks")
    bad += 1
sys.exit(1 if bad else 0)
PY
	_st=$?
	cat "$OUT/$_s.cmp"
	[ $_st -eq 0 ] || fail "$_s at $OPT: see the FAIL lines above"
}

oracle_check_all()
{
	if [ "$(uname -m)" != x86_64 ]; then
		skip "the painted-stack call (tests/oracle/paint.c) is x86-64 assembly"
	fi
	for d in samples/*/; do
		_s=$(basename "$d")
		ls "$d"*.c >/dev/null 2>&1 || continue
		oracle_toolchain "$_s" || continue
		oracle_check_sample "$_s"
	done
}
