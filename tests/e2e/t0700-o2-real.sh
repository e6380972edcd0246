#!/bin/sh
# A somewhat real program (tests/e2e/real: an expression evaluator with a
# recursive-descent parser, a callback table and varargs errors), built
# at -O2 into the scratch directory, must agree with the oracle.  The
# .su files are not beside the sources, so they are named as a directory.
. tests/e2e/lib.sh

now() { date +%s.%N; }

b=$OUT/build
mkdir -p "$b"
for f in tests/e2e/real/*.c; do
	o=$b/$(basename "$f" .c).o
	gcc -O2 -g -fstack-usage -fcallgraph-info=su,da -c "$f" -o "$o" ||
		fail "cannot compile $f"
done
gcc -O2 -o "$b/calc" "$b"/*.o || fail "cannot link calc"
"$b/calc" '2 * (3 + 4)' >"$OUT/calc.out" || fail "calc does not run"
expect_eq "calc's answer" "$(cat "$OUT/calc.out")" 14

t0=$(now)
run_sp --json "$b/calc" "$b"
t1=$(now)
expect_rc 0 "stackprof --json calc"
cp "$OUT/stdout" "$OUT/calc.json"
echo "  stackprof on calc: $(echo "$t1 - $t0" | awk -F' - ' '{ printf "%.3f", $1 - $2 }') s wall"
# lex_init ends in a tail call to lex_next: objdump shows the jmp
if ! $ORACLE --objdump "$b/calc" --json "$OUT/calc.json" "$b" >"$OUT/oracle" 2>&1; then
	fail "the oracle disagrees"
	sed 's/^/    /' "$OUT/oracle"
fi
cat "$OUT/oracle"

# what makes this program interesting must be there
expect_eq "parse_expr recursive" "$(jget "$OUT/calc.json" 'fn("parse_expr")["recursive"]')" true
expect_eq "eval_call indirect" \
	"$(jget "$OUT/calc.json" 'any("indirect" in r for r in fn("eval_call")["reasons"])')" true
expect_eq "lex_next bounded" "$(jget "$OUT/calc.json" 'fn("lex_next")["bounded"]')" true
finish
