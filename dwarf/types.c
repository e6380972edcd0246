/*
 * types.c - types: what is under a type's typedefs and qualifiers, and
 * an interrupt handler known by its DWARF type.
 *
 * request_irq() takes an irq_handler_t, "irqreturn_t (*)(int, void *)":
 * a function of exactly that shape is a handler (or a threaded one),
 * whatever it is called.  The irq core's own helpers that return
 * irqreturn_t take a struct irq_desc * and are left out.
 */
#include "dwarf/internal.h"

#include <string.h>

bool dw_is_qualifier(uint16_t tag)
{
	return tag == DW_TAG_typedef || tag == DW_TAG_const_type ||
	       tag == DW_TAG_volatile_type || tag == DW_TAG_restrict_type ||
	       tag == DW_TAG_atomic_type;
}

bool dw_type_strip(struct dw_reader *r, uint64_t off, struct dw_entry *e,
		   const char **typedef_name)
{
	int hops;

	if (typedef_name)
		*typedef_name = NULL;
	for (hops = 0; off && hops < DW_MAX_TYPE_HOPS; hops++) {
		uint16_t tag;

		if (!dw_entry_at(r, off, e))
			return false;
		tag = e->d.ab->tag;
		if (!dw_is_qualifier(tag))
			return true;
		if (tag == DW_TAG_typedef && typedef_name && !*typedef_name)
			*typedef_name = dw_entry_name(e);
		off = dw_entry_ref(e, DW_AT_type);
	}
	return false;
}

/* Is e's type a tag (with that name, if name is non-NULL)? */
static bool type_is(struct dw_reader *r, const struct dw_entry *e, uint16_t tag,
		    const char *name)
{
	struct dw_entry t;
	const char *s;

	if (!dw_entry_at_ref(r, e, DW_AT_type, &t) || t.d.ab->tag != tag)
		return false;
	return !name || ((s = dw_entry_name(&t)) && !strcmp(s, name));
}

/* (int, void *) or (int, T *): the parameters of an irq_handler_t. */
static bool params_are_handlers(struct dw_reader *r, const struct dw_entry *fn)
{
	struct dw_kids k;
	struct dw_entry c;
	int n = 0;
	bool ok = true;

	dw_kids_begin(fn, &k);
	while (ok && dw_kids_next(&k, &c) > 0) {
		if (c.d.ab->tag != DW_TAG_formal_parameter)
			continue;
		ok = n == 0 ? type_is(r, &c, DW_TAG_base_type, "int") :
		     n == 1 ? type_is(r, &c, DW_TAG_pointer_type, NULL) : false;
		n++;
	}
	return ok && n == 2;
}

bool dw_is_irq_handler(struct dw_reader *r, uint64_t off)
{
	struct dw_entry e;
	bool yes;

	dw_reader_begin(r);
	yes = dw_entry_at(r, off, &e) && type_is(r, &e, DW_TAG_typedef, "irqreturn_t") &&
	      params_are_handlers(r, &e);
	dw_reader_end(r);
	return yes;
}
