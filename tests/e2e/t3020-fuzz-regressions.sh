#!/bin/sh
# Every input the fuzzers ever crashed on (tests/data/fuzz/elf, su; see
# make fuzz) is bad input now (exit 2, one line naming the file, no
# report file) or, when valid, gives a report; never a crash.  A .su
# input is read against the chain sample.
. tests/e2e/lib.sh
need_sample chain
n=0
for f in tests/data/fuzz/elf/*; do
	[ -f "$f" ] || continue
	# some are valid ELF that crashed a later stage: a report then
	run_sp -o "$OUT/report" "$f"
	case $rc in
	0) [ -s "$OUT/report" ] || fail "fuzz_elf regression $(basename "$f"): no report" ;;
	2) expect_bad "fuzz_elf regression $(basename "$f")" "'$f'" "$f" ;;
	*) fail "fuzz_elf regression $(basename "$f"): exit $rc" ;;
	esac
	n=$((n + 1))
done
for f in tests/data/fuzz/su/*; do
	[ -f "$f" ] || continue
	run_sp -o "$OUT/report" samples/chain/chain "$f"
	case $rc in
	0) ;;
	2) expect_bad "fuzz_su regression $(basename "$f")" "$f" samples/chain/chain "$f" ;;
	*) fail "fuzz_su regression $(basename "$f"): exit $rc" ;;
	esac
	n=$((n + 1))
done
[ $n -gt 0 ] || fail "no regression inputs in tests/data/fuzz"
finish
