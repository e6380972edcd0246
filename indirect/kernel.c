/*
 * kernel.c - the Linux kernel's own ways of calling through a pointer
 * whose type says little (void *, a callback parameter), resolved from
 * what the kernel can put there:
 *
 *	tracepoint	the call in __traceiter_NAME, through the void *
 *			of each registered struct tracepoint_func: the
 *			probes the image can register on NAME;
 *	bpf		a struct bpf_prog's bpf_func: the interpreters,
 *			and the programs the JIT makes at run time, one
 *			node <bpf jit> of bounded frame whose calls are
 *			what a program may call (bpf.c).
 *
 * A static call's trampoline reaches what static_call_update() gives
 * it (static_call.c); a pv_ops call is a word of the pv_ops table
 * (sites.c).
 */
#include "indirect/run.h"

#include <gelf.h>
#include <stdlib.h>
#include <string.h>

#include "common/search.h"
#include "common/strbuf.h"
#include "common/xalloc.h"
#include "indirect/kernel.h"

#define TRACEITER "__traceiter_"

void ind_kernel_init(struct ind_kernel *k, struct ind_run *r)
{
	size_t i;

	memset(k, 0, sizeof(*k));
	k->r = r;
	k->jit = SP_NONE;
	for (i = 0; i < IND_BPF_RUNNERS; i++)
		k->run_jit[i] = SP_NONE;
	k->interp_fn = SP_NONE;
	k->hypercall = SP_NONE;
	sp_u64map_init(&k->by_name, 1024);
	sp_u64map_init(&k->classes, 1024);
	sp_u64map_init(&k->class_of, 1024);
	ind_exported_init(k);
}

void ind_kernel_ready(struct ind_kernel *k, const struct fallback *fb)
{
	k->fb = fb;
	ind_exported_ready(k);
}

void ind_kernel_release(struct ind_kernel *k)
{
	sp_u64map_release(&k->by_name);
	sp_u64map_release(&k->classes);
	sp_u64map_release(&k->class_of);
	free(k->scratch.v);
	free(k->helpers.v);
	free(k->other.v);
	free(k->interp.v);
	free(k->idle_ops.v);
	free(k->cb_callers.v);
	free(k->dtors.v);
	free(k->probes.v);
	ind_exported_release(k);
}

/* A name's key in by_name: the event classes of two modules may share
 * names, each image's static functions */
static uint64_t name_key(const char *name, uint32_t image)
{
	return (uint64_t)(uintptr_t)name ^ ((uint64_t)image << 56);
}

uint32_t ind_kernel_func_named(struct ind_kernel *k, uint32_t image, const char *name)
{
	struct sp_graph *g = k->r->g;
	uint32_t i, m, first, end;

	if (!k->named) {
		for (m = 0; m < k->r->nims; m++) {
			cg_funcs(k->r->ims[m].img, &first, &end);
			for (i = first; i < end && i < g->nfuncs; i++)
				if (g->funcs[i].name && (g->funcs[i].flags & SP_F_HAS_CODE))
					sp_u64map_put(&k->by_name, name_key(g->funcs[i].name, m), i);
		}
		k->named = true;
	}
	return sp_u64map_get(&k->by_name, name_key(name, image));
}

static uint32_t func_namedf(struct ind_kernel *k, uint32_t image, const char *prefix,
			    const char *name)
{
	struct sp_strbuf sb = { 0 };
	uint32_t id;

	sp_strbuf_addf(&sb, "%s%s", prefix, name);
	id = ind_kernel_func_named(k, image, sp_intern(k->r->g, sb.buf));
	free(sb.buf);
	return id;
}

/* An image's tracepoints and where its __bpf_raw_tp_map is. */
struct syms {
	struct ind_kernel *k;
	const struct sp_elf *e;
	uint32_t image;
	uint64_t start, stop;
	struct sp_u64map tps;	/* address -> the __traceiter_NAME of __tracepoint_NAME */
};

