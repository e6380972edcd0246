/*
 * A member called through a pointer member (t1163): struct ops is held
 * by pointer in struct inner, which struct call and struct other embed
 * and a standalone object is of.  Which ops each way reaches:
 *
 *   via_call   c->ev.ops->run: the ops of calls[] (ops_a), the one
 *              set_call() stores through a struct call * (ops_c), the
 *              one set_inner() stores through a struct inner *, which
 *              may be inside a struct call (ops_e): run_a, run_c, run_e;
 *   via_other  o->ev.ops->run: others[]'s ops_d, and ops_e: run_d, run_e;
 *   via_inner  e->ops->run: any struct ops: run_a ... run_e (standalone's
 *              ops_b is only in a struct inner of its own).
 *
 * Built without libc (-nostdlib): no function of its stored elsewhere
 * joins the keys.
 */
struct ops { long pad[5]; int (*run)(int); };
struct inner { const char *name; const struct ops *ops; };
struct call { int id; struct inner ev; };
struct other { long flags[3]; struct inner ev; };

#define RUN(name, size)							\
	__attribute__((noinline)) static int name(int x)		\
	{								\
		volatile char buf[size];				\
		buf[x & 63] = (char)x;					\
		return buf[(x + 1) & 63];				\
	}
RUN(run_a, 100)
RUN(run_b, 2000)
RUN(run_c, 300)
RUN(run_d, 400)
RUN(run_e, 500)

const struct ops ops_a = { { 0 }, run_a };
const struct ops ops_b = { { 0 }, run_b };
const struct ops ops_c = { { 0 }, run_c };
const struct ops ops_d = { { 0 }, run_d };
const struct ops ops_e = { { 0 }, run_e };

struct call calls[2] = { { 1, { "one", &ops_a } }, { 2, { "two", &ops_a } } };
struct other others[1] = { { { 0, 0, 0 }, { "other", &ops_d } } };
struct inner standalone = { "alone", &ops_b };

__attribute__((noinline)) void set_call(struct call *c)
{
	c->ev.ops = &ops_c;
}

__attribute__((noinline)) void set_inner(struct inner *e)
{
	e->ops = &ops_e;
}

__attribute__((noinline)) int via_call(struct call *c, int x)
{
	return c->ev.ops->run(x) + 1;
}

__attribute__((noinline)) int via_other(struct other *o, int x)
{
	return o->ev.ops->run(x) + 2;
}

__attribute__((noinline)) int via_inner(struct inner *e, int x)
{
	return e->ops->run(x) + 3;
}

static struct call dyn;

__attribute__((noinline)) int main(int argc, char **argv)
{
	int n;

	(void)argv;
	set_call(&dyn);
	if (argc > 2)
		set_inner(&dyn.ev);
	n = via_call(&dyn, argc) + via_call(&calls[argc & 1], argc);
	n += via_other(&others[0], argc);
	n += via_inner(argc > 1 ? &standalone : &calls[0].ev, argc);
	return n & 1;
}

void _start(void)
{
	long rc = main(1, 0);

	__asm__ volatile("syscall" : : "a"(60L), "D"(rc));
	__builtin_unreachable();
}
