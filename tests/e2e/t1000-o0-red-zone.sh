#!/bin/sh
# samples/o0, built at -O0: no DWARF call sites (the calls come from the
# machine code) and leaves that keep their locals in the x86-64 red zone.
# Every total must be the value of GCC's .ci graph plus exactly the
# red-zone bytes on its worst path, those bytes must be what objdump's
# code shows, and every total must hold the painted-stack peak.
. tests/e2e/lib.sh
need_sample o0
bin=samples/o0/o0

# the sample is what this test is about
readelf --debug-dump=info $bin >"$OUT/info" 2>/dev/null
grep -q 'DW_AT_producer.* -O0' "$OUT/info" || fail "samples/o0 is not built with -O0"
expect_eq "-O0: no DWARF call sites" \
	"$(grep -cE 'DW_TAG_(GNU_)?call_site' "$OUT/info")" 0

run_sp --json $bin
expect_rc 0 "stackprof --json"
j=$OUT/stdout
cp "$j" "$OUT/o0.json"

# By hand from objdump -d of this build (GCC 12, -O0):
#   small_leaf: push %rbp; mov %rsp,%rbp; the lowest store is
#     mov %esi,-0x18(%rbp): 24 bytes below %rsp, .su says 16;
#   big_leaf: push %rbp; mov %rsp,%rbp; sub $0xc8,%rsp; the lowest
#     store is mov %edi,-0x134(%rbp): 0x134 - 0xc8 = 108 below %rsp,
#     .su says 216 (8 + 8 + 0xc8);
#   middle and main call, so they have none.
# The figures themselves come from ci_oracle.py --red-zones (its own
# reading of objdump -d), so another compiler's layout is still checked.
$ORACLE --red-zones $bin >"$OUT/red" || fail "ci_oracle.py --red-zones"
for f in small_leaf big_leaf middle main; do
	expect_eq "$f: red_zone = objdump's" "$(jget $j "fn('$f')['red_zone']")" \
		"$(awk -v f=$f '$1 == f { print $2 }' "$OUT/red")"
done
expect_eq "the leaves have a red zone" \
	"$(jget $j '[f["name"] for f in j["functions"] if f["red_zone"] > 0]')" \
	'["big_leaf", "small_leaf"]'
expect_eq "calls from the code only" \
	"$(jget $j 'fn("main")["path"]')" '["main", "middle", "big_leaf"]'

# total = the .ci value (without red zones) + the red zones on the path
$ORACLE --print samples/o0 >"$OUT/ci" || fail "ci_oracle.py --print"
for f in small_leaf big_leaf middle main; do
	ci=$(awk -F'\t' -v f=$f '$1 == f { sub(/^total=/, "", $4); print $4 }' "$OUT/ci")
	red=$(jget $j "sum(d['red_zone'] for d in fn('$f')['path_detail'])")
	expect_eq "$f: path_red_zone" "$(jget $j "fn('$f')['path_red_zone']")" "$red"
	expect_eq "$f: total = .ci $ci + red zone $red" \
		"$(jget $j "fn('$f')['total']")" "$((ci + red))"
	expect_eq "$f: bounded, not partial" \
		"$(jget $j "[fn('$f')['bounded'], fn('$f')['partial']]")" '[true, false]'
done
expect_eq "main's path red zone: big_leaf's" \
	"$(jget $j 'fn("main")["path_red_zone"]')" "$(jget $j 'fn("big_leaf")["red_zone"]')"

# the text report: SELF N+R and the [red-zone R] mark
run_sp $bin
grep -Eq "^ +[0-9]+ +[0-9]+\+[0-9]+ +static +big_leaf " "$OUT/stdout" ||
	fail "text: no 'SELF N+R' row for big_leaf"
grep -q 'big_leaf .*\[red-zone [0-9]*\]' "$OUT/stdout" || fail "text: no [red-zone] mark"

# -mno-red-zone (the kernel's flag, in DW_AT_producer): nothing added,
# and the frames .su gives then hold the locals
mkdir -p "$OUT/nrz"
cp samples/o0/*.c samples/o0/*.h "$OUT/nrz/"
(cd "$OUT/nrz" && gcc -O0 -g -mno-red-zone -fstack-usage -c leaves.c &&
	gcc -O0 -g -mno-red-zone -fstack-usage -c o0.c && gcc -o nrz leaves.o o0.o) ||
	fail "cannot build with -mno-red-zone"
run_sp --json "$OUT/nrz/nrz"
expect_rc 0 "-mno-red-zone"
expect_eq "-mno-red-zone: no red zone" \
	"$(jget $OUT/stdout '[f["name"] for f in j["functions"] if f["red_zone"]]')" '[]'
expect_eq "-mno-red-zone: objdump agrees" \
	"$($ORACLE --red-zones "$OUT/nrz/nrz" | awk '$1 ~ /_leaf$/ && $2 != 0')" ''

# the painted stack at -O0: every bound holds the peak (tests/oracle)
if [ "$(uname -m)" = x86_64 ]; then
	OPT=-O0
	. tests/oracle/run.sh
	oracle_check_sample o0
	grep -c '^OK ' "$OUT/o0.cmp" | grep -qx 4 || fail "painted stack: not 4 entries OK"
else
	skip_part "the painted stack: tests/oracle/paint.c is x86-64 assembly"
fi
finish
