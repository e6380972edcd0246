#!/bin/sh
# Retpolines: with -mindirect-branch=thunk GCC writes every indirect call
# as a direct "call __x86_indirect_thunk_rax" (the kernel's build), and
# with -mfunction-return=thunk-extern every return as a jump to
# __x86_return_thunk.  Such a call is an indirect call, whatever DWARF
# lists (GCC gives the non-tail one no call-site DIE): unbounded without
# --indirect, resolved with it; and a jump to the return thunk is no call.
# Once linked (the thunks GCC emits itself, by address) and as a module
# (thunk-extern: relocations to undefined symbols, by name).  The totals
# with --indirect=types are summed by hand from the .su lines: call ->
# o->f (a or b, struct ops.f holds only those), tail -> o->f by a jump.
. tests/e2e/lib.sh
[ "$(uname -m)" = x86_64 ] || { skip "x86-64 retpolines"; exit; }

cat >"$OUT/ic.c" <<'EOF'
struct ops { int (*f)(int); };
static int a(int x) { volatile char b[64]; b[0] = (char)x; return b[0]; }
static int b(int x) { volatile char c[32]; c[0] = (char)x; return c[0] + 1; }
struct ops oa = { a }, ob = { b };
int call(struct ops *o, int x) { volatile char d[16]; d[0] = (char)x; return o->f(d[0]) + 2; }
int tail(struct ops *o, int x) { return o->f(x); }
#ifdef MAIN
int main(int argc, char **argv) { (void)argv; return call(argc > 1 ? &ob : &oa, argc); }
#endif
EOF
flags="-O2 -g -mno-red-zone -fstack-usage"
if ! (cd "$OUT" &&
      gcc $flags -mindirect-branch=thunk -DMAIN ic.c -o ic &&
      gcc $flags -mindirect-branch=thunk-extern -mfunction-return=thunk-extern \
	-c ic.c -o ic.ko); then
	fail "cannot build with retpolines"
	finish
	exit
fi
objdump -d "$OUT/ic" | grep -q 'call.*<__x86_indirect_thunk_rax>' ||
	fail "ic calls through no retpoline thunk"
[ "$(readelf -rW "$OUT/ic.ko" | grep -c '__x86_indirect_thunk_rax')" -eq 2 ] ||
	fail "ic.ko: want a call and a jump to __x86_indirect_thunk_rax"

max() { [ "$1" -gt "$2" ] && echo "$1" || echo "$2"; }
su=$OUT/ic.su
target=$(max "$(su_self "$su" a)" "$(su_self "$su" b)")
call=$(( $(su_self "$su" call) + target ))

for elf in ic ic.ko; do
	run_sp --json "$OUT/$elf"
	expect_rc 0 "$elf"
	cp "$OUT/stdout" "$OUT/$elf.json"
	j=$OUT/$elf.json
	expect_eq "$elf: call, tail unbounded by their indirect calls" \
		"$(jget "$j" '[fn(n)["reasons"] for n in ("call", "tail")]')" \
		'[["indirect call in call"], ["indirect call in tail"]]'
	expect_eq "$elf: no thunk is a function called" \
		"$(jget "$j" '[f["name"] for f in j["functions"] if "thunk" in f["name"] or any("thunk" in r for r in f["reasons"])]')" \
		'[]'

	run_sp --json --indirect=types "$OUT/$elf"
	expect_rc 0 "$elf --indirect=types"
	cp "$OUT/stdout" "$OUT/$elf-types.json"
	j=$OUT/$elf-types.json
	expect_eq "$elf: call, tail resolved by struct ops.f" \
		"$(jget "$j" '[[fn(n)["lower_bound"], fn(n)["bounded"], fn(n)["partial"]] for n in ("call", "tail")]')" \
		"[[$call, true, false], [$target, true, false]]"
done
finish
