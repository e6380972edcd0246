#!/bin/sh
# A shared library of the test's own (tests/e2e/libver/), built with
# -fstack-usage, whose work comes in two versions (libver.map): VER_2,
# the default, keeps a small buffer, VER_1 a big one.  A program linked
# the ordinary way binds to VER_2, one that asks for VER_1 with .symver
# to VER_1; each total is the sum of the .su frames on the path to the
# version it binds to (use_work -> work_* -> fill), summed here by hand;
# lazily bound, the PLT slot's stub goes on to the same version.  A
# callback the program passes to the library is an assumed target of the
# library's indirect call below the entry (resolved by "argument").
# A program without a run path finds the library only through
# LD_LIBRARY_PATH, as ld.so would; without it the library is not found,
# said on stderr, and the total is partial, not a silent zero.
. tests/e2e/lib.sh
unset STACKPROF_LIBS

command -v gcc >/dev/null || skip "no gcc"
B=$OUT/build
mkdir -p "$B"
cp tests/e2e/libver/* "$B/"
if ! (cd "$B" && gcc -O2 -g -fstack-usage -fPIC -c libver.c &&
	gcc -shared -Wl,--version-script=libver.map -o libver.so libver.o &&
	gcc -O2 -g -fstack-usage -c prog.c -o new.o &&
	gcc -O2 -g -fstack-usage -DOLD -c prog.c -o old.o &&
	gcc -Wl,-z,now -Wl,-rpath,'$ORIGIN' -o new new.o -L. -lver &&
	gcc -Wl,-z,now -Wl,-rpath,'$ORIGIN' -o old old.o -L. -lver &&
	gcc -Wl,-z,lazy -Wl,-rpath,'$ORIGIN' -o oldlazy old.o -L. -lver &&
	gcc -Wl,-z,now -o norpath new.o -L. -lver) >"$OUT/build.log" 2>&1; then
	fail "cannot build: $(head -3 "$OUT/build.log")"
	finish
	exit
fi
# su FILE FUNCTION: the function's frame in the .su file
su() { awk -F'\t' -v n="$2" '{ f = $1; sub(/^.*:/, "", f); if (f == n) print $2 }' "$B/$1"; }
# total PROGRAM: use_work's bounded total in PROGRAM's report, or what it is instead
total()
{
	run_sp --json --entry use_work "$B/$1"
	jget "$OUT/stdout" '[f["total"] if not f["partial"] else "partial" for f in j["functions"] if f["name"] == "use_work"][0]'
}

new=$(($(su new.su use_work) + $(su libver.su work_new) + $(su libver.su fill)))
old=$(($(su old.su use_work) + $(su libver.su work_old) + $(su libver.su fill)))
[ "$old" -gt $((new + 2000)) ] || fail "the versions' frames are not apart: $new, $old"
expect_eq "new: use_work -> work@@VER_2 (work_new)" "$(total new)" "$new"
expect_eq "old: use_work -> work@VER_1 (work_old)" "$(total old)" "$old"
# the report says which function the version is
run_sp --entry use_work "$B/old"
grep -q 'work_old .*\[lib libver.so\]' "$OUT/stdout" || fail "old: work_old not on the path"
# lazily bound: the PLT slot's stub runs ld.so's resolver, then VER_1
run_sp --json --entry use_work "$B/oldlazy"
expect_eq "oldlazy: work@plt's version" "$(python3 -c '
import json, sys
fs = json.load(open(sys.argv[1]))["functions"]
print([fs[c["id"]]["name"] for f in fs if f["name"] == "work@plt" for c in f["calls"] if c.get("tail")])
' "$OUT/stdout")" "['work_old']"

# a callback: apply calls what use_apply passes it (cb_big) two calls
# down, through a pointer; the call stays indirect (no bound) and the
# path through cb_big is the assumed one, resolved by the argument.
# keep only keeps cb_kept: no call of the library runs it below keep.
run_sp --json --entry use_apply "$B/new"
certain=$(($(su new.su use_apply) + $(su libver.su apply) + $(su libver.su apply_deep)))
expect_eq "use_apply: the certain path and why it is unbounded" \
	"$(jget "$OUT/stdout" '[(f["total"], f["lower_bound"], f["path"], f["reasons"]) for f in j["functions"] if f["name"] == "use_apply"]')" \
	"[[null, $certain, [\"use_apply\", \"apply\", \"apply_deep\"], [\"indirect call in apply_deep\"]]]"
expect_eq "use_apply: through the callback it passes" \
	"$(jget "$OUT/stdout" '[(f["assumed_lower_bound"], f["assumed_path"], f["assumed_path_detail"][-1]["resolved_by"]) for f in j["functions"] if f["name"] == "use_apply"]')" \
	"[[$((certain + $(su new.su cb_big) + $(red_zone "$B/new" cb_big))), [\"use_apply\", \"apply\", \"apply_deep\", \"cb_big\"], \"argument\"]]"
expect_eq "cb_kept: kept, not called below keep" "$(python3 -c '
import json, sys
fs = json.load(open(sys.argv[1]))["functions"]
print([f["name"] for f in fs for c in f.get("calls", []) if fs[c["id"]]["name"] == "cb_kept"])
' "$OUT/stdout")" "[]"

# found through LD_LIBRARY_PATH alone
expect_eq "norpath, LD_LIBRARY_PATH=$B" "$(LD_LIBRARY_PATH=$B total norpath)" "$new"
expect_eq "norpath, no LD_LIBRARY_PATH" "$(LD_LIBRARY_PATH= total norpath)" '"partial"'
grep -q "library 'libver.so' needed by .*not found" "$OUT/stderr" ||
	fail "norpath: the missing library is not said: $(head -2 "$OUT/stderr")"
finish
