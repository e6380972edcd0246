/*
 * decode.c - read call instructions where DWARF does not say enough.
 *
 * cg_decode_before() looks at the instruction that ends at a call site's
 * return address: a direct call's target settles which clone or which
 * surviving weak definition is called.  cg_scan_function() disassembles a
 * whole function with capstone, for functions that have no DWARF at all.
 */
#include "callgraph/internal.h"

#include <capstone/capstone.h>
#include <string.h>

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

static enum cg_insn decode_x86(const unsigned char *end, size_t avail, uint64_t ret_pc,
			       uint64_t *target)
{
	const unsigned char *p;

	p = last(end, avail, 5);
	if (p && (p[0] == 0xe8 || p[0] == 0xe9)) {	/* call/jmp rel32 */
		*target = ret_pc + (uint64_t)(int64_t)le32(p + 1);
		return p[0] == 0xe8 ? CG_INSN_CALL : CG_INSN_JMP;
	}
	p = last(end, avail, 6);
	if (p && p[0] == 0x0f && (p[1] & 0xf0) == 0x80) {	/* jcc rel32: a conditional tail call */
		*target = ret_pc + (uint64_t)(int64_t)le32(p + 2);
		return CG_INSN_JMP;
	}
	p = last(end, avail, 2);
	if (p && (p[0] == 0xeb || (p[0] & 0xf0) == 0x70)) {	/* jmp/jcc rel8 */
		*target = ret_pc + (uint64_t)(int64_t)(int8_t)p[1];
		return CG_INSN_JMP;
	}
	if (p && p[0] == 0xff && (p[1] & 0xf8) == 0xd0)	/* call *%reg */
		return CG_INSN_ICALL;
	if (p && p[0] == 0xff && (p[1] & 0xf8) == 0xe0)	/* jmp *%reg */
		return CG_INSN_IJMP;
	return CG_INSN_NONE;
}

