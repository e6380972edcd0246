#!/bin/sh
# --indirect=types: a global function DWARF gives no code of its own but
# two definitions without code (the kernel's __x64_sys_fadvise64:
# mm/fadvise.c's and kernel/sys_ni.c's weak one, each folded by GCC's
# identical code folding).  Here a.c's set_two is folded into set_one,
# b.c's weak set_two into set_none, and the linker keeps a.c's.  C
# requires every declaration of one external function to agree, so its
# external declaration (m.c's) says its prototype; it was of every
# prototype class.  asm_hook, which no C declares, still is:
#
#   do_set   int (*)(struct sb *, long): set_two, set_none, set_one, asm_hook
#   do_quiet void (*)(void): quiet, asm_hook; not set_two
. tests/e2e/lib.sh
[ "$(uname -m)" = x86_64 ] || skip "the instruction pass is x86-64's"
command -v gcc >/dev/null || skip "no gcc"

b=$OUT/build
mkdir -p "$b"
cat >"$b/a.c" <<'C'
struct sb { int dev; };
__attribute__((noinline)) int ida_get(int *p, int lo, int hi) { *p = lo + (hi & 7); return *p; }
int set_one(struct sb *s, long d) { (void)d; return ida_get(&s->dev, 1, 0xfffff); }
int set_two(struct sb *s, long d) { (void)d; return ida_get(&s->dev, 1, 0xfffff); }
C
cat >"$b/b.c" <<'C'
struct sb { int dev; };
__attribute__((weak)) int set_none(struct sb *s, long d) { (void)s; (void)d; return -38; }
__attribute__((weak)) int set_two(struct sb *s, long d) { (void)s; (void)d; return -38; }
C
cat >"$b/m.c" <<'C'
struct sb { int dev; };
typedef int (*set_fn)(struct sb *, long);
typedef void (*quiet_fn)(void);

int set_one(struct sb *s, long d);
int set_two(struct sb *s, long d);
int set_none(struct sb *s, long d);
__asm__(".text\n.globl asm_hook\n.type asm_hook, @function\n"
	"asm_hook:\n\txor %eax, %eax\n\tret\n.size asm_hook, .-asm_hook\n");

static int calls;
__attribute__((noinline)) void quiet(void) { calls++; }

void *slots[] = { set_one, set_two, set_none, quiet };
__asm__(".data\n.globl hooks\nhooks:\n.quad asm_hook\n.text\n");
extern void *hooks[];

__attribute__((noinline)) set_fn pick_set(int i) { return (set_fn)slots[i]; }
__attribute__((noinline)) quiet_fn pick_quiet(int i) { return (quiet_fn)(i ? hooks[0] : slots[3]); }

__attribute__((noinline)) int do_set(int i)
{
	static struct sb s;
	return pick_set(i)(&s, i);
}
__attribute__((noinline)) void do_quiet(int i) { pick_quiet(i)(); }

int main(int argc, char **argv)
{
	(void)argv;
	do_quiet(argc - 1);
	return do_set(argc) + do_set(argc - 1) + calls > 1000;
}
C
(
	cd "$b" &&
	gcc -O2 -g -fno-pie -no-pie -o twice a.c b.c m.c
) >"$OUT/build.log" 2>&1 || { fail "cannot build: $(head -3 "$OUT/build.log")"; finish; exit; }
# the premise: set_two's code is a.c's, and none of its three DIEs (two
# definitions, m.c's declaration) has any
nm "$b/twice" | grep -q " T set_two$" || skip "the linker did not keep a.c's set_two"
readelf --debug-dump=info "$b/twice" >"$OUT/info" 2>/dev/null
[ "$(grep -c "DW_AT_name.*: set_two$" "$OUT/info")" = 3 ] ||
	skip "GCC did not fold both set_two"

run_sp --json --indirect=types --no-libs "$b/twice"
expect_rc 0 "--indirect=types"
j=$OUT/twice.json
cp "$OUT/stdout" "$j"
expect_eq "do_set" "$(icall_sites "$j" do_set)" \
	'[["prototype", "int(struct sb*,long int)", ["asm_hook", "set_none", "set_one", "set_two"]]]'
expect_eq "do_quiet" "$(icall_sites "$j" do_quiet)" \
	'[["prototype", "void()", ["asm_hook", "quiet"]]]'
finish
