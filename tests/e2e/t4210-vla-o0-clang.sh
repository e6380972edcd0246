#!/bin/sh
# --vla where the kind depends on the compiler: at -O0 GCC reads both the
# real VLA's and kmax's max() bound from the frame (DW_OP_fbreg;
# DW_OP_deref), so both are 'frame' (build with optimisation to tell them
# apart) and both frames are dynamic in their .su rows; clang -O2 gives
# the real VLA a DW_AT_count naming its __vla_expr variable: 'run-time'.
# A program without VLA or alloca() gives the header only, exit 0.
. tests/e2e/lib.sh

d=$OUT/vla-o0
mkdir -p "$d"
cp samples/vla/vla.c samples/vla/fill.c samples/kmax/kmax.c samples/kmax/use.c "$d"/
(cd "$d" && gcc -O0 -g -fstack-usage -o vla0 vla.c fill.c &&
	gcc -O0 -g -fstack-usage -o kmax0 kmax.c use.c) || fail "cannot build at -O0"
qual() { awk -F'\t' -v n="$2" '{ f = $1; sub(/^.*:/, "", f); if (f == n) print $3 }' "$d"/$1; }
expect_eq "-O0: make_row's frame is dynamic in .su" "$(qual "vla0-vla.su" make_row)" dynamic
expect_eq "-O0: format_id's frame is dynamic in .su" "$(qual "kmax0-kmax.su" format_id)" dynamic
readelf --debug-dump=info "$d/kmax0" | grep -q 'DW_AT_upper_bound.*DW_OP_fbreg' ||
	fail "-O0 kmax: readelf shows no frame-read bound"

run_sp --vla --json "$d/vla0"
expect_rc 0 "--vla -O0 vla"
expect_eq "-O0 vla: bound read from the frame" \
	"$(jget "$OUT/stdout" '[(v["function"], v["variable"], v["kind"], v["frame"]) for v in j["vlas"]]')" \
	'[["make_row", "row", "frame", "dynamic"]]'
run_sp --vla --json "$d/kmax0"
expect_eq "-O0 kmax: also read from the frame" \
	"$(jget "$OUT/stdout" '[(v["function"], v["variable"], v["kind"], v["frame"]) for v in j["vlas"]]')" \
	'[["format_id", "buf", "frame", "dynamic"]]'
run_sp --vla "$d/kmax0"
grep -q 'optimis' "$OUT/stdout" || fail "-O0 table: does not say to build with optimisation"

if ! command -v clang >/dev/null; then
	fail "clang is missing (tools/install-deps)"
else
	(cd "$d" && clang -O2 -g -fstack-usage -o vlac vla.c fill.c) || fail "clang build"
	readelf --debug-dump=info "$d/vlac" | grep -q 'DW_AT_count' ||
		fail "clang: no DW_AT_count in its DWARF"
	run_sp --vla --json "$d/vlac"
	expect_rc 0 "--vla clang vla"
	expect_eq "clang vla: DW_AT_count, run-time" \
		"$(jget "$OUT/stdout" '[(v["function"], v["variable"], v["kind"]) for v in j["vlas"]]')" \
		'[["make_row", "row", "run-time"]]'
fi

need_sample chain
run_sp --vla samples/chain/chain
expect_rc 0 "--vla without VLAs"
expect_eq "no VLA: the header only" "$(wc -l <"$OUT/stdout" | tr -d ' ')" 1
finish
