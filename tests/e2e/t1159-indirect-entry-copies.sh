#!/bin/sh
# --indirect=types follows a register that holds a copy of an argument
# on every path, through joins and spills: each write reaching it is a
# copy of a register or a reload of a spill slot whose every store is
# of a register, back to the function's entry.  GCC keeps xas_store()'s
# xas so (lib/xarray.c, Linux 6.1: copied to rcx at the entry, spilled
# to three slots across the calls of a loop, reloaded on each path),
# where no one write reaches the load of xas->xa_update.
#
# The functions are written in assembly (GCC's register allocation
# does not make this shape on demand), each called from C as
# run(fn, n) and calling fn once after a loop of n calls of mix:
#
#   run_copy     fn copied to rcx, spilled before each call of mix and
#                reloaded after it; the call after the loop reads rcx,
#                which the entry's copy and the loop's reload reach:
#                what the callers pass (fa, fb), an argument site
#   run_mixed    the same, one path of the loop loads hook into rcx:
#                not every write is a copy, no argument (address-taken)
#   run_clobber  the same as run_copy, but a 4-byte store writes half
#                of the slot between the spill and the reload: the
#                reload is no copy of rcx (address-taken)
#
# Debian's kernel: xas_store()'s four calls of xas->xa_update, each
# address-taken before, are struct xa_state.xa_update: the functions
# xas_set_update() is given in the 6.1 source (workingset_update_node)
# and, xa_delete_node() exported, the modules' code.
. tests/e2e/lib.sh
[ "$(uname -m)" = x86_64 ] || skip "the instruction pass is x86-64's"
command -v gcc >/dev/null || skip "no gcc"

b=$OUT/build
mkdir -p "$b"
cat >"$b/copies.c" <<'C'
#define NOIPA __attribute__((noipa))
NOIPA long mix(long v) { return v * 7 + 1; }
NOIPA long fa(long v) { return v + 1; }
NOIPA long fb(long v) { return v + 2; }
NOIPA long fc(long v) { return v + 3; }
long (*volatile hook)(long) = fc;
#define BODY(between) \
	__asm__("\tpush %rbx\n\tsub $16,%rsp\n\tmov %rdi,%rcx\n\tmov %rsi,%rbx\n" \
		"1:\tmov %rcx,8(%rsp)\n\tmov %rbx,%rdi\n\tcall mix\n" \
		"\tmov 8(%rsp),%rcx\n" between \
		"\tsub $1,%rbx\n\tjg 1b\n\tmov $5,%edi\n\tcall *%rcx\n" \
		"\tadd $16,%rsp\n\tpop %rbx\n\tret\n")
#define NAKED __attribute__((naked, noipa))
NAKED long run_copy(long (*fn)(long), long n) { BODY(""); }
/* one path of the loop takes hook instead */
NAKED long run_mixed(long (*fn)(long), long n)
{
	BODY("\ttest $1,%al\n\tje 2f\n\tmov hook(%rip),%rcx\n2:\n");
}
/* half of the slot rewritten with its own bytes (the run is safe): a
 * write that is no spill of rcx, between the spill and the reload */
NAKED long run_clobber(long (*fn)(long), long n)
{
	__asm__("\tpush %rbx\n\tsub $16,%rsp\n\tmov %rdi,%rcx\n\tmov %rsi,%rbx\n"
		"1:\tmov %rcx,8(%rsp)\n\tmov %rbx,%rdi\n\tcall mix\n"
		"\tmov 12(%rsp),%eax\n\tmov %eax,12(%rsp)\n\tmov 8(%rsp),%rcx\n"
		"\tsub $1,%rbx\n\tjg 1b\n\tmov $5,%edi\n\tcall *%rcx\n"
		"\tadd $16,%rsp\n\tpop %rbx\n\tret\n");
}
int main(int argc, char **argv)
{
	(void)argv;
	return (int)((run_copy(fa, argc) + run_copy(fb, 2) + run_mixed(fa, argc) +
		      run_clobber(fb, argc) + hook(1)) & 1);
}
C
(cd "$b" && gcc -O2 -g -fno-pie -no-pie -o copies copies.c) >"$OUT/build.log" 2>&1 ||
	{ fail "cannot compile: $(head -3 "$OUT/build.log")"; finish; exit; }
"$b/copies" >/dev/null 2>&1
rc=$?
[ "$rc" -le 1 ] || fail "the program does not run (exit $rc)"

run_sp --json --indirect=types --no-libs "$b/copies"
expect_rc 0 "--indirect=types"
cp "$OUT/stdout" "$OUT/copies.json"
expect_eq "run_copy: what its callers pass" \
	"$(icall_sites "$OUT/copies.json" run_copy)" \
	'[["argument", "long int(long int)", ["fa", "fb"]]]'
