#!/bin/sh
# --indirect=types: Hyper-V's hypercall page (hypercall/hv.c, after
# arch/x86/hyperv/hv_init.c and asm/mshyperv.h): hv_hypercall_pg, a
# void * that holds only a page an allocator returns (the hypervisor
# fills it with its code), or NULL, or its own saved value.  A call
# through it, by an asm call through the memory operand
# (hv_do_hypercall) or through a cast (hv_do_fast), reaches no function
# of the image: one stand-in of unknown frame,
# <hypervisor code: hv_hypercall_pg>, resolved as a word ("table"), the
# total partial with the reason.  other_pg, of the same shape but not so
# named, stays address-taken (deep, the one function whose address is
# taken), its total bounded and not partial.
. tests/e2e/lib.sh
[ "$(uname -m)" = x86_64 ] || skip "the instruction pass is x86-64's"
command -v gcc >/dev/null || skip "no gcc"

gcc -O2 -g -fno-pie -no-pie -nostdlib -static -o "$OUT/hv" tests/e2e/hypercall/hv.c ||
	fail "gcc"
objdump -d "$OUT/hv" | grep -q 'call  *\*0x[0-9a-f]*(%rip) .*<hv_hypercall_pg>' ||
	fail "no call through hv_hypercall_pg's memory operand"

run_sp --json --indirect=types -v "$OUT/hv"
expect_rc 0 "hv"
j=$OUT/hv.json
cp "$OUT/stdout" "$j"
check_json "$j"
hv="<hypervisor code: hv_hypercall_pg>"
expect_eq "the sites" \
	"$(jget "$j" "sorted([s['function'], s['resolved_by'], s['type'], s['targets'], s['ntargets']] for s in j['indirect_calls'] if s['function'] != '_start')")" \
	"[[\"hv_do_fast\", \"table\", \"hv_hypercall_pg\", [\"$hv\"], 1], [\"hv_do_hypercall\", \"table\", \"hv_hypercall_pg\", [\"$hv\"], 1], [\"other_call\", \"address-taken\", null, null, 1]]"
grep -q "^stackprof: indirect calls: 4 sites: 3 table, .*, 1 address-taken, " "$OUT/stderr" ||
	fail "-v: not 3 table and 1 address-taken"
# the stand-in: no frame, no calls
st="[f for f in j['all_functions'] if f['name'] == '$hv'][0]"
expect_eq "the stand-in" "$(jget "$j" "[$st['self'], $st['calls'], $st['partial']]")" \
	'[null, [], true]'
for f in hv_do_hypercall hv_do_fast; do
	expect_eq "$f's total" \
		"$(jget "$j" "[fn('$f')['lower_bound'], fn('$f')['bounded'], fn('$f')['partial']]")" \
		"$(jget "$j" "[fn('$f')['self'], True, True]")"
	jget "$j" "fn('$f')['reasons']" |
		grep -q "calls hypervisor code through hv_hypercall_pg: a page the hypervisor fills, its frame unknown" ||
		fail "$f: no reason naming the page"
done
# other_pg's call, a tail call: every address-taken function (deep, its
# buffer), bounded and whole
expect_eq "other_call's total" \
	"$(jget "$j" "[fn('other_call')['total'], fn('other_call')['partial'], [c['resolved_by'] for c in fn('other_call')['calls']]]")" \
	"$(jget "$j" "[max(fn('other_call')['self'], fn('deep')['total']), False, ['address-taken']]")"
[ "$(jget "$j" "fn('deep')['self']")" -ge 256 ] || fail "deep's frame under 256"
rm -f "$j"
finish
