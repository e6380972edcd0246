/*
 * dynamic.c - name what makes a frame dynamic.
 *
 * Run after the .su frames are merged, only for the functions whose frame
 * is dynamic: re-reads their DIE subtrees (a few, so no cost to the main
 * pass) looking for variable-length arrays, i.e. array types whose
 * subrange bound is not a constant.  Inlined callees count: their VLAs
 * live in this frame.
 *
 * Without a VLA, the code may say: GCC also calls a frame
 * "dynamic,bounded" when it pushes a call's stack arguments instead of
 * storing them in a frame reserved up front (-Os, or
 * -mno-accumulate-outgoing-args: all 158 such frames of a tinyconfig
 * kernel).  A push after the prologue, or of a value rather than a saved
 * register, followed by a call, is such an argument (a register pushed
 * first thing may be either, so it stays unnamed); a register
 * subtracted from the stack pointer is alloca() and keeps that name.
 */
#include "callgraph/internal.h"

#include <stdio.h>
#include <string.h>

#include "callgraph/dwarf_compat.h"

#define MAX_DEPTH 64

struct vla {
	const char *name;	/* variable name, interned */
	const char *file;
	uint32_t line;
};

static bool die_attr(Dwarf_Die die, Dwarf_Half at, Dwarf_Attribute *a)
{
	Dwarf_Error derr = NULL;

	return dwarf_attr(die, at, a, &derr) == DW_DLV_OK;
}

static Dwarf_Die ref_die(struct cg_image *img, Dwarf_Die die, Dwarf_Half at)
{
	Dwarf_Attribute a;
	Dwarf_Off off = 0;
	Dwarf_Die out = NULL;
	Dwarf_Error derr = NULL;

	if (!die_attr(die, at, &a))
		return NULL;
	if (dwarf_global_formref(a, &off, &derr) != DW_DLV_OK)
		off = 0;
	dwarf_dealloc(img->dbg, a, DW_DLA_ATTR);
	if (off && dwarf_offdie_b(img->dbg, off, true, &out, &derr) != DW_DLV_OK)
		out = NULL;
	return out;
}

/* A subrange bound that is a reference or an expression: a VLA. */
static bool bound_is_dynamic(Dwarf_Die sub)
{
	static const Dwarf_Half ats[] = { DW_AT_upper_bound, DW_AT_count };
	size_t i;

	for (i = 0; i < sizeof(ats) / sizeof(ats[0]); i++) {
		Dwarf_Attribute a;
		Dwarf_Half form = 0;
		Dwarf_Error derr = NULL;
		enum Dwarf_Form_Class cls;

		if (!die_attr(sub, ats[i], &a))
			continue;
		dwarf_whatform(a, &form, &derr);
		cls = dwarf_get_form_class(5, ats[i], 8, form);
		if (cls == DW_FORM_CLASS_REFERENCE || cls == DW_FORM_CLASS_EXPRLOC ||
		    cls == DW_FORM_CLASS_BLOCK)
			return true;
	}
	return false;
}

static bool is_qualifier(Dwarf_Half tag)
{
	return tag == DW_TAG_volatile_type || tag == DW_TAG_const_type ||
	       tag == DW_TAG_restrict_type || tag == DW_TAG_typedef;
}

/* The type of die with its qualifiers and typedefs taken off: a
 * "volatile char v[n]" is a volatile_type over the array type. */
static Dwarf_Die bare_type(struct cg_image *img, Dwarf_Die die)
{
	Dwarf_Die type = ref_die(img, die, DW_AT_type), next;
	Dwarf_Half tag = 0;
	Dwarf_Error derr = NULL;
	int depth;

	for (depth = 0; type && depth < MAX_DEPTH; depth++) {
		if (dwarf_tag(type, &tag, &derr) != DW_DLV_OK || !is_qualifier(tag))
			break;
		next = ref_die(img, type, DW_AT_type);
		dwarf_dealloc_die(type);
		type = next;
	}
	return type;
}

static bool type_is_vla(struct cg_image *img, Dwarf_Die var)
{
	Dwarf_Die type = bare_type(img, var), child = NULL;
	Dwarf_Half tag = 0;
	Dwarf_Error derr = NULL;
	bool vla = false;

	if (!type)
		return false;
	if (dwarf_tag(type, &tag, &derr) == DW_DLV_OK && tag == DW_TAG_array_type &&
	    dwarf_child(type, &child, &derr) == DW_DLV_OK) {
		vla = bound_is_dynamic(child);
		dwarf_dealloc_die(child);
	}
	dwarf_dealloc_die(type);
	return vla;
}

