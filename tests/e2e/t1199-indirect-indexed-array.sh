#!/bin/sh
# --indirect=types types a load from an array at a fixed address that a
# register the code computed indexes (no index register in the operand,
# the offset already multiplied: GCC's alarm_bases[type].get_ktime,
# blkcg_policy[i]->pd_free_fn): the word at the displacement's offset
# into each element, as a table's.
#
#   get       jmp *0x...(%rax), rax = type * 48: the words of
#             bases[].get and the stores there: table bases: g_a, g_b
#   free_all  mov pols(%rbx),%rax, rbx = i * 8 (shared with d->pd[i]),
#             then call *0x8(%rax): struct pol * from pols[], field
#             struct pol.free_fn: f_a, f_b
#
# (each every address-taken function without it).  A build with
# -finstrument-functions is traced: every pair a run takes must be among
# the site's targets (tests/e2e/icall_check.py).
. tests/e2e/lib.sh
[ "$(uname -m)" = x86_64 ] || skip "the instruction pass is x86-64's"
command -v gcc >/dev/null || skip "no gcc"

b=$OUT/build
mkdir -p "$b"
cat >"$b/ix.c" <<'C'
#define NOIPA __attribute__((noipa))
struct base { long id; long pad[2]; long (*get)(long); long more[2]; };
struct pol { long id; void (*free_fn)(long *); };
struct dev { long x; long *pd[4]; };
long total;
NOIPA long g_a(long c) { return total + c; }
NOIPA long g_b(long c) { return total - c; }
NOIPA long g_c(long c) { return total ^ c; }
NOIPA void f_a(long *c) { total += *c; }
NOIPA void f_b(long *c) { total -= *c; }
NOIPA void f_c(long c) { total *= c; }
static struct base bases[3];
static struct pol pa = { 1, f_a }, pb = { 2, f_b };
static struct pol *pols[4];
NOIPA void init(void)
{
	bases[0].get = g_a;
	bases[1].get = g_b;
	pols[0] = &pa;
	pols[2] = &pb;
}
NOIPA long get(unsigned type)
{
	if (type >= 3)
		return 0;
	return bases[type].get(type);
}
NOIPA void free_all(struct dev *d)
{
	for (int i = 0; i < 4; i++)
		if (d->pd[i])
			pols[i]->free_fn(d->pd[i]);
}
void (*volatile hook)(long) = f_c;
int main(int argc, char **argv)
{
	static long v = 5;
	struct dev d = { 0, { &v, 0, &v, 0 } };
	(void)argv;
	init();
	total = get(argc - 1) + get(1);
	free_all(&d);
	hook(3);
	return (int)(total & 1);
}
C
icall_build ix || { finish; exit; }
# what this test is about: both loads index the array by a register
# holding the offset, no index register in the operand
objdump -d --no-show-raw-insn "$b/ix" | awk '/<get>:/,/ret/' | grep -q 'jmp  *\*0x[0-9a-f]*(%r[a-z0-9]*)$' ||
	skip "gcc indexed bases otherwise"
objdump -d --no-show-raw-insn "$b/ix" | awk '/<free_all>:/,/ret/' | grep -q 'mov  *0x[0-9a-f]*(%r[a-z0-9]*),%r' ||
	skip "gcc indexed pols otherwise"

run_sp --json --indirect=types --no-libs "$b/ix"
expect_rc 0 "--indirect=types"
j=$OUT/ix.json
cp "$OUT/stdout" "$j"
expect_eq "get" "$(icall_sites "$j" get)" '[["table", "bases", ["g_a", "g_b"]]]'
expect_eq "free_all" "$(icall_sites "$j" free_all)" '[["field", "struct pol.free_fn", ["f_a", "f_b"]]]'
icall_traced 5
finish
