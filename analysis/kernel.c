/*
 * kernel.c - a kernel's entry points by class: each class runs on its own
 * stack with its own budget (the task's thread stack for system calls,
 * the per-CPU IRQ stack for interrupts), so each is summarised apart.
 *
 * Classes are recognised by the names the kernel's entry macros generate
 * (SYSCALL_DEFINEn, DEFINE_IDTENTRY*), by a syscall wrapper symbol that is
 * only an alias of the function (SP_F_SYSCALL: SYSCALL_DEFINE0's
 * __do_sys_fork, sys_ni_posix_timers) and, for device interrupt handlers
 * whatever their name, by the irq_handler_t type (SP_F_IRQ_HANDLER).
 */
#include "analysis/analysis.h"

#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"

static bool has_prefix(const char *s, const char *p)
{
	return s && !strncmp(s, p, strlen(p));
}

static bool is_exception_entry(const char *s)
{
	return has_prefix(s, "asm_exc_") || has_prefix(s, "exc_") ||
	       has_prefix(s, "asm_noist_exc_") || has_prefix(s, "noist_exc_");
}

/* x86 DEFINE_IDTENTRY_IRQ/SYSVEC entry points and their C bodies. */
static bool is_irq_entry(const char *s)
{
	return has_prefix(s, "asm_sysvec_") || has_prefix(s, "sysvec_") ||
	       (s && (!strcmp(s, "asm_common_interrupt") || !strcmp(s, "common_interrupt") ||
		      !strcmp(s, "asm_spurious_interrupt") || !strcmp(s, "spurious_interrupt")));
}

static enum sp_kclass classify(const struct sp_func *f, bool wrappers)
{
	const char *s = f->symbol ? f->symbol : f->name;

	if (!(f->flags & SP_F_HAS_CODE))
		return SP_KCLASS_NONE;
	if (is_exception_entry(s))
		return SP_KCLASS_EXCEPTION;
	if (f->flags & SP_F_IRQ_THREAD)
		return SP_KCLASS_IRQ_THREAD;
	if (is_irq_entry(s) || (f->flags & SP_F_IRQ_HANDLER))
		return SP_KCLASS_IRQ;
	if ((sp_syscall_wrapper_name(s) || (f->flags & SP_F_SYSCALL)) || (!wrappers && has_prefix(s, "sys_")))
		return SP_KCLASS_SYSCALL;
	return SP_KCLASS_NONE;
}

static int by_total(const void *pa, const void *pb, void *ctx)
{
	const struct sp_graph *g = ctx;
	const struct sp_func *a = &g->funcs[*(const uint32_t *)pa];
	const struct sp_func *b = &g->funcs[*(const uint32_t *)pb];
	const char *na = sp_func_label(a), *nb = sp_func_label(b);

	if (a->res.total != b->res.total)
		return a->res.total < b->res.total ? 1 : -1;
	return strcmp(na ? na : "", nb ? nb : "");
}

/*
 * The functions a stack switch in C code enters run on the IRQ stack:
 * entries of that class.  The kernel's C code switches stacks through
 * call_on_irqstack (__do_softirq, __sysvec_apic_timer_interrupt); its
 * assembly switches to other stacks: the entry code to the thread stack
 * (asm_exc_*, asm_sysvec_* from user mode), startup_xen to the boot
 * stack, rewind_stack_and_make_dead to the top of the task's stack.
 * Their callees' class is their own.  C code is what DWARF describes, and
 * only the kernel's own (its image and modules): a shared library's C code
 * that switches stacks (glibc's, into exit and setcontext) runs in a
 * program, on no IRQ stack.
 */
static uint8_t *switched_in(const struct sp_graph *g)
{
	uint8_t *in = sp_xcalloc((size_t)g->nfuncs + 1, 1);
	uint32_t i;

	for (i = 0; i < g->nswitches; i++)
		if (g->funcs[g->switches[i].from].die && !g->funcs[g->switches[i].from].lib)
			in[g->switches[i].to] = 1;
	return in;
}

void sp_kernel_entries(const struct sp_graph *g, struct sp_kernel_entries *out)
{
	uint8_t *irq_stack = switched_in(g);
	bool wrappers = false;
	uint32_t i;
	int c;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < g->nfuncs && !wrappers; i++)
		wrappers = (g->funcs[i].flags & SP_F_HAS_CODE) &&
			   ((g->funcs[i].flags & SP_F_SYSCALL) ||
			    sp_syscall_wrapper_name(g->funcs[i].symbol ? g->funcs[i].symbol
								       : g->funcs[i].name));
	for (i = 0; i < g->nfuncs; i++) {
		enum sp_kclass k = classify(&g->funcs[i], wrappers);
		size_t *n;

		if (k == SP_KCLASS_NONE && irq_stack[i] && (g->funcs[i].flags & SP_F_HAS_CODE))
			k = SP_KCLASS_IRQ;
		n = &out->n[k];
		if (k == SP_KCLASS_NONE)
			continue;
		SP_ALLOC_GROW(out->ids[k], *n + 1, out->cap[k]);
		out->ids[k][(*n)++] = i;
	}
	free(irq_stack);
	for (c = 0; c < SP_KCLASS__COUNT; c++)
		if (out->n[c])
			qsort_r(out->ids[c], out->n[c], sizeof(uint32_t), by_total, (void *)g);
}

void sp_kernel_entries_release(struct sp_kernel_entries *k)
{
	int c;

	for (c = 0; c < SP_KCLASS__COUNT; c++)
		free(k->ids[c]);
	memset(k, 0, sizeof(*k));
}

const char *sp_kclass_name(enum sp_kclass c)
{
	switch (c) {
	case SP_KCLASS_SYSCALL:
		return "syscall";
	case SP_KCLASS_IRQ:
		return "irq";
	case SP_KCLASS_EXCEPTION:
		return "exception";
	case SP_KCLASS_IRQ_THREAD:
		return "irq_thread";
	default:
		return NULL;
	}
}

const char *sp_kclass_stack(enum sp_kclass c)
{
	switch (c) {
	case SP_KCLASS_SYSCALL:
		return "the task's thread stack";
	case SP_KCLASS_IRQ:
		return "the per-CPU IRQ stack";
	case SP_KCLASS_EXCEPTION:
		return "the thread stack, or an IST stack (NMI, #DF, #MC, #DB)";
	case SP_KCLASS_IRQ_THREAD:
		return "the thread stack of the IRQ's kernel thread";
	default:
		return NULL;
	}
}
