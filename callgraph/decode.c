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

static enum cg_insn decode_x86(const struct cg_elf *e, uint64_t ret_pc, uint64_t *target)
{
	const unsigned char *p;

	p = cg_elf_code_at(e, ret_pc - 5, 5);
	if (p && (p[0] == 0xe8 || p[0] == 0xe9)) {	/* call/jmp rel32 */
		*target = ret_pc + (uint64_t)(int64_t)le32(p + 1);
		return p[0] == 0xe8 ? CG_INSN_CALL : CG_INSN_JMP;
	}
	p = cg_elf_code_at(e, ret_pc - 6, 6);
	if (p && p[0] == 0x0f && (p[1] & 0xf0) == 0x80) {	/* jcc rel32: a conditional tail call */
		*target = ret_pc + (uint64_t)(int64_t)le32(p + 2);
		return CG_INSN_JMP;
	}
	p = cg_elf_code_at(e, ret_pc - 2, 2);
	if (p && (p[0] == 0xeb || (p[0] & 0xf0) == 0x70)) {	/* jmp/jcc rel8 */
		*target = ret_pc + (uint64_t)(int64_t)(int8_t)p[1];
		return CG_INSN_JMP;
	}
	if (p && p[0] == 0xff && (p[1] & 0xf8) == 0xd0)	/* call *%reg */
		return CG_INSN_ICALL;
	return CG_INSN_NONE;
}

static enum cg_insn decode_a64(const struct cg_elf *e, uint64_t ret_pc, uint64_t *target)
{
	const unsigned char *p = cg_elf_code_at(e, ret_pc - 4, 4);
	uint32_t insn, op;
	int64_t imm;

	if (!p)
		return CG_INSN_NONE;
	insn = (uint32_t)le32(p);
	op = insn & 0xfc000000u;
	if (op != 0x94000000u && op != 0x14000000u) {	/* bl / b imm26 */
		if ((insn & 0xfffffc1fu) == 0xd63f0000u)	/* blr xN */
			return CG_INSN_ICALL;
		return CG_INSN_NONE;
	}
	imm = (int32_t)((insn & 0x03ffffffu) << 6) >> 4;	/* sign-extend imm26 * 4 */
	*target = ret_pc - 4 + (uint64_t)imm;
	return op == 0x94000000u ? CG_INSN_CALL : CG_INSN_JMP;
}

enum cg_insn cg_decode_before(const struct cg_elf *e, uint64_t ret_pc, uint64_t *target)
{
	if (ret_pc < 8)
		return CG_INSN_NONE;
	switch (e->machine) {
	case EM_X86_64:
	case EM_386:
		return decode_x86(e, ret_pc, target);
	case EM_AARCH64:
		return decode_a64(e, ret_pc, target);
	}
	return CG_INSN_NONE;
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
	uint64_t target, base = cg_code_addr(&img->elf, f->addr);
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
	if (callee == SP_NONE)
		callee = sp_u64map_get(&img->func_by_addr, target | 1);	/* Thumb */
	if (callee != SP_NONE)
		sp_graph_add_edge(img->g, func, callee, call ? SP_EDGE_CALL : SP_EDGE_TAIL,
				  in->address + in->size);
}

int cg_scan_function(struct cg_image *img, uint32_t func, struct sp_err *err)
{
	const struct sp_func *f = &img->g->funcs[func];
	uint64_t addr = cg_code_addr(&img->elf, f->addr);
	const unsigned char *code = cg_elf_code_at(&img->elf, addr, f->size);
	cs_arch arch;
	cs_mode mode;
	csh cs;
	cs_insn *insn;
	size_t n, i;

	if (!code || cg_cs_setup(&img->elf, img->elf.machine == EM_ARM && (f->addr & 1), &arch, &mode))
		return 0;	/* no bytes or no decoder: the node stays a leaf, partial */
	if (cs_open(arch, mode, &cs) != CS_ERR_OK)
		return sp_err_set(err, "capstone cannot decode this architecture");
	cs_option(cs, CS_OPT_DETAIL, CS_OPT_ON);
	n = cs_disasm(cs, code, f->size, addr, 0, &insn);
	for (i = 0; i < n; i++)
		scan_insn(img, func, arch, &insn[i]);
	/* capstone stops at bytes it cannot decode: calls may hide there */
	if (n && insn[n - 1].address + insn[n - 1].size == addr + f->size)
		img->g->funcs[func].flags &= ~SP_F_CALLS_INCOMPLETE;
	if (n)
		cs_free(insn, n);
	cs_close(&cs);
	return 0;
}
