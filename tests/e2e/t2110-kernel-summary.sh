#!/bin/sh
# --entry-glob and --kernel-summary over the module test programs: system
# calls by their __x64_sys_ names, interrupt handlers by their
# irqreturn_t (int, void *) type, the threaded one by the thread_fn
# argument frob_init gives request_threaded_irq; totals from ci_oracle.py.
# A program (the chain sample) has none of them.
. tests/e2e/lib.sh

sh tests/e2e/kmod/build.sh "$OUT" || { fail "cannot build the modules"; finish; exit; }
elfs="$OUT/kernel $OUT/mod.ko $OUT/other.ko"

# the oracle's lower bound of NAME, from GCC's .ci files alone
oracle()
{
	$ORACLE --print "$OUT" | awk -F'\t' -v name="$1" \
		'$1 == name { sub(/^[a-z]*=/, "", $4); print $4 }'
}
frob=$(oracle __x64_sys_frob)
other=$(oracle __x64_sys_other)
irq=$(oracle frob_irq_handler)
ping=$(oracle __do_sys_ping)
thread=$(oracle frob_irq_thread)
[ -n "$frob" ] && [ -n "$other" ] && [ -n "$irq" ] && [ -n "$ping" ] && [ -n "$thread" ] ||
	fail "the oracle has no totals"

run_sp --json --entry-glob '__x64_sys_*' $elfs
expect_rc 0 "--entry-glob"
cp "$OUT/stdout" "$OUT/glob.json"
expect_eq "--entry-glob roots" \
	"$(jget "$OUT/glob.json" 'sorted(f["name"] for f in j["functions"])')" \
	'["__x64_sys_frob", "__x64_sys_other"]'
expect_eq "__x64_sys_frob = oracle" \
	"$(jget "$OUT/glob.json" 'fn("__x64_sys_frob")["lower_bound"]')" "$frob"

run_sp --json --kernel-summary $elfs
expect_rc 0 "--kernel-summary --json"
cp "$OUT/stdout" "$OUT/summary.json"
# __x64_sys_ping is an alias of __do_sys_ping (SYSCALL_DEFINE0)
expect_eq "system calls, worst first" \
	"$(jget "$OUT/summary.json" '[(e["name"], e["lower_bound"]) for e in j["kernel"]["syscall"]["entries"]]')" \
	"[[\"__x64_sys_other\", $other], [\"__x64_sys_frob\", $frob], [\"__do_sys_ping\", $ping]]"
expect_eq "the interrupt handler, found by its type" \
	"$(jget "$OUT/summary.json" '[(e["name"], e["lower_bound"]) for e in j["kernel"]["irq"]["entries"]]')" \
	"[[\"frob_irq_handler\", $irq]]"
expect_eq "the threaded handler, given as thread_fn only" \
	"$(jget "$OUT/summary.json" '[(e["name"], e["lower_bound"]) for e in j["kernel"]["irq_thread"]["entries"]]')" \
	"[[\"frob_irq_thread\", $thread]]"
for c in syscall irq exception irq_thread; do
	expect_eq "$c: the bounded count is the entries'" \
		"$(jget "$OUT/summary.json" "j['kernel']['$c']['bounded']")" \
		"$(jget "$OUT/summary.json" "sum(e['bounded'] for e in j['kernel']['$c']['entries'])")"
	expect_eq "$c: the partial count is the bounded entries'" \
		"$(jget "$OUT/summary.json" "j['kernel']['$c']['partial']")" \
		"$(jget "$OUT/summary.json" "sum(e['bounded'] and e['partial'] for e in j['kernel']['$c']['entries'])")"
done
# the kernel calls libc's strlen, which the tests do not read
# (STACKPROF_LIBS=no): every total is partial, none through module code
expect_eq "partial, not through module code" \
	"$(jget "$OUT/summary.json" "[j['kernel'][c][k] for c in ('syscall', 'irq') for k in ('partial', 'partial_module_code')]")" \
	'[3, 0, 1, 0]'

expect_eq "no exception entries" \
	"$(jget "$OUT/summary.json" 'j["kernel"]["exception"]["count"]')" 0
expect_eq "the path crosses modules" \
	"$(jget "$OUT/summary.json" 'j["kernel"]["syscall"]["entries"][0]["path"]')" \
	'["__x64_sys_other", "modb_work", "core_log", "core_fill"]'
expect_eq "the full report is still there" \
	"$(jget "$OUT/summary.json" 'fn("moda_helper")["lower_bound"]')" "$(oracle moda_helper)"

run_sp --kernel-summary --top 1 $elfs
expect_rc 0 "--kernel-summary text"
grep -q "^System calls: 3 ($(jget "$OUT/summary.json" "j['kernel']['syscall']['bounded']") bounded, 3 of them partial: 3 other unknown code), on " \
	"$OUT/stdout" || fail "no system call heading"
grep -q '^Interrupt handlers: 1 (1 bounded, 1 of them partial: 1 other unknown code), on ' "$OUT/stdout" ||
	fail "no interrupt heading"
grep -q "^Threaded interrupt handlers: 1 (1 bounded, 1 of them partial: 1 other unknown code), on the thread stack of the IRQ's kernel thread" \
	"$OUT/stdout" || fail "no threaded interrupt heading"
grep -q '\.\.\. 2 more (--top)' "$OUT/stdout" || fail "--top 1 does not cut the list"
grep -Eq "^ +$other\+? +[0-9]+ +__x64_sys_other " "$OUT/stdout" ||
	fail "no '$other __x64_sys_other' row"
grep -q 'worst path of __x64_sys_other' "$OUT/stdout" || fail "no worst path"

# A program is no kernel: the stack switches in glibc's C code (followed
# into libc, which libc6-dbg describes; they enter exit and setcontext)
# enter no IRQ stack, and the summary says that nothing matched
need_sample chain
STACKPROF_LIBS= run_sp --kernel-summary samples/chain/chain
expect_rc 0 "--kernel-summary of a program"
grep -q '^Interrupt handlers: 0 (0 bounded)' "$OUT/stdout" ||
	fail "a program's stack switches taken for interrupt handlers"
grep -q '^No function is named or typed as a kernel' "$OUT/stdout" ||
	fail "no note that a program has no kernel entry points"

expect_bad "glob without a match" "no function matches 'nothing_\*'" \
	--entry-glob 'nothing_*' $elfs
finish
