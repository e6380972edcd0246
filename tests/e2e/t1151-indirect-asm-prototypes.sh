#!/bin/sh
# --indirect=types: the prototype of an assembly function whose DWARF is
# the assembler's (gcc -g on a .S: GNU as writes a DW_TAG_subprogram
# with a name and a range, no prototype; the kernel's wakeup_long64):
# its C declaration says it, as for one DWARF gives no code (t1194).
# asm_twice is declared `long asm_twice(long)`; asm_hook no C code
# declares, so it stays in every prototype's class.  Each is stored
# where no type tells (void * words), so a call through a pointer of a
# prototype reaches the address-taken functions of its class:
#
#   do_num   long (*)(long): asm_twice, thrice, asm_hook
#   do_quiet void (*)(void): quiet, asm_hook; not asm_twice (every
#            class's before)
#
# A build with -finstrument-functions is traced: every pair a run takes
# must be among the site's targets (tests/e2e/icall_check.py).
. tests/e2e/lib.sh
[ "$(uname -m)" = x86_64 ] || skip "the instruction pass is x86-64's"
command -v gcc >/dev/null || skip "no gcc"

b=$OUT/build
mkdir -p "$b"
cat >"$b/asm.S" <<'S'
	.text
	.globl asm_twice
	.type asm_twice, @function
asm_twice:
	lea (%rdi,%rdi), %rax
	ret
	.size asm_twice, .-asm_twice
	.globl asm_hook
	.type asm_hook, @function
asm_hook:
	xor %eax, %eax
	ret
	.size asm_hook, .-asm_hook
	.data
	.globl hooks
hooks:
	.quad asm_hook
S
cat >"$b/protos.c" <<'C'
typedef long (*num_fn)(long);
typedef void (*quiet_fn)(void);

long asm_twice(long x);
extern void *hooks[];

static int calls;
__attribute__((noinline)) long thrice(long x) { return 3 * x; }
__attribute__((noinline)) void quiet(void) { calls++; }

void *slots[] = { asm_twice, thrice, quiet, 0 };

__attribute__((noinline)) num_fn pick_num(int i) { return (num_fn)slots[i]; }
__attribute__((noinline)) quiet_fn pick_quiet(int i) { return (quiet_fn)(i ? hooks[0] : slots[2]); }

__attribute__((noinline)) long do_num(int i) { return pick_num(i)(21); }
__attribute__((noinline)) void do_quiet(int i) { pick_quiet(i)(); }

int main(int argc, char **argv)
{
	(void)argv;
	do_quiet(argc - 1);
	do_quiet(argc);
	return (int)(do_num(argc - 1) + do_num(argc)) + calls > 1000;
}
C
cp tests/oracle/icall_trace.c "$b/"
(
	cd "$b" &&
	gcc -O2 -g -fno-pie -no-pie -o protos protos.c asm.S &&
	gcc -O2 -g -fno-pie -finstrument-functions -c protos.c &&
	gcc -O2 -g -fno-pie -c icall_trace.c asm.S &&
	gcc -no-pie -o traced protos.o asm.o icall_trace.o
) >"$OUT/build.log" 2>&1 || { fail "cannot build: $(head -3 "$OUT/build.log")"; finish; exit; }
readelf --debug-dump=info "$b/protos" 2>/dev/null | grep -q "DW_AT_name.*asm_twice" ||
	skip "the assembler writes no DWARF for asm_twice"

run_sp --json --indirect=types --no-libs "$b/protos"
expect_rc 0 "--indirect=types"
j=$OUT/protos.json
cp "$OUT/stdout" "$j"
expect_eq "do_num" "$(icall_sites "$j" do_num)" \
	'[["prototype", "long int(long int)", ["asm_hook", "asm_twice", "thrice"]]]'
expect_eq "do_quiet" "$(icall_sites "$j" do_quiet)" \
	'[["prototype", "void()", ["asm_hook", "quiet"]]]'
icall_traced 2
finish
