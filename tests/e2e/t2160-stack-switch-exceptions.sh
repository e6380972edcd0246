#!/bin/sh
# Stack switches and exceptions taken on the current stack, on programs
# assembled by hand (no DWARF, no .su: every frame from the code), the
# totals derived by hand below.
#
# x86-64: on_irq stores %rsp at the top of another stack, loads %rsp
# from there, calls softirq and pops %rsp back (the kernel's
# call_on_stack): its frame is push %rbx + the return address, 16, and
# softirq's 0x100 + 8 + leaf's 8 are on the other stack, not in its
# total (JSON "via": "stack-switch", text "[stack switch]").
# copy_user's load is in a hand-made __ex_table (12-byte entries, type
# 3, EX_TYPE_UACCESS): a page fault there runs <page fault> (pt_regs,
# 168 bytes, and 8 of alignment: 176) then exc_page_fault (push %rbx,
# return address: 16, + leaf 8 = 24): 8 + 176 + 24 = 208; so does
# get_user's, type 17 with the immediate -EFAULT (EX_TYPE_EFAULT_REG,
# 0xfff20011).  seg_load's entry, type 17 with 0 (EX_TYPE_ZERO_REG, a
# segment load), faults with #GP: <general protection> (176) and
# exc_general_protection's return address: 8 + 176 + 8 = 192.  mce_copy's
# type 14 (EX_TYPE_DEFAULT_MCE_SAFE) is a machine check, on its own
# stack: 8.  warner's ud2 is in __bug_table as a WARN (flags 1,
# BUGFLAG_WARNING), bugger's as a BUG (flags 0): <warning> and <invalid
# opcode>, each 176 and exc_invalid_op (its return address and
# do_error_trap's: 16): 8 + 176 + 16 = 200.  'ignore exc_invalid_op
# do_error_trap from <warning>' (the kernel's WARN returns before it)
# leaves warner 8 + 176 + 8 = 192, bugger 200.  'ignore exc_page_fault
# leaf below <page fault>' takes leaf off the fault (8 + 176 + 16 =
# 200), not off exc_page_fault alone (24).
#
# The same code as an object (a module: ET_REL, every word of the tables
# 0 and relocated) gives the same totals, and a module's fault runs the
# handler of the image beside it: m.o's copy_mod with k's exc_page_fault
# is 8 + 176 + 24 = 208.
#
# AArch64 (when aarch64-linux-gnu-as is here): copy_user's ldr in
# __ex_table (type 2, UACCESS_ERR_ZERO) runs kernel_ventry's 336 bytes
# and el1h_64_sync_handler (stp x29, x30: 16): 0 + 336 + 16 = 352.
. tests/e2e/lib.sh

b=$OUT/build
mkdir -p "$b"
cat >"$b/k.s" <<'S'
	.text
	.globl _start
	.type _start, @function
_start:	call on_irq
	call copy_user
	call seg_load
	call get_user
	call mce_copy
	call warner
	ud2
	.size _start, .-_start
	.type leaf, @function
leaf:	ret
	.size leaf, .-leaf
	.type softirq, @function
softirq:
	sub $0x100, %rsp
	call leaf
	add $0x100, %rsp
	ret
	.size softirq, .-softirq
	.type on_irq, @function
on_irq:	push %rbx
	mov irq_stack(%rip), %r11
	mov %rsp, (%r11)
	mov %r11, %rsp
	call softirq
	pop %rsp
	pop %rbx
	ret
	.size on_irq, .-on_irq
	.type copy_user, @function
copy_user:
1:	mov (%rdi), %rax
	ret
	.size copy_user, .-copy_user
	.type seg_load, @function
seg_load:
2:	mov (%rsi), %rax
	ret
	.size seg_load, .-seg_load
	.type get_user, @function
get_user:
4:	mov (%rdi), %rax
	ret
	.size get_user, .-get_user
	.type mce_copy, @function
mce_copy:
5:	mov (%rsi), %rax
	ret
	.size mce_copy, .-mce_copy
	.type warner, @function
warner:
3:	ud2
	ret
	.size warner, .-warner
	.type bugger, @function
bugger:
6:	ud2
	ret
	.size bugger, .-bugger
	.type exc_page_fault, @function
	.globl exc_page_fault
exc_page_fault:
	push %rbx
	call leaf
	pop %rbx
	ret
	.size exc_page_fault, .-exc_page_fault
	.type exc_general_protection, @function
	.globl exc_general_protection
