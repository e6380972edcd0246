/*
 * The helpers that call a program's callback (t1245), laid out as Linux
 * 6.1 lays them out (kernel/bpf/bpf_iter.c, helpers.c): bpf_loop by its
 * proto's func, bpf_for_each_map_elem through its map's
 * map_for_each_callback, the timer's callback from bpf_timer_cb; and
 * calls of the same type elsewhere, or of another type in those.
 */
#include <stdlib.h>

typedef unsigned long long u64;
typedef u64 (*bpf_callback_t)(u64, u64, u64, u64, u64);
#define NOINLINE __attribute__((noinline))
#define FRAME(n, x) volatile char buf[n]; buf[(x) & 15] = 1; return buf[2]

struct bpf_func_proto { u64 (*func)(u64, u64, u64, u64, u64); int ret_type; };
NOINLINE u64 bpf_demo_helper(u64 a, u64 b, u64 c, u64 d, u64 e) { FRAME(64, a + b + c + d + e); }
const struct bpf_func_proto bpf_demo_helper_proto = { bpf_demo_helper, 1 };

/* bpf_loop: its callback, and a hook of another type (not the callback) */
void (*loop_hook)(int);
NOINLINE u64 bpf_loop(u64 nr, u64 fn, u64 ctx, u64 flags, u64 e)
{
	bpf_callback_t callback = (bpf_callback_t)fn;
	u64 i, ret = 0;

	(void)flags, (void)e;
	if (loop_hook)
		loop_hook((int)nr);
	for (i = 0; i < nr && !ret; i++)
		ret = callback(i, ctx, 0, 0, 0);
	return i;
}
const struct bpf_func_proto bpf_loop_proto = { bpf_loop, 1 };

/* bpf_for_each_map_elem: the map's map_for_each_callback calls it */
struct bpf_map;
struct bpf_map_ops {
	int (*map_for_each_callback)(struct bpf_map *map, bpf_callback_t cb, void *ctx, u64 flags);
};
struct bpf_map { const struct bpf_map_ops *ops; };
NOINLINE int demo_for_each(struct bpf_map *map, bpf_callback_t cb, void *ctx, u64 flags)
{
	(void)flags;
	return (int)cb((u64)map, 0, (u64)ctx, 0, 0);
}
const struct bpf_map_ops demo_map_ops = { demo_for_each };
NOINLINE u64 bpf_for_each_map_elem(u64 map, u64 fn, u64 ctx, u64 flags, u64 e)
{
	struct bpf_map *m = (struct bpf_map *)map;

	(void)e;
	return m->ops->map_for_each_callback(m, (bpf_callback_t)fn, (void *)ctx, flags);
}
const struct bpf_func_proto bpf_for_each_map_elem_proto = { bpf_for_each_map_elem, 1 };

/* a timer's callback: bpf_timer_set_callback stores, bpf_timer_cb calls */
struct bpf_hrtimer { void *callback_fn; u64 value; };
struct bpf_hrtimer *the_timer;
NOINLINE u64 bpf_timer_set_callback(u64 timer, u64 fn, u64 c, u64 d, u64 e)
{
	(void)c, (void)d, (void)e;
	((struct bpf_hrtimer *)timer)->callback_fn = (void *)fn;
	return 0;
}
const struct bpf_func_proto bpf_timer_set_callback_proto = { bpf_timer_set_callback, 1 };
NOINLINE int bpf_timer_cb(struct bpf_hrtimer *t)
{
	bpf_callback_t callback_fn = (bpf_callback_t)t->callback_fn;

	if (!callback_fn)
		return 0;
	callback_fn(0, t->value, 0, 0, 0);
	return 1;
}

/* the same type, in a function that is none of those: stays wide */
NOINLINE u64 other_caller(u64 fn, u64 x)
{
	bpf_callback_t cb = (bpf_callback_t)fn;

	return cb(x, 0, 0, 0, 0) + 1;
}
NOINLINE void some_hook(int x) { volatile char b[16]; b[x & 7] = 1; }

int main(int argc, char **argv)
{
	struct bpf_map m = { &demo_map_ops };
	struct bpf_hrtimer t = { 0, 0 };
	u64 r = 0;

	the_timer = &t;
	if (argc > 3)
		loop_hook = some_hook;
	r += bpf_loop_proto.func(0, (u64)bpf_demo_helper, 0, 0, 0);
	r += bpf_for_each_map_elem_proto.func((u64)&m, (u64)bpf_demo_helper, 0, 0, 0);
	r += bpf_timer_set_callback_proto.func((u64)&t, (u64)bpf_demo_helper, 0, 0, 0);
	r += (u64)bpf_timer_cb(the_timer);
	if (argc > 2)
		r += other_caller(strtoull(argv[1], 0, 0), (u64)argc);
	return (int)r;
}
