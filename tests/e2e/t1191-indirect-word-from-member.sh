#!/bin/sh
# --indirect=types: a global function pointer set from an ops struct's
# member (the kernel's ftrace_graph_return = gops->retfunc) holds what
# that member holds, besides its own initialiser and the constants
# stored there:
#
#   fire      the word "graph_ret": stub, plain_ret, thresh_ret (the
#             members' initialisers), not the prototype's decoy
#   fire_any  the word "any_ret", set from a member some code writes with
#             pick()'s return (a value of unknown origin): the prototype
#             fallback stays, decoy among the targets
#
# A build with -finstrument-functions is traced: every pair a run takes
# must be among the site's targets (tests/e2e/icall_check.py).
. tests/e2e/lib.sh
[ "$(uname -m)" = x86_64 ] || skip "the instruction pass is x86-64's"
command -v gcc >/dev/null || skip "no gcc"

b=$OUT/build
mkdir -p "$b"
cat >"$b/word.c" <<'C'
#define NOIPA __attribute__((noipa))
struct gops { long (*entry)(long); long (*ret)(long); };
struct wide { long (*ret)(long); };
NOIPA long stub(long v) { return v; }
NOIPA long plain_ret(long v) { return v + 1; }
NOIPA long thresh_ret(long v) { return v + 2; }
NOIPA long enter(long v) { return v * 2; }
NOIPA long decoy(long v) { return v - 3; }
NOIPA long other(long v) { return v - 4; }
static struct gops plain = { enter, plain_ret };
static struct gops thresh = { enter, thresh_ret };
long (*volatile decoys[])(long) = { decoy };
long (*graph_ret)(long) = stub;
long (*any_ret)(long) = stub;
struct wide w = { stub };
NOIPA long (*pick(long v))(long) { return v > 8 ? decoys[0] : other; }
NOIPA void reg(struct gops *g) { graph_ret = g->ret; }
NOIPA void unreg(void) { graph_ret = stub; }
NOIPA void set_wide(struct wide *p, long v) { p->ret = pick(v); }
NOIPA void reg_wide(struct wide *p) { any_ret = p->ret; }
NOIPA long fire(long v) { return graph_ret(v); }
NOIPA long fire_any(long v) { return any_ret(v); }
int main(int argc, char **argv)
{
	long s;

	(void)argv;
	reg(argc > 2 ? &thresh : &plain);
	s = fire(argc);
	unreg();
	s += fire(argc);
	set_wide(&w, argc + 9);
	reg_wide(&w);
	s += fire_any(argc);
	return (int)(s + decoys[0](1)) & 1;
}
C
icall_build word || { finish; exit; }

run_sp --json --indirect=types --no-libs "$b/word"
expect_rc 0 "--indirect=types"
j=$OUT/word.json
cp "$OUT/stdout" "$j"
expect_eq "fire" "$(icall_sites "$j" fire)" \
	'[["table", "graph_ret", ["plain_ret", "stub", "thresh_ret"]]]'
expect_eq "fire_any" "$(jget "$j" "[(s['resolved_by'], 'decoy' in s['targets']) for s in j['indirect_calls'] if s['function'] == 'fire_any']")" \
	'[["prototype", true]]'
icall_traced 4
finish
