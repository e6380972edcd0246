#!/bin/sh
# --indirect=types follows a pointer copied into another register: GCC
# moves calloc's result into %rbx to keep it across a call, stores some
# members through %rax and one through %rbx, while DWARF locates the
# variable in %rax all along (as the kernel's __full_proxy_fops_init
# does with %r15).  The store through the copy must be typed as
# struct ops.write, so that proxy_write is not a target of a call
# through .read (untyped, it went to every member of its prototype).
. tests/e2e/lib.sh
[ "$(uname -m)" = x86_64 ] || skip "the instruction pass is x86-64's"
command -v gcc >/dev/null || skip "no gcc"

cat >"$OUT/proxy.c" <<'C'
#include <stdlib.h>
struct ops { int (*open)(int); int (*read)(int); int (*write)(int); int (*close)(int); };
int real_open(int x) { return x + 1; }
int real_read(int x) { return x * 2; }
int proxy_read(int x) { return x * 3; }
int proxy_write(int x) { return x * 5; }
__attribute__((noipa)) void note(struct ops *p) { (void)p; }
__attribute__((noinline)) struct ops *make_proxy(const struct ops *real)
{
	struct ops *p = calloc(1, sizeof(*p));
	if (!p)
		return NULL;
	p->open = real_open;
	if (real->read)
		p->read = proxy_read;
	if (real->write)
		p->write = proxy_write;
	note(p);
	return p;
}
__attribute__((noinline)) int do_read(struct ops *o, int x) { return o->read(x); }
int main(int argc, char **argv)
{
	static const struct ops real = { real_open, real_read, 0, 0 };
	(void)argv;
	return do_read(make_proxy(&real), argc);
}
C
gcc -O2 -g -fno-pie -no-pie -o "$OUT/proxy" "$OUT/proxy.c" || fail "gcc"
# the shape this test is about: an immediate stored through the copy
objdump -d "$OUT/proxy" | awk '/<make_proxy>:/,/ret/' |
	grep -Eq 'movq +\$0x[0-9a-f]+,0x10\(%r(bx|bp|1[2-5])\)' ||
	skip_part "gcc stored .write through no copy of the pointer"

run_sp --json --indirect=types "$OUT/proxy"
expect_rc 0 "--indirect=types"
cp "$OUT/stdout" "$OUT/proxy.json"
expect_eq "o->read reaches what .read holds, not .write" \
	"$(jget "$OUT/proxy.json" "[(s['resolved_by'], s['type'], sorted(s['targets'])) for s in j['indirect_calls'] if s['function'] == 'do_read']")" \
	'[["field", "struct ops.read", ["proxy_read", "real_read"]]]'
finish
