#!/bin/sh
# --indirect=types: a call through a global function pointer that nothing
# can write holds its initial word (kunwritten/core.c, a kernel in
# miniature; drivers/base/core.c's platform_notify, Linux 6.1:
# core.c:2281-2282, called at core.c:2328, stored nowhere, not
# exported).  The image's code takes its address nowhere (no immediate,
# no lea), writes it with no instruction but the 8-byte stores the store
# pass reads (none), no data word points into it, and no module can
# name it (no __ksymtab_): its NULL stays, and the call reaches nothing:
#
#   notify_add     platform_notify: table, no target
#   notify_remove  platform_notify_remove, exported: a module may set it,
#                  the prototype's functions as before
#   ipi            ipi_callback, written by an xchg (not a store the
#                  store pass reads): the prototype's
#   init_one       init_handler, its address given to set_hook, which
#                  writes through it: the prototype's
#   method_error   exception_handler = acpi_notify: table, acpi_notify
#
# The prototype's functions (int(struct device *), address taken):
# acpi_notify, swnode_notify, uv_notify.  A program (no ksymtab) keeps
# the prototype for a global: another image may write it.  Debian's
# kernel: device_add's and device_del's platform_notify and
# platform_notify_remove calls (no __ksymtab_ for either, no store in
# the 6.1 source's built files) reach nothing.
. tests/e2e/lib.sh
[ "$(uname -m)" = x86_64 ] || skip "the instruction pass is x86-64's"
command -v gcc >/dev/null || skip "no gcc"

cflags="-O2 -g -fno-pie -no-pie -nostdlib -static -I tests/e2e/kexport"
gcc $cflags -o "$OUT/kernel" tests/e2e/kunwritten/core.c || fail "gcc"
gcc $cflags -DNO_KSYMTAB -o "$OUT/program" tests/e2e/kunwritten/core.c || fail "gcc"
# what the test is about: the exchange and the address handed on
objdump -d --no-show-raw-insn "$OUT/kernel" | awk '/<start_kernel>:/, /^$/' >"$OUT/start.s"
grep -q "xchg .*<ipi_callback>" "$OUT/start.s" || skip "gcc did not write ipi_callback by xchg"
grep -q "mov  *\$0x$(nm "$OUT/kernel" | awk '$3 == "init_handler" { print $1 }' | sed 's/^0*//'),%" \
	"$OUT/start.s" || skip "gcc did not load init_handler's address"

sites()
{
	jget "$1" "sorted([s['function'], s['resolved_by'], s['type'], sorted(s['targets'] or [])] for s in j['indirect_calls'] if s['file'].endswith('core.c'))"
}
proto='"int(struct device*)", ["acpi_notify", "swnode_notify", "uv_notify"]'

run_sp --json --indirect=types -v "$OUT/kernel"
expect_rc 0 "the kernel"
cp "$OUT/stdout" "$OUT/kernel.json"
expect_eq "the kernel's sites" "$(sites "$OUT/kernel.json")" \
	"[[\"init_one\", \"prototype\", $proto], [\"ipi\", \"prototype\", $proto], [\"method_error\", \"table\", \"exception_handler\", [\"acpi_notify\"]], [\"notify_add\", \"table\", \"platform_notify\", []], [\"notify_remove\", \"prototype\", $proto]]"
# no call: notify_add's total is its own frame
expect_eq "notify_add's total" \
	"$(jget "$OUT/kernel.json" "[fn('notify_add')['total'] == fn('notify_add')['self'], fn('notify_add')['bounded']]")" \
	'[true, true]'

run_sp --json --indirect=types "$OUT/program"
expect_rc 0 "the program"
expect_eq "the program's notify_add" \
	"$(jget "$OUT/stdout" "[[s['resolved_by'], sorted(s['targets'])] for s in j['indirect_calls'] if s['function'] == 'notify_add']")" \
	'[["prototype", ["acpi_notify", "swnode_notify", "uv_notify"]]]'

debian_kernel_part
src=${STACKPROF_LINUX_SRC:-/tmp/stackprof-kernel/linux-dwarf4}
[ -d "$src/drivers/base" ] || { skip_part "no Linux 6.1 source at $src"; finish; exit; }
command -v nm >/dev/null || { fail "no nm"; finish; exit; }
# the facts the rule stands on, from the image and the source
nm "$vmlinux" | grep -q " __ksymtab_platform_notify" && fail "platform_notify is exported"
grep -rlE '\bplatform_notify(_remove)?\s*=[^=]' --include=*.c "$src" | while read -r f; do
	[ -f "${f%.c}.o" ] && echo "$f"
done >"$OUT/stores"
expect_eq "the built files that store platform_notify" "$(cat "$OUT/stores")" ""
debian_typed_report "$OUT/vmlinux.json"
expect_eq "device_add's and device_del's platform_notify calls" \
	"$(jget "$OUT/vmlinux.json" "sorted({(s['function'], s['resolved_by'], s['type'], s['ntargets']) for s in j['indirect_calls'] if s['function'] in ('device_add', 'device_del') and (s['type'] or '').startswith('platform_notify')})")" \
	'[["device_add", "table", "platform_notify", 0], ["device_add", "table", "platform_notify_remove", 0], ["device_del", "table", "platform_notify_remove", 0]]'
rm -f "$OUT/vmlinux.json"
finish
