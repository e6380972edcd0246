#!/bin/sh
# --indirect=types types a value reloaded from a word of the frame
# through rsp by the variable DWARF locates in that word at the reload:
# DW_OP_fbreg (the CFA above the return address) for a spill the chain
# follows to its store, DW_OP_breg7 (rsp plus the load's displacement)
# for a word it does not follow (a stack address the function lets out
# below it).  run_one gets ops from opaque(), a void *, which types
# nothing, spills it across the calls of mix and calls ops->init(x7)
# after the reload.  The test rewrites ops's location list in GCC's
# assembly to one place over one instruction's bytes:
#
#   spill_reload   DW_OP_fbreg over the reload: struct ops.init, init_a
#                  and init_b (ops_a, ops_b: the objects that hold it)
#   spill_after    the same place over the instruction after the store:
#                  the slot is ops's there, but neither the value stored
#                  nor the one reloaded is said to be: address-taken
#   frame_reload   lea (%rsp),%r11 after the frame is set up (a stack
#                  address below the slot let out: no spill followed),
#                  DW_OP_breg7 over the reload: struct ops.init
#   frame_after    the same, over the instruction after the store:
#                  address-taken
#
#   fp_reload      frame_reload with rbp the frame pointer, the reload
#                  through rsp, DW_OP_breg6 (rbp) over it: struct ops.init
#
# Debian's kernel: bpf_struct_ops_init()'s st_ops->init(btf)
# (kernel/bpf/bpf_struct_ops.c:189, st_ops at DW_OP_fbreg -208 at the
# reload of 0x10(%rsp)) is struct bpf_struct_ops.init: the .init of
# the struct bpf_struct_ops objects of the 6.1 source; sk_getsockopt()'s
# sock->ops->getname (net/core/sock.c:1791, sock at DW_OP_breg7 24 at
# a reload not followed) is struct proto_ops.getname, and
# sk_setsockopt()'s sock->ops->set_rcvlowat (net/core/sock.c:1379-1380,
# sock at DW_OP_breg6 -120, rbp the frame pointer, at its reload from
# 0x20(%rsp)) struct proto_ops.set_rcvlowat, the three paths of that
# call site together.
. tests/e2e/lib.sh
[ "$(uname -m)" = x86_64 ] || skip "the instruction pass is x86-64's"
command -v gcc >/dev/null || skip "no gcc"

b=$OUT/build
mkdir -p "$b"
cat >"$b/slot.c" <<'C'
struct ops { long (*init)(long); long (*done)(long); };
struct item { const char *name; const struct ops *ops; };
#define NOIPA __attribute__((noipa))
NOIPA long init_a(long v) { return v + 1; }
NOIPA long init_b(long v) { return v + 2; }
NOIPA long other(long v) { return v - 1; }
NOIPA long done(long v) { return v; }
NOIPA long mix(long v) { return v * 7 + 1; }
NOIPA void *opaque(const void *p) { return (void *)p; }
NOIPA long run_one(struct item *it, long a, long b, long c, long d)
{
	const struct ops *ops = opaque(it->ops);
	long x1 = mix(a), x2 = mix(b), x3 = mix(c), x4 = mix(d), x5 = mix(x1 + x2);
	long x6 = mix(x3 + x4), x7 = mix(x5 ^ x6);
	return ops->init(x7) + x1 + x2 + x3 + x4 + x5 + x6 + a + b + c + d;
}
const struct ops ops_a = { init_a, done }, ops_b = { init_b, done };
long (*volatile hook)(long) = other;
int main(int argc, char **argv)
{
	struct item ia = { "a", &ops_a }, ib = { "b", &ops_b };
	(void)argv;
	return (int)((run_one(&ia, argc, 2, 3, 4) + run_one(&ib, argc, 5, 6, 7) + hook(1)) & 1);
}
C
(cd "$b" && gcc -O2 -g -gdwarf-5 -gno-variable-location-views -fno-pie -S -o slot.s slot.c) \
	>"$OUT/build.log" 2>&1 || { fail "cannot compile: $(head -3 "$OUT/build.log")"; finish; exit; }

# the reload movq N(%rsp), %reg before call *(%reg), the one store
# movq %reg, N(%rsp), the CFA's offset K from rsp at the reload (the last
# .cfi_def_cfa_offset before it); ops's list is the one that says
# DW_OP_fbreg N - K
python3 - "$b/slot.s" "$b" <<'PY' || skip "gcc's assembly is not of the shape this test rewrites"
import re, sys
src, out = sys.argv[1], sys.argv[2]
s = open(src).read()
text = s[s.index('run_one:'):s.index('.size\trun_one')]
lines = text.split('\n')
def next_call(i):
    return next(l for l in lines[i + 1:] if l.startswith('\tcall'))
