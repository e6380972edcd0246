/*
 * kernel.c - kernel entry points the names alone do not show: interrupt
 * handlers, by their DWARF type (dwarf/types.c), and system calls known
 * by an alias.  A handler that a call of request_threaded_irq() (or any
 * function with a thread_fn parameter of type irq_handler_t) gives as
 * its thread_fn, and none as a handler, runs in the IRQ's kernel thread
 * (kernel/irq/manage.c irq_thread()), on that thread's stack: the call
 * site's DW_TAG_call_site_parameter says what it passes.
 */
#include "callgraph/internal.h"

#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"

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

/* The DWARF registers of the first six integer arguments (SysV x86-64). */
static const uint8_t x86_64_args[] = { 5, 4, 1, 2, 8, 9 };

/* Per function: the positions of its thread_fn and handler parameters
 * (request_threaded_irq() and its wrappers), -1 for none; and whether a
 * call gives it as a thread_fn, as a handler. */
struct irq_roles {
	int8_t *thread_param, *handler_param;
	uint8_t *as_thread, *as_handler;
};

/* Type the image's functions: irq handlers, and the parameters of those
 * that take one. */
static void mark_image(struct cg_image *img, struct sp_graph *g, struct irq_roles *x)
{
	struct dw_reader *r = dw_reader(cg_dwarf(img));
	uint32_t i;

	mark_syscall_aliases(img, g);
	for (i = img->func_first; r && i < img->func_end && i < g->nfuncs; i++) {
		struct sp_func *f = &g->funcs[i];
		/* an out-of-line copy's type and parameters are on its origin */
		uint64_t off = f->origin_die ? f->origin_die : f->die;
		int th, hd;

		if (!off || !(f->flags & SP_F_HAS_CODE))
			continue;
		if (dw_is_irq_handler(r, off))
			f->flags |= SP_F_IRQ_HANDLER;
		dw_irq_params(r, off, &th, &hd);
		x->thread_param[i] = (int8_t)(th < (int)sizeof(x86_64_args) ? th : -1);
		x->handler_param[i] = (int8_t)(hd < (int)sizeof(x86_64_args) ? hd : -1);
	}
	cg_dwarf_done(img);	/* every function's DIE was read */
}

/* The function of img a call with return address pc in caller passes
 * as its argument pos, by the call site's DWARF; SP_NONE when unknown. */
static uint32_t passed_func(struct cg_image *img, struct dw_reader *r, const struct sp_func *caller,
			    uint64_t pc, int pos)
{
	struct dw_call_arg a = dw_call_arg(r, caller->die, pc, x86_64_args[pos]);

	return a.kind == DW_ARG_ADDR && a.addr ? sp_u64map_get(&img->func_by_addr, a.addr) : SP_NONE;
}

/* A direct call of a function with a thread_fn or handler parameter,
 * and the image its caller is in. */
struct irq_call {
	uint32_t image, edge;
};

static int by_image(const void *pa, const void *pb)
{
	const struct irq_call *a = pa, *b = pb;

	return (a->image > b->image) - (a->image < b->image);
}

/* The calls that may give a function as a thread_fn or a handler, by
 * their caller's image: every edge looked at once. */
static struct irq_call *irq_calls(struct cg_image *const *imgs, size_t n,
				  const struct sp_graph *g, const struct irq_roles *x,
				  size_t *ncalls)
{
	uint32_t *owner = sp_xmalloc((g->nfuncs + 1) * sizeof(*owner)), i;
	struct irq_call *v = NULL;
	size_t k, cap = 0;

	memset(owner, 0xff, (g->nfuncs + 1) * sizeof(*owner));	/* SP_NONE */
	for (k = 0; k < n; k++)
		for (i = imgs[k]->func_first; i < imgs[k]->func_end && i < g->nfuncs; i++)
			owner[i] = (uint32_t)k;
	*ncalls = 0;
	for (i = 0; i < g->nedges; i++) {
		const struct sp_edge *e = &g->edges[i];

		if (e->flags || !e->pc || !g->funcs[e->from].die || owner[e->from] == SP_NONE ||
		    (x->thread_param[e->to] < 0 && x->handler_param[e->to] < 0))
			continue;
		SP_ALLOC_GROW(v, *ncalls + 1, cap);
		v[(*ncalls)++] = (struct irq_call){ owner[e->from], i };
	}
	free(owner);
	if (*ncalls)
		qsort(v, *ncalls, sizeof(*v), by_image);
	return v;
}

/* What the calls c[0..n) of one image pass those functions. */
static void scan_calls(struct cg_image *img, const struct sp_graph *g, struct irq_roles *x,
		       const struct irq_call *c, size_t n)
{
	struct dw_reader *r;
	uint32_t id;
	size_t i;

	if (img->elf.arch->id != SP_ARCH_X86_64 || !(r = dw_reader(cg_dwarf(img))))
		return;
	for (i = 0; i < n; i++) {
		const struct sp_edge *e = &g->edges[c[i].edge];
		const struct sp_func *caller = &g->funcs[e->from];

		if (x->thread_param[e->to] >= 0 &&
		    (id = passed_func(img, r, caller, e->pc, x->thread_param[e->to])) != SP_NONE)
			x->as_thread[id] = 1;
		if (x->handler_param[e->to] >= 0 &&
		    (id = passed_func(img, r, caller, e->pc, x->handler_param[e->to])) != SP_NONE)
			x->as_handler[id] = 1;
	}
	cg_dwarf_done(img);
}

void cg_mark_kernel_entries(struct cg_image *const *imgs, size_t n, struct sp_graph *g)
{
	struct irq_roles x;
	struct irq_call *calls;
	uint32_t i;
	size_t k, j, ncalls;

	x.thread_param = sp_xmalloc(g->nfuncs + 1);
	x.handler_param = sp_xmalloc(g->nfuncs + 1);
	memset(x.thread_param, -1, g->nfuncs + 1);
	memset(x.handler_param, -1, g->nfuncs + 1);
	x.as_thread = sp_xcalloc(g->nfuncs + 1, 1);
	x.as_handler = sp_xcalloc(g->nfuncs + 1, 1);
	for (k = 0; k < n; k++)
		mark_image(imgs[k], g, &x);
	calls = irq_calls(imgs, n, g, &x, &ncalls);
	for (k = 0; k < ncalls; k = j) {
		for (j = k; j < ncalls && calls[j].image == calls[k].image; j++)
			;
		scan_calls(imgs[calls[k].image], g, &x, calls + k, j - k);
	}
	free(calls);
	for (i = 0; i < g->nfuncs; i++)
		if ((g->funcs[i].flags & SP_F_IRQ_HANDLER) && x.as_thread[i] && !x.as_handler[i])
			g->funcs[i].flags |= SP_F_IRQ_THREAD;
	free(x.thread_param);
	free(x.handler_param);
	free(x.as_thread);
	free(x.as_handler);
}
