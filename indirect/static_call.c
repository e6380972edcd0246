/*
 * static_call.c - the kernel's static calls (--indirect=types'
 * "static-call").  A call of __SCT__NAME is a direct call of the
 * trampoline, which jumps to the function DEFINE_STATIC_CALL gave it
 * (the code shows that jump) or, once __static_call_update(&__SCK__NAME,
 * &__SCT__NAME, func) (static_call_update()'s expansion) or
 * __static_call_update_early(&__SCT__NAME, func) has run, to func: the
 * trampoline, and every call site the kernel patched to call func
 * directly (.static_call_sites), then reach func.  So each call of an
 * updater gives its trampoline the targets of its func argument, found
 * as an indirect call through that register would be
 * (insn_icall.update): DWARF's call site value (DW_OP_addr func, NULL,
 * the caller's own argument passed on), the constants the code may
 * load there, else the chain's table, field or constant, else its
 * prototype or every address-taken function (sites.c).
 *
 * A call whose trampoline is neither a constant in the code nor in
 * DWARF's value, nor what the callers pass (a pointer: struct
 * tracepoint's static_call_tramp, struct bpf_dispatcher's sc_tramp) may
 * update any trampoline a data word holds or the code stores.  Assumed:
 * no other way hands one to an updater.  Assumed: only kernel/tracepoint.c updates a tracepoint's
 * (__SCT__tp_func_NAME), to __traceiter_NAME or the one probe
 * registered, whose type register_trace_NAME() checked: NAME's probes.
 */
#include "indirect/run.h"

#include <stdlib.h>
#include <string.h>

#include "common/strbuf.h"

#define SCT "__SCT__"
#define SCT_TP "__SCT__tp_func_"

/* DWARF's x86-64 numbers: the updaters' func is %rdx (tramp %rsi) or
 * %rsi (tramp %rdi). */
enum { RDX = 1, RSI = 4, RDI = 5 };

static const struct insn_icall *update_of(const struct ind_run *r, const struct ind_site *s)
{
	return &r->ims[s->image].code->icalls.calls[s->icall];
}

static struct dw_call_arg call_arg(struct ind_run *r, const struct ind_site *s, uint8_t reg)
{
	struct ind_image *im = &r->ims[s->image];
	const struct sp_func *f = &r->g->funcs[s->func];
	struct dw_call_arg v = { .kind = DW_ARG_UNKNOWN };

	if (im->reader && f->die)
		v = dw_call_arg(im->reader, f->die, update_of(r, s)->ret, reg);
	return v;
}

/* The register of the updater's func argument: its chain's first. */
static uint8_t func_reg(const struct ind_run *r, const struct ind_site *s)
{
	const struct insn_icall *c = update_of(r, s);

	return r->ims[s->image].code->icalls.links[c->link].reg;
}

/* The functions DWARF's value v of an updater's argument names: the
 * function at its address, or, for a wrapper's own argument passed on,
 * what its callers pass.  False when v names none. */
static bool value_targets(struct ind_run *r, const struct ind_site *s, struct dw_call_arg v,
			  struct ids *out)
{
	const uint32_t *ids;
	uint32_t id, n, i;

	if (v.kind == DW_ARG_ADDR && (id = ind_func_at(&r->ims[s->image], v.addr)) != SP_NONE) {
		ids_add(out, id);
		return true;
	}
	if (v.kind != DW_ARG_ENTRY || !ind_arg_values(r->args, s->func, v.reg, &ids, &n, NULL))
		return false;
	for (i = 0; i < n; i++)
		ids_add(out, ids[i]);
	return true;
}

bool ind_sc_tramp(struct ind_run *r, const struct ind_site *s, struct ids *out)
{
	struct ind_image *im = &r->ims[s->image];
	const struct insn_icall *c = update_of(r, s);
	uint32_t id;

	if (c->tramp && (id = ind_func_at(im, c->tramp)) != SP_NONE) {
		ids_add(out, id);
		return true;
	}
	return value_targets(r, s, call_arg(r, s, func_reg(r, s) == RDX ? RSI : RDI), out);
}

static bool is_tracepoint_code(const struct sp_func *f)
{
	size_t n = f->file ? strlen(f->file) : 0;

	return n >= 19 && !strcmp(f->file + n - 19, "kernel/tracepoint.c");
}

struct held {
	struct ind_run *r;
	struct sp_u64map tramps;	/* address -> function */
	uint64_t lo, hi;		/* the least and greatest address */
};

static void held_word(void *arg, uint64_t addr, uint64_t w)
{
	struct held *h = arg;
	uint32_t id;

	(void)addr;
	/* ind_data_words gave only words in [h->lo, h->hi] */
	if ((id = sp_u64map_get(&h->tramps, w)) != SP_NONE)
		ids_add(&h->r->sc_held, id);
}

