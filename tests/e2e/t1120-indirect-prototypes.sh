#!/bin/sh
# --indirect=address-taken narrowed by prototype: where an indirect call
# site's DWARF gives the called function's type (DWARF 5's DW_AT_type on
# DW_TAG_call_site), only the address-taken functions of that prototype
# are assumed targets.  GCC 12 never writes the attribute, so
# call_type.py adds it to GCC's own assembly of tests/data/dwarf/calltypes.c;
# the unpatched build is the control (every address-taken function), and
# a site whose "type" is a function is no type at all (the same).  Totals
# are summed by hand from the .su lines and objdump's red zones.
. tests/e2e/lib.sh

[ "$(uname -m)" = x86_64 ] || skip "x86-64 only (GCC's x86-64 assembly is patched)"
src=tests/data/dwarf/calltypes.c
(cd "$OUT" && gcc -O2 -g -gdwarf-5 -fstack-usage -S -dA -o calltypes.s ../../../../$src) ||
	fail "compile $src"
su=$OUT/calltypes.su
build()	# NAME CALLER=TYPE...: OUT/NAME, its call sites typed so
{
	_n=$1
	shift
	python3 tests/e2e/call_type.py "$OUT/calltypes.s" "$OUT/$_n.s" "$@" &&
		gcc -c -o "$OUT/$_n.o" "$OUT/$_n.s" && gcc -o "$OUT/$_n" "$OUT/$_n.o" ||
		fail "build $_n"
}
build typed apply_un=unop apply_bin=binop
build untyped
build nottype apply_un=apply_bin

max() { printf '%s\n' "$@" | sort -n | tail -n 1; }
frame() { echo $(( $(su_self $su "$1") + $(red_zone "$OUT/typed" "$1") )); }
un=$(( $(frame apply_un) + $(max $(frame inc) $(frame dbl) $(frame leaf)) ))
bin=$(( $(frame apply_bin) + $(max $(frame add) $(frame mul) $(frame leaf)) ))
[ "$(frame add)" -gt "$(frame dbl)" ] || fail "add's frame should be the largest"

assumed()	# REPORT NAME: the targets assumed for NAME's indirect calls
{
	jget "$1" "sorted(c['name'] for c in fn('$2')['calls'] if c['via'] == 'assumed')"
}

run_sp -v --json --indirect=address-taken "$OUT/typed" "$su"
expect_rc 0 typed
cp "$OUT/stdout" "$OUT/typed.json"
# 2 edges from each apply_*, 5 from _start's untyped indirect call
grep -q '^stackprof: 5 address-taken functions, 9 assumed indirect call edges, 2 call sites typed$' \
	"$OUT/stderr" || fail "typed: $(grep address-taken "$OUT/stderr")"
j=$OUT/typed.json
expect_eq "typed: apply_un's targets" "$(assumed $j apply_un)" '["dbl", "inc"]'
expect_eq "typed: apply_bin's targets" "$(assumed $j apply_bin)" '["add", "mul"]'
expect_eq "typed: apply_un" "$(jget $j 'fn("apply_un")["total"]')" "$un"
expect_eq "typed: apply_bin" "$(jget $j 'fn("apply_bin")["total"]')" "$bin"
expect_eq "typed: main bounded now" "$(jget $j '[fn("main")["bounded"], fn("main")["assumed"]]')" \
	'[true, true]'
expect_eq "typed: main" "$(jget $j 'fn("main")["total"]')" \
	$(( $(frame main) + $(max $un $bin) ))
expect_eq "typed: reason" "$(jget $j 'fn("apply_un")["reasons"]')" \
	'["indirect call in apply_un: targets assumed (the address-taken functions of its prototype)"]'

everything='["add", "dbl", "inc", "main", "mul"]'
run_sp --json --indirect=address-taken "$OUT/untyped" "$su"
expect_rc 0 untyped
cp "$OUT/stdout" "$OUT/untyped.json"
expect_eq "untyped: apply_un's targets" "$(assumed $OUT/untyped.json apply_un)" "$everything"
expect_eq "untyped: reason" "$(jget $OUT/untyped.json 'sorted(fn("apply_un")["reasons"])')" \
	'["indirect call in apply_un: targets assumed (every address-taken function)", "recursion apply_un -> main -> apply_un"]'

run_sp -v --json --indirect=address-taken "$OUT/nottype" "$su"
expect_rc 0 "not a type"
cp "$OUT/stdout" "$OUT/nottype.json"
grep -q ', 0 call sites typed$' "$OUT/stderr" || fail "not a type: $(grep typed "$OUT/stderr")"
expect_eq "not a type: apply_un's targets" "$(assumed $OUT/nottype.json apply_un)" "$everything"
finish
