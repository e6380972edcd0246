#!/bin/sh
# --indirect=types: a callback argument that neither DWARF's call site
# nor the constants just before the call say is read from the caller's
# code: the constants each path into the call writes (the kernel's
# membarrier_private_expedited(), which picks one of three IPI functions
# by its flags, keeps it across a call and passes it to
# smp_call_function_single(), whose csd->func = func then holds those).
# A path that loads the callback from a variable (job_start's) brings no
# constant: that member falls back to its prototype.
. tests/e2e/lib.sh
[ "$(uname -m)" = x86_64 ] || skip "the instruction pass is x86-64's"
command -v gcc >/dev/null || skip "no gcc"

cat >"$OUT/ca.c" <<'C'
struct csd { void (*func)(void *); void *info; };
struct job { void (*run)(void *); void *arg; };
long seen;
void ipi_mb(void *p) { seen += (long)p; }
void ipi_sync(void *p) { seen -= (long)p; }
void ipi_rseq(void *p) { seen ^= (long)p; }
void job_a(void *p) { seen |= (long)p; }
void (*volatile hook)(void *) = job_a;
void (*volatile job_pick)(void *) = job_a;
__attribute__((noipa)) void prepare(int cpu) { seen += cpu; }
__attribute__((noinline)) void csd_send(struct csd *c, void (*func)(void *), void *info)
{
	c->func = func;
	c->info = info;
}
__attribute__((noinline)) void csd_run(struct csd *c) { c->func(c->info); }
/* membarrier_private_expedited()'s way: one of three callbacks by the
 * flags, kept in a register across a call, then passed on */
__attribute__((noinline)) void expedited(struct csd *c, int flags, int cpu)
{
	void (*fn)(void *) = ipi_mb;

	if (flags & 1)
		fn = ipi_sync;
	else if (flags & 2)
		fn = ipi_rseq;
	prepare(cpu);
	csd_send(c, fn, 0);
}
__attribute__((noinline)) void job_send(struct job *j, void (*run)(void *), void *arg)
{
	j->run = run;
	j->arg = arg;
}
__attribute__((noinline)) void job_go(struct job *j) { j->run(j->arg); }
/* one path loads the callback from a variable: of unknown origin */
__attribute__((noinline)) void job_start(struct job *j, int flags, int cpu)
{
	void (*fn)(void *) = ipi_mb;

	if (flags & 1)
		fn = job_pick;
	prepare(cpu);
	job_send(j, fn, 0);
}
int main(int argc, char **argv)
{
	struct csd c;
	struct job j;

	(void)argv;
	expedited(&c, argc, argc + 1);
	csd_run(&c);
	job_start(&j, argc, argc + 2);
	job_go(&j);
	hook(0);
	return (int)seen;
}
C
gcc -O2 -g -fno-pie -no-pie -o "$OUT/ca" "$OUT/ca.c" || fail "gcc"
objdump -d --no-show-raw-insn "$OUT/ca" >"$OUT/ca.dis"
# the shape this test is about: the callback chosen on paths, kept in a
# register across prepare(), copied into rsi
awk '/<expedited>:/,/<csd_send>$/' "$OUT/ca.dis" | grep -A3 'call.*<prepare>' | grep -Eq 'mov +%r[a-z0-9]+,%rsi' ||
	skip_part "gcc passed expedited's callback some other way"

run_sp --json --no-libs --indirect=types "$OUT/ca"
expect_rc 0 "--indirect=types"
cp "$OUT/stdout" "$OUT/ca.json"
site()
{
	jget "$OUT/ca.json" "[(s['resolved_by'], s.get('type'), sorted(s['targets'])) for s in j['indirect_calls'] if s['function'] == '$1']"
}
expect_eq "c->func: the three callbacks expedited's paths pass csd_send" \
	"$(site csd_run)" '[["field", "struct csd.func", ["ipi_mb", "ipi_rseq", "ipi_sync"]]]'
expect_eq "j->run: one path's callback loaded from a variable, its prototype's class" \
	"$(site job_go)" '[["prototype", "void(void*)", ["ipi_mb", "ipi_rseq", "ipi_sync", "job_a"]]]'
finish
