#!/bin/sh
# The clang sample: clang -O2 -g -fstack-usage, DWARF 5 (DW_AT_call_return_pc
# in DW_FORM_addrx, DW_AT_call_all_calls), a tail call that Clang places by
# DW_AT_call_pc, a call site inside an inlined subroutine, an indirect call
# and recursion.  Clang writes no .ci files, so the totals are summed by
# hand from its .su rows along the calls listed in samples/clang/main.c.
# Clang's x86-64 rows leave out the 8-byte return address that GCC's
# count: stackprof adds it, and so do the sums here.  A leaf's x86-64 red
# zone (bytes below %rsp, in no .su row) comes from objdump's code, read
# by ci_oracle.py's objdump_red_zones.
. tests/e2e/lib.sh

s=clang
elf=samples/$s/$s
need_sample $s
readelf --debug-dump=info "$elf" >"$OUT/info" 2>/dev/null
grep -q 'Version:.*5$' "$OUT/info" || fail "the clang sample is not DWARF 5"
grep -q 'DW_AT_call_pc' "$OUT/info" || fail "no DW_AT_call_pc: the tail call is not tested"
grep -q 'DW_AT_producer.*clang' "$OUT/info" || fail "the clang sample was not built by clang"

# red NAME [min|max]: a leaf's red zone from the code; of the two mix,
# main.c's calls fill (none) and util.c's is a leaf
red()
{
	python3 -c 'import sys; sys.path.insert(0, "tests/e2e"); import ci_oracle
r = ci_oracle.objdump_red_zones(sys.argv[1]).get(sys.argv[2], [0])
print(min(r) if sys.argv[3] == "min" else max(r))' "$elf" "$1" "${2:-max}"
}
# self FILE NAME [min|max]: the .su row plus the return address and red zone
self() { echo $(( $(su_self "samples/$s/$1.su" "$2") + 8 + $(red "$2" "${3:-max}") )); }
[ "$(red fill)" -gt 0 ] || fail "fill keeps nothing in the red zone: the red zone is not tested"
max() { [ "$1" -gt "$2" ] && echo "$1" || echo "$2"; }
fill=$(self util fill)
mix_main=$(( $(self main mix min) + fill ))		# main.c's mix -> fill
checksum=$(max "$(self main checksum)" "$mix_main")	# tail call to mix
mix_util=$(self util mix)
dispatch=$(( $(self util dispatch) + $(max "$fill" "$mix_util") ))	# + indirect
countdown=$(self util countdown)			# recursion: one frame known
main=$(( $(self main main) + $(max "$(max "$fill" "$checksum")" "$(max "$dispatch" "$countdown")") ))

for calls in both dwarf disasm; do
	run_sp --json --calls=$calls "$elf"
	expect_rc 0 "clang --calls=$calls"
	cp "$OUT/stdout" "$OUT/$calls.json"
	expect_eq "clang rows matched, --calls=$calls" \
		"$(jget "$OUT/$calls.json" '[j["su"]["rows"], j["su"]["matched"]]')" \
		"[$(cat samples/$s/*.su | wc -l), $(cat samples/$s/*.su | wc -l)]"
	expect_eq "clang bounded totals, --calls=$calls" \
		"$(jget "$OUT/$calls.json" '[fn("fill")["total"], fn("mix", "main.c")["total"], fn("checksum")["total"], fn("mix", "util.c")["total"]]')" \
		"[$fill, $mix_main, $checksum, $mix_util]"
	expect_eq "clang unbounded lower bounds, --calls=$calls" \
		"$(jget "$OUT/$calls.json" '[fn(n)["lower_bound"] for n in ("dispatch", "countdown", "main")]')" \
		"[$dispatch, $countdown, $main]"
	expect_eq "clang reasons, --calls=$calls" \
		"$(jget "$OUT/$calls.json" '[fn("dispatch")["bounded"], fn("countdown")["recursive"], any("indirect" in r for r in fn("main")["reasons"]), any("recursion" in r for r in fn("main")["reasons"])]')" \
		"[false, true, true, true]"
done
expect_eq "checksum's worst path: the tail call" \
	"$(jget "$OUT/dwarf.json" '[(d["name"], d["tail"]) for d in fn("checksum")["path_detail"]]')" \
	'[["checksum", false], ["mix", true], ["fill", false]]'
# dispatch calls fill only from the inlined prepare
expect_eq "dispatch calls fill (a call site in an inlined subroutine)" \
	"$(jget "$OUT/dwarf.json" 'fn("dispatch")["path"]')" '["dispatch", "fill"]'
finish
