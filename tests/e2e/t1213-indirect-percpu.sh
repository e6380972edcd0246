#!/bin/sh
# --indirect=types types a load from this CPU's per-cpu area (x86-64's
# mov %gs:OFF,%reg: the kernel's this_cpu_read(var), current's
# this_cpu_read(current_task)) by the variable at OFF in .data..percpu,
# as a global's word: each CPU's copy holds a value of its type.  The
# value is kept in an integer, as the kernel's percpu_from_op() does, so
# no pointer variable DWARF locates types it instead.
#
#   run_cur    this_cpu_read(cur_task)->ops->run: field struct ops.run:
#              f_a, f_b
#   run_fn     a call through the per-cpu word itself (this_cpu_write()s
#              are no stores the pass reads): every address-taken function
#   run_plain  a %gs read of a variable outside .data..percpu: every
#              address-taken function
#
# A process's %gs base is 0, so the build runs; with -finstrument-functions
# it is traced: every pair a run takes must be among the site's targets.
. tests/e2e/lib.sh
[ "$(uname -m)" = x86_64 ] || skip "the instruction pass is x86-64's"
command -v gcc >/dev/null || skip "no gcc"

b=$OUT/build
mkdir -p "$b"
cat >"$b/pc.c" <<'C'
struct ops { int (*run)(long); };
struct task { long state; const struct ops *ops; };
#define NOIPA __attribute__((noipa))
#define PERCPU __attribute__((section(".data..percpu")))
#define this_cpu_word(var) ({ unsigned long w__; \
	__asm__ volatile("mov %%gs:%c1,%0" : "=r"(w__) : "i"(&(var))); w__; })
long total;
NOIPA int f_a(long c) { total += c; return 1; }
NOIPA int f_b(long c) { total -= c; return 2; }
NOIPA int f_c(long c) { total ^= c; return 3; }
NOIPA int f_d(long c) { total |= c; return 4; }
static const struct ops ops_a = { f_a }, ops_b = { f_b };
struct task t0 = { 0, &ops_a }, t1 = { 1, &ops_b };
PERCPU struct task *cur_task = &t0;
PERCPU int (*cur_fn)(long) = f_c;
struct task *plain_task = &t1;
int (*volatile hook)(long) = f_d;
NOIPA int run_cur(long x) { return ((struct task *)this_cpu_word(cur_task))->ops->run(x); }
NOIPA int run_fn(long x) { return ((int (*)(long))this_cpu_word(cur_fn))(x); }
NOIPA int run_plain(long x) { return ((struct task *)this_cpu_word(plain_task))->ops->run(x); }
int main(int argc, char **argv)
{
	(void)argv;
	if (argc > 1)
		cur_task = &t1;
	run_cur(1);
	run_fn(2);
	run_plain(3);
	hook(4);
	return (int)(total & 1);
}
C
# icall_build's, with .data..percpu an output section of its own (the
# kernel's linker script makes it one; ld's default folds .data.* into
# .data)
cp tests/oracle/icall_trace.c "$b/"
(
	cd "$b" &&
	gcc -O2 -g -fno-pie -no-pie -Wl,--unique=.data..percpu -o pc pc.c &&
	gcc -O2 -g -fno-pie -finstrument-functions -c pc.c &&
	gcc -O2 -g -fno-pie -c icall_trace.c &&
	gcc -no-pie -Wl,--unique=.data..percpu -o traced pc.o icall_trace.o
) >"$OUT/build.log" 2>&1 || { fail "cannot build: $(head -3 "$OUT/build.log")"; finish; exit; }
# what this test is about: the per-cpu section and the %gs loads
objdump -h "$b/pc" | grep -q ' \.data\.\.percpu ' || skip "ld made no .data..percpu"
[ "$(objdump -d --no-show-raw-insn "$b/pc" | grep -c 'mov  *%gs:0x')" -ge 3 ] ||
	skip "gcc read the per-cpu words otherwise"

run_sp --json --indirect=types --no-libs "$b/pc"
expect_rc 0 "--indirect=types"
j=$OUT/pc.json
cp "$OUT/stdout" "$j"
expect_eq "run_cur" "$(icall_sites "$j" run_cur)" '[["field", "struct ops.run", ["f_a", "f_b"]]]'
expect_eq "run_fn" "$(icall_sites "$j" run_fn)" '[["address-taken", null, []]]'
expect_eq "run_plain" "$(icall_sites "$j" run_plain)" '[["address-taken", null, []]]'
icall_traced 4
finish
