#!/bin/sh
# An address the code only compares (`cmp $f,%rdi`, `if (fn == f)`) is
# not taken: a compare writes the flags alone, so the address goes
# nowhere a call could load it from (insn/addrload.c).  The kernel's
# get_trap_addr() compares with early_idt_handler_common's address.
#
#   do_quiet  void (*)(void): quiet and kept (stored in slots[]); not
#             only_cmp, whose address is_only compares and no data or
#             instruction else holds; kept is compared too and stays
#
# Both modes: --indirect=address-taken's set, and a prototype site of
# --indirect=types.
. tests/e2e/lib.sh
[ "$(uname -m)" = x86_64 ] || skip "the instruction pass is x86-64's"
command -v gcc >/dev/null || skip "no gcc"

b=$OUT/build
mkdir -p "$b"
cat >"$b/cmp.c" <<'C'
typedef void (*quiet_fn)(void);
static int calls;
__attribute__((noinline)) void quiet(void) { calls++; }
__attribute__((noinline)) void kept(void) { calls += 2; }
__attribute__((noinline)) void only_cmp(void) { calls += 3; }
void *slots[] = { quiet, kept };
__attribute__((noinline)) int is_only(quiet_fn f) { return f == only_cmp || f == kept; }
__attribute__((noinline)) quiet_fn pick(int i) { return (quiet_fn)slots[i & 1]; }
__attribute__((noinline)) void do_quiet(int i) { pick(i)(); }
int main(int argc, char **argv)
{
	(void)argv;
	do_quiet(argc);
	only_cmp();
	return is_only(pick(argc)) + calls > 1000;
}
C
(
	cd "$b" && gcc -O2 -g -fno-pie -no-pie -o cmp cmp.c
) >"$OUT/build.log" 2>&1 || { fail "cannot build: $(head -3 "$OUT/build.log")"; finish; exit; }
objdump -d "$b/cmp" | grep -A8 "<is_only>:" | grep -q "cmp .*\$0x[0-9a-f]*,%rdi" ||
	skip "gcc compares only_cmp's address some other way"

run_sp --json --indirect=types --no-libs "$b/cmp"
expect_rc 0 "--indirect=types"
expect_eq "do_quiet" \
	"$(jget "$OUT/stdout" "[[s['resolved_by'], sorted(s['targets'] or [])] for s in j['indirect_calls'] if s['function'] == 'do_quiet']")" \
	'[["prototype", ["kept", "quiet"]]]'
run_sp -v --indirect=address-taken --no-libs "$b/cmp"
expect_rc 0 "--indirect=address-taken"
grep -q '^stackprof: 3 address-taken functions,' "$OUT/stderr" ||
	fail "address-taken: $(grep 'address-taken functions' "$OUT/stderr")"
finish
