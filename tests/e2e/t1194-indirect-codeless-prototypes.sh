#!/bin/sh
# --indirect=types: the prototype of a function DWARF gives no code.
# set_anon and set_anon_fc have one body, and GCC's identical code
# folding leaves set_anon_fc code of its own but only a DIE without
# code (the kernel's set_anon_super_fc); asm_twice is assembly that C
# declares.  Each is stored where no type tells (a void * array), so a
# call through a pointer of a prototype reaches the address-taken
# functions of its class: with the prototype the DIE without code or
# the declaration says, not every one of them:
#
#   do_set  int (*)(struct sb *, struct fc *): set_anon, set_anon_fc
#   do_num  long (*)(long): asm_twice, thrice; not set_anon_fc
#
# A build with -finstrument-functions is traced: every pair a run takes
# must be among the site's targets (tests/e2e/icall_check.py).
. tests/e2e/lib.sh
[ "$(uname -m)" = x86_64 ] || skip "the instruction pass is x86-64's"
command -v gcc >/dev/null || skip "no gcc"

b=$OUT/build
mkdir -p "$b"
cat >"$b/codeless.c" <<'C'
struct sb { int dev; };
struct fc { int flags; };
typedef int (*set_fn)(struct sb *, struct fc *);
typedef long (*num_fn)(long);

long asm_twice(long x);
__asm__(".text\n.globl asm_twice\n.type asm_twice, @function\n"
	"asm_twice:\n\tlea (%rdi,%rdi), %rax\n\tret\n.size asm_twice, .-asm_twice\n");

__attribute__((noinline)) int ida_get(int *p, int lo, int hi)
{
	*p = lo + (hi & 7);
	return *p;
}
int set_anon(struct sb *s, void *data) { (void)data; return ida_get(&s->dev, 1, 0xfffff); }
int set_anon_fc(struct sb *s, struct fc *fc) { (void)fc; return ida_get(&s->dev, 1, 0xfffff); }
long thrice(long x) { return 3 * x; }

void *slots[] = { set_anon, set_anon_fc, asm_twice, thrice };

__attribute__((noinline)) set_fn pick_set(int i) { return (set_fn)slots[i]; }
__attribute__((noinline)) num_fn pick_num(int i) { return (num_fn)slots[2 + i]; }

__attribute__((noinline)) int do_set(int i)
{
	static struct sb s;
	static struct fc fc;
	return pick_set(i)(&s, &fc);
}
__attribute__((noinline)) long do_num(int i) { return pick_num(i)(21); }

int main(int argc, char **argv)
{
	(void)argv;
	return do_set(argc - 1) + do_set(argc) + (int)do_num(argc) + (int)asm_twice(argc) > 1000;
}
C
icall_build codeless || { finish; exit; }

run_sp --json --indirect=types --no-libs "$b/codeless"
expect_rc 0 "--indirect=types"
j=$OUT/codeless.json
cp "$OUT/stdout" "$j"
expect_eq "do_set" "$(icall_sites "$j" do_set)" \
	'[["prototype", "int(struct sb*,struct fc*)", ["set_anon", "set_anon_fc"]]]'
expect_eq "do_num" "$(icall_sites "$j" do_num)" \
	'[["prototype", "long int(long int)", ["asm_twice", "thrice"]]]'
icall_traced 3
finish
