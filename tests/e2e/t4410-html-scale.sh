#!/bin/sh
# --html at scale: the page of Debian's 6.1 cloud kernel (unpacked under
# /tmp/debian-kernel, as for t2130; not under make check-asan, where a
# kernel run takes 5-10 times as long: sanitized_sp), else of a
# 10,000-function program from bench/gen-synthetic, holds what --json
# says of every function (html_check.py static), stays under 20 MB for the kernel, and in
# headless chromium pages through its rows a hundred at a time: the
# third page, a path opened there (built from the worst callees), the
# first page of a filter (html_check.py pages).  Its size and the time
# the page took to draw its table are printed; bench/html_paint.py
# measures its paint.
. tests/e2e/lib.sh
CHECK="python3 tests/e2e/html_check.py"
root=${STACKPROF_DEBIAN_KERNEL:-/tmp/debian-kernel/root}
vmlinux=$root/usr/lib/debug/boot/vmlinux-6.1.0-47-cloud-amd64

if [ -f "$vmlinux" ] && ! sanitized_sp; then
	elf=$vmlinux
	filter=tcp_
else
	dir=$OUT/syn
	bench/gen-synthetic 10000 "$dir" >"$OUT/gen" 2>&1 ||
		{ fail "gen-synthetic failed: $(head -3 "$OUT/gen")"; finish; exit; }
	make -C "$dir" -j2 -s >"$OUT/make" 2>&1 ||
		{ fail "the synthetic program does not build: $(head -3 "$OUT/make")"; finish; exit; }
	elf=$dir/synth
	filter=f12
fi
run_sp --html "$OUT/page.html" --json -o "$OUT/page.json" "$elf"
expect_rc 0 "--html --json $elf"
size=$(wc -c <"$OUT/page.html")
echo "  $elf: page of $size bytes"
[ "$elf" = "$vmlinux" ] && [ "$size" -gt 20000000 ] && fail "the kernel's page is $size bytes, over 20 MB"
$CHECK static "$OUT/page.html" "$OUT/page.json" || fail "the page's data (above)"

CHROMIUM=${CHROMIUM:-chromium}
command -v "$CHROMIUM" >/dev/null 2>&1 ||
	skip "no chromium ('$CHROMIUM' not found): the static checks ran, the browser ones did not"
# a function of the third page whose name is its own
expand=$(jget "$OUT/page.json" '[f["name"] for f in j["functions"][200:300] if len(fns(f["name"])) == 1][0]')
expand=$(echo "$expand" | tr -d '"')
spec=sort:total,page:3,expand:$expand,filter:$filter
timeout 300 "$CHROMIUM" --headless --no-sandbox --disable-gpu --user-data-dir="$OUT/profile" \
	--dump-dom "file://$(cd "$OUT" && pwd)/page.html#selftest=$spec" >"$OUT/dom.html" \
	2>>"$OUT/chromium.log" || fail "chromium --dump-dom failed: $(tail -3 "$OUT/chromium.log")"
$CHECK pages "$OUT/dom.html" "$OUT/page.json" "$spec" || fail "the page in chromium (above)"
finish
