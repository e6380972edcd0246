#!/bin/sh
# --sarif FILE: budget violations (the same functions --budget names on
# stderr) and dynamic frames (as the .su files mark them), located where
# .su puts each function; every file valid against the official SARIF
# 2.1.0 schema (tests/data/sarif/, see ORIGIN there).
. tests/e2e/lib.sh
need_sample chain
need_sample vla
need_sample alloca

SCHEMA=tests/data/sarif/sarif-schema-2.1.0.json
PY=$(schema_python)
[ -n "$PY" ] || { fail "no python3 with jsonschema (apt-get install python3-jsonschema)"; finish; exit; }

# sget FILE EXPR: EXPR over the SARIF file s, printed as JSON; res(rule)
# the results of that rule
sget()
{
	python3 - "$1" "$2" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
def res(rule):
    return [r for r in s["runs"][0]["results"] if r["ruleId"] == rule]
def loc(r):
    p = r["locations"][0]["physicalLocation"]
    return "%s:%d:%d" % (p["artifactLocation"]["uri"], p["region"]["startLine"], p["region"]["startColumn"])
print(json.dumps(eval(sys.argv[2])))
PY
}

# chain: a budget just below the worst total: the functions over it are
# the ones the oracle puts over it
$ORACLE --print --objdump samples/chain/chain samples/chain >"$OUT/oracle" || fail "oracle"
second=$(awk -F'\t' '{ sub(/^total=/, "", $4); print $4 }' "$OUT/oracle" | sort -rn | sed -n 2p)
over=$(awk -F'\t' -v b="$second" '{ sub(/^total=/, "", $4); if ($4 + 0 > b) n++ } END { print n + 0 }' "$OUT/oracle")
run_sp --budget "$second" --sarif "$OUT/chain.sarif" samples/chain/chain
expect_rc 1 "--budget $second --sarif"
expect_eq "chain: budget results" "$(sget "$OUT/chain.sarif" 'len(res("stack-budget"))')" "$over"
expect_eq "chain: as many as stderr lines" "$(wc -l <"$OUT/stderr")" "$over"
loc=$(awk -F'\t' '$1 ~ /:main$/ { sub(/:main$/, "", $1); print $1 }' samples/chain/a.su)
expect_eq "chain: main's location is .su's" "$(sget "$OUT/chain.sarif" 'loc(res("stack-budget")[0])')" "\"$loc\""
expect_eq "chain: level" "$(sget "$OUT/chain.sarif" 'res("stack-budget")[0]["level"]')" '"error"'
sget "$OUT/chain.sarif" 'res("stack-budget")[0]["message"]["text"]' |
	grep -q "stack budget exceeded: $(oracle_value chain main) > $second bytes via main" ||
	fail "chain: message $(sget "$OUT/chain.sarif" 'res("stack-budget")[0]["message"]')"
expect_eq "chain: no dynamic frames" "$(sget "$OUT/chain.sarif" 'len(res("dynamic-frame"))')" 0

# without a budget: only the dynamic frames, one per .su "dynamic" row
for s in vla alloca; do
	run_sp --sarif "$OUT/$s.sarif" samples/$s/$s
	expect_rc 0 "$s --sarif"
	want=$(grep -c '	dynamic' samples/$s/*.su | awk -F: '{ n += $NF } END { print n }')
	expect_eq "$s: dynamic results" "$(sget "$OUT/$s.sarif" 'len(res("dynamic-frame"))')" "$want"
	expect_eq "$s: no budget results" "$(sget "$OUT/$s.sarif" 'len(res("stack-budget"))')" 0
done
row=$(awk -F'\t' '$3 == "dynamic" { sub(/:[^:]*$/, "", $1); print $1 }' samples/vla/vla.su)
expect_eq "vla: make_row where .su says" "$(sget "$OUT/vla.sarif" 'loc(res("dynamic-frame")[0])')" "\"$row\""
sget "$OUT/vla.sarif" 'res("dynamic-frame")[0]["message"]["text"]' | grep -q "VLA 'row' at vla.c:11" ||
	fail "vla: message does not name the VLA"
expect_eq "vla: level" "$(sget "$OUT/vla.sarif" 'res("dynamic-frame")[0]["level"]')" '"warning"'
expect_eq "alloca: the function" "$(sget "$OUT/alloca.sarif" 'res("dynamic-frame")[0]["locations"][0]["logicalLocations"][0]["name"]')" '"copy_name"'

# the schema check itself can fail: a result without a message is invalid
"$PY" tests/e2e/sarif_check.py "$SCHEMA" "$OUT/chain.sarif" "$OUT/vla.sarif" "$OUT/alloca.sarif" ||
	fail "SARIF does not validate against $SCHEMA"
python3 -c 'import json,sys; s=json.load(open(sys.argv[1])); del s["runs"][0]["results"][0]["message"]; json.dump(s, open(sys.argv[2], "w"))' \
	"$OUT/chain.sarif" "$OUT/broken.sarif"
"$PY" tests/e2e/sarif_check.py "$SCHEMA" "$OUT/broken.sarif" >/dev/null &&
	fail "a result without a message passed the schema"

# an unwritable path: exit 2 and no report at all
run_sp --sarif "$OUT/no/such/dir/x.sarif" -o "$OUT/report" samples/vla/vla
expect_rc 2 "--sarif into a missing directory"
[ -e "$OUT/report" ] && fail "--sarif failed but the report was written"
finish