static void describe_var(struct cg_image *img, uint32_t cu, Dwarf_Die var, struct vla *out)
{
	Dwarf_Die named = var, origin = ref_die(img, var, DW_AT_abstract_origin);
	Dwarf_Attribute a;
	Dwarf_Error derr = NULL;
	char *name = NULL;

	if (origin)
		named = origin;
	if (dwarf_diename(named, &name, &derr) == DW_DLV_OK)
		out->name = sp_intern(img->g, name);
	if (die_attr(named, DW_AT_decl_line, &a)) {
		out->line = (uint32_t)cg_attr_udata(img->dbg, a);
		dwarf_dealloc(img->dbg, a, DW_DLA_ATTR);
	}
	if (die_attr(named, DW_AT_decl_file, &a)) {
		out->file = cg_cu_file(img, cu, cg_attr_udata(img->dbg, a));
		dwarf_dealloc(img->dbg, a, DW_DLA_ATTR);
	}
	if (origin)
		dwarf_dealloc_die(origin);
}

static bool var_is_vla(struct cg_image *img, Dwarf_Die var)
{
	Dwarf_Die origin;
	bool vla = type_is_vla(img, var);

	if (vla)
		return true;
	origin = ref_die(img, var, DW_AT_abstract_origin);
	if (origin) {
		vla = type_is_vla(img, origin);
		dwarf_dealloc_die(origin);
	}
	return vla;
}

static bool find_vla(struct cg_image *img, uint32_t cu, Dwarf_Die parent, int depth,
		     struct vla *out)
{
	Dwarf_Die child = NULL, next;
	Dwarf_Error derr = NULL;
	bool found = false;

	if (depth > MAX_DEPTH || dwarf_child(parent, &child, &derr) != DW_DLV_OK)
		return false;
	while (!found) {
		Dwarf_Half tag = 0;

		if (dwarf_tag(child, &tag, &derr) == DW_DLV_OK) {
			if (tag == DW_TAG_variable && var_is_vla(img, child)) {
				describe_var(img, cu, child, out);
				found = true;
			} else if (tag == DW_TAG_lexical_block ||
				   tag == DW_TAG_inlined_subroutine) {
				found = find_vla(img, cu, child, depth + 1, out);
			}
		}
		if (cg_sibling(img->dbg, child, &next, &derr) != DW_DLV_OK)
			break;
		dwarf_dealloc_die(child);
		child = next;
	}
	dwarf_dealloc_die(child);
	return found;
}

static const char *cause_text(struct cg_image *img, const struct vla *v)
{
	char buf[512];
	const char *file = v->file ? strrchr(v->file, '/') : NULL;

	file = file ? file + 1 : v->file;
	if (file)
		snprintf(buf, sizeof(buf), "VLA '%s' at %s:%u",
			 v->name ? v->name : "?", file, v->line);
	else
		snprintf(buf, sizeof(buf), "VLA '%s'", v->name ? v->name : "?");
	return sp_intern(img->g, buf);
}

struct code_cause {
	bool alloca;		/* the stack pointer moved by a register */
	bool pushed;		/* a call's arguments were pushed */
	uint64_t callee;	/* that call's target, 0 when indirect */
};

static bool x86_writes_sp_by_reg(const cs_insn *in)
{
	const cs_x86 *x = &in->detail->x86;

	return (in->id == X86_INS_SUB || in->id == X86_INS_ADD) && x->op_count == 2 &&
	       x->operands[0].type == X86_OP_REG &&
	       (x->operands[0].reg == X86_REG_RSP || x->operands[0].reg == X86_REG_ESP) &&
	       x->operands[1].type == X86_OP_REG;
}

/* GCC interleaves moves with the prologue's register saves; the frame is
 * set up by the first call, branch or fixed stack reservation. */
