#!/bin/sh
# -o FILE writes the report to FILE (and nothing to stdout); it replaces
# an old file whole, and a run that fails leaves no file, or the old one
# untouched, and no temporary file.
. tests/e2e/lib.sh
need_sample chain
bin=samples/chain/chain

run_sp --json $bin
expect_rc 0 "--json to stdout"
cp "$OUT/stdout" "$OUT/expect.json"

run_sp --json -o "$OUT/r.json" $bin
expect_rc 0 "--json -o"
[ -s "$OUT/stdout" ] && fail "-o: wrote to stdout too"
cmp -s "$OUT/r.json" "$OUT/expect.json" || fail "-o FILE differs from stdout's report"

run_sp --output="$OUT/r.txt" $bin
expect_rc 0 "--output=FILE"
grep -q '^Worst-case stack usage of ' "$OUT/r.txt" || fail "--output=FILE: not the text report"

printf 'old and much longer content than fits in a line\n%.0s' 1 2 3 4 5 6 7 8 9 >"$OUT/old.json"
run_sp --json -o "$OUT/old.json" $bin
expect_rc 0 "-o over an old file"
cmp -s "$OUT/old.json" "$OUT/expect.json" || fail "-o over an old file: not replaced whole"

# failures: no file; an old one keeps its content
rm -f "$OUT"/r.*
run_sp --json -o "$OUT/r.json" samples/chain/nosuch
expect_rc 2 "-o with a missing ELF"
[ -e "$OUT/r.json" ] && fail "-o with a missing ELF: left a file"
echo keep >"$OUT/keep.json"
run_sp --json -o "$OUT/keep.json" $bin "$OUT/nosuch.su"
expect_rc 2 "-o with a missing .su"
expect_eq "-o with a missing .su: old file" "$(cat "$OUT/keep.json")" keep
ls "$OUT" | grep -q '\.tmp' && fail "a temporary file was left: $(ls "$OUT")"

run_sp -o "$OUT/no/such/dir/r.txt" $bin
expect_rc 2 "-o into a missing directory"
grep -q "^stackprof: .*$OUT/no/such/dir/r.txt" "$OUT/stderr" ||
	fail "-o into a missing directory: '$(cat "$OUT/stderr")' does not name it"
finish
