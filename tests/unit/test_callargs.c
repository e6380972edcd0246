/*
 * test_callargs.c - the constants insn_call_args finds in the argument
 * registers of direct calls and tail jumps (insn/callargs.c), over
 * x86-64 functions assembled by hand; code at 0x1000, the image's code
 * [0x1000, 0x10000).  Each expectation is worked out in the comment
 * from the control flow, not taken from the pass.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <gelf.h>

#include "elf/elf.h"
#include "insn/insn.h"
#include "insn/passes.h"

enum { RDI = 5, RSI = 4, RDX = 1 };

static void args_of(const uint8_t *code, size_t size, const struct insn_loads *landings,
		    struct insn_cargs *out)
{
	struct insn_decoder *d = insn_decoder_open(EM_X86_64);
	struct sp_elf_code text = { .addr = 0x1000, .size = 0xf000 };
	struct insn_buf b = { 0 };
	struct insn_loads none = { 0 };
	struct sp_elf e;

	memset(&e, 0, sizeof(e));
	e.arch = sp_arch(EM_X86_64);
	e.type = ET_EXEC;
	e.code = &text;
	e.ncode = 1;
	memset(out, 0, sizeof(*out));
	assert_non_null(d);
	assert_true(insn_decode_bytes(d, code, size, 0x1000, false, false, &b));
	insn_call_args(&e, landings ? landings : &none, out, b.v, b.n);
	insn_buf_release(&b);
	insn_decoder_close(d);
}

static void assert_arg(const struct insn_carg *a, uint64_t ret, uint8_t reg, uint64_t value)
{
	assert_int_equal(a->ret, ret);
	assert_int_equal(a->reg, reg);
	assert_int_equal(a->value, value);
}

/* Straight-line code: both constants reach the call; the walk back meets
 * rdx's first.
 *
 *	1000: be 00 20 00 00		mov $0x2000,%esi
 *	1005: 48 c7 c2 00 30 00 00	mov $0x3000,%rdx
 *	100c: e8 ef 3f 00 00		call 5000
 *	1011: c3			ret
 */
static void test_straight(void **state)
{
	static const uint8_t code[] = {
		0xbe, 0x00, 0x20, 0x00, 0x00, 0x48, 0xc7, 0xc2, 0x00, 0x30, 0x00, 0x00,
		0xe8, 0xef, 0x3f, 0x00, 0x00, 0xc3,
	};
	struct insn_cargs c;

	(void)state;
	args_of(code, sizeof(code), NULL, &c);
	assert_int_equal(c.n, 2);
	assert_arg(&c.v[0], 0x1011, RDX, 0x3000);
	assert_arg(&c.v[1], 0x1011, RSI, 0x2000);
	free(c.v);
}

/* The je lands between rsi's write and the call: the path through it
 * leaves rsi what it was, so rsi has no value; rdi's write is at the
 * landing place itself and runs on both paths.
 *
 *	1000: 85 ff			test %edi,%edi
 *	1002: 74 05			je 1009
 *	1004: be 00 20 00 00		mov $0x2000,%esi
 *	1009: bf 00 30 00 00		mov $0x3000,%edi
 *	100e: e8 ed 3f 00 00		call 5000
 *	1013: c3			ret
 */
static void test_label_between(void **state)
{
	static const uint8_t code[] = {
		0x85, 0xff, 0x74, 0x05, 0xbe, 0x00, 0x20, 0x00, 0x00, 0xbf, 0x00, 0x30,
		0x00, 0x00, 0xe8, 0xed, 0x3f, 0x00, 0x00, 0xc3,
	};
	struct insn_cargs c;

	(void)state;
	args_of(code, sizeof(code), NULL, &c);
	assert_int_equal(c.n, 1);
	assert_arg(&c.v[0], 0x1013, RDI, 0x3000);
	free(c.v);
}

/* The last write of rsi is a copy, not the constant before it: no value;
 * a zeroed rdx is NULL.  The tail jump out of the function gets rdi's
 * constant, and nothing from before the call, which clobbers the rest.
 *
 *	1000: be 00 20 00 00		mov $0x2000,%esi
 *	1005: 89 fe			mov %edi,%esi
 *	1007: 31 d2			xor %edx,%edx
 *	1009: e8 f2 3f 00 00		call 5000
 *	100e: bf 00 30 00 00		mov $0x3000,%edi
 *	1013: e9 e8 4f 00 00		jmp 6000
 */
static void test_copy_null_tail(void **state)
{
	static const uint8_t code[] = {
		0xbe, 0x00, 0x20, 0x00, 0x00, 0x89, 0xfe, 0x31, 0xd2, 0xe8, 0xf2, 0x3f,
		0x00, 0x00, 0xbf, 0x00, 0x30, 0x00, 0x00, 0xe9, 0xe8, 0x4f, 0x00, 0x00,
	};
	struct insn_cargs c;

	(void)state;
	args_of(code, sizeof(code), NULL, &c);
	assert_int_equal(c.n, 2);
	assert_arg(&c.v[0], 0x100e, RDX, 0);
	assert_arg(&c.v[1], 0x1018, RDI, 0x3000);
	free(c.v);
}

/* A jump through a register may land anywhere (a switch's table): the
 * function's calls get no values.
 *
 *	1000: be 00 20 00 00		mov $0x2000,%esi
 *	1005: e8 f6 3f 00 00		call 5000
 *	100a: ff e0			jmp *%rax
 */
static void test_table_jump(void **state)
{
	static const uint8_t code[] = {
		0xbe, 0x00, 0x20, 0x00, 0x00, 0xe8, 0xf6, 0x3f, 0x00, 0x00, 0xff, 0xe0,
	};
	struct insn_cargs c;

	(void)state;
	args_of(code, sizeof(code), NULL, &c);
	assert_int_equal(c.n, 0);
	free(c.v);
}

/* A kernel's static branch: the nop becomes a jump to 100f when its key
 * is enabled, which __jump_table says and the code does not.  Given
 * that landing place, the call is one, and rsi has no value (0x2000 on
 * the jumped path, 0x3000 on the other); without it, 0x3000.
 *
 *	1000: be 00 20 00 00		mov $0x2000,%esi
 *	1005: 0f 1f 44 00 00		nopl 0x0(%rax,%rax,1)	(jmp 100f)
 *	100a: be 00 30 00 00		mov $0x3000,%esi
 *	100f: e8 ec 3f 00 00		call 5000
 *	1014: c3			ret
 */
static void test_static_branch(void **state)
{
	static const uint8_t code[] = {
		0xbe, 0x00, 0x20, 0x00, 0x00, 0x0f, 0x1f, 0x44, 0x00, 0x00, 0xbe, 0x00,
		0x30, 0x00, 0x00, 0xe8, 0xec, 0x3f, 0x00, 0x00, 0xc3,
	};
	uint64_t at = 0x100f;
	struct insn_loads landings = { .v = &at, .n = 1 };
	struct insn_cargs c;

	(void)state;
	args_of(code, sizeof(code), &landings, &c);
	assert_int_equal(c.n, 0);
	free(c.v);
	args_of(code, sizeof(code), NULL, &c);
	assert_int_equal(c.n, 1);
	assert_arg(&c.v[0], 0x1014, RSI, 0x3000);
	free(c.v);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_straight),
		cmocka_unit_test(test_label_between),
		cmocka_unit_test(test_copy_null_tail),
		cmocka_unit_test(test_table_jump),
		cmocka_unit_test(test_static_branch),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
