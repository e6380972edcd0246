/*
 * types.c - an interrupt handler known by its DWARF type.
 *
 * request_irq() takes an irq_handler_t, "irqreturn_t (*)(int, void *)":
 * a function of exactly that shape is a handler (or a threaded one),
 * whatever it is called.  The irq core's own helpers that return
 * irqreturn_t take a struct irq_desc * and are left out.
 */
#include "dwarf/internal.h"

#include <string.h>

/* Is die's type a tag (with that name, if name is non-NULL)? */
static bool type_is(Dwarf_Debug dbg, Dwarf_Die die, Dwarf_Half tag, const char *name)
{
	Dwarf_Die t = dw_ref_die(dbg, die, DW_AT_type);
	Dwarf_Error derr = NULL;
	char *s = NULL;
	bool ok;

	if (!t)
		return false;
	ok = dw_tag(dbg, t) == tag;
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
		if (dw_tag(dbg, c) == DW_TAG_formal_parameter) {
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

bool dw_is_irq_handler(Dwarf_Debug dbg, Dwarf_Off off)
{
	Dwarf_Die die = dw_die_at(dbg, off);
	bool yes;

	if (!die)
		return false;
	yes = type_is(dbg, die, DW_TAG_typedef, "irqreturn_t") && params_are_handlers(dbg, die);
	dwarf_dealloc_die(die);
	return yes;
}