static void find_syms(void *arg, const GElf_Sym *sym, const char *name)
{
	struct syms *b = arg;
	uint64_t value = sym->st_value;
	uint32_t iter;

	if (sym->st_shndx == SHN_UNDEF || sym->st_shndx >= SHN_LORESERVE)
		return;
	/* a module's symbols are offsets into their sections, as laid out */
	if (b->e->type == ET_REL)
		value += sym->st_shndx < b->e->nsec ? b->e->sec_base[sym->st_shndx] : 0;
	if (!strcmp(name, "__start__bpf_raw_tp"))
		b->start = value;
	else if (!strcmp(name, "__stop__bpf_raw_tp"))
		b->stop = value;
	else if (!strncmp(name, "__tracepoint_", 13) && GELF_ST_TYPE(sym->st_info) == STT_OBJECT &&
		 (iter = func_namedf(b->k, b->image, TRACEITER, name + 13)) != SP_NONE)
		sp_u64map_put(&b->tps, value, iter);
}

/* Where image im's __bpf_raw_tp_map is: a linked kernel's between the
 * linker script's __start__bpf_raw_tp and __stop__bpf_raw_tp (inside
 * .data), a module's its own section. */
static bool raw_tp_map(const struct ind_image *im, struct syms *b, uint64_t *addr,
		       uint64_t *size)
{
	sp_elf_each_symbol(im->elf, find_syms, b);
	if (b->start && b->stop > b->start) {
		*addr = b->start;
		*size = b->stop - b->start;
		return true;
	}
	return sp_elf_section(im->elf, "__bpf_raw_tp_map", addr, size);
}

/*
 * The address-taken functions of exactly prototype proto (interned),
 * not of its class: the mechanisms here store functions with C's type
 * checks (register_trace_NAME()'s typed parameter, bpf_func assigned
 * from typed functions), so no cast widens them.
 */
void ind_kernel_exact_typed(struct ind_kernel *k, const char *proto, struct ids *out)
{
	const struct sp_graph *g = k->r->g;
	uint32_t i, n = out->n;

	ind_proto_typed(k->fb, ind_proto_key(k->fb, k->r->g, proto), out);
	for (i = n; i < out->n; i++)
		if (g->funcs[out->v[i]].proto == proto)
			out->v[n++] = out->v[i];
	out->n = n;
}

static const char *const probe_kinds[3] = { "trace_event_raw_event_", "perf_trace_",
					     "__bpf_trace_" };

/* The class probes of __bpf_trace_CLASS (id bpf, of image im) into
 * k->class_of, each mapped to bpf. */
static void mark_class(struct ind_kernel *k, uint32_t im, uint32_t bpf)
{
	const char *cls = k->r->g->funcs[bpf].name + strlen(probe_kinds[2]);
	uint32_t i, id;

	for (i = 0; i < 3; i++)
		if ((id = func_namedf(k, im, probe_kinds[i], cls)) != SP_NONE)
			sp_u64map_put(&k->class_of, id, bpf);
}

/*
 * Each tracepoint's event class, from __bpf_raw_tp_map: one struct
 * bpf_raw_event_map (include/linux/tracepoint-defs.h, 32-byte aligned)
 * per trace event, { &__tracepoint_NAME, __bpf_trace_CLASS, ... }: the
 * classes map __traceiter_NAME's name to __bpf_trace_CLASS's id, and
 * class_of each class's probes to it.
 */
static void read_classes(struct ind_kernel *k)
{
	struct ind_run *r = k->r;
	size_t i;

	for (i = 0; i < r->nims; i++) {
		const struct ind_image *im = &r->ims[i];
		struct syms b = { .k = k, .e = im->elf, .image = (uint32_t)i };
		uint64_t addr = 0, size, off, tp, fn;
		uint32_t id, iter;

		sp_u64map_init(&b.tps, 1024);
		if (!im->data.word || !raw_tp_map(im, &b, &addr, &size))
			size = 0;
		for (off = 0; off + 2 * im->data.word <= size; off += 32) {
			if (ind_data_word(&im->data, addr + off, &tp) &&
			    ind_data_word(&im->data, addr + off + im->data.word, &fn) &&
			    (id = ind_func_at(im, fn)) != SP_NONE &&
			    !strncmp(r->g->funcs[id].name, "__bpf_trace_", 12) &&
			    (iter = sp_u64map_get(&b.tps, tp)) != SP_NONE) {
				sp_u64map_put(&k->classes, iter, id);
				mark_class(k, (uint32_t)i, id);
			}
		}
		sp_u64map_release(&b.tps);
	}
}