reload = next(i for i, l in enumerate(lines)
              if re.match(r'\tmovq\t\d+\(%rsp\), %\w+$', l) and
              next_call(i) == '\tcall\t*(%%%s)' % l.rsplit('%', 1)[1])
n = int(re.match(r'\tmovq\t(\d+)\(%rsp\)', lines[reload]).group(1))
stores = [i for i, l in enumerate(lines) if re.match(r'\tmovq\t%%\w+, %d\(%%rsp\)$' % n, l)]
cfa = [int(m.group(1)) for m in re.finditer(r'\.cfi_def_cfa_offset (\d+)', '\n'.join(lines[:reload]))]
if len(stores) != 1 or not cfa:
    sys.exit(1)
fb = n - cfa[-1]
after = next(i for i in range(stores[0] + 1, len(lines)) if re.match(r'\t[a-z]', lines[i]))
parts = re.split(r'(?m)^(\.LLST\d+:\n)', s)
pick = [i for i in range(2, len(parts), 2)
        if re.search(r'\.byte\t0x91\n\t\.sleb128 %d\n' % fb, parts[i])]
if len(pick) != 1:
    sys.exit(1)
def op(code, v):
    size = 2 if -64 <= v < 64 else 3	# the op and v's sleb128
    return ('\t.byte\t0x6\n\t.quad\t.Lslot0\n\t.byte\t0x4\n\t.uleb128 0\n'
            '\t.uleb128 .Lslot1-.Lslot0\n\t.uleb128 %d\n\t.byte\t%s\n'
            '\t.sleb128 %d\n\t.byte\t0\n') % (size, code, v)
sub = next(i for i, l in enumerate(lines) if re.match(r'\tsubq\t\$\d+, %rsp$', l))
for name, code, v, at, escape in (('spill_reload', '0x91', fb, reload, False),
                                  ('spill_after', '0x91', fb, after, False),
                                  ('frame_reload', '0x77', n, reload, True),
                                  ('frame_after', '0x77', n, after, True)):
    p = list(parts)
    p[pick[0]] = op(code, v)
    marked = list(lines)
    marked[at] = '.Lslot0:\n' + lines[at] + '\n.Lslot1:'
    if escape:
        marked[sub] = lines[sub] + '\n\tleaq\t(%rsp), %r11'
    open('%s/%s.s' % (out, name), 'w').write(''.join(p).replace(text, '\n'.join(marked), 1))
PY
# run_one again, with rbp its frame pointer (GCC's spills then go
# through rbp): the reload movq -M(%rbp), %reg rewritten to the same
# word through rsp (N = the frame's size below rbp less M), the stack
# let out as above, and ops's list DW_OP_breg6 -M over the reload (as
# GCC says sk_setsockopt()'s sock is at DW_OP_breg6 -120, loaded as
# 0x20(%rsp)): struct ops.init
sed 's/^NOIPA long run_one/__attribute__((optimize("no-omit-frame-pointer"))) NOIPA long run_one/' \
	"$b/slot.c" >"$b/fp.c"
(cd "$b" && gcc -O2 -g -gdwarf-5 -gno-variable-location-views -fno-pie -S -o fp.s fp.c) \
	>"$OUT/build.log" 2>&1 || { fail "cannot compile fp.c: $(head -3 "$OUT/build.log")"; finish; exit; }
python3 - "$b/fp.s" "$b" <<'PY' || skip "gcc's assembly of fp.c is not of the shape this test rewrites"
import re, sys
src, out = sys.argv[1], sys.argv[2]
s = open(src).read()
text = s[s.index('run_one:'):s.index('.size\trun_one')]
lines = text.split('\n')
def next_call(i):
    return next(l for l in lines[i + 1:] if l.startswith('\tcall'))
reload = next(i for i, l in enumerate(lines)
              if re.match(r'\tmovq\t-\d+\(%rbp\), %\w+$', l) and
              next_call(i) == '\tcall\t*(%%%s)' % l.rsplit('%', 1)[1])
m = int(re.match(r'\tmovq\t-(\d+)\(%rbp\)', lines[reload]).group(1))
setup = lines.index('\tmovq\t%rsp, %rbp')
sub = next(i for i, l in enumerate(lines) if re.match(r'\tsubq\t\$\d+, %rsp$', l))
below = 8 * sum(1 for l in lines[setup:sub] if l.startswith('\tpushq')) + \
        int(re.match(r'\tsubq\t\$(\d+)', lines[sub]).group(1))
