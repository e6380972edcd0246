#!/bin/sh
# Modules of other architectures (clang --target, -ffunction-sections,
# ld.lld -r): each "bl 0" is named by its relocation - R_AARCH64_CALL26,
# R_ARM_CALL (ARM state), R_ARM_THM_CALL (Thumb-2, addend in the two
# halfwords) - and R_AARCH64_ABS64 / R_ARM_ABS32 place the DWARF.  Clang
# writes no .ci files, so the expected totals are summed by hand from its
# .su rows along the calls of tests/e2e/kmod/mod_[ab].c.
. tests/e2e/lib.sh

max() { [ "$1" -gt "$2" ] && echo "$1" || echo "$2"; }

# check TARGET RELOC CALLS...
check()
{
	dir=$OUT/$1
	mkdir -p "$dir"
	cp tests/e2e/kmod/mod_a.c tests/e2e/kmod/mod_b.c "$dir"/
	if ! (cd "$dir" &&
	      clang --target="$1" -O2 -g -fno-optimize-sibling-calls -fstack-usage \
		-ffunction-sections -c mod_a.c mod_b.c &&
	      ld.lld -r mod_a.o mod_b.o -o mod.ko); then
		fail "$1: cannot build the module"
		return
	fi
	[ "$(readelf -rW "$dir/mod.ko" | grep -c "$2")" -ge 5 ] ||
		fail "$1: mod.ko has too few $2 relocations"
	helper=$(su_self "$dir/mod_a.su" moda_helper)	# -> core_fill (external)
	deep=$(( $(su_self "$dir/mod_a.su" moda_deep) + helper ))	# -> moda_helper
	work=$(su_self "$dir/mod_b.su" modb_work)	# -> core_log (external)
	frob=$(( $(su_self "$dir/mod_a.su" __x64_sys_frob) + $(max "$deep" "$work") ))
	irq=$(( $(su_self "$dir/mod_a.su" frob_irq_handler) + helper ))
	shift 2
	for calls in "$@"; do
		run_sp --json --calls="$calls" "$dir/mod.ko"
		expect_rc 0 "$dir --calls=$calls"
		cp "$OUT/stdout" "$dir/$calls.json"
		expect_eq "$dir totals, --calls=$calls" "$(jget "$dir/$calls.json" \
			'[fn(n)["lower_bound"] for n in ("moda_helper", "moda_deep", "modb_work", "__x64_sys_frob", "frob_irq_handler")]')" \
			"[$helper, $deep, $work, $frob, $irq]"
		expect_eq "$dir partial (core functions unknown), --calls=$calls" \
			"$(jget "$dir/$calls.json" 'all(f["partial"] for f in j["functions"])')" true
		expect_eq "$dir worst path, --calls=$calls" \
			"$(jget "$dir/$calls.json" 'fn("__x64_sys_frob")["path"]')" \
			'["__x64_sys_frob", "moda_deep", "moda_helper", "core_fill"]'
	done
}

check aarch64-linux-gnu R_AARCH64_CALL26 both dwarf disasm
check armv7a-none-eabi R_ARM_CALL both dwarf disasm
# clang's Thumb DWARF has no call-site DIEs: the code is the only source
check thumbv7m-none-eabi R_ARM_THM_CALL both disasm
finish