/*
 * Leave out of out, from n on, the probes of an event class other than
 * bpf's (the __bpf_trace_CLASS of the tracepoint): the kernel registers
 * a class's trace_event_raw_event_CLASS and perf_trace_CLASS only
 * through trace_event_reg(), which pairs an event's call->tp with its
 * own call->class->probe and ->perf_probe (kernel/trace/trace_events.c),
 * and __bpf_trace_CLASS only through its __bpf_raw_tp_map entry's
 * tracepoint (bpf_probe_register(), kernel/trace/bpf_trace.c); no other
 * code takes their addresses.  Events of one prototype so share their
 * other probes, not each other's class's.
 */
static void drop_other_classes(struct ind_kernel *k, uint32_t bpf, struct ids *out, uint32_t n)
{
	uint32_t i, cls, kept = n;

	for (i = n; i < out->n; i++) {
		cls = sp_u64map_get(&k->class_of, out->v[i]);
		if (cls == SP_NONE || cls == bpf)
			out->v[kept++] = out->v[i];
	}
	out->n = kept;
}

/*
 * The functions the images register as a probe: what every caller of
 * tracepoint_probe_register(), _prio() and _prio_may_exist()
 * (kernel/tracepoint.c, Linux 6.1: every way into tracepoint_add_func())
 * passes as the probe, its second argument: DWARF's call site value, a
 * function (register_trace_NAME()'s probe, inlined), or the caller's own
 * argument, what its callers pass (args.c).  Two callers pass a member:
 * trace_event_reg() an event's call->class->probe and ->perf_probe
 * (kernel/trace/trace_events.c:666-690), bpf_probe_register()
 * btp->bpf_func (kernel/trace/bpf_trace.c:2336-2357, through the inlined
 * __bpf_probe_register()), the event classes' probes, which
 * tracepoint_targets keeps by their names (these callers by name too).  Once, into k->probes (sorted); k->probes_ok false when another
 * caller's value is not known, or a function's address is taken;
 * k->probe_export, one of them a module may call (exported), whose
 * callers there register their own.
 */
static const char *const probe_registers[] = {
	"tracepoint_probe_register", "tracepoint_probe_register_prio",
	"tracepoint_probe_register_prio_may_exist",
};
static const char *const class_registers[] = { "trace_event_reg", "bpf_probe_register" };
enum { RSI = 4 };	/* DWARF's x86-64 number: the second argument */

static bool named_in(const char *name, const char *const *v, size_t n)
{
	size_t i;

	for (i = 0; name && i < n; i++)
		if (!strcmp(name, v[i]))
			return true;
	return false;
}

/* What caller passes as the probe in its call x of a registration, into
 * k->probes; false when not known. */
static bool probe_passed(struct ind_kernel *k, const struct sp_edge *x)
{
	const struct sp_func *caller = &k->r->g->funcs[x->from];
	struct ind_image *im = ind_image_of(k->r, x->from);
	struct dw_call_arg v = { .kind = DW_ARG_UNKNOWN };
	const uint32_t *ids;
	uint32_t id, n, i;
	bool outside;

	if (named_in(caller->name, probe_registers, COUNT(probe_registers)) ||
	    named_in(caller->name, class_registers, COUNT(class_registers)))
		return true;	/* one passing its own on; the class probes */
	if (!im || !im->reader || !caller->die)
		return false;
	v = dw_call_arg(im->reader, caller->die, x->pc, RSI);
	if (v.kind == DW_ARG_UNKNOWN && im->code)
		v = ind_code_arg(im, x->pc, RSI);
	if (v.kind == DW_ARG_ADDR && (id = ind_func_at(im, v.addr)) != SP_NONE) {
		ids_add(&k->probes, id);
		return true;
	}
	if (v.kind != DW_ARG_ENTRY || !ind_arg_values(k->r->args, x->from, v.reg, &ids, &n, &outside))
		return false;
	for (i = 0; i < n; i++)
		ids_add(&k->probes, ids[i]);
	if (outside && k->probe_export == SP_NONE)
		k->probe_export = x->from;
	return true;
}

