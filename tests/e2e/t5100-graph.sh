#!/bin/sh
# --graph=calls with --dot/--svg/--png: for every sample the red path of
# the call graph is the JSON report's worst path, node labels write self
# and total as the text report does, the SVG is well-formed XML, --all/
# --depth/--min-total/--entry prune as documented (and choose the call
# graph by themselves), and an output path that cannot be written is
# exit 2, one line, no file.
#
# The DOT is read back with gvpr (Graphviz's own parser), which dumps
# every node (name, label, peripheries) and edge (ends, colour, style).
. tests/e2e/lib.sh

command -v gvpr >/dev/null || { echo "  gvpr missing (Debian: graphviz)"; exit 1; }
command -v xmllint >/dev/null || { echo "  xmllint missing (Debian: libxml2-utils)"; exit 1; }

cat >"$OUT/dump.gvpr" <<'EOF'
N { printf("N\t%s\t%s\t%s\n", $.name, $.label, $.peripheries); }
E { printf("E\t%s\t%s\t%s\t%s\n", $.tail.name, $.head.name, $.color, $.style); }
EOF

# check_graph DUMP JSON MODE [ARG]: compare a gvpr dump with the JSON
# report; MODE is path (red path = worst path), all (every reported
# function drawn), depth1 (nothing beyond the root's callees) or min N.
check_graph()
{
	python3 - "$@" <<'PY'
import json, re, sys
sys.path.insert(0, "tests/e2e")
import sp_report
dump, report, mode = sys.argv[1:4]
arg = sys.argv[4] if len(sys.argv) > 4 else None
nodes, edges = {}, []
for line in open(dump):
    f = line.rstrip("\n").split("\t")
    if f[0] == "N":
        lines = f[2].split("\\n")
        m = re.search(r"total (>= |~ )?(\d+)\+? B", f[2])
        nodes[f[1]] = {"name": re.sub(r" \([^()]*\)$", "", lines[0]),
                       "total": int(m.group(2)) if m else None,
                       "label": f[2], "root": f[3] == "2"}
    elif f[0] == "E":
        edges.append({"from": f[1], "to": f[2], "red": f[3] == "red",
                      "dotted": "dotted" in f[4]})
j = sp_report.load(report)
errors = []
roots = [n for n in nodes if nodes[n]["root"]]
if len(roots) != 1:
    sys.exit(f"want one root (peripheries=2), got {roots}")
root = roots[0]
worst = j["functions"][0]

def path_check():
    if nodes[root]["name"] != worst["name"]:
        errors.append(f"root {nodes[root]['name']}, JSON worst {worst['name']}")
    want = ("total " + ("" if worst["bounded"] else ">= ") + ("~ " if worst["assumed"] else "")
            + f"{worst['lower_bound']}" + ("+" if worst["partial"] else "") + " B")
    if want not in nodes[root]["label"]:
        errors.append(f"root label {nodes[root]['label']!r} lacks {want!r}")
    red = [e for e in edges if e["red"]]
    walk, at = [root], root
    while True:
        out = [e for e in red if e["from"] == at]
        if len(out) > 1:
            errors.append(f"{len(out)} red edges leave {at}")
        if not out or out[0]["to"] in walk:
            break
        at = out[0]["to"]
        walk.append(at)
    got = [nodes[n]["name"] for n in walk]
    jpath = []
    for name in worst["path"]:
        if name in jpath:
            break
        jpath.append(name)
    # pruned views draw the worst path only as far as they show it
    if mode == "depth1":
        jpath = jpath[:2]
    elif mode == "min":
        cut = jpath[len(got):]
        same = [f for f in j["functions"] if cut and f["name"] == cut[0]]
        if len(same) == 1 and same[0]["lower_bound"] >= int(arg):
            errors.append(f"--min-total {arg} cut the path before {cut[0]}")
        jpath = jpath[:len(got)]
    if got != jpath:
        errors.append(f"red path {got}, JSON path {jpath}")
    if len(red) != len(walk) - 1:
        errors.append(f"{len(red)} red edges for a path of {len(walk)}")
    tails = sum(d["tail"] for d in worst["path_detail"])
    if sum(e["dotted"] for e in red) != tails:
        errors.append(f"{sum(e['dotted'] for e in red)} dotted red edges, JSON has {tails} tail calls")

path_check()
others = [n for n in nodes if n != root and n != "<indirect>"]
if mode == "all":
    drawn = {nodes[n]["name"] for n in nodes}
    missing = {f["name"] for f in j["functions"]} - drawn
    if missing:
        errors.append(f"--all lacks {sorted(missing)}")
elif mode == "depth1":
    callees = {e["to"] for e in edges if e["from"] == root}
    deeper = [n for n in others if n not in callees]
    if deeper:
        errors.append(f"--depth 1 shows {deeper}")
elif mode == "min":
    small = [n for n in others if nodes[n]["total"] is None or nodes[n]["total"] < int(arg)]
    if small:
        errors.append(f"--min-total {arg} shows {small}")
for e in errors:
    print("    " + e)
sys.exit(1 if errors else 0)
PY
}

