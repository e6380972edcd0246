#!/bin/sh
# --indirect=types follows a load through a register an add of two
# registers wrote, one of them shifted left by a constant before it:
# d(%rax) with rax = (rsi << k) + rdi is d(%rdi,%rsi,1 << k), an element
# of an array indexed by its size (the kernel's xen_mc_flush():
# b->callbacks[i].fn, shl $4 then add %rbp,%rax).
#
#   run_one   b->cbs[i].fn (shl $4,%rsi; add %rsi,%rdi; mov 0x8(%rdi)):
#             field struct cbk.fn: c_a, c_b
#   run_half  the word at 8 of b plus i << 5: no array there is indexed
#             by 32 (cbs' elements are 16 bytes), every address-taken
#             function
#
# A build with -finstrument-functions is traced: every pair a run takes
# must be among the site's targets (tests/e2e/icall_check.py).
. tests/e2e/lib.sh
[ "$(uname -m)" = x86_64 ] || skip "the instruction pass is x86-64's"
command -v gcc >/dev/null || skip "no gcc"

b=$OUT/build
mkdir -p "$b"
cat >"$b/ix.c" <<'C'
struct cbk { int (*fn)(long); long data; };
struct blk { long n; struct cbk cbs[4]; };
#define NOIPA __attribute__((noipa))
long total;
NOIPA int c_a(long c) { total += c; return 1; }
NOIPA int c_b(long c) { total -= c; return 2; }
NOIPA int c_c(long c) { total ^= c; return 3; }
struct blk blk0 = { 2, { { c_a, 1 }, { c_b, 2 } } };
int (*volatile hook)(long) = c_c;
NOIPA int run_one(struct blk *b, int i)
{
	return b->cbs[i].data ? b->cbs[i].fn(b->cbs[i].data) : 0;
}
NOIPA int run_half(struct blk *b, int i)
{
	const char *p = (const char *)b + ((long)i << 5);

	return *(const long *)(p + 16) ? (*(int (*const *)(long))(p + 8))(1) : 0;
}
int main(int argc, char **argv)
{
	(void)argv;
	run_one(&blk0, argc & 1);
	run_half(&blk0, argc & 1);
	hook(3);
	return (int)(total & 1);
}
C
icall_build ix || { finish; exit; }
# what this test is about: the shifts and the adds the loads go through
objdump -d --no-show-raw-insn "$b/ix" >"$OUT/ix.dis"
for f in run_one:0x4 run_half:0x5; do
	awk "/<${f%%:*}>:/,/^\$/" "$OUT/ix.dis" | grep -Eq "shl +\\\$${f#*:},%r" &&
		awk "/<${f%%:*}>:/,/^\$/" "$OUT/ix.dis" | grep -Eq 'add +%r[a-z0-9]+,%r' ||
		skip "gcc indexed ${f%%:*}'s array otherwise"
done

run_sp --json --indirect=types --no-libs "$b/ix"
expect_rc 0 "--indirect=types"
j=$OUT/ix.json
cp "$OUT/stdout" "$j"
expect_eq "run_one" "$(icall_sites "$j" run_one)" '[["field", "struct cbk.fn", ["c_a", "c_b"]]]'
expect_eq "run_half" "$(icall_sites "$j" run_half)" '[["address-taken", null, []]]'
icall_traced 2
finish
