#!/bin/sh
# How `stackprof` grows with the program: bench/gen-synthetic programs of
# 10k, 100k and 1M functions (built once, cached outside the repository),
# each run RUNS times (sizes under 100k proportionally more often);
# prints per size the medians of user and wall time
# and of peak RSS, each divided by the number of functions (.su rows),
# and the instructions per function counted by callgrind, which a shared,
# noisy machine does not disturb.  The lines after the table hold each
# per-function figure against the first size's (1.00 = linear).
#   bench/scaling.sh [N ...]          (default: 10000 100000 1000000)
# Environment: SCALE_DIR (default /tmp/stackprof-scale; DIR/nN is built
# when DIR/nN/synth is missing: remove it after changing gen-synthetic),
# RUNS (default 3), CALLGRIND_MAX (the largest N run under callgrind,
# default 100000: 1M functions take about 20 minutes there; 0: none).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
scale=${SCALE_DIR:-/tmp/stackprof-scale}
runs=${RUNS:-3}
cg_max=${CALLGRIND_MAX:-100000}
[ $# -gt 0 ] || set -- 10000 100000 1000000
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

build() {	# N DIR: the synthetic program of N functions, once
	[ -x "$2/synth" ] && return 0
	echo "building $2 (once; the 1M case takes long)" >&2
	"$top/bench/gen-synthetic" "$1" "$2" >&2
	nice -n 19 make -C "$2" -j2 -s >&2
}
timed() {	# CMD...: "user-seconds wall-seconds peak-KiB" of one run; GNU
	# time's %U counts in 10 ms steps, 7 % of a 10k run, getrusage in us
	python3 -c 'import resource, subprocess, sys, time
t = time.monotonic()
subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
w = time.monotonic() - t
r = resource.getrusage(resource.RUSAGE_CHILDREN)
print("%.6f %.6f %d" % (r.ru_utime, w, r.ru_maxrss))' "$@"
}
median() {	# FIELD FILE
	awk -v f="$1" '{ print $f }' "$2" | sort -n |
		awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}
instructions() {	# DIR: callgrind's instruction count of one run
	(cd "$1" && valgrind --tool=callgrind --callgrind-out-file="$tmp/cg" \
		"$top/stackprof" -o /dev/null synth >/dev/null 2>&1)
	awk '$1 == "summary:" { print $2 }' "$tmp/cg"
}

printf '%9s %9s %12s %12s %12s %12s\n' functions runs 'user us/fn' 'wall us/fn' \
	'RSS B/fn' 'instr/fn'
base=""
for n in "$@"; do
	dir=$scale/n$n
	build "$n" "$dir"
	fns=$(cat "$dir"/*.su | wc -l)
	: >"$tmp/t"
	# a 10k run takes 0.15 s: more runs there, so that every size's
	# median rests on about as much time
	reps=$((runs * (100000 / n > 1 ? 100000 / n : 1)))
	i=0
	while [ "$i" -lt "$reps" ]; do
		(cd "$dir" && timed "$top/stackprof" -o /dev/null synth >>"$tmp/t")
		i=$((i + 1))
	done
	user=$(echo "scale=2; $(median 1 "$tmp/t") * 1000000 / $fns" | bc)
	wall=$(echo "scale=2; $(median 2 "$tmp/t") * 1000000 / $fns" | bc)
	rss=$(echo "scale=0; $(median 3 "$tmp/t") * 1024 / $fns" | bc)
	ir=-
	if [ "$n" -le "$cg_max" ]; then
		ir=$(echo "scale=0; $(instructions "$dir") / $fns" | bc)
	fi
	printf '%9s %9s %12s %12s %12s %12s\n' "$fns" "$reps" "$user" "$wall" "$rss" "$ir"
	echo "$fns $user $wall $rss $ir" >>"$tmp/rows"
done
# each per-function figure against the first size's
awk 'NR == 1 { for (i = 2; i <= 5; i++) b[i] = $i }
     { printf "%9s vs first: user %.2f  wall %.2f  RSS %.2f  instr %s\n", $1,
	 $2 / b[2], $3 / b[3], $4 / b[4],
	 ($5 == "-" || b[5] == "-") ? "-" : sprintf("%.2f", $5 / b[5]) }' "$tmp/rows"
# The same as a + b*n: what each step up adds per function added (the
# fixed start-up cost and base RSS cancel out), against the first step's
awk 'NR > 1 { d = $1 - n
	u = ($2 * $1 - pu * n) / d; w = ($3 * $1 - pw * n) / d; r = ($4 * $1 - pr * n) / d
	if (!bu) { bu = u; bw = w; br = r }
	printf "%9s marginal: user %.2f us/fn (%.2f)  wall %.2f (%.2f)  RSS %.0f B/fn (%.2f)\n",
		$1, u, u / bu, w, w / bw, r, r / br }
     { n = $1; pu = $2; pw = $3; pr = $4 }' "$tmp/rows"
