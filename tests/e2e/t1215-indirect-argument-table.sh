#!/bin/sh
# --indirect=types: a caller passes a word it loads from a table at a
# fixed address (the kernel's tracing_set_clock():
# ring_buffer_set_clock(buf, trace_clocks[i].func), the table a static
# array of an anonymous struct no code writes).  The value is one of the
# functions the table's words and its stores hold, as a call through the
# table finds them (indirect/args.c, sites.c ind_load_targets).  Or a
# member it loads through a typed pointer (proc_single_open()'s
# single_open(file, PDE(inode)->single_show, ...)): what the member
# holds (ind_member_load), a flow into the member the argument is
# stored in.
#
#   ring_read  field struct ring.clock: ring_init's constant clk_local,
#              and ring_set_clock's argument, what set_clock passes: a
#              word of clocks[] (clk_local, clk_global, clk_count), and
#              what set_from passes: src->get (struct src.get, which
#              only the initialised src_a holds, clk_member)
#   use_m      argument: what by_member passes, h->get (struct src.get)
#   use_w      prototype: by_wide passes w->get, struct wide.get, which
#              wide_put writes with its own argument (of unknown origin:
#              wide_put's address is taken); stays wide
#   use_hook   prototype: set_hook passes a word of hooks[], which
#              hook_put writes with its own argument (of unknown origin:
#              hook_put's address is taken); stays wide
#   use_op     prototype: set_op passes a word of ops[], a writable
#              table of struct op, which a store through a struct op *
#              may write too; stays wide
#
# And a build with -finstrument-functions is traced: every pair a run
# takes must be among the site's targets (tests/e2e/icall_check.py).
. tests/e2e/lib.sh
[ "$(uname -m)" = x86_64 ] || skip "the instruction pass is x86-64's"
command -v gcc >/dev/null || skip "no gcc"

b=$OUT/build
mkdir -p "$b"
cp tests/oracle/icall_trace.c "$b/"
cat >"$b/tbl.c" <<'C'
typedef unsigned long long u64;
#define NOIPA __attribute__((noipa))
struct ring { u64 (*clock)(void); int n; };
struct op { u64 (*fn)(void); int id; };
NOIPA u64 clk_local(void) { return 1; }
NOIPA u64 clk_global(void) { return 2; }
NOIPA u64 clk_count(void) { return 3; }
NOIPA u64 hk_a(void) { return 4; }
NOIPA u64 hk_b(void) { return 5; }
NOIPA u64 op_a(void) { return 6; }
NOIPA u64 other(void) { return 7; }
NOIPA u64 clk_member(void) { return 8; }
struct src { u64 (*get)(void); int n; };
struct wide { u64 (*get)(void); int n; };
struct src src_a = { clk_member, 1 };
struct wide wide_a;
static struct {
	u64 (*func)(void);
	const char *name;
	int in_ns;
} clocks[] = {
	{ clk_local, "local", 1 },
	{ clk_global, "global", 1 },
	{ clk_count, "counter", 0 },
};
static u64 (*hooks[2])(void) = { hk_a, hk_b };
struct op ops[2] = { { op_a, 1 }, { op_a, 2 } };
NOIPA void ring_init(struct ring *r) { r->clock = clk_local; r->n = 0; }
NOIPA void ring_set_clock(struct ring *r, u64 (*clock)(void)) { r->clock = clock; }
NOIPA u64 ring_read(struct ring *r) { return r->clock() + (u64)r->n; }
NOIPA void set_clock(struct ring *r, int i) { ring_set_clock(r, clocks[i % 3].func); }
NOIPA u64 use_hook(u64 (*h)(void)) { return h() * 2; }
NOIPA u64 set_hook(int i) { return use_hook(hooks[i & 1]) + 1; }
NOIPA void hook_put(u64 (*h)(void)) { hooks[1] = h; }
void (*volatile put)(u64 (*)(void)) = hook_put;
NOIPA u64 use_op(u64 (*f)(void)) { return f() * 3; }
NOIPA u64 set_op(int i) { return use_op(ops[i & 1].fn) + 1; }
NOIPA void op_put(struct op *o, u64 (*f)(void)) { o->fn = f; }
void (*volatile oput)(struct op *, u64 (*)(void)) = op_put;
NOIPA void set_from(struct ring *r, struct src *h) { ring_set_clock(r, h->get); }
NOIPA u64 use_m(u64 (*f)(void)) { return f() * 5; }
NOIPA u64 by_member(struct src *h) { return use_m(h->get) + 1; }
NOIPA void wide_put(struct wide *w, u64 (*f)(void)) { w->get = f; }
void (*volatile wput)(struct wide *, u64 (*)(void)) = wide_put;
NOIPA u64 use_w(u64 (*f)(void)) { return f() * 7; }
NOIPA u64 by_wide(struct wide *w) { return use_w(w->get) + 1; }
int main(int argc, char **argv)
{
	struct ring r;

	(void)argv;
	ring_init(&r);
	set_clock(&r, argc);
	if (argc > 3)
		set_from(&r, &src_a);
	put(other);
	oput(&ops[1], other);
	wput(&wide_a, other);
	return (int)(ring_read(&r) + set_hook(argc) + set_op(argc) + by_member(&src_a) +
		     by_wide(&wide_a)) & 1;
}
C
(
	cd "$b" &&
	gcc -O2 -g -fno-pie -no-pie -o tbl tbl.c &&
	gcc -O2 -g -fno-pie -finstrument-functions -c tbl.c &&
	gcc -O2 -g -fno-pie -c icall_trace.c &&
	gcc -no-pie -o traced tbl.o icall_trace.o
) >"$OUT/build.log" 2>&1 || { fail "cannot build: $(head -3 "$OUT/build.log")"; finish; exit; }
# the load this test is about: set_clock's mov clocks(,%rax,8)
objdump -d "$b/tbl" | grep -A12 "<set_clock>:" | grep -q "mov.*(,%r[a-z0-9]*,8),%r" ||
	skip "gcc loads clocks[] some other way"

run_sp --json --indirect=types "$b/tbl"
expect_rc 0 "--indirect=types"
j=$OUT/tbl.json
cp "$OUT/stdout" "$j"
site()
{
	jget "$j" "[[s['resolved_by'], s['type'], sorted(s['targets'])] for s in j['indirect_calls'] if s['function'] == '$1']"
}
expect_eq "ring_read" "$(site ring_read)" \
	'[["field", "struct ring.clock", ["clk_count", "clk_global", "clk_local", "clk_member"]]]'
expect_eq "use_m" "$(site use_m)" '[["argument", "long long unsigned int()", ["clk_member"]]]'
wide='["clk_count", "clk_global", "clk_local", "clk_member", "hk_a", "hk_b", "op_a", "other"]'
expect_eq "use_hook" "$(site use_hook)" "[[\"prototype\", \"long long unsigned int()\", $wide]]"
expect_eq "use_op" "$(site use_op)" "[[\"prototype\", \"long long unsigned int()\", $wide]]"
expect_eq "use_w" "$(site use_w)" "[[\"prototype\", \"long long unsigned int()\", $wide]]"
ICALL_TRACE=$OUT/trace.txt "$b/traced" >/dev/null 2>&1
run_sp --json --indirect=types "$b/traced"
expect_rc 0 "--indirect=types, traced"
cp "$OUT/stdout" "$OUT/traced.json"
icall_pairs "$b/traced" "$OUT/traced.json" 8
finish
