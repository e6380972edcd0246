#!/bin/sh
# A directory as input: `stackprof kernel DIR/` loads the kernel modules
# (*.ko, *.ko.debug) found under DIR, in path order, as more images, and
# reads its .su files, as /usr/lib/debug/lib/modules/VERSION/ is given.
# Objects (.o), other programs, a link to the kernel and a file named .ko
# that is no ELF are left alone; a module reached twice loads once.
# Totals are checked against ci_oracle.py over GCC's .ci files, and the
# report against naming the same files one by one.
. tests/e2e/lib.sh

sh tests/e2e/kmod/build.sh "$OUT" || { fail "cannot build the modules"; finish; exit; }

tree=$OUT/tree
mkdir -p "$tree/kernel/drivers/a" "$tree/kernel/drivers/b" "$tree/kernel/drivers/c" \
	"$tree/debug/lib"
cp "$OUT/mod.ko" "$tree/kernel/drivers/a/mod.ko"
cp "$OUT/other.ko" "$tree/kernel/drivers/b/other.ko"
cp "$OUT"/kernel.su "$OUT"/mod_a.su "$OUT"/mod_b.su "$OUT"/other.su "$tree/"
# what a module tree or a build tree also holds, none of it a module to load
cp "$OUT/mod_a.o" "$tree/kernel/drivers/a/"
cp "$OUT/kernel" "$tree/debug/lib/tool"
ln -s ../../../kernel "$tree/vmlinux"
ln -s ../a/mod.ko "$tree/kernel/drivers/c/same.ko"
echo "not an ELF file" >"$tree/kernel/drivers/c/text.ko"

run_sp -v --json "$OUT/kernel" "$tree/"
expect_rc 0 "kernel DIR/"
cp "$OUT/stdout" "$OUT/dir.json"
grep -q "^stackprof: 3 ELF inputs, [1-9][0-9]* calls linked by name" "$OUT/stderr" ||
	fail "kernel DIR/: not 3 ELF inputs: $(grep 'ELF inputs' "$OUT/stderr")"
if ! $ORACLE --json "$OUT/dir.json" "$OUT" >"$OUT/oracle.out" 2>&1; then
	fail "kernel DIR/: the oracle disagrees"
	sed 's/^/    /' "$OUT/oracle.out"
fi
# by hand from the sources: other -> modb_work (mod.ko) -> core_log -> core_fill
expect_eq "path across three ELF files" \
	"$(jget "$OUT/dir.json" 'fn("__x64_sys_other")["path"]')" \
	'["__x64_sys_other", "modb_work", "core_log", "core_fill"]'
expect_eq "one modb_work (same.ko is mod.ko)" "$(jget "$OUT/dir.json" 'len(fns("modb_work"))')" 1
expect_eq "the .su files in DIR" "$(jget "$OUT/dir.json" 'j["su"]["files"]')" 4
expect_eq "no function of the other program" "$(jget "$OUT/dir.json" 'len(fns("main"))')" 1

# the same as naming the modules and .su files one by one
run_sp --json "$OUT/kernel" "$tree/kernel/drivers/a/mod.ko" "$tree/kernel/drivers/b/other.ko" \
	"$tree/kernel.su" "$tree/mod_a.su" "$tree/mod_b.su" "$tree/other.su"
expect_rc 0 "kernel + files"
cmp -s "$OUT/stdout" "$OUT/dir.json" || fail "kernel DIR/ differs from naming its files"

# without the slash, and with a module of it named as well: the same
run_sp --json "$OUT/kernel" "$tree" "$tree/kernel/drivers/a/mod.ko"
expect_rc 0 "kernel DIR mod.ko"
cmp -s "$OUT/stdout" "$OUT/dir.json" || fail "kernel DIR mod.ko differs from kernel DIR/"

# debuginfo packages name a module x.ko.debug
mv "$tree/kernel/drivers/b/other.ko" "$tree/kernel/drivers/b/other.ko.debug"
run_sp --json "$OUT/kernel" "$tree/"
expect_eq "x.ko.debug is a module" \
	"$(jget "$OUT/stdout" 'fn("__x64_sys_other")["path"]')" \
	'["__x64_sys_other", "modb_work", "core_log", "core_fill"]'

# a directory of .su files and objects only (a build tree) loads no image
need_sample chain
run_sp -v --json samples/chain/chain samples/chain/
expect_rc 0 "chain samples/chain/"
grep -q "ELF inputs" "$OUT/stderr" && fail "samples/chain/ loaded more ELF files"
expect_eq "chain: its two .su files" "$(jget "$OUT/stdout" 'j["su"]["files"]')" 2

# an unreadable directory is bad input, named
mkdir -p "$OUT/locked/sub"
chmod 000 "$OUT/locked/sub"
if [ -r "$OUT/locked/sub" ]; then
	skip_part "an unreadable directory: running as a user who reads anything"
else
	expect_bad "unreadable directory" "locked/sub" "$OUT/kernel" "$OUT/locked"
fi
chmod 700 "$OUT/locked/sub"
finish
