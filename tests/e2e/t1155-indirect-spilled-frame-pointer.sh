#!/bin/sh
# --indirect=types follows a value spilled through the frame pointer:
# get_info keeps rbp as its frame pointer (as GCC does for __sys_bpf,
# do_coredump), more values live across the calls of mix than there are
# callee-saved registers, so GCC stores its parameter l at -N(%rbp) and
# loads it back for l->ops->fill(l, &info).  The only frame address the
# function lets out is &info's, above the slot, so nothing writes the
# slot between: the call is
#
#   get_info  field struct link_ops.fill: fill_a (ops_a), fill_b (ops_b)
#
# (address-taken, every function whose address is taken, without it:
# other and dealloc_a too).  A build with -finstrument-functions is
# traced: every pair a run takes must be among the site's targets.
# Debian's kernel: do_coredump's binfmt->core_dump(&cprm)
# (fs/coredump.c:824), binfmt spilled to -0x..(%rbp), is struct
# linux_binfmt.core_dump: the elf_core_dump of fs/binfmt_elf.c:105 and of
# fs/compat_binfmt_elf.c, which includes it.
. tests/e2e/lib.sh
[ "$(uname -m)" = x86_64 ] || skip "the instruction pass is x86-64's"
command -v gcc >/dev/null || skip "no gcc"

b=$OUT/build
mkdir -p "$b"
cat >"$b/fp.c" <<'C'
struct info { long n; };
struct link;
struct link_ops {
	long (*fill)(const struct link *l, struct info *i);
	long (*dealloc)(struct link *l);
};
struct link { long id; const struct link_ops *ops; };
#define NOIPA __attribute__((noipa))
#define FRAME __attribute__((optimize("no-omit-frame-pointer")))
NOIPA long fill_a(const struct link *l, struct info *i) { return i->n += l->id; }
NOIPA long fill_b(const struct link *l, struct info *i) { return i->n += 2 * l->id; }
NOIPA long other(const struct link *l, struct info *i) { return i->n -= l->id; }
NOIPA long dealloc_a(struct link *l) { return l->id; }
NOIPA long mix(long v) { return v * 7 + 1; }
NOIPA void clear(struct info *i) { i->n = 0; }
NOIPA FRAME long get_info(const struct link *l, long a, long b, long c, long d)
{
	struct info info;
	long x1 = mix(a), x2 = mix(b), x3 = mix(c), x4 = mix(d), x5 = mix(x1 + x2);
	long x6 = mix(x3 + x4), x7 = mix(x5 ^ x6);
	clear(&info);
	return l->ops->fill(l, &info) + x1 + x2 + x3 + x4 + x5 + x6 + x7 + a + b + c + d +
	       info.n;
}
const struct link_ops ops_a = { fill_a, dealloc_a };
const struct link_ops ops_b = { fill_b, dealloc_a };
long (*volatile hook)(const struct link *, struct info *) = other;
int main(int argc, char **argv)
{
	struct link la = { 1, &ops_a }, lb = { 2, &ops_b };
	struct info i = { 0 };
	(void)argv;
	return (int)((get_info(&la, argc, 2, 3, 4) + get_info(&lb, argc, 5, 6, 7) +
		      hook(&la, &i)) & 1);
}
C
icall_build fp || { finish; exit; }
# what this test is about: a frame pointer, and the call's pointer
# reloaded through it
objdump -d --no-show-raw-insn "$b/fp" | awk '/<get_info>:/, /^$/' >"$OUT/get_info.s"
grep -q "mov  *%rsp,%rbp$" "$OUT/get_info.s" &&
	grep -q "mov  *-0x[0-9a-f]*(%rbp),%r[a-z0-9]*$" "$OUT/get_info.s" ||
	skip "gcc kept no frame pointer or spilled nothing through it in get_info"

run_sp --json --indirect=types --no-libs "$b/fp"
expect_rc 0 "--indirect=types"
j=$OUT/fp.json
cp "$OUT/stdout" "$j"
expect_eq "get_info" "$(icall_sites "$j" get_info)" \
	'[["field", "struct link_ops.fill", ["fill_a", "fill_b"]]]'
icall_traced 3

debian_kernel_part
debian_typed_report "$OUT/vmlinux.json"
expect_eq "do_coredump's binfmt->core_dump" \
	"$(jget "$OUT/vmlinux.json" "sorted(set((s['resolved_by'], s['type'], ' '.join(sorted(s['targets']))) for s in j['indirect_calls'] if s['function'] == 'do_coredump' and s['line'] == 824))")" \
	'[["field", "struct linux_binfmt.core_dump", "elf_core_dump elf_core_dump"]]'
rm -f "$OUT/vmlinux.json"
finish
