/*
 * locs.c - which parameter or variable a register holds, by pc: the
 * locations of one function's DIE subtree (its own, and those of the
 * functions inlined into it), read when a chain of that function is
 * typed and kept until the next function's.
 *
 * Only a location that is the register itself counts: DW_OP_regN and
 * DW_OP_regx, or DW_OP_bregN 0 with DW_OP_stack_value (the variable's
 * value is the register's).  A location list that points nowhere, an
 * entry without an address, an expression libdwarf cannot read: that
 * variable is not located, and nothing else changes.
 */
#include "indirect/internal.h"

#include <string.h>

#include "common/xalloc.h"
#include "dwarf/internal.h"

#define MAX_SCOPE_DEPTH 64	/* lexical blocks and inlined subroutines */
#define NO_UNIT ((Dwarf_Off)-1)	/* ind_locs.unit before the first */

static void add_loc(struct ind_locs *l, uint64_t lo, uint64_t hi, uint8_t reg,
		    Dwarf_Off type)
{
	struct ind_loc *x;

	if (hi <= lo)
		return;
	SP_ALLOC_GROW(l->v, l->n + 1, l->cap);
	x = &l->v[l->n++];
	x->lo = lo;
	x->hi = hi;
	x->reg = reg;
	x->type = type;
}

/* The register an expression of n operations is, INSN_REG_NONE if none. */
static uint8_t reg_of(Dwarf_Debug dbg, Dwarf_Locdesc_c desc, Dwarf_Unsigned n)
{
	Dwarf_Small atom = 0, next = 0;
	Dwarf_Unsigned op1 = 0, op2, op3, br;
	Dwarf_Error derr = NULL;
	uint8_t reg = INSN_REG_NONE;

	if (n < 1 || n > 2 ||
	    dwarf_get_location_op_value_c(desc, 0, &atom, &op1, &op2, &op3, &br, &derr) !=
	    DW_DLV_OK) {
		dw_drop_error(dbg, &derr);
		return INSN_REG_NONE;
	}
	if (n == 1 && atom >= DW_OP_reg0 && atom <= DW_OP_reg31)
		reg = (uint8_t)(atom - DW_OP_reg0);
	else if (n == 1 && atom == DW_OP_regx && op1 < INSN_REG_NONE)
		reg = (uint8_t)op1;
	else if (n == 2 && atom >= DW_OP_breg0 && atom <= DW_OP_breg31 && op1 == 0 &&
		 dwarf_get_location_op_value_c(desc, 1, &next, &op1, &op2, &op3, &br, &derr) ==
		 DW_DLV_OK && next == DW_OP_stack_value)
		reg = (uint8_t)(atom - DW_OP_breg0);
	dw_drop_error(dbg, &derr);
	return reg;
}

/* ---- DWARF 5 location lists, read here ----
 *
 * libdwarf 20210528 builds every entry of a list and decodes every
 * operation of each, allocating as it goes: on a kernel that was the
 * largest cost of the stage.  The lists of a DWARF 5 unit in
 * .debug_loclists are read here instead when they hold only the entries
 * GCC writes there (offset pairs from the unit's DW_AT_low_pc or a base
 * address, start-end and start-length pairs); any other entry, or a list
 * that does not parse, goes to libdwarf as before. */

/* reg_of for an expression's bytes: the register it is, INSN_REG_NONE. */
static uint8_t expr_reg(const struct ind_locs *l, const uint8_t *p, uint64_t len)
{
	struct dw_opsizes z = { .addr = (uint8_t)l->addr_size, .off = 4, .version = 5 };

	return dw_expr_reg(p, len, &z);
}

static bool read_addr(const uint8_t **p, const uint8_t *end, unsigned size, uint64_t *v)
{
	if ((size_t)(end - *p) < size)
		return false;
	*v = dw_read_uint(*p, size, false);
	*p += size;
	return true;
}

/* The list at off of .debug_loclists into l; false (nothing added) when
 * it is one for libdwarf. */
