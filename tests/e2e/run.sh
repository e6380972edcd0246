#!/bin/sh
# run.sh [PREFIX...] - run every tests/e2e/tNNNN-*.sh (or those whose
# names start with a PREFIX, e.g. t4400) from the repository root, print
# "ok", "FAIL" or "skip" for each, then "N passed, N failed, N skipped"
# (CI reads that line; only failures make the status non-zero).  A test
# that cannot run here exits 77 (lib.sh's skip) and is counted as
# skipped; one that skipped a part of itself (skip_part) passes for the
# parts that ran, shows "(N parts skipped: REASONS)" beside its "ok", and
# each skipped part is counted among the skipped.  The reasons are the
# log's "skip: " lines.  A failed test's output is shown; every test's is kept in
# tests/e2e/out/TEST.log.
set -u
cd "$(dirname "$0")/../.." || exit 2
mkdir -p tests/e2e/out
passed=0 failed=0 skipped=0 parts=0

prefixes=$*
wanted()	# NAME: no PREFIX given, or NAME starts with one
{
	[ -z "$prefixes" ] && return 0
	for _p in $prefixes; do
		case $1 in "$_p"*) return 0 ;; esac
	done
	return 1
}

# reasons LOG: the test's "skip: " lines, joined by "; "
reasons()
{
	sed -n 's/^skip: //p' "$1" | awk '{ printf "%s%s", sep, $0; sep = "; " }'
}

for t in tests/e2e/t[0-9]*.sh; do
	[ -f "$t" ] || continue
	name=$(basename "$t" .sh)
	wanted "$name" || continue
	log=tests/e2e/out/$name.log
	sh "$t" >"$log" 2>&1
	rc=$?
	why=$(reasons "$log")
	if [ "$rc" -eq 0 ]; then
		n=$(grep -c '^skip: ' "$log")
		if [ "$n" -gt 0 ]; then
			echo "ok   $name ($n part$([ "$n" -gt 1 ] && echo s) skipped: $why)"
			parts=$((parts + n))
		else
			echo "ok   $name"
		fi
		passed=$((passed + 1))
	elif [ "$rc" -eq 77 ] && [ -n "$why" ]; then
		echo "skip $name ($why)"
		skipped=$((skipped + 1))
	else
		[ "$rc" -eq 77 ] && echo "    exit 77 without a \"skip: REASON\" line" >>"$log"
		echo "FAIL $name"
		sed 's/^/    /' "$log"
		failed=$((failed + 1))
	fi
done
if [ "$parts" -gt 0 ]; then
	echo "$passed passed, $failed failed, $((skipped + parts)) skipped" \
		"($parts of them parts of passed tests)"
else
	echo "$passed passed, $failed failed, $skipped skipped"
fi
[ "$failed" -eq 0 ]
