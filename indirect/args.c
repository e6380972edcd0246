/*
 * args.c - a call through a callback the function was handed as an
 * argument (--indirect=types' "argument"): its targets are what the
 * callers pass in that register, as each call site's
 * DW_TAG_call_site_parameter says (DW_AT_call_value: DW_OP_addr f, or
 * DW_OP_entry_value(reg), the caller's own argument passed on, whose
 * values its callers give in turn).
 *
 * The chain must be copies of a register no write reaches from the
 * function's entry (insn_link.entry): the value it was called with.
 * Every way in must be seen: the function is not address-taken (an
 * indirect call's arguments are unknown), not a global of a shared
 * library or an object (callers elsewhere: an executable's, PIE or not,
 * are its own), has callers, and each
 * caller is a direct call whose call site gives the value.  Else the
 * site falls back as before.  Where the call site has no value, the
 * constant the caller's code loads into the register just before the
 * call is it (insn/callargs.c).
 *
 * In a kernel, a function exported to modules (EXPORT_SYMBOL: marked by
 * exported.c) is also called by the modules' code, which is not given:
 * its callers in the images still say what they pass, and the first such
 * function met is the way in of the modules' values (ind_arg_targets'
 * outside; exported.c says what a module can pass); a member one is
 * stored into is marked (ind_key.module).  A static call's trampoline
 * an argument updates (ind_arg_values without outside) takes the
 * images' callers' values only, when there are some: assumed, a module
 * hands such a function no callback of its own.
 */
#include "indirect/run.h"

#include <elf.h>
#include <stdlib.h>
#include <string.h>

#include "common/search.h"
#include "common/xalloc.h"
#include "elf/dynamic.h"

#define MAX_ARG_DEPTH 8		/* callers of callers ... followed */

struct ind_args {
	struct ind_run *r;
	uint32_t *first;	/* by callee: its callers' edges in edge[] */
	uint32_t *edge;
	struct { uint32_t func; uint8_t reg; } stack[MAX_ARG_DEPTH];
	int depth;
	uint32_t *out;
	uint32_t nout, cap;
	int8_t *program;	/* by image: 1 an executable, 0 not, -1 unread */
	const uint8_t *exported;	/* by function id < nexported: exported to
					 * modules, or NULL */
	uint32_t nexported;
	bool modules;		/* count the modules' calls (exported) */
	uint32_t outside;	/* the first exported function met, SP_NONE */
	/* a caller's code, decoded again where neither DWARF nor the
	 * constants before the call say (caller_values) */
	struct insn_decoder *dec;
	struct insn_buf code;
	uint32_t code_func;	/* whose code it is, SP_NONE */
	struct insn_icalls scratch;
	struct ids loaded;	/* load_values' */
	struct ids keys;	/* the members the values are loaded from,
				 * before the keys are sealed */
};

/* The edges into each function, by callee (counting sort). */
static void index_callers(struct ind_args *a)
{
	const struct sp_graph *g = a->r->g;
	uint32_t i;

	a->first = sp_xcalloc(g->nfuncs + 2, sizeof(*a->first));
	a->edge = sp_xmalloc((g->nedges + 1) * sizeof(*a->edge));
	for (i = 0; i < g->nedges; i++)
		a->first[g->edges[i].to + 2]++;
	for (i = 2; i < g->nfuncs + 2; i++)
		a->first[i] += a->first[i - 1];
	for (i = 0; i < g->nedges; i++)
		a->edge[a->first[g->edges[i].to + 1]++] = i;
}

struct ind_args *ind_args_new(struct ind_run *r)
{
	struct ind_args *a = sp_xcalloc(1, sizeof(*a));

	a->r = r;
	a->code_func = SP_NONE;
	a->program = sp_xmalloc((r->nims + 1) * sizeof(*a->program));
	memset(a->program, -1, (r->nims + 1) * sizeof(*a->program));
	return a;
}

void ind_args_exported(struct ind_args *a, const uint8_t *marks, uint32_t n)
{
	a->exported = marks;
	a->nexported = n;
}

