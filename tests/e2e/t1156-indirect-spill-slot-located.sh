#!/bin/sh
# --indirect=types types a value spilled through the frame pointer by
# the variable DWARF locates in the spill's slot.  get_info keeps rbp
# as its frame pointer, and link_info (inlined) gets its link from
# f->private_data, a void *, which types nothing; the call is
# link->ops->fill(link, &info), link spilled to -N(%rbp) across the
# calls of mix and reloaded.  GCC locates link in a register and then
# at DW_OP_fbreg; Debian's kernel, for __sys_bpf's link (an inlined
# bpf_link_get_info_by_fd's parameter, kernel/bpf/syscall.c:4332),
# says only DW_OP_breg6 -384 over the few bytes of the store.  The test
# rewrites link's location list in GCC's assembly to that shape, the
# same place said through rbp (the CFA is rbp + 16 after push %rbp;
# mov %rsp,%rbp), over one instruction's bytes:
#
#   store   the spill's store: struct link_ops.fill, fill_a and fill_b
#           (ops_a, ops_b: what main's links hold)
#   reload  the reload for the call: the same
#   elsewhere  the instruction after the store: the slot is link's
#           there, but neither the value stored nor the one reloaded is
#           said to be link: address-taken
#
# Debian's kernel: __sys_bpf's link->ops->fill_link_info is struct
# bpf_link_ops.fill_link_info: the six .fill_link_info of the struct
# bpf_link_ops objects of kernel/ and net/ (grep'd from the 6.1 source
# below, the iterators' bpf_iter_reg.fill_link_info left out).
. tests/e2e/lib.sh
[ "$(uname -m)" = x86_64 ] || skip "the instruction pass is x86-64's"
command -v gcc >/dev/null || skip "no gcc"

b=$OUT/build
mkdir -p "$b"
cat >"$b/slot.c" <<'C'
struct info { long n; };
struct link;
struct link_ops {
	long (*fill)(const struct link *l, struct info *i);
	long (*dealloc)(struct link *l);
};
struct link { long id; const struct link_ops *ops; };
struct file { long mode; void *private_data; };
#define NOIPA __attribute__((noipa))
#define FRAME __attribute__((optimize("no-omit-frame-pointer")))
NOIPA long fill_a(const struct link *l, struct info *i) { return i->n += l->id; }
NOIPA long fill_b(const struct link *l, struct info *i) { return i->n += 2 * l->id; }
NOIPA long other(const struct link *l, struct info *i) { return i->n -= l->id; }
NOIPA long dealloc_a(struct link *l) { return l->id; }
NOIPA long mix(long v) { return v * 7 + 1; }
NOIPA void clear(struct info *i) { i->n = 0; }
static inline __attribute__((always_inline)) long link_info(struct file *f, struct link *link,
							    long a, long b, long c, long d)
{
	struct info info;
	long x1 = mix(a), x2 = mix(b), x3 = mix(c), x4 = mix(d), x5 = mix(x1 + x2);
	long x6 = mix(x3 + x4), x7 = mix(x5 ^ x6);
	clear(&info);
	if (link->ops->fill)
		info.n += link->ops->fill(link, &info);
	return x1 + x2 + x3 + x4 + x5 + x6 + x7 + a + b + c + d + info.n + f->mode;
}
NOIPA FRAME long get_info(struct file *f, long a, long b, long c, long d)
{
	if (f->mode == 3)
		return link_info(f, f->private_data, a, b, c, d);
	return mix(a);
}
const struct link_ops ops_a = { fill_a, dealloc_a };
const struct link_ops ops_b = { fill_b, dealloc_a };
long (*volatile hook)(const struct link *, struct info *) = other;
int main(int argc, char **argv)
{
	struct link la = { 1, &ops_a }, lb = { 2, &ops_b };
	struct file fa = { 3, &la }, fb = { 3, &lb };
	struct info i = { 0 };
	(void)argv;
	return (int)((get_info(&fa, argc, 2, 3, 4) + get_info(&fb, argc, 5, 6, 7) +
		      hook(&la, &i)) & 1);
}
C
(cd "$b" && gcc -O2 -g -gdwarf-5 -gno-variable-location-views -fno-pie -S -o slot.s slot.c) \
	>"$OUT/build.log" 2>&1 || { fail "cannot compile: $(head -3 "$OUT/build.log")"; finish; exit; }

