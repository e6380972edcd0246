#!/bin/sh
# A map's referenced kptrs' destructors (Linux 6.1; tests/e2e/bpfdtor/
# dtor.c): bpf_map_free_kptrs() calls kptr.dtor, which btf_parse_kptrs()
# sets from kallsyms_lookup_name() (a value no type says): a destructor
# register_btf_id_dtor_kfuncs() took by BTF id, void func(type *).
#
#   demo_test_release, demo_memb_release
#                          BTF_ID(func, ...) of the list, one pointer
#                          parameter: the call's
#   demo_acquire           a BTF id set8's, returns a pointer: not
#   demo_pair_release      two parameters: not
#   other_release          void func(type *), no BTF id: not
#   <module code: the callers of register_btf_id_dtor_kfuncs>
#                          the image exports it (export.h): a module may
#                          register its own; not in a program (NO_KSYMTAB)
#
# other_caller's call of the same type stays its prototype's; and, on
# Debian's 6.1 kernel when it is here, test_run.c's two destructors,
# every target a __BTF_ID__func__ symbol's.
. tests/e2e/lib.sh
[ "$(uname -m)" = x86_64 ] || skip "the instruction pass is x86-64's"
command -v gcc >/dev/null || skip "no gcc"

sites="sorted([s['function'], s['resolved_by'], sorted(s['targets'] or [])] for s in j['indirect_calls'] if s['function'] == 'bpf_map_free_kptrs')"
for v in kernel program; do
	flags=
	[ $v = program ] && flags=-DNO_KSYMTAB
	gcc -O2 -g -fno-pie -no-pie $flags -o "$OUT/dtor" tests/e2e/bpfdtor/dtor.c || fail "gcc"
	"$OUT/dtor" || fail "the program runs its destructors"
	run_sp --json --indirect=types "$OUT/dtor"
	expect_rc 0 "--indirect=types ($v)"
	j=$OUT/dtor.json
	cp "$OUT/stdout" "$j"
	check_json "$j"
	want='"demo_memb_release", "demo_test_release"'
	[ $v = kernel ] && want='"<module code: the callers of register_btf_id_dtor_kfuncs>", '$want
	expect_eq "the destructors' call ($v)" "$(jget "$j" "$sites")" \
		"[[\"bpf_map_free_kptrs\", \"bpf\", [$want]]]"
	expect_eq "other_caller ($v)" "$(jget "$j" "[s['resolved_by'] for s in j['indirect_calls'] if s['function'] == 'other_caller']")" \
		'["prototype"]'
	rm -f "$j"
done

debian_kernel_part
command -v nm >/dev/null || fail "no nm"
debian_typed_report "$OUT/vmlinux.json"
# the functions of the BTF id symbols, and the stand-in
nm "$vmlinux" | sed -n 's/.* __BTF_ID__func__\(.*\)__[0-9]*$/\1/p' | sort -u >"$OUT/btf_ids"
echo "<module code: the callers of register_btf_id_dtor_kfuncs>" >>"$OUT/btf_ids"
jget "$OUT/vmlinux.json" "[s for s in j['indirect_calls'] if s['function'] == 'bpf_map_free_kptrs']" \
	>"$OUT/site"
expect_eq "the kernel's call" "$(python3 -c "import json, sys; s = json.load(open(sys.argv[1])); print(len(s), s[0]['resolved_by'])" "$OUT/site")" \
	"1 bpf"
python3 - "$OUT/site" "$OUT/btf_ids" <<'PY' || fail "the kernel's destructors"
import json, sys
t = set(json.load(open(sys.argv[1]))[0]['targets'])
ids = set(open(sys.argv[2]).read().split('\n')) - {''}
# net/bpf/test_run.c:1720-1746 registers these two
need = {'bpf_kfunc_call_test_release', 'bpf_kfunc_call_memb_release',
        '<module code: the callers of register_btf_id_dtor_kfuncs>'}
if not need <= t:
    sys.exit('missing %s' % sorted(need - t))
if not t <= ids:
    sys.exit('not a BTF id: %s' % sorted(t - ids))
# returns a value, or two parameters: no destructor
bad = {'bpf_kfunc_call_test_acquire', 'bpf_kfunc_call_test1', 'should_failslab'}
if t & bad:
    sys.exit('not a destructor: %s' % sorted(t & bad))
PY
rm -f "$OUT/vmlinux.json"
finish