static bool read_lists(struct ind_locs *l, uint64_t off, Dwarf_Off type)
{
	const uint8_t *p, *end = l->lists.data + l->lists.size;
	uint64_t base = l->base;
	size_t first = l->n;

	if (off >= l->lists.size)
		return false;
	for (p = l->lists.data + off;;) {
		uint64_t a = 0, b = 0, len = 0;
		uint8_t kind, reg;

		if (p >= end)
			break;
		kind = *p++;
		if (kind == DW_LLE_end_of_list)
			return true;
		if (kind == DW_LLE_base_address) {
			if (!read_addr(&p, end, l->addr_size, &base))
				break;
			continue;
		}
		if (kind == DW_LLE_offset_pair) {
			if (!dw_read_uleb(&p, end, &a) || !dw_read_uleb(&p, end, &b))
				break;
			a += base;
			b += base;
		} else if (kind == DW_LLE_start_end) {
			if (!read_addr(&p, end, l->addr_size, &a) ||
			    !read_addr(&p, end, l->addr_size, &b))
				break;
		} else if (kind == DW_LLE_start_length) {
			if (!read_addr(&p, end, l->addr_size, &a) || !dw_read_uleb(&p, end, &len))
				break;
			b = a + len;
		} else {
			break;
		}
		if (!dw_read_uleb(&p, end, &len) || len > (uint64_t)(end - p))
			break;
		reg = expr_reg(l, p, len);
		if (reg != INSN_REG_NONE)
			add_loc(l, a, b, reg, type);
		p += len;
	}
	l->n = first;
	return false;
}

/* Is a's list one read_lists reads?  Its offset into *off. */
static bool own_list(struct ind_locs *l, Dwarf_Attribute a, uint64_t *off)
{
	Dwarf_Half form = 0;
	Dwarf_Error derr = NULL;
	bool ok;

	if (!l->unit_fast)
		return false;
	ok = dwarf_whatform(a, &form, &derr) == DW_DLV_OK && form == DW_FORM_sec_offset;
	dw_drop_error(l->dbg, &derr);
	*off = ok ? dw_attr_ref(l->dbg, a) : 0;
	return ok && *off;
}

/* Whether the lists of the unit of die are read here, and its base. */
static void enter_unit(struct ind_locs *l, Dwarf_Die die)
{
	Dwarf_Off cu_off = 0;
	Dwarf_Half version = 0, offset_size = 0, addr_size = 0;
	Dwarf_Error derr = NULL;
	Dwarf_Addr lo = 0;
	Dwarf_Die cu;

	if (!l->have_lists ||
	    dwarf_CU_dieoffset_given_die(die, &cu_off, &derr) != DW_DLV_OK) {
		dw_drop_error(l->dbg, &derr);
		l->unit_fast = false;
		l->unit = NO_UNIT;
		return;
	}
	if (cu_off == l->unit)
		return;
	l->unit = cu_off;
	l->unit_fast = false;
	if (dwarf_get_version_of_die(die, &version, &offset_size) != DW_DLV_OK ||
	    version != 5 ||
	    dwarf_get_die_address_size(die, &addr_size, &derr) != DW_DLV_OK ||
	    (addr_size != 4 && addr_size != 8) || !(cu = dw_die_at(l->dbg, cu_off))) {
		dw_drop_error(l->dbg, &derr);
		return;
	}
	/* a unit without DW_AT_low_pc: libdwarf's base, whatever it is */
	l->unit_fast = dwarf_lowpc(cu, &lo, &derr) == DW_DLV_OK;
	dw_drop_error(l->dbg, &derr);
	dwarf_dealloc_die(cu);
	l->base = lo;
	l->addr_size = addr_size;
}