static void read_probes(struct ind_kernel *k)
{
	struct sp_graph *g = k->r->g;
	uint32_t i, m, id, found = 0;
	size_t r;

	k->probes_read = true;
	k->probe_export = SP_NONE;
	k->probes_ok = k->r->sealed && k->r->args;
	for (r = 0; r < COUNT(probe_registers); r++)
		for (m = 0; m < k->r->nims; m++) {
			id = ind_kernel_func_named(k, m, sp_intern(g, probe_registers[r]));
			if (id == SP_NONE)
				continue;
			found++;
			if (k->r->taken[id])
				k->probes_ok = false;
			if (ind_exported(k, id) && k->probe_export == SP_NONE)
				k->probe_export = id;
		}
	for (i = 0; k->probes_ok && i < g->nedges; i++) {
		const struct sp_edge *x = &g->edges[i];

		if (x->flags || x->how != SP_RES_NONE ||
		    !named_in(g->funcs[x->to].name, probe_registers, COUNT(probe_registers)))
			continue;
		if (!probe_passed(k, x))
			k->probes_ok = false;
	}
	if (!found)
		k->probes_ok = false;
	k->probes.n = ind_unique_ids(k->probes.v, k->probes.n);
}

/* Is function id a class probe (trace_event_raw_event_CLASS ...)? */
static bool class_probe(const struct sp_func *f)
{
	size_t i;

	for (i = 0; f->name && i < COUNT(probe_kinds); i++)
		if (!strncmp(f->name, probe_kinds[i], strlen(probe_kinds[i])))
			return true;
	return false;
}

/* Leave out of out, from n on, the functions no image registers as a
 * probe (k->probes) but the class probes. */
static void keep_registered(struct ind_kernel *k, struct ids *out, uint32_t n)
{
	uint32_t i, kept = n;

	for (i = n; i < out->n; i++)
		if (ind_ids_has(k->probes.v, k->probes.n, out->v[i]) ||
		    class_probe(&k->r->g->funcs[out->v[i]]))
			out->v[kept++] = out->v[i];
	out->n = kept;
}

/*
 * The probes __traceiter_NAME(void *data, ARGS) may call: each is
 * called as void (*)(void *data, ARGS), and every way the kernel
 * registers one on NAME checks it has that type:
 *
 *	register_trace_NAME(void (*probe)(void *, ARGS), void *data)
 *		takes a typed pointer (include/linux/tracepoint.h);
 *	the event class's trace_event_raw_event_CLASS and perf_trace_CLASS,
 *		stored as void * in struct trace_event_class, are checked by
 *		check_trace_callback_type_NAME() (include/trace/trace_events.h);
 *	__bpf_trace_CLASS, stored as void * in __bpf_raw_tp_map, likewise
 *		(include/trace/bpf_probe.h).
 *
 * So the address-taken functions of prototype void(void *, ARGS) hold
 * them all, less the other classes' probes (drop_other_classes), and
 * the class's three (by name, through __bpf_raw_tp_map's class) are
 * added whatever their DWARF prototype reads.  A tracepoint of no class
 * known keeps every class's probe of its prototype.  Of those only the
 * functions the images register (read_probes) when each registration
 * is known; and when a module may register its own (the functions are
 * exported), the functions exported of the prototype and the modules'
 * code.  Assumed: no probe is assembly (no prototype) or passed to
 * tracepoint_probe_register() by a cast from another type.
 */
static enum sp_resolved tracepoint_targets(struct ind_kernel *k, const struct ind_site *s,
					   struct ids *out, const char **desc)
{
	struct ind_run *r = k->r;
	const struct sp_func *f = &r->g->funcs[s->func];
	struct ind_image *im = &r->ims[s->image];
	const char *proto, *tp = f->name + strlen(TRACEITER), *cls, *probe;
	struct sp_strbuf sb = { 0 };
	uint32_t bpf, id, i, n = out->n;

