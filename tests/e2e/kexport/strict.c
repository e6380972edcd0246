/*
 * A kernel in miniature for t1265: two members written with values of
 * unknown origin (setup()'s parameters: setup is called only through
 * struct setup_ops, so no caller says what it passes), whose calls fall
 * back to their prototypes.
 *
 *   run_job   j->run(j), void (*)(struct job *): job_run_a, job_run_b,
 *             which start_kernel hands setup; not other_cb (void(struct
 *             other *)) nor void_cb (void(void *)), of its class but not
 *             of its prototype: C's type checks keep them out;
 *   note_job  j->note(j->state), void (*)(unsigned int): kind_cb, a
 *             void(enum kind), which C converts to it without a cast
 *             (GCC makes enum kind an unsigned int).
 *
 * The exit status says which callbacks ran: 43, job_run_a's 40 on argc
 * and kind_cb's 2.  export.h makes the image a kernel (__ksymtab_); with
 * NO_KSYMTAB it is a program, whose calls keep the class.  No libc.
 */
#include "export.h"

struct job {
	void (*run)(struct job *);
	void (*note)(unsigned int);
	int state;
};
struct other { void (*cb)(struct other *); void (*anyp)(void *); int n; };
enum kind { K_A, K_B };

static volatile int noted;

__attribute__((noipa)) void job_run_a(struct job *j) { j->state += 40; }
__attribute__((noipa)) void job_run_b(struct job *j)
{
	volatile char buf[300];

	buf[j->state & 255] = 1;
	j->state = buf[3];
}
__attribute__((noipa)) void other_cb(struct other *o)
{
	volatile char buf[500];

	buf[o->n & 255] = 2;
	o->n = buf[5];
}
__attribute__((noipa)) void void_cb(void *p)
{
	volatile char buf[700];

	buf[*(int *)p & 255] = 3;
	*(int *)p = buf[7];
}
__attribute__((noipa)) void kind_cb(enum kind k) { noted = k == K_A ? 1 : 2; }
EXPORT_SYMBOL(job_run_a);

const struct other others = { .cb = other_cb, .anyp = void_cb };

__attribute__((noipa)) void set_run(struct job *j, void (*f)(struct job *)) { j->run = f; }
__attribute__((noipa)) void set_note(struct job *j, void (*f)(unsigned int)) { j->note = f; }
__attribute__((noipa)) void setup(struct job *j, void (*f)(struct job *), void (*g)(unsigned int))
{
	set_run(j, f);
	set_note(j, g);
}
struct setup_ops {
	void (*setup)(struct job *, void (*)(struct job *), void (*)(unsigned int));
};
const struct setup_ops setups = { .setup = setup };

__attribute__((noipa)) void run_job(struct job *j) { j->run(j); }
__attribute__((noipa)) void note_job(struct job *j) { j->note((unsigned int)j->state); }

__attribute__((noipa)) int start_kernel(int argc)
{
	const struct setup_ops *volatile s = &setups;
	struct job j = { .state = argc };

	s->setup(&j, argc > 5 ? job_run_b : job_run_a, kind_cb);
	run_job(&j);
	note_job(&j);
	return j.state + noted;
}

/* the entry: the stack aligned as a call's, argc, exit(start_kernel()) */
__asm__(".globl _start\n_start:\n\tmov (%rsp),%edi\n\tand $-16,%rsp\n"
	"\tcall start_kernel\n\tmov %eax,%edi\n\tmov $60,%eax\n\tsyscall\n");
