#!/bin/sh
# The text report: one table row per function, "TOTAL SELF QUALIFIER
# FUNCTION FILE:LINE", with the oracle's totals ("N+" partial, ">= N"
# unbounded; SELF "N+R" a leaf's red zone), then the worst paths with
# their marks.
. tests/e2e/lib.sh

# rows SAMPLE: every function the oracle knows must have its row
rows()
{
	s=$1
	shift
	need_sample "$s"
	run_sp --top 100 "samples/$s/$s"
	expect_rc 0 "$s: text report"
	cp "$OUT/stdout" "$OUT/$s.txt"
	# the red zones (SELF "N+R") as the report has them, checked by the
	# oracle against objdump's code
	run_sp --json -o "$OUT/$s.json" "samples/$s/$s"
	$ORACLE --print --objdump "samples/$s/$s" --json "$OUT/$s.json" "$@" \
		"samples/$s" >"$OUT/$s.all" || fail "$s: oracle: $(grep differ "$OUT/$s.all")"
	grep '	' "$OUT/$s.all" >"$OUT/$s.oracle"
	while IFS='	' read -r name loc self value flags; do
		v=${value#*=}
		plus='\+?'
		case ,$flags, in *,partial,*) plus='\+' ;; esac
		case $value,$flags in
		total=*) total="$v$plus" ;;
		*recursion*) total=">= [0-9]+$plus" ;;
		*) total=">= $v$plus" ;;
		esac
		self=$(echo "${self#self=}" | sed 's/+/\\+/')
		qual=static
		grep -q "^[^:]*:[0-9]*:[0-9]*:$name	${self%%\\*}	dynamic" samples/"$s"/*.su && qual=dynamic
		re="^ +$total +$self +$qual +$(echo "$name" | sed 's/\./\\./g') +$(echo "$loc" | sed 's/\./\\./g')\$"
		grep -Eq "$re" "$OUT/$s.txt" || fail "$s: no row /$re/"
	done <"$OUT/$s.oracle"
}

# mark SAMPLE NAME MARK: a worst-path line of NAME carries [MARK]
mark()
{
	grep -Eq "^ +[0-9?]+(\+[0-9]+)? +[0-9]+ +$2 +[^ ]+ .*\[$3\]" "$OUT/$1.txt" ||
		fail "$1: no path line '$2 ... [$3]'"
}

for s in chain statics indirect recursion vla alloca kmax clones header; do
	rows $s
done
rows tailcall --tail forward=big --tail relay=big --tail trampoline=forward

grep -q '^Worst-case stack usage of samples/chain/chain: ' "$OUT/chain.txt" ||
	fail "chain: no header line"
mark vla make_row dynamic
mark alloca copy_name dynamic
mark recursion is_even recursive
mark recursion is_odd recursive
mark recursion fact recursive
mark indirect dispatch indirect
mark tailcall big tail
if grep -E ' (main|level[1-5]|side) .*\[(dynamic|recursive|indirect|tail)\]' "$OUT/chain.txt"; then
	fail "chain: marks on a plain call chain"
fi

# why a total has no bound, under its path
grep -Eq '^ +reason: .*recursion.*is_even' "$OUT/recursion.txt" ||
	fail "recursion: no reason naming the is_even/is_odd recursion"
grep -Eq '^ +reason: .*indirect.*dispatch' "$OUT/indirect.txt" ||
	fail "indirect: no reason naming the indirect call in dispatch"
grep -Eq '^ +reason: .*dynamic.*make_row' "$OUT/vla.txt" ||
	fail "vla: no reason naming make_row's dynamic frame"

# --top 1: one worst path, the deepest function's
run_sp --top 1 samples/chain/chain
expect_rc 0 "--top 1"
expect_eq "--top 1: paths" "$(grep -c '^#[0-9]' "$OUT/stdout")" 1
grep -q '^#1 main: ' "$OUT/stdout" || fail "--top 1: the worst path is not main's"
finish
