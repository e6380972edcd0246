/*
 * hv.c - Hyper-V's hypercall page in miniature (arch/x86/hyperv/hv_init.c,
 * asm/mshyperv.h): a void * global that holds a page an allocator
 * returns, called through with an asm call through its memory operand
 * and through a cast.  other_pg is of the same shape, not so named.
 */
void *hv_hypercall_pg;
void *hv_hypercall_pg_saved;
void *other_pg;

static char pool[2][4096] __attribute__((aligned(4096)));

__attribute__((noinline)) void *page_alloc(unsigned long n)
{
	__asm__ volatile("" : "+r"(n));
	return pool[n & 1];
}

__attribute__((noinline)) unsigned long hv_do_hypercall(unsigned long control)
{
	unsigned long status;

	if (!hv_hypercall_pg)
		return ~0ul;
	__asm__ volatile("call *%[pg]" : "=a"(status), "+c"(control)
			 : [pg] "m"(hv_hypercall_pg) : "memory", "rdx", "r8");
	return status;
}

__attribute__((noinline)) unsigned long hv_do_fast(unsigned long control)
{
	if (!hv_hypercall_pg)
		return ~0ul;
	return ((unsigned long (*)(unsigned long))hv_hypercall_pg)(control);
}

__attribute__((noinline)) unsigned long other_call(unsigned long control)
{
	if (!other_pg)
		return ~0ul;
	return ((unsigned long (*)(unsigned long))other_pg)(control);
}

__attribute__((noinline)) void hv_suspend(void)
{
	hv_hypercall_pg_saved = hv_hypercall_pg;
	hv_hypercall_pg = 0;
}

__attribute__((noinline)) void hv_resume(void)
{
	hv_hypercall_pg = hv_hypercall_pg_saved;
	hv_hypercall_pg_saved = 0;
}

__attribute__((noinline)) int deep(int x)
{
	volatile char buf[512];

	buf[x & 511] = (char)x;
	return buf[(x + 1) & 511];
}

int (*volatile taken)(int) = deep;

void _start(void)
{
	hv_hypercall_pg = page_alloc(0);
	other_pg = page_alloc(1);
	hv_do_hypercall(1);
	hv_do_fast(2);
	other_call(3);
	hv_suspend();
	hv_resume();
	taken(4);
	for (;;)
		;
}
