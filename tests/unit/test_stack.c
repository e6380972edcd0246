/*
 * test_stack.c - insn_stack_frame, the frame read from the code, over
 * x86-64, AArch64 and Thumb-2 code assembled with as (each listing is in
 * the comment, with the frame worked out from it in .su's convention:
 * x86 counts the return address, ARM does not).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "insn/passes.h"

/* The last frame()'s whole answer. */
static struct insn_stack_res last;

/* 1 and *frame, *dynamic when the code tells the frame, else 0. */
static int frame(uint16_t machine, bool thumb, const uint8_t *code, size_t size,
		 uint64_t *out, bool *dynamic)
{
	struct insn_decoder *d = insn_decoder_open(machine);
	struct insn_buf b = { 0 };
	int ok;

	assert_non_null(d);
	insn_decode_bytes(d, code, size, 0x1000, thumb, false, &b);
	free(last.switched);
	memset(&last, 0, sizeof(last));
	last.frame = 12345;
	ok = insn_stack_frame(b.v, b.n, machine, 0x1000, 0x1000 + size, &last);
	*out = last.frame;
	*dynamic = last.dynamic;
	insn_buf_release(&b);
	insn_decoder_close(d);
	return ok;
}

static void expect(uint16_t machine, bool thumb, const uint8_t *code, size_t size,
		   uint64_t want, bool want_dynamic)
{
	uint64_t got;
	bool dynamic;

	assert_int_equal(frame(machine, thumb, code, size, &got, &dynamic), 1);
	assert_int_equal(got, want);
	assert_int_equal(dynamic, want_dynamic);
}

static void expect_none(uint16_t machine, const uint8_t *code, size_t size)
{
	uint64_t got;
	bool dynamic;

	assert_int_equal(frame(machine, false, code, size, &got, &dynamic), 0);
}

/* push %rbp; mov %rsp,%rbp; push %rbx; sub $0x28,%rsp; call; mov
 * -0x8(%rbp),%rbx; leave; ret: 8 + 8 + 40 = 56 below the entry, and the
 * return address: 64 */
static void test_frame_pointer(void **state)
{
	static const uint8_t code[] = {
		0x55, 0x48, 0x89, 0xe5, 0x53, 0x48, 0x83, 0xec, 0x28, 0xe8, 0xf2, 0xff,
		0xff, 0xff, 0x48, 0x8b, 0x5d, 0xf8, 0xc9, 0xc3,
	};

	(void)state;
	expect(EM_X86_64, false, code, sizeof(code), 64, false);
}

/* push %rbx; pushf; pop %rbx; call; pop %rbx; ret: the pushf the next
 * instruction pops is under the call's frame (16); in a leaf, pushf; pop
 * %rax; ret, it is the deepest point (16 as well, .su says 8) */
static void test_pushf_pop(void **state)
{
	static const uint8_t caller[] = {
		0x53, 0x9c, 0x5b, 0xe8, 0xe4, 0xff, 0xff, 0xff, 0x5b, 0xc3,
	};
	static const uint8_t leaf[] = { 0x9c, 0x58, 0xc3 };

	(void)state;
	expect(EM_X86_64, false, caller, sizeof(caller), 16, false);
	expect(EM_X86_64, false, leaf, sizeof(leaf), 16, false);
}

/* push %rbp; mov %rsp,%rbp; and $-16,%rsp; sub $0x20,%rsp; call; leave;
 * ret: the and takes off up to 8 (the stack pointer is only known to be
 * word-aligned): 8 + 8 + 32 = 48, frame 56 */
static void test_align(void **state)
{
	static const uint8_t code[] = {
		0x55, 0x48, 0x89, 0xe5, 0x48, 0x83, 0xe4, 0xf0, 0x48, 0x83, 0xec, 0x20,
		0xe8, 0xce, 0xff, 0xff, 0xff, 0xc9, 0xc3,
	};

	(void)state;
	expect(EM_X86_64, false, code, sizeof(code), 56, false);
}

/* push %rbp; mov %rsp,%rbp; sub $0x10,%rsp; sub %rax,%rsp; call; leave;
 * ret: alloca, dynamic; its static part 8 + 16 + 8 = 32 */
static void test_alloca(void **state)
{
	static const uint8_t code[] = {
		0x55, 0x48, 0x89, 0xe5, 0x48, 0x83, 0xec, 0x10, 0x48, 0x29, 0xc4, 0xe8,
		0xbc, 0xff, 0xff, 0xff, 0xc9, 0xc3,
	};

	(void)state;
	expect(EM_X86_64, false, code, sizeof(code), 32, true);
}