void ind_args_free(struct ind_args *a)
{
	if (!a)
		return;
	free(a->first);
	free(a->edge);
	free(a->out);
	free(a->program);
	free(a->loaded.v);
	free(a->keys.v);
	if (a->dec)
		insn_decoder_close(a->dec);
	insn_buf_release(&a->code);
	a->scratch.thunks = NULL;	/* the image's */
	insn_icalls_release(&a->scratch);
	free(a);
}

static struct ind_image *image_of(struct ind_run *r, uint32_t func)
{
	uint32_t cu = r->g->funcs[func].cu;
	size_t i;

	for (i = 0; cu != SP_NONE && i < r->nims; i++)
		if (r->ims[i].dw && cu >= r->ims[i].dw->cu_first &&
		    cu - r->ims[i].dw->cu_first < r->ims[i].dw->ncus)
			return &r->ims[i];
	return NULL;
}

/* Is image im an executable (a PIE has an interpreter, a shared library
 * none)? */
static bool program(struct ind_args *a, const struct ind_image *im)
{
	size_t i = (size_t)(im - a->r->ims);
	struct sp_elf_dynamic d;

	if (im->elf->type != ET_DYN)
		return im->elf->type == ET_EXEC;
	if (a->program[i] < 0) {
		sp_elf_read_dynamic(im->elf, &d);
		a->program[i] = d.interp != NULL;
		sp_elf_dynamic_release(&d);
	}
	return a->program[i] == 1;
}

/* Can func be entered other than by the calls the graph has? */
static bool other_ways_in(struct ind_args *a, const struct ind_image *im, uint32_t func)
{
	const struct sp_func *f = &a->r->g->funcs[func];
	uint32_t sym;

	if (a->r->taken[func] || f->lib || !(f->flags & SP_F_HAS_CODE))
		return true;
	if (program(a, im))
		return false;
	/* a shared library's global: called from elsewhere */
	sym = sp_u64map_get(&im->elf->sym_by_addr, f->addr);
	return sym == SP_NONE || im->elf->syms[sym].bind != STB_LOCAL;
}

static void out_add(struct ind_args *a, uint32_t id)
{
	SP_ALLOC_GROW(a->out, a->nout + 1, a->cap);
	a->out[a->nout++] = id;
}

static bool on_stack(const struct ind_args *a, uint32_t func, uint8_t reg)
{
	int i;

	for (i = 0; i < a->depth; i++)
		if (a->stack[i].func == func && a->stack[i].reg == reg)
			return true;
	return false;
}

static uint64_t carg_ret(const void *base, size_t i)
{
	return ((const struct insn_carg *)base)[i].ret;
}

/* GCC writes no call site value for many calls (a tail call's): the
 * code's constant says. */
struct dw_call_arg ind_code_arg(const struct ind_image *im, uint64_t ret, uint8_t reg)
{
	const struct insn_cargs *c = &im->code->cargs;
	struct dw_call_arg v = { .kind = DW_ARG_UNKNOWN };
	size_t i;

	for (i = sp_search_first_ge(c->v, c->n, carg_ret, ret); ret && i < c->n && c->v[i].ret == ret;
	     i++)
		if (c->v[i].reg == reg) {
			v.kind = DW_ARG_ADDR;
			v.addr = c->v[i].value;
		}
	return v;
}

/* The code of function func of image im, decoded into a->code (the last
 * one kept: a caller asked about for several registers or calls); false
 * when it cannot be. */
static bool caller_code(struct ind_args *a, const struct ind_image *im, uint32_t func)
{
	const struct sp_func *f = &a->r->g->funcs[func];
	struct sp_elf_run run = { .addr = f->addr, .end = f->addr + f->size };

	if (a->code_func == func)
		return a->code.n > 0;
	a->code_func = func;
	a->code.n = 0;
	if (!f->addr || !f->size || im->elf->arch->id != SP_ARCH_X86_64 || im->elf->type == ET_REL ||
	    (!a->dec && !(a->dec = insn_decoder_open(im->elf->machine))) ||
	    insn_decode(a->dec, im->elf, &run, false, &a->code) != INSN_WHOLE) {
		a->code.n = 0;
		return false;
	}
	insn_retpoline_pass(&im->code->icalls, im->elf, a->code.v, a->code.n);
	return a->code.n > 0;
}

