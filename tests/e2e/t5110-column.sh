#!/bin/sh
# The column picture (the default of --svg/--png/--dot), checked by
# looking: for every sample and for a generated path of 100 frames, each
# box of the SVG is the frame it names, in order, as high as its bytes say
# (at the legend's scale, at least one line of text), the boxes touch;
# --dot laid out by dot(1) draws the same boxes; headless chromium renders
# the SVG within 1600 px of width with every box as high as the SVG says,
# and its screenshot shows their borders there.  The frames come from
# the --json report for the samples and from the .su file for the
# generated path; a budget draws its line where the stack passes it.
. tests/e2e/lib.sh
CHECK="python3 tests/e2e/column_check.py"
command -v xmllint >/dev/null || { echo "  xmllint missing (Debian: libxml2-utils)"; exit 1; }
command -v dot >/dev/null || { echo "  dot missing (Debian: graphviz)"; exit 1; }

# frames_of JSON: "name bytes" per frame of the first function's worst path
frames_of()
{
	python3 - "$1" <<'PY'
import json, sys
sys.path.insert(0, "tests/e2e")
import sp_report
f = sp_report.load(sys.argv[1])["functions"][0]
for p in f["path_detail"]:
    print(p["name"], (p["self"] or 0) + p["red_zone"])
PY
}

# column_ok TAG FRAMES [BUDGET]: $OUT/TAG.svg and $OUT/TAG.dot against
# FRAMES; the boxes go to $OUT/TAG.boxes
column_ok()
{
	xmllint --noout "$OUT/$1.svg" 2>"$OUT/$1.xmllint" ||
		fail "$1: SVG is not well-formed: $(head -1 "$OUT/$1.xmllint")"
	$CHECK svg "$OUT/$1.svg" "$2" ${3:-} >"$OUT/$1.boxes" ||
		{ fail "$1: the column does not match the frames (above)"; cat "$OUT/$1.boxes"; }
	dot -Tsvg "$OUT/$1.dot" >"$OUT/$1.dot.svg" 2>"$OUT/$1.dot.err" ||
		fail "$1: dot cannot lay out --dot: $(head -1 "$OUT/$1.dot.err")"
	$CHECK svg "$OUT/$1.dot.svg" "$2" ${3:-} >"$OUT/$1.dot.boxes" ||
		fail "$1: --dot drawn by dot(1) does not match the frames"
	cmp -s "$OUT/$1.boxes" "$OUT/$1.dot.boxes" ||
		fail "$1: --dot drawn by dot(1) is not the --svg picture"
}

samples=$(built_samples) || exit 1
for s in $samples; do
	run_sp --svg "$OUT/$s.svg" --dot "$OUT/$s.dot" --json -o "$OUT/$s.json" "samples/$s/$s"
	expect_rc 0 "$s --svg --dot"
	frames_of "$OUT/$s.json" >"$OUT/$s.frames"
	column_ok "$s" "$OUT/$s.frames"
done

# the budget's line, in the frame during which the stack passes it
need_sample chain
run_sp --svg "$OUT/budget.svg" --dot "$OUT/budget.dot" --png "$OUT/budget.png" \
	--budget 1000 samples/chain/chain
expect_rc 1 "chain --budget 1000"
column_ok budget "$OUT/chain.frames" 1000
python3 - "$OUT/budget.png" "$OUT/budget.boxes" <<'PY' || fail "--png (above)"
import struct, sys
png = open(sys.argv[1], "rb").read()
if png[:8] != b"\x89PNG\r\n\x1a\n":
    sys.exit("  --png wrote no PNG")
w, h = struct.unpack(">II", png[16:24])
cw, ch = map(float, open(sys.argv[2]).readline().split())
if abs(w - cw * 4 / 3) > 2 or abs(h - ch * 4 / 3) > 2:
    sys.exit(f"  --png is {w}x{h} px, the SVG {cw}x{ch} pt")
PY

# a path of 100 frames: f0 -> f1 -> ... -> f99, each with an array; the
# frames from .su (no red zone: -mno-red-zone)
mkdir -p "$OUT/deep"
python3 - "$OUT/deep/deep.c" <<'PY'
import sys
with open(sys.argv[1], "w") as out:
    out.write("".join(f"int f{i}(int x);\n" for i in range(100)) + "\n")
    for i in range(100):
        size = 4096 * (i // 10 % 3 + 1) if i % 10 == 9 else 16 * (i % 6 + 1)
        callee = f"f{i + 1}(x + buf[(x + 1) % {size}]) + 1" if i < 99 else "buf[1]"
        out.write(f"__attribute__((noinline)) int f{i}(int x)\n{{\n"
                  f"\tvolatile char buf[{size}];\n\n\tbuf[x % {size}] = (char)x;\n"
                  f"\treturn {callee};\n}}\n\n")
    out.write("int main(int argc, char **argv)\n{\n\t(void)argv;\n\treturn f0(argc);\n}\n")
PY
(cd "$OUT/deep" && gcc -O2 -g -fstack-usage -mno-red-zone -fno-optimize-sibling-calls \
	-fno-inline -o deep deep.c) || fail "cannot build the 100-frame program"
for i in $(seq 0 99); do
	echo "f$i $(su_self "$OUT/deep/deep.su" "f$i")"
done >"$OUT/deep.frames"
[ "$(awk '$2 != ""' "$OUT/deep.frames" | wc -l)" -eq 100 ] || fail "deep.su lacks frames"
run_sp --svg "$OUT/deep.svg" --dot "$OUT/deep.dot" --entry f0 "$OUT/deep/deep"
expect_rc 0 "deep --svg"
column_ok deep "$OUT/deep.frames"
[ "$(grep -c '^c0f' "$OUT/deep.boxes")" -eq 100 ] || fail "deep: not 100 boxes"
awk 'NR > 1 && $3 > 18 { n++ } END { exit !(n >= 3) }' "$OUT/deep.boxes" ||
	fail "deep: fewer than 3 boxes above the least height: nothing proportional was checked"

command -v chromium >/dev/null 2>&1 ||
	skip "no chromium (Debian: chromium) to render the SVG and look at it"
browser()
{
	timeout 120 chromium --headless --no-sandbox --disable-gpu \
		--user-data-dir="$OUT/profile" "$@" 2>>"$OUT/chromium.log"
}
# look TAG: render $OUT/TAG.svg in chromium and check what it draws
look()
{
	$CHECK page "$OUT/$1.svg" "$OUT/$1.html"
	size=$(head -1 "$OUT/$1.boxes" | awk '{ printf "%d,%d", $1 * 4 / 3 + 16, $2 * 4 / 3 + 40 }')
	url="file://$(cd "$OUT" && pwd)/$1.html"
	browser --dump-dom "$url" >"$OUT/$1.dom" ||
		{ fail "$1: chromium --dump-dom failed: $(tail -2 "$OUT/chromium.log")"; return; }
	browser --screenshot="$OUT/$1.png" --window-size="$size" "$url" >/dev/null ||
		{ fail "$1: chromium --screenshot failed"; return; }
	$CHECK look "$OUT/$1.dom" "$OUT/$1.png" "$OUT/$1.boxes" 1600 ||
		fail "$1: chromium's rendering (above)"
}
look chain
look budget
look deep
finish
