/* Unit tests of analysis/kernel.c and --entry-glob: kernel entry classes. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "stackprof.h"

static uint32_t add(struct sp_graph *g, const char *sym, uint32_t flags, uint64_t total)
{
	uint32_t id = sp_graph_add_func(g);

	g->funcs[id].name = g->funcs[id].symbol = sp_intern(g, sym);
	g->funcs[id].flags = flags;
	g->funcs[id].res.total = total;
	g->funcs[id].res.bounded = true;
	return id;
}

static bool in_class(const struct sp_kernel_entries *k, enum sp_kclass c, uint32_t id)
{
	size_t i;

	for (i = 0; i < k->n[c]; i++)
		if (k->ids[c][i] == id)
			return true;
	return false;
}

static void test_classes(void **state)
{
	struct sp_graph g;
	struct sp_kernel_entries k;
	uint32_t read, write, plain_sys, irq_typed, common, sysvec, exc, asm_exc,
		 not_handler, declared, fork, threaded;

	(void)state;
	sp_graph_init(&g);
	read = add(&g, "__x64_sys_read", SP_F_HAS_CODE, 100);
	write = add(&g, "__x64_sys_write", SP_F_HAS_CODE, 300);
	/* with arch wrappers present, sys_* are the inner bodies */
	plain_sys = add(&g, "sys_ni_syscall", SP_F_HAS_CODE, 10);
	irq_typed = add(&g, "i8042_interrupt", SP_F_HAS_CODE | SP_F_IRQ_HANDLER, 50);
	/* given only as a thread_fn: the IRQ's kernel thread runs it */
	threaded = add(&g, "pciehp_ist", SP_F_HAS_CODE | SP_F_IRQ_HANDLER | SP_F_IRQ_THREAD, 90);
	common = add(&g, "common_interrupt", SP_F_HAS_CODE, 70);
	sysvec = add(&g, "sysvec_apic_timer_interrupt", SP_F_HAS_CODE, 60);
	exc = add(&g, "exc_page_fault", SP_F_HAS_CODE, 80);
	asm_exc = add(&g, "asm_exc_nmi", SP_F_HAS_CODE, 5);
	/* a name ending in _interrupt is not enough: the type says */
	not_handler = add(&g, "perf_event_account_interrupt", SP_F_HAS_CODE, 40);
	declared = add(&g, "__x64_sys_open", SP_F_EXTERNAL, 0);
	/* SYSCALL_DEFINE0: __x64_sys_fork is an alias the loader saw */
	fork = add(&g, "__do_sys_fork", SP_F_HAS_CODE | SP_F_SYSCALL, 20);
	sp_kernel_entries(&g, &k);
	assert_int_equal(k.n[SP_KCLASS_SYSCALL], 3);
	assert_int_equal(k.ids[SP_KCLASS_SYSCALL][2], fork);
	/* worst first */
	assert_int_equal(k.ids[SP_KCLASS_SYSCALL][0], write);
	assert_int_equal(k.ids[SP_KCLASS_SYSCALL][1], read);
	assert_false(in_class(&k, SP_KCLASS_SYSCALL, plain_sys));
	assert_false(in_class(&k, SP_KCLASS_SYSCALL, declared));
	assert_int_equal(k.n[SP_KCLASS_IRQ], 3);
	assert_int_equal(k.ids[SP_KCLASS_IRQ][0], common);
	assert_true(in_class(&k, SP_KCLASS_IRQ, sysvec));
	assert_true(in_class(&k, SP_KCLASS_IRQ, irq_typed));
	assert_false(in_class(&k, SP_KCLASS_IRQ, not_handler));
	assert_int_equal(k.n[SP_KCLASS_IRQ_THREAD], 1);
	assert_int_equal(k.ids[SP_KCLASS_IRQ_THREAD][0], threaded);
	assert_string_equal(sp_kclass_name(SP_KCLASS_IRQ_THREAD), "irq_thread");
	assert_int_equal(k.n[SP_KCLASS_EXCEPTION], 2);
	assert_int_equal(k.ids[SP_KCLASS_EXCEPTION][0], exc);
	assert_true(in_class(&k, SP_KCLASS_EXCEPTION, asm_exc));
	assert_string_equal(sp_kclass_name(SP_KCLASS_IRQ), "irq");
	sp_kernel_entries_release(&k);
	sp_graph_release(&g);
}

/* A stack switch in C code (call_on_irqstack) enters the IRQ stack; one
 * in assembly (startup_xen, rewind_stack_and_make_dead) another, and one
 * in a shared library's C code (glibc's setcontext) no kernel's. */
