#!/bin/sh
# --indirect=types reads a load indexed by a register (disp(base,index,8))
# as an element of the array member holding the word at disp, when the
# scale is that array's element size: commit's s->dq.ops[type] is mov
# 0x30(%rax,%rdi,8), struct quota_info's ops[3] inside struct sb (the
# kernel's sb_dqopt(sb)->ops[type]->commit_dqblk).  It was read only as
# p[i].member, an array of the pointee (struct sb is not 8 bytes).
# commit_any indexes over one, a pointer that is no array (a cast): the
# word at index 1 is two, another type, so it stays address-taken (it
# calls go_e, which no struct fmt_ops holds).
#
#   commit      field struct fmt_ops.commit: commit_a, commit_b
#   commit_any  address-taken
#
# A build with -finstrument-functions is traced: every pair a run takes
# must be among the site's targets (tests/e2e/icall_check.py).
. tests/e2e/lib.sh
[ "$(uname -m)" = x86_64 ] || skip "the instruction pass is x86-64's"
command -v gcc >/dev/null || skip "no gcc"

b=$OUT/build
mkdir -p "$b"
cat >"$b/ix.c" <<'C'
struct fmt_ops { long id; int (*commit)(long); int (*read)(long); };
struct quota_info { long flags; const struct fmt_ops *ops[3]; };
struct sb { long pad[5]; struct quota_info dq; long tail; };
struct other_ops { long id; int (*go)(long); };
struct s2 { long pad; const struct fmt_ops *one; const struct other_ops *two; };
#define NOIPA __attribute__((noipa))
long total;
NOIPA int commit_a(long c) { total += c; return 0; }
NOIPA int commit_b(long c) { total -= c; return 1; }
NOIPA int read_c(long c) { total ^= c; return 2; }
NOIPA int go_e(long c) { total &= c; return 4; }
/* sb->dq.ops[type]: one load, mov 0x30(%rdi,%rsi,8) */
NOIPA int commit(struct sb *s, int type)
{
	return s->dq.ops[type]->commit(type);
}
/* an index over one, which is no array: it reaches two, another type */
NOIPA int commit_any(struct s2 *p, long i)
{
	return ((const struct fmt_ops *const *)&p->one)[i]->commit(i);
}
static const struct fmt_ops fa = { 1, commit_a, read_c }, fb = { 2, commit_b, read_c };
static struct sb s1 = { { 0 }, { 0, { &fa, &fb, &fa } }, 0 };
static const struct other_ops oe = { 5, go_e };
static struct s2 s2 = { 0, &fa, &oe };
int main(int argc, char **argv)
{
	(void)argv;
	commit(&s1, argc > 1 ? 1 : 0);
	commit(&s1, 1);
	commit_any(&s2, argc);
	return (int)(total & 1);
}
C
icall_build ix || { finish; exit; }
# what this test is about: each call's pointer loaded with an index of 8
objdump -d --no-show-raw-insn "$b/ix" >"$OUT/ix.s"
awk '/<commit>:/,/jmp    \*/' "$OUT/ix.s" | grep -q "mov    0x30(%r[a-z0-9]*,%r[a-z0-9]*,8)," ||
	skip "gcc loaded s->dq.ops[type] otherwise"
awk '/<commit_any>:/,/jmp    \*/' "$OUT/ix.s" | grep -q "mov    0x8(%r[a-z0-9]*,%r[a-z0-9]*,8)," ||
	skip "gcc loaded commit_any's pointer otherwise"

run_sp --json --indirect=types --no-libs "$b/ix"
expect_rc 0 "--indirect=types"
j=$OUT/ix.json
cp "$OUT/stdout" "$j"
expect_eq "commit" "$(icall_sites "$j" commit)" '[["field", "struct fmt_ops.commit", ["commit_a", "commit_b"]]]'
expect_eq "commit_any" "$(icall_sites "$j" commit_any)" '[["address-taken", null, []]]'
icall_traced 3
finish