/* test %edi,%edi; je 1f; sub $0x40,%rsp; call; add $0x40,%rsp; 1: ret:
 * the deeper path counts, 64 + 8 */
static void test_two_paths(void **state)
{
	static const uint8_t code[] = {
		0x85, 0xff, 0x74, 0x0d, 0x48, 0x83, 0xec, 0x40, 0xe8, 0xad, 0xff, 0xff,
		0xff, 0x48, 0x83, 0xc4, 0x40, 0xc3,
	};

	(void)state;
	expect(EM_X86_64, false, code, sizeof(code), 72, false);
}

/* enter $0x20,$0; call; leave; ret: push %rbp, then 32: 40 + 8 */
static void test_enter(void **state)
{
	static const uint8_t code[] = {
		0xc8, 0x20, 0x00, 0x00, 0xe8, 0x99, 0xff, 0xff, 0xff, 0xc9, 0xc3,
	};

	(void)state;
	expect(EM_X86_64, false, code, sizeof(code), 48, false);
}

/* jmp elsewhere; push %rbx; sub $0x10,%rsp; call; add; pop; ret: the code
 * after the jump (an alternative's detour comes back to it) is still
 * read: 8 + 16 + 8 */
static void test_after_a_jump_away(void **state)
{
	static const uint8_t code[] = {
		0xeb, 0x89, 0x53, 0x48, 0x83, 0xec, 0x10, 0xe8, 0x7f, 0xff, 0xff, 0xff,
		0x48, 0x83, 0xc4, 0x10, 0x5b, 0xc3,
	};

	(void)state;
	expect(EM_X86_64, false, code, sizeof(code), 32, false);
}

/* A loop that pushes at every turn (1: push %rax; dec %edi; jne 1b;
 * ret) grows without a bound: dynamic.  Never a guess: bytes that do not
 * decode (06, push %es, is no instruction in 64-bit code) give none. */
static void test_no_frame(void **state)
{
	static const uint8_t loop[] = { 0x50, 0xff, 0xcf, 0x75, 0xfb, 0xc3 };
	static const uint8_t garbage[] = { 0x53, 0x06, 0x5b, 0xc3 };
	uint64_t got;
	bool dynamic;

	(void)state;
	assert_int_equal(frame(EM_X86_64, false, loop, sizeof(loop), &got, &dynamic), 1);
	assert_true(dynamic);
	assert_int_equal(last.bounded, false);
	expect_none(EM_X86_64, garbage, sizeof(garbage));
}

/* GCC's DRAP: lea 0x8(%rsp),%r10; and $-32,%rsp; push -0x8(%r10); push
 * %rbp; mov %rsp,%rbp; push %r10; push %rbx; sub $0x40,%rsp; call; lea
 * -0x10(%rbp),%rsp; pop %rbx; pop %r10; pop %rbp; lea -0x8(%r10),%rsp;
 * ret.  24 of padding at worst, 8 + 8 + 8 + 8 pushed, 64: 120, and the
 * return address: 128.  The epilogue's sp comes from the %r10 popped
 * where it was pushed. */
static void test_drap(void **state)
{
	static const uint8_t code[] = {
		0x4c, 0x8d, 0x54, 0x24, 0x08, 0x48, 0x83, 0xe4, 0xe0, 0x41, 0xff, 0x72,
		0xf8, 0x55, 0x48, 0x89, 0xe5, 0x41, 0x52, 0x53, 0x48, 0x83, 0xec, 0x40,
		0xe8, 0xe3, 0xff, 0xff, 0xff, 0x48, 0x8d, 0x65, 0xf0, 0x5b, 0x41, 0x5a,
		0x5d, 0x49, 0x8d, 0x62, 0xf8, 0xc3,
	};

	(void)state;
	expect(EM_X86_64, false, code, sizeof(code), 128, false);
}

/* __update_load_avg_blocked_se's shape: test %edi,%edi; je 1f; push
 * %rbp; mov %rsp,%rbp; push %rbx; and $-16,%rsp; xchg %ax,%ax (a jump
 * label); 2: mov -0x8(%rbp),%rbx; leave; jmp out; 1: xor %eax,%eax; jmp
 * out; then what the jump label leads to: call; jmp 2b.  That block is
 * entered as the nop left the stack, %rbp known (not as the returns
 * that jump away left it): 8 + 8 + 8 of padding, and the return
 * address: 32. */
