/*
 * test_decode.c - the call/jump/indirect classification of the
 * instruction layer: insn_branch_decode (the instruction before a DWARF
 * call site's return address), insn_decode_bytes (capstone's decode of
 * whole functions, insn.branch and its target) and cg_branch_enters
 * (which function a direct branch enters), over bytes assembled by hand.  Each expected target is worked out in the comment
 * from the architecture's encoding, not taken from either decoder.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "callgraph/internal.h"
#include "insn/insn.h"

/* One instruction at addr, its bytes possibly preceded by others. */
struct insn_case {
	const char *what;
	uint64_t addr;		/* of the instruction ending the bytes */
	unsigned char bytes[8];
	size_t len, insn_len;	/* all the bytes; the last instruction's */
	enum insn_branch kind;	/* what both decoders must say */
	uint64_t target;	/* for INSN_BRANCH_CALL and INSN_BRANCH_JUMP */
};

static void check_decode(uint16_t machine, bool thumb, const struct insn_case *c)
{
	uint64_t ret_pc = c->addr + c->insn_len, target = 0;
	enum insn_branch k = insn_branch_decode(machine, thumb, c->bytes + c->len, c->len, ret_pc, &target);

	if (k != c->kind)
		fail_msg("%s: insn_branch_decode says %d, want %d", c->what, k, c->kind);
	if ((k == INSN_BRANCH_CALL || k == INSN_BRANCH_JUMP) && target != c->target)
		fail_msg("%s: insn_branch_decode target %#llx, want %#llx", c->what,
			 (unsigned long long)target, (unsigned long long)c->target);
}

/* The decoder reads the last instruction alone, at its address. */
static void check_classify(uint16_t machine, bool thumb, const struct insn_case *c)
{
	const unsigned char *code = c->bytes + c->len - c->insn_len;
	struct insn_decoder *d = insn_decoder_open(machine);
	struct insn_buf b = { 0 };
	const struct insn *in;

	assert_non_null(d);
	if (!insn_decode_bytes(d, code, c->insn_len, c->addr, thumb, false, &b) || b.n != 1)
		fail_msg("%s: capstone does not decode it", c->what);
	in = &b.v[0];
	if (in->branch != c->kind)
		fail_msg("%s: insn.branch is %d, want %d", c->what, in->branch, c->kind);
	if (in->addr + in->len != c->addr + c->insn_len)
		fail_msg("%s: ends at %#llx", c->what, (unsigned long long)(in->addr + in->len));
	if ((in->branch == INSN_BRANCH_CALL || in->branch == INSN_BRANCH_JUMP) &&
	    (!(in->flags & INSN_F_TARGET) || (uint64_t)in->imm != c->target))
		fail_msg("%s: insn target %#llx, want %#llx", c->what,
			 (unsigned long long)in->imm, (unsigned long long)c->target);
	insn_buf_release(&b);
	insn_decoder_close(d);
}

static void check_all(uint16_t machine, bool thumb, const struct insn_case *c, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		check_decode(machine, thumb, &c[i]);
		check_classify(machine, thumb, &c[i]);
	}
}

