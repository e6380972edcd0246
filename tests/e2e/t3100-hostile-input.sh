#!/bin/sh
# Hostile and broken input (the table of doc/robustness.md): each is exit
# 2, one line naming the file (and line), nothing on stdout, no report
# file left.  The rows t0600, t0610 and t0500 already cover are
# not repeated here.
. tests/e2e/lib.sh
need_sample chain
bin=samples/chain/chain

# patch_elf OUT EXPR: a copy of the chain sample patched (lib.sh)
patch_elf()
{
	patch_elf_file "$bin" "$@"
}

# --- ELF ---
size=$(wc -c <$bin)
head -c $((size - 64)) $bin >"$OUT/short"
expect_bad "ELF without its last section header" \
	"'$OUT/short': truncated ELF: its section header table lies beyond" "$OUT/short"
patch_elf "$OUT/info40" 'struct.pack_into("<Q", d, sec(".debug_info") + 32, 40)' ||
	fail "cannot patch .debug_info"
expect_bad ".debug_info truncated to 40 bytes" "'$OUT/info40'" "$OUT/info40" samples/chain
patch_elf "$OUT/infofar" 'struct.pack_into("<Q", d, sec(".debug_info") + 24, len(d) + 100)'
expect_bad ".debug_info beyond the end of the file" "'$OUT/infofar'" "$OUT/infofar" samples/chain
patch_elf "$OUT/riscv" 'struct.pack_into("<H", d, 18, 243)'
expect_bad "ELF for RISC-V (no decoder)" "'$OUT/riscv': unsupported machine" "$OUT/riscv" samples/chain
run_sp --calls=dwarf "$OUT/riscv" samples/chain
expect_rc 0 "ELF for RISC-V with --calls=dwarf"
patch_elf "$OUT/msb" 'd[5] = 2'
expect_bad "ELF header saying big-endian" "'$OUT/msb'" "$OUT/msb" samples/chain

# --- .su ---
big=$OUT/b-huge.su
sed 's/level4\t[0-9]*/level4\t18446744073709551615/' samples/chain/b.su >"$big"
run_sp --json $bin samples/chain/a.su "$big"
expect_rc 0 "a 2^64-1 byte frame"
expect_eq "2^64-1 frame: main saturated" "$(jget "$OUT/stdout" 'fn("main")["total"]')" \
	18446744073709551615
expect_eq "2^64-1 frame: the reason names level4" \
	"$(jget "$OUT/stdout" 'any("overflows 64 bits at level4" in r for r in fn("main")["reasons"])')" true
expect_eq "2^64-1 frame: side unaffected" "$(jget "$OUT/stdout" 'fn("side")["reasons"]')" '[]'
run_sp --budget 1G $bin samples/chain/a.su "$big"
expect_rc 1 "a 2^64-1 byte frame against --budget 1G"

printf 'chain/a.c:13:5:level1\t-0\tstatic\n' >"$OUT/neg0.su"
expect_bad "size -0" "$OUT/neg0\.su:1: malformed" $bin "$OUT/neg0.su"
printf 'chain/a.c:13:5:level1\t000000000000000000000080\tstatic\n' >"$OUT/zeros.su"
expect_bad "size of 24 digits" "$OUT/zeros\.su:1: malformed" $bin "$OUT/zeros.su"
printf 'chain/a.c:13:5:level1\t80\tstatic\nchain/a.c:21:5:lev\000el3\t48\tstatic\n' >"$OUT/nul.su"
expect_bad "NUL byte in a name" "$OUT/nul\.su:2: malformed" $bin "$OUT/nul.su"
printf 'chain/a.c:13:5:level1\t8\0000\tstatic\n' >"$OUT/nul2.su"
expect_bad "NUL byte in a size" "$OUT/nul2\.su:1: malformed" $bin "$OUT/nul2.su"

# a 100 MB line, then the 100 MB size field of a real row
{ head -c 100000000 /dev/zero | tr '\0' a; echo; } >"$OUT/long.su"
expect_bad "100 MB line" "$OUT/long\.su:1: malformed" $bin "$OUT/long.su"
{ printf 'chain/a.c:13:5:level1\t'; head -c 100000000 /dev/zero | tr '\0' 9
  printf '\tstatic\n'; } >"$OUT/long.su"
expect_bad "100 MB size field" "$OUT/long\.su:1: malformed" $bin "$OUT/long.su"
rm -f "$OUT/long.su"

