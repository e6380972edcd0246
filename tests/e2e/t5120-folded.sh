#!/bin/sh
# --folded: for every sample, each root's lines are its worst path (the
# --json path, frame by frame) and add up to its --json total; the roots
# are the functions nothing calls, or the --entry-glob selection.  Then a
# real consumer reads the files: speedscope (npm, a pinned version, kept
# under /tmp) must recognise the collapsed-stack format by itself and
# give each root the width of its total.  Without the npm registry that
# part cannot run: the test skips (lib.sh's skip) after its own checks.
. tests/e2e/lib.sh
SPEEDSCOPE_VERSION=1.25.0
CACHE=${STACKPROF_NPM_CACHE:-/tmp/stackprof-npm}/speedscope-$SPEEDSCOPE_VERSION

# check_folded FOLDED JSON ROOTS: ROOTS is "uncalled" or "all" (every
# reported function is a root)
check_folded()
{
	python3 - "$@" <<'PY'
import collections, json, sys
sys.path.insert(0, "tests/e2e")
import sp_report
folded, report, roots_kind = sys.argv[1:4]
j = sp_report.load(report)
funcs = {f["name"]: f for f in j["functions"]}
called = {c["name"] for f in j["functions"] for c in f["calls"] if c["name"] != f["name"]}
weights, lines = collections.Counter(), collections.defaultdict(list)
errors = []
for line in open(folded):
    stack, _, n = line.rstrip("\n").rpartition(" ")
    if not stack or not n.isdigit() or int(n) <= 0:
        errors.append(f"malformed line {line!r}")
        continue
    frames = stack.split(";")
    weights[frames[0]] += int(n)
    lines[frames[0]].append(frames)
want = {n for n, f in funcs.items() if roots_kind == "all" or n not in called}
want = {n for n in want if funcs[n]["lower_bound"] > 0}
if set(weights) != want:
    errors.append(f"roots {sorted(weights)}, want {sorted(want)}")
for root, total in weights.items():
    f = funcs.get(root)
    if not f:
        continue
    if total != f["lower_bound"]:
        errors.append(f"{root}: lines add up to {total}, --json total {f['lower_bound']}")
    for frames in lines[root]:
        if frames != f["path"][:len(frames)]:
            errors.append(f"{root}: stack {';'.join(frames)} is not its worst path {f['path']}")
for e in errors[:10]:
    print("    " + e)
sys.exit(1 if errors else 0)
PY
}

samples=$(built_samples) || exit 1
for s in $samples; do
	run_sp --folded "$OUT/$s.folded" --json -o "$OUT/$s.json" "samples/$s/$s"
	expect_rc 0 "$s --folded"
	[ -s "$OUT/$s.folded" ] || fail "$s: --folded wrote nothing"
	check_folded "$OUT/$s.folded" "$OUT/$s.json" uncalled || fail "$s: --folded (above)"
done

# a selection: every function the pattern names is a root, called or not
need_sample chain
run_sp --folded "$OUT/glob.folded" --json -o "$OUT/glob.json" --entry-glob 'level*' \
	samples/chain/chain
expect_rc 0 "--folded --entry-glob"
check_folded "$OUT/glob.folded" "$OUT/glob.json" all || fail "--folded --entry-glob (above)"

# tail calls: the replaced frame weighs nothing, the sum is still the total
need_sample tailcall
grep -q ';' "$OUT/tailcall.folded" || fail "tailcall: no stack deeper than its root"

# bad usage leaves no file
run_sp --folded "$OUT/bad.folded" --graph=nonsense samples/chain/chain
expect_rc 2 "--folded with a bad --graph"
[ -e "$OUT/bad.folded" ] && fail "--folded with a bad --graph: left the file"

# the consumer
command -v node >/dev/null 2>&1 || skip "no node (Debian: nodejs) to run speedscope"
if [ ! -d "$CACHE/node_modules/speedscope/dist/release" ]; then
	command -v npm >/dev/null 2>&1 || skip "no npm (Debian: npm) to install speedscope"
	mkdir -p "$CACHE"
	if ! timeout 300 npm install --prefix "$CACHE" --no-audit --no-fund \
		"speedscope@$SPEEDSCOPE_VERSION" >"$OUT/npm.log" 2>&1; then
		sed 's/^/    /' "$OUT/npm.log" | tail -3
		skip "cannot install speedscope@$SPEEDSCOPE_VERSION from the npm registry"
	fi
fi
for s in $samples glob; do
	node tests/e2e/speedscope_folded.mjs "$CACHE/node_modules/speedscope" \
		"$OUT/$s.folded" >"$OUT/$s.speedscope" 2>"$OUT/$s.speedscope.err" ||
		{ fail "$s: speedscope: $(head -2 "$OUT/$s.speedscope.err")"; continue; }
	python3 - "$OUT/$s.speedscope" "$OUT/$s.folded" "$OUT/$s.json" <<'PY' ||
import collections, json, sys
sys.path.insert(0, "tests/e2e")
import sp_report
got = json.load(open(sys.argv[1]))
funcs = {f["name"]: f["lower_bound"] for f in sp_report.load(sys.argv[3])["functions"]}
roots = {l.rpartition(" ")[0].split(";")[0] for l in open(sys.argv[2]) if l.strip()}
errors = []
if got["format"] != "Importing as collapsed stack format":
    errors.append(f"speedscope read it as {got['format']!r}")
want = {r: funcs[r] for r in roots}
if got["roots"] != want:
    errors.append(f"speedscope's widths {got['roots']}, stackprof's totals {want}")
if got["total"] != sum(want.values()):
    errors.append(f"speedscope's total {got['total']}, stackprof's {sum(want.values())}")
for e in errors:
    print("    " + e)
sys.exit(1 if errors else 0)
PY
		fail "$s: speedscope does not read the totals (above)"
done
finish