/* x86-64: rel32/rel8 count from the end of the instruction (ret_pc). */
static const struct insn_case x86_cases[] = {
	/* e8 rel32 at 0x1000: 0x1005 + 0x00000ffb = 0x2000 */
	{ "call rel32", 0x1000, { 0xe8, 0xfb, 0x0f, 0x00, 0x00 }, 5, 5, INSN_BRANCH_CALL, 0x2000 },
	/* e8 rel32 at 0x2010, backwards: 0x2015 - 0x1015 (0xffffefeb) = 0x1000 */
	{ "call rel32 back", 0x2010, { 0xe8, 0xeb, 0xef, 0xff, 0xff }, 5, 5, INSN_BRANCH_CALL, 0x1000 },
	/* e9 rel32 at 0x1010: 0x1015 + 0xfeb = 0x2000, another function's start */
	{ "jmp rel32", 0x1010, { 0xe9, 0xeb, 0x0f, 0x00, 0x00 }, 5, 5, INSN_BRANCH_JUMP, 0x2000 },
	/* 0f 84 rel32 (je) at 0x1030: 0x1036 + 0xfca = 0x2000 */
	{ "je rel32", 0x1030, { 0x0f, 0x84, 0xca, 0x0f, 0x00, 0x00 }, 6, 6, INSN_BRANCH_JUMP, 0x2000 },
	/* eb rel8 at 0x1020: 0x1022 - 0x10 = 0x1012, inside the caller */
	{ "jmp rel8 inside", 0x1020, { 0xeb, 0xf0 }, 2, 2, INSN_BRANCH_JUMP, 0x1012 },
	/* eb rel8 at 0x1080: 0x1082 + 0x7e = 0x1100, the next function */
	{ "jmp rel8 out", 0x1080, { 0xeb, 0x7e }, 2, 2, INSN_BRANCH_JUMP, 0x1100 },
	/* after a nop (90), ff /2 mod=11 rm=0: call *%rax */
	{ "call *%rax", 0x1041, { 0x90, 0xff, 0xd0 }, 3, 2, INSN_BRANCH_CALL_DYNAMIC, 0 },
	/* 41 ff d3: REX.B call *%r11; the decoder reads the last two bytes */
	{ "call *%r11", 0x1050, { 0x41, 0xff, 0xd3 }, 3, 3, INSN_BRANCH_CALL_DYNAMIC, 0 },
	/* ff /4 mod=11 rm=0: jmp *%rax, an indirect tail call */
	{ "jmp *%rax", 0x1060, { 0xff, 0xe0 }, 2, 2, INSN_BRANCH_JUMP_DYNAMIC, 0 },
};

static void test_x86_64(void **state)
{
	(void)state;
	check_all(EM_X86_64, false, x86_cases, sizeof(x86_cases) / sizeof(x86_cases[0]));
}

/* A jump table, jmp *0x2000(,%rax,8) (ff 24 c5 disp32), stays inside its
 * function: the disassembly pass does not count it as indirect. */
static void test_x86_jump_table(void **state)
{
	static const struct insn_case table = {
		"jmp *table(,%rax,8)", 0x1070, { 0xff, 0x24, 0xc5, 0x00, 0x20, 0x00, 0x00 },
		7, 7, INSN_BRANCH_NONE, 0,
	};

	(void)state;
	check_classify(EM_X86_64, false, &table);
}

/* AArch64: imm26 * 4 counts from the branch itself (ret_pc - 4); words
 * are little-endian. */
static const struct insn_case a64_cases[] = {
	/* bl: 0x94000000 | imm26; at 0x400000 to 0x400100: 0x100 / 4 = 0x40 */
	{ "bl", 0x400000, { 0x40, 0x00, 0x00, 0x94 }, 4, 4, INSN_BRANCH_CALL, 0x400100 },
	/* b at 0x400200 to 0x400100: -0x100 / 4 = -0x40 = imm26 0x3ffffc0 */
	{ "b to another function", 0x400200, { 0xc0, 0xff, 0xff, 0x17 }, 4, 4, INSN_BRANCH_JUMP,
	  0x400100 },
	/* b at 0x400010 to 0x400008: -8 / 4 = -2 = imm26 0x3fffffe */
	{ "b inside", 0x400010, { 0xfe, 0xff, 0xff, 0x17 }, 4, 4, INSN_BRANCH_JUMP, 0x400008 },
	/* blr x8: 0xd63f0000 | 8 << 5 */
	{ "blr x8", 0x400020, { 0x00, 0x01, 0x3f, 0xd6 }, 4, 4, INSN_BRANCH_CALL_DYNAMIC, 0 },
	/* br x16: 0xd61f0000 | 16 << 5 */
	{ "br x16", 0x400030, { 0x00, 0x02, 0x1f, 0xd6 }, 4, 4, INSN_BRANCH_JUMP_DYNAMIC, 0 },
	/* ret: 0xd65f03c0, a return, no branch to another function */
	{ "ret", 0x400040, { 0xc0, 0x03, 0x5f, 0xd6 }, 4, 4, INSN_BRANCH_NONE, 0 },
};