# link's list ends at DW_OP_fbreg -(N + 16), the slot -N(%rbp) that one
# movq %reg, -N(%rbp) stores and one movq -N(%rbp), %reg reloads, then
# loaded through at 8 (ops); each
# case puts link at DW_OP_breg6 -N over one instruction, its own labels
python3 - "$b/slot.s" "$b" <<'PY' || skip "gcc's assembly is not of the shape this test rewrites"
import re, sys
src, out = sys.argv[1], sys.argv[2]
s = open(src).read()
fbreg = re.compile(r'\.byte\t0x91\n\t\.sleb128 (-\d+)\n\t\.byte\t0\n')
parts = re.split(r'(?m)^(\.LLST\d+:\n)', s)
text = s[s.index('get_info:'):s.index('.size\tget_info')]
pick = None
for i in range(2, len(parts), 2):
    m = fbreg.search(parts[i])
    if not m or pick:
        continue
    n = int(m.group(1)) + 16
    st = re.findall(r'(?m)^\tmovq\t%%\w+, %d\(%%rbp\)$' % n, text)
    ld = re.findall(r'(?m)^\tmovq\t%d\(%%rbp\), %%\w+$' % n, text)
    reg = ld[0].rsplit('%', 1)[1] if len(ld) == 1 else None
    # and loaded through: link->ops, at 8
    if len(st) == 1 and reg and re.search(r'(?m)^\tmovq\t8\(%%%s\), ' % reg, text):
        pick = (i, n, st[0], ld[0])
if pick is None:
    sys.exit(1)
i, n, st, ld = pick
lines = text.split('\n')
k = lines.index(st)
other = next(l for l in lines[k + 1:] if re.match(r'\t[a-z]', l) and l not in (st, ld))
size = 2 if -64 <= n < 64 else 3	# DW_OP_breg6 and n's sleb128
parts[i] = ('\t.byte\t0x6\n\t.quad\t.Lslot0\n\t.byte\t0x4\n\t.uleb128 0\n'
            '\t.uleb128 .Lslot1-.Lslot0\n\t.uleb128 %d\n\t.byte\t0x76\n'
            '\t.sleb128 %d\n\t.byte\t0\n') % (size, n)
u = ''.join(parts)
for name, at in (('store', st), ('reload', ld), ('elsewhere', other)):
    marked = text.replace(at, '.Lslot0:\n' + at + '\n.Lslot1:', 1)
    open('%s/%s.s' % (out, name), 'w').write(u.replace(text, marked, 1))
PY
for c in store reload elsewhere; do
	(cd "$b" && gcc -no-pie -o "$c" "$c.s") >"$OUT/build.log" 2>&1 ||
		{ fail "cannot assemble $c: $(head -3 "$OUT/build.log")"; continue; }
	run_sp --json --indirect=types --no-libs "$b/$c"
	expect_rc 0 "--indirect=types, $c"
	cp "$OUT/stdout" "$OUT/$c.json"
done
expect_eq "store" "$(icall_sites "$OUT/store.json" get_info)" \
	'[["field", "struct link_ops.fill", ["fill_a", "fill_b"]]]'
expect_eq "reload" "$(icall_sites "$OUT/reload.json" get_info)" \
	'[["field", "struct link_ops.fill", ["fill_a", "fill_b"]]]'
expect_eq "elsewhere" "$(jget "$OUT/elsewhere.json" "[s['resolved_by'] for s in j['indirect_calls'] if s['function'] == 'get_info']")" \
	'["address-taken"]'

debian_kernel_part
debian_typed_report "$OUT/vmlinux.json"
src=${STACKPROF_LINUX_SRC:-/tmp/stackprof-kernel/linux-dwarf4}
if [ -d "$src/kernel/bpf" ]; then
	want=$(grep -rhE '^\s*\.fill_link_info\s*=' "$src/kernel" "$src/net" |
		sed 's/.*= *\([a-z_0-9]*\).*/\1/' | grep -v '^bpf_iter_\(cgroup\|map\)_fill\|^bpf_iter_fill' |
		sort -u | tr '\n' ' ')
else
	want="bpf_cgroup_link_fill_link_info bpf_iter_link_fill_link_info bpf_netns_link_fill_info bpf_raw_tp_link_fill_link_info bpf_tracing_link_fill_link_info bpf_xdp_link_fill_link_info "
fi
expect_eq "__sys_bpf's link->ops->fill_link_info" \
	"$(jget "$OUT/vmlinux.json" "[(s['resolved_by'], s['type'], ' '.join(sorted(s['targets'])) + ' ') for s in j['indirect_calls'] if s['function'] == '__sys_bpf' and s['line'] == 4332]")" \
	"[[\"field\", \"struct bpf_link_ops.fill_link_info\", \"$want\"]]"
rm -f "$OUT/vmlinux.json"
finish
