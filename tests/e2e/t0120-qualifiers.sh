#!/bin/sh
# The .su qualifiers.  kmax's char buf[max(40, 71)] is formally a VLA: at
# -O0 its frame is "dynamic" and totals above it unbounded; at -O2 GCC
# folds it to a constant and the frame is static.  "dynamic,bounded"
# (bytes are an upper bound) keeps totals bounded: GCC 12 on x86-64
# rarely writes it, so the vla sample's .su is edited by hand for it.
. tests/e2e/lib.sh
need_sample kmax
need_sample vla

# -O2 (the sample as built): static
run_sp --json samples/kmax/kmax
expect_rc 0 "kmax -O2"
expect_eq "kmax -O2: format_id qualifier" "$(jget $OUT/stdout 'fn("format_id")["qualifier"]')" '"static"'
expect_eq "kmax -O2: main bounded" "$(jget $OUT/stdout 'fn("main")["bounded"]')" true

# -O0: dynamic, built beside copies of the sources so that stackprof
# finds the .su files through DWARF's comp_dir by itself
mkdir -p "$OUT/O0/kmax"
cp samples/kmax/*.c "$OUT/O0/kmax/"
(
	cd "$OUT/O0" &&
	gcc -O0 -g -fstack-usage -fcallgraph-info=su,da -c kmax/kmax.c -o kmax/kmax.o &&
	gcc -O0 -g -fstack-usage -fcallgraph-info=su,da -c kmax/use.c -o kmax/use.o &&
	gcc -o kmax/kmax kmax/kmax.o kmax/use.o
) || fail "cannot build kmax at -O0"
grep -q ':format_id	[0-9]*	dynamic$' "$OUT/O0/kmax/kmax.su" ||
	fail "kmax -O0: GCC did not call format_id's frame dynamic"
run_sp --json "$OUT/O0/kmax/kmax"
expect_rc 0 "kmax -O0"
j=$OUT/stdout
expect_eq "kmax -O0: format_id qualifier" "$(jget $j 'fn("format_id")["qualifier"]')" '"dynamic"'
expect_eq "kmax -O0: format_id total" "$(jget $j 'fn("format_id")["total"]')" null
expect_eq "kmax -O0: main bounded" "$(jget $j 'fn("main")["bounded"]')" false
expect_eq "kmax -O0: main's reason" \
	"$(jget $j 'any("dynamic" in r and "format_id" in r for r in fn("main")["reasons"])')" true
cp "$j" "$OUT/O0.json"
$ORACLE --json "$OUT/O0.json" "$OUT/O0" >"$OUT/O0.oracle" 2>&1 ||
	{ fail "kmax -O0: the oracle disagrees"; sed 's/^/    /' "$OUT/O0.oracle"; }

# dynamic,bounded: make_row's VLA declared bounded by hand
mkdir -p "$OUT/bounded"
sed 's/	dynamic$/	dynamic,bounded/' samples/vla/vla.su >"$OUT/bounded/vla.su"
cp samples/vla/fill.su "$OUT/bounded/fill.su"
grep -q ':make_row	[0-9]*	dynamic,bounded$' "$OUT/bounded/vla.su" ||
	fail "no dynamic make_row row in samples/vla/vla.su"
row=$(su_self "$OUT/bounded/vla.su" make_row)
fill=$(su_self "$OUT/bounded/fill.su" fill)
fixed=$(su_self "$OUT/bounded/vla.su" fixed)
main=$(su_self "$OUT/bounded/vla.su" main)
want_row=$((row + fill))
want_main=$((main + (row > fixed ? row : fixed) + fill))
run_sp --json samples/vla/vla "$OUT/bounded"
expect_rc 0 "vla, dynamic,bounded"
j=$OUT/stdout
expect_eq "bounded: make_row qualifier" "$(jget $j 'fn("make_row")["qualifier"]')" '"dynamic,bounded"'
expect_eq "bounded: make_row bounded" "$(jget $j 'fn("make_row")["bounded"]')" true
expect_eq "bounded: make_row total" "$(jget $j 'fn("make_row")["total"]')" "$want_row"
expect_eq "bounded: main total" "$(jget $j 'fn("main")["total"]')" "$want_main"
# and as plain dynamic: unbounded, the lower bound the same sum
run_sp --json samples/vla/vla
expect_eq "dynamic: make_row total" "$(jget $OUT/stdout 'fn("make_row")["total"]')" null
expect_eq "dynamic: make_row lower_bound" "$(jget $OUT/stdout 'fn("make_row")["lower_bound"]')" "$want_row"
expect_eq "dynamic: main lower_bound" "$(jget $OUT/stdout 'fn("main")["lower_bound"]')" "$want_main"
finish