/* What a caller passes that it loaded from a member (links[0..n): the
 * load, in image im, of caller's code): what the member holds, as a
 * call through it finds it (call_timer_fn(timer, timer->function):
 * struct timer_list.function); before the keys are sealed, the member
 * itself, a flow (ind_arg_keys).  False when the member escaped, a
 * module may store there or nothing does. */
static bool member_values(struct ind_args *a, const struct ind_image *im, uint32_t caller,
			  const struct insn_link *links, uint8_t n)
{
	const struct ind_key *k;
	uint32_t key, i;

	if (!ind_member_load(a->r, (uint32_t)(im - a->r->ims), caller, links, n, &key))
		return false;
	if (!a->r->sealed) {
		ids_add(&a->keys, key);
		return true;
	}
	k = &a->r->keys.v[key];
	if (k->escaped || k->module || k->local || !k->ntargets)
		return false;
	for (i = 0; i < k->ntargets; i++)
		out_add(a, a->r->keys.v[key].targets[i]);
	return true;
}

/* What a caller passes that it loaded (links[0..n): the load, in image
 * im, of caller's code) from a fixed address, into a->out: the functions
 * the word holds, as a call through it finds them (tracing_set_clock()'s
 * ring_buffer_set_clock(buf, trace_clocks[i].func): the table's
 * functions); or from a member (member_values). */
static bool load_values(struct ind_args *a, const struct ind_image *im, uint32_t caller,
			const struct insn_link *links, uint8_t n)
{
	struct ind_target t;
	uint32_t k;

	if (links[n - 1].src != INSN_SRC_GLOBAL && links[n - 1].src != INSN_SRC_TABLE &&
	    (n != 2 || links[1].src != INSN_SRC_CONST))
		return member_values(a, im, caller, links, n);
	a->loaded.n = 0;
	if (!ind_load_targets(a->r, (uint32_t)(im - a->r->ims), links, n, &t, &a->loaded))
		return false;
	for (k = 0; k < a->loaded.n; k++)
		out_add(a, a->loaded.v[k]);
	return true;
}

/*
 * What the caller's code puts in register reg for the call that returns
 * to ret, where DWARF and the constants just before it do not say: the
 * function addresses each path into the call writes (membarrier's
 * ipi_func, one of three by its flags), into a->out, or the register of
 * the caller's own argument passed on (*entry, followed to its callers
 * as DWARF's DW_OP_entry_value is).  False when some path brings neither
 * or a constant that is no function.
 */
static bool caller_values(struct ind_args *a, const struct ind_image *im, uint32_t caller,
			  uint64_t ret, uint8_t reg, uint8_t *entry)
{
	const struct insn_icalls *ic = &im->code->icalls;
	uint64_t values[INSN_MAX_VALUES];
	struct insn_link load[IND_MAX_LINKS];
	uint32_t id;
	int n, k, nl;

	if (!caller_code(a, im, caller))
		return false;
	a->scratch.thunks = ic->thunks;
	a->scratch.nthunks = ic->nthunks;
	a->scratch.fentry = ic->fentry;
	a->scratch.pv_ops = ic->pv_ops;
	a->scratch.pv_ops_end = ic->pv_ops_end;
	n = insn_arg_values(&a->scratch, a->code.v, a->code.n, ret, reg, values, entry);
	if (n < 0 && (nl = insn_arg_load(&a->scratch, a->code.v, a->code.n, ret, reg, load,
					 IND_MAX_LINKS)))
		return load_values(a, im, caller, load, (uint8_t)nl);
	for (k = 0; k < n; k++) {
		if ((id = ind_func_at(im, values[k])) == SP_NONE)
			return false;
		out_add(a, id);
	}
	return n >= 0;
}

