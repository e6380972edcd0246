#!/bin/sh
# --indirect=types: a call through a word of the kernel's pv_ops is a
# paravirt op's inline asm (irqs_disabled()'s save_fl), which clobbers
# only the registers it names: GCC keeps an argument in its register
# across it (smp_call_function_single()'s func, stored into
# csd->func after one).  The store is then of the argument, whose
# callers' values the member holds; the same asm through a word outside
# pv_ops is a call like any other, after which the register holds a
# value of unknown origin, and that member falls back to its prototype.
. tests/e2e/lib.sh
[ "$(uname -m)" = x86_64 ] || skip "the instruction pass is x86-64's"
command -v gcc >/dev/null || skip "no gcc"

cat >"$OUT/pv.c" <<'C'
struct pv_ops { unsigned long (*save_fl)(void); unsigned long (*other)(void); };
unsigned long native_save_fl(void) { return 0x200; }
unsigned long native_other(void) { return 1; }
struct pv_ops pv_ops = { native_save_fl, native_other };
struct pv_ops other_ops = { native_save_fl, native_other };
/* irqs_disabled()'s paravirt op: inline asm that clobbers rax alone */
static inline unsigned long save_fl(void)
{
	unsigned long f;
	asm volatile("call *pv_ops(%%rip)" : "=a"(f) : : "memory", "cc");
	return f;
}
/* the same asm through a word outside pv_ops: an unknown call */
static inline unsigned long other_fl(void)
{
	unsigned long f;
	asm volatile("call *other_ops(%%rip)" : "=a"(f) : : "memory", "cc");
	return f;
}
struct csd { void (*func)(void *); void *info; };
struct csd2 { void (*func)(void *); void *info; };
long seen;
void ipi_a(void *p) { seen += (long)p; }
void ipi_b(void *p) { seen -= (long)p; }
void ipi_c(void *p) { seen ^= (long)p; }
void (*volatile hook)(void *) = ipi_c;
__attribute__((noinline)) void csd_set(struct csd *c, void (*func)(void *), void *info)
{
	if (!(save_fl() & 0x200))
		seen++;
	c->func = func;
	c->info = info;
}
__attribute__((noinline)) void csd2_set(struct csd2 *c, void (*func)(void *), void *info)
{
	if (!(other_fl() & 0x200))
		seen++;
	c->func = func;
	c->info = info;
}
__attribute__((noinline)) void csd_run(struct csd *c) { c->func(c->info); }
__attribute__((noinline)) void csd2_run(struct csd2 *c) { c->func(c->info); }
int main(int argc, char **argv)
{
	struct csd c;
	struct csd2 c2;

	(void)argv;
	if (argc > 1)
		csd_set(&c, ipi_a, &c);
	else
		csd_set(&c, ipi_b, &c);
	csd_run(&c);
	csd2_set(&c2, ipi_a, &c2);
	csd2_run(&c2);
	hook(0);
	return (int)seen;
}
C
gcc -O2 -g -fno-pie -no-pie -o "$OUT/pv" "$OUT/pv.c" || fail "gcc"
objdump -d --no-show-raw-insn "$OUT/pv" >"$OUT/pv.dis"
# the shape this test is about: func stored from rsi, unwritten since the op
awk '/<csd_set>:/,/ret/' "$OUT/pv.dis" | grep -A4 'call.*pv_ops' | grep -Eq 'mov +%rsi,\(%rdi\)' ||
	skip_part "gcc moved csd_set's func out of rsi"

run_sp --json --no-libs --indirect=types "$OUT/pv"
expect_rc 0 "--indirect=types"
cp "$OUT/stdout" "$OUT/pv.json"
site()
{
	jget "$OUT/pv.json" "[(s['resolved_by'], s.get('type'), sorted(s['targets'])) for s in j['indirect_calls'] if s['function'] == '$1']"
}
expect_eq "c->func stored after a pv_ops call: what csd_set's callers pass" \
	"$(site csd_run)" '[["field", "struct csd.func", ["ipi_a", "ipi_b"]]]'
expect_eq "c->func stored after the same asm through other_ops: its prototype's class" \
	"$(site csd2_run)" '[["prototype", "void(void*)", ["ipi_a", "ipi_b", "ipi_c"]]]'
finish
