#!/bin/sh
# --diff OLD.json NEW.json: two builds of one program, the second with a
# bigger buffer in leaf, a VLA in grow and a recursive walk; the growth
# must equal what GCC's .su files say grew, and --fail-on-growth exits 1
# just below that growth and 0 at it.  Reports of version 1 (made by the
# version 1 writer, kept in tests/data/json-v1) and version 2 of the same
# binary compare equal, either way round; a change shows across versions.
. tests/e2e/lib.sh

cat >"$OUT/p.c" <<'C'
__attribute__((noinline)) void sink(volatile char *p) { p[0] = 0; }

__attribute__((noinline)) int leaf(int n)
{
	volatile char buf[N];

	sink(buf);
	return buf[n % N];
}

__attribute__((noinline)) int grow(int n)
{
#ifdef NEW
	volatile char v[n + 1];
#else
	volatile char v[8];
#endif
	sink(v);
	return v[0] + leaf(n);
}

__attribute__((noinline)) int walk(int n)
{
	volatile char b[24];

	sink(b);
#ifdef NEW
	if (n > 0)
		return walk(n - 1) + b[0] + 1;
#endif
	return b[0] + n;
}

int main(int argc, char **argv)
{
	(void)argv;
	return leaf(argc) + grow(argc) + walk(argc);
}
C
for v in old new; do
	mkdir -p "$OUT/$v"
	cp "$OUT/p.c" "$OUT/$v/p.c"
	def=-DN=64
	[ $v = new ] && def="-DN=400 -DNEW"
	(cd "$OUT/$v" && gcc -O2 -g -fstack-usage $def -o p p.c) || fail "gcc $v"
	run_sp --json -o "$OUT/$v.json" "$OUT/$v/p"
	expect_rc 0 "--json $v"
done
old_leaf=$(su_self "$OUT/old/p.su" leaf)
new_leaf=$(su_self "$OUT/new/p.su" leaf)
grow_leaf=$((new_leaf - old_leaf))
[ "$grow_leaf" -gt 0 ] || fail "leaf's .su frame did not grow ($old_leaf -> $new_leaf)"

run_sp --diff "$OUT/old.json" "$OUT/new.json"
expect_rc 0 "--diff"
cp "$OUT/stdout" "$OUT/diff"
# leaf: its total is its own frame (sink is a leaf), so the growth is the
# .su growth
leaf_line=$(grep -E '  leaf \(p\.c\)' "$OUT/diff")
expect_eq "leaf growth" "$(echo "$leaf_line" | awk '{ print $1 }')" "+$grow_leaf"
expect_eq "leaf self note" "$(echo "$leaf_line" | grep -o 'self [+-][0-9]*')" "self +$grow_leaf"
# main's old total is bounded, new is not: main -> grow (VLA) and walk (recursion)
grep -Eq '  grow \(p\.c\).*new dynamic frame' "$OUT/diff" || fail "grow: no 'new dynamic frame'"
grep -Eq '  walk \(p\.c\).*new recursion' "$OUT/diff" || fail "walk: no 'new recursion'"
grep -Eq '  main \(p\.c\).*now unbounded' "$OUT/diff" || fail "main: no 'now unbounded'"
grep -q '  sink (p.c)' "$OUT/diff" && fail "sink did not change but is listed"
# sorted by growth, largest first
awk 'NR > 1 && $1 ~ /^[+-]/ { print $1 + 0 }' "$OUT/diff" >"$OUT/growths"
sort -rn "$OUT/growths" | cmp -s - "$OUT/growths" || fail "not sorted by growth"
# the largest growth is at least leaf's
max=$(head -1 "$OUT/growths")
[ "$max" -ge "$grow_leaf" ] || fail "largest growth $max < leaf's $grow_leaf"
tail -1 "$OUT/diff" | grep -q "largest growth +$max bytes" || fail "summary: $(tail -1 "$OUT/diff")"

run_sp --diff --fail-on-growth $((max - 1)) "$OUT/old.json" "$OUT/new.json"
expect_rc 1 "--fail-on-growth $((max - 1))"
grep -q "^stackprof: stack growth of $max bytes exceeds --fail-on-growth $((max - 1))\$" \
	"$OUT/stderr" || fail "--fail-on-growth: stderr '$(cat "$OUT/stderr")'"
run_sp --diff --fail-on-growth $max "$OUT/old.json" "$OUT/new.json"
expect_rc 0 "--fail-on-growth $max"

# the reverse diff: everything shrinks, no growth, exit 0
run_sp --diff --fail-on-growth 0 "$OUT/new.json" "$OUT/old.json"
expect_rc 0 "reverse --diff"
expect_eq "reverse leaf" "$(grep -E '  leaf \(p\.c\)' "$OUT/stdout" | awk '{ print $1 }')" "-$grow_leaf"
# identical reports: nothing changed
run_sp --diff "$OUT/old.json" "$OUT/old.json"
expect_eq "same report" "$(tail -1 "$OUT/stdout")" "0 functions changed, largest growth +0 bytes"

