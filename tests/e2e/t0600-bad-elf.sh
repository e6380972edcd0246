#!/bin/sh
# A bad ELF argument: exit 2, one line on stderr naming it, no report
# file, no crash.
. tests/e2e/lib.sh
need_sample chain
bin=samples/chain/chain

expect_bad "nonexistent ELF" "$OUT/nosuch" "$OUT/nosuch"

: >"$OUT/empty"
expect_bad "empty file" "$OUT/empty" "$OUT/empty"

expect_bad "text file" "tests/data/bad/not-elf.txt" tests/data/bad/not-elf.txt

for n in 16 64 100 2000 10000; do
	head -c $n $bin >"$OUT/trunc$n"
	expect_bad "ELF truncated to $n bytes" "$OUT/trunc$n" "$OUT/trunc$n" samples/chain
done

# the ELF header intact, its section header table beyond the end
size=$(wc -c <$bin)
head -c $((size - 64)) $bin >"$OUT/short"
expect_bad "ELF without its last 64 bytes" "$OUT/short" "$OUT/short" samples/chain

expect_bad "directory as ELF" "samples/chain" samples/chain

# built without -g: no DWARF to take the calls from (the .su are there)
mkdir -p "$OUT/nodwarf/chain"
cp samples/chain/*.c samples/chain/*.h "$OUT/nodwarf/chain/"
(
	cd "$OUT/nodwarf" &&
	gcc -O2 -fstack-usage -c chain/a.c -o chain/a.o &&
	gcc -O2 -fstack-usage -c chain/b.c -o chain/b.o &&
	gcc -O2 -o chain/chain chain/a.o chain/b.o
) || fail "cannot build the chain sample without -g"
expect_bad "ELF without DWARF" "$OUT/nodwarf/chain/chain.*([Dd][Ww][Aa][Rr][Ff]|debug)" \
	"$OUT/nodwarf/chain/chain" "$OUT/nodwarf/chain"

# an object of another kind: a relocatable .o is fine, a core-like ELF
# with no sections is not
printf '\177ELF\002\001\001\000\000\000\000\000\000\000\000\000' >"$OUT/hdronly"
expect_bad "bare ELF identification" "$OUT/hdronly" "$OUT/hdronly"
finish
