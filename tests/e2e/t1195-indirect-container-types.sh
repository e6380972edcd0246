#!/bin/sh
# --indirect=types types a load below a struct (container_of) no
# variable holds by the structs of the unit that hold it: hash_alg(t)
# is container_of(t->alg, struct hash_alg, base), returned straight into
# the load (mov -0x18(%rax),%rax: rax a struct alg *, nothing there).
# The unit's structs holding a struct alg at 0x18 or more below are the
# candidates; the load is typed when all say the same.
#
#   do_init     -0x18: only struct hash_alg holds its base that far
#               down: field struct hash_alg.init: h_init_a, h_init_b
#   do_update   -0x10: struct hash_alg.update, and struct cipher_alg's
#               encrypt (its base is at 0x10): they disagree, the call
#               is one of the two (t1212): field, h_update and c_encrypt
#   do_encrypt  -0x10 as well, the same
#
# A build with -finstrument-functions is traced: every pair a run takes
# must be among the site's targets (tests/e2e/icall_check.py).
. tests/e2e/lib.sh
[ "$(uname -m)" = x86_64 ] || skip "the instruction pass is x86-64's"
command -v gcc >/dev/null || skip "no gcc"

b=$OUT/build
mkdir -p "$b"
cat >"$b/co.c" <<'C'
struct alg { long flags; const char *name; };
struct hash_alg { int (*init)(long); int (*update)(long); long size; struct alg base; };
struct cipher_alg { int (*encrypt)(long); long blk; struct alg base; };
struct tfm { long refcnt; struct alg *alg; };
#define NOIPA __attribute__((noipa))
#define container_of(p, T, m) ((T *)((char *)(p) - __builtin_offsetof(T, m)))
long total;
NOIPA int h_init_a(long c) { total += c; return 0; }
NOIPA int h_init_b(long c) { total -= c; return 1; }
NOIPA int h_update(long c) { total ^= c; return 2; }
NOIPA int c_encrypt(long c) { total *= c; return 3; }
NOIPA int c_other(long c) { total |= c; return 4; }
static inline struct hash_alg *hash_alg(struct tfm *t)
{
	return container_of(t->alg, struct hash_alg, base);
}
static inline struct cipher_alg *cipher_alg(struct tfm *t)
{
	return container_of(t->alg, struct cipher_alg, base);
}
NOIPA int do_init(struct tfm *t) { return hash_alg(t)->init(1); }
NOIPA int do_update(struct tfm *t) { return hash_alg(t)->update(2); }
NOIPA int do_encrypt(struct tfm *t) { return cipher_alg(t)->encrypt(3); }
static struct hash_alg ha = { h_init_a, h_update, 1, { 0, "a" } };
static struct hash_alg hb = { h_init_b, h_update, 2, { 0, "b" } };
static struct cipher_alg ca = { c_encrypt, 16, { 0, "c" } };
int (*volatile hook)(long) = c_other;
int main(int argc, char **argv)
{
	struct tfm t1 = { 1, argc > 1 ? &ha.base : &hb.base }, t2 = { 1, &ca.base };

	(void)argv;
	do_init(&t1);
	do_update(&t1);
	do_encrypt(&t2);
	hook(4);
	return (int)(total & 1);
}
C
icall_build co || { finish; exit; }
# what this test is about: the loads below the struct alg the code made
for f in do_init:-0x18 do_update:-0x10 do_encrypt:-0x10; do
	objdump -d --no-show-raw-insn "$b/co" | awk "/<${f%%:*}>:/,/jmp/" | grep -q -- "${f#*:}(%r" ||
		skip "gcc loaded ${f%%:*}'s member otherwise"
done

run_sp --json --indirect=types --no-libs "$b/co"
expect_rc 0 "--indirect=types"
j=$OUT/co.json
cp "$OUT/stdout" "$j"
expect_eq "do_init" "$(icall_sites "$j" do_init)" '[["field", "struct hash_alg.init", ["h_init_a", "h_init_b"]]]'
u='[["field", "struct hash_alg.update | struct cipher_alg.encrypt", ["c_encrypt", "h_update"]]]'
expect_eq "do_update" "$(icall_sites "$j" do_update)" "$u"
expect_eq "do_encrypt" "$(icall_sites "$j" do_encrypt)" "$u"
icall_traced 4
finish