static void test_jump_label_in_frame(void **state)
{
	static const uint8_t code[] = {
		0x85, 0xff, 0x74, 0x15, 0x55, 0x48, 0x89, 0xe5, 0x53, 0x48, 0x83, 0xe4,
		0xf0, 0x66, 0x90, 0x48, 0x8b, 0x5d, 0xf8, 0xc9, 0xe9, 0xe7, 0xfe, 0xff,
		0xff, 0x31, 0xc0, 0xe9, 0xe0, 0xfe, 0xff, 0xff, 0xe8, 0xdb, 0xff, 0xff,
		0xff, 0xeb, 0xe8,
	};

	(void)state;
	expect(EM_X86_64, false, code, sizeof(code), 32, false);
}

/* push %rbp; mov %rsp,%rbp; push %rbx; sub $0x18,%rsp; test; je 3f;
 * mov -0x8(%rbp),%rbx; leave; jmp out; int3; 3: call; mov
 * -0x8(%rbp),%rbx; leave; ret: the int3 after the tail call is never
 * run into 3:, whose %rbp stays known: 8 + 8 + 24 + 8 = 48. */
static void test_int3_after_jump(void **state)
{
	static const uint8_t code[] = {
		0x55, 0x48, 0x89, 0xe5, 0x53, 0x48, 0x83, 0xec, 0x18, 0x85, 0xff, 0x74,
		0x0b, 0x48, 0x8b, 0x5d, 0xf8, 0xc9, 0xe9, 0xc2, 0xfe, 0xff, 0xff, 0xcc,
		0xe8, 0xe3, 0xff, 0xff, 0xff, 0x48, 0x8b, 0x5d, 0xf8, 0xc9, 0xc3,
	};

	(void)state;
	expect(EM_X86_64, false, code, sizeof(code), 48, false);
}

/* do_syscall_64's random offset: push %rbp; mov %rsp,%rbp; push %rbx;
 * mov %gs:0x10,%eax; and $0x3ff,%eax; add $0xf,%rax; and $0x7f8,%eax;
 * sub %rax,%rsp; call; ...; leave; ret.  %rax is at most 1023 + 15 =
 * 1038, and of that 0x7f8 keeps at most 1032 (0x408): 8 + 8 + 1032 + 8
 * = 1056, dynamic but bounded. */
static void test_masked_alloca(void **state)
{
	static const uint8_t code[] = {
		0x55, 0x48, 0x89, 0xe5, 0x53, 0x65, 0x8b, 0x04, 0x25, 0x10, 0x00, 0x00,
		0x00, 0x25, 0xff, 0x03, 0x00, 0x00, 0x48, 0x83, 0xc0, 0x0f, 0x25, 0xf8,
		0x07, 0x00, 0x00, 0x48, 0x29, 0xc4, 0xe8, 0xdd, 0xff, 0xff, 0xff, 0x48,
		0x8b, 0x5d, 0xf8, 0xc9, 0xc3,
	};

	(void)state;
	expect(EM_X86_64, false, code, sizeof(code), 1056, true);
	assert_true(last.bounded);
}

/* clang's alloca: push %rbp; mov %rsp,%rbp; mov %rsp,%rax; sub
 * %rcx,%rax; and $-16,%rax; mov %rax,%rsp; call; leave; ret: sp from a
 * value computed from it is alloca, not another stack: dynamic and
 * unbounded, 8 + 8 its static part. */
static void test_alloca_through_register(void **state)
{
	static const uint8_t code[] = {
		0x55, 0x48, 0x89, 0xe5, 0x48, 0x89, 0xe0, 0x48, 0x29, 0xc8, 0x48, 0x83,
		0xe0, 0xf0, 0x48, 0x89, 0xc4, 0xe8, 0xea, 0xff, 0xff, 0xff, 0xc9, 0xc3,
	};

	(void)state;
	expect(EM_X86_64, false, code, sizeof(code), 16, true);
	assert_false(last.bounded);
	assert_int_equal(last.nswitched, 0);
}

/* glibc's VLA in a frame-pointer frame (__readvall, __check_pf): push
 * %rbp; mov %rsp,%rbp; push %rbx; sub $0x28,%rsp; test %rdx,%rdx; je 1f;
 * mov %rsp,-0x30(%rbp); sub %rdx,%rsp; mov %rsp,%rdi; call; mov
 * -0x30(%rbp),%rsp; 1: lea -0x8(%rbp),%rsp; pop %rbx; pop %rbp; ret.  The
 * stack pointer saved in a frame slot before the VLA comes back from it
 * (not another stack), and %rbp still knows the frame: dynamic,
 * unbounded, its static part 8 + 8 + 40 + 8 = 64. */
