#!/bin/sh
# --indirect=types types a load of a struct the function keeps in its
# frame and lets a callee fill (posix-clock's get_clock_desc(id, &cd);
# cd.clk->ops.clock_gettime(...)): the slot's value is no spill (its
# address is passed on), but DWARF locates the struct there
# (DW_OP_fbreg), and its member is the pointer the call goes through:
#
#   clock_get  field struct clk_ops.get: g_a, g_b
#
# (address-taken, every function whose address is taken, without it).
# A build with -finstrument-functions is traced: every pair a run takes
# must be among the site's targets (tests/e2e/icall_check.py).
. tests/e2e/lib.sh
[ "$(uname -m)" = x86_64 ] || skip "the instruction pass is x86-64's"
command -v gcc >/dev/null || skip "no gcc"

b=$OUT/build
mkdir -p "$b"
cat >"$b/desc.c" <<'C'
#define NOIPA __attribute__((noipa))
struct clk_ops { long (*get)(long); long (*set)(long); };
struct clk { long id; struct clk_ops ops; };
struct desc { long fd; struct clk *clk; };
NOIPA long g_a(long v) { return v + 1; }
NOIPA long g_b(long v) { return v + 2; }
NOIPA long s_a(long v) { return v - 1; }
NOIPA long other(long v) { return v * 3; }
static struct clk clk_a = { 1, { g_a, s_a } };
static struct clk clk_b = { 2, { g_b, s_a } };
NOIPA int get_desc(long id, struct desc *cd)
{
	cd->fd = id;
	cd->clk = id & 1 ? &clk_a : &clk_b;
	return 0;
}
NOIPA void put_desc(struct desc *cd) { cd->fd = 0; }
NOIPA long clock_get(long id)
{
	struct desc cd;
	long r;

	if (get_desc(id, &cd))
		return -1;
	r = cd.clk->ops.get(id);
	put_desc(&cd);
	return r;
}
long (*volatile hook)(long) = other;
int main(int argc, char **argv)
{
	(void)argv;
	return (int)((clock_get(argc) + clock_get(argc + 1) + hook(2)) & 1);
}
C
icall_build desc || { finish; exit; }
# what this test is about: the pointer is loaded from the frame, whose
# address the function passes on
objdump -d --no-show-raw-insn "$b/desc" | awk '/<clock_get>:/, /^$/' >"$OUT/clock_get.s"
grep -q "mov  *0x[0-9a-f]*(%rsp),%" "$OUT/clock_get.s" &&
	grep -q "\(mov  *%rsp\|lea  *0x[0-9a-f]*(%rsp)\),%rsi$" "$OUT/clock_get.s" ||
	skip "gcc did not load clock_get's pointer from a struct in its frame"

run_sp --json --indirect=types --no-libs "$b/desc"
expect_rc 0 "--indirect=types"
j=$OUT/desc.json
cp "$OUT/stdout" "$j"
expect_eq "clock_get" "$(icall_sites "$j" clock_get)" '[["field", "struct clk_ops.get", ["g_a", "g_b"]]]'
icall_traced 3
finish
