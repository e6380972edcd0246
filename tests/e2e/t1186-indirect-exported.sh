#!/bin/sh
# --indirect=types: a call through a struct member nothing in the image
# stores (kexport/core.c, a kernel in miniature).  Its values can come
# only from code not given, a module's: the functions the kernel exports
# of the member's prototype, and the module's own code, a stand-in of
# unknown frame that makes the total partial and says why:
#
#   link_up   d->ops->get_link(d): exported, demo_link_big and
#             demo_link_small (int(struct dev *), in __ksymtab_); not
#             demo_link_void (exported, void * parameter: C's type
#             checks keep it out of an int (*)(struct dev *)), nor
#             demo_reset_x, nor probe_local (of the prototype, not
#             exported); and <module code: struct demo_ops.get_link>;
#   do_reset  reset: field, what used_ops holds;
#   do_stats  struct stats_ops.get_stats, stored by nothing either: the
#             same as link_up's, its own stand-in;
#   do_esc    esc, written by set_esc with an argument nothing passes:
#             escaped, the prototype's address-taken functions as before;
#   work_for_cpu_fn  wfc->fn(wfc->arg): work_on_cpu's local of struct
#             work_for_cpu is written from its parameter, a store into
#             the frame typed by DWARF's location of the local: field,
#             what work_on_cpu's one caller passes (probe_pci).
#
# With the module given (kexport/mod.c), get_link holds its mod_get_link
# (field, not partial), get_stats stays exported (the module, the last
# image, exports nothing: the kernel's ksymtab is still the one); without
# a ksymtab (a program, not a kernel) the member keeps the prototype
# fallback.
. tests/e2e/lib.sh
[ "$(uname -m)" = x86_64 ] || skip "the instruction pass is x86-64's"
command -v gcc >/dev/null || skip "no gcc"

cflags="-O2 -g -fno-pie -no-pie -nostdlib -static"
gcc $cflags -o "$OUT/kernel" tests/e2e/kexport/core.c || fail "gcc"
gcc $cflags -DNO_KSYMTAB -o "$OUT/program" tests/e2e/kexport/core.c || fail "gcc"
gcc -O2 -g -c -o "$OUT/mod.o" tests/e2e/kexport/mod.c || fail "gcc"
[ "$(nm "$OUT/kernel" | grep -c ' __ksymtab_')" = 4 ] || fail "no __ksymtab_ symbols"

# per site of core.c: caller, how, type, targets
sites()
{
	jget "$1" "sorted([s['function'], s['resolved_by'], s['type'], sorted(s['targets'])] for s in j['indirect_calls'] if s['file'].endswith('core.c'))"
}

# link_up's site: how, targets
link_up()
{
	jget "$1" "[[s['resolved_by'], sorted(s['targets'])] for s in j['indirect_calls'] if s['function'] == 'link_up']"
}

run_sp --json --indirect=types -v "$OUT/kernel"
expect_rc 0 "the kernel"
j=$OUT/kernel.json
cp "$OUT/stdout" "$j"
check_json "$j"
expect_eq "the kernel's sites" "$(sites "$j")" \
	'[["do_esc", "prototype", "int(struct dev*)", ["probe_local"]], ["do_reset", "field", "struct demo_ops.reset", ["demo_reset_x"]], ["do_stats", "exported", "struct stats_ops.get_stats", ["<module code: struct stats_ops.get_stats>", "demo_link_big", "demo_link_small"]], ["link_up", "exported", "struct demo_ops.get_link", ["<module code: struct demo_ops.get_link>", "demo_link_big", "demo_link_small"]], ["work_for_cpu_fn", "field", "struct work_for_cpu.fn", ["probe_pci"]]]'
grep -q "^stackprof: indirect calls: 5 sites: .*, 1 prototype, .*, 2 exported (" "$OUT/stderr" ||
	fail "-v: no exported count"
grep -q "^stackprof: indirect calls: mean targets per site: .*, exported 3.0, " "$OUT/stderr" ||
	fail "-v: no exported mean"
# the stand-in: no frame, no calls; the edge to it assumed, by "exported"
mc="[f for f in j['all_functions'] if f['name'] == '<module code: struct demo_ops.get_link>'][0]"
expect_eq "<module code>" "$(jget "$j" "[$mc['self'], $mc['calls'], $mc['partial']]")" \
	'[null, [], true]'
expect_eq "link_up's edges" \
	"$(jget "$j" "sorted({(c['via'], c['resolved_by']) for c in fn('link_up')['calls']})")" \
	'[["assumed", "exported"]]'
# link_up's total: its frame on the deeper exported function's, a lower
# bound (partial) that names the member
expect_eq "link_up's total" \
	"$(jget "$j" "[fn('link_up')['lower_bound'], fn('link_up')['bounded'], fn('link_up')['partial']]")" \
	"$(jget "$j" "[fn('link_up')['self'] + max(fn('demo_link_big')['total'], fn('demo_link_small')['total']), True, True]")"
jget "$j" "fn('link_up')['reasons']" | grep -q "calls module code through struct demo_ops.get_link: pass the modules to analyse them" ||
	fail "link_up: no reason naming the member"
expect_eq "start_kernel partial too" "$(jget "$j" "fn('start_kernel')['partial']")" true
rm -f "$j"

# the kernel summary counts the partial ones among the bounded
run_sp --json --kernel-summary --indirect=types "$OUT/kernel"
expect_rc 0 "--kernel-summary --json"
expect_eq "summary counts" \
	"$(jget "$OUT/stdout" "[j['kernel']['syscall'][k] for k in ('count', 'bounded', 'partial', 'partial_module_code')]")" \
	'[1, 1, 1, 1]'
run_sp --kernel-summary --indirect=types "$OUT/kernel"
expect_rc 0 "--kernel-summary"
grep -q "^System calls: 1 (1 bounded, 1 of them assumed, 1 of them partial: 1 call module code), on " "$OUT/stdout" ||
	fail "the summary does not say the bounded one is partial"

# the module given: its store is seen, the member resolves by field
run_sp --json --indirect=types "$OUT/kernel" "$OUT/mod.o"
expect_rc 0 "kernel and module"
expect_eq "with the module: link_up" \
	"$(link_up "$OUT/stdout")" \
	'[["field", ["mod_get_link"]]]'
expect_eq "with the module: not partial" "$(jget "$OUT/stdout" "fn('link_up')['partial']")" false
expect_eq "with the module: do_stats" \
	"$(jget "$OUT/stdout" "[s['resolved_by'] for s in j['indirect_calls'] if s['function'] == 'do_stats']")" \
	'["exported"]'

# a program (no ksymtab): the prototype fallback stays
run_sp --json --indirect=types "$OUT/program"
expect_rc 0 "the program"
expect_eq "the program's link_up" \
	"$(link_up "$OUT/stdout")" \
	'[["prototype", ["probe_local"]]]'
finish
