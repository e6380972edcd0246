#!/bin/sh
# --indirect=types types a value by the variable whose home in the frame
# a store of its register wrote just before: access_remote's vma has its
# address taken (pin_pages(addr, &vma)), so DWARF keeps it in the frame
# (DW_OP_fbreg); vma = tree_load(addr), a void *, is stored there and
# used from rax (vma->vm_ops->access), and the call's chain ends at the
# call's return, which types nothing.  From the store on, the word and
# rax hold the same value, a struct vma *: the call is
#
#   access_remote  field struct vm_ops.access: access_a (ops_a), access_b
#                  (ops_b), what main stores in vmas[].vm_ops
#
# (address-taken, every function whose address is taken, without it:
# other too).  A build with -finstrument-functions is traced: every pair
# a run takes must be among the site's targets.  Debian's kernel:
# __access_remote_vm's vma->vm_ops->access (mm/memory.c:5737, vma =
# vma_lookup(mm, addr), vma's address given to get_user_pages_remote) is
# struct vm_operations_struct.access: the .access initialisers of the
# 6.1 source that are functions of the image (sgx_vma_access,
# arch/x86/kernel/cpu/sgx/encl.c:690; kernfs_vma_access,
# fs/kernfs/file.c:499; generic_access_phys, drivers/uio/uio.c:723).
. tests/e2e/lib.sh
[ "$(uname -m)" = x86_64 ] || skip "the instruction pass is x86-64's"
command -v gcc >/dev/null || skip "no gcc"

b=$OUT/build
mkdir -p "$b"
cat >"$b/home.c" <<'C'
struct vma;
struct vm_ops {
	int (*access)(struct vma *v, unsigned long addr, void *buf, int len, int write);
	void (*close)(struct vma *v);
};
struct vma { unsigned long start; const struct vm_ops *vm_ops; };
#define NOIPA __attribute__((noipa))
NOIPA int access_a(struct vma *v, unsigned long addr, void *buf, int len, int write)
{ (void)buf; return (int)(v->start + addr) + len + write; }
NOIPA int access_b(struct vma *v, unsigned long addr, void *buf, int len, int write)
{ (void)buf; return (int)(v->start - addr) + len - write; }
NOIPA int other(struct vma *v, unsigned long addr, void *buf, int len, int write)
{ (void)v; (void)buf; return (int)addr * len * write; }
NOIPA void close_a(struct vma *v) { v->start = 0; }
struct vma vmas[2];
NOIPA void *tree_load(unsigned long addr) { return &vmas[addr & 1]; }
NOIPA int pin_pages(unsigned long addr, struct vma **vmap) { *vmap = addr > 100 ? &vmas[0] : 0; return addr > 100; }
NOIPA int access_remote(unsigned long addr, void *buf, int len, int write)
{
	struct vma *vma = 0;
	int ret = 0;

	while (len > 0) {
		if (pin_pages(addr, &vma) <= 0) {
			vma = tree_load(addr);
			if (!vma)
				break;
			if (vma->vm_ops && vma->vm_ops->access)
				ret = vma->vm_ops->access(vma, addr, buf, len, write);
			if (ret <= 0)
				break;
		} else {
			ret = 1;
		}
		len -= ret;
		addr += ret;
	}
	return len;
}
const struct vm_ops ops_a = { access_a, close_a };
const struct vm_ops ops_b = { access_b, close_a };
int (*volatile hook)(struct vma *, unsigned long, void *, int, int) = other;
int main(int argc, char **argv)
{
	char buf[8];
	(void)argv;
	vmas[0].vm_ops = &ops_a;
	vmas[1].vm_ops = &ops_b;
	vmas[0].start = 3;
	return (access_remote((unsigned long)argc, buf, 4, 0) + hook(&vmas[0], 1, buf, 1, 0)) & 1;
}
C
icall_build home || { finish; exit; }
# what this test is about: the return value stored to the frame and used
# from its register for the call's loads
objdump -d --no-show-raw-insn "$b/home" | awk '/<access_remote>:/, /^$/' >"$OUT/access_remote.s"
grep -A1 "call.*<tree_load>" "$OUT/access_remote.s" | grep -q "mov  *%rax,0x[0-9a-f]*(%rsp)$" ||
	skip "gcc did not store tree_load's result to the frame first"

run_sp --json --indirect=types --no-libs "$b/home"
expect_rc 0 "--indirect=types"
j=$OUT/home.json
cp "$OUT/stdout" "$j"
expect_eq "access_remote" "$(icall_sites "$j" access_remote)" \
	'[["field", "struct vm_ops.access", ["access_a", "access_b"]]]'
icall_traced 3

debian_kernel_part
src=${STACKPROF_LINUX_SRC:-/tmp/stackprof-kernel/linux-dwarf4}
[ -d "$src/mm" ] || { skip_part "no Linux 6.1 source at $src"; finish; exit; }
command -v nm >/dev/null || { fail "no nm"; finish; exit; }
debian_typed_report "$OUT/vmlinux.json"
nm "$vmlinux" | awk '$2 ~ /^[tT]$/ { print $3 }' | sort -u >"$OUT/text"
grep -rhoE '^\s*\.access\s*=\s*[a-z_0-9]+' --include=*.c "$src" | sed 's/.*= *//' |
	sort -u | comm -12 - "$OUT/text" | tr '\n' ' ' >"$OUT/want"
expect_eq "__access_remote_vm's vma->vm_ops->access" \
	"$(jget "$OUT/vmlinux.json" "[(s['resolved_by'], s['type'], ' '.join(sorted(s['targets'])) + ' ') for s in j['indirect_calls'] if s['function'] == '__access_remote_vm' and s['line'] == 5737]")" \
	"[[\"field\", \"struct vm_operations_struct.access\", \"$(cat "$OUT/want")\"]]"
rm -f "$OUT/vmlinux.json"
finish
