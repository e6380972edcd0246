#!/bin/sh
# ORC frames from a table written by hand (tests/e2e/orc/hand.S), linked
# into a program and as a relocatable object (a module's words carry
# PC32 relocations, its table out of address order): each frame must be
# what the function's code pushes, added up here from the assembly text,
# marked "orc", ahead of the CFI (h_irqsave's CFI misses its pushf as a
# paravirt irq-save site's does, so -v counts one CFI frame smaller).
# A frame-pointer function gets no ORC frame.  Then broken tables: each
# is one warning line naming the file and the fault, exit 0, and no
# frame taken from that table (the CFI's, or unknown); a symbol running
# whose code goes on past its range gets no ORC frame.
. tests/e2e/lib.sh
[ "$(uname -m)" = x86_64 ] || skip "x86-64 only"
src=tests/e2e/orc
mkdir -p "$OUT/b"
cp $src/hand.S $src/hand_main.c "$OUT/b/"
(cd "$OUT/b" && gcc -g -c hand.S && gcc -O2 -g -fstack-usage -c hand_main.c &&
	gcc -o hand hand_main.o hand.o) || { fail "cannot build $src/hand.S"; finish; exit; }
bin=$OUT/b/hand obj=$OUT/b/hand.o

# by hand from hand.S: FUNC FRAME, from the pushes and subs up to the ret
awk '
/^h_[a-z]+:$/ { f = substr($1, 1, length($1) - 1); frame[f] = 8; on = 1; n[++k] = f; next }
on && ($1 == "push" || $1 == "pushf") { frame[f] += 8 }
on && $1 == "sub" && $3 == "%rsp" { v = $2; gsub(/[$,]/, "", v); frame[f] += v }
on && $1 == "ret" { on = 0 }
END { for (i = 1; i <= k; i++) print n[i], frame[n[i]] }
' $src/hand.S >"$OUT/hand"
expect_eq "hand.S by hand" "$(tr '\n' ';' <"$OUT/hand")" \
	"h_other 88;h_leaf 8;h_inherit 48;h_sls 32;h_irqsave 40;h_fp 80;"
hand() { awk -v f="$1" '$1 == f { print $2 }' "$OUT/hand"; }

# check_frames DESC REPORT: the ORC frames of the report
check_frames()
{
	for f in h_other h_leaf h_inherit h_sls h_irqsave; do
		expect_eq "$1: $f from ORC = what its code pushes" \
			"$(jget "$2" "[fn('$f')['frame_source'], fn('$f')['qualifier'], fn('$f')['self']]")" \
			"[\"orc\", \"static\", $(hand $f)]"
	done
	expect_eq "$1: h_fp on a frame pointer: no ORC frame, its code's" \
		"$(jget "$2" "[fn('h_fp')['frame_source'], fn('h_fp')['self']]")" \
		"[\"code\", $(hand h_fp)]"
}

run_sp -v --json $bin
expect_rc 0 "stackprof --json hand"
cp "$OUT/stdout" "$OUT/hand.json"
check_frames "linked" "$OUT/hand.json"
expect_eq "h_sls: path through h_inherit" "$(jget "$OUT/hand.json" 'fn("h_sls")["path"]')" \
	'["h_sls", "h_inherit", "h_leaf"]'
expect_eq "h_sls: total (unbounded: the jmp *hook)" \
	"$(jget "$OUT/hand.json" 'fn("h_sls")["lower_bound"]')" \
	$(( $(hand h_sls) + $(hand h_inherit) + $(hand h_leaf) ))
# ORC before CFI: every frame but h_irqsave's the same in both
grep -q '^stackprof: ORC: 5 frames where \.su has none (1 more functions not on the stack pointer), 0 of 0 \.su frames and 4 of 5 CFI frames agree with it (1 CFI frames smaller)$' \
	"$OUT/stderr" || fail "-v: ORC line: $(grep ORC "$OUT/stderr")"

run_sp --json $obj
expect_rc 0 "stackprof --json hand.o"
check_frames "relocatable" "$OUT/stdout"

run_sp $bin
grep -Eq '^ +88 +88 +static \(orc\) +h_other ' "$OUT/stdout" ||
	fail "text: no 'static (orc)' row for h_other"
grep -q 'h_inherit .*\[orc\]' "$OUT/stdout" || fail "text: no [orc] mark on a path"

# ---- broken tables ----

# orc_broken DESC FILE PATTERN [CFI]: one warning line, the rest as if
# there were no ORC: h_irqsave's frame from the CFI (CFI given: the
# linked program), without the pushf, or from its code (the object,
# whose .eh_frame is not used), with it
orc_broken()
{
	run_sp --json "$2"
	expect_rc 0 "$1"
	if [ "$(wc -l <"$OUT/stderr")" -ne 1 ]; then
		fail "$1: want one line on stderr, got:"
		sed 's/^/    /' "$OUT/stderr" | head -5
	elif ! grep -Eq "^stackprof: warning: '$2': $3.*: no frames taken from ORC$" "$OUT/stderr"; then
		fail "$1: stderr '$(cat "$OUT/stderr")' does not match '$3'"
	fi
	expect_eq "$1: no ORC frame" \
		"$(jget "$OUT/stdout" 'sum(f["frame_source"] == "orc" for f in j["functions"])')" 0
	if [ -n "${4:-}" ]; then
		expect_eq "$1: h_irqsave from the CFI, without the pushf" \
			"$(jget "$OUT/stdout" "[fn('h_irqsave')['frame_source'], fn('h_irqsave')['self']]")" \
			"[\"cfi\", $(( $(hand h_irqsave) - 8 ))]"
	else
		expect_eq "$1: h_irqsave from its code" \
			"$(jget "$OUT/stdout" "[fn('h_irqsave')['frame_source'], fn('h_irqsave')['self']]")" \
			"[\"code\", $(hand h_irqsave)]"
	fi
}

