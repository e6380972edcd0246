#!/bin/sh
# A call from inline assembly to a label inside an assembly routine (the
# kernel's __put_user_nocheck_8 is a global label within __put_user_8,
# called from __save_altstack): DWARF lists no call site and the target is
# no function's entry, so the code must find the function that holds it.
# put_word has no .su row and no CFI: its frame is read from its code, 8
# (the return address; by hand from the assembly below: it pushes
# nothing), so save's total is its frame from save.su plus 8, on the path
# save -> put_word.  Before the fix the call was dropped: save's total
# was its own frame.
. tests/e2e/lib.sh

b=$OUT/build
mkdir -p "$b"
cat >"$b/asmlabel.c" <<'C'
/* put_word stores %rax at (%rcx); put_word_nocheck is its second entry */
__asm__(".text\n"
	".globl put_word\n.type put_word, @function\n"
	"put_word:\n\ttestq %rcx, %rcx\n"
	".globl put_word_nocheck\nput_word_nocheck:\n"
	"\tmovq %rax, (%rcx)\n\tret\n"
	".size put_word, .-put_word\n");

__attribute__((noinline)) long save(long *p, long v)
{
	volatile long pad[6];

	pad[0] = v;
	__asm__ volatile("call put_word_nocheck" : : "a"(v), "c"(p) : "memory");
	return pad[0];
}

int main(void)
{
	long x = 0;

	return (int)save(&x, 1) - (int)x;
}
C
gcc -O2 -mno-red-zone -g -fstack-usage -c "$b/asmlabel.c" -o "$b/asmlabel.o" ||
	fail "cannot compile asmlabel.c"
gcc -o "$b/asmlabel" "$b/asmlabel.o" || fail "cannot link asmlabel"
"$b/asmlabel" || fail "asmlabel does not run"
objdump -d --no-show-raw-insn "$b/asmlabel" | grep -q 'call.*<put_word_nocheck>' ||
	fail "save does not call put_word_nocheck"

su=$b/asmlabel.su
for calls in both disasm; do
	run_sp --json --calls=$calls "$b/asmlabel" "$b"
	expect_rc 0 "stackprof --calls=$calls"
	j=$OUT/stdout
	expect_eq "$calls: save's path" "$(jget $j 'fn("save")["path"]')" '["save", "put_word"]'
	expect_eq "$calls: put_word's frame from its code" \
		"$(jget $j '[(d["frame_source"], d["self"]) for d in fn("save")["path_detail"]][1]')" \
		'["code", 8]'
	expect_eq "$calls: save's total" "$(jget $j 'fn("save")["total"]')" \
		"$(($(su_self "$su" save) + 8))"
	expect_eq "$calls: save is complete" "$(jget $j 'fn("save")["partial"]')" false
done
finish
