/*
 * test_redzone.c - insn_red_zone over x86-64 code assembled by hand
 * (bytes from "as" and "objdump -d", the expected red zone worked out
 * from each listing in its comment).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "insn/passes.h"

/* 1 and *red for a leaf decoded whole, else 0 */
static int scan(const uint8_t *code, size_t size, uint32_t *red)
{
	struct insn_decoder *d = insn_decoder_open(EM_X86_64);
	struct insn_buf b = { 0 };
	int leaf;

	assert_non_null(d);
	*red = 12345;
	insn_decode_bytes(d, code, size, 0x1000, false, false, &b);
	leaf = insn_red_zone(b.v, b.n, 0x1000 + size, red);
	insn_buf_release(&b);
	insn_decoder_close(d);
	return leaf;
}

/* -O2 (samples/chain level5): sub $0x120,%rsp; mov %dil,-0x78(%rsp);
 * ... add $0x120,%rsp; ret: 0x78 = 120 bytes below the deepest %rsp */
static void test_o2_leaf(void **state)
{
	static const uint8_t code[] = {
		0x48, 0x81, 0xec, 0x20, 0x01, 0x00, 0x00, 0x40, 0x88, 0x7c, 0x24, 0x88,
		0x83, 0xc7, 0x01, 0x40, 0x88, 0xbc, 0x24, 0x17, 0x01, 0x00, 0x00,
		0x0f, 0xbe, 0x44, 0x24, 0x88, 0x0f, 0xbe, 0x94, 0x24, 0x17, 0x01, 0x00,
		0x00, 0x48, 0x81, 0xc4, 0x20, 0x01, 0x00, 0x00, 0x01, 0xd0, 0xc3,
	};
	uint32_t red;

	(void)state;
	assert_int_equal(scan(code, sizeof(code), &red), 1);
	assert_int_equal(red, 120);
}

/* -O0 (samples/o0 big_leaf): push %rbp; mov %rsp,%rbp; sub $0xc8,%rsp;
 * mov %edi,-0x134(%rbp) ... leave; ret: %rbp is 8 below the entry, the
 * deepest %rsp 8 + 0xc8 = 208, the byte 8 + 0x134 = 316: 108 */
static void test_o0_leaf(void **state)
{
	static const uint8_t code[] = {
		0x55, 0x48, 0x89, 0xe5, 0x48, 0x81, 0xec, 0xc8, 0x00, 0x00, 0x00,
		0x89, 0xbd, 0xcc, 0xfe, 0xff, 0xff, 0x8b, 0x85, 0xcc, 0xfe, 0xff, 0xff,
		0x88, 0x45, 0xfb, 0xc9, 0xc3,
	};
	uint32_t red;

	(void)state;
	assert_int_equal(scan(code, sizeof(code), &red), 1);
	assert_int_equal(red, 108);
}

/* lea -0x40(%rsp),%rdi; movl $0,(%rdi); ret: the address is used */
static void test_lea(void **state)
{
	static const uint8_t code[] = {
		0x48, 0x8d, 0x7c, 0x24, 0xc0, 0xc7, 0x07, 0x00, 0x00, 0x00, 0x00, 0xc3,
	};
	uint32_t red;

	(void)state;
	assert_int_equal(scan(code, sizeof(code), &red), 1);
	assert_int_equal(red, 64);
}

/* sub $0x10,%rsp; test; je 1f; add $0x10,%rsp; ret;
 * 1: mov %edi,-0x20(%rsp); add $0x10,%rsp; ret: the code after the first
 * ret runs at the depth the je brought (16): 0x20 = 32 below it */
static void test_after_ret(void **state)
{
	static const uint8_t code[] = {
		0x48, 0x83, 0xec, 0x10, 0x85, 0xff, 0x74, 0x05, 0x48, 0x83, 0xc4, 0x10,
		0xc3, 0x89, 0x7c, 0x24, 0xe0, 0x48, 0x83, 0xc4, 0x10, 0xc3,
	};
	uint32_t red;

	(void)state;
	assert_int_equal(scan(code, sizeof(code), &red), 1);
	assert_int_equal(red, 32);
}

/* mov %edi,%eax; ret: a leaf without stack */
static void test_no_stack(void **state)
{
	static const uint8_t code[] = { 0x89, 0xf8, 0xc3 };
	uint32_t red;

	(void)state;
	assert_int_equal(scan(code, sizeof(code), &red), 1);
	assert_int_equal(red, 0);
}

/* mov %edi,-0x8(%rsp); call .+0; ret: not a leaf, no claim */
static void test_caller(void **state)
{
	static const uint8_t code[] = {
		0x89, 0x7c, 0x24, 0xf8, 0xe8, 0x00, 0x00, 0x00, 0x00, 0xc3,
	};
	uint32_t red;

	(void)state;
	assert_int_equal(scan(code, sizeof(code), &red), 0);
	assert_int_equal(red, 0);
}

/* mov %edi,-0x8(%rsp) and a cut sub: the bytes do not decode to the
 * end, so no claim */
static void test_undecodable(void **state)
{
	static const uint8_t code[] = { 0x89, 0x7c, 0x24, 0xf8, 0x48, 0x81, 0xec };
	uint32_t red;

	(void)state;
	assert_int_equal(scan(code, sizeof(code), &red), 0);
	assert_int_equal(red, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_o2_leaf),
		cmocka_unit_test(test_o0_leaf),
		cmocka_unit_test(test_lea),
		cmocka_unit_test(test_after_ret),
		cmocka_unit_test(test_no_stack),
		cmocka_unit_test(test_caller),
		cmocka_unit_test(test_undecodable),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
