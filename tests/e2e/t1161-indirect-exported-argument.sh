#!/bin/sh
# --indirect=types: a callback passed as an argument to a function a
# kernel exports to modules (kexport/args.c).  A module may call it
# with a callback of its own: besides what the kernel's callers pass,
# the site reaches what exported.c says a module can give, the
# functions the kernel exports of the parameter's prototype and the
# modules' code, a stand-in of unknown frame:
#
#   for_each_dev  exported: cb_local (start_kernel passes it), cb_big
#                 and cb_small (exported, int(struct dev *)), not
#                 cb_void (exported, another prototype), and <module
#                 code: the callers of for_each_dev>;
#   find_dev      exported, called by nothing in the kernel: cb_big,
#                 cb_small and its own stand-in;
#   walk          argument: not exported, its one caller passes cb_other;
#   job_run       exported: struct job.run, which job_init (exported)
#                 stores its argument in: cb_local (start_kernel passes
#                 it), cb_big, cb_small, and <module code: struct
#                 job.run>.
#
# A program (no ksymtab) sees every caller: for_each_dev by argument,
# find_dev (no caller) by its prototype (the address-taken cb_local and
# cb_other), job_run by field (cb_local).
. tests/e2e/lib.sh
[ "$(uname -m)" = x86_64 ] || skip "the instruction pass is x86-64's"
command -v gcc >/dev/null || skip "no gcc"

cflags="-O2 -g -fno-pie -no-pie -nostdlib -static"
gcc $cflags -o "$OUT/kernel" tests/e2e/kexport/args.c || fail "gcc"
gcc $cflags -DNO_KSYMTAB -o "$OUT/program" tests/e2e/kexport/args.c || fail "gcc"
[ "$(nm "$OUT/kernel" | grep -c ' __ksymtab_')" = 6 ] || fail "no __ksymtab_ symbols"

# per site: caller, how, type, targets
sites()
{
	jget "$1" "sorted([s['function'], s['resolved_by'], s['type'], sorted(s['targets'])] for s in j['indirect_calls'])"
}

run_sp --json --indirect=types -v "$OUT/kernel"
expect_rc 0 "the kernel"
j=$OUT/kernel.json
cp "$OUT/stdout" "$j"
check_json "$j"
expect_eq "the kernel's sites" "$(sites "$j")" \
	'[["find_dev", "exported", "int(struct dev*)", ["<module code: the callers of find_dev>", "cb_big", "cb_small"]], ["for_each_dev", "exported", "int(struct dev*)", ["<module code: the callers of for_each_dev>", "cb_big", "cb_local", "cb_small"]], ["job_run", "exported", "struct job.run", ["<module code: struct job.run>", "cb_big", "cb_local", "cb_small"]], ["walk", "argument", "int(struct dev*)", ["cb_other"]]]'
grep -q "^stackprof: indirect calls: 4 sites: .*, 0 field, 0 prototype, .*, 1 argument, .*, 3 exported (" "$OUT/stderr" ||
	fail "-v: counts"
# the stand-in: no frame, no calls; the total through it partial, the
# reason names the exported function
mc="[f for f in j['all_functions'] if f['name'] == '<module code: the callers of for_each_dev>'][0]"
expect_eq "<module code>" "$(jget "$j" "[$mc['self'], $mc['calls'], $mc['partial']]")" \
	'[null, [], true]'
expect_eq "for_each_dev's total" \
	"$(jget "$j" "[fn('for_each_dev')['lower_bound'], fn('for_each_dev')['partial']]")" \
	"$(jget "$j" "[fn('for_each_dev')['self'] + max(fn(f)['total'] for f in ('cb_big', 'cb_small', 'cb_local')), True]")"
jget "$j" "fn('for_each_dev')['reasons']" |
	grep -q "calls module code through the callers of for_each_dev: pass the modules to analyse them" ||
	fail "for_each_dev: no reason naming the exported function"
expect_eq "walk: bounded, not partial" "$(jget "$j" "[fn('walk')['bounded'], fn('walk')['partial']]")" \
	'[true, false]'
rm -f "$j"

# a program: every caller seen
run_sp --json --indirect=types "$OUT/program"
expect_rc 0 "the program"
expect_eq "the program's sites" "$(sites "$OUT/stdout")" \
	'[["find_dev", "prototype", "int(struct dev*)", ["cb_local", "cb_other"]], ["for_each_dev", "argument", "int(struct dev*)", ["cb_local"]], ["job_run", "field", "struct job.run", ["cb_local"]], ["walk", "argument", "int(struct dev*)", ["cb_other"]]]'
finish
