#!/bin/sh
# --diff OLD.json NEW.json: two builds of one program, the second with a
# bigger buffer in leaf, a VLA in grow and a recursive walk; the growth
# must equal what GCC's .su files say grew, and --fail-on-growth exits 1
# just below that growth and 0 at it.
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
echo '{"version": 2, "functions": []}' >"$OUT/v2.json"
expect_bad "version 2" "v2.json': not a stackprof JSON report" --diff "$OUT/v2.json" "$OUT/old.json"
echo '{ broken' >"$OUT/broken.json"
expect_bad "broken JSON" "broken.json': cannot read JSON" --diff "$OUT/broken.json" "$OUT/old.json"
run_sp --diff "$OUT/old.json"
expect_rc 2 "--diff with one file"
grep -q '^stackprof: --diff needs two JSON reports' "$OUT/stderr" || fail "one file: $(cat "$OUT/stderr")"
run_sp --fail-on-growth 1 "$OUT/old/p"
expect_rc 2 "--fail-on-growth without --diff"
grep -q '^stackprof: --fail-on-growth needs --diff' "$OUT/stderr" || fail "no diff: $(cat "$OUT/stderr")"
finish
