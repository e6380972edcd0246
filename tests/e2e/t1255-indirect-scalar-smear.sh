#!/bin/sh
# --indirect=types: an assembly function (of only a declaration's
# prototype, as the kernel's return_to_handler) stored where no type
# tells goes into every key at the offset it was stored at, but not when
# DWARF types the place an integer: there it is a number (a return
# address, an address to jump to), which C puts in no member of a
# function's type (a cast of the member's address assumed none).
#
#   set_return   *parent = hook_ret          unsigned long *parent
#   set_frame    stack[0] = hook_tramp       unsigned long *stack,
#                                            loaded from regs->sp, an
#                                            unsigned long
#   save_record  r->jump_address = hook_jump an unsigned long member
#   set_slot     *addr = hook_void           void **addr: no type tells
#
# all at offset 0; do_run calls struct ops.run, the member at offset 0
# that ops_a's twice initializes: twice and hook_void, not the three
# numbers.  A run stores each and calls do_run (twice): the traced pairs
# are among the targets.
. tests/e2e/lib.sh
[ "$(uname -m)" = x86_64 ] || skip "the instruction pass is x86-64's"
command -v gcc >/dev/null || skip "no gcc"

b=$OUT/build
mkdir -p "$b"
cat >"$b/asm.S" <<'S'
	.text
	.globl hook_ret
	.type hook_ret, @function
hook_ret:
	ret
	.size hook_ret, .-hook_ret
	.globl hook_tramp
	.type hook_tramp, @function
hook_tramp:
	ret
	.size hook_tramp, .-hook_tramp
	.globl hook_jump
	.type hook_jump, @function
hook_jump:
	ret
	.size hook_jump, .-hook_jump
	.globl hook_void
	.type hook_void, @function
hook_void:
	ret
	.size hook_void, .-hook_void
	.section .note.GNU-stack,"",@progbits
S
cat >"$b/hooks.c" <<'C'
struct ops { long (*run)(long); long data; };
struct record { unsigned long jump_address; unsigned long magic; };
struct frame { long flags; unsigned long sp; };

void hook_ret(void);
void hook_tramp(void);
void hook_jump(void);
void hook_void(void);

__attribute__((noinline)) long twice(long x) { return 2 * x; }
struct ops ops_a = { twice, 0 };
struct ops *volatile cur = &ops_a;

__attribute__((noinline)) void set_return(unsigned long *parent)
{
	*parent = (unsigned long)hook_ret;
}
__attribute__((noinline)) void set_frame(struct frame *regs)
{
	unsigned long *stack = (unsigned long *)regs->sp;

	stack[0] = (unsigned long)hook_tramp;
}
__attribute__((noinline)) void save_record(struct record *r)
{
	r->jump_address = (unsigned long)hook_jump;
}
__attribute__((noinline)) void set_slot(void **addr)
{
	*addr = (void *)hook_void;
}
__attribute__((noinline)) long do_run(struct ops *o, long x) { return o->run(x); }

int main(int argc, char **argv)
{
	unsigned long word = 0;
	struct frame f = { 0, (unsigned long)&word };
	struct record rec = { 0, 0 };
	void *slot = 0;

	(void)argv;
	set_return(&word);
	set_frame(&f);
	save_record(&rec);
	set_slot(&slot);
	return (int)(do_run(cur, argc) + do_run(cur, 2)) + (word == rec.jump_address) +
	       (slot == 0) > 1000;
}
C
cp tests/oracle/icall_trace.c "$b/"
(
	cd "$b" &&
	gcc -O2 -g -fno-pie -no-pie -o hooks hooks.c asm.S &&
	gcc -O2 -g -fno-pie -finstrument-functions -c hooks.c &&
	gcc -O2 -g -fno-pie -c icall_trace.c asm.S &&
	gcc -no-pie -o traced hooks.o asm.o icall_trace.o
) >"$OUT/build.log" 2>&1 || { fail "cannot build: $(head -3 "$OUT/build.log")"; finish; exit; }

# each store writes its constant at offset 0 of its base, as the source
# says (else the case is not the one meant)
for f in set_return set_frame save_record set_slot; do
	objdump -d --no-show-raw-insn "$b/hooks" | grep -A3 "<$f>:" |
		grep -q 'movq *\$0x[0-9a-f]*,(%r[a-z0-9]*)$' || skip "gcc compiled $f otherwise"
done

run_sp --json --indirect=types --no-libs "$b/hooks"
expect_rc 0 "--indirect=types"
j=$OUT/hooks.json
cp "$OUT/stdout" "$j"
expect_eq "do_run" "$(icall_sites "$j" do_run)" \
	'[["field", "struct ops.run", ["hook_void", "twice"]]]'
icall_traced 1
finish
