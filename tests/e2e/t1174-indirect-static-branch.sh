#!/bin/sh
# --indirect=types follows the kernel's static branches where the code
# shows no jump: obj_run's f is o->a->run, unless the branch is off
# (the nop as the image has it), then o->b->go.  The chain walked only
# the code's fall-through and saw one write, o->b->go: when the kernel
# patches the nop into a jmp (its __jump_table entry { code, target,
# key }, read between __start___jump_table and __stop___jump_table) the
# call reads o->a->run, which that missed.  The site is a join of both.
#
#   obj_run  field struct ops_b.go | struct ops_a.run: go_b, run_a
#
# A build with -finstrument-functions is traced: every pair a run takes
# must be among the site's targets (tests/e2e/icall_check.py).
. tests/e2e/lib.sh
[ "$(uname -m)" = x86_64 ] || skip "the instruction pass is x86-64's"
command -v gcc >/dev/null || skip "no gcc"

b=$OUT/build
mkdir -p "$b"
cat >"$b/jl.c" <<'C'
struct ops_a { long id; void (*run)(long); };
struct ops_b { long id; void (*go)(long); };
struct obj { const struct ops_a *a; const struct ops_b *b; };
#define NOIPA __attribute__((noipa))
long total;
NOIPA void run_a(long c) { total += c; }
NOIPA void go_b(long c) { total -= c; }
NOIPA void other_c(long c) { total ^= c; }
/* the kernel's static_branch_unlikely(): a nop the kernel may patch
 * into a jmp to yes, its place in __jump_table { code, target, key } */
static inline __attribute__((always_inline)) int branch(void)
{
	asm goto("1: .byte 0x0f, 0x1f, 0x44, 0x00, 0x00\n\t"
		 ".pushsection __jump_table, \"aw\"\n\t"
		 ".balign 8\n\t"
		 ".long 1b - .\n\t"
		 ".long %l[yes] - .\n\t"
		 ".quad 0\n\t"
		 ".popsection" : : : : yes);
	return 0;
yes:
	return 1;
}
/* f is o->a->run, unless the branch is off: then o->b->go */
NOIPA void obj_run(struct obj *o, long c)
{
	void (*f)(long) = o->a->run;

	if (!branch())
		f = o->b->go;
	f(c);
}
extern char __start___jump_table[], __stop___jump_table[];
static const struct ops_a oa = { 1, run_a };
static const struct ops_b ob = { 2, go_b };
static struct obj ob1 = { &oa, &ob };
void (*volatile hook)(long) = other_c;
int main(int argc, char **argv)
{
	(void)argv;
	obj_run(&ob1, argc);
	hook(__stop___jump_table - __start___jump_table);
	return (int)(total & 1);
}
C
icall_build jl || { finish; exit; }
# what this test is about: the nop between the two loads, the call
# after the second
objdump -d --no-show-raw-insn "$b/jl" | awk '/<obj_run>:/,/jmp    \*/' >"$OUT/obj_run.s"
grep -q "nopl   0x0(%rax,%rax,1)" "$OUT/obj_run.s" || skip "gcc placed no nop in obj_run"
nm "$b/jl" | grep -q " __start___jump_table$" || skip "the linker defined no __start___jump_table"

run_sp --json --indirect=types --no-libs "$b/jl"
expect_rc 0 "--indirect=types"
j=$OUT/jl.json
cp "$OUT/stdout" "$j"
expect_eq "obj_run" "$(icall_sites "$j" obj_run)" \
	'[["field", "struct ops_b.go | struct ops_a.run", ["go_b", "run_a"]]]'
icall_traced 2
finish
