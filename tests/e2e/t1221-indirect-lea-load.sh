#!/bin/sh
# --indirect=types follows a load through a register a lea wrote: d(%rax)
# with rax = lea c(%rbx) is the word at c + d from rbx, and with rax =
# lea c(,%rbx,s) a table's word at c + d, indexed by s.  GCC keeps an
# element's address so when it loads several members of it (the
# kernel's alg_test_descs[i].test, io_op_defs[op]->issue); no variable
# DWARF locates holds that address.
#
#   run_desc  descs[i] (32 bytes: shl $5; lea descs(%rdi),%rax), then
#             0x8(%rax) and 0x18(%rax): a table of descs' elements, each
#             member's words: t_a, t_b and f_a, f_b
#   run_wide  wides[i] (40 bytes: lea (%rax,%rax,4); lea wides(,%rax,8)):
#             indexed by 8, every word of wides (the index's multiple of
#             5 is not known): w_a, w_b and fini's f_a, f_b too
#
# A build with -finstrument-functions is traced: every pair a run takes
# must be among the site's targets (tests/e2e/icall_check.py).
. tests/e2e/lib.sh
[ "$(uname -m)" = x86_64 ] || skip "the instruction pass is x86-64's"
command -v gcc >/dev/null || skip "no gcc"

b=$OUT/build
mkdir -p "$b"
cat >"$b/le.c" <<'C'
struct desc { const char *name; int (*test)(long); long flags; int (*fini)(long); };
struct wide { const char *name; int (*test)(long); long flags; int (*fini)(long); long pad; };
#define NOIPA __attribute__((noipa))
long total;
NOIPA int t_a(long c) { total += c; return 1; }
NOIPA int t_b(long c) { total -= c; return 2; }
NOIPA int f_a(long c) { total ^= c; return 3; }
NOIPA int f_b(long c) { total |= c; return 4; }
NOIPA int w_a(long c) { total += 3 * c; return 6; }
NOIPA int w_b(long c) { total -= 3 * c; return 7; }
NOIPA int other(long c) { total &= c; return 5; }
const struct desc descs[] = { { "a", t_a, 1, f_a }, { "b", t_b, 0, f_b } };
const struct wide wides[] = { { "a", w_a, 1, f_a, 0 }, { "b", w_b, 0, f_b, 0 } };
int (*volatile hook)(long) = other;
NOIPA int run_desc(int i, long x)
{
	return descs[i].flags ? descs[i].test(x) : descs[i].fini(x);
}
NOIPA int run_wide(int i, long x)
{
	return wides[i].flags ? wides[i].test(x) : 0;
}
int main(int argc, char **argv)
{
	(void)argv;
	run_desc(argc & 1, 1);
	run_desc(1, 2);
	run_wide(argc & 1, 3);
	hook(4);
	return (int)(total & 1);
}
C
icall_build le || { finish; exit; }
# what this test is about: the leas the loads go through
objdump -d --no-show-raw-insn "$b/le" >"$OUT/le.dis"
awk '/<run_desc>:/,/^$/' "$OUT/le.dis" | grep -Eq 'lea +0x[0-9a-f]+\(%r[a-z0-9]+\),' ||
	skip "gcc kept descs[i]'s address otherwise"
awk '/<run_wide>:/,/^$/' "$OUT/le.dis" | grep -Eq 'lea +0x[0-9a-f]+\(,%r[a-z0-9]+,8\),' ||
	skip "gcc kept wides[i]'s address otherwise"

run_sp --json --indirect=types --no-libs "$b/le"
expect_rc 0 "--indirect=types"
j=$OUT/le.json
cp "$OUT/stdout" "$j"
expect_eq "run_desc" "$(icall_sites "$j" run_desc | tr -d '\n')" \
	'[["table", "descs", ["t_a", "t_b"]], ["table", "descs", ["f_a", "f_b"]]]'
expect_eq "run_wide" "$(icall_sites "$j" run_wide)" '[["table", "wides", ["f_a", "f_b", "w_a", "w_b"]]]'
icall_traced 2
finish