# graph_ok SAMPLE TAG MODE [ARG] -- STACKPROF-ARGS: run, dump, check
graph_ok()
{
	_s=$1 _tag=$2 _mode=$3 _arg=
	shift 3
	if [ "$1" != -- ]; then
		_arg=$1
		shift
	fi
	shift
	run_sp --json -o "$OUT/$_tag.json" --dot "$OUT/$_tag.dot" "$@" "samples/$_s/$_s"
	expect_rc 0 "$_tag"
	[ "$rc" -eq 0 ] || return 0
	if ! gvpr -f "$OUT/dump.gvpr" "$OUT/$_tag.dot" >"$OUT/$_tag.dump" 2>"$OUT/$_tag.gvpr.err"; then
		fail "$_tag: gvpr cannot read the DOT: $(head -1 "$OUT/$_tag.gvpr.err")"
		return 0
	fi
	check_graph "$OUT/$_tag.dump" "$OUT/$_tag.json" "$_mode" $_arg ||
		fail "$_tag: the picture does not match the report"
}

samples=$(built_samples) || exit 1

for s in $samples; do
	graph_ok "$s" "$s" path -- --graph=calls
	graph_ok "$s" "$s-all" all -- --all

	run_sp --graph=calls --svg "$OUT/$s.svg" --png "$OUT/$s.png" "samples/$s/$s"
	expect_rc 0 "$s --svg --png"
	xmllint --noout "$OUT/$s.svg" 2>"$OUT/$s.xmllint" ||
		fail "$s: SVG is not well-formed: $(head -1 "$OUT/$s.xmllint")"
	grep -q '<title>' "$OUT/$s.svg" || fail "$s: SVG has no node titles"
	python3 -c 'import sys; sys.exit(open(sys.argv[1], "rb").read(8) != b"\x89PNG\r\n\x1a\n")' \
		"$OUT/$s.png" || fail "$s: --png did not write a PNG"
done

# pruning and roots, on the samples whose worst paths are long enough
need_sample chain
graph_ok chain chain-depth depth1 -- --depth 1
graph_ok chain chain-min min 500 -- --min-total 500
graph_ok chain chain-entry path -- --graph=calls --entry level3
grep -q 'level3 (' "$OUT/chain-entry.dump" || fail "--entry level3: not drawn"

# a frame reads as in the text report: level5's frame and its red zone
# (.su and objdump), its total their sum as it calls nothing
su=$(su_self samples/chain/a.su level5)
rz=$(red_zone samples/chain/chain level5)
[ "$rz" -gt 0 ] || fail "level5 has no red zone to show (objdump)"
want="level5 (a.c)\\nself $su+$rz B\\ntotal $((su + rz)) B"
grep -qF "$want" "$OUT/chain.dump" ||
	fail "level5's label: $(grep 'level5' "$OUT/chain.dump" | head -1 | cut -f3), want $want"
grep -q 'main (' "$OUT/chain-entry.dump" && fail "--entry level3: draws main, above it"

# an output that cannot be written: exit 2, one line naming it, no file
bad=$OUT/no/such/dir/g.svg
run_sp --svg "$bad" samples/chain/chain
expect_rc 2 "--svg into a missing directory"
[ "$(wc -l <"$OUT/stderr")" -eq 1 ] || fail "--svg into a missing directory: not one line on stderr"
grep -Eq "^stackprof: cannot write '$bad': " "$OUT/stderr" ||
	fail "--svg into a missing directory: '$(cat "$OUT/stderr")'"
[ -e "$bad" ] && fail "--svg into a missing directory: left a file"

mkdir "$OUT/isdir"
run_sp --dot "$OUT/isdir" samples/chain/chain
expect_rc 2 "--dot over a directory"
ls "$OUT" | grep -q '\.tmp' && fail "--dot over a directory: left $(ls "$OUT" | grep '\.tmp')"

# exit 2 must leave no partial output: not the -o report either
rm -f "$OUT/report"
run_sp -o "$OUT/report" --svg "$bad" samples/chain/chain
expect_rc 2 "-o with a bad --svg"
[ -e "$OUT/report" ] && fail "-o with a bad --svg: exit 2 left the -o report behind"
finish
