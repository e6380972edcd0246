#!/bin/sh
# Locations are relative to the build directory (DW_AT_comp_dir) where
# the file lies inside it: a build that names its sources by absolute
# path, or with "./", reads as the build would say it, in the text
# report, JSON, the --budget diagnostics, SARIF and the column picture.
# A file outside the build directory keeps its absolute path.
. tests/e2e/lib.sh

build=$(cd "$OUT" && pwd)/build
other=$(cd "$OUT" && pwd)/other
mkdir -p "$build/net" "$other"
cat >"$other/outside.h" <<'EOF'
__attribute__((noinline)) static int outside(volatile char *p)
{
	volatile char buf[200];

	buf[0] = *p;
	return buf[0];
}
EOF
cat >"$build/net/socket.c" <<'EOF'
#include "outside.h"
int sock(void);
__attribute__((noinline)) int sock(void)
{
	volatile char buf[300];

	buf[1] = 2;
	return outside(buf);
}
EOF
cat >"$build/main.c" <<'EOF'
int sock(void);
int main(void)
{
	return sock();
}
EOF
# one unit by absolute path, one by "./": both inside the build directory
(cd "$build" && gcc -O1 -g -fstack-usage -I"$other" -c "$build/net/socket.c" -o socket.o &&
	gcc -O1 -g -fstack-usage -c ./main.c -o main.o && gcc -o prog socket.o main.o) ||
	{ fail "cannot build the program"; finish; exit; }

# what DWARF says: the absolute and "./" names, before stackprof reads them
readelf --debug-dump=info "$build/prog" >"$OUT/info"
grep -q "DW_AT_comp_dir.*$build" "$OUT/info" || fail "comp_dir is not $build"
grep -q "DW_AT_name.*$build/net/socket.c" "$OUT/info" || fail "socket.c is not named by absolute path"

run_sp --json "$build/prog"
expect_rc 0 "--json"
expect_eq "JSON: sock's file" "$(jget "$OUT/stdout" 'fn("sock")["file"]')" '"net/socket.c"'
expect_eq "JSON: main's file" "$(jget "$OUT/stdout" 'fn("main")["file"]')" '"main.c"'
expect_eq "JSON: the header outside keeps its path" \
	"$(jget "$OUT/stdout" 'fn("outside")["file"]')" "\"$other/outside.h\""
expect_eq "JSON: path frames" \
	"$(jget "$OUT/stdout" '[p["file"] for p in fn("main")["path_detail"]]')" \
	"[\"main.c\", \"net/socket.c\", \"$other/outside.h\"]"

run_sp --top 1 "$build/prog"
expect_rc 0 "text"
grep -q ' net/socket\.c:3$' "$OUT/stdout" || fail "text: sock at net/socket.c:3"
grep -q "$build/net" "$OUT/stdout" && fail "text: the build directory is shown"

run_sp --budget 100 --sarif "$OUT/out.sarif" "$build/prog"
expect_rc 1 "--budget 100"
grep -q '^net/socket\.c:3:[0-9]*: error: stack budget exceeded' "$OUT/stderr" ||
	fail "diagnostic: net/socket.c:3:COL: error:"
python3 - "$OUT/out.sarif" <<'PY' || fail "SARIF: net/socket.c relative to SRCROOT"
import json, sys
runs = json.load(open(sys.argv[1]))["runs"]
arts = [loc["physicalLocation"]["artifactLocation"]
        for r in runs[0]["results"] for loc in r["locations"]]
ok = any(a["uri"] == "net/socket.c" and a.get("uriBaseId") == "SRCROOT" for a in arts)
sys.exit(0 if ok else f"artifact locations: {arts}")
PY

run_sp --entry main --dot "$OUT/col.dot" "$build/prog"
expect_rc 0 "--dot"
grep -q 'net/socket\.c:3' "$OUT/col.dot" || fail "column picture: net/socket.c:3"
grep -q "$build/net" "$OUT/col.dot" && fail "column picture: the build directory is shown"
finish
