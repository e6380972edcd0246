/*
 * irq.c - kernel entry points the names alone do not show: interrupt
 * handlers, by their DWARF type, and system calls known by an alias.
 *
 * request_irq() takes an irq_handler_t, "irqreturn_t (*)(int, void *)":
 * a function of exactly that shape is a handler (or a threaded one),
 * whatever it is called.  The irq core's own helpers that return
 * irqreturn_t take a struct irq_desc * and are left out.
 */
#include "callgraph/internal.h"

#include <string.h>

static Dwarf_Die type_die(Dwarf_Debug dbg, Dwarf_Die die)
{
	Dwarf_Attribute a = NULL;
	Dwarf_Error derr = NULL;
	Dwarf_Off off = 0;
	Dwarf_Die t = NULL;

	if (dwarf_attr(die, DW_AT_type, &a, &derr) == DW_DLV_OK) {
		if (dwarf_global_formref(a, &off, &derr) != DW_DLV_OK ||
		    dwarf_offdie_b(dbg, off, true, &t, &derr) != DW_DLV_OK)
			t = NULL;
		dwarf_dealloc(dbg, a, DW_DLA_ATTR);
	}
	dw_drop_error(dbg, &derr);
	return t;
}

/* Is die's type a tag (with that name, if name is non-NULL)? */
static bool type_is(Dwarf_Debug dbg, Dwarf_Die die, Dwarf_Half tag, const char *name)
{
	Dwarf_Die t = type_die(dbg, die);
	Dwarf_Error derr = NULL;
	Dwarf_Half got = 0;
	char *s = NULL;
	bool ok;

	if (!t)
		return false;
	ok = dwarf_tag(t, &got, &derr) == DW_DLV_OK && got == tag;
	if (ok && name)
		ok = dwarf_diename(t, &s, &derr) == DW_DLV_OK && !strcmp(s, name);
	dw_drop_error(dbg, &derr);
	dwarf_dealloc_die(t);
	return ok;
}

/* (int, void *) or (int, T *): the parameters of an irq_handler_t. */
static bool params_are_handlers(Dwarf_Debug dbg, Dwarf_Die fn)
{
	Dwarf_Die c = NULL, next = NULL;
	Dwarf_Error derr = NULL;
	int n = 0, res;
	bool ok = true;

	res = dwarf_child(fn, &c, &derr);
	while (res == DW_DLV_OK && ok) {
		Dwarf_Half tag = 0;

		if (dwarf_tag(c, &tag, &derr) == DW_DLV_OK && tag == DW_TAG_formal_parameter) {
			ok = n == 0 ? type_is(dbg, c, DW_TAG_base_type, "int") :
			     n == 1 ? type_is(dbg, c, DW_TAG_pointer_type, NULL) : false;
			n++;
		}
		next = NULL;
		res = dw_sibling(dbg, c, &next, &derr);
		dwarf_dealloc_die(c);
		c = res == DW_DLV_OK ? next : NULL;
	}
	if (c)
		dwarf_dealloc_die(c);
	dw_drop_error(dbg, &derr);
	return ok && n == 2;
}

static bool is_irq_handler(Dwarf_Debug dbg, Dwarf_Off off)
{
	Dwarf_Die die = NULL;
	Dwarf_Error derr = NULL;
	bool yes;

	if (dwarf_offdie_b(dbg, off, true, &die, &derr) != DW_DLV_OK) {
		dw_drop_error(dbg, &derr);
		return false;
	}
	yes = type_is(dbg, die, DW_TAG_typedef, "irqreturn_t") && params_are_handlers(dbg, die);
	dwarf_dealloc_die(die);
	return yes;
}

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
	uint32_t i;

	mark_syscall_aliases(img, g);
	for (i = img->func_first; i < img->func_end && i < g->nfuncs; i++) {
		struct sp_func *f = &g->funcs[i];
		/* an out-of-line copy's type and parameters are on its origin */
		Dwarf_Off off = f->origin_die ? f->origin_die : f->die;

		if (off && (f->flags & SP_F_HAS_CODE) && is_irq_handler(img->dw.dbg, off))
			f->flags |= SP_F_IRQ_HANDLER;
	}
}
