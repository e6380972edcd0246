#!/bin/sh
# --indirect=types: a callback passed on the stack (the seventh argument
# and on) and stored into a member holds what the callers put in that
# slot (the kernel's kmem_cache_create_usercopy(name, ..., ctor): its
# create_cache()'s s->ctor = ctor, called by setup_object()).  The load
# of the slot is the caller's value when no write of the function
# reaches it and no stack address below it leaves the registers; each
# caller's one write of its outgoing slot reaching the call (a push, a
# mov) says what it passes: a constant, or its own argument passed on
# (create()'s push %r8, followed to its callers as a register's).
#
#   setup        c->ctor(o): field, c1 (through create) and c2, and r1:
#                main's push $r1 for init_pool is a constant stored into
#                the frame where no local is, which every member of its
#                prototype may hold (doc/indirect.md)
#   pool_release p->release(o): init_pool() stores its stack argument
#                too, but a global pointer takes its address (called
#                from anywhere): the prototype's every address-taken
#                function
#
# A build with -finstrument-functions is traced: every pair a run takes
# must be among the site's targets (tests/e2e/icall_check.py).
. tests/e2e/lib.sh
[ "$(uname -m)" = x86_64 ] || skip "the instruction pass is x86-64's"
command -v gcc >/dev/null || skip "no gcc"

b=$OUT/build
mkdir -p "$b"
cat >"$b/cu.c" <<'C'
#define NOIPA __attribute__((noipa))
struct cache { long size; void (*ctor)(void *); };
struct pool { long size; void (*release)(void *); };
struct cache caches[4];
struct pool pools[4];
int ncaches, npools;
long total;
NOIPA struct cache *alloc_cache(void) { return &caches[ncaches++ & 3]; }
NOIPA struct pool *alloc_pool(void) { return &pools[npools++ & 3]; }
NOIPA struct cache *create_usercopy(const char *name, long size, long align, long flags,
				    long useroffset, long usersize, void (*ctor)(void *))
{
	struct cache *c = alloc_cache();

	c->size = size + align + flags + useroffset + usersize + (long)name;
	c->ctor = ctor;
	return c;
}
NOIPA struct cache *create(const char *name, long size, long align, long flags,
			   void (*ctor)(void *))
{
	return create_usercopy(name, size, align, flags, 0, 0, ctor);
}
NOIPA struct pool *init_pool(long a, long b, long c, long d, long e, long f,
			     void (*release)(void *))
{
	struct pool *p = alloc_pool();

	p->size = a + b + c + d + e + f;
	p->release = release;
	return p;
}
NOIPA void c1(void *p) { total += (long)p; }
NOIPA void c2(void *p) { total -= (long)p; }
NOIPA void c3(void *p) { total ^= (long)p; }
NOIPA void r1(void *p) { total |= (long)p; }
NOIPA void setup(struct cache *c, void *o) { if (c->ctor) c->ctor(o); }
NOIPA void pool_release(struct pool *p, void *o) { p->release(o); }
struct pool *(*volatile init_hook)(long, long, long, long, long, long, void (*)(void *)) = init_pool;
void (*volatile hook)(void *) = c3;
int main(int argc, char **argv)
{
	struct cache *a = create("a", 1, 2, 3, c1);
	struct cache *b = create_usercopy("b", 1, 2, 3, 4, 5, c2);
	struct pool *p = init_pool(1, 2, 3, 4, 5, 6, r1);

	setup(argc > 5 ? b : a, argv);
	setup(b, argv);
	pool_release(p, argv);
	hook(argv);
	return (int)(total & 1);
}
C
icall_build cu || { finish; exit; }
# what this test is about: the callback loaded from the caller's slot
objdump -d --no-show-raw-insn "$b/cu" | awk '/<create_usercopy>:/,/ret/' | grep -q 'mov *0x[0-9a-f]*(%rsp),%r' ||
	skip "gcc passed create_usercopy's ctor otherwise"

run_sp --json --indirect=types --no-libs "$b/cu"
expect_rc 0 "--indirect=types"
j=$OUT/cu.json
cp "$OUT/stdout" "$j"
expect_eq "setup" "$(icall_sites "$j" setup)" '[["field", "struct cache.ctor", ["c1", "c2", "r1"]]]'
expect_eq "pool_release" "$(icall_sites "$j" pool_release)" \
	'[["prototype", "void(void*)", ["c1", "c2", "c3", "r1"]]]'
icall_traced 4
finish