static void test_aarch64(void **state)
{
	(void)state;
	check_all(EM_AARCH64, false, a64_cases, sizeof(a64_cases) / sizeof(a64_cases[0]));
}

/* Thumb-2 BL/B.W: hw1 = 11110 S imm10, hw2 = 1 1 J1 1 J2 imm11 (BL) or
 * 1 0 J1 1 J2 imm11 (B.W); I = NOT(J XOR S); the offset S:I1:I2:imm10:
 * imm11:0 counts from the instruction + 4, which is ret_pc. */
static const struct insn_case thumb_cases[] = {
	/* bl at 0x8000 to 0x8100: 0x8100 - 0x8004 = 0xfc, imm11 = 0x7e,
	 * S = 0, I1 = I2 = 0 so J1 = J2 = 1: f000 f87e */
	{ "bl", 0x8000, { 0x00, 0xf0, 0x7e, 0xf8 }, 4, 4, INSN_BRANCH_CALL, 0x8100 },
	/* bl at 0x8000 to 0x7000: -0x1004 = 25-bit 0x1ffeffc: S = I1 = I2 = 1
	 * (J1 = J2 = 1), imm10 = 0x3fe, imm11 = 0x7fe: f7fe fffe */
	{ "bl back", 0x8000, { 0xfe, 0xf7, 0xfe, 0xff }, 4, 4, INSN_BRANCH_CALL, 0x7000 },
	/* b.w at 0x8010 to 0x8200: 0x8200 - 0x8014 = 0x1ec, imm11 = 0xf6,
	 * J1 = J2 = 1: f000 b8f6 */
	{ "b.w", 0x8010, { 0x00, 0xf0, 0xf6, 0xb8 }, 4, 4, INSN_BRANCH_JUMP, 0x8200 },
	/* nop (bf00), then 16-bit b at 0x8032 to 0x8040: 0x8040 - 0x8036 =
	 * 0xa, imm11 = 5: e005 */
	{ "b (16-bit)", 0x8032, { 0x00, 0xbf, 0x05, 0xe0 }, 4, 2, INSN_BRANCH_JUMP, 0x8040 },
	/* nop, then blx r3: 0100 0111 1 Rm:0011 000 = 4798 */
	{ "blx r3", 0x8022, { 0x00, 0xbf, 0x98, 0x47 }, 4, 2, INSN_BRANCH_CALL_DYNAMIC, 0 },
};

static void test_thumb2(void **state)
{
	(void)state;
	check_all(EM_ARM, true, thumb_cases, sizeof(thumb_cases) / sizeof(thumb_cases[0]));
}

/* ARM state: cond 101 L imm24, the offset imm24 * 4 from the branch + 8. */
static const struct insn_case arm_cases[] = {
	/* bl at 0x10000 to 0x10100: 0x10100 - 0x10008 = 0xf8, imm24 = 0x3e */
	{ "bl", 0x10000, { 0x3e, 0x00, 0x00, 0xeb }, 4, 4, INSN_BRANCH_CALL, 0x10100 },
	/* b at 0x10010 to 0xff00: 0xff00 - 0x10018 = -0x118, imm24 = -0x46 */
	{ "b", 0x10010, { 0xba, 0xff, 0xff, 0xea }, 4, 4, INSN_BRANCH_JUMP, 0xff00 },
	/* blx r3: e12fff33 */
	{ "blx r3", 0x10020, { 0x33, 0xff, 0x2f, 0xe1 }, 4, 4, INSN_BRANCH_CALL_DYNAMIC, 0 },
	/* bx lr: e12fff1e, a return */
	{ "bx lr", 0x10030, { 0x1e, 0xff, 0x2f, 0xe1 }, 4, 4, INSN_BRANCH_NONE, 0 },
};

