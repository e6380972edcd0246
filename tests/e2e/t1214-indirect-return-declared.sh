#!/bin/sh
# --indirect=types types a call's return value by the callee's
# declaration in the caller's unit when the callee is defined in another
# unit: the call's DWARF call site (DW_TAG_call_site, by its return
# address) names that declaration (DW_AT_call_origin), whose type C makes
# compatible with the definition's.  Only a pointer to a struct: a
# void * says less than a variable DWARF may locate the value in.
#
#   run_holder  get_holder(x)->ops->run, get_holder() in rb.c returning
#               a struct holder *: field struct ops.run: f_a, f_b
#   run_any     ((struct holder *)get_any(x))->ops->run, get_any()
#               returning a void *: every address-taken function
#
# A build with -finstrument-functions is traced: every pair a run takes
# must be among the site's targets (tests/e2e/icall_check.py).
. tests/e2e/lib.sh
[ "$(uname -m)" = x86_64 ] || skip "the instruction pass is x86-64's"
command -v gcc >/dev/null || skip "no gcc"

b=$OUT/build
mkdir -p "$b"
cat >"$b/ra.c" <<'C'
struct ops { int (*run)(long); };
struct holder { long n; const struct ops *ops; };
struct holder *get_holder(long k);
void *get_any(long k);
#define NOIPA __attribute__((noipa))
long total;
NOIPA int run_holder(long x) { return get_holder(x)->ops->run(x); }
NOIPA int run_any(long x) { return ((struct holder *)get_any(x))->ops->run(x); }
int (*volatile hook)(long);
int main(int argc, char **argv)
{
	(void)argv;
	run_holder(argc);
	run_any(argc + 1);
	return hook ? hook(1) : (int)(total & 1);
}
C
cat >"$b/rb.c" <<'C'
struct ops { int (*run)(long); };
struct holder { long n; const struct ops *ops; };
#define NOIPA __attribute__((noipa))
extern long total;
NOIPA int f_a(long c) { total += c; return 1; }
NOIPA int f_b(long c) { total -= c; return 2; }
NOIPA int f_c(long c) { total ^= c; return 3; }
static const struct ops ops_a = { f_a }, ops_b = { f_b };
static struct holder h[2] = { { 0, &ops_a }, { 1, &ops_b } };
extern int (*volatile hook)(long);
NOIPA struct holder *get_holder(long k) { return &h[k & 1]; }
NOIPA void *get_any(long k) { if (k > 9) hook = f_c; return &h[k & 1]; }
C
# icall_build's, of two units
cp tests/oracle/icall_trace.c "$b/"
(
	cd "$b" &&
	gcc -O2 -g -fno-pie -no-pie -o rt ra.c rb.c &&
	gcc -O2 -g -fno-pie -finstrument-functions -c ra.c rb.c &&
	gcc -O2 -g -fno-pie -c icall_trace.c &&
	gcc -no-pie -o traced ra.o rb.o icall_trace.o
) >"$OUT/build.log" 2>&1 || { fail "cannot build: $(head -3 "$OUT/build.log")"; finish; exit; }
# what this test is about: the member loaded straight from the return
# value, and call sites that name the callee's declaration
objdump -d --no-show-raw-insn "$b/rt" | awk '/<run_holder>:/,/jmp/' | grep -q 'call.*<get_holder>' ||
	skip "gcc made no call of get_holder in run_holder"
readelf --debug-dump=info "$b/rt" 2>/dev/null | grep -q 'DW_AT_call_origin' ||
	skip "gcc wrote no DW_AT_call_origin"

run_sp --json --indirect=types --no-libs "$b/rt"
expect_rc 0 "--indirect=types"
j=$OUT/rt.json
cp "$OUT/stdout" "$j"
expect_eq "run_holder" "$(icall_sites "$j" run_holder)" '[["field", "struct ops.run", ["f_a", "f_b"]]]'
expect_eq "run_any" "$(icall_sites "$j" run_any)" '[["address-taken", null, []]]'
icall_traced 2
finish
