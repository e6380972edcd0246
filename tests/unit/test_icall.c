/*
 * test_icall.c - the chains insn_icalls_pass traces back from an
 * indirect call (insn/icall.c), over x86-64 functions assembled by hand:
 * which write of the called register reaches the call, through the
 * function's direct jumps.  Each expectation is worked out in the
 * comment from the control flow, not taken from the pass.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>

#include <gelf.h>

#include "elf/elf.h"
#include "insn/icall.h"
#include "insn/insn.h"

/* The chain of the one indirect call in code (at 0x1000). */
static void trace_code(const uint8_t *code, size_t size, struct insn_icalls *ic)
{
	struct insn_decoder *d = insn_decoder_open(EM_X86_64);
	struct insn_buf b = { 0 };
	struct sp_elf e;

	memset(&e, 0, sizeof(e));
	e.arch = sp_arch(EM_X86_64);
	e.type = ET_EXEC;
	memset(ic, 0, sizeof(*ic));
	assert_non_null(d);
	assert_true(insn_decode_bytes(d, code, size, 0x1000, false, false, &b));
	insn_icalls_pass(ic, &e, b.v, b.n);
	assert_int_equal(ic->ncalls, 1);
	insn_buf_release(&b);
	insn_decoder_close(d);
}

/* Two writes of rax reach the call, one from a block placed after the
 * function's return that jumps back (GCC's layout of an unlikely
 * branch): the call's value is neither constant, the register's
 * (INSN_SRC_REG), and not the entry's.
 *
 *	1000: 85 ff		test %edi,%edi
 *	1002: 75 08		jne 100c
 *	1004: b8 00 20 00 00	mov $0x2000,%eax
 *	1009: ff d0		call *%rax
 *	100b: c3		ret
 *	100c: b8 00 30 00 00	mov $0x3000,%eax
 *	1011: eb f6		jmp 1009	(0x1013 - 10)
 */
static void test_two_writes_one_jumped(void **state)
{
	static const uint8_t code[] = {
		0x85, 0xff, 0x75, 0x08, 0xb8, 0x00, 0x20, 0x00, 0x00, 0xff, 0xd0, 0xc3,
		0xb8, 0x00, 0x30, 0x00, 0x00, 0xeb, 0xf6,
	};
	struct insn_icalls ic;
	const struct insn_link *l;

	(void)state;
	trace_code(code, sizeof(code), &ic);
	assert_int_equal(ic.calls[0].pc, 0x1009);
	assert_int_equal(ic.calls[0].nlinks, 1);
	l = &ic.links[ic.calls[0].link];
	if (l->src == INSN_SRC_CONST)
		fail_msg("call *%%rax: constant %#llx, but 0x3000 reaches it too",
			 (unsigned long long)l->disp);
	assert_int_equal(l->src, INSN_SRC_REG);
	assert_false(l->entry);
	insn_icalls_release(&ic);
}

/* One write reaches the call, over a jump and the padding after it:
 * the constant.
 *
 *	1000: b8 00 20 00 00	mov $0x2000,%eax
 *	1005: eb 02		jmp 1009
 *	1007: cc cc		int3; int3	(nothing reaches them)
 *	1009: ff d0		call *%rax
 *	100b: c3		ret
 */
static void test_one_write_over_a_jump(void **state)
{
	static const uint8_t code[] = {
		0xb8, 0x00, 0x20, 0x00, 0x00, 0xeb, 0x02, 0xcc, 0xcc, 0xff, 0xd0, 0xc3,
	};
	struct insn_icalls ic;
	const struct insn_link *l;

	(void)state;
	trace_code(code, sizeof(code), &ic);
	assert_int_equal(ic.calls[0].nlinks, 1);
	l = &ic.links[ic.calls[0].link];
	assert_int_equal(l->src, INSN_SRC_CONST);
	assert_int_equal(l->disp, 0x2000);
	insn_icalls_release(&ic);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_two_writes_one_jumped),
		cmocka_unit_test(test_one_write_over_a_jump),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
