#!/bin/sh
# --indirect=types types a word of the stack whose depth is not known by
# the variable DWARF places at the stack pointer plus its displacement:
# dev_run's buf is aligned to 64 bytes, so GCC realigns the frame (and
# $-64,%rsp) and the chain cannot say where in the frame a spill is;
# ops is spilled at 0x28(%rsp), located there as DW_OP_breg7 40 (the
# kernel's dev_ethtool keeps its ethtool_ops so).  The call through
# priv, a void * spilled beside it and cast in the call, loads another
# offset and stays address-taken (it calls halt_d, no struct dev_ops's).
#
#   dev_run  field struct dev_ops.run: run_a, run_b; address-taken
#
# A build with -finstrument-functions is traced: every pair a run takes
# must be among the site's targets (tests/e2e/icall_check.py).
. tests/e2e/lib.sh
[ "$(uname -m)" = x86_64 ] || skip "the instruction pass is x86-64's"
command -v gcc >/dev/null || skip "no gcc"

b=$OUT/build
mkdir -p "$b"
cat >"$b/stack.c" <<'C'
struct dev_ops { long id; int (*run)(long); int (*stop)(long); };
struct other_ops { long id; int (*go)(long); int (*halt)(long); };
struct dev { long a, b, c, d, e, f; const struct dev_ops *ops; void *priv; };
#define NOIPA __attribute__((noipa))
long total;
NOIPA int run_a(long c) { total += c; return 0; }
NOIPA int run_b(long c) { total -= c; return 1; }
NOIPA int stop_c(long c) { total ^= c; return 2; }
NOIPA int halt_d(long c) { total |= c; return 3; }
NOIPA void fill(char *p, long n) { p[0] = (char)n; total += n; }
/* buf's alignment makes GCC realign the frame (and $-64,%rsp): the
 * depth of what it spills is not known; DWARF puts ops at rsp plus an
 * offset.  priv, spilled too, is a void *, cast in the call. */
NOIPA long dev_run(struct dev *d)
{
	const struct dev_ops *ops = d->ops;
	void *priv = d->priv;
	long a = d->a, b = d->b, c = d->c, e = d->e, f = d->f, g = d->d;
	char buf[64] __attribute__((aligned(64)));

	fill(buf, a);
	fill(buf, b);
	ops->run(buf[0] + a + b + c + e + f + g);
	fill(buf, c);
	((const struct other_ops *)priv)->halt(buf[0] + a + b + c + e + f + g);
	fill(buf, e);
	return a + b + c + e + f + g;
}
static const struct dev_ops oa = { 1, run_a, stop_c }, ob = { 2, run_b, stop_c };
static const struct other_ops od = { 3, run_a, halt_d };
static struct dev da = { 1, 2, 3, 4, 5, 6, &oa, (void *)&od }, db = { 1, 2, 3, 4, 5, 6, &ob, (void *)&od };
int main(int argc, char **argv)
{
	(void)argv;
	dev_run(argc > 1 ? &da : &db);
	dev_run(&da);
	return (int)(total & 1);
}
C
icall_build stack || { finish; exit; }
# what this test is about: a realigned frame, ops at rsp + 40 over the
# call, loaded from there
objdump -d --no-show-raw-insn "$b/stack" | awk '/<dev_run>:/,/ret/' >"$OUT/dev_run.s"
grep -q "and    \$0xffffffffffffffc0,%rsp" "$OUT/dev_run.s" || skip "gcc did not realign the frame"
grep -q "mov    0x28(%rsp),%rax" "$OUT/dev_run.s" || skip "gcc did not spill ops"
objdump --dwarf=loc "$b/stack" 2>/dev/null | grep -q "(DW_OP_breg7 (rsp): 40)" ||
	skip "gcc located ops otherwise"

run_sp --json --indirect=types --no-libs "$b/stack"
expect_rc 0 "--indirect=types"
j=$OUT/stack.json
cp "$OUT/stdout" "$j"
expect_eq "dev_run" "$(icall_sites "$j" dev_run)" \
	'[["field", "struct dev_ops.run", ["run_a", "run_b"]], ["address-taken", null, []]]'
icall_traced 3
finish
