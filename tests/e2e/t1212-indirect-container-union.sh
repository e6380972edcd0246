#!/bin/sh
# --indirect=types: a call through a load below a struct (container_of,
# no variable holds the container) that the unit's structs holding it do
# not settle is one of their members, when each candidate with a pointer
# there holds a function pointer of a named struct there, and each such
# member says what it holds.  A candidate with a pointer to a struct
# there is none (an object's address is called only after a cast).
# hash_alg(t) is container_of(t->alg, struct hash_alg, base), returned
# straight into the load (mov -N(%rax),%rax: rax a struct alg *):
#
#   do_update  -0x10: struct hash_alg.update (base at 0x18), struct
#              cipher_alg.setkey (base at 0x10); struct rng_alg's next
#              there is a struct pointer, struct comp_alg's x a long:
#              field, the union: h_update, c_setkey
#   do_final   -0x8: hash_alg.final, cipher_alg.encrypt, rng_alg.seed,
#              but rng_reseed() writes seed with a value of unknown
#              origin (a void * global): every address-taken function
#   do_init    -0x18: hash_alg.init, but struct comp_alg's priv there is
#              a void *, which may hold a function: every address-taken
#              function
#
# A build with -finstrument-functions is traced: every pair a run takes
# must be among the site's targets (tests/e2e/icall_check.py).
. tests/e2e/lib.sh
[ "$(uname -m)" = x86_64 ] || skip "the instruction pass is x86-64's"
command -v gcc >/dev/null || skip "no gcc"

b=$OUT/build
mkdir -p "$b"
cat >"$b/cu.c" <<'C'
struct alg { long flags; const char *name; };
struct hash_alg { int (*init)(long); int (*update)(long); int (*final)(long); struct alg base; };
struct cipher_alg { int (*setkey)(long); int (*encrypt)(long); struct alg base; };
struct rng_alg { struct rng_alg *next; int (*seed)(long); struct alg base; };
struct comp_alg { void *priv; long x; long y; struct alg base; };
struct tfm { long refcnt; struct alg *alg; };
#define NOIPA __attribute__((noipa))
#define container_of(p, T, m) ((T *)((char *)(p) - __builtin_offsetof(T, m)))
long total;
NOIPA int h_init(long c) { total += c; return 0; }
NOIPA int h_update(long c) { total -= c; return 1; }
NOIPA int h_final(long c) { total ^= c; return 2; }
NOIPA int c_setkey(long c) { total *= c; return 3; }
NOIPA int c_encrypt(long c) { total |= c; return 4; }
NOIPA int r_seed(long c) { total &= c; return 5; }
NOIPA int other(long c) { total += 2 * c; return 6; }
static inline struct hash_alg *hash_alg(struct tfm *t)
{
	return container_of(t->alg, struct hash_alg, base);
}
NOIPA int do_init(struct tfm *t) { return hash_alg(t)->init(1); }
NOIPA int do_update(struct tfm *t) { return hash_alg(t)->update(2); }
NOIPA int do_final(struct tfm *t) { return hash_alg(t)->final(3); }
void *volatile anyfn = (void *)r_seed;
NOIPA void rng_reseed(struct rng_alg *r) { r->seed = (int (*)(long))anyfn; }
static struct hash_alg ha = { h_init, h_update, h_final, { 0, "h" } };
struct cipher_alg ca = { c_setkey, c_encrypt, { 0, "c" } };
struct rng_alg ra = { 0, r_seed, { 0, "r" } };
struct comp_alg xa = { 0, 1, 2, { 0, "x" } };
int (*volatile hook)(long) = other;
int main(int argc, char **argv)
{
	struct tfm t = { 1, &ha.base };

	(void)argv;
	if (argc > 5)
		rng_reseed(&ra);
	do_init(&t);
	do_update(&t);
	do_final(&t);
	hook(4);
	return (int)(total & 1);
}
C
icall_build cu || { finish; exit; }
# what this test is about: the loads below the struct alg the code made
for f in do_init:-0x18 do_update:-0x10 do_final:-0x8; do
	objdump -d --no-show-raw-insn "$b/cu" | awk "/<${f%%:*}>:/,/jmp/" | grep -q -- "${f#*:}(%r" ||
		skip "gcc loaded ${f%%:*}'s member otherwise"
done

run_sp --json --indirect=types --no-libs "$b/cu"
expect_rc 0 "--indirect=types"
j=$OUT/cu.json
cp "$OUT/stdout" "$j"
expect_eq "do_update" "$(icall_sites "$j" do_update)" \
	'[["field", "struct hash_alg.update | struct cipher_alg.setkey", ["c_setkey", "h_update"]]]'
expect_eq "do_final" "$(icall_sites "$j" do_final)" '[["address-taken", null, []]]'
expect_eq "do_init" "$(icall_sites "$j" do_init)" '[["address-taken", null, []]]'
icall_traced 4
finish
