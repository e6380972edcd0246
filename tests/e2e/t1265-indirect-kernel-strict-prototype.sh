#!/bin/sh
# --indirect=types: in a kernel, a call that falls back to its prototype
# reaches the address-taken functions of that prototype, not of its
# class (kexport/strict.c: C's type checks and kCFI keep a callback of
# another prototype out of the pointer); a program keeps the class,
# which a cast reaches.  An enum and the int types C makes it agree in
# both: void (*)(unsigned int) reaches kind_cb(enum kind), which GCC
# converts without a cast (the class missed it before, no target at all).
# The program runs: its exit status, 43, says that job_run_a and kind_cb
# are the callbacks run_job and note_job call, which both images keep.
. tests/e2e/lib.sh
[ "$(uname -m)" = x86_64 ] || skip "the instruction pass is x86-64's"
command -v gcc >/dev/null || skip "no gcc"

cflags="-O2 -g -fno-pie -no-pie -nostdlib -static -Werror=incompatible-pointer-types"
gcc $cflags -o "$OUT/kernel" tests/e2e/kexport/strict.c || fail "gcc"
gcc $cflags -DNO_KSYMTAB -o "$OUT/program" tests/e2e/kexport/strict.c || fail "gcc"
[ "$(nm "$OUT/kernel" | grep -c ' __ksymtab_')" = 1 ] || fail "no __ksymtab_ symbol"
"$OUT/kernel"
expect_eq "the kernel's run (job_run_a, kind_cb)" "$?" 43
"$OUT/program"
expect_eq "the program's run" "$?" 43

# per site of strict.c: caller, how, type, targets
sites()
{
	jget "$1" "sorted([s['function'], s['resolved_by'], s['type'], sorted(s['targets'])] for s in j['indirect_calls'] if s['function'] in ('run_job', 'note_job'))"
}

run_sp --json --indirect=types -v "$OUT/kernel"
expect_rc 0 "the kernel"
expect_eq "the kernel's sites" "$(sites "$OUT/stdout")" \
	'[["note_job", "prototype", "void(unsigned int)", ["kind_cb"]], ["run_job", "prototype", "void(struct job*)", ["job_run_a", "job_run_b"]]]'
# the stand-in of the prototype, not of the class
expect_eq "run_job's stand-in" \
	"$(jget "$OUT/stdout" "sorted(f['name'] for f in j['all_functions'] if f['name'].startswith('<prototype'))")" \
	'["<prototype void(int)>", "<prototype void(struct job*)>"]'
grep -q "^stackprof: indirect calls: mean targets per site: .*, prototype 1.5, " "$OUT/stderr" ||
	fail "-v: the kernel's prototype mean is not 1.5"

run_sp --json --indirect=types -v "$OUT/program"
expect_rc 0 "the program"
expect_eq "the program's sites" "$(sites "$OUT/stdout")" \
	'[["note_job", "prototype", "void(unsigned int)", ["kind_cb"]], ["run_job", "prototype", "void(struct job*)", ["job_run_a", "job_run_b", "other_cb", "void_cb"]]]'
grep -q "^stackprof: indirect calls: mean targets per site: .*, prototype 2.5, " "$OUT/stderr" ||
	fail "-v: the program's prototype mean is not 2.5"
finish