static void test_arm(void **state)
{
	(void)state;
	check_all(EM_ARM, false, arm_cases, sizeof(arm_cases) / sizeof(arm_cases[0]));
}

/* Fewer bytes than the instruction: nothing is read before the code. */
static void test_short_code(void **state)
{
	static const unsigned char code[] = { 0xfb, 0x0f, 0x00, 0x00 };
	uint64_t t = 0;

	(void)state;
	/* the tail of a call rel32 whose e8 is not in the section */
	assert_int_equal(insn_branch_decode(EM_X86_64, false, code + 4, 4, 0x1005, &t), INSN_BRANCH_NONE);
	assert_int_equal(insn_branch_decode(EM_AARCH64, false, code + 3, 3, 0x1003, &t), INSN_BRANCH_NONE);
}

/*
 * cg_branch_enters over the x86 cases' targets, functions laid out as
 * f0 = [0x1000, 0x1100), f1 = [0x1100, 0x1200), f2 = [0x2000, 0x2100).
 */
static const uint64_t fstart[] = { 0x1000, 0x1100, 0x2000 };

static uint32_t start_at(uint64_t a)
{
	uint32_t i;

	for (i = 0; i < 3; i++)
		if (fstart[i] == a)
			return i;
	return SP_NONE;
}

static uint32_t inside(uint64_t a)
{
	uint32_t i;

	for (i = 0; i < 3; i++)
		if (a >= fstart[i] && a < fstart[i] + 0x100)
			return i;
	return SP_NONE;
}

static uint32_t enters(enum insn_branch kind, uint32_t caller, uint64_t target)
{
	uint32_t s = start_at(target);

	return cg_branch_enters(kind, caller, s, s == SP_NONE ? inside(target) : SP_NONE);
}

static void test_branch_enters(void **state)
{
	(void)state;
	/* "call rel32" and "jmp rel32" from f0 to 0x2000: f2, a call, a tail call */
	assert_int_equal(enters(INSN_BRANCH_CALL, 0, 0x2000), 2);
	assert_int_equal(enters(INSN_BRANCH_JUMP, 0, 0x2000), 2);
	/* "jmp rel8 inside" to 0x1012: a branch within f0, no edge */
	assert_int_equal(enters(INSN_BRANCH_JUMP, 0, 0x1012), SP_NONE);
	/* "jmp rel8 out" to 0x1100: a tail call to f1 */
	assert_int_equal(enters(INSN_BRANCH_JUMP, 0, 0x1100), 1);
	/* a jump back to f0's own entry is a loop; a call there is recursion */
	assert_int_equal(enters(INSN_BRANCH_JUMP, 0, 0x1000), SP_NONE);
	assert_int_equal(enters(INSN_BRANCH_CALL, 0, 0x1000), 0);
	/* a call to a label inside f0 (a thunk's call 1f) stays in f0 */
	assert_int_equal(enters(INSN_BRANCH_CALL, 0, 0x1040), SP_NONE);
	/* a jump into the middle of f2 (a second entry) enters f2 */
	assert_int_equal(enters(INSN_BRANCH_JUMP, 0, 0x2040), 2);
	/* into no function at all */
	assert_int_equal(enters(INSN_BRANCH_JUMP, 0, 0x3000), SP_NONE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_x86_64),
		cmocka_unit_test(test_x86_jump_table),
		cmocka_unit_test(test_aarch64),
		cmocka_unit_test(test_thumb2),
		cmocka_unit_test(test_arm),
		cmocka_unit_test(test_short_code),
		cmocka_unit_test(test_branch_enters),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