	if (strncmp(f->name, TRACEITER, strlen(TRACEITER)) ||
	    !(proto = ind_func_proto(r, im, s->func)) || strncmp(proto, "int(", 4))
		return SP_RES_NONE;
	if (!k->classes_read) {
		read_classes(k);
		k->classes_read = true;
	}
	sp_strbuf_addf(&sb, "void%s", proto + 3);
	probe = sp_intern(r->g, sb.buf);
	ind_kernel_exact_typed(k, probe, out);
	bpf = sp_u64map_get(&k->classes, s->func);
	if (bpf != SP_NONE)
		drop_other_classes(k, bpf, out, n);
	if (!k->probes_read)
		read_probes(k);
	if (k->probes_ok)
		keep_registered(k, out, n);
	if (k->probes_ok && k->probe_export != SP_NONE)
		ind_exported_args(k, k->probe_export, probe, out);
	cls = bpf != SP_NONE ? r->g->funcs[bpf].name + strlen(probe_kinds[2]) : tp;
	for (i = 0; i < 3; i++) {
		id = func_namedf(k, s->image, probe_kinds[i], cls);
		if (id != SP_NONE) {
			ids_add(out, id);
			k->class_probes++;
		}
	}
	sb.len = 0;
	sp_strbuf_addf(&sb, "__tracepoint_%s", tp);
	*desc = sp_intern(r->g, sb.buf);
	free(sb.buf);
	return SP_RES_TRACEPOINT;
}

/*
 * Hyper-V's hypercall page (arch/x86/hyperv/hv_init.c, 6.1): hyperv_init()
 * stores in the void *hv_hypercall_pg a page __vmalloc_node_range() gives
 * and hands its address to the hypervisor (HV_X64_MSR_HYPERCALL), which
 * fills it with its hypercall code; hv_suspend() and hyperv_cleanup()
 * set it NULL, hv_resume() restores it from
 * hv_hypercall_pg_saved, which holds only its old value.  hv_do_hypercall
 * & co (asm/mshyperv.h) call it through CALL_NOSPEC: no kernel function
 * is ever the target.  Recognised by the variable's name, a single word
 * (not a table), and only when the images put no function there (its
 * data word and every store to it known or of unknown origin give none):
 * the call goes to one stand-in of unknown frame, its totals partial.
 */
#define HYPERCALL_PAGE "hv_hypercall_pg"

static uint32_t hypercall_node(struct ind_kernel *k)
{
	struct sp_graph *g = k->r->g;
	struct sp_func *f;

	if (k->hypercall != SP_NONE)
		return k->hypercall;
	k->hypercall = sp_graph_add_func(g);
	f = &g->funcs[k->hypercall];
	f->name = sp_intern(g, SP_HYPERVISOR_CODE HYPERCALL_PAGE ">");
	f->qual = SP_QUAL_UNKNOWN;
	f->src = SP_SRC_NONE;
	f->flags = SP_F_HYPERVISOR;
	return k->hypercall;
}

static enum sp_resolved hypercall_targets(struct ind_kernel *k, const struct ind_site *s,
					  struct ids *out, const char **desc)
{
	const struct ind_image *im = &k->r->ims[s->image];
	const struct ind_var *v;
	const char *name;

	if (s->t.kind != IND_TK_WORD || out->n || !im->reader ||
	    !(v = ind_var_at(im, s->t.var)) || v->addr != s->t.first ||
	    v->size != im->data.word)
		return SP_RES_NONE;
	name = dw_die_name(im->reader, k->r->g, v->die);
	if (!name || strcmp(name, HYPERCALL_PAGE))
		return SP_RES_NONE;
	ids_add(out, hypercall_node(k));
	*desc = name;
	return SP_RES_TABLE;
}

enum sp_resolved ind_kernel_targets(struct ind_kernel *k, const struct ind_site *s,
				    struct ids *out, const char **desc)
{
	enum sp_resolved how = tracepoint_targets(k, s, out, desc);

	if (how == SP_RES_NONE)
		how = ind_bpf_targets(k, s, out, desc);
	return how != SP_RES_NONE ? how : hypercall_targets(k, s, out, desc);
}

