#!/bin/sh
# --indirect=types follows a callback passed as an argument: a call
# through a parameter reaches what every caller passes there, as GCC's
# DW_TAG_call_site_parameter values say, through callers that pass
# their own argument on.  From the source below:
#
#   run       argument: on_a (main), on_b (main -> relay -> run); the
#             NULL main passes makes no call
#   later     argument: main passes a word of table[], which no code
#             writes: its words, on_c and on_d (t1215)
#   spread    prototype: its address is taken, its callers are not all seen
#   timer_fire field struct timer.fire: timer_arm stores its argument
#             there, main passes on_t
#
# And a build with -finstrument-functions (where GCC writes fewer call
# values) is traced: every pair a run takes must be among the site's
# targets (tests/e2e/icall_check.py).
. tests/e2e/lib.sh
[ "$(uname -m)" = x86_64 ] || skip "the instruction pass is x86-64's"
command -v gcc >/dev/null || skip "no gcc"

b=$OUT/build
mkdir -p "$b"
cp tests/oracle/icall_trace.c "$b/"
cat >"$b/args.c" <<'C'
struct timer { void (*fire)(struct timer *t); int n; };
typedef void (*cb_t)(struct timer *);
#define NOIPA __attribute__((noipa))
NOIPA void on_a(struct timer *t) { t->n++; }
NOIPA void on_b(struct timer *t) { t->n += 2; }
NOIPA void on_c(struct timer *t) { t->n += 3; }
NOIPA void on_d(struct timer *t) { t->n += 4; }
NOIPA void on_e(struct timer *t) { t->n += 5; }
NOIPA void on_t(struct timer *t) { t->n += 6; }
NOIPA void run(cb_t cb, struct timer *t) { if (cb) cb(t); t->n *= 2; }
NOIPA void relay(cb_t cb, struct timer *t) { run(cb, t); t->n--; }
NOIPA void later(cb_t cb, struct timer *t) { cb(t); t->n -= 3; }
NOIPA void spread(cb_t cb, struct timer *t) { cb(t); t->n += 7; }
NOIPA void timer_arm(struct timer *t, cb_t fire) { t->fire = fire; t->n = 0; }
NOIPA void timer_fire(struct timer *t) { t->fire(t); }
cb_t table[2] = { on_c, on_d };
void (*volatile hook)(cb_t, struct timer *) = spread;
int main(int argc, char **argv)
{
	struct timer t = { 0, 0 };
	(void)argv;
	run(on_a, &t);
	relay(on_b, &t);
	if (argc > 5)
		run(0, &t);
	later(table[argc & 1], &t);
	hook(on_e, &t);
	timer_arm(&t, on_t);
	timer_fire(&t);
	return t.n & 1;
}
C
(
	cd "$b" &&
	gcc -O2 -g -fno-pie -no-pie -o args args.c &&
	gcc -O2 -g -fno-pie -finstrument-functions -c args.c &&
	gcc -O2 -g -fno-pie -c icall_trace.c &&
	gcc -no-pie -o traced args.o icall_trace.o
) >"$OUT/build.log" 2>&1 || { fail "cannot build: $(head -3 "$OUT/build.log")"; finish; exit; }
# the values this test is about: GCC wrote them
objdump --dwarf=info "$b/args" | grep -q "DW_AT_call_value.*DW_OP_entry_value" ||
	skip "gcc wrote no DW_OP_entry_value call values"

run_sp --json --indirect=types "$b/args"
expect_rc 0 "--indirect=types"
j=$OUT/args.json
cp "$OUT/stdout" "$j"
site()
{
	jget "$j" "[[s['resolved_by'], s['type'], sorted(s['targets'])] for s in j['indirect_calls'] if s['function'] == '$1']"
}
expect_eq "run" "$(site run)" '[["argument", "void(struct timer*)", ["on_a", "on_b"]]]'
expect_eq "later" "$(site later)" '[["argument", "void(struct timer*)", ["on_c", "on_d"]]]'
expect_eq "spread" "$(site spread)" \
	'[["prototype", "void(struct timer*)", ["on_a", "on_b", "on_c", "on_d", "on_e", "on_t"]]]'
expect_eq "timer_fire" "$(site timer_fire)" '[["field", "struct timer.fire", ["on_t"]]]'
ICALL_TRACE=$OUT/trace.txt "$b/traced" >/dev/null 2>&1
run_sp --json --indirect=types "$b/traced"
expect_rc 0 "--indirect=types, traced"
cp "$OUT/stdout" "$OUT/traced.json"
icall_pairs "$b/traced" "$OUT/traced.json" 6
finish