for f in $bin $obj; do
	b=$OUT/$(basename "$f")
	[ "$f" = $bin ] && cfi=yes || cfi=
	patch_elf_file $f "$b.short" 'setq(sec(".orc_unwind") + 32, size(".orc_unwind") - 6)'
	orc_broken "$f: .orc_unwind one entry short" "$b.short" \
		"\.orc_unwind_ip has [0-9]+ entries but \.orc_unwind has [0-9]+" $cfi
	patch_elf_file $f "$b.odd" 'setq(sec(".orc_unwind") + 32, size(".orc_unwind") + 1)'
	orc_broken "$f: .orc_unwind of 6n+1 bytes" "$b.odd" \
		"\.orc_unwind section of [0-9]+ bytes: not a whole number of 6-byte entries" $cfi
	patch_elf_file $f "$b.ipodd" 'setq(sec(".orc_unwind_ip") + 32, size(".orc_unwind_ip") - 2)'
	orc_broken "$f: .orc_unwind_ip of 4n-2 bytes" "$b.ipodd" \
		"\.orc_unwind_ip section of [0-9]+ bytes: not a whole number of 4-byte" $cfi
	patch_elf_file $f "$b.trunc" 'setq(sec(".orc_unwind") + 24, len(d) - 4)'
	orc_broken "$f: .orc_unwind past the end of the file" "$b.trunc" \
		"truncated or unreadable \.orc_unwind section" $cfi
	patch_elf_file $f "$b.flags" 'd[off(".orc_unwind") + 5] |= 0x08'
	orc_broken "$f: an entry with Linux 6.3's 'end' bit" "$b.flags" \
		"\.orc_unwind entry 0: flags 0x8[0-9a-f]{2} are not those of Linux 4\.14 to 6\.2" $cfi
	patch_elf_file $f "$b.alone" 'struct.pack_into("<I", d, sec(".orc_unwind"), struct.unpack_from("<I", d, sec(".orc_unwind"))[0] + 1)'
	orc_broken "$f: .orc_unwind_ip alone" "$b.alone" \
		"\.orc_unwind_ip section without \.orc_unwind" $cfi
	printf '01234567890123456789' >"$OUT/hash"
	if objcopy --add-section .orc_header="$OUT/hash" --set-section-flags .orc_header=alloc,readonly \
		$f "$b.header" 2>"$OUT/objcopy.err"; then
		orc_broken "$f: .orc_header (Linux 6.4's format)" "$b.header" \
			"the ORC format of Linux 6\.4 and later \(\.orc_header\) is not supported" $cfi
	else
		fail "objcopy --add-section: $(cat "$OUT/objcopy.err")"
	fi
done

# a linked program's word pointing past the code
patch_elf_file $bin "$OUT/far" 'struct.pack_into("<i", d, off(".orc_unwind_ip") + 4, 0x10000000)'
orc_broken "a word pointing outside the code" "$OUT/far" \
	"\.orc_unwind_ip entry 1 points to 0x[0-9a-f]+, outside the code" yes
# a module's words: one relocation missing, one of another type
patch_elf_file $obj "$OUT/norel.o" 'setq(sec(".rela.orc_unwind_ip") + 32, size(".rela.orc_unwind_ip") - 24)'
orc_broken "the last word without its relocation" "$OUT/norel.o" \
	"\.orc_unwind_ip entry [0-9]+ has no relocation"
patch_elf_file $obj "$OUT/abs.o" 'struct.pack_into("<I", d, off(".rela.orc_unwind_ip") + 8, 1)'
orc_broken "a word relocated R_X86_64_64" "$OUT/abs.o" \
	"\.rela\.orc_unwind_ip: relocation 0 is not one PC32 per entry"

# h_other's symbol and DWARF range (.size) cut after its first push, or
# running 1 MB past its section: the rest of its code is not in its
# range, so no ORC frame (a warning says so); the others keep theirs
for v in short:2 long:0x100000; do
	sed "s/^\t\.size\th_other, \.-h_other/\t.size\th_other, ${v#*:}/" $src/hand.S >"$OUT/b/${v%:*}.S"
	(cd "$OUT/b" && gcc -g -c ${v%:*}.S && gcc -o ${v%:*} hand_main.o ${v%:*}.o) ||
		{ fail "cannot build ${v%:*}.S"; continue; }
	for f in "$OUT/b/${v%:*}" "$OUT/b/${v%:*}.o"; do
		run_sp --json "$f"
		expect_rc 0 "$f: h_other's range ends before its code"
		expect_eq "$f: stderr" "$(cat "$OUT/stderr")" "stackprof: warning: '$f': the code of 1 function goes on past its end (first h_other): no ORC frame for it"
		expect_eq "$f: h_other: no ORC frame" \
			"$(jget "$OUT/stdout" "fn('h_other')['frame_source'] != 'orc'")" true
		expect_eq "$f: h_inherit keeps its ORC frame" \
			"$(jget "$OUT/stdout" "[fn('h_inherit')['frame_source'], fn('h_inherit')['self']]")" \
			"[\"orc\", $(hand h_inherit)]"
	done
done
finish
