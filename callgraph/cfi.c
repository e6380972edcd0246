/*
 * cfi.c - frames from the call frame information, where .su has none.
 *
 * Assembly and libraries built without -fstack-usage have no .su row, but
 * their code usually has CFI (.debug_frame, .eh_frame): for every
 * instruction it says where the canonical frame address is, and while
 * the CFA is "stack pointer + N", N is how far the stack pointer has
 * moved since the caller's call instruction.  The largest N is the frame
 * in .su's own convention: GCC's .su counts the return address on x86
 * (a leaf that pushes nothing is 8 on x86-64, CFA = %rsp + 8 at its entry;
 * one that does "push %rbp; mov %rsp,%rbp" is 16, the CFA offset after
 * the push), and on arm64/ARM the CFA at entry is sp + 0.  Where both
 * exist they are compared (cg_stats.cfi_checked/cfi_agree, -v).
 *
 * Once a row puts the CFA on another register (a frame pointer) or an
 * expression, later stack-pointer moves are not described: such a
 * function gets no CFI frame and stays unknown, never a guess.  A .su
 * row always wins.
 */
#include "callgraph/internal.h"

#include <string.h>

struct cfi_list {
	Dwarf_Cie *cies;
	Dwarf_Signed ncies;
	Dwarf_Fde *fdes;
	Dwarf_Signed nfdes;
};

/* The DWARF number of the stack pointer, -1 if unknown. */
static Dwarf_Signed sp_regno(uint16_t machine)
{
	switch (machine) {
	case EM_X86_64:
		return 7;
	case EM_386:
		return 4;
	case EM_AARCH64:
		return 31;
	case EM_ARM:
		return 13;
	}
	return -1;
}

static void drop_error(Dwarf_Debug dbg, Dwarf_Error derr)
{
	if (derr)
		dwarf_dealloc_error(dbg, derr);
}

static bool load_list(Dwarf_Debug dbg, bool eh, struct cfi_list *l)
{
	Dwarf_Error derr = NULL;
	int res = eh ? dwarf_get_fde_list_eh(dbg, &l->cies, &l->ncies, &l->fdes,
					     &l->nfdes, &derr) :
		       dwarf_get_fde_list(dbg, &l->cies, &l->ncies, &l->fdes,
					  &l->nfdes, &derr);

	if (res == DW_DLV_OK)
		return true;
	/* unreadable CFI gives no frames: those functions stay unknown */
	drop_error(dbg, derr);
	memset(l, 0, sizeof(*l));
	return false;
}

/*
 * The largest CFA offset from the stack pointer over the rows of fde in
 * [lo, hi); false when a row has the CFA anywhere else.
 */
static bool fde_frame(Dwarf_Debug dbg, Dwarf_Fde fde, Dwarf_Addr lo, Dwarf_Addr hi,
		      Dwarf_Signed sp, uint64_t *frame)
{
	Dwarf_Addr pc = lo;
	uint64_t best = 0;

	for (;;) {
		Dwarf_Small type = 0;
		Dwarf_Signed relevant = 0, reg = 0, off = 0;
		Dwarf_Ptr block = NULL;
		Dwarf_Addr row = 0, next = 0;
		Dwarf_Bool more = 0;
		Dwarf_Error derr = NULL;

		if (dwarf_get_fde_info_for_cfa_reg3_b(fde, pc, &type, &relevant, &reg, &off,
						      &block, &row, &more, &next,
						      &derr) != DW_DLV_OK) {
			drop_error(dbg, derr);
			return false;
		}
		if (type != DW_EXPR_OFFSET || !relevant || reg != sp || off < 0)
			return false;
		if ((uint64_t)off > best)
			best = (uint64_t)off;
		/* next > pc: every step moves forward, so the loop ends */
		if (!more || next <= pc || next >= hi)
			break;
		pc = next;
	}
	*frame = best;
	return true;
}

/* The CFI frame of the function whose code starts at addr. */
static bool frame_at(Dwarf_Debug dbg, const struct cfi_list *l, uint64_t addr,
		     Dwarf_Signed sp, uint64_t *frame)
{
	Dwarf_Fde fde = NULL;
	Dwarf_Addr lo = 0, hi = 0;
	Dwarf_Error derr = NULL;
	int res;

	if (!l->nfdes)
		return false;
	res = dwarf_get_fde_at_pc(l->fdes, addr, &fde, &lo, &hi, &derr);
	if (res != DW_DLV_OK) {
		drop_error(dbg, derr);
		return false;
	}
	/* an FDE of the function around addr says nothing of addr's own */
	return lo == addr && fde_frame(dbg, fde, lo, hi, sp, frame);
}

static void apply(struct cg_image *img, struct sp_func *f, uint64_t frame)
{
	if (f->qual == SP_QUAL_UNKNOWN) {
		f->qual = SP_QUAL_STATIC;
		f->src = SP_SRC_CFI;
		f->self = frame;
		img->stats.cfi_frames++;
	} else if (f->src == SP_SRC_SU && f->qual == SP_QUAL_STATIC) {
		img->stats.cfi_checked++;
		if (f->self == frame)
			img->stats.cfi_agree++;
	}
}

void cg_cfi_frames(struct cg_image *img, struct sp_graph *g, bool compare_su)
{
	struct cfi_list lists[2];
	Dwarf_Signed sp = sp_regno(img->elf.machine);
	uint32_t i;
	int k;

	if (sp < 0 || !img->dbg)
		return;
	memset(lists, 0, sizeof(lists));
	load_list(img->dbg, false, &lists[0]);
	/* an object's .eh_frame is not relocated: its addresses would lie */
	if (img->elf.type != ET_REL)
		load_list(img->dbg, true, &lists[1]);
	for (i = img->func_first; i < img->func_end; i++) {
		struct sp_func *f = &g->funcs[i];
		uint64_t frame;

		if (!(f->flags & SP_F_HAS_CODE) || (f->flags & SP_F_EXTERNAL) ||
		    (f->qual != SP_QUAL_UNKNOWN && !compare_su))
			continue;
		for (k = 0; k < 2; k++)
			if (frame_at(img->dbg, &lists[k], f->addr,
				     sp, &frame)) {
				apply(img, f, frame);
				break;
			}
	}
	for (k = 0; k < 2; k++)
		if (lists[k].nfdes || lists[k].ncies)
			dwarf_fde_cie_list_dealloc(img->dbg, lists[k].cies, lists[k].ncies,
						   lists[k].fdes, lists[k].nfdes);
}
