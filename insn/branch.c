/*
 * branch.c - a branch read from its few bytes, without capstone.
 *
 * A DWARF call site names its call by the return address: the
 * instruction that ends there is read from the bytes before it, which
 * needs no walk over the function (the call may lie where no symbol
 * starts a decode): a direct call's target settles which clone or which
 * surviving weak definition is called.
 */
#include "insn/insn.h"

static int32_t le32(const unsigned char *p)
{
	return (int32_t)((uint32_t)p[0] | (uint32_t)p[1] << 8 |
			 (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24);
}

/* The n bytes that end at the return address, or NULL if fewer are known. */
static const unsigned char *last(const unsigned char *end, size_t avail, size_t n)
{
	return avail >= n ? end - n : NULL;
}

static enum insn_branch decode_x86(const unsigned char *end, size_t avail, uint64_t ret_pc,
				   uint64_t *target)
{
	const unsigned char *p;

	p = last(end, avail, 5);
	if (p && (p[0] == 0xe8 || p[0] == 0xe9)) {	/* call/jmp rel32 */
		*target = ret_pc + (uint64_t)(int64_t)le32(p + 1);
		return p[0] == 0xe8 ? INSN_BRANCH_CALL : INSN_BRANCH_JUMP;
	}
	p = last(end, avail, 6);
	if (p && p[0] == 0x0f && (p[1] & 0xf0) == 0x80) {	/* jcc rel32: a conditional tail call */
		*target = ret_pc + (uint64_t)(int64_t)le32(p + 2);
		return INSN_BRANCH_JUMP;
	}
	p = last(end, avail, 2);
	if (p && (p[0] == 0xeb || (p[0] & 0xf0) == 0x70)) {	/* jmp/jcc rel8 */
		*target = ret_pc + (uint64_t)(int64_t)(int8_t)p[1];
		return INSN_BRANCH_JUMP;
	}
	if (p && p[0] == 0xff && (p[1] & 0xf8) == 0xd0)	/* call *%reg */
		return INSN_BRANCH_CALL_DYNAMIC;
	if (p && p[0] == 0xff && (p[1] & 0xf8) == 0xe0)	/* jmp *%reg */
		return INSN_BRANCH_JUMP_DYNAMIC;
	return INSN_BRANCH_NONE;
}

static enum insn_branch decode_a64(const unsigned char *end, size_t avail, uint64_t ret_pc,
				   uint64_t *target)
{
	const unsigned char *p = last(end, avail, 4);
	uint32_t insn, op;
	int64_t imm;

	if (!p)
		return INSN_BRANCH_NONE;
	insn = (uint32_t)le32(p);
	op = insn & 0xfc000000u;
	if (op != 0x94000000u && op != 0x14000000u) {	/* bl / b imm26 */
		if ((insn & 0xfffffc1fu) == 0xd63f0000u)	/* blr xN */
			return INSN_BRANCH_CALL_DYNAMIC;
		if ((insn & 0xfffffc1fu) == 0xd61f0000u)	/* br xN */
			return INSN_BRANCH_JUMP_DYNAMIC;
		return INSN_BRANCH_NONE;
	}
	imm = (int32_t)((insn & 0x03ffffffu) << 6) >> 4;	/* sign-extend imm26 * 4 */
	*target = ret_pc - 4 + (uint64_t)imm;
	return op == 0x94000000u ? INSN_BRANCH_CALL : INSN_BRANCH_JUMP;
}

static uint32_t le16(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8;
}

static int64_t sext(uint32_t v, unsigned bits)
{
	return (int64_t)((int32_t)(v << (32 - bits)) >> (32 - bits));
}

/* Thumb-2 BL, BLX, B.W and B<c>.W ending at ret_pc; the PC reads 4 ahead
 * of the instruction, which is where it ends. */
static enum insn_branch decode_thumb32(const unsigned char *p, uint64_t ret_pc, uint64_t *target)
{
	uint32_t hw1 = le16(p), hw2 = le16(p + 2);
	uint32_t s = (hw1 >> 10) & 1, j1 = (hw2 >> 13) & 1, j2 = (hw2 >> 11) & 1;
	uint32_t i1 = !(j1 ^ s), i2 = !(j2 ^ s);
	uint32_t imm25 = s << 24 | i1 << 23 | i2 << 22 | (hw1 & 0x3ff) << 12 | (hw2 & 0x7ff) << 1;

	if ((hw1 & 0xf800) != 0xf000)
		return INSN_BRANCH_NONE;
	switch (hw2 & 0xd000) {
	case 0xd000:	/* BL */
		*target = ret_pc + (uint64_t)sext(imm25, 25);
		return INSN_BRANCH_CALL;
	case 0xc000:	/* BLX to ARM state: from the word-aligned PC */
		*target = (ret_pc & ~(uint64_t)3) + (uint64_t)sext(imm25 & ~3u, 25);
		return INSN_BRANCH_CALL;
	case 0x9000:	/* B.W */
		*target = ret_pc + (uint64_t)sext(imm25, 25);
		return INSN_BRANCH_JUMP;
	case 0x8000:	/* B<c>.W: S:J2:J1:imm6:imm11:0; cond 111x is another insn */
		if (((hw1 >> 7) & 7) == 7)
			return INSN_BRANCH_NONE;
		*target = ret_pc + (uint64_t)sext(s << 20 | j2 << 19 | j1 << 18 |
						  (hw1 & 0x3f) << 12 | (hw2 & 0x7ff) << 1, 21);
		return INSN_BRANCH_JUMP;
	}
	return INSN_BRANCH_NONE;
}

/* 16-bit B, B<c> (a tail call the assembler shortened) and BLX Rm. */
static enum insn_branch decode_thumb16(uint32_t hw, uint64_t ret_pc, uint64_t *target)
{
	if ((hw & 0xf800) == 0xe000) {
		*target = ret_pc + 2 + (uint64_t)sext((hw & 0x7ff) << 1, 12);
		return INSN_BRANCH_JUMP;
	}
	if ((hw & 0xf000) == 0xd000 && (hw & 0x0e00) != 0x0e00) {
		*target = ret_pc + 2 + (uint64_t)sext((hw & 0xff) << 1, 9);
		return INSN_BRANCH_JUMP;
	}
	if ((hw & 0xff87) == 0x4780)
		return INSN_BRANCH_CALL_DYNAMIC;
	return INSN_BRANCH_NONE;
}

/* ARM state: BL/B imm24 (PC 8 ahead), BLX imm (H is bit 24), BLX Rm. */
static enum insn_branch decode_arm32(uint32_t insn, uint64_t ret_pc, uint64_t *target)
{
	uint64_t pc = ret_pc + 4;

	if ((insn & 0xfe000000u) == 0xfa000000u) {
		*target = pc + (uint64_t)sext((insn & 0x00ffffffu) << 2 | (insn >> 23 & 2), 26);
		return INSN_BRANCH_CALL;
	}
	if ((insn & 0xf0000000u) != 0xf0000000u && (insn & 0x0e000000u) == 0x0a000000u) {
		*target = pc + (uint64_t)sext((insn & 0x00ffffffu) << 2, 26);
		return insn & 0x01000000u ? INSN_BRANCH_CALL : INSN_BRANCH_JUMP;
	}
	if ((insn & 0x0ffffff0u) == 0x012fff30u)
		return INSN_BRANCH_CALL_DYNAMIC;
	return INSN_BRANCH_NONE;
}

static enum insn_branch decode_arm(const unsigned char *end, size_t avail, bool thumb,
				   uint64_t ret_pc, uint64_t *target)
{
	const unsigned char *p = last(end, avail, 4);
	enum insn_branch k;

	if (!p)
		return INSN_BRANCH_NONE;
	if (!thumb)
		return decode_arm32((uint32_t)le32(p), ret_pc, target);
	/* a 32-bit branch first: its second halfword is no 16-bit branch */
	k = decode_thumb32(p, ret_pc, target);
	return k != INSN_BRANCH_NONE ? k : decode_thumb16(le16(p + 2), ret_pc, target);
}

enum insn_branch insn_branch_decode(uint16_t machine, bool thumb, const unsigned char *end,
				    size_t avail, uint64_t ret_pc, uint64_t *target)
{
	switch (sp_arch(machine)->id) {
	case SP_ARCH_X86_64:
	case SP_ARCH_I386:
		return decode_x86(end, avail, ret_pc, target);
	case SP_ARCH_AARCH64:
		return decode_a64(end, avail, ret_pc, target);
	case SP_ARCH_ARM:
		return decode_arm(end, avail, thumb, ret_pc, target);
	case SP_ARCH_UNKNOWN:
		break;
	}
	return INSN_BRANCH_NONE;
}

enum insn_branch insn_branch_before(const struct sp_elf *e, uint64_t ret_pc, uint64_t *target)
{
	const unsigned char *p = NULL;
	size_t n;

	if (ret_pc < 8)
		return INSN_BRANCH_NONE;
	/* the longest run of one section's bytes ending at ret_pc, up to the
	 * longest instruction decoded (x86 jcc rel32) */
	for (n = 6; n && !(p = sp_elf_code_at(e, ret_pc - n, n)); n--)
		;
	if (!p)
		return INSN_BRANCH_NONE;
	return insn_branch_decode(e->machine, sp_elf_thumb_at(e, ret_pc - 2), p + n, n, ret_pc,
			      target);
}

unsigned insn_jump_len_at(const struct sp_elf *e, uint64_t pc)
{
	const unsigned char *p = sp_elf_code_at(e, pc, 2);

	if (!p)
		return 0;
	switch (e->arch->id) {
	case SP_ARCH_X86_64:
	case SP_ARCH_I386:
		if (p[0] == 0xe9)
			return sp_elf_code_at(e, pc, 5) ? 5 : 0;	/* jmp rel32 */
		if (p[0] == 0xeb || (p[0] & 0xf0) == 0x70)
			return 2;	/* jmp/jcc rel8 */
		if (p[0] == 0x0f && (p[1] & 0xf0) == 0x80)
			return sp_elf_code_at(e, pc, 6) ? 6 : 0;	/* jcc rel32 */
		return 0;
	case SP_ARCH_AARCH64:
		return sp_elf_code_at(e, pc, 4) ? 4 : 0;
	case SP_ARCH_ARM:
		if (!sp_elf_thumb_at(e, pc) || (le16(p) & 0xf800) >= 0xe800)
			return sp_elf_code_at(e, pc, 4) ? 4 : 0;	/* ARM, Thumb-2 32-bit */
		return 2;
	case SP_ARCH_UNKNOWN:
		break;
	}
	return 0;
}