static enum cg_insn decode_a64(const unsigned char *end, size_t avail, uint64_t ret_pc,
			       uint64_t *target)
{
	const unsigned char *p = last(end, avail, 4);
	uint32_t insn, op;
	int64_t imm;

	if (!p)
		return CG_INSN_NONE;
	insn = (uint32_t)le32(p);
	op = insn & 0xfc000000u;
	if (op != 0x94000000u && op != 0x14000000u) {	/* bl / b imm26 */
		if ((insn & 0xfffffc1fu) == 0xd63f0000u)	/* blr xN */
			return CG_INSN_ICALL;
		if ((insn & 0xfffffc1fu) == 0xd61f0000u)	/* br xN */
			return CG_INSN_IJMP;
		return CG_INSN_NONE;
	}
	imm = (int32_t)((insn & 0x03ffffffu) << 6) >> 4;	/* sign-extend imm26 * 4 */
	*target = ret_pc - 4 + (uint64_t)imm;
	return op == 0x94000000u ? CG_INSN_CALL : CG_INSN_JMP;
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
static enum cg_insn decode_thumb32(const unsigned char *p, uint64_t ret_pc, uint64_t *target)
{
	uint32_t hw1 = le16(p), hw2 = le16(p + 2);
	uint32_t s = (hw1 >> 10) & 1, j1 = (hw2 >> 13) & 1, j2 = (hw2 >> 11) & 1;
	uint32_t i1 = !(j1 ^ s), i2 = !(j2 ^ s);
	uint32_t imm25 = s << 24 | i1 << 23 | i2 << 22 | (hw1 & 0x3ff) << 12 | (hw2 & 0x7ff) << 1;

	if ((hw1 & 0xf800) != 0xf000)
		return CG_INSN_NONE;
	switch (hw2 & 0xd000) {
	case 0xd000:	/* BL */
		*target = ret_pc + (uint64_t)sext(imm25, 25);
		return CG_INSN_CALL;
	case 0xc000:	/* BLX to ARM state: from the word-aligned PC */
		*target = (ret_pc & ~(uint64_t)3) + (uint64_t)sext(imm25 & ~3u, 25);
		return CG_INSN_CALL;
	case 0x9000:	/* B.W */
		*target = ret_pc + (uint64_t)sext(imm25, 25);
		return CG_INSN_JMP;
	case 0x8000:	/* B<c>.W: S:J2:J1:imm6:imm11:0; cond 111x is another insn */
		if (((hw1 >> 7) & 7) == 7)
			return CG_INSN_NONE;
		*target = ret_pc + (uint64_t)sext(s << 20 | j2 << 19 | j1 << 18 |
						  (hw1 & 0x3f) << 12 | (hw2 & 0x7ff) << 1, 21);
		return CG_INSN_JMP;
	}
	return CG_INSN_NONE;
}

/* 16-bit B, B<c> (a tail call the assembler shortened) and BLX Rm. */
static enum cg_insn decode_thumb16(uint32_t hw, uint64_t ret_pc, uint64_t *target)
{
	if ((hw & 0xf800) == 0xe000) {
		*target = ret_pc + 2 + (uint64_t)sext((hw & 0x7ff) << 1, 12);
		return CG_INSN_JMP;
	}
	if ((hw & 0xf000) == 0xd000 && (hw & 0x0e00) != 0x0e00) {
		*target = ret_pc + 2 + (uint64_t)sext((hw & 0xff) << 1, 9);
		return CG_INSN_JMP;
	}
	if ((hw & 0xff87) == 0x4780)
		return CG_INSN_ICALL;
	return CG_INSN_NONE;
}

/* ARM state: BL/B imm24 (PC 8 ahead), BLX imm (H is bit 24), BLX Rm. */
static enum cg_insn decode_arm32(uint32_t insn, uint64_t ret_pc, uint64_t *target)
{
	uint64_t pc = ret_pc + 4;

	if ((insn & 0xfe000000u) == 0xfa000000u) {
		*target = pc + (uint64_t)sext((insn & 0x00ffffffu) << 2 | (insn >> 23 & 2), 26);
		return CG_INSN_CALL;
	}
	if ((insn & 0xf0000000u) != 0xf0000000u && (insn & 0x0e000000u) == 0x0a000000u) {
		*target = pc + (uint64_t)sext((insn & 0x00ffffffu) << 2, 26);
		return insn & 0x01000000u ? CG_INSN_CALL : CG_INSN_JMP;
	}
	if ((insn & 0x0ffffff0u) == 0x012fff30u)
		return CG_INSN_ICALL;
	return CG_INSN_NONE;
}

static enum cg_insn decode_arm(const unsigned char *end, size_t avail, bool thumb,
			       uint64_t ret_pc, uint64_t *target)
{
	const unsigned char *p = last(end, avail, 4);
	enum cg_insn k;

	if (!p)
		return CG_INSN_NONE;
	if (!thumb)
		return decode_arm32((uint32_t)le32(p), ret_pc, target);
	/* a 32-bit branch first: its second halfword is no 16-bit branch */
	k = decode_thumb32(p, ret_pc, target);
	return k != CG_INSN_NONE ? k : decode_thumb16(le16(p + 2), ret_pc, target);
}

enum cg_insn cg_decode_insn(uint16_t machine, bool thumb, const unsigned char *end,
			    size_t avail, uint64_t ret_pc, uint64_t *target)
{
	switch (machine) {
	case EM_X86_64:
	case EM_386:
		return decode_x86(end, avail, ret_pc, target);
	case EM_AARCH64:
		return decode_a64(end, avail, ret_pc, target);
	case EM_ARM:
		return decode_arm(end, avail, thumb, ret_pc, target);
	}
	return CG_INSN_NONE;
}

enum cg_insn cg_decode_before(const struct sp_elf *e, uint64_t ret_pc, uint64_t *target)
{
	const unsigned char *p = NULL;
	size_t n;

	if (ret_pc < 8)
		return CG_INSN_NONE;
	/* the longest run of one section's bytes ending at ret_pc, up to the
	 * longest instruction decoded (x86 jcc rel32) */
	for (n = 6; n && !(p = sp_elf_code_at(e, ret_pc - n, n)); n--)
		;
	if (!p)
		return CG_INSN_NONE;
	return cg_decode_insn(e->machine, sp_elf_thumb_at(e, ret_pc - 2), p + n, n, ret_pc,
			      target);
}

unsigned cg_jump_len_at(const struct sp_elf *e, uint64_t pc)
{
	const unsigned char *p = sp_elf_code_at(e, pc, 2);

	if (!p)
		return 0;
	switch (e->machine) {
	case EM_X86_64:
	case EM_386:
		if (p[0] == 0xe9)
			return sp_elf_code_at(e, pc, 5) ? 5 : 0;	/* jmp rel32 */
		if (p[0] == 0xeb || (p[0] & 0xf0) == 0x70)
			return 2;	/* jmp/jcc rel8 */
		if (p[0] == 0x0f && (p[1] & 0xf0) == 0x80)
			return sp_elf_code_at(e, pc, 6) ? 6 : 0;	/* jcc rel32 */
		return 0;
	case EM_AARCH64:
		return sp_elf_code_at(e, pc, 4) ? 4 : 0;
	case EM_ARM:
		if (!sp_elf_thumb_at(e, pc) || (le16(p) & 0xf800) >= 0xe800)
			return sp_elf_code_at(e, pc, 4) ? 4 : 0;	/* ARM, Thumb-2 32-bit */
		return 2;
	}
	return 0;
}

/* The immediate target of a direct branch, if it has one. */
static bool insn_imm_target(cs_arch arch, const cs_insn *in, uint64_t *target)
{
	const cs_detail *d = in->detail;

	if (arch == CS_ARCH_X86 && d->x86.op_count == 1 && d->x86.operands[0].type == X86_OP_IMM) {
		*target = (uint64_t)d->x86.operands[0].imm;
		return true;
	}
	if (arch == CS_ARCH_ARM64 && d->arm64.op_count == 1 &&
	    d->arm64.operands[0].type == ARM64_OP_IMM) {
		*target = (uint64_t)d->arm64.operands[0].imm;
		return true;
	}
	if (arch == CS_ARCH_ARM && d->arm.op_count == 1 && d->arm.operands[0].type == ARM_OP_IMM) {
		*target = (uint64_t)(uint32_t)d->arm.operands[0].imm;
		return true;
	}
	return false;
}

static bool insn_in_group(const cs_insn *in, uint8_t group)
{
	uint8_t i;

	for (i = 0; i < in->detail->groups_count; i++)
		if (in->detail->groups[i] == group)
			return true;
	return false;
}

static void scan_insn(struct cg_image *img, uint32_t func, cs_arch arch, const cs_insn *in)
{
	struct sp_func *f = &img->g->funcs[func];
	bool call = insn_in_group(in, CS_GRP_CALL);
	bool jump = insn_in_group(in, CS_GRP_JUMP);
	uint64_t target, base = f->addr;
	uint32_t callee;

	if (!call && !jump)
		return;
	if (!insn_imm_target(arch, in, &target)) {
		/* a register or memory target: a call, or a jump out of a thunk */
		img->g->funcs[func].n_indirect++;
		img->stats.indirect++;
		return;
	}
	if (target >= base && target < base + f->size)
		return;		/* a branch within the function */
	callee = sp_u64map_get(&img->func_by_addr, target);
	if (callee != SP_NONE)
		sp_graph_add_edge(img->g, func, callee, call ? SP_EDGE_CALL : SP_EDGE_TAIL,
				  in->address + in->size);
}

static void scan_run(struct cg_image *img, uint32_t func, csh cs, cs_arch arch,
		     const struct sp_elf_run *run, bool *complete)
{
	size_t len = run->end - run->addr, n, i;
	const unsigned char *code = sp_elf_code_at(&img->elf, run->addr, len);
	cs_insn *insn;

	if (!code) {
		*complete = false;
		return;
	}
	n = cs_disasm(cs, code, len, run->addr, 0, &insn);
	for (i = 0; i < n; i++)
		scan_insn(img, func, arch, &insn[i]);
	/* capstone stops at bytes it cannot decode: calls may hide there */
	if (!n || insn[n - 1].address + insn[n - 1].size != run->end)
		*complete = false;
	if (n)
		cs_free(insn, n);
}

int cg_scan_function(struct cg_image *img, uint32_t func, struct sp_err *err)
{
	const struct sp_func *f = &img->g->funcs[func];
	uint64_t pc = f->addr, end = f->addr + f->size;
	bool thumb = sp_elf_thumb_at(&img->elf, f->addr), complete = true;
	struct sp_elf_run run;
	cs_arch arch;
	cs_mode mode;
	csh cs[2] = { 0, 0 };
	int t;

	if (!sp_elf_code_at(&img->elf, f->addr, f->size))
		return 0;	/* no bytes: the node stays a leaf, partial */
	for (t = 0; t < 2; t++) {	/* [1]: Thumb, for ARM's Thumb code */
		if (cg_cs_setup(&img->elf, t == 1, &arch, &mode))
			return 0;	/* no decoder: a leaf, partial */
		if (cs_open(arch, mode, &cs[t]) != CS_ERR_OK) {
			if (t)
				cs_close(&cs[0]);
			return sp_err_set(err, "capstone cannot decode this architecture");
		}
		cs_option(cs[t], CS_OPT_DETAIL, CS_OPT_ON);
	}
	while (sp_elf_next_run(&img->elf, &pc, end, thumb, &run))
		scan_run(img, func, cs[run.thumb], arch, &run, &complete);
	if (complete)
		img->g->funcs[func].flags &= ~SP_F_CALLS_INCOMPLETE;
	cs_close(&cs[0]);
	cs_close(&cs[1]);
	return 0;
}
