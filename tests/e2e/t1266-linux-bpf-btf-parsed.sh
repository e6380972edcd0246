#!/bin/sh
# annotations/linux.ann's fact that a BPF program's helper finds
# vmlinux's BTF parsed (bpf_check() parses it before any program runs,
# kernel/bpf/verifier.c:15558, 15502-15520), on Debian's 6.1 cloud
# kernel with --indirect=types: the lines apply without 'optional'; the
# helpers that reach bpf_get_btf_vmlinux() (bpf_snprintf_btf and
# bpf_seq_printf_btf through the inlined bpf_btf_printf_prepare(),
# bpf_btf_find_by_name_kind through bpf_find_btf_id(), source:
# kernel/trace/bpf_trace.c:996, kernel/bpf/btf.c:545) reach
# btf_parse_vmlinux() without the lines and not with them, while the
# verifier's own calls (bpf_check(), bpf_prog_load()'s attach BTF,
# syscall.c:2579) keep it; the cycle through the raw tracepoint's
# programs' bpf_snprintf_btf is named without the lines and not with
# them.  Needs the unpacked debug kernel (another one:
# STACKPROF_DEBIAN_VMLINUX=PATH); skips without it.
. tests/e2e/lib.sh

vmlinux=${STACKPROF_DEBIAN_VMLINUX:-/tmp/debian-kernel/root/usr/lib/debug/boot/vmlinux-6.1.0-47-cloud-amd64}
[ -r "$vmlinux" ] || skip "no Debian debug kernel at $vmlinux"
no_kernel_under_asan

pat='ignore bpf_get_btf_vmlinux btf_parse_vmlinux from '
grep "^optional $pat" annotations/linux.ann | sed 's/^optional //' >"$OUT/lines.ann"
grep -v "^optional $pat" annotations/linux.ann >"$OUT/rest.ann"
expect_eq "three lines in annotations/linux.ann" "$(wc -l <"$OUT/lines.ann" | tr -d ' ')" 3

# "$SP", not run_sp: two typed reports of 60 MB, whose schema the
# kernel tests' shared runs check, would take minutes more to check
"$SP" --json --indirect=types -o "$OUT/without.json" \
	--annotate "$OUT/rest.ann" "$vmlinux" >"$OUT/stdout" 2>"$OUT/stderr"
rc=$?
expect_rc 0 "the kernel with the rest of annotations/linux.ann"
"$SP" --json --indirect=types -o "$OUT/with.json" \
	--annotate "$OUT/rest.ann" --annotate "$OUT/lines.ann" "$vmlinux" >"$OUT/stdout" 2>"$OUT/stderr"
rc=$?
expect_rc 0 "the lines apply to $vmlinux without 'optional'"

for r in without with; do
	python3 - "$OUT/$r.json" >"$OUT/$r.txt" <<'PY'
import json, sys
F = json.load(open(sys.argv[1]))["functions"]

def below(names, chain):
    """the functions named chain[-1] that FUNC (of names) reaches
    through the calls named chain, one call each"""
    at = [f for f in F if f["name"] in names]
    for name in chain:
        at = [F[c["id"]] for g in at for c in g["calls"]
              if F[c["id"]]["name"] == name]
    return at

def parses(names, chain):
    ends = below(names, chain)
    return sorted({any(F[c["id"]]["name"] == "btf_parse_vmlinux"
                       for c in g["calls"]) for g in ends})

print("snprintf", parses({"bpf_snprintf_btf"}, ["bpf_get_btf_vmlinux"]))
print("seq", parses({"bpf_seq_printf_btf"}, ["bpf_get_btf_vmlinux"]))
print("find", parses({"bpf_btf_find_by_name_kind"},
                     ["bpf_find_btf_id", "bpf_get_btf_vmlinux"]))
print("prog_load", parses({"bpf_prog_load"}, ["bpf_get_btf_vmlinux"]))
print("check", sorted({any(F[c["id"]]["name"] == "btf_parse_vmlinux"
                           for c in f["calls"])
                       for f in F if f["name"] == "bpf_check"}))
cyc = "recursion bpf_snprintf_btf -> bpf_get_btf_vmlinux -> btf_parse_vmlinux -> "
print("cycle", any(r.startswith(cyc) for f in F for r in f.get("reasons") or []))
PY
done
expect_eq "without the lines every helper reaches btf_parse_vmlinux" "$(cat "$OUT/without.txt")" \
	"snprintf [True]
seq [True]
find [True]
prog_load [True]
check [True]
cycle True"
expect_eq "with them no helper does; the verifier still parses" "$(cat "$OUT/with.txt")" \
	"snprintf [False]
seq [False]
find [False]
prog_load [True]
check [True]
cycle False"
finish
