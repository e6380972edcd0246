#!/bin/sh
# The DWARF walk's progress line: silent when stderr is no terminal (a
# pipe, a file), shown on a terminal (script(1) gives the run a pty) once
# the run has taken STACKPROF_PROGRESS_DELAY seconds, counting the compile
# units that readelf lists, and erased when the walk ends.
. tests/e2e/lib.sh
need_sample clones
bin=samples/clones/clones
ncu=$(readelf --debug-dump=info $bin | grep -c 'DW_TAG_compile_unit')
[ "$ncu" -ge 2 ] || fail "readelf lists $ncu compile units in $bin, want >= 2"

# stderr to a file or a pipe: nothing, even with no delay
STACKPROF_PROGRESS_DELAY=0 "$SP" -o "$OUT/report" $bin 2>"$OUT/stderr.file"
[ -s "$OUT/stderr.file" ] && fail "stderr to a file is not empty: $(cat "$OUT/stderr.file")"
STACKPROF_PROGRESS_DELAY=0 "$SP" -o "$OUT/report" $bin 2>&1 >/dev/null | cat >"$OUT/stderr.pipe"
[ -s "$OUT/stderr.pipe" ] && fail "stderr to a pipe is not empty: $(cat "$OUT/stderr.pipe")"
# the report is the same with and without a progress callback
"$SP" --json $bin >"$OUT/plain.json" 2>/dev/null
check_json "$OUT/plain.json"

if ! command -v script >/dev/null; then
	fail "script(1) is missing (bsdutils)"
	finish
	exit
fi
on_tty()	# DELAY ARGS...: stackprof on a pty, what the pty showed in $OUT/tty
{
	delay=$1
	shift
	STACKPROF_PROGRESS_DELAY=$delay script -qec "$SP $*" /dev/null </dev/null >"$OUT/tty"
	tr '\r' '\n' <"$OUT/tty" >"$OUT/tty.lines"
}

on_tty 0 -o "$OUT/report" $bin
k=1
while [ "$k" -lt "$ncu" ]; do
	grep -qx "stackprof: $bin: $k/$ncu compile units read" "$OUT/tty.lines" ||
		fail "on a terminal: no line for $k/$ncu compile units"
	k=$((k + 1))
done
# erased at the end: the last thing written is "erase to end of line"
[ "$(tail -c 3 "$OUT/tty" | od -An -c | tr -d ' ')" = '033[K' ] ||
	fail "the progress line is not erased at the end"

# a run quicker than the delay stays silent on a terminal too
on_tty 1000 -o "$OUT/report" $bin
[ -s "$OUT/tty" ] && fail "a quick run printed on the terminal: $(cat "$OUT/tty.lines")"

# the JSON report on a terminal is the same as without progress
on_tty 0 --json -o "$OUT/tty.json" $bin
cmp -s "$OUT/plain.json" "$OUT/tty.json" || fail "the report changed with the progress line"
finish
