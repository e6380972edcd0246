#!/bin/sh
# --indirect=types types a store into a struct on the stack by DWARF's
# location of the local (DW_OP_fbreg, the frame base the CFA): with_fn
# fills a local struct job with its callback argument, with_unknown a
# struct task with what a call returned, and each hands its address to
# a function that calls through the member.  So
#
#   run_job   field struct job.fn: f_a, f_b (what with_fn's callers
#             pass: its local's member gets its argument's values)
#   run_task  prototype: a value of unknown origin is written into
#             struct task.fn, which must not narrow to f_d, the one
#             constant the data holds (choose returns f_c)
#
# The same with a frame pointer (stores through rbp).  A build with
# -finstrument-functions is traced: every pair a run takes must be among
# the site's targets (tests/e2e/icall_check.py).
. tests/e2e/lib.sh
[ "$(uname -m)" = x86_64 ] || skip "the instruction pass is x86-64's"
command -v gcc >/dev/null || skip "no gcc"

b=$OUT/build
mkdir -p "$b"
cat >"$b/frame.c" <<'C'
#define NOIPA __attribute__((noipa))
struct job { long arg; long (*fn)(long); };
struct task { long arg; long (*fn)(long); };
NOIPA long f_a(long x) { return x + 1; }
NOIPA long f_b(long x) { return x * 2; }
NOIPA long f_c(long x) { return x - 3; }
NOIPA long f_d(long x) { return x ^ 5; }
NOIPA long run_job(struct job *j) { return j->fn(j->arg); }
NOIPA long run_task(struct task *t) { return t->fn(t->arg); }
NOIPA static long with_fn(long (*fn)(long), long arg)
{
	struct job j = { .arg = arg, .fn = fn };

	return run_job(&j) + 1;
}
NOIPA long (*choose(long a))(long) { return a > 5 ? f_c : f_b; }
NOIPA long with_unknown(long arg)
{
	struct task t = { .arg = arg, .fn = choose(arg) };

	return run_task(&t) + 1;
}
static struct task dflt = { 1, f_d };
long (*volatile keep)(long) = f_d;
int main(int argc, char **argv)
{
	long n = with_fn(f_a, argc) + with_fn(f_b, 2);

	(void)argv;
	n += run_task(&dflt) + with_unknown(argc + 7);
	return (int)(n & 1);
}
C
icall_build frame || { finish; exit; }
# what this test is about: the locals are at the frame base plus an offset
objdump --dwarf=info "$b/frame" 2>/dev/null | grep -q "DW_OP_call_frame_cfa" ||
	skip "gcc's frame base is not the CFA"

check()
{
	run_sp --json --indirect=types --no-libs "$1"
	expect_rc 0 "--indirect=types $1"
	cp "$OUT/stdout" "$OUT/frame.json"
	expect_eq "run_job $1" "$(icall_sites "$OUT/frame.json" run_job)" \
		'[["field", "struct job.fn", ["f_a", "f_b"]]]'
	expect_eq "run_task $1" "$(jget "$OUT/frame.json" "[(s['resolved_by'], 'f_c' in s['targets'], 'f_d' in s['targets']) for s in j['indirect_calls'] if s['function'] == 'run_task']")" \
		'[["prototype", true, true]]'
}
check "$b/frame"
icall_traced 4
(cd "$b" && gcc -O2 -g -fno-pie -no-pie -fno-omit-frame-pointer -o frame-fp frame.c) ||
	fail "cannot build with a frame pointer"
check "$b/frame-fp"
finish