static void test_vla_sp_in_slot(void **state)
{
	static const uint8_t code[] = {
		0x55, 0x48, 0x89, 0xe5, 0x53, 0x48, 0x83, 0xec, 0x28, 0x48, 0x85, 0xd2,
		0x74, 0x13, 0x48, 0x89, 0x65, 0xd0, 0x48, 0x29, 0xd4, 0x48, 0x89, 0xe7,
		0xe8, 0xe3, 0xff, 0xff, 0xff, 0x48, 0x8b, 0x65, 0xd0, 0x48, 0x8d, 0x65,
		0xf8, 0x5b, 0x5d, 0xc3,
	};

	(void)state;
	expect(EM_X86_64, false, code, sizeof(code), 64, true);
	assert_false(last.bounded);
	assert_int_equal(last.nswitched, 0);
}

/* A copy of sp spilled to the frame round a call that clobbers its
 * register: push %rbp; mov %rsp,%rbp; push %rbx; sub $0x18,%rsp; mov
 * %rsp,%r11; sub %rdx,%rsp; mov %r11,-0x18(%rbp); call; mov
 * -0x18(%rbp),%r11; mov %r11,%rsp; push %rax; call; mov -0x8(%rbp),%rbx;
 * leave; ret.  The reload gives the copy back: dynamic, its static part
 * 8 + 8 + 24 + 8 (the push) + 8 = 56. */
static void test_sp_copy_spilled(void **state)
{
	static const uint8_t code[] = {
		0x55, 0x48, 0x89, 0xe5, 0x53, 0x48, 0x83, 0xec, 0x18, 0x49, 0x89, 0xe3,
		0x48, 0x29, 0xd4, 0x4c, 0x89, 0x5d, 0xe8, 0xe8, 0xe8, 0xff, 0xff, 0xff,
		0x4c, 0x8b, 0x5d, 0xe8, 0x4c, 0x89, 0xdc, 0x50, 0xe8, 0xdb, 0xff, 0xff,
		0xff, 0x48, 0x8b, 0x5d, 0xf8, 0xc9, 0xc3,
	};

	(void)state;
	expect(EM_X86_64, false, code, sizeof(code), 56, true);
	assert_false(last.bounded);
}

/* Alignment after a return is not code that runs: push %rbx; test
 * %edi,%edi; je 1f; sub $0x100,%rsp; nop; call; add $0x100,%rsp; pop
 * %rbx; ret; nopl (to 0x20); 1: push %rax; call; pop %rax; pop %rbx;
 * ret.  The nopl is not entered with the nop's depth (264), which would
 * carry it into 1: the deepest is 8 + 256, and the return address: 272. */
static void test_padding_after_return(void **state)
{
	static const uint8_t code[] = {
		0x53, 0x85, 0xff, 0x74, 0x1b, 0x48, 0x81, 0xec, 0x00, 0x01, 0x00, 0x00,
		0x90, 0xe8, 0xee, 0xff, 0xff, 0xff, 0x48, 0x81, 0xc4, 0x00, 0x01, 0x00,
		0x00, 0x5b, 0xc3, 0x0f, 0x1f, 0x44, 0x00, 0x00, 0x50, 0xe8, 0xda, 0xff,
		0xff, 0xff, 0x58, 0x5b, 0xc3,
	};

	(void)state;
	expect(EM_X86_64, false, code, sizeof(code), 272, false);
}

/* The kernel's call_on_stack: push %rbx; mov %gs:0x20,%r11; mov
 * %rsp,(%r11); mov %r11,%rsp; call; pop %rsp; pop %rbx; ret.  The call
 * runs on the other stack (its return address, 0x1015, is listed); pop
 * %rsp loads the sp stored before, back at 8: 8 + 8 = 16. */
static void test_call_on_stack(void **state)
{
	static const uint8_t code[] = {
		0x53, 0x65, 0x4c, 0x8b, 0x1c, 0x25, 0x20, 0x00, 0x00, 0x00, 0x49, 0x89,
		0x23, 0x4c, 0x89, 0xdc, 0xe8, 0xeb, 0xff, 0xff, 0xff, 0x5c, 0x5b, 0xc3,
	};

	(void)state;
	expect(EM_X86_64, false, code, sizeof(code), 16, false);
	assert_int_equal(last.nswitched, 1);
	assert_int_equal(last.switched[0], 0x1015);
}