/* What func's register reg held at its entry, from every caller, into
 * a->out; false when some way in does not say. */
static bool entry_values(struct ind_args *a, uint32_t func, uint8_t reg)
{
	struct ind_run *r = a->r;
	struct ind_image *im = image_of(r, func), *cim;
	uint32_t k;
	bool ok = true;

	if (on_stack(a, func, reg))
		return true;	/* a recursive call passes on what it was given */
	if (a->depth >= MAX_ARG_DEPTH || !im || other_ways_in(a, im, func))
		return false;
	if (a->modules && func < a->nexported && a->exported[func]) {
		if (a->outside == SP_NONE)
			a->outside = func;	/* the modules call it too */
	} else if (a->first[func + 1] == a->first[func]) {
		return false;
	}
	a->stack[a->depth].func = func;
	a->stack[a->depth++].reg = reg;
	for (k = a->first[func]; ok && k < a->first[func + 1]; k++) {
		const struct sp_edge *e = &r->g->edges[a->edge[k]];
		const struct sp_func *caller = &r->g->funcs[e->from];
		struct dw_call_arg v = { .kind = DW_ARG_UNKNOWN };
		uint32_t id;

		cim = e->flags ? NULL : image_of(r, e->from);
		if (cim && caller->die && cim->reader)
			v = dw_call_arg(cim->reader, caller->die, e->pc, reg);
		if (cim && v.kind == DW_ARG_UNKNOWN)
			v = ind_code_arg(cim, e->pc, reg);
		if (cim && v.kind == DW_ARG_UNKNOWN) {
			uint8_t entry;

			if (!caller_values(a, cim, e->from, e->pc, reg, &entry))
				ok = false;
			else if (entry != INSN_REG_NONE)
				ok = entry_values(a, e->from, entry);
			continue;
		}
		if (v.kind == DW_ARG_ADDR && !v.addr)
			continue;	/* NULL: no call through it */
		if (v.kind == DW_ARG_ADDR && (id = ind_func_at(cim, v.addr)) != SP_NONE)
			out_add(a, id);
		else
			ok = v.kind == DW_ARG_ENTRY && entry_values(a, e->from, v.reg);
	}
	a->depth--;
	return ok;
}

/* What every way into func passes in register reg, into a->out; with
 * modules, the first exported function met in a->outside, which may have
 * no callers in the images. */
static bool arg_values(struct ind_args *a, uint32_t func, uint8_t reg, bool modules)
{
	if (reg == INSN_REG_NONE || func == SP_NONE || func >= a->r->g->nfuncs)
		return false;
	if (!a->first)
		index_callers(a);
	a->nout = 0;
	a->keys.n = 0;
	a->depth = 0;
	a->outside = SP_NONE;
	a->modules = modules && a->exported;
	return entry_values(a, func, reg);
}

bool ind_arg_targets(struct ind_args *a, const struct ind_site *s, const uint32_t **v,
		     uint32_t *n, uint32_t *outside)
{
	const struct ind_image *im = &a->r->ims[s->image];
	const struct insn_icalls *ic = &im->code->icalls;
	const struct insn_icall *c = &ic->calls[s->icall];

	if (!arg_values(a, s->func, insn_entry_reg(ic->links + c->link, c->nlinks), true))
		return false;
	*v = a->out;
	*n = a->nout;
	*outside = a->outside;
	return true;
}

void ind_arg_keys(const struct ind_args *a, const uint32_t **v, uint32_t *n)
{
	*v = a->keys.v;
	*n = a->keys.n;
}

bool ind_arg_values(struct ind_args *a, uint32_t func, uint8_t reg, const uint32_t **v,
		    uint32_t *n, bool *outside)
{
	if (!arg_values(a, func, reg, outside != NULL))
		return false;
	*v = a->out;
	*n = a->nout;
	if (outside)
		*outside = a->outside != SP_NONE;
	return true;
}
