#!/bin/sh
# --indirect=types types a register no path has written since the
# function began (an argument) by what DWARF locates in it at the
# function's first instruction.  run_job copies j to rbx at once and
# tests j->flags through rdi; on the path to `out' it still loads
# j->cleanup through rdi, but GCC's location list names only rbx there
# (rdi up to the first call, rbx after it): asked at the load, DWARF says
# nothing of rdi, and the call fell back to every address-taken function.
#
#   run_job  field struct job.init: i1; field struct job.cleanup: c1, c2
#
# A build with -finstrument-functions is traced: every pair a run takes
# must be among the site's targets (tests/e2e/icall_check.py).
. tests/e2e/lib.sh
[ "$(uname -m)" = x86_64 ] || skip "the instruction pass is x86-64's"
command -v gcc >/dev/null || skip "no gcc"

b=$OUT/build
mkdir -p "$b"
cat >"$b/entry.c" <<'C'
struct job {
	const char *path;
	long n, flags;
	void (*init)(struct job *j);
	void (*cleanup)(struct job *j);
};
#define NOIPA __attribute__((noipa))
NOIPA void c1(struct job *j) { j->n++; }
NOIPA void c2(struct job *j) { j->n += 2; }
NOIPA void i1(struct job *j) { j->n += 3; }
NOIPA long work(const char *p, long n) { return n + (p != 0); }
NOIPA long wait_for(long *x) { return *x; }
NOIPA long run_job(struct job *j, int wait)
{
	long ret = 0, slot;

	if (!j->flags)
		goto out;
	if (j->init)
		j->init(j);
	slot = work(j->path, j->n);
	if (wait)
		ret = wait_for(&slot);
	ret += work(j->path, ret);
	return ret;
out:
	if (j->cleanup)
		j->cleanup(j);
	return -1;
}
static struct job a = { "x", 0, 1, i1, c1 }, b = { 0, 0, 0, 0, c2 };
int main(int argc, char **argv)
{
	(void)argv;
	return (int)(run_job(argc > 1 ? &a : &b, argc) + run_job(&a, 0)) & 1;
}
C
icall_build entry || { finish; exit; }
# what this test is about: j->cleanup loaded through rdi, where the
# location list of j names rbx
objdump -d --no-show-raw-insn "$b/entry" | awk '/<run_job>:/, /^$/' >"$OUT/run_job.s"
grep -q 'mov  *%rdi,%rbx$' "$OUT/run_job.s" &&
	grep -q 'mov  *0x20(%rdi),%rax$' "$OUT/run_job.s" ||
	skip "gcc did not load j->cleanup through rdi"
pc=$(awk '/mov  *0x20\(%rdi\),%rax$/ { sub(":", "", $1); print $1; exit }' "$OUT/run_job.s")
readelf --debug-dump=loc "$b/entry" 2>/dev/null >"$OUT/loc.txt"
python3 - "$OUT/loc.txt" "$pc" <<'PY' || skip "j's locations name rdi at the load"
import re, sys
pc = int(sys.argv[2], 16)
for line in open(sys.argv[1]):
    m = re.match(r'\s+([0-9a-f]{16}) ([0-9a-f]{16}) \(DW_OP_reg(\d+)', line)
    if m and int(m.group(1), 16) <= pc < int(m.group(2), 16) and m.group(3) == '5':
        sys.exit(1)
PY

run_sp --json --indirect=types --no-libs "$b/entry"
expect_rc 0 "--indirect=types"
j=$OUT/entry.json
cp "$OUT/stdout" "$j"
expect_eq "run_job" "$(icall_sites "$j" run_job)" \
	'[["field", "struct job.init", ["i1"]], ["field", "struct job.cleanup", ["c1", "c2"]]]'
icall_traced 2
finish
