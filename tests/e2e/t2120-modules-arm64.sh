#!/bin/sh
# An arm64 module (clang --target=aarch64, -ffunction-sections, ld.lld -r):
# R_AARCH64_CALL26 names each callee of a "bl 0", R_AARCH64_ABS64 places
# the DWARF.  Clang writes no .ci files, so the expected totals are summed
# by hand from its .su rows along the calls of tests/e2e/kmod/mod_[ab].c.
. tests/e2e/lib.sh

mkdir -p "$OUT/a64"
cp tests/e2e/kmod/mod_a.c tests/e2e/kmod/mod_b.c "$OUT/a64"/
(
	cd "$OUT/a64" &&
	clang --target=aarch64-linux-gnu -O2 -g -fno-optimize-sibling-calls \
		-fstack-usage -ffunction-sections -c mod_a.c mod_b.c &&
	ld.lld -r mod_a.o mod_b.o -o mod.ko
) || { fail "cannot build the arm64 module"; finish; exit; }
[ "$(readelf -rW "$OUT/a64/mod.ko" | grep -c R_AARCH64_CALL26)" -ge 5 ] ||
	fail "mod.ko has too few R_AARCH64_CALL26 relocations"

self() { su_self "$OUT/a64/$1.su" "$2"; }
max() { [ "$1" -gt "$2" ] && echo "$1" || echo "$2"; }
helper=$(self mod_a moda_helper)	# -> core_fill (external)
deep=$(( $(self mod_a moda_deep) + helper ))	# -> core_fill, moda_helper
work=$(self mod_b modb_work)		# -> core_log (external)
frob=$(( $(self mod_a __x64_sys_frob) + $(max "$deep" "$work") ))
irq=$(( $(self mod_a frob_irq_handler) + helper ))	# -> moda_helper, core_log

for calls in both dwarf disasm; do
	run_sp --json --calls=$calls "$OUT/a64/mod.ko"
	expect_rc 0 "arm64 --calls=$calls"
	cp "$OUT/stdout" "$OUT/$calls.json"
	got=$(jget "$OUT/$calls.json" \
		'[fn(n)["lower_bound"] for n in ("moda_helper", "moda_deep", "modb_work", "__x64_sys_frob", "frob_irq_handler")]')
	expect_eq "arm64 totals, --calls=$calls" "$got" "[$helper, $deep, $work, $frob, $irq]"
	expect_eq "arm64 partial (core functions unknown), --calls=$calls" \
		"$(jget "$OUT/$calls.json" 'all(f["partial"] for f in j["functions"])')" true
done
expect_eq "arm64 worst path" "$(jget "$OUT/disasm.json" 'fn("__x64_sys_frob")["path"]')" \
	'["__x64_sys_frob", "moda_deep", "moda_helper", "core_fill"]'
finish