/* The trampolines of image im whose address a data word holds or the
 * code stores (once per image: r->sc_held). */
static void held_tramps(struct ind_run *r, uint32_t image)
{
	struct ind_image *im = &r->ims[image];
	struct held h = { .r = r, .lo = UINT64_MAX };
	uint32_t first, end, i;
	size_t k;

	if (r->sc_held_image == image)
		return;
	r->sc_held_image = image;
	r->sc_held.n = 0;
	sp_u64map_init(&h.tramps, 1024);
	cg_funcs(im->img, &first, &end);
	for (i = first; i < end && i < r->g->nfuncs; i++)
		if (r->g->funcs[i].name && !strncmp(r->g->funcs[i].name, SCT, strlen(SCT))) {
			sp_u64map_put(&h.tramps, r->g->funcs[i].addr, i);
			if (r->g->funcs[i].addr < h.lo)
				h.lo = r->g->funcs[i].addr;
			if (r->g->funcs[i].addr > h.hi)
				h.hi = r->g->funcs[i].addr;
		}
	for (k = 0; im->data.word && k < im->data.nsecs; k++)
		ind_data_words(&im->data, k, h.lo, h.hi, held_word, &h);
	for (k = 0; k < r->nstores; k++)
		if (r->stores[k].image == image && r->stores[k].func != SP_NONE &&
		    sp_u64map_get(&h.tramps, r->g->funcs[r->stores[k].func].addr) ==
		    r->stores[k].func)
			ids_add(&r->sc_held, r->stores[k].func);
	r->sc_held.n = ind_unique_ids(r->sc_held.v, r->sc_held.n);
	sp_u64map_release(&h.tramps);
}

static bool is_tp_tramp(const struct sp_func *f)
{
	return !strncmp(f->name, SCT_TP, strlen(SCT_TP));
}

void ind_sc_tramps(struct ind_run *r, const struct ind_site *s, struct ids *out)
{
	bool tp = is_tracepoint_code(&r->g->funcs[s->func]);
	uint32_t i;

	held_tramps(r, s->image);
	for (i = 0; i < r->sc_held.n; i++)
		if (is_tp_tramp(&r->g->funcs[r->sc_held.v[i]]) == tp)
			ids_add(out, r->sc_held.v[i]);
}

/* Each __traceiter_NAME's tracepoint site, by its name. */
static void read_iters(struct ind_run *r)
{
	uint32_t i;

	sp_u64map_init(&r->sc_iters, 1024);
	r->sc_iters_read = true;
	for (i = 0; i < r->g->nisites; i++)
		if (r->g->isites[i].how == SP_RES_TRACEPOINT)
			sp_u64map_put(&r->sc_iters,
				      (uintptr_t)r->g->funcs[r->g->isites[i].func].name, i);
}

bool ind_sc_tracepoint(struct ind_run *r, const struct ind_site *s, uint32_t tramp,
		       struct ids *out)
{
	const struct sp_func *t = &r->g->funcs[tramp];
	struct sp_strbuf sb = { 0 };
	const struct sp_isite *is;
	uint32_t i, k;

	if (!is_tracepoint_code(&r->g->funcs[s->func]) || !is_tp_tramp(t))
		return false;
	if (!r->sc_iters_read)
		read_iters(r);
	sp_strbuf_addf(&sb, "__traceiter_%s", t->name + strlen(SCT_TP));
	k = sp_u64map_get(&r->sc_iters, (uintptr_t)sp_intern(r->g, sb.buf));
	free(sb.buf);
	if (k == SP_NONE)
		return false;
	is = &r->g->isites[k];
	ids_add(out, is->func);
	for (i = 0; i < is->ntargets && is->first != SP_NONE; i++)
		ids_add(out, r->g->isite_targets[is->first + i]);
	return true;
}

bool ind_sc_value(struct ind_run *r, const struct ind_site *s, struct ids *out)
{
	struct ind_image *im = &r->ims[s->image];
	const struct insn_icall *c = update_of(r, s);
	const struct insn_link *alt = im->code->icalls.links + c->link + c->nlinks;
	struct dw_call_arg v = call_arg(r, s, func_reg(r, s));
	uint32_t i, id;

	if (v.kind == DW_ARG_ADDR && !v.addr)
		return true;	/* NULL: the trampoline returns */
	if (value_targets(r, s, v, out))
		return true;
	for (i = 0; i < c->nalts; i++)	/* constants, 0 (NULL) none */
		if (alt[i].disp && (id = ind_func_at(im, (uint64_t)alt[i].disp)) == SP_NONE)
			return false;
	for (i = 0; i < c->nalts; i++)
		if (alt[i].disp)
			ids_add(out, ind_func_at(im, (uint64_t)alt[i].disp));
	return c->nalts > 0;
}