static void read_loclist(struct ind_locs *l, Dwarf_Attribute a, Dwarf_Off type)
{
	Dwarf_Loc_Head_c head = NULL;
	Dwarf_Unsigned count = 0, i;
	Dwarf_Error derr = NULL;
	unsigned kind = DW_LKIND_unknown;
	uint64_t off;

	if (own_list(l, a, &off) && read_lists(l, off, type))
		return;
	if (dwarf_get_loclist_c(a, &head, &count, &derr) != DW_DLV_OK) {
		dw_drop_error(l->dbg, &derr);
		return;
	}
	if (dwarf_get_loclist_head_kind(head, &kind, &derr) != DW_DLV_OK)
		kind = DW_LKIND_unknown;
	for (i = 0; i < count; i++) {
		Dwarf_Small lle = 0, source = 0;
		Dwarf_Unsigned rawlo, rawhi, nops = 0, expr_off, desc_off;
		Dwarf_Bool noaddr = 0;
		Dwarf_Addr lo = 0, hi = 0;
		Dwarf_Locdesc_c desc = NULL;
		uint8_t reg;

		if (dwarf_get_locdesc_entry_d(head, i, &lle, &rawlo, &rawhi, &noaddr, &lo, &hi,
					      &nops, &desc, &source, &expr_off, &desc_off,
					      &derr) != DW_DLV_OK)
			break;
		if (noaddr || !desc || (reg = reg_of(l->dbg, desc, nops)) == INSN_REG_NONE)
			continue;
		/* one expression: where the variable lives all along */
		if (kind == DW_LKIND_expression)
			lo = 0, hi = UINT64_MAX;
		add_loc(l, lo, hi, reg, type);
	}
	dw_drop_error(l->dbg, &derr);
	dwarf_loc_head_c_dealloc(head);
}

/* A variable's type: its own DW_AT_type, or its abstract origin's (the
 * same for every copy inlined: kept). */
static Dwarf_Off var_type(struct ind_locs *l, Dwarf_Die die)
{
	Dwarf_Off type = dw_ref(l->dbg, die, DW_AT_type), origin;
	uint32_t k;

	if (type)
		return type;
	origin = dw_ref(l->dbg, die, DW_AT_abstract_origin);
	if (!origin)
		return 0;
	k = sp_u64map_get(&l->origin_type, origin);
	if (k != SP_NONE)
		return l->types_of[k];
	type = ind_decl_type(l->dbg, origin);
	SP_ALLOC_GROW(l->types_of, l->ntypes_of + 1, l->types_of_cap);
	l->types_of[l->ntypes_of] = type;
	sp_u64map_put(&l->origin_type, origin, (uint32_t)l->ntypes_of++);
	return type;
}

/* Can a chain go on from a pointer of type t: a function pointer (a
 * call through it), or a pointer to what a load reads a pointer from
 * (chain.c's load: a struct, an array, a pointer)?  A char * or a
 * void * cannot: its locations are not read. */
static bool leads_on(struct ind_locs *l, const struct ind_type *t)
{
	Dwarf_Off target = t->target;

	if (t->func)
		return true;
	t = ind_type_at(l->types, target);
	return t && (t->kind == IND_STRUCT || t->kind == IND_ARRAY || t->kind == IND_POINTER);
}

/* Only a pointer in a register is something a load goes through. */
static void read_var(struct ind_locs *l, Dwarf_Die die)
{
	Dwarf_Attribute a = NULL;
	Dwarf_Error derr = NULL;
	Dwarf_Off type = var_type(l, die);
	const struct ind_type *t = type ? ind_type_at(l->types, type) : NULL;

	if (!t || t->kind != IND_POINTER || !leads_on(l, t))
		return;
	if (dwarf_attr(die, DW_AT_location, &a, &derr) != DW_DLV_OK) {
		dw_drop_error(l->dbg, &derr);
		return;
	}
	read_loclist(l, a, type);
	dwarf_dealloc(l->dbg, a, DW_DLA_ATTR);
}

/* Does a block or an inlined call hold one of the pcs asked about?  Its
 * variables live only there.  One with DW_AT_ranges is entered. */
