#!/bin/sh
# --entry NAME reports only that root; FILE:NAME picks one of two static
# functions of the same name; a GCC clone is found by its source name.
. tests/e2e/lib.sh
need_sample statics
need_sample clones

bin=samples/statics/statics
a_self=$(su_self samples/statics/a.su helper)
b_self=$(su_self samples/statics/b.su helper)
[ -n "$a_self" ] && [ -n "$b_self" ] && [ "$a_self" != "$b_self" ] ||
	fail "the two helpers of samples/statics must have different frames"

# the helpers are leaves: their red zone (from objdump) adds to the total
red=$($ORACLE --red-zones $bin | awk '$1 == "helper" && $2 == $3 { print $2 }')
[ -n "$red" ] || fail "objdump: the two helpers' red zones differ"

names()
{
	jget "$OUT/stdout" 'sorted((f["name"], f["file"]) for f in j["functions"])'
}

run_sp --json --entry from_b $bin
expect_rc 0 "--entry from_b"
expect_eq "--entry from_b" "$(names)" '[["from_b", "statics/b.c"]]'

run_sp --json --entry helper $bin
expect_rc 0 "--entry helper"
expect_eq "--entry helper: both statics" "$(names)" \
	'[["helper", "statics/a.c"], ["helper", "statics/b.c"]]'

for spec in statics/b.c:helper b.c:helper; do
	run_sp --json --entry $spec $bin
	expect_rc 0 "--entry $spec"
	expect_eq "--entry $spec" "$(names)" '[["helper", "statics/b.c"]]'
	expect_eq "--entry $spec: self" "$(jget $OUT/stdout 'j["functions"][0]["self"]')" "$b_self"
	expect_eq "--entry $spec: total" "$(jget $OUT/stdout 'j["functions"][0]["total"]')" \
		"$((b_self + red))"
done

run_sp --json --entry statics/a.c:helper $bin
expect_rc 0 "--entry statics/a.c:helper"
expect_eq "--entry statics/a.c:helper" "$(names)" '[["helper", "statics/a.c"]]'
expect_eq "statics/a.c:helper: self" "$(jget $OUT/stdout 'j["functions"][0]["self"]')" "$a_self"

# an absolute FILE names the same function (comp_dir + file)
run_sp --json --entry "$(pwd)/samples/statics/b.c:helper" $bin
expect_rc 0 "--entry /abs/statics/b.c:helper"
expect_eq "--entry /abs/statics/b.c:helper" "$(names)" '[["helper", "statics/b.c"]]'

run_sp --json --entry main --entry from_a --entry main $bin
expect_rc 0 "--entry main --entry from_a --entry main"
expect_eq "two roots, main once" "$(names)" \
	'[["from_a", "statics/a.c"], ["main", "statics/a.c"]]'

# text: the table has the one row asked for
run_sp --entry from_a $bin
expect_rc 0 "text --entry from_a"
rows=$(grep -cE '^ +[0-9]+\+? +[0-9?]+ +[a-z,]+ +[^ ]+ +[^ ]+:[0-9]+$' "$OUT/stdout")
expect_eq "text --entry from_a: table rows" "$rows" 1
grep -qE '^ +[0-9]+ +[0-9]+ +static +from_a +statics/a\.c:[0-9]+$' "$OUT/stdout" ||
	fail "text --entry from_a: no from_a row"

# clones: "scaled" finds scaled.constprop, "weigh" weigh.isra
run_sp --json --entry scaled --entry weigh samples/clones/clones
expect_rc 0 "--entry scaled --entry weigh (clones)"
expect_eq "clone names" "$(jget $OUT/stdout 'sorted(f["name"] for f in j["functions"])')" \
	'["scaled.constprop", "weigh.isra"]'

run_sp --json --entry nosuch $bin
expect_rc 2 "--entry nosuch"
grep -q "^stackprof: .*nosuch" "$OUT/stderr" || fail "--entry nosuch: error does not name it"
[ -s "$OUT/stdout" ] && fail "--entry nosuch: wrote a report"

run_sp --entry statics/c.c:helper $bin
expect_rc 2 "--entry statics/c.c:helper (no such file)"
finish
