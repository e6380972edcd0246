/*
 * paint.c - runtime stack oracle, linked into a copy of a sample program.
 *
 * With ORACLE_ENTRIES="name arg...;name arg..." in the environment, a
 * constructor runs before the sample's main: each entry is called on a
 * fresh stack painted with a known pattern, and the high-water mark is
 * the distance from the stack pointer at the call instruction (so it
 * counts the return address, as GCC's .su does) down to the lowest byte
 * that no longer holds the pattern.  It prints "NAME<TAB>PEAK" per
 * entry and exits without running main.  It prints with dprintf: the
 * sample's printf is a stub (libc_stubs.c).  Without ORACLE_ENTRIES the
 * program runs as usual.
 *
 * Arguments (at most two, passed in registers): an integer, "s:TEXT" (a
 * pointer to a copy of TEXT) or "b:N" (a pointer to N + 1 zeroed bytes).
 * x86-64 only: the call onto the painted stack is a few lines of assembly,
 * so that no C frame of ours sits between the known stack top and the
 * entry.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define STACK_SIZE (1u << 20)

long oracle_call_on(void *top, void *fn, long a0, long a1);

/* rdi = the stack top (16-aligned), rsi = fn, rdx, rcx = its arguments.
 * rbp keeps the caller's stack; at the call, rsp is exactly top. */
__asm__(".text\n"
	".globl oracle_call_on\n"
	".type oracle_call_on, @function\n"
	"oracle_call_on:\n"
	"	push %rbp\n"
	"	mov %rsp, %rbp\n"
	"	mov %rdi, %rsp\n"
	"	mov %rsi, %rax\n"
	"	mov %rdx, %rdi\n"
	"	mov %rcx, %rsi\n"
	"	call *%rax\n"
	"	mov %rbp, %rsp\n"
	"	pop %rbp\n"
	"	ret\n"
	".size oracle_call_on, .-oracle_call_on\n");

/* A pattern that varies with the position, so that a frame storing a
 * constant byte is unlikely to look unwritten. */
static unsigned char paint_byte(size_t i)
{
	return (unsigned char)((i * 167u + 91u) ^ (i >> 8));
}

static long parse_arg(const char *s, char **argv)
{
	if (!strncmp(s, "s:", 2))
		return (long)strdup(s + 2);
	if (!strncmp(s, "b:", 2))
		return (long)calloc(strtoul(s + 2, NULL, 10) + 1, 1);
	if (!strcmp(s, "argv"))
		return (long)argv;
	return strtol(s, NULL, 0);
}

static int run_entry(unsigned char *stack, char *spec, char **argv)
{
	char *save = NULL, *name = strtok_r(spec, " ", &save), *tok;
	long args[2] = { 0, 0 };
	void *fn;
	size_t i, low;
	int n = 0;

	if (!name)
		return 0;
	while ((tok = strtok_r(NULL, " ", &save)) && n < 2)
		args[n++] = parse_arg(tok, argv);
	fn = dlsym(RTLD_DEFAULT, name);
	if (!fn) {
		dprintf(2, "oracle: no symbol '%s'\n", name);
		return -1;
	}
	for (i = 0; i < STACK_SIZE; i++)
		stack[i] = paint_byte(i);
	oracle_call_on(stack + STACK_SIZE, fn, args[0], args[1]);
	for (low = 0; low < STACK_SIZE && stack[low] == paint_byte(low); low++)
		;
	dprintf(1, "%s\t%zu\n", name, (size_t)STACK_SIZE - low);
	return 0;
}

__attribute__((constructor)) static void oracle_run(int argc, char **argv)
{
	const char *env = getenv("ORACLE_ENTRIES");
	char *list, *save = NULL, *spec;
	unsigned char *stack;
	int status = 0;

	(void)argc;
	if (!env)
		return;
	stack = mmap(NULL, STACK_SIZE, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	list = strdup(env);
	if (stack == MAP_FAILED || !list)
		_exit(3);
	for (spec = strtok_r(list, ";", &save); spec; spec = strtok_r(NULL, ";", &save))
		if (run_entry(stack, spec, argv))
			status = 3;
	_exit(status);
}
