#!/bin/sh
# LTO: with -flto GCC writes the .su and .ci rows at link time, one
# "<prog>.ltransN.ltrans.su" (and .ci) per partition, in the output's
# directory.  stackprof finds them beside the ELF; every total must equal
# ci_oracle.py over the ltrans .ci files.  Built here too: several
# partitions (-flto-partition=max, statics promoted across them),
# -save-temps, an output in another directory, and compile-time .su
# files left from an earlier build without -flto (they must lose).
. tests/e2e/lib.sh

# agree DESC ELF CI_DIR [stackprof args]
agree()
{
	_d=$1 _elf=$2 _ci=$3
	shift 3
	run_sp --json "$@" "$_elf"
	expect_rc 0 "$_d"
	[ "$rc" -eq 0 ] || return
	cp "$OUT/stdout" "$OUT/report.json"
	if ! $ORACLE --objdump "$_elf" --json "$OUT/report.json" "$_ci" >"$OUT/oracle" 2>&1; then
		fail "$_d: the oracle disagrees"
		sed 's/^/    /' "$OUT/oracle"
	fi
	expect_eq "$_d: every row matched" "$(jget "$OUT/report.json" 'j["su"]["matched"]')" \
		"$(cat "$_ci"/*.ltrans.su | wc -l)"
}

need_sample lto
ls samples/lto/lto.ltrans0.ltrans.su >/dev/null 2>&1 || fail "no ltrans .su beside samples/lto/lto"
for calls in both dwarf disasm; do
	agree "lto --calls=$calls" samples/lto/lto samples/lto --calls=$calls
done
expect_eq "lto: three static scale functions" \
	"$(jget "$OUT/report.json" 'sorted(f["self"] for f in fns("scale"))')" \
	"$(cat samples/lto/*.ltrans.su | awk -F'\t' '$1 ~ /:scale$/ { print $2 }' | sort -n | paste -sd, | sed 's/,/, /g; s/^/[/; s/$/]/')"

F="-O2 -g -fstack-usage -fcallgraph-info=su,da"
build()	# DIR EXTRA-COMPILE EXTRA-LINK OUTPUT
{
	mkdir -p "$OUT/$1" && cp samples/lto/*.c samples/lto/*.h "$OUT/$1"/ &&
	(cd "$OUT/$1" && for f in main filter report; do
		gcc $F -flto $2 -c $f.c -o $f.o || exit 1
	done && gcc $F -flto $3 -o "$4" main.o filter.o report.o 2>/dev/null)
}

build max "" -flto-partition=max lto || fail "cannot build with -flto-partition=max"
[ "$(ls "$OUT"/max/lto.ltrans*.ltrans.su | wc -l)" -ge 3 ] || fail "-flto-partition=max made too few partitions"
agree "several partitions" "$OUT/max/lto" "$OUT/max"

build temps -save-temps -save-temps lto || fail "cannot build with -save-temps"
agree "-save-temps" "$OUT/temps/lto" "$OUT/temps"

mkdir -p "$OUT/outdir/bin"
build outdir "" "" bin/lto || fail "cannot build into bin/"
agree "output in another directory" "$OUT/outdir/bin/lto" "$OUT/outdir/bin"

# compile-time .su files of an -O1 build without -flto, left beside
mkdir -p "$OUT/stale" && cp samples/lto/*.c samples/lto/*.h "$OUT/stale"/
(cd "$OUT/stale" && for f in main filter report; do gcc -O1 -g -fstack-usage -c $f.c -o $f.o; done) ||
	fail "cannot build without -flto"
build stale "" "" lto || fail "cannot build the stale case"
ls "$OUT"/stale/main.su >/dev/null 2>&1 || fail "no stale main.su: the case tests nothing"
agree "stale compile-time .su files" "$OUT/stale/lto" "$OUT/stale"
finish
