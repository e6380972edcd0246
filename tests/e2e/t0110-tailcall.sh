#!/bin/sh
# Tail calls, worked out by hand from the .su lines (GCC's .ci sums a tail
# call like a normal call, so the oracle cannot see them).  objdump shows
# forward and relay call small and then jmp to big, trampoline only jmps
# to forward; a jmp reuses the caller's frame, so
#	total(forward)    = max(self(forward) + self(small), self(big))
#	total(relay)      = max(self(relay) + self(small), self(big))
#	total(trampoline) = max(self(trampoline), total(forward))
#	total(main)       = self(main) + max(total(relay), total(trampoline))
# (main's printf counts 0).  Summing the tail calls would give more.
. tests/e2e/lib.sh
need_sample tailcall

su=samples/tailcall/tailcall.su
max() { [ "$1" -gt "$2" ] && echo "$1" || echo "$2"; }
# a leaf's frame also holds the red zone it uses below %rsp, which .su
# leaves out: taken from objdump's code (ci_oracle.py --red-zones)
$ORACLE --red-zones samples/tailcall/tailcall >"$OUT/red" || fail "objdump red zones"
red() { awk -v f="$1" '$1 == f { print $2 }' "$OUT/red"; }
big=$(( $(su_self $su big) + $(red big) ))
small=$(( $(su_self $su small) + $(red small) ))
fwd=$(max $(( $(su_self $su forward) + small )) "$big")
relay=$(max $(( $(su_self $su relay) + small )) "$big")
tramp=$(max "$(su_self $su trampoline)" "$fwd")
main=$(( $(su_self $su main) + $(max "$relay" "$tramp") ))

# the sample must still make the tail calls this test is about
objdump -d --no-show-raw-insn samples/tailcall/tailcall >"$OUT/dis"
for f in forward relay trampoline; do
	awk -v f="<$f>:" '$2 == f { on = 1; next } /^$/ { on = 0 } on' "$OUT/dis" |
		grep -Eq 'jmp +[0-9a-f]+ <(big|forward)>' ||
		fail "$f makes no tail call (jmp): rebuild the samples with -O2"
done

run_sp --json samples/tailcall/tailcall
expect_rc 0 "stackprof --json"
j=$OUT/stdout
expect_eq "total(big)" "$(jget $j 'fn("big")["total"]')" "$big"
expect_eq "total(forward)" "$(jget $j 'fn("forward")["total"]')" "$fwd"
expect_eq "total(relay)" "$(jget $j 'fn("relay")["total"]')" "$relay"
expect_eq "total(trampoline)" "$(jget $j 'fn("trampoline")["total"]')" "$tramp"
expect_eq "total(main)" "$(jget $j 'fn("main")["total"]')" "$main"
expect_eq "forward's path" "$(jget $j 'fn("forward")["path"]')" '["forward", "big"]'
expect_eq "relay's path" "$(jget $j 'fn("relay")["path"]')" '["relay", "small"]'
expect_eq "trampoline's path" "$(jget $j 'fn("trampoline")["path"]')" \
	'["trampoline", "forward", "big"]'
expect_eq "main's path" "$(jget $j 'fn("main")["path"]')" '["main", "relay", "small"]'
expect_eq "forward -> big is a tail call" \
	"$(jget $j '[d["tail"] for d in fn("forward")["path_detail"]][1]')" true
expect_eq "relay -> small is not" \
	"$(jget $j '[d["tail"] for d in fn("relay")["path_detail"]][1]')" false

# the oracle, told which calls are tail calls, must agree with the hand
$ORACLE --print --objdump samples/tailcall/tailcall --json "$j" \
	--tail forward=big --tail relay=big --tail trampoline=forward \
	samples/tailcall >"$OUT/oracle"
for f in forward:$fwd relay:$relay trampoline:$tramp main:$main; do
	grep -q "^${f%%:*}	.*	total=${f#*:}	" "$OUT/oracle" ||
		fail "the oracle's ${f%%:*} is not ${f#*:}"
done
finish
