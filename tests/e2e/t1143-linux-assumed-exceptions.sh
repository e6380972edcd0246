#!/bin/sh
# annotations/linux-assumed.ann's assumptions on the kernel's direct-call
# cycles that failures close (compaction below compaction, panic() below
# panic() and the console's cycles through it, a WARN() below a WARN(),
# exceptions below exceptions), on Debian's 6.1 cloud kernel: each line
# applies without 'optional' (every name is the kernel's, the exception
# nodes included), and the function each line counts carries the reason
# "assumed by annotation: FILE:LINE: DIRECTIVE" of that line, its total
# marked assumed; without the lines no such reason.
# Needs the unpacked debug kernel (another one:
# STACKPROF_DEBIAN_VMLINUX=PATH); skips without it.
. tests/e2e/lib.sh

vmlinux=${STACKPROF_DEBIAN_VMLINUX:-/tmp/debian-kernel/root/usr/lib/debug/boot/vmlinux-6.1.0-47-cloud-amd64}
[ -r "$vmlinux" ] || skip "no Debian debug kernel at $vmlinux"
no_kernel_under_asan

pat='^optional assume (once (__alloc_pages_direct_compact|panic|<warning>)|nest (console_emit_next_record|__up_console_sem\.constprop\.0|<page fault>|<general protection>|<invalid opcode>) 2)$'
grep -E "$pat" annotations/linux-assumed.ann | sed 's/^optional //' >"$OUT/lines.ann"
expect_eq "the lines in annotations/linux-assumed.ann" "$(wc -l <"$OUT/lines.ann")" 8

run_sp --json --annotate "$OUT/lines.ann" "$vmlinux"
expect_rc 0 "the lines apply to $vmlinux without 'optional'"
cp "$OUT/stdout" "$OUT/with.json"
run_sp --json "$vmlinux"
expect_rc 0 "the kernel without the lines"
cp "$OUT/stdout" "$OUT/without.json"
# per line: [the function it counts, has that line's reason, assumed]
for r in with without; do
	python3 - "$OUT/$r.json" "$OUT/lines.ann" >"$OUT/$r.txt" <<'PY'
import json, sys
F = json.load(open(sys.argv[1]))["functions"]
path = sys.argv[2]
out = []
for i, line in enumerate(open(sys.argv[2])):
    d = line.split(None, 1)[1].strip()          # past 'assume'
    w = d.split(None, 1)[1]                     # past once/nest
    name = w[:w.index(">") + 1] if w.startswith("<") else w.split()[0]
    fs = [f for f in F if f["name"] == name or f.get("symbol") == name]
    reason = "assumed by annotation: %s:%d: %s" % (path, i + 1, d)
    out.append([name, bool(fs) and all(reason in f["reasons"] for f in fs),
                bool(fs) and all(f["assumed"] for f in fs)])
print(json.dumps(out))
PY
done
expect_eq "with the lines each function carries its line's reason, assumed" "$(cat "$OUT/with.txt")" \
	'[["__alloc_pages_direct_compact", true, true], ["panic", true, true], ["console_emit_next_record", true, true], ["__up_console_sem.constprop.0", true, true], ["<warning>", true, true], ["<page fault>", true, true], ["<general protection>", true, true], ["<invalid opcode>", true, true]]'
expect_eq "without them no such reason" "$(python3 -c 'import json,sys; print(sorted(set(x[1] for x in json.load(open(sys.argv[1])))))' "$OUT/without.txt")" '[False]'
finish
