#!/bin/sh
# --indirect=types reads a DWARF 5 unit's location lists from
# .debug_loclists itself, and leaves DWARF 4's .debug_loc to libdwarf:
# samples/ops built both ways (the same code: -gdwarf-N changes only the
# debug sections) must resolve every indirect call the same way, the
# field calls included, which only the locations of their functions'
# pointer parameters type (shape_area's s, device_read's d, tick's t).
. tests/e2e/lib.sh
[ "$(uname -m)" = x86_64 ] || skip "the instruction pass is x86-64's"
command -v gcc >/dev/null || skip "no gcc"

src=samples/ops
build()	# VERSION: samples/ops with DWARF VERSION, into $OUT/dN/ops
{
	mkdir -p "$OUT/d$1"
	gcc -O2 -g -gdwarf-"$1" -o "$OUT/d$1/ops" "$src/ops.c" "$src/drivers.c" ||
		fail "gcc -gdwarf-$1"
}
build 4
build 5
readelf -S "$OUT/d5/ops" | grep -q '\.debug_loclists' ||
	skip "gcc wrote no .debug_loclists for DWARF 5"
readelf -S "$OUT/d4/ops" | grep -q '\.debug_loc ' ||
	skip "gcc wrote no .debug_loc for DWARF 4"
cmp -s "$OUT/d4/ops" "$OUT/d5/ops" && fail "the two builds are the same file"

# sites(VERSION): every site's function, resolution, type and targets
sites()
{
	run_sp --json --indirect=types "$OUT/d$1/ops"
	expect_rc 0 "DWARF $1"
	cp "$OUT/stdout" "$OUT/d$1.json"
	jget "$OUT/d$1.json" "sorted([s['function'], s['resolved_by'], s['type'], sorted(s['targets'] or [])] for s in j['indirect_calls'])"
}
d4=$(sites 4)
d5=$(sites 5)
expect_eq "DWARF 4 and 5 resolve alike" "$d5" "$d4"
fields=$(jget "$OUT/d5.json" "sorted(s['type'] for s in j['indirect_calls'] if s['resolved_by'] == 'field')")
expect_eq "the field calls" "$fields" \
	'["struct device_ops.read", "struct device_ops.start", "struct shape_ops.area", "struct timer.fire"]'
finish
