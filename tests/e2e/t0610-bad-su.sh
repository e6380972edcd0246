#!/bin/sh
# Bad .su input.  An empty .su is not an error (exit 0: every frame
# comes from the CFI, "frame_source": "cfi"); a malformed line or an unknown qualifier
# is (exit 2, "FILE:LINE: ..."), unless --keep-going makes it a warning.
. tests/e2e/lib.sh
need_sample chain
bin=samples/chain/chain
bad=tests/data/bad

run_sp --json $bin $bad/empty.su
expect_rc 0 "empty .su"
j=$OUT/stdout
expect_eq "empty .su: rows" "$(jget $j 'j["su"]["rows"]')" 0
expect_eq "empty .su: files" "$(jget $j 'j["su"]["files"]')" 1
expect_eq "empty .su: main listed" "$(jget $j 'len(fns("main"))')" 1
expect_eq "empty .su: no frame from .su" \
	"$(jget $j '[f["name"] for f in j["functions"] if f["frame_source"] == "su"]')" '[]'
# without rows the frames come from the CFI, each equal to what GCC's own
# .su says (the return address included), and are marked so
for f in $(cut -f1 samples/chain/a.su samples/chain/b.su | sed 's/.*://'); do
	expect_eq "empty .su: $f's frame from CFI" \
		"$(jget $j "[fn('$f')['frame_source'], fn('$f')['self']]")" \
		"[\"cfi\", $(su_self samples/chain/a.su "$f")$(su_self samples/chain/b.su "$f")]"
done

expect_bad "garbage .su line" "$bad/garbage\.su:2: malformed \.su line\$" $bin $bad/garbage.su
expect_bad "unknown qualifier" "$bad/unknown-qual\.su:2: .*(qualifier|frobnicated)" \
	$bin $bad/unknown-qual.su
expect_bad "negative size" "$bad/bad-size\.su:1: " $bin $bad/bad-size.su
expect_bad "nonexistent .su" "$OUT/nosuch\.su" $bin "$OUT/nosuch.su"
expect_bad "bad .su in a directory" "$OUT/sudir/a\.su:1: malformed \.su line\$" \
	$bin "$(mkdir -p "$OUT/sudir" && printf 'x\n' >"$OUT/sudir/a.su" && echo "$OUT/sudir")"
printf 'chain/a.c:10:5:level1\t80\tstatic' >"$OUT/nonl.su"
run_sp --json $bin "$OUT/nonl.su"
expect_rc 0 "a last line without newline"

# --keep-going: warnings naming FILE:LINE, exit 0, good rows still used
for f in garbage unknown-qual bad-size; do
	run_sp --json --keep-going $bin $bad/$f.su
	expect_rc 0 "--keep-going $f.su"
	grep -Eq "^stackprof: warning: $bad/$f\.su:[0-9]+: " "$OUT/stderr" ||
		fail "--keep-going $f.su: no warning naming the line: '$(cat "$OUT/stderr")'"
	python3 -m json.tool "$OUT/stdout" >/dev/null 2>&1 || fail "--keep-going $f.su: no JSON"
done
# the good rows of a corrupt chain/a.su are still used
mkdir -p "$OUT/kg"
sed '2a\
garbage' samples/chain/a.su >"$OUT/kg/a.su"
run_sp --json --keep-going $bin "$OUT/kg/a.su" samples/chain/b.su
expect_rc 0 "--keep-going, corrupt a.su"
expect_eq "--keep-going: one warning" "$(grep -c "^stackprof: warning: $OUT/kg/a\.su:3: malformed \.su line\$" "$OUT/stderr")" 1
expect_eq "--keep-going: rows" "$(jget $OUT/stdout 'j["su"]["rows"]')" \
	"$(cat samples/chain/a.su samples/chain/b.su | wc -l)"
for f in $(cut -f1 samples/chain/a.su | sed 's/.*://'); do
	expect_eq "--keep-going: $f's frame" "$(jget $OUT/stdout "fn('$f')['self']")" \
		"$(su_self samples/chain/a.su "$f")"
done
sed '1s/static$/frobnicated/' samples/chain/a.su >"$OUT/kg/a.su"
first=$(head -1 samples/chain/a.su | cut -f1 | sed 's/.*://')
run_sp --json --keep-going $bin "$OUT/kg/a.su" samples/chain/b.su
expect_rc 0 "--keep-going, unknown qualifier in a.su"
expect_eq "--keep-going: the unknown qualifier's row is dropped (CFI instead)" \
	"$(jget $OUT/stdout "fn('$first')['frame_source']")" '"cfi"'

# rows carry their own FILE:LINE, so a .su file's name does not matter
run_sp --json --keep-going $bin $bad/garbage.su
expect_eq "garbage.su --keep-going: rows" "$(jget $OUT/stdout 'j["su"]["rows"]')" 2
expect_eq "garbage.su --keep-going: level1 from line 1" "$(jget $OUT/stdout 'fn("level1")["self"]')" 80
expect_eq "garbage.su --keep-going: level3 from line 3" "$(jget $OUT/stdout 'fn("level3")["self"]')" 48
finish