parts = re.split(r'(?m)^(\.LLST\d+:\n)', s)
# ops's list: the one that says DW_OP_fbreg -(m + 16), the CFA 16 above rbp
pick = [i for i in range(2, len(parts), 2)
        if re.search(r'\.byte\t0x91\n\t\.sleb128 %d\n' % -(m + 16), parts[i])]
if len(pick) != 1 or below < m:
    sys.exit(1)
size = 2 if -64 <= -m < 64 else 3
parts[pick[0]] = ('\t.byte\t0x6\n\t.quad\t.Lslot0\n\t.byte\t0x4\n\t.uleb128 0\n'
                  '\t.uleb128 .Lslot1-.Lslot0\n\t.uleb128 %d\n\t.byte\t0x76\n'
                  '\t.sleb128 %d\n\t.byte\t0\n') % (size, -m)
marked = list(lines)
marked[reload] = '.Lslot0:\n' + re.sub(r'-\d+\(%rbp\)', '%d(%%rsp)' % (below - m), lines[reload]) + '\n.Lslot1:'
marked[sub] = lines[sub] + '\n\tleaq\t(%rsp), %r11'
open('%s/fp_reload.s' % out, 'w').write(''.join(parts).replace(text, '\n'.join(marked), 1))
PY
for c in spill_reload spill_after frame_reload frame_after fp_reload; do
	(cd "$b" && gcc -no-pie -o "$c" "$c.s") >"$OUT/build.log" 2>&1 ||
		{ fail "cannot assemble $c: $(head -3 "$OUT/build.log")"; continue; }
	run_sp --json --indirect=types --no-libs "$b/$c"
	expect_rc 0 "--indirect=types, $c"
	cp "$OUT/stdout" "$OUT/$c.json"
done
for c in spill_reload frame_reload fp_reload; do
	expect_eq "$c" "$(icall_sites "$OUT/$c.json" run_one)" \
		'[["field", "struct ops.init", ["init_a", "init_b"]]]'
done
for c in spill_after frame_after; do
	expect_eq "$c" "$(jget "$OUT/$c.json" "[s['resolved_by'] for s in j['indirect_calls'] if s['function'] == 'run_one']")" \
		'["address-taken"]'
done

debian_kernel_part
debian_typed_report "$OUT/vmlinux.json"
src=${STACKPROF_LINUX_SRC:-/tmp/stackprof-kernel/linux-dwarf4}
if [ -d "$src/net" ]; then
	# each struct bpf_struct_ops object's .init (kernel/bpf, net/)
	init=$(grep -rlE '^struct bpf_struct_ops [a-z_0-9]+ = \{' "$src/kernel" "$src/net" --include='*.c' |
		xargs sed -n '/^struct bpf_struct_ops [a-z_0-9]* = {/,/^};/p' |
		sed -n 's/^\s*\.init\s*=\s*\([a-z_0-9]*\).*/\1/p' | sort -u | tr '\n' ' ')
else
	init="bpf_dummy_init bpf_tcp_ca_init "
fi
expect_eq "bpf_struct_ops_init's st_ops->init" \
	"$(jget "$OUT/vmlinux.json" "[(s['resolved_by'], s['type'], ' '.join(sorted(s['targets'])) + ' ') for s in j['indirect_calls'] if s['function'] == 'bpf_struct_ops_init' and s['line'] == 189]")" \
	"[[\"field\", \"struct bpf_struct_ops.init\", \"$init\"]]"
expect_eq "sk_getsockopt's sock->ops->getname" \
	"$(jget "$OUT/vmlinux.json" "sorted(set((s['resolved_by'], s['type']) for s in j['indirect_calls'] if s['function'] == 'sk_getsockopt' and s['line'] == 1791))")" \
	'[["field", "struct proto_ops.getname"]]'
# SO_RCVLOWAT's sock->ops->set_rcvlowat and SO_PEEK_OFF's
# ->set_peek_off, one call site (GCC's cross-jumping): each path's member
expect_eq "sk_setsockopt's sock->ops->set_rcvlowat, with its other paths" \
	"$(jget "$OUT/vmlinux.json" "sorted(set((s['resolved_by'], ' | '.join(sorted(set(s['type'].split(' | ')))), 'tcp_set_rcvlowat' in s['targets'] and 'sk_set_peek_off' in s['targets']) for s in j['indirect_calls'] if s['function'] == 'sk_setsockopt' and s['line'] == 1380))")" \
	'[["field", "struct proto_ops.set_peek_off | struct proto_ops.set_rcvlowat", true]]'
rm -f "$OUT/vmlinux.json"
finish
