#!/bin/sh
# Frames from the CFI: the hand-written functions of tests/e2e/asm/frames.S
# have no .su row; each frame must be what its code pushes, added up here
# from the assembly text (8 for the return address, as GCC's .su counts
# it, 8 per push, the constants subtracted from %rsp), marked "cfi", and
# hold the painted-stack peak.  A function whose CFA moves to %rbp stays
# unknown.  The .su frames of the C side must agree with their CFI (-v).
# FDEs looked up one by one through .eh_frame_hdr give the frames
# libdwarf's list gives: here, on every sample and on a "zPLR" CIE.
. tests/e2e/lib.sh
src=tests/e2e/asm
mkdir -p "$OUT/b"
cp $src/*.c $src/*.S "$OUT/b/"
(cd "$OUT/b" && gcc -O2 -g -fstack-usage -c main.c && gcc -g -c frames.S &&
	gcc -o asm main.o frames.o) || { fail "cannot build $src"; finish; exit; }
bin=$OUT/b/asm

# by hand from frames.S: FUNC FRAME RED-ZONE, the frame from the push and
# sub lines up to the first ret, the red zone from a negative %rsp offset
awk '
/^[a-z_]+:$/ { f = substr($1, 1, length($1) - 1); frame[f] = 8; red[f] = 0; on = 1; n[++k] = f; next }
on && $1 == "push" { frame[f] += 8 }
on && $1 == "sub" && $3 == "%rsp" { v = $2; gsub(/[$,]/, "", v); frame[f] += v }
on && $1 == "mov" && $3 ~ /^-[0-9]+\(%rsp\)$/ { v = $3; sub(/^-/, "", v); sub(/\(.*/, "", v); red[f] = v }
on && $1 == "ret" { on = 0 }
END { for (i = 1; i <= k; i++) print n[i], frame[n[i]], red[n[i]] }
' $src/frames.S >"$OUT/hand"
expect_eq "frames.S by hand" "$(cat "$OUT/hand" | tr '\n' ';')" \
	"asm_leaf 64 16;asm_caller 32 0;asm_fp 80 0;"

run_sp --json -v $bin
expect_rc 0 "stackprof --json"
j=$OUT/stdout
for f in asm_leaf asm_caller; do
	expect_eq "$f: frame from CFI = what its code pushes" \
		"$(jget $j "[fn('$f')['frame_source'], fn('$f')['qualifier'], fn('$f')['self']]")" \
		"[\"cfi\", \"static\", $(awk -v f=$f '$1 == f { print $2 }' "$OUT/hand")]"
	expect_eq "$f: red zone" "$(jget $j "fn('$f')['red_zone']")" \
		"$(awk -v f=$f '$1 == f { print $3 }' "$OUT/hand")"
done
# asm_caller's total: its CFI frame and c_leaf's .su frame (+ red zone)
cl=$(( $(su_self "$OUT/b/main.su" c_leaf) + $(jget $j 'fn("c_leaf")["red_zone"]') ))
expect_eq "asm_caller: total" "$(jget $j 'fn("asm_caller")["total"]')" "$((32 + cl))"
expect_eq "asm_caller: path" "$(jget $j 'fn("asm_caller")["path"]')" '["asm_caller", "c_leaf"]'
# the frame pointer: "sub $64" is after the CFA moved to %rbp, so unknown
expect_eq "asm_fp: unknown, never a guess" \
	"$(jget $j "[fn('asm_fp')['self'], fn('asm_fp')['qualifier']]")" '[null, "unknown"]'
expect_eq "main: partial through asm_fp" "$(jget $j 'fn("main")["partial"]')" true
expect_eq "c_leaf: its .su frame" "$(jget $j 'fn("c_leaf")["frame_source"]')" '"su"'
grep -Eq '^stackprof: CFI: [0-9]+ frames where \.su has none, ([0-9]+) of \1 \.su frames agree' \
	"$OUT/stderr" || fail "-v: CFI line: $(grep CFI "$OUT/stderr")"

# the text report marks them
run_sp $bin
grep -Eq '^ +[0-9]+ +64\+16 +static \(cfi\) +asm_leaf ' "$OUT/stdout" ||
	fail "text: no 'static (cfi)' row for asm_leaf"
grep -q 'asm_caller .*\[cfi\]' "$OUT/stdout" || fail "text: no [cfi] mark on a path"

# FDEs found one by one through .eh_frame_hdr (each shown to libdwarf in a
# window of .eh_frame, as when few functions need a frame) give what
# libdwarf's list of all of them gives (lib.sh's cfi_ways)
cfi_ways asm $bin
expect_eq "asm_leaf: its CFI frame found one by one" \
	"$(jget "$OUT/one-by-one.json" "[fn('asm_leaf')['frame_source'], fn('asm_leaf')['self']]")" \
	"[\"cfi\", $(awk '$1 == "asm_leaf" { print $2 }' "$OUT/hand")]"
for d in samples/*/; do
	s=$(basename "$d")
	if [ -x "$d$s" ]; then
		cfi_ways "$s" "$d$s"
	else
		fail "$d$s is not built (make -C samples)"
	fi
done
# a CIE with a personality routine ("zPLR": -fexceptions and a cleanup):
# its pc-relative pointer moves with the copy, and must not matter
cat >"$OUT/eh.c" <<'EOF'
#include <stdio.h>
static void done(int *p) { printf("done %d\n", *p); }
__attribute__((noinline)) void work(int x) { printf("%d\n", x); }
__attribute__((noinline)) int cleaned(int x)
{
	int v __attribute__((cleanup(done))) = x;
	char buf[40];

	snprintf(buf, sizeof(buf), "%d", x);
	work(buf[0]);
	return v;
}
int main(int argc, char **argv) { (void)argv; return cleaned(argc); }
EOF
if gcc -O2 -g -fexceptions -fstack-usage -o "$OUT/eh" "$OUT/eh.c" 2>/dev/null; then
	readelf -wf "$OUT/eh" | grep -q 'Augmentation: *"zPLR"' ||
		fail "eh: no zPLR CIE to test"
	cfi_ways eh "$OUT/eh"
else
	fail "cannot compile eh.c"
fi

# the painted stack (tests/oracle): each CFI bound holds the peak
if [ "$(uname -m)" = x86_64 ]; then
	OPT=-O2 ORACLE_SRC=tests/e2e
	. tests/oracle/run.sh
	oracle_check_sample asm
	expect_eq "painted stack: entries OK" "$(grep -c '^OK ' "$OUT/asm.cmp")" 3
else
	skip_part "the painted stack: tests/oracle/paint.c is x86-64 assembly"
fi
finish
