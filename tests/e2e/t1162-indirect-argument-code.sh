#!/bin/sh
# --indirect=types: a callback passed as an argument whose call site
# DWARF does not describe (GCC writes no DW_TAG_call_site_parameter
# without -fvar-tracking-assignments, nor for many of the kernel's
# constants): the constant the caller's code loads into the register
# just before the call or tail jump is the value (insn/callargs.c).
#
#   walk   argument: cb_a (tail_a's lea before its jmp), cb_b (call_b's
#          lea before its call)
#   walk2  argument: from_table passes a word of table[], which no
#          constant gives: the functions table[]'s words hold, cb_c and
#          cb_d (no code writes it: t1215)
. tests/e2e/lib.sh
[ "$(uname -m)" = x86_64 ] || skip "the instruction pass is x86-64's"
command -v gcc >/dev/null || skip "no gcc"

cat >"$OUT/code.c" <<'C'
struct dev { int state; };
#define NOIPA __attribute__((noipa))
NOIPA int cb_a(struct dev *d) { return d->state + 1; }
NOIPA int cb_b(struct dev *d) { return d->state + 2; }
NOIPA int cb_c(struct dev *d) { return d->state + 3; }
NOIPA int cb_d(struct dev *d) { return d->state + 4; }
int (*table[2])(struct dev *) = { cb_c, cb_d };
NOIPA static int walk(struct dev *d, int (*fn)(struct dev *)) { return fn(d) * 2; }
NOIPA static int walk2(struct dev *d, int (*fn)(struct dev *)) { return fn(d) * 3; }
NOIPA int tail_a(struct dev *d) { return walk(d, cb_a); }
NOIPA int call_b(struct dev *d) { return walk(d, cb_b) + 1; }
NOIPA int from_table(struct dev *d, int i) { return walk2(d, table[i & 1]) + 1; }
int main(int argc, char **argv)
{
	struct dev d = { argc };

	(void)argv;
	return tail_a(&d) + call_b(&d) + from_table(&d, argc);
}
C
gcc -O2 -g -fno-var-tracking-assignments -o "$OUT/code" "$OUT/code.c" || fail "gcc"
readelf --debug-dump=info "$OUT/code" | grep -q "DW_TAG_call_site_parameter" &&
	skip "GCC wrote call site values: nothing for the code to say"

run_sp --json --indirect=types "$OUT/code"
expect_rc 0 "the program"
expect_eq "sites" \
	"$(jget "$OUT/stdout" "sorted([s['function'], s['resolved_by'], sorted(s['targets'])] for s in j['indirect_calls'] if s['file'].endswith('code.c'))")" \
	'[["walk", "argument", ["cb_a", "cb_b"]], ["walk2", "argument", ["cb_c", "cb_d"]]]'
finish
