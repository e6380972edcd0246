#!/bin/sh
# --indirect=types narrows a member called through a pointer member
# (p->ev.ops->run) to the objects that pointer member can hold
# (layers/layers.c): struct ops.run's functions are run_a ... run_e, but
#
#   via_call   c->ev.ops->run: calls[]'s ops_a, set_call()'s ops_c (a
#              store through a struct call *) and set_inner()'s ops_e (a
#              store through a struct inner *, which may be a struct
#              call's ev): run_a, run_c, run_e, "via struct call"
#   via_other  o->ev.ops->run: others[]'s ops_d and ops_e: run_d, run_e
#   via_inner  e->ops->run: a struct inner anywhere: every one, as one
#              layer gives (not narrowed)
#
# and the totals follow: via_call's is its frame on run_e's (the deepest
# of the three), not on run_b's, which only the standalone struct inner
# reaches.
. tests/e2e/lib.sh
[ "$(uname -m)" = x86_64 ] || skip "the instruction pass is x86-64's"
command -v gcc >/dev/null || skip "no gcc"

gcc -O2 -g -fno-pie -no-pie -nostdlib -static -o "$OUT/layers" tests/e2e/layers/layers.c ||
	fail "gcc"
run_sp --json --indirect=types "$OUT/layers"
expect_rc 0 "--indirect=types"
j=$OUT/layers.json
cp "$OUT/stdout" "$j"
check_json "$j"

site()
{
	jget "$j" "[[s['resolved_by'], s['type'], sorted(s['targets'])] for s in j['indirect_calls'] if s['function'] == '$1']"
}
expect_eq "via_call" "$(site via_call)" \
	'[["field", "struct ops.run via struct call", ["run_a", "run_c", "run_e"]]]'
expect_eq "via_other" "$(site via_other)" \
	'[["field", "struct ops.run via struct other", ["run_d", "run_e"]]]'
expect_eq "via_inner" "$(site via_inner)" \
	'[["field", "struct ops.run", ["run_a", "run_b", "run_c", "run_d", "run_e"]]]'

f()
{
	echo "[g for g in j['all_functions'] if g['name'] == '$1'][0]['$2']"
}
expect_eq "via_call total" "$(jget "$j" "$(f via_call total)")" \
	"$(jget "$j" "$(f via_call self) + max($(f run_a total), $(f run_c total), $(f run_e total))")"
expect_eq "via_other total" "$(jget "$j" "$(f via_other total)")" \
	"$(jget "$j" "$(f via_other self) + max($(f run_d total), $(f run_e total))")"
expect_eq "via_inner total" "$(jget "$j" "$(f via_inner total)")" \
	"$(jget "$j" "$(f via_inner self) + $(f run_b total)")"
rm -f "$j"
finish
