/*
 * vars.c - the variables at fixed addresses (globals, static locals),
 * for --indirect=types: what the data that holds function pointers is,
 * and where (see indirect/).
 *
 * The walk hands each DW_TAG_variable it meets to dw_read_var.  Most are
 * locals located by a location list, or declarations: only a variable
 * whose DW_AT_location is one expression can be at a fixed address, and
 * which attributes and forms a DIE has is its abbreviation's, so that is
 * looked at first; the expression itself must be DW_OP_addr alone.  The
 * type is read later, from the DIE.
 *
 * A parameter's type is kept (dw->params): a struct passed by value is
 * written by the caller, where no store the analysis types shows, and a
 * call through a member of it may reach what was written.  A local in
 * the frame is typed where it is written (indirect/, DW_OP_fbreg).
 */
#include "dwarf/internal.h"

#include <string.h>

#include "common/xalloc.h"

/* Whether the DIEs of abbreviation a have one expression for a location. */
static bool located_by_expression(const struct dw_unit *u, const struct dw_abbrev *a)
{
	uint32_t i;

	for (i = 0; i < a->n; i++)
		if (u->ab.specs[a->first + i].at == DW_AT_location)
			return u->ab.specs[a->first + i].form == DW_FORM_exprloc;
	return false;
}

/* The address the DW_OP_addr location of d names; 0 for any other.
 * Its type into *type when a DW_AT_type comes first (GCC's order), as
 * dw_decl_type would read it, so that it need not be read again. */
static uint64_t fixed_address(const struct dw_unit *u, const struct dw_die *d, uint64_t *type)
{
	struct dw_opsizes z = dw_unit_opsizes(u);
	const unsigned char *b = NULL;
	struct dw_attr_iter it;
	struct dw_val v;
	uint64_t len = 0, addr;
	bool typed = false;

	*type = 0;
	dw_attrs_begin(&it, u, d);
	while (dw_attrs_next(&it, &v) > 0) {
		if (v.at == DW_AT_type && !typed) {
			*type = dw_val_ref(u, &v);
			typed = true;
		}
		if (v.at != DW_AT_location)
			continue;
		return dw_val_block(&v, &b, &len) && dw_expr_addr(b, len, &z, &addr) ? addr : 0;
	}
	return 0;
}

/* The type of the parameter d, 0 when it has none of its own
 * (a concrete instance names its abstract origin, which has it) or is
 * an extern's declaration. */
static uint64_t param_type(const struct dw_unit *u, const struct dw_die *d)
{
	const struct dw_attr_spec *spec = u->ab.specs + d->ab->first;
	uint32_t i, type = d->ab->n;
	struct dw_val v;

	/* the abbreviation says which: no value is decoded for most, and
	 * the type is read at its place */
	for (i = 0; i < d->ab->n; i++) {
		if (spec[i].at == DW_AT_declaration || spec[i].at == DW_AT_external ||
		    spec[i].at == DW_AT_abstract_origin)
			return 0;
		if (spec[i].at == DW_AT_type && type == d->ab->n)
			type = i;
	}
	return dw_die_attr_nth(u, d, type, &v) ? dw_val_ref(u, &v) : 0;
}

void dw_read_param(struct dw_image *dw, const struct dw_unit *u, const struct dw_die *d)
{
	uint64_t type = param_type(u, d);

	/* a unit's parameters repeat their types: most repeats end here */
	if (!type || (dw->nparams && dw->params[dw->nparams - 1] == type))
		return;
	SP_ALLOC_GROW(dw->params, dw->nparams + 1, dw->params_cap);
	dw->params[dw->nparams++] = type;
}

/* Whether the DIEs of abbreviation a are declarations. */
static bool declaration(const struct dw_unit *u, const struct dw_abbrev *a)
{
	uint32_t i;

	for (i = 0; i < a->n; i++)
		if (u->ab.specs[a->first + i].at == DW_AT_declaration)
			return true;
	return false;
}

uint64_t dw_name_hash(const char *name)
{
	uint64_t h = 0xcbf29ce484222325ull;	/* FNV-1a */

	for (; *name; name++)
		h = (h ^ (unsigned char)*name) * 0x100000001b3ull;
	return h;
}

/* A variable's declaration, by its name's hash: the string stays in the
 * section (the walk may be two threads, and few are ever asked for). */
static void read_decl(struct dw_image *dw, const struct dw_unit *u, const struct dw_die *d)
{
	struct dw_attr_iter it;
	struct dw_val v;
	const char *name;

	dw_attrs_begin(&it, u, d);
	while (dw_attrs_next(&it, &v) > 0) {
		if (v.at != DW_AT_name)
			continue;
		if (!(name = dw_val_string(u, &v)))
			return;
		SP_ALLOC_GROW(dw->decl_vars, dw->ndecl_vars + 1, dw->decl_vars_cap);
		dw->decl_vars[dw->ndecl_vars].die = d->off;
		dw->decl_vars[dw->ndecl_vars++].hash = dw_name_hash(name);
		return;
	}
}

void dw_read_var(struct dw_image *dw, const struct dw_unit *u, const struct dw_die *d)
{
	uint64_t addr, type;

	if (declaration(u, d->ab)) {
		read_decl(dw, u, d);
		return;
	}
	if (!located_by_expression(u, d->ab) || !(addr = fixed_address(u, d, &type)))
		return;
	SP_ALLOC_GROW(dw->vars, dw->nvars + 1, dw->vars_cap);
	dw->vars[dw->nvars].addr = addr;
	dw->vars[dw->nvars].type = type;
	dw->vars[dw->nvars++].die = d->off;
}
