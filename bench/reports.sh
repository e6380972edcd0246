#!/bin/sh
# The machine-readable reports of a whole kernel against the text report
# of the same run: each kind is run in turn with its text run (text,
# json, text, json, ...), RUNS times, and the medians of wall time, CPU
# time and peak RSS (GNU time) are printed with their ratios to the text
# run's, and each output's size.  Then --diff of two kernels' JSON
# reports against one text run.  Targets (issue 36): --json <= 40 MB and
# <= 1.3x; --indirect=types --json <= 100 MB and <= 1.3x its own text
# run; --html <= 20 MB and <= 1.5x; --sarif --budget 8K <= 1.3x; --diff
# of two kernels <= 2x one text run and <= 1 GB.
#
#   bench/reports.sh [VMLINUX] [OTHER-VMLINUX] [RUNS]
#
# VMLINUX defaults to Debian's 6.1 cloud debug kernel unpacked under
# /tmp/debian-kernel, OTHER-VMLINUX (for --diff) to the generic 6.1
# flavour's, unpacked under /tmp/debian-kernel-other (apt-get download
# linux-image-6.1.0-47-amd64-dbg; dpkg-deb -x), RUNS to 3.  STACKPROF
# names the binary (default: the build's); KINDS the reports to run
# (default "json html sarif types diff").  With PAINT=1 the --html page
# is also opened RUNS times in headless chromium (bench/html_paint.py).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
sp=${STACKPROF:-$top/stackprof}
vmlinux=${1:-/tmp/debian-kernel/root/usr/lib/debug/boot/vmlinux-6.1.0-47-cloud-amd64}
other=${2:-/tmp/debian-kernel-other/usr/lib/debug/boot/vmlinux-6.1.0-47-amd64}
runs=${3:-3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
[ -r "$vmlinux" ] || { echo "bench/reports.sh: no $vmlinux" >&2; exit 2; }

# KIND: its options, and its output (for its size; /dev/null: none)
output()
{
	case $1 in
	json | types-json | html | sarif) echo "$tmp/out.$1" ;;
	*) echo /dev/null ;;
	esac
}
opts()
{
	case $1 in
	text) echo "-o /dev/null" ;;
	json) echo "--json -o $(output json)" ;;
	html) echo "--html $(output html) -o /dev/null" ;;
	sarif) echo "--sarif $(output sarif) --budget 8K -o /dev/null" ;;
	types-text) echo "--indirect=types -o /dev/null" ;;
	types-json) echo "--indirect=types --json -o $(output types-json)" ;;
	esac
}
# run KIND FILE: append "wall cpu peak-KiB" of one run of KIND to FILE
# (exit 1: a budget was exceeded, as --budget 8K is on a kernel)
run()
{
	# shellcheck disable=SC2046
	/usr/bin/time -f '%e %U %S %M' -o "$tmp/t" "$sp" $(opts "$1") "$vmlinux" \
		>/dev/null 2>"$tmp/err" || [ $? -eq 1 ] ||
		{ echo "$1: $(tail -1 "$tmp/err")" >&2; exit 1; }
	# the last line: GNU time says a non-zero exit status on one before
	tail -1 "$tmp/t" | awk '{ printf "%s %.2f %s\n", $1, $2 + $3, $4 }' >>"$2"
}
median()	# FIELD FILE
{
	awk -v f="$1" '{ print $f }' "$2" | sort -n |
		awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}
row()	# KIND BASE
{
	w=$(median 1 "$tmp/$1") c=$(median 2 "$tmp/$1") m=$(median 3 "$tmp/$1")
	bw=$(median 1 "$tmp/$2") bc=$(median 2 "$tmp/$2")
	size=-
	[ "$(output "$1")" = /dev/null ] || size=$(wc -c <"$(output "$1")")
	printf '  %-12s %7s s %5sx  cpu %6s s %5sx  peak %5s MiB  %11s bytes\n' "$1" "$w" \
		"$(echo "scale=2; $w / $bw" | bc)" "$c" "$(echo "scale=2; $c / $bc" | bc)" \
		"$((m / 1024))" "$size"
}

kinds=${KINDS:-json html sarif types diff}
has()	# KIND: asked for
{
	case " $kinds " in *" $1 "*) return 0 ;; esac
	return 1
}
i=0
while [ "$i" -lt "$runs" ]; do
	for k in json html sarif; do
		has "$k" || continue
		run text "$tmp/text"
		run "$k" "$tmp/$k"
	done
	if has types; then
		run types-text "$tmp/types-text"
		run types-json "$tmp/types-json"
	fi
	i=$((i + 1))
done
has diff && [ ! -s "$tmp/text" ] && run text "$tmp/text"
echo "$(basename "$vmlinux"), medians of $runs runs (ratios to the text run of the same options):"
[ -s "$tmp/text" ] && row text text
for k in json html sarif; do
	has "$k" && row "$k" text
done
if has types; then
	row types-text types-text
	row types-json types-text
fi

if ! has diff; then
	:
elif [ -r "$other" ]; then
	"$sp" --json -o "$tmp/other.json" "$other" 2>/dev/null
	[ -s "$tmp/out.json" ] || "$sp" --json -o "$tmp/out.json" "$vmlinux" 2>/dev/null
	i=0
	while [ "$i" -lt "$runs" ]; do
		/usr/bin/time -f '%e %U %S %M' -o "$tmp/t" "$sp" --diff "$tmp/out.json" \
			"$tmp/other.json" >"$tmp/diff.out" || [ $? -eq 1 ]
		tail -1 "$tmp/t" | awk '{ printf "%s %.2f %s\n", $1, $2 + $3, $4 }' >>"$tmp/diff"
		i=$((i + 1))
	done
	printf '  %-12s %7s s %5sx  cpu %6s s %5sx  peak %5s MiB  (%s: %s)\n' diff \
		"$(median 1 "$tmp/diff")" "$(echo "scale=2; $(median 1 "$tmp/diff") / $(median 1 "$tmp/text")" | bc)" \
		"$(median 2 "$tmp/diff")" "$(echo "scale=2; $(median 2 "$tmp/diff") / $(median 2 "$tmp/text")" | bc)" \
		"$(($(median 3 "$tmp/diff") / 1024))" "$(basename "$other")" "$(tail -1 "$tmp/diff.out")"
else
	echo "  diff: no $other to compare with"
fi
if [ "${PAINT:-0}" = 1 ] && has html; then
	python3 "$top/bench/html_paint.py" "$tmp/out.html" "$runs"
fi