/* AVX-512 that capstone 4 does not decode: push %rbx; vpermi2d
 * %ymm7,%ymm6,%ymm8; vprord $12,%xmm3,%xmm3; vpermi2d
 * 0x40(%rsp,%rax,4),%zmm6,%zmm8; pop %rbx; ret: 8 + 8 = 16. */
static void test_evex(void **state)
{
	static const uint8_t code[] = {
		0x53, 0x62, 0x72, 0x4d, 0x28, 0x76, 0xc7, 0x62, 0xf1, 0x65, 0x08, 0x72,
		0xc3, 0x0c, 0x62, 0x72, 0x4d, 0x48, 0x76, 0x44, 0x84, 0x01, 0x5b, 0xc3,
	};

	(void)state;
	expect(EM_X86_64, false, code, sizeof(code), 16, false);
}

/* wrpkru (0f 01 ef), which capstone 4 does not know, between push %rbx
 * and pop %rbx: its length is known, the frame too: 8 + 8 */
static void test_unknown_to_capstone(void **state)
{
	static const uint8_t code[] = { 0x53, 0x0f, 0x01, 0xef, 0x5b, 0xc3 };

	(void)state;
	expect(EM_X86_64, false, code, sizeof(code), 16, false);
}

/* stp x29, x30, [sp, #-48]!; mov x29, sp; sub sp, sp, #0x20; bl; mov sp,
 * x29; ldp x29, x30, [sp], #48; ret: 48 + 32 (nothing for the return
 * address on arm64); then with sub sp, sp, x0 instead: dynamic, 16 */
static void test_aarch64(void **state)
{
	static const uint8_t fixed[] = {
		0xfd, 0x7b, 0xbd, 0xa9, 0xfd, 0x03, 0x00, 0x91, 0xff, 0x83, 0x00, 0xd1,
		0xfd, 0xff, 0xff, 0x97, 0xbf, 0x03, 0x00, 0x91, 0xfd, 0x7b, 0xc3, 0xa8,
		0xc0, 0x03, 0x5f, 0xd6,
	};
	static const uint8_t alloca[] = {
		0xfd, 0x7b, 0xbf, 0xa9, 0xfd, 0x03, 0x00, 0x91, 0xff, 0x63, 0x20, 0xcb,
		0xf6, 0xff, 0xff, 0x97, 0xbf, 0x03, 0x00, 0x91, 0xfd, 0x7b, 0xc1, 0xa8,
		0xc0, 0x03, 0x5f, 0xd6,
	};

	(void)state;
	expect(EM_AARCH64, false, fixed, sizeof(fixed), 80, false);
	expect(EM_AARCH64, false, alloca, sizeof(alloca), 16, true);
}

/* push {r4, r7, lr}; sub sp, #16; add r7, sp, #0; bl; mov sp, r7; add sp,
 * #16; pop {r4, r7, pc}: 12 + 16 */
static void test_thumb2(void **state)
{
	static const uint8_t code[] = {
		0x90, 0xb5, 0x84, 0xb0, 0x00, 0xaf, 0xff, 0xf7, 0xfb, 0xff, 0xbd, 0x46,
		0x04, 0xb0, 0x90, 0xbd,
	};

	(void)state;
	expect(EM_ARM, true, code, sizeof(code), 28, false);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_frame_pointer),
		cmocka_unit_test(test_pushf_pop),
		cmocka_unit_test(test_align),
		cmocka_unit_test(test_alloca),
		cmocka_unit_test(test_two_paths),
		cmocka_unit_test(test_enter),
		cmocka_unit_test(test_after_a_jump_away),
		cmocka_unit_test(test_no_frame),
		cmocka_unit_test(test_unknown_to_capstone),
		cmocka_unit_test(test_drap),
		cmocka_unit_test(test_jump_label_in_frame),
		cmocka_unit_test(test_int3_after_jump),
		cmocka_unit_test(test_masked_alloca),
		cmocka_unit_test(test_alloca_through_register),
		cmocka_unit_test(test_call_on_stack),
		cmocka_unit_test(test_vla_sp_in_slot),
		cmocka_unit_test(test_sp_copy_spilled),
		cmocka_unit_test(test_padding_after_return),
		cmocka_unit_test(test_evex),
		cmocka_unit_test(test_aarch64),
		cmocka_unit_test(test_thumb2),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
