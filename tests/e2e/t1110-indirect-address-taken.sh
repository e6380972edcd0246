#!/bin/sh
# --indirect=address-taken on samples/indirect, as built (PIE: the ops
# table is rebased by R_X86_64_RELATIVE relocations) and again with
# -no-pie (the table holds the addresses themselves).  By the source, the
# functions whose address the program takes are op_double and op_negate
# (the ops table) and main (the C runtime's _start hands it to
# __libc_start_main); crt's frame_dummy & co. have no sized symbol, so
# they are no functions.  An indirect call may reach main again: sound,
# hence recursive and unbounded until 'ignore dispatch main'.  Totals are
# summed by hand from the .su lines.
. tests/e2e/lib.sh
need_sample indirect

max() { [ "$1" -gt "$2" ] && echo "$1" || echo "$2"; }
su=samples/indirect/indirect.su
s_main=$(su_self $su main)
s_dispatch=$(su_self $su dispatch)
s_double=$(( $(su_self $su op_double) + $(red_zone samples/indirect/indirect op_double) ))
s_negate=$(( $(su_self $su op_negate) + $(red_zone samples/indirect/indirect op_negate) ))
dispatch=$((s_dispatch + $(max $s_double $s_negate)))
main=$((s_main + dispatch))
printf 'ignore dispatch main\n' >"$OUT/a.ann"

check()	# LABEL ELF [SU]
{
	_l=$1
	shift
	[ "$(uname -m)" = x86_64 ] || return 0
	run_sp -v --indirect=address-taken "$@"
	expect_rc 0 "$_l"
	# the edges: 3 for each function with indirect calls (dispatch, _start)
	grep -q '^stackprof: 3 address-taken functions, [0-9]* assumed indirect call edges, 0 call sites typed$' \
		"$OUT/stderr" || fail "$_l: $(grep address-taken "$OUT/stderr")"
	run_sp --json --indirect=address-taken "$@"
	cp "$OUT/stdout" "$OUT/$_l.json"
	j=$OUT/$_l.json
	expect_eq "$_l: dispatch unbounded" "$(jget $j 'fn("dispatch")["bounded"]')" false
	expect_eq "$_l: through main" \
		"$(jget $j '"recursion dispatch -> main -> dispatch" in fn("dispatch")["reasons"]')" true

	run_sp --json --indirect=address-taken --annotate "$OUT/a.ann" "$@"
	expect_rc 0 "$_l + ignore"
	cp "$OUT/stdout" "$OUT/$_l-ign.json"
	j=$OUT/$_l-ign.json
	expect_eq "$_l: dispatch total" "$(jget $j 'fn("dispatch")["total"]')" "$dispatch"
	expect_eq "$_l: dispatch assumed" "$(jget $j 'fn("dispatch")["assumed"]')" true
	expect_eq "$_l: reached by assumption" \
		"$(jget $j '[d["via"] for d in fn("dispatch")["path_detail"]]')" \
		'[null, "assumed"]'
	expect_eq "$_l: dispatch reasons" "$(jget $j 'fn("dispatch")["reasons"]')" \
		'["indirect call in dispatch: targets assumed (every address-taken function)"]'
	expect_eq "$_l: main" "$(jget $j 'fn("main")["lower_bound"]')" "$main"
	expect_eq "$_l: main bounded, assumed" \
		"$(jget $j '[fn("main")["bounded"], fn("main")["assumed"]]')" '[true, true]'
	expect_eq "$_l: direct untouched" "$(jget $j 'fn("direct")["assumed"]')" false
	run_sp --indirect=address-taken --annotate "$OUT/a.ann" "$@"
	grep -Eq "^ +~ $dispatch  +$s_dispatch +static +dispatch " "$OUT/stdout" ||
		fail "$_l: text table does not show '~ $dispatch' for dispatch"
	grep -q "^  '~ N'  bounded by assumption" "$OUT/stdout" ||
		fail "$_l: text legend lacks '~ N'"
}

check pie samples/indirect/indirect

# the same source, not PIE: absolute addresses in .data and in the code
mkdir -p "$OUT/nopie"
(cd samples && gcc -O2 -g -fstack-usage -fno-pie -c indirect/indirect.c \
	-o ../"$OUT"/nopie/indirect.o) || fail "compile -fno-pie"
gcc -no-pie -o "$OUT/nopie/indirect" "$OUT/nopie/indirect.o" || fail "link -no-pie"
readelf -h "$OUT/nopie/indirect" | grep -q 'EXEC' || fail "-no-pie did not make ET_EXEC"
cmp -s "$OUT/nopie/indirect.su" $su || fail "-fno-pie changed the frames: $(cat "$OUT/nopie/indirect.su")"
check nopie "$OUT/nopie/indirect" "$OUT/nopie/indirect.su"

# without the option nothing is assumed
run_sp --json samples/indirect/indirect
cp "$OUT/stdout" "$OUT/none.json"
expect_eq "default: dispatch unbounded" "$(jget $OUT/none.json 'fn("dispatch")["reasons"]')" \
	'["indirect call in dispatch"]'
run_sp --indirect=none samples/indirect/indirect
expect_rc 0 "--indirect=none"
run_sp --indirect=all samples/indirect/indirect
expect_rc 2 "--indirect=all"
grep -q "^stackprof: invalid --indirect 'all' (none, types or address-taken)$" "$OUT/stderr" ||
	fail "--indirect=all: '$(cat "$OUT/stderr")'"
finish