expect_eq "run_mixed: one path loads hook" \
	"$(jget "$OUT/copies.json" "[s['resolved_by'] for s in j['indirect_calls'] if s['function'] == 'run_mixed']")" \
	'["address-taken"]'
expect_eq "run_clobber: half of the slot written" \
	"$(jget "$OUT/copies.json" "[s['resolved_by'] for s in j['indirect_calls'] if s['function'] == 'run_clobber']")" \
	'["address-taken"]'

# A join of the argument itself (the path from the entry, no write) and
# another write: the call's ways are that write's chain and the
# argument's (l3mdev_fib_table_rcu(): dev, or its master device, then
# one shared dev->l3mdev_ops->l3mdev_fib_table tail call).  fib_table
# is built with retpolines (a jump through a register is otherwise a
# switch's, where no value is known to be the entry's): both ways
# type struct dev_ops.table, table_a and table_b (ops_a, ops_b).
cat >"$b/join.c" <<'C'
#define NOIPA __attribute__((noipa))
struct dev;
struct dev_ops { long (*table)(const struct dev *); long (*other)(const struct dev *); };
struct dev { long flags; const struct dev_ops *ops; struct dev *master; };
NOIPA long table_a(const struct dev *d) { return d->flags + 1; }
NOIPA long table_b(const struct dev *d) { return d->flags + 2; }
NOIPA long other(const struct dev *d) { return d->flags; }
const struct dev_ops ops_a = { table_a, other }, ops_b = { table_b, other };
NOIPA long fib_table(const struct dev *dev)
{
	const struct dev *m;

	if (dev->flags & 1)
		return dev->ops->table(dev);
	m = dev->master;
	if (m)
		return m->ops->table(m);
	return 0;
}
long (*volatile hook)(const struct dev *) = other;
int main(int argc, char **argv)
{
	struct dev a = { 1, &ops_a, 0 }, b = { 2, &ops_b, &a };
	(void)argv;
	return (int)((fib_table(&a) + fib_table(&b) + hook(&a) + argc) & 1);
}
C
if (cd "$b" && gcc -O2 -g -fno-pie -no-pie -mindirect-branch=thunk -o join join.c) \
	>"$OUT/build.log" 2>&1; then
	# one shared call: the code must join the paths before it
	if [ "$(objdump -d --no-show-raw-insn "$b/join" | sed -n '/<fib_table>:/,/^$/p' |
		grep -c '__x86_indirect_thunk')" = 1 ]; then
		run_sp --json --indirect=types --no-libs "$b/join"
		expect_rc 0 "--indirect=types, join"
		cp "$OUT/stdout" "$OUT/join.json"
		expect_eq "fib_table: the argument or its master" \
			"$(icall_sites "$OUT/join.json" fib_table)" \
			'[["field", "struct dev_ops.table", ["table_a", "table_b"]]]'
	else
		skip_part "gcc made two calls in fib_table, no join"
	fi
else
	skip_part "no -mindirect-branch=thunk: $(head -1 "$OUT/build.log")"
fi

debian_kernel_part
debian_typed_report "$OUT/vmlinux.json"
src=${STACKPROF_LINUX_SRC:-/tmp/stackprof-kernel/linux-dwarf4}
if [ -d "$src/mm" ]; then
	# the functions the 6.1 source hands xas_set_update(), not its tests'
	want=$(grep -rhoE 'xas_set_update\([^,]*, *[a-z_0-9]+\)' "$src/mm" "$src/fs" "$src/include" "$src/lib" |
		grep -v test_ | sed 's/.*, *\([a-z_0-9]*\))/\1/' | sort -u | tr '\n' ' ')
else
	want="workingset_update_node "
fi
got=$(jget "$OUT/vmlinux.json" "sorted(set((s['resolved_by'], s['type'], '<module code: struct xa_state.xa_update>' in s['targets'], ' '.join(sorted(t for t in s['targets'] if t in '$want'.split())) + ' ') for s in j['indirect_calls'] if s['function'] == 'xas_store' and s['resolved_by'] != 'paravirt'))")
expect_eq "xas_store's xas->xa_update" "$got" \
	"[[\"exported\", \"struct xa_state.xa_update\", true, \"$want\"]]"
expect_eq "xas_store's four sites" \
	"$(jget "$OUT/vmlinux.json" "len(set(s['address'] for s in j['indirect_calls'] if s['function'] == 'xas_store' and s['type'] == 'struct xa_state.xa_update'))")" \
	4
expect_eq "l3mdev_fib_table_rcu's l3mdev_fib_table, dev's or its master's" \
	"$(jget "$OUT/vmlinux.json" "[(s['resolved_by'], s['type']) for s in j['indirect_calls'] if s['function'] == 'l3mdev_fib_table_rcu']")" \
	'[["field", "struct l3mdev_ops.l3mdev_fib_table"]]'
rm -f "$OUT/vmlinux.json"
finish