# --- unreadable inputs: as root chmod does not stop a read, so run as
# nobody (setpriv) then, or skip saying so ---
unreadable()
{
	mkdir -p "$OUT/locked/dir"
	cp $bin "$OUT/locked/elf"
	cp samples/chain/a.su "$OUT/locked/a.su"
	cp samples/chain/a.su "$OUT/locked/dir/a.su"
	chmod 000 "$OUT/locked/elf" "$OUT/locked/a.su" "$OUT/locked/dir"
	expect_bad "unreadable ELF" "'$OUT/locked/elf': Permission denied" "$OUT/locked/elf"
	expect_bad "unreadable .su" "'$OUT/locked/a\.su': Permission denied" $bin "$OUT/locked/a.su"
	expect_bad "unreadable .su directory" "'$OUT/locked/dir': Permission denied" \
		$bin "$OUT/locked/dir"
	mkdir -p "$OUT/ro"
	chmod 555 "$OUT/ro"
	run_sp -o "$OUT/ro/r.txt" $bin
	expect_rc 2 "-o into a read-only directory"
	grep -q "^stackprof: cannot write '$OUT/ro/r.txt': Permission denied\$" "$OUT/stderr" ||
		fail "-o into a read-only directory: '$(cat "$OUT/stderr")'"
	[ -z "$(ls "$OUT/ro")" ] || fail "-o into a read-only directory: left $(ls "$OUT/ro")"
	chmod 755 "$OUT/locked/elf" "$OUT/locked/a.su" "$OUT/locked/dir" "$OUT/ro"
}
if [ "$(id -u)" -ne 0 ]; then
	unreadable
elif command -v setpriv >/dev/null &&
     setpriv --reuid=65534 --regid=65534 --clear-groups "$SP" --help >/dev/null 2>&1; then
	printf '#!/bin/sh\nexec setpriv --reuid=65534 --regid=65534 --clear-groups "%s" "$@"\n' \
		"$SP" >"$OUT/as-nobody"
	chmod +x "$OUT/as-nobody"
	real_sp=$SP SP=$OUT/as-nobody
	unreadable
	SP=$real_sp
else
	skip_part "unreadable files: running as root without setpriv"
fi

# --- outputs ---
mkdir -p "$OUT/outdir"
run_sp -o "$OUT/outdir" $bin
expect_rc 2 "-o a directory"
grep -q "^stackprof: cannot write '$OUT/outdir': Is a directory\$" "$OUT/stderr" ||
	fail "-o a directory: '$(cat "$OUT/stderr")'"
run_sp --svg "$OUT/outdir" -o "$OUT/r.txt" $bin
expect_rc 2 "--svg a directory"
[ -e "$OUT/r.txt" ] && fail "--svg a directory: left the -o file"
[ -z "$(ls "$OUT/outdir")" ] || fail "-o a directory: left $(ls "$OUT/outdir")"

if [ -c /dev/full ]; then
	run_sp -o /dev/full $bin
	expect_rc 2 "-o /dev/full"
	grep -q "^stackprof: cannot write '/dev/full': No space left on device\$" "$OUT/stderr" ||
		fail "-o /dev/full: '$(cat "$OUT/stderr")'"
	[ -c /dev/full ] || fail "-o /dev/full replaced the device"
	run_sp --json -o /dev/full --svg "$OUT/g.svg" $bin
	expect_rc 2 "-o /dev/full with --svg"
	[ -e "$OUT/g.svg" ] && fail "-o /dev/full: left the --svg file"
else
	skip_part "-o /dev/full: no /dev/full here"
fi
# through a symbolic link (/dev/stdout -> /proc/self/fd/1 onto a file):
# the file it names is written, the link stays a link
ln -s "$(pwd)/$OUT/linked.txt" "$OUT/link"
run_sp -o "$OUT/link" $bin
expect_rc 0 "-o a symbolic link"
[ -L "$OUT/link" ] || fail "-o a symbolic link: replaced the link"
grep -q '^Worst-case stack usage' "$OUT/linked.txt" || fail "-o a symbolic link: target not written"
if [ -c /dev/null ]; then
	run_sp -o /dev/null $bin
	expect_rc 0 "-o /dev/null"
	[ -c /dev/null ] || fail "-o /dev/null replaced the device"
else
	skip_part "-o /dev/null: no /dev/null here"
fi
run_sp -o /proc/stackprof-report.txt $bin
expect_rc 2 "-o into /proc"
ls "$OUT" | grep -q '\.tmp' && fail "a temporary file was left: $(ls "$OUT")"
finish