exc_general_protection:
	ret
	.size exc_general_protection, .-exc_general_protection
	.type exc_invalid_op, @function
	.globl exc_invalid_op
exc_invalid_op:
	call do_error_trap
	ret
	.size exc_invalid_op, .-exc_invalid_op
	.type do_error_trap, @function
do_error_trap:
	ret
	.size do_error_trap, .-do_error_trap
	.section __ex_table, "a"
	.long 1b - ., 0, 3
	.long 2b - ., 0, 0x11
	.long 4b - ., 0, 0xfff20011
	.long 5b - ., 0, 14
	.section __bug_table, "a"
	.long 3b - ., 0
	.short 7, 1
	.long 6b - ., 0
	.short 8, 0
	.data
irq_stack:
	.quad 0
S
as --64 -g -o "$b/k.o" "$b/k.s" && ld -o "$b/k" "$b/k.o" || fail "cannot build k"

run_sp --json "$b/k"
expect_rc 0 "stackprof k"
j=$OUT/stdout
expect_eq "on_irq's total: its own stack only" "$(jget $j 'fn("on_irq")["total"]')" 16
expect_eq "on_irq's stack switch" \
	"$(jget $j '[(c["name"], c["via"]) for c in fn("on_irq")["calls"]]')" \
	'[["softirq", "stack-switch"]]'
expect_eq "_start: no switch in its total" "$(jget $j 'fn("_start")["total"]')" "$((8 + 208))"
expect_eq "copy_user: a page fault on top" "$(jget $j 'fn("copy_user")["total"]')" 208
expect_eq "copy_user's path" "$(jget $j '[(d["name"], d["via"], d["self"]) for d in fn("copy_user")["path_detail"]]')" \
	'[["copy_user", null, 8], ["<page fault>", "exception", 176], ["exc_page_fault", null, 16], ["leaf", null, 8]]'
expect_eq "get_user: EFAULT_REG is a page fault" "$(jget $j 'fn("get_user")["total"]')" 208
expect_eq "seg_load: a segment load's #GP" "$(jget $j 'fn("seg_load")["total"]')" 192
expect_eq "seg_load's path" "$(jget $j '[(d["name"], d["via"]) for d in fn("seg_load")["path_detail"]]')" \
	'[["seg_load", null], ["<general protection>", "exception"], ["exc_general_protection", null]]'
expect_eq "mce_copy: a machine check is on its own stack" "$(jget $j 'fn("mce_copy")["total"]')" 8
expect_eq "warner: a WARN on top" "$(jget $j 'fn("warner")["total"]')" 200
expect_eq "warner's path" "$(jget $j '[(d["name"], d["via"]) for d in fn("warner")["path_detail"]]')" \
	'[["warner", null], ["<warning>", "exception"], ["exc_invalid_op", null], ["do_error_trap", null]]'
expect_eq "bugger's path" "$(jget $j '[(d["name"], d["via"]) for d in fn("bugger")["path_detail"]]')" \
	'[["bugger", null], ["<invalid opcode>", "exception"], ["exc_invalid_op", null], ["do_error_trap", null]]'
printf '# a WARN returns first\nignore exc_invalid_op do_error_trap from <warning>\n' >"$b/warn.ann"
run_sp --json --annotate "$b/warn.ann" "$b/k"
expect_rc 0 "ignore ... from <warning>"
expect_eq "from <warning>: warner, bugger" \
	"$(jget $OUT/stdout '[fn(n)["total"] for n in ("warner", "bugger")]')" \
	"[$((8 + 176 + 8)), $((8 + 176 + 16))]"
expect_eq "from <warning>: warner's path ends at <warning>'s copy of exc_invalid_op" \
	"$(jget $OUT/stdout '[d["name"] for d in fn("warner")["path_detail"]]')" \
	'["warner", "<warning>", "exc_invalid_op"]'
