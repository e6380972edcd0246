#!/bin/sh
# The firmware sample: arm-none-eabi-gcc -mcpu=cortex-m3 -mthumb, an ELF32
# image linked with -nostdlib and newlib's memcpy/memset.  Thumb symbols
# have bit 0 set, literal pools sit between the functions' code, tail
# calls are b.w or 16-bit b.  Every total must equal ci_oracle.py over
# GCC's .ci files (tail calls found with arm-none-eabi-objdump), with
# calls from DWARF, from the code, and from both.
. tests/e2e/lib.sh

s=firmware
elf=samples/$s/$s
need_sample $s
expect_eq "firmware is ELF32 ARM" "$(readelf -h "$elf" | awk '/Class:/ { c = $2 } /Machine:/ { m = $2 } END { print c, m }')" "ELF32 ARM"
readelf -sW "$elf" | awk '$4 == "FUNC" && $8 == "main"' | grep -q '[13579bdf] ' ||
	fail "main's symbol has no Thumb bit: the sample does not test it"

for calls in both dwarf disasm; do
	run_sp --json --calls=$calls "$elf"
	expect_rc 0 "firmware --calls=$calls"
	cp "$OUT/stdout" "$OUT/$calls.json"
	if ! $ORACLE --objdump "$elf" --json "$OUT/$calls.json" "samples/$s" >"$OUT/$calls.oracle" 2>&1; then
		fail "firmware --calls=$calls: the oracle disagrees"
		sed 's/^/    /' "$OUT/$calls.oracle"
	fi
done

# the symbol (bit 0 masked) is the DWARF function's, not a second node
expect_eq "main's symbol" "$(jget "$OUT/both.json" 'fn("main")["symbol"]')" '"main"'
expect_eq "one function per .su row" \
	"$(jget "$OUT/both.json" 'len([f for f in j["functions"] if f["frame_source"] == "su"])')" \
	"$(cat samples/$s/*.su | wc -l)"

# sample_logged: bl uart_put_u32, then b.w sensor_average: by hand from .su
self() { su_self "samples/$s/$1.su" "$2"; }
max() { [ "$1" -gt "$2" ] && echo "$1" || echo "$2"; }
want=$(max $(( $(self firmware sample_logged) + $(self uart uart_put_u32) )) "$(self firmware sensor_average)")
expect_eq "sample_logged: the tail call replaces its frame" \
	"$(jget "$OUT/dwarf.json" 'fn("sample_logged")["total"]')" "$want"
expect_eq "sample_logged's path marks the tail call" \
	"$(jget "$OUT/disasm.json" '[d["tail"] for d in fn("sample_logged")["path_detail"]]')" '[false, true]'
# GCC's .ci sums it: without the tail calls the oracle must disagree
$ORACLE --json "$OUT/both.json" "samples/$s" >"$OUT/no-tails.oracle" 2>&1 &&
	fail "the oracle agrees without the tail calls: sample_logged tests nothing"
grep -q 'differ: sample_logged' "$OUT/no-tails.oracle" ||
	fail "the oracle without tail calls should differ on sample_logged"

# Reset_Handler calls newlib's memcpy and memset, which have no .su rows:
# memset's frame comes from its CFI, 4 bytes per register its first push
# saves (by hand from arm-none-eabi-objdump)
push=$(arm-none-eabi-objdump -d "$elf" | awk '/^[0-9a-f]+ <memset>:/ { f = 1; next }
	f && /push/ { sub(/.*\{/, ""); sub(/\}.*/, ""); print 4 * split($0, r, ","); exit }')
[ -n "$push" ] || fail "memset saves no registers: its CFI frame is not tested"
expect_eq "memset's frame from CFI" \
	"$(jget "$OUT/both.json" '[fn("memset")["frame_source"], fn("memset")["self"]]')" "[\"cfi\", $push]"
# memcpy has no CFI: its frame is read from its code, the registers its
# pushes save, 4 bytes each (by hand from arm-none-eabi-objdump; newlib's
# Thumb-2 memcpy pushes none)
mpush=$(arm-none-eabi-objdump -d "$elf" | awk '/^[0-9a-f]+ <memcpy>:/ { f = 1; next }
	f && /^$/ { exit } f && /push/ { sub(/.*\{/, ""); sub(/\}.*/, ""); n += split($0, r, ",") }
	END { print 4 * n }')
"$SP" --json --entry memcpy "$elf" >"$OUT/memcpy.json"
check_json "$OUT/memcpy.json"
expect_eq "memcpy's frame from its code" \
	"$(jget "$OUT/memcpy.json" '[[f["frame_source"], f["self"]] for f in fns("memcpy") if f["symbol"]]')" \
	"[[\"code\", $mpush]]"
expect_eq "Reset_Handler complete" "$(jget "$OUT/both.json" 'fn("Reset_Handler")["partial"]')" false

# A function's file is its DW_AT_decl_file counted as its unit's line
# table counts: arm-none-eabi-gcc 12's DWARF 5 units have version 3
# tables (binutils' as), whose files start at 1.  No .su here, so the
# file and line are DWARF's alone.
mkdir -p "$OUT/files"
printf 'static __attribute__((noinline)) int hf(volatile int *p) { return *p + 1; }\n' \
	>"$OUT/files/h.h"
printf '#include "h.h"\nint g(int x);\nint g(int x) { return hf(&x) + 1; }\n' >"$OUT/files/m.c"
printf 'void _start(void) { g(3); for (;;); }\n' >>"$OUT/files/m.c"
if ! (cd "$OUT/files" && arm-none-eabi-gcc -g -O2 -mcpu=cortex-m3 -mthumb -nostdlib -o m.elf m.c); then
	fail "arm-none-eabi-gcc could not build the decl_file program"
else
	uv=$(readelf --debug-dump=info "$OUT/files/m.elf" | awk '/ Version:/ { print $2; exit }')
	lv=$(readelf --debug-dump=rawline "$OUT/files/m.elf" | awk '/DWARF Version:/ { print $3; exit }')
	if [ "$uv" = 5 ] && [ "$lv" -lt 5 ]; then
		"$SP" --json "$OUT/files/m.elf" >"$OUT/files.json"
		expect_eq "files numbered by the version $lv line table of a DWARF 5 unit" \
			"$(jget "$OUT/files.json" '[[f["name"], f["file"].split("/")[-1], f["line"]] for f in sorted(j["functions"], key=lambda f: f["name"])]')" \
			'[["_start", "m.c", 4], ["g", "m.c", 3], ["hf", "h.h", 1]]'
	else
		skip_part "this arm-none-eabi-gcc writes DWARF $uv units with version $lv line tables"
	fi
fi
finish
