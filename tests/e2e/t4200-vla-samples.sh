#!/bin/sh
# --vla over the -O2 samples: vla's row is a real VLA (bound computed at
# run time, frame dynamic), kmax's buf an accidental one (the kernel's
# statement-expression max(): GCC folds the bound, the frame is static)
# with the size DWARF's folded bound gives, alloca's copy_name an alloca()
# user; fixed arrays are not listed.  Lines come from grep -n on the
# sources, qualifiers from the .su rows, sizes from readelf, totals from
# ci_oracle.py: the function's own total.
. tests/e2e/lib.sh

for s in vla kmax alloca; do need_sample $s; done
line() { grep -n "$2" "samples/$1" | head -1 | cut -d: -f1; }
qual() { awk -F'\t' -v n="$2" '{ f = $1; sub(/^.*:/, "", f); if (f == n) print $3 }' "samples/$1"; }

# the JSON: one row each, everything checked field by field
run_sp --vla --json samples/vla/vla
expect_rc 0 "--vla --json vla"
expect_eq "vla: the one VLA" \
	"$(jget "$OUT/stdout" '[(v["function"], v["variable"], v["file"], v["line"], v["kind"], v["frame"], v["bytes"], v["lower_bound"], v["bounded"]) for v in j["vlas"]]')" \
	"[[\"make_row\", \"row\", \"vla/vla.c\", $(line vla/vla.c 'char row\[n + 1\]'), \"run-time\", \"$(qual vla/vla.su make_row)\", null, $(oracle_value vla make_row), false]]"

# kmax: the bound GCC folded is DW_OP_const1u UB: UB + 1 chars
ub=$(readelf --debug-dump=info samples/kmax/kmax |
	sed -n 's/.*DW_AT_upper_bound.*(DW_OP_const1u: \([0-9]*\)).*/\1/p' | head -1)
[ -n "$ub" ] || fail "kmax: no folded DW_OP_const1u bound in readelf's DWARF"
expect_eq "kmax: the folded size is max(40, 71)" "$((ub + 1))" 71
run_sp --vla --json samples/kmax/kmax
expect_rc 0 "--vla --json kmax"
expect_eq "kmax: the accidental VLA" \
	"$(jget "$OUT/stdout" '[(v["function"], v["variable"], v["line"], v["kind"], v["frame"], v["bytes"], v["total"]) for v in j["vlas"]]')" \
	"[[\"format_id\", \"buf\", $(line kmax/kmax.c 'char buf\[max('), \"accidental\", \"$(qual kmax/kmax.su format_id)\", $((ub + 1)), $(oracle_value kmax format_id)]]"
expect_eq "kmax: the frame is static" "$(qual kmax/kmax.su format_id)" static

run_sp --vla --json samples/alloca/alloca
expect_rc 0 "--vla --json alloca"
expect_eq "alloca: copy_name, at the function" \
	"$(jget "$OUT/stdout" '[(v["function"], v["variable"], v["line"], v["kind"], v["frame"], v["lower_bound"]) for v in j["vlas"]]')" \
	"[[\"copy_name\", null, $(line alloca/alloca.c 'copy_name(const char'), \"alloca\", \"$(qual alloca/alloca.su copy_name)\", $(oracle_value alloca copy_name)]]"

# the table: header, the row, the legend
run_sp --vla samples/vla/vla
expect_rc 0 "--vla vla"
expect_eq "vla table header" "$(head -1 "$OUT/stdout" | tr -s ' ')" \
	" TOTAL FRAME VLA BYTES VARIABLE FUNCTION LOCATION"
expect_eq "vla table row" "$(sed -n 2p "$OUT/stdout" | tr -s ' ')" \
	" >= $(oracle_value vla make_row)+ dynamic run-time - row make_row vla/vla.c:$(line vla/vla.c 'char row\[n + 1\]')"
grep -q 'on every path through' "$OUT/stdout" || fail "vla table: no word on what TOTAL is"
run_sp --vla samples/kmax/kmax
expect_eq "kmax table row" "$(sed -n 2p "$OUT/stdout" | tr -s ' ')" \
	" $(oracle_value kmax format_id)+ static accidental 71 buf format_id kmax/kmax.c:$(line kmax/kmax.c 'char buf\[max(')"

# -Wvla style lines, the column from the source
col() { grep "$2" "samples/$1" | head -1 | awk -v w="$3" '{ print index($0, w) }'; }
run_sp --vla=warnings samples/vla/vla
expect_rc 0 "--vla=warnings vla"
expect_eq "vla warning" "$(cat "$OUT/stdout")" \
	"vla/vla.c:$(line vla/vla.c 'char row\[n + 1\]'):$(col vla/vla.c 'char row\[n + 1\]' row): warning: variable-length array 'row' in 'make_row' (bound computed at run time; frame dynamic, worst case >= $(oracle_value vla make_row)+ bytes) [stackprof-vla]"
finish
