#!/bin/sh
# --html: one self-contained page (no external reference, inline SVG, the
# --json report embedded with no "</" in it), driven in headless chromium
# through the page's #selftest: sorting by a header click, a row click
# expanding the worst path (checked against --json and, for its depth,
# against ci_oracle.py), the filter hiding the other rows; a screenshot.
# The browser is $CHROMIUM (default chromium); without it the test runs
# its static checks, then says skip.
. tests/e2e/lib.sh
need_sample chain
need_sample recursion
need_sample tailcall
CHECK="python3 tests/e2e/html_check.py"

bin=samples/chain/chain
run_sp --html "$OUT/page.html" --json -o "$OUT/page.json" $bin
expect_rc 0 "--html --json"
[ -s "$OUT/page.html" ] || fail "--html wrote no page"
$CHECK static "$OUT/page.html" "$OUT/page.json" || fail "chain page (above)"

# unbounded and recursive functions, with --entry
run_sp --html "$OUT/rec.html" --json -o "$OUT/rec.json" --entry main samples/recursion/recursion
expect_rc 0 "recursion --html"
$CHECK static "$OUT/rec.html" "$OUT/rec.json" || fail "recursion page (above)"

# with a budget exceeded the page is still written, exit 1
run_sp --html "$OUT/budget.html" --budget 100 $bin
expect_rc 1 "--html --budget 100"
[ -s "$OUT/budget.html" ] || fail "--html --budget: no page"

# bad input: no page, no temporary file
expect_bad "--html into a missing directory" "nodir" --html "$OUT/nodir/x.html" $bin
expect_bad "--html of a bad ELF" "" --html "$OUT/report-bad.html" samples/chain/a.c

CHROMIUM=${CHROMIUM:-chromium}
command -v "$CHROMIUM" >/dev/null 2>&1 ||
	skip "no chromium ('$CHROMIUM' not found): the static checks ran, the browser ones did not"
$ORACLE --print --objdump $bin samples/chain >"$OUT/oracle" || fail "oracle"
main=$(oracle_value chain main)
page=$(cd "$OUT" && pwd)/page.html
browser()
{
	timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu \
		--user-data-dir="$OUT/profile" "$@" 2>>"$OUT/chromium.log"
}
spec=sort:name,sort:total,expand:main,filter:level
browser --dump-dom "file://$page#selftest=$spec" >"$OUT/dom.html" ||
	fail "chromium --dump-dom failed: $(tail -3 "$OUT/chromium.log")"
$CHECK dom "$OUT/dom.html" "$OUT/page.json" "$main" "$spec" || fail "page in chromium (above)"

# tail calls: each callee's frame replaces its caller's on the stack
run_sp --html "$OUT/tail.html" --json -o "$OUT/tail.json" samples/tailcall/tailcall
expect_rc 0 "tailcall --html"
tramp=$(oracle_value tailcall trampoline)
spec=sort:name,sort:total,expand:trampoline,filter:big
browser --dump-dom "file://$(cd "$OUT" && pwd)/tail.html#selftest=$spec" >"$OUT/tail-dom.html" ||
	fail "chromium --dump-dom tail.html failed"
$CHECK dom "$OUT/tail-dom.html" "$OUT/tail.json" "$tramp" "$spec" || fail "tailcall page in chromium (above)"

browser --screenshot="$OUT/page.png" --window-size=1280,900 \
	"file://$page#selftest=expand:main" >/dev/null || fail "chromium --screenshot failed"
python3 - "$OUT/page.png" <<'PY' || fail "screenshot"
import struct, sys
png = open(sys.argv[1], "rb").read()
if png[:8] != b"\x89PNG\r\n\x1a\n" or png[12:16] != b"IHDR":
    sys.exit("  page.png is not a PNG")
w, h = struct.unpack(">II", png[16:24])
if (w, h) != (1280, 900) or len(png) < 20000:
    sys.exit(f"  page.png: {w}x{h}, {len(png)} bytes: not the 1280x900 page")
PY
finish
