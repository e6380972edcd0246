#!/bin/sh
# ORC frames from objtool itself: tests/e2e/orc/kfuncs.c and kcold.c built
# as the kernel builds (no red zone, no asynchronous unwind tables, int3
# after each ret and indirect jump), then `objtool --orc` of Linux 6.1
# (tests/e2e/orc/objtool.sh builds it from linux-source-6.1; skipped
# without it).  Read linked into a program (its table out of address
# order: .text.unlikely and .text.hot come first), as objects and as a
# module made by ld -r, with the .su files moved away so that ORC is
# the source.  Two independent oracles: GCC's .su frame of each
# function, and dump_frames.py's reading of `objtool --dump=orc`
# (objtool's own decoding of the table) with nm's function ranges.
. tests/e2e/lib.sh
[ "$(uname -m)" = x86_64 ] || skip "x86-64 only"
objtool=$(sh tests/e2e/orc/objtool.sh 2>"$OUT/objtool.err")
case $? in
0) ;;
3) skip "$(cat "$OUT/objtool.err")" ;;
*) fail "cannot build objtool: $(cat "$OUT/objtool.err")"; finish; exit ;;
esac
src=tests/e2e/orc b=$OUT/b
mkdir -p "$b/su"
cp $src/kfuncs.c $src/kcold.c $src/main.c "$b/"
flags="-O2 -g -fstack-usage -mno-red-zone -fno-asynchronous-unwind-tables \
-fomit-frame-pointer -fno-stack-protector -fcf-protection=none -mharden-sls=all"
(cd "$b" && gcc $flags -c kfuncs.c && gcc $flags -ffunction-sections -c kcold.c &&
	gcc -O2 -g -c main.c && "$objtool" --orc kfuncs.o && "$objtool" --orc kcold.o &&
	gcc -o prog main.o kfuncs.o kcold.o && ld -r kfuncs.o kcold.o -o mod.ko) \
	>"$OUT/build.log" 2>&1 || { fail "cannot build: $(tail -3 "$OUT/build.log")"; finish; exit; }
# objtool followed every function to its end: no warning
[ -s "$OUT/build.log" ] && fail "objtool or the build warned: $(head -3 "$OUT/build.log")"
mv "$b"/*.su "$b/su/"

# the oracle: objtool's dump of the linked table, nm's ranges
"$objtool" --dump=orc "$b/prog" >"$OUT/prog.dump" &&
	nm -S --defined-only "$b/prog" >"$OUT/prog.nm" &&
	python3 $src/dump_frames.py "$OUT/prog.dump" "$OUT/prog.nm" >"$OUT/oracle" ||
	{ fail "dump_frames.py: $(tail -1 "$OUT/oracle")"; finish; exit; }
oracle() { awk -v f="$1" '$1 == f && $2 != "undefined-inside" { print $2 }' "$OUT/oracle"; }
# the shapes kfuncs.c is written to make
for f in k_fp k_alloca; do
	expect_eq "oracle: $f on %rbp" "$(oracle $f)" other
done
for f in k_tail k_check; do
	grep -qx "$f undefined-inside" "$OUT/oracle" || fail "oracle: no undefined row inside $f"
done
"$objtool" --dump=orc "$b/kcold.o" | grep -q '^\.text\.unlikely' ||
	fail "kcold.o has no .text.unlikely rows"
python3 -c 'import sys; a = [int(l.split(":")[0], 16) for l in open(sys.argv[1])]
sys.exit(a == sorted(a))' "$OUT/prog.dump" || fail "the linked table is in address order: nothing to sort"

# check DESC REPORT MIN: every function the oracle gives a frame has
# that frame from ORC, and it is .su's; the others have none from ORC;
# at least MIN frames checked
check()
{
	python3 - "$OUT/oracle" "$2" "$1" "$3" "$b"/su/*.su >"$OUT/check" <<'PY' || fail "$1: no check"
import json, sys
sys.path.insert(0, "tests/e2e")
import sp_report
oracle_file, report, desc, least = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
oracle = {}
for line in open(oracle_file):
    name, what = line.split()
    if what != "undefined-inside":
        oracle[name] = what
su = {}
for path in sys.argv[5:]:
    for line in open(path):
        where, size, qual = line.rstrip("\n").split("\t")
        if qual == "static":
            su[where.rsplit(":", 1)[1]] = int(size)
checked = 0
for f in sp_report.load(report)["functions"]:
    want = oracle.get(f["symbol"] or f["name"])
    if want is None:
        continue
    got = [f["frame_source"], f["self"]]
    if want.isdigit():
        checked += 1
        if got != ["orc", int(want)]:
            print(f"{desc}: {f['name']}: {got}, objtool's dump says {want}")
        if f["name"] in su and su[f["name"]] != int(want):
            print(f"{desc}: {f['name']}: ORC {want}, .su {su[f['name']]}")
    elif f["frame_source"] == "orc":
        print(f"{desc}: {f['name']}: {want} in objtool's dump, ORC in the report")
if checked < least:
    print(f"{desc}: only {checked} ORC frames checked")
PY
	while read -r _line; do
		fail "$_line"
	done <"$OUT/check"
}

run_sp --json "$b/prog"
expect_rc 0 "prog"
cp "$OUT/stdout" "$OUT/prog.json"
check "linked" "$OUT/prog.json" 8
expect_eq "k_top: total through k_big, k_buffer" \
	"$(jget "$OUT/prog.json" 'fn("k_top")["path"][:3]')" '["k_top", "k_big", "k_buffer"]'
for o in kfuncs.o:6 kcold.o:2 mod.ko:8; do
	run_sp --json "$b/${o%:*}"
	expect_rc 0 "${o%:*}"
	cp "$OUT/stdout" "$OUT/${o%:*}.json"
	check "${o%:*}" "$OUT/${o%:*}.json" ${o#*:}
done

# the .su files back: they win, and -v counts every ORC frame agreeing
run_sp -v --json "$b/prog" "$b"/su/*.su
expect_rc 0 "prog with its .su files"
grep -Eq '^stackprof: ORC: [0-9]+ frames where \.su has none \([0-9]+ more functions not on the stack pointer\), ([0-9]+) of \1 \.su frames and' \
	"$OUT/stderr" || fail "-v: ORC line: $(grep ORC "$OUT/stderr")"
n=$(sed -n 's/^stackprof: ORC: .*), \([0-9]*\) of .*/\1/p' "$OUT/stderr")
[ "${n:-0}" -ge 6 ] || fail "-v: only ${n:-0} .su frames compared with ORC"
expect_eq "k_big: its .su frame" "$(jget "$OUT/stdout" 'fn("k_big")["frame_source"]')" '"su"'
finish