run_sp --entry on_irq --entry copy_user "$b/k"
grep -q 'on_irq -> softirq \[stack switch\]' "$OUT/stdout" || fail "text: no [stack switch] line"
grep -q '<page fault>.*\[exception\]' "$OUT/stdout" || fail "text: no [exception] frame"
run_sp --dot "$b/g.dot" --graph=calls --all "$b/k"
expect_rc 0 "stackprof --graph=calls"
grep -q 'on_irq -> softirq.*label="stack switch"' "$b/g.dot" || fail "dot: no stack switch edge"
grep -q 'copy_user -> "<page fault>".*label=exception' "$b/g.dot" || fail "dot: no exception edge"
run_sp --entry copy_user --budget 100 --sarif "$b/s.sarif" "$b/k"
expect_rc 1 "stackprof --budget 100"
grep -q 'copy_user → <page fault> \[exception\] → exc_page_fault' "$b/s.sarif" ||
	fail "SARIF: the path does not show the exception"

# an annotation names a node by its name, blanks and all: below a page
# fault taken in kernel code, exc_page_fault skips leaf (16 instead of
# 24); called on its own it does not
printf '# a kernel-mode fault\nignore exc_page_fault leaf below <page fault>\n' >"$b/pf.ann"
run_sp --json --annotate "$b/pf.ann" "$b/k"
expect_rc 0 "ignore ... below <page fault>"
expect_eq "below <page fault>: copy_user, get_user, exc_page_fault, _start" \
	"$(jget $OUT/stdout '[fn(n)["total"] for n in ("copy_user", "get_user", "exc_page_fault", "_start")]')" \
	"[$((8 + 176 + 16)), $((8 + 176 + 16)), 24, $((8 + 8 + 176 + 16))]"
printf 'ignore exc_page_fault leaf below <page fault\n' >"$b/pf.ann"
expect_bad "a node's name without its '>'" "pf.ann:1: want 'ignore FUNC CALLEE \[below ANCESTOR \[unless RESET...\] \| from CALLER...\]'" \
	--annotate "$b/pf.ann" "$b/k"
printf 'ignore exc_page_fault leaf below <double fault>\n' >"$b/pf.ann"
expect_bad "an unknown node" "pf.ann:1: unknown function '<double fault>'" --annotate "$b/pf.ann" "$b/k"

run_sp --json "$b/k.o"
expect_rc 0 "stackprof k.o"
expect_eq "k.o: the module's tables read through their relocations" \
	"$(jget $OUT/stdout '[fn(n)["total"] for n in ("copy_user", "get_user", "seg_load", "mce_copy", "warner", "bugger")]')" \
	'[208, 208, 192, 8, 200, 200]'
expect_eq "k.o: the WARN's node from the relocated table's flags" \
	"$(jget $OUT/stdout '[d["name"] for d in fn("warner")["path_detail"]]')" \
	'["warner", "<warning>", "exc_invalid_op", "do_error_trap"]'
cat >"$b/m.s" <<'S'
	.text
	.globl copy_mod
	.type copy_mod, @function
copy_mod:
	nop
1:	mov (%rdi), %rax
	ret
	.size copy_mod, .-copy_mod
	.section __ex_table, "a"
	.long 1b - ., 0, 3
S
as --64 -g -o "$b/m.o" "$b/m.s" || fail "cannot build m.o"
run_sp --json "$b/k" "$b/m.o"
expect_rc 0 "stackprof k m.o"
expect_eq "m.o: a module's fault runs the kernel's handler" \
	"$(jget $OUT/stdout 'fn("copy_mod")["total"]')" 208

command -v aarch64-linux-gnu-as >/dev/null && command -v aarch64-linux-gnu-ld >/dev/null ||
	{ skip_part "no aarch64-linux-gnu-as"; finish; exit; }
cat >"$b/a.s" <<'S'
	.text
	.globl _start
_start:	bl copy_user
	b .
	.type copy_user, %function
copy_user:
1:	ldr x0, [x0]
	ret
	.size copy_user, .-copy_user
	.type el1h_64_sync_handler, %function
	.globl el1h_64_sync_handler
el1h_64_sync_handler:
	stp x29, x30, [sp, #-16]!
	ldp x29, x30, [sp], #16
	ret
	.size el1h_64_sync_handler, .-el1h_64_sync_handler
	.section __ex_table, "a"
	.long 1b - ., 0
	.short 2, 0
S
aarch64-linux-gnu-as -g -o "$b/a.o" "$b/a.s" && aarch64-linux-gnu-ld -o "$b/a" "$b/a.o" ||
	fail "cannot build the AArch64 program"
run_sp --json "$b/a"
expect_rc 0 "stackprof on AArch64"
expect_eq "AArch64 copy_user: an abort on top" "$(jget $OUT/stdout 'fn("copy_user")["total"]')" 352
finish