# bad input
echo '{"version": 1, "functions": [ {"name": "x"} ]}' >"$OUT/nolb.json"
expect_bad "no lower_bound" "nolb.json': function 0 has no name or lower_bound" --diff "$OUT/old.json" "$OUT/nolb.json"
echo '{"version": 3, "functions": []}' >"$OUT/v3.json"
expect_bad "version 3" "v3.json': not a stackprof JSON report" --diff "$OUT/v3.json" "$OUT/old.json"
echo '[1, 2]' >"$OUT/array.json"
expect_bad "an array" "array.json': not a stackprof JSON report" --diff "$OUT/array.json" "$OUT/old.json"
printf '{"version": 2, "functions": [' >"$OUT/cut.json"
expect_bad "cut short" "cut.json': cannot read JSON: unexpected end" --diff "$OUT/old.json" "$OUT/cut.json"
: >"$OUT/empty.json"
expect_bad "empty" "empty.json': cannot read JSON: unexpected end" --diff "$OUT/old.json" "$OUT/empty.json"
echo '{"version": 2, "functions": [{"name": "x", "lower_bound": 1}] } x' >"$OUT/more.json"
expect_bad "text after the report" "more.json': cannot read JSON: more after" --diff "$OUT/more.json" "$OUT/old.json"
expect_bad "no such file" "nosuch.json': cannot read JSON: No such file" --diff "$OUT/nosuch.json" "$OUT/old.json"
echo '{ broken' >"$OUT/broken.json"
expect_bad "broken JSON" "broken.json': cannot read JSON" --diff "$OUT/broken.json" "$OUT/old.json"
# version 1 against version 2: tests/data/json-v1 holds what the version 1
# writer made of samples built by Debian 12's GCC; another compiler's
# samples are other programs, which built-from tells apart
v1=tests/data/json-v1
while read -r s text su; do
	need_sample "$s"
	got_text=$(objcopy -O binary --only-section=.text "samples/$s/$s" /dev/stdout |
		sha256sum | cut -c1-16)
	got_su=$(cat samples/"$s"/*.su | sha256sum | cut -c1-16)
	if [ "$got_text $got_su" != "$text $su" ]; then
		skip_part "$s: samples/$s is not the build $v1/$s.json was made from (another compiler?)"
		continue
	fi
	run_sp --json -o "$OUT/$s.v2.json" "samples/$s/$s"
	expect_rc 0 "$s: --json"
	for pair in "$v1/$s.json $OUT/$s.v2.json" "$OUT/$s.v2.json $v1/$s.json"; do
		run_sp --diff $pair
		expect_rc 0 "$s: --diff $pair"
		expect_eq "$s: version 1 against version 2 ($pair)" "$(cat "$OUT/stdout")" \
			"$(printf '%9s %9s %9s  %s\n%s' growth old new function \
				"0 functions changed, largest growth +0 bytes")"
	done
	# the v2 report lists more functions (those reached, not selected)
	# than the v1 report, which the diff leaves out: there must be some
	expect_eq "$s: v1 lists the selected functions of v2" \
		"$(jget "$OUT/$s.v2.json" 'len(j["functions"])')" \
		"$(python3 -c 'import json, sys; print(len(json.load(open(sys.argv[1]))["functions"]))' "$v1/$s.json")"
done <"$v1/built-from"
# a change across versions: level5's frame annotated bigger in version 2
if [ -s "$OUT/chain.v2.json" ]; then
	echo "frame level5 400" >"$OUT/frame.ann"
	run_sp --json --annotate "$OUT/frame.ann" -o "$OUT/chain.ann.json" samples/chain/chain
	run_sp --diff "$v1/chain.json" "$OUT/chain.ann.json"
	expect_rc 0 "v1 against an annotated v2"
	grow=$((400 - $(su_self samples/chain/a.su level5)))
	expect_eq "level5 grew by the annotation" \
		"$(grep -E '  level5 \(chain/a\.c\)' "$OUT/stdout" | awk '{ print $1 }')" "+$grow"
	expect_eq "main and the levels above grew as much" \
		"$(awk '$1 == "+'$grow'" { print $4 }' "$OUT/stdout" | sort | tr '\n' ' ')" \
		"level1 level2 level3 level4 level5 main "
fi

run_sp --diff "$OUT/old.json"
expect_rc 2 "--diff with one file"
grep -q '^stackprof: --diff needs two JSON reports' "$OUT/stderr" || fail "one file: $(cat "$OUT/stderr")"
run_sp --fail-on-growth 1 "$OUT/old/p"
expect_rc 2 "--fail-on-growth without --diff"
grep -q '^stackprof: --fail-on-growth needs --diff' "$OUT/stderr" || fail "no diff: $(cat "$OUT/stderr")"
finish
