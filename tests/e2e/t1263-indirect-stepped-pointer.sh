#!/bin/sh
# --indirect=types: a call through a member of a pointer stepped through
# an array at a fixed address (kernel/time/alarmtimer.c's
# alarmtimer_suspend, Linux 6.1: base = &alarm_bases[i] in a loop,
# base->get_ktime(); GCC keeps base in a register set to alarm_bases
# before the loop and stepped by add $48 at its end, and DWARF locates
# no variable in it).  Every write of the register that reaches the load
# is the one constant or an add of the one step to itself, and so is
# every write that reaches such an add: the register holds the array's
# start plus n steps, and the load reads the column of the member, a
# table's words:
#
#   soonest    bases[i].get_time: table bases, time_real and time_boot
#              (what init stores there; not time_other, of the same
#              prototype, its address taken)
#   run_hooks  a walk from a section's __start_hooks, whose first
#              variable h1 is no array: not typed as h1's table; its
#              targets hold both hooks' functions, hook_one and hook_two
#
# The non-PIE build's mov $bases,%ebx and the PIE build's lea
# bases(%rip),%rbx both.  A build with -finstrument-functions is traced:
# every pair a run takes must be among the site's targets.  Debian's
# kernel: alarmtimer_suspend's base->get_ktime (alarmtimer.c:273 in
# Debian's 6.1.170), address-taken before, is table alarm_bases:
# ktime_get_real and ktime_get_boottime, which alarmtimer_init() stores
# (kernel/time/alarmtimer.c:941, 944 of the 6.1 tree).
. tests/e2e/lib.sh
[ "$(uname -m)" = x86_64 ] || skip "the instruction pass is x86-64's"
command -v gcc >/dev/null || skip "no gcc"

b=$OUT/build
mkdir -p "$b"
cat >"$b/step.c" <<'C'
struct base { int lock; long (*get_time)(void); long offset; };
#define NOIPA __attribute__((noipa))
NOIPA long time_real(void) { return 100; }
NOIPA long time_boot(void) { return 200; }
NOIPA long time_other(void) { return 300; }
NOIPA void lock(int *l) { *l = 1; }
NOIPA void unlock(int *l) { *l = 0; }
static struct base bases[8];
NOIPA void init(void)
{
	bases[0].get_time = time_real;
	bases[3].get_time = time_boot;
	bases[5].offset = 7;
}
NOIPA long soonest(void)
{
	long min = 0;
	int i;

	for (i = 0; i < 8; i++) {
		struct base *b = &bases[i];
		long d;

		lock(&b->lock);
		unlock(&b->lock);
		if (!b->get_time)
			continue;
		d = b->get_time() - b->offset;
		if (!min || d < min)
			min = d;
	}
	return min;
}
struct hook { long (*fn)(int); long prio; };
NOIPA long hook_one(int x) { return x + 1; }
NOIPA long hook_two(int x) { return x + 2; }
#define HOOK(name, f) \
	static const struct hook name __attribute__((used, section("hooks"), aligned(16))) = { f, 1 }
HOOK(h1, hook_one);
HOOK(h2, hook_two);
extern const struct hook __start_hooks[], __stop_hooks[];
NOIPA long run_hooks(int x)
{
	const struct hook *p;
	long s = 0;

	for (p = __start_hooks; p < __stop_hooks; p++) {
		lock((int *)&s);
		s += p->fn(x);
	}
	return s;
}
long (*volatile hook)(void) = time_other;
int main(int argc, char **argv)
{
	(void)argv;
	init();
	return (int)(soonest() + hook() + run_hooks(argc)) & 1;
}
C
icall_build step || { finish; exit; }
# what this test is about: the register set to the array, stepped in the loop
objdump -d --no-show-raw-insn "$b/step" | awk '/<soonest>:/, /^$/' >"$OUT/soonest.s"
grep -q "mov  *\$0x$(nm "$b/step" | awk '$3 == "bases" { print $1 }' | sed 's/^0*//'),%e" \
	"$OUT/soonest.s" && grep -q "add  *\$0x18,%r" "$OUT/soonest.s" ||
	skip "gcc did not step a register through bases"

want_soonest='["table", "bases", ["time_boot", "time_real"]]'
run_sp --json --indirect=types --no-libs "$b/step"
expect_rc 0 "--indirect=types"
cp "$OUT/stdout" "$OUT/step.json"
expect_eq "soonest" "$(icall_sites "$OUT/step.json" soonest)" "[$want_soonest]"
expect_eq "run_hooks: not h1's table, both hooks" \
	"$(jget "$OUT/step.json" "[[s['type'] != 'h1', 'hook_one' in s['targets'], 'hook_two' in s['targets']] for s in j['indirect_calls'] if s['function'] == 'run_hooks']")" \
	'[[true, true, true]]'
icall_traced 5

# position-independent: lea bases(%rip)
(cd "$b" && gcc -O2 -g -fPIE -pie -o steppie step.c) >"$OUT/build.log" 2>&1 || fail "gcc -fPIE"
run_sp --json --indirect=types --no-libs "$b/steppie"
expect_rc 0 "--indirect=types, PIE"
cp "$OUT/stdout" "$OUT/steppie.json"
expect_eq "soonest, PIE" "$(icall_sites "$OUT/steppie.json" soonest)" "[$want_soonest]"

debian_kernel_part
src=${STACKPROF_LINUX_SRC:-/tmp/stackprof-kernel/linux-dwarf4}
[ -f "$src/kernel/time/alarmtimer.c" ] || { skip_part "no Linux 6.1 source at $src"; finish; exit; }
grep -oE 'alarm_bases\[[A-Z_]+\]\.get_ktime = &?[a-z_]+' "$src/kernel/time/alarmtimer.c" |
	sed 's/.*= *&*//' | sort | tr '\n' ' ' | sed 's/ $//; s/ /", "/g' >"$OUT/want"
debian_typed_report "$OUT/vmlinux.json"
expect_eq "alarmtimer_suspend's base->get_ktime" \
	"$(icall_sites "$OUT/vmlinux.json" alarmtimer_suspend)" \
	"[[\"table\", \"alarm_bases\", [\"$(cat "$OUT/want")\"]]]"
rm -f "$OUT/vmlinux.json"
finish