static void test_switched_in(void **state)
{
	struct sp_graph g;
	struct sp_kernel_entries k;
	uint32_t do_softirq, softirq, rewind, dead, startup, start_kernel, setctx, target;

	(void)state;
	sp_graph_init(&g);
	do_softirq = add(&g, "do_softirq", SP_F_HAS_CODE, 30);
	g.funcs[do_softirq].die = 0x1234;
	softirq = add(&g, "__do_softirq", SP_F_HAS_CODE, 20);
	g.funcs[softirq].die = 0x2345;
	rewind = add(&g, "rewind_stack_and_make_dead", SP_F_HAS_CODE, 8);
	dead = add(&g, "make_task_dead", SP_F_HAS_CODE, 90);
	g.funcs[dead].die = 0x3456;
	startup = add(&g, "startup_xen", SP_F_HAS_CODE, 8);
	start_kernel = add(&g, "xen_start_kernel", SP_F_HAS_CODE, 95);
	g.funcs[start_kernel].die = 0x4567;
	sp_graph_add_switch(&g, do_softirq, softirq, 0x10);
	sp_graph_add_switch(&g, rewind, dead, 0x20);
	sp_graph_add_switch(&g, startup, start_kernel, 0x30);
	setctx = add(&g, "setcontext", SP_F_HAS_CODE, 16);
	g.funcs[setctx].die = 0x5678;
	g.funcs[setctx].lib = "libc.so.6";
	target = add(&g, "exit", SP_F_HAS_CODE, 16);
	g.funcs[target].die = 0x6789;
	g.funcs[target].lib = "libc.so.6";
	sp_graph_add_switch(&g, setctx, target, 0x40);
	sp_kernel_entries(&g, &k);
	assert_int_equal(k.n[SP_KCLASS_IRQ], 1);
	assert_int_equal(k.ids[SP_KCLASS_IRQ][0], softirq);
	sp_kernel_entries_release(&k);
	sp_graph_release(&g);
}

static void test_sys_without_wrappers(void **state)
{
	struct sp_graph g;
	struct sp_kernel_entries k;
	uint32_t s;

	(void)state;
	sp_graph_init(&g);
	s = add(&g, "sys_read", SP_F_HAS_CODE, 10);
	add(&g, "system_helper", SP_F_HAS_CODE, 10);
	sp_kernel_entries(&g, &k);
	assert_int_equal(k.n[SP_KCLASS_SYSCALL], 1);
	assert_int_equal(k.ids[SP_KCLASS_SYSCALL][0], s);
	sp_kernel_entries_release(&k);
	sp_graph_release(&g);
}

static void test_wrapper_names(void **state)
{
	(void)state;
	assert_true(sp_syscall_wrapper_name("__x64_sys_read"));
	assert_true(sp_syscall_wrapper_name("__arm64_sys_openat"));
	assert_false(sp_syscall_wrapper_name("__se_sys_read"));
	assert_false(sp_syscall_wrapper_name("ksys_read"));
	assert_false(sp_syscall_wrapper_name(NULL));
}

static void test_entry_glob(void **state)
{
	struct sp_graph g;
	struct sp_err err = { { 0 } };
	uint32_t *ids = NULL, a, b;
	size_t n = 0, cap = 0;

	(void)state;
	sp_graph_init(&g);
	a = add(&g, "__x64_sys_read", SP_F_HAS_CODE, 1);
	add(&g, "ksys_read", SP_F_HAS_CODE, 1);
	b = add(&g, "__x64_sys_write", SP_F_HAS_CODE, 1);
	add(&g, "__x64_sys_open", SP_F_EXTERNAL, 0);	/* no code: never a root */
	assert_int_equal(sp_find_entries_glob(&g, "__x64_sys_*", &ids, &n, &cap, &err), 0);
	assert_int_equal(n, 2);
	assert_int_equal(ids[0], a);
	assert_int_equal(ids[1], b);
	assert_int_equal(sp_find_entries_glob(&g, "*_irq_handler", &ids, &n, &cap, &err), -1);
	assert_string_equal(err.msg, "no function matches '*_irq_handler'");
	assert_int_equal(n, 2);
	free(ids);
	sp_graph_release(&g);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_classes),
		cmocka_unit_test(test_switched_in),
		cmocka_unit_test(test_sys_without_wrappers),
		cmocka_unit_test(test_wrapper_names),
		cmocka_unit_test(test_entry_glob),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