static bool scope_wanted(struct ind_locs *l, Dwarf_Die die, const uint64_t *pcs, size_t n)
{
	Dwarf_Addr lo = 0, hi = 0;
	Dwarf_Half form = 0;
	enum Dwarf_Form_Class cls = DW_FORM_CLASS_UNKNOWN;
	Dwarf_Error derr = NULL;
	size_t i;

	if (dwarf_lowpc(die, &lo, &derr) != DW_DLV_OK ||
	    dwarf_highpc_b(die, &hi, &form, &cls, &derr) != DW_DLV_OK) {
		dw_drop_error(l->dbg, &derr);
		return true;
	}
	if (cls == DW_FORM_CLASS_CONSTANT)
		hi += lo;
	for (i = 0; i < n; i++)
		if (pcs[i] >= lo && pcs[i] < hi)
			return true;
	return false;
}

/* The variables of scope and of the scopes in it that hold pcs; true
 * when every child of scope was stepped over (dw_sibling_checked). */
static bool read_scope(struct ind_locs *l, Dwarf_Die scope, const uint64_t *pcs, size_t npcs,
		       int depth)
{
	Dwarf_Die c = NULL, next = NULL;
	Dwarf_Error derr = NULL;
	int res;

	if (depth > MAX_SCOPE_DEPTH)
		return false;
	res = dwarf_child(scope, &c, &derr);
	while (res == DW_DLV_OK) {
		bool checked = false;

		switch (dw_tag(l->dbg, c)) {
		case DW_TAG_formal_parameter:
		case DW_TAG_variable:
			read_var(l, c);
			break;
		case DW_TAG_lexical_block:
		case DW_TAG_inlined_subroutine:
			if (scope_wanted(l, c, pcs, npcs))
				checked = read_scope(l, c, pcs, npcs, depth + 1);
			break;
		}
		res = dw_sibling_checked(l->dbg, c, checked, &next, &derr);
		dwarf_dealloc_die(c);
		c = res == DW_DLV_OK ? next : NULL;
	}
	dw_drop_error(l->dbg, &derr);
	return res == DW_DLV_NO_ENTRY;
}

void ind_locs_load(struct ind_locs *l, const struct sp_func *f, uint32_t func,
		   const uint64_t *pcs, size_t npcs)
{
	Dwarf_Die die;

	l->func = func;
	l->n = 0;
	if (!f->die || !(die = dw_die_at(l->dbg, f->die)))
		return;
	enter_unit(l, die);
	read_scope(l, die, pcs, npcs, 0);
	dwarf_dealloc_die(die);
}

void ind_locs_defer(struct ind_locs *l, const struct sp_func *f, uint32_t func,
		    const uint64_t *pcs, size_t npcs)
{
	l->n = 0;
	l->func = SP_NONE;
	l->pending = f;
	l->pending_func = func;
	l->pcs = pcs;
	l->npcs = npcs;
}

const struct ind_locs *ind_locs_get(struct ind_locs *l)
{
	const struct sp_func *f = l->pending;

	if (f) {
		l->pending = NULL;
		ind_locs_load(l, f, l->pending_func, l->pcs, l->npcs);
	}
	return l;
}

void ind_locs_init(struct ind_locs *l, Dwarf_Debug dbg, struct ind_types *types,
		   const struct dw_obj *obj)
{
	memset(l, 0, sizeof(*l));
	l->dbg = dbg;
	l->types = types;
	/* little-endian only, as the rest of the DWARF readers */
	l->unit = NO_UNIT;
	l->have_lists = obj && !obj->msb && dw_obj_section(obj, ".debug_loclists", &l->lists) &&
			l->lists.data;
	l->func = SP_NONE;
	sp_u64map_init(&l->origin_type, 4096);
}

void ind_locs_release(struct ind_locs *l)
{
	free(l->v);
	free(l->types_of);
	sp_u64map_release(&l->origin_type);
	memset(l, 0, sizeof(*l));
	l->func = SP_NONE;
}
