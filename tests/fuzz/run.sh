#!/bin/sh
# run.sh O SECONDS FUZZER... - make fuzz: replay each fuzzer's regression
# inputs (tests/data/fuzz/NAME/, every crash found so far), then fuzz
# for SECONDS with one job, niced, from a corpus seeded with the samples.
# A crash leaves O/crashes/NAME-crash-* and fails the run.
set -u
# A corrupt count can make libdwarf ask calloc for 2^59 bytes.  glibc
# then returns NULL and libdwarf reports an allocation failure, which
# stackprof handles; ASan would abort instead, so let it return NULL too.
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}allocator_may_return_null=1"
o=$1 secs=$2
shift 2

# orc_seeds DIR: an ORC table, linked and in a relocatable object
orc_seeds()
{
	gcc -g -c tests/e2e/orc/hand.S -o "$1/orc-hand.o" &&
		gcc -O2 -g -c tests/e2e/orc/hand_main.c -o "$o/orc-main.o" &&
		gcc -o "$1/orc-hand" "$o/orc-main.o" "$1/orc-hand.o"
}

status=0
for name in "$@"; do
	bin=$o/fuzz/$name corpus=$o/corpus/$name reg=tests/data/fuzz/${name#fuzz_}
	mkdir -p "$corpus" "$o/crashes"
	case $name in
	fuzz_su) for f in tests/data/su/*.su tests/data/bad/*.su samples/*/*.su; do
			cp "$f" "$corpus/$(echo "$f" | tr / _)"
		done ;;
	fuzz_elf) for s in samples/*/; do
			p=$s$(basename "$s")
			[ -x "$p" ] && cp "$p" "$corpus/$(basename "$s")"
		done
		cp tests/data/bad/not-elf.txt "$corpus/"
		orc_seeds "$corpus" ;;
	fuzz_orc) orc_seeds "$corpus" ;;
	fuzz_annot) cp tests/data/annot/*.ann "$corpus/" ;;
	esac
	if [ -d "$reg" ] && ! "$bin" -runs=0 "$reg"/* >"$o/$name.replay.log" 2>&1; then
		echo "$name: a regression input crashes again (see $o/$name.replay.log)"
		status=1
	fi
	echo "== $name: $secs s"
	# in-process (no -jobs): libFuzzer's jobs would log to ./fuzz-N.log
	nice -n 19 "$bin" -max_total_time="$secs" -max_len=262144 \
		-rss_limit_mb=2048 -print_final_stats=1 \
		-artifact_prefix="$o/crashes/$name-" "$corpus" >"$o/$name.log" 2>&1 || status=1
	grep -E '^stat::number_of_executed_units|^stat::peak_rss_mb' "$o/$name.log" |
		sed "s/^/  /"
	ls "$o/crashes" | grep "^$name-" | sed 's/^/  crash: /'
done
exit $status
