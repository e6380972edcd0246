#!/bin/sh
# Relocatable modules: .o files built with -ffunction-sections, two of them
# merged by ld -r into a .ko-like object, a second module calling into the
# first, and an executable "kernel" both call by name.  Every total must
# agree with ci_oracle.py over GCC's own .ci files of the same sources.
. tests/e2e/lib.sh

sh tests/e2e/kmod/build.sh "$OUT" || { fail "cannot build the modules"; finish; exit; }

# the sections really overlap: several code sections, all at address 0
ntext=$(readelf -SW "$OUT/mod.ko" | grep -c ' \.text\.[a-z_]')
[ "$ntext" -ge 5 ] || fail "mod.ko has $ntext .text.* sections, want 5"

oracle_check()	# DESC REPORT CI|DIR...
{
	_d=$1 _r=$2
	shift 2
	if ! $ORACLE --json "$_r" "$@" >"$OUT/oracle.out" 2>&1; then
		fail "$_d: the oracle disagrees"
		sed 's/^/    /' "$OUT/oracle.out"
	fi
}

# one module alone: calls into the core are external (partial)
for calls in both dwarf disasm; do
	run_sp --json --calls=$calls "$OUT/mod.ko"
	expect_rc 0 "mod.ko --calls=$calls"
	cp "$OUT/stdout" "$OUT/mod-$calls.json"
	oracle_check "mod.ko --calls=$calls" "$OUT/mod-$calls.json" \
		"$OUT/mod_a.ci" "$OUT/mod_b.ci"
done
expect_eq "moda_deep calls the core's core_fill (undefined in mod.ko)" \
	"$(jget "$OUT/mod-disasm.json" 'fn("moda_deep")["path"]')" \
	'["moda_deep", "moda_helper", "core_fill"]'

# core + both modules: module -> module -> core paths are followed
for calls in both dwarf disasm; do
	run_sp --json --calls=$calls "$OUT/kernel" "$OUT/mod.ko" "$OUT/other.ko"
	expect_rc 0 "core mod.ko other.ko --calls=$calls"
	cp "$OUT/stdout" "$OUT/all-$calls.json"
	oracle_check "core + modules --calls=$calls" "$OUT/all-$calls.json" "$OUT"
done
# by hand from the sources: other -> modb_work (mod.ko) -> core_log -> core_fill
expect_eq "path across three ELF files" \
	"$(jget "$OUT/all-both.json" 'fn("__x64_sys_other")["path"]')" \
	'["__x64_sys_other", "modb_work", "core_log", "core_fill"]'
expect_eq "report is named after the first ELF" \
	"$(jget "$OUT/all-both.json" 'j["binary"]')" "\"$OUT/kernel\""
expect_eq ".su files of every input" \
	"$(jget "$OUT/all-both.json" 'j["su"]["files"]')" 4

# order does not matter, and a .su file among the ELF files is still a .su file
run_sp --json "$OUT/other.ko" "$OUT/kernel" "$OUT/mod.ko" "$OUT/kernel.su" \
	"$OUT/mod_a.su" "$OUT/mod_b.su" "$OUT/other.su"
expect_rc 0 "modules first, .su files named"
expect_eq "modules first: same worst path" \
	"$(jget "$OUT/stdout" 'fn("__x64_sys_other")["path"]')" \
	'["__x64_sys_other", "modb_work", "core_log", "core_fill"]'

# a module named twice (overlapping globs) is loaded once
run_sp --json "$OUT/kernel" "$OUT/mod.ko" "$OUT/other.ko" "$OUT/mod.ko"
expect_rc 0 "mod.ko named twice"
expect_eq "mod.ko named twice: one modb_work" \
	"$(jget "$OUT/stdout" 'len(fns("modb_work"))')" 1

run_sp -v "$OUT/kernel" "$OUT/mod.ko" "$OUT/other.ko"
grep -q "3 ELF inputs, [1-9][0-9]* calls linked by name" "$OUT/stderr" ||
	fail "-v does not count the calls linked by name"

# i386 objects carry REL relocations (addends in the bytes): DWARF and
# branches alike.  The sources include no header, so no multilib is needed.
if [ "$(uname -m)" = x86_64 ]; then
	mkdir -p "$OUT/m32"
	(
		cd "$OUT/m32" && cp ../mod_a.c ../mod_b.c . &&
		gcc -m32 -O2 -g -fno-optimize-sibling-calls -fstack-usage \
			-fcallgraph-info=su,da -ffunction-sections -c mod_a.c mod_b.c &&
		ld -m elf_i386 -r mod_a.o mod_b.o -o mod.ko
	) || fail "cannot build the i386 module"
	for calls in both dwarf disasm; do
		run_sp --json --calls=$calls "$OUT/m32/mod.ko"
		expect_rc 0 "i386 mod.ko --calls=$calls"
		cp "$OUT/stdout" "$OUT/m32/$calls.json"
		oracle_check "i386 mod.ko --calls=$calls" "$OUT/m32/$calls.json" \
			"$OUT/m32/mod_a.ci" "$OUT/m32/mod_b.ci"
	done
else
	skip_part "the i386 module: needs an x86-64 gcc (-m32)"
fi

# modules built as the kernel's are with CONFIG_RETHUNK: every return is a
# "jmp __x86_return_thunk" through a relocation to an undefined symbol,
# which is a return, not a call to a function without a frame
mkdir -p "$OUT/rethunk"
KMOD_CFLAGS="-DRETHUNK -mfunction-return=thunk-extern" sh tests/e2e/kmod/build.sh "$OUT/rethunk" ||
	fail "cannot build the modules with return thunks"
[ "$(readelf -rW "$OUT/rethunk/mod.ko" | grep -c ' __x86_return_thunk')" -ge 4 ] ||
	fail "mod.ko has too few jumps to __x86_return_thunk"
run_sp --json "$OUT/rethunk/kernel" "$OUT/rethunk/mod.ko" "$OUT/rethunk/other.ko"
expect_rc 0 "core + modules with return thunks"
cp "$OUT/stdout" "$OUT/rethunk/all.json"
oracle_check "core + modules with return thunks" "$OUT/rethunk/all.json" "$OUT/rethunk"
expect_eq "a jump to the return thunk is no call" \
	"$(jget "$OUT/rethunk/all.json" '[f["name"] for f in j["functions"] if any("thunk" in r for r in f["reasons"])]')" '[]'

# a bad second input is bad input, named
head -c 100 "$OUT/mod.ko" >"$OUT/mod-bad.ko"
expect_bad "truncated module" "mod-bad.ko" "$OUT/kernel" "$OUT/mod-bad.ko"
finish
