#!/bin/sh
# run.sh - run every tests/e2e/tNNNN-*.sh from the repository root, print
# "ok", "skip" or "FAIL" for each, then "N passed, N failed, N skipped"
# (CI reads that line).  A test exits 77 when it cannot run here (a tool
# or the network it needs is missing): skipped, not passed.  A failed or
# skipped test's output is shown; every test's is kept in
# tests/e2e/out/TEST.log.
set -u
cd "$(dirname "$0")/../.." || exit 2
mkdir -p tests/e2e/out
passed=0 failed=0 skipped=0
for t in tests/e2e/t[0-9]*.sh; do
	[ -f "$t" ] || continue
	name=$(basename "$t" .sh)
	log=tests/e2e/out/$name.log
	sh "$t" >"$log" 2>&1
	status=$?
	if [ "$status" -eq 0 ]; then
		echo "ok   $name"
		passed=$((passed + 1))
	elif [ "$status" -eq 77 ]; then
		echo "skip $name"
		sed 's/^/    /' "$log"
		skipped=$((skipped + 1))
	else
		echo "FAIL $name"
		sed 's/^/    /' "$log"
		failed=$((failed + 1))
	fi
done
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
