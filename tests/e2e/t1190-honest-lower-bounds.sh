#!/bin/sh
# An unbounded total's lower bound ('>= N', JSON lower_bound) is the
# deepest path over calls that certainly exist; a deeper path through an
# assumed indirect call is assumed_lower_bound, with its own path, and
# the text report says it on its own line.  tests/data/indirect/lowerbound.c:
# rec recurses (unbounded) and calls apply, whose indirect call may reach
# big (a 408-byte frame) or small.  Summed by hand from the .su lines and
# big's red zone:
#
#   rec   >= rec + apply                 assumed: rec + apply + big
#   apply    apply (+ big, assumed)
. tests/e2e/lib.sh

[ "$(uname -m)" = x86_64 ] || skip "the instruction pass is x86-64's"
src=tests/data/indirect/lowerbound.c
elf=$OUT/lowerbound
(cd "$OUT" && gcc -O2 -g -fstack-usage -o lowerbound ../../../../$src) || fail "compile $src"
su=$(ls "$OUT"/*lowerbound.su)
s() { echo $(( $(su_self "$su" "$1") + $(red_zone "$elf" "$1") )); }
certain=$(( $(s rec) + $(s apply) ))
assumed=$(( certain + $(s big) ))
[ "$(s big)" -gt "$(s small)" ] || fail "big's frame should be the larger"

# every lower_bound path has no assumed step, an assumed bound is deeper
# and its path takes one
honest()	# REPORT
{
	jget "$1" "[f['name'] for f in j['functions'] if
		any(d['via'] == 'assumed' for d in f['path_detail'] if not f['bounded']) or
		(f['assumed_lower_bound'] is not None and
		 (f['assumed_lower_bound'] <= f['lower_bound'] or
		  not any(d['via'] == 'assumed' for d in f['assumed_path_detail'])))]"
}

for mode in types address-taken; do
	run_sp --json --indirect=$mode "$elf" "$su"
	expect_rc 0 "--indirect=$mode"
	j=$OUT/$mode.json
	cp "$OUT/stdout" "$j"
	expect_eq "$mode: rec" "$(jget $j '[fn("rec")["bounded"], fn("rec")["lower_bound"], fn("rec")["total"]]')" \
		"[false, $certain, null]"
	expect_eq "$mode: rec's path" "$(jget $j 'fn("rec")["path"]')" '["rec", "apply"]'
	expect_eq "$mode: rec assumed" "$(jget $j 'fn("rec")["assumed_lower_bound"]')" "$assumed"
	expect_eq "$mode: rec's assumed path ends in big" \
		"$(jget $j 'fn("rec")["assumed_path"][-1]')" '"big"'
	expect_eq "$mode: honest bounds" "$(honest $j)" '[]'
	# the page builds rec's path over certain calls through apply, whose
	# own worst path takes the assumed call
	run_sp --indirect=$mode --html "$OUT/$mode.html" -o /dev/null "$elf" "$su"
	expect_rc 0 "--indirect=$mode --html"
	python3 tests/e2e/html_check.py static "$OUT/$mode.html" "$j" ||
		fail "$mode: the page's paths (above)"
	run_sp --indirect=$mode "$elf" "$su"
	grep -q "^#[0-9]* rec: at least $certain bytes, unbounded$" "$OUT/stdout" ||
		fail "$mode: text: $(grep ' rec:' "$OUT/stdout")"
	grep -q "^    assumed: at least $assumed bytes through apply -> " "$OUT/stdout" ||
		fail "$mode: text: no assumed line"
	grep -q ">= $assumed" "$OUT/stdout" && fail "$mode: the assumed bound as '>='"
done
# without --indirect the call is unresolved: no assumed bound at all
run_sp --json "$elf" "$su"
expect_rc 0 plain
expect_eq "plain: rec" "$(jget $OUT/stdout '[fn("rec")["lower_bound"], fn("rec")["assumed_lower_bound"]]')" \
	"[$certain, null]"
finish
