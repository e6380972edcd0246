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
# tests/e2e/out/TEST.log.  Each result line ends with the test's seconds,
# wall and CPU (its processes' user + system), "[W s, C s CPU]"; the same
# figures go to tests/e2e/out/times.tsv (NAME WALL CPU), slowest first,
# to find what makes the suite slow.
set -u
cd "$(dirname "$0")/../.." || exit 2
mkdir -p tests/e2e/out
passed=0 failed=0 skipped=0 parts=0
times_tsv=tests/e2e/out/times.tsv tmp=tests/e2e/out/run.$$
# the kernel-scale runs that tests share (lib.sh's run_sp), for this run only
E2E_CACHE=tests/e2e/out/shared-runs.$$
export E2E_CACHE
rm -rf "$E2E_CACHE" && mkdir -p "$E2E_CACHE"
: >"$tmp.tsv"

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

# child_cpu: the CPU seconds (user + system) of every finished child of
# this shell, in $cpu, from its `times`, which runs in this shell, not in
# a $(...) subshell, whose children are not the tests
child_cpu()
{
	times >"$tmp"
	cpu=$(awk 'NR == 2 {
		n = split($0, f, /[ms]+/); c = 0
		for (i = 1; i + 1 <= n; i += 2) c += f[i] * 60 + f[i + 1]
		printf "%.2f\n", c }' "$tmp")
}

for t in tests/e2e/t[0-9]*.sh; do
	[ -f "$t" ] || continue
	name=$(basename "$t" .sh)
	wanted "$name" || continue
	log=tests/e2e/out/$name.log
	wall0=$(date +%s.%N)
	child_cpu
	cpu0=$cpu
	sh "$t" >"$log" 2>&1
	rc=$?
	wall=$(echo "$wall0 $(date +%s.%N)" | awk '{ printf "%.1f", $2 - $1 }')
	child_cpu
	cpu=$(echo "$cpu0 $cpu" | awk '{ printf "%.1f", $2 - $1 }')
	secs="[$wall s, $cpu s CPU]"
	printf '%s\t%s\t%s\n' "$name" "$wall" "$cpu" >>"$tmp.tsv"
	why=$(reasons "$log")
	if [ "$rc" -eq 0 ]; then
		n=$(grep -c '^skip: ' "$log")
		if [ "$n" -gt 0 ]; then
			echo "ok   $name ($n part$([ "$n" -gt 1 ] && echo s) skipped: $why) $secs"
			parts=$((parts + n))
		else
			echo "ok   $name $secs"
		fi
		passed=$((passed + 1))
	elif [ "$rc" -eq 77 ] && [ -n "$why" ]; then
		echo "skip $name ($why) $secs"
		skipped=$((skipped + 1))
	else
		[ "$rc" -eq 77 ] && echo "    exit 77 without a \"skip: REASON\" line" >>"$log"
		echo "FAIL $name $secs"
		sed 's/^/    /' "$log"
		failed=$((failed + 1))
	fi
done
sort -t '	' -k2,2 -rn "$tmp.tsv" >"$times_tsv"
rm -rf "$tmp" "$tmp.tsv" "$E2E_CACHE"
if [ "$parts" -gt 0 ]; then
	echo "$passed passed, $failed failed, $((skipped + parts)) skipped" \
		"($parts of them parts of passed tests)"
else
	echo "$passed passed, $failed failed, $skipped skipped"
fi
[ "$failed" -eq 0 ]
