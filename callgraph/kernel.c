/*
 * kernel.c - kernel entry points the names alone do not show: interrupt
 * handlers, by their DWARF type (dwarf/types.c), and system calls known
 * by an alias.
 */
#include "callgraph/internal.h"

/* SYSCALL_DEFINE0 makes __x64_sys_fork an alias of __do_sys_fork, and
 * the COND_SYSCALLs of a disabled subsystem alias one stub: the function
 * is named otherwise, the table points at it all the same. */
static void mark_syscall_aliases(struct cg_image *img, struct sp_graph *g)
{
	size_t i;

	for (i = 0; i < img->elf.nsyms; i++) {
		uint32_t id;

		if (!sp_syscall_wrapper_name(img->elf.syms[i].name))
			continue;
		id = sp_u64map_get(&img->func_by_addr, img->elf.syms[i].addr);
		if (id >= img->func_first && id < img->func_end)
			g->funcs[id].flags |= SP_F_SYSCALL;
	}
}

void cg_mark_kernel_entries(struct cg_image *img, struct sp_graph *g)
{
	struct dw_reader *r = dw_reader(cg_dwarf(img));
	uint32_t i;

	mark_syscall_aliases(img, g);
	for (i = img->func_first; r && i < img->func_end && i < g->nfuncs; i++) {
		struct sp_func *f = &g->funcs[i];
		/* an out-of-line copy's type and parameters are on its origin */
		uint64_t off = f->origin_die ? f->origin_die : f->die;

		if (off && (f->flags & SP_F_HAS_CODE) && dw_is_irq_handler(r, off))
			f->flags |= SP_F_IRQ_HANDLER;
	}
	cg_dwarf_done(img);	/* every function's DIE was read */
}
