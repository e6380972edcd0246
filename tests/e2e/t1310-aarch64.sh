#!/bin/sh
# An AArch64 linked executable (aarch64-linux-gnu-gcc -O2, dynamically
# linked against the arm64 cross libc; it need not run here): samples
# chain and tailcall.  Every total must equal ci_oracle.py over GCC's .ci
# files, tail calls (b, b.<cond>) found with aarch64-linux-gnu-objdump,
# with calls from DWARF, from the code and from both; the code's calls to
# printf go through the PLT (32-byte header, 16-byte stubs), which must
# name it: before, --calls=disasm dropped the call and main was complete.
# FDEs found one by one through .eh_frame_hdr give libdwarf's list's frames.
. tests/e2e/lib.sh

cc=aarch64-linux-gnu-gcc
command -v $cc >/dev/null || { echo "  $cc is missing (tools/install-deps)"; exit 1; }
b=$OUT/a64
for s in chain tailcall; do
	mkdir -p "$b/$s"
	for c in samples/$s/*.c; do
		o=$b/${c#samples/}
		(cd samples && $cc -O2 -g -fstack-usage -fcallgraph-info=su,da \
			-c "${c#samples/}" -o "../${o%.c}.o") || fail "$cc cannot compile $c"
	done
	$cc -O2 -g -o "$b/$s/$s" "$b/$s"/*.o || fail "$cc cannot link $s"
	elf=$b/$s/$s
	expect_eq "$s is ELF64 AArch64" \
		"$(readelf -h "$elf" | awk '/Class:/ { c = $2 } /Machine:/ { m = $2 } END { print c, m }')" \
		"ELF64 AArch64"
	for calls in both dwarf disasm; do
		run_sp --json --calls=$calls "$elf" "$b/$s"
		expect_rc 0 "$s --calls=$calls"
		cp "$OUT/stdout" "$OUT/$s.$calls.json"
		if ! $ORACLE --objdump "$elf" --json "$OUT/$s.$calls.json" "$b/$s" \
			>"$OUT/$s.$calls.oracle" 2>&1; then
			fail "aarch64 $s --calls=$calls: the oracle disagrees"
			sed 's/^/    /' "$OUT/$s.$calls.oracle"
		fi
	done
	expect_eq "$s: one function per .su row" \
		"$(jget "$OUT/$s.both.json" 'len([f for f in j["functions"] if f["frame_source"] == "su"])')" \
		"$(cat "$b/$s"/*.su | wc -l)"
	# AArch64's .eh_frame_hdr: FDEs one by one as from libdwarf's list
	cfi_ways "aarch64 $s" "$elf"
done

# relay ends in "b big": the oracle must need objdump's tail calls
$ORACLE --json "$OUT/tailcall.both.json" "$b/tailcall" >"$OUT/no-tails.oracle" 2>&1 &&
	fail "the oracle agrees without the tail calls: tailcall tests nothing"
grep -q 'differ: relay' "$OUT/no-tails.oracle" ||
	fail "the oracle without tail calls should differ on relay"
aarch64-linux-gnu-objdump -d "$b/tailcall/tailcall" | grep -q 'b	[0-9a-f]* <big>' ||
	fail "no b to big in the AArch64 code: the tail call is not tested"
expect_eq "printf through the PLT" \
	"$(jget "$OUT/tailcall.disasm.json" '[fn("main")["partial"], "printf" in [c["name"] for c in fn("main")["calls"]]]')" \
	'[true, true]'
finish