static bool ends_prologue(const cs_insn *in)
{
	const cs_x86 *x = &in->detail->x86;
	uint8_t i;

	if (in->id == X86_INS_SUB && x->op_count == 2 && x->operands[0].type == X86_OP_REG &&
	    (x->operands[0].reg == X86_REG_RSP || x->operands[0].reg == X86_REG_ESP))
		return true;
	for (i = 0; i < in->detail->groups_count; i++)
		if (in->detail->groups[i] == CS_GRP_CALL || in->detail->groups[i] == CS_GRP_JUMP ||
		    in->detail->groups[i] == CS_GRP_RET)
			return true;
	return false;
}

static void x86_scan(const cs_insn *in, size_t n, struct code_cause *out)
{
	bool prologue = true, pending = false;
	size_t i;

	for (i = 0; i < n; i++) {
		const cs_x86 *x = &in[i].detail->x86;

		if (x86_writes_sp_by_reg(&in[i])) {
			out->alloca = true;
			return;
		}
		if (in[i].id == X86_INS_PUSH) {
			/* the prologue saves registers; a value pushed is an argument */
			if (!prologue || x->op_count != 1 || x->operands[0].type != X86_OP_REG)
				pending = true;
			continue;
		}
		if (ends_prologue(&in[i]))
			prologue = false;
		if (in[i].id == X86_INS_CALL && pending && !out->pushed) {
			out->pushed = true;
			if (x->op_count == 1 && x->operands[0].type == X86_OP_IMM)
				out->callee = (uint64_t)x->operands[0].imm;
		}
		if (in[i].id == X86_INS_CALL)
			pending = false;
	}
}

/* What the machine code of a dynamic frame without a VLA does (x86). */
static void code_cause(struct cg_image *img, const struct sp_func *f, struct code_cause *out)
{
	uint64_t addr = f->addr;	/* already the even entry (Thumb bit off) */
	const unsigned char *code = f->size ? cg_elf_code_at(&img->elf, addr, f->size) : NULL;
	cs_arch arch;
	cs_mode mode;
	csh cs;
	cs_insn *insn;
	size_t n;

	memset(out, 0, sizeof(*out));
	if (!code || cg_cs_setup(&img->elf, false, &arch, &mode) || arch != CS_ARCH_X86 ||
	    cs_open(arch, mode, &cs) != CS_ERR_OK)
		return;
	cs_option(cs, CS_OPT_DETAIL, CS_OPT_ON);
	n = cs_disasm(cs, code, f->size, addr, 0, &insn);
	x86_scan(insn, n, out);
	if (n)
		cs_free(insn, n);
	cs_close(&cs);
}

static const char *no_vla_text(struct cg_image *img, const struct sp_func *f)
{
	struct code_cause c;
	char buf[512];
	uint32_t callee;

	code_cause(img, f, &c);
	if (!c.pushed || c.alloca || f->qual != SP_QUAL_BOUNDED)
		return sp_intern(img->g, "alloca() or a dynamic stack adjustment "
					 "(no variable-length array in DWARF)");
	callee = c.callee ? sp_u64map_get(&img->func_by_addr, c.callee) : SP_NONE;
	if (callee != SP_NONE && img->g->funcs[callee].name)
		snprintf(buf, sizeof(buf), "stack arguments pushed for a call to %s",
			 img->g->funcs[callee].name);
	else
		snprintf(buf, sizeof(buf), "stack arguments pushed for a call");
	return sp_intern(img->g, buf);
}

int cg_describe_dynamic(struct cg_image *img, struct sp_graph *g, struct sp_err *err)
{
	uint32_t i;

	(void)err;	/* an unreadable subtree only loses the cause's name */
	for (i = img->func_first; i < img->func_end && i < g->nfuncs; i++) {
		struct sp_func *f = &g->funcs[i];
		Dwarf_Die die = NULL;
		Dwarf_Error derr = NULL;
		struct vla v = { 0 };

		if ((f->qual != SP_QUAL_DYNAMIC && f->qual != SP_QUAL_BOUNDED) || !f->die ||
		    f->cu == SP_NONE)
			continue;
		if (dwarf_offdie_b(img->dbg, f->die, true, &die, &derr) != DW_DLV_OK)
			continue;
		if (find_vla(img, f->cu, die, 0, &v))
			f->dyn_cause = cause_text(img, &v);
		else
			f->dyn_cause = no_vla_text(img, f);
		dwarf_dealloc_die(die);
	}
	return 0;
}
