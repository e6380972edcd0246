#!/bin/sh
# Bad usage: exit 2 and a "stackprof: ..." message first on stderr,
# nothing on stdout; --help and --version exit 0.
. tests/e2e/lib.sh
need_sample chain
bin=samples/chain/chain

# expect_usage DESC PATTERN ARGS...
expect_usage()
{
	_d=$1 _p=$2
	shift 2
	run_sp "$@"
	expect_rc 2 "$_d"
	head -1 "$OUT/stderr" | grep -Eq "^stackprof: .*$_p" ||
		fail "$_d: stderr '$(head -1 "$OUT/stderr")' does not match '$_p'"
	[ -s "$OUT/stdout" ] && fail "$_d: wrote to stdout"
}

for b in abc 12Q -5 '' 1.5K 99999999999999999999 18446744073709551616 0x; do
	expect_usage "--budget '$b'" "budget" --budget "$b" $bin
done
expect_usage "--budget without a value" "budget" $bin --budget
expect_usage "unknown option" "frobnicate" --frobnicate $bin
expect_usage "unknown short option" "-q" -q $bin
expect_usage "--top x" "top" --top x $bin
expect_usage "no ELF" "ELF" --json

run_sp --budget 16K $bin
expect_rc 0 "--budget 16K"
run_sp --budget 1M $bin
expect_rc 0 "--budget 1M"

run_sp --help
expect_rc 0 "--help"
grep -q '^usage: stackprof ' "$OUT/stdout" || fail "--help: no usage on stdout"
run_sp -h
expect_rc 0 "-h"
run_sp --version
expect_rc 0 "--version"
grep -Eq '^stackprof [0-9]+\.[0-9]+' "$OUT/stdout" || fail "--version: '$(cat "$OUT/stdout")'"
run_sp -V
expect_rc 0 "-V"
finish
