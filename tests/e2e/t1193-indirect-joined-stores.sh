#!/bin/sh
# --indirect=types: a store whose value two paths bring, a constant on
# one and a load from another object on the other, the store itself
# shared (GCC -Os, as the kernel's -O2 with its return thunks, joins
# them).  Each path is a store of its own: the constant, and the load
# as a copy of what that object holds.
#
#   graph_enter   graph_entry, set by update_graph_func() (the kernel's
#                 update_function_graph_func()) to entry_test or to the
#                 word __graph_entry, which reg_graph() sets from a
#                 struct gops member: table, entry_stub (both words'
#                 initialiser), entry_test, trace_entry,
#                 trace_entry_irqs; not decoy
#   neigh_output  struct neigh.output, set by neigh_update() to
#                 out_direct or to n->ops->output (neigh_connect()):
#                 field, out_direct and the struct nops members'
#                 out_resolve and out_connected
#
# A NULL main's local gets through a register zeroed a few instructions
# before the store is no value of unknown origin.  A traced build's pairs
# must be among the sites' targets (tests/e2e/icall_check.py).
. tests/e2e/lib.sh
[ "$(uname -m)" = x86_64 ] || skip "the instruction pass is x86-64's"
command -v gcc >/dev/null || skip "no gcc"

b=$OUT/build
mkdir -p "$b"
cp tests/oracle/icall_trace.c "$b/"
cat >"$b/joined.c" <<'C'
#include <stdbool.h>
struct ops { struct ops *next; };
typedef int (*entry_fn)(int);

struct ops list_end, global_ops, graph_ops;
struct ops *ops_list = &list_end;

int entry_stub(int x) { return x & 0; }
int trace_entry(int x) { return x + 1; }
int trace_entry_irqs(int x) { return x + 2; }
int decoy(int x) { return x * 7; }

entry_fn __graph_entry = entry_stub;
entry_fn graph_entry = entry_stub;
entry_fn decoys[] = { decoy };
struct gops { entry_fn entryfunc; int flags; };
struct gops plain_gops = { trace_entry, 0 }, irqs_gops = { trace_entry_irqs, 1 };

int entry_test(int x) { return x > 100 ? 0 : __graph_entry(x); }

struct nops { int (*output)(int); };
struct neigh { const struct nops *ops; int (*output)(int); int state; };
int out_direct(int x) { return x - 1; }
int out_resolve(int x) { return x - 2; }
int out_connected(int x) { return x - 3; }
const struct nops arp_ops = { out_resolve }, direct_ops = { out_connected };

__attribute__((noinline)) void neigh_update(struct neigh *n, int connected)
{
	if (connected)
		n->output = out_direct;
	else
		n->output = n->ops->output;
}
__attribute__((noinline)) int neigh_output(struct neigh *n, int x) { return n->output(x); }

__attribute__((noinline)) void update_graph_func(void)
{
	struct ops *op;
	bool do_test = false;

	for (op = ops_list; op != &list_end; op = op->next)
		if (op != &global_ops && op != &graph_ops) {
			do_test = true;
			break;
		}
	if (do_test)
		graph_entry = entry_test;
	else
		graph_entry = __graph_entry;
}
__attribute__((noinline)) void reg_graph(struct gops *g)
{
	__graph_entry = g->entryfunc;
	update_graph_func();
}
__attribute__((noinline)) int graph_enter(int x) { return graph_entry(x); }

int main(int argc, char **argv)
{
	struct ops extra = { &list_end };
	struct neigh n = { argc > 3 ? &direct_ops : &arp_ops, 0, 0 };
	int s;

	(void)argv;
	reg_graph(argc > 2 ? &irqs_gops : &plain_gops);
	s = graph_enter(argc);
	ops_list = &extra;
	update_graph_func();
	s += graph_enter(argc);
	neigh_update(&n, argc > 1);
	s += neigh_output(&n, argc);
	neigh_update(&n, argc > 4);
	s += neigh_output(&n, argc);
	return (s + decoys[0](argc)) & 1;
}
C
(
	cd "$b" &&
	gcc -Os -g -fno-pie -no-pie -o joined joined.c &&
	gcc -Os -g -fno-pie -finstrument-functions -c joined.c &&
	gcc -O2 -g -fno-pie -c icall_trace.c &&
	gcc -no-pie -o traced joined.o icall_trace.o
) >"$OUT/build.log" 2>&1 || { fail "cannot build: $(head -3 "$OUT/build.log")"; finish; exit; }
# the stores this is about: one of graph_entry, one of neigh.output
[ "$(objdump -d "$b/joined" | awk '/<update_graph_func>:/,/^$/' | grep -c 'mov    %rax,.*<graph_entry>')" = 1 ] ||
	skip "this gcc does not join update_graph_func's stores"

run_sp --json --indirect=types --no-libs "$b/joined"
expect_rc 0 "--indirect=types"
j=$OUT/joined.json
cp "$OUT/stdout" "$j"
expect_eq "graph_enter" "$(icall_sites "$j" graph_enter)" \
	'[["table", "graph_entry", ["entry_stub", "entry_test", "trace_entry", "trace_entry_irqs"]]]'
expect_eq "neigh_output" "$(icall_sites "$j" neigh_output)" \
	'[["field", "struct neigh.output", ["out_connected", "out_direct", "out_resolve"]]]'
icall_traced 5
finish
