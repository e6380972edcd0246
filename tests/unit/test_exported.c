/* Unit tests of indirect/exported.c: a call through a struct member
 * nothing in the images stores, on a kernel (resolved_by "exported"). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "common/strbuf.h"
#include "graph_fixture.h"
#include "indirect/kernel.h"

/* A kernel of one image: the functions below, and the keys of struct
 * ops (get at 0, empty; put at 8, escaped; run at 16, holding run_a). */
struct fixture {
	struct sp_graph g;
	struct ind_run r;
	struct ind_kernel k;
	bool kernel_image[1];
	const char *link;		/* int(struct dev*) */
	uint32_t small, big, other, asm_fn, local, run_a;
	uint32_t get, put, run;
};

static uint32_t typed(struct fixture *x, const char *name, const char *proto)
{
	uint32_t id = fs(&x->g, name, 16);

	x->g.funcs[id].proto = proto ? sp_intern(&x->g, proto) : NULL;
	return id;
}

static void setup(struct fixture *x, bool kernel)
{
	uint8_t marks[16] = { 0 };

	memset(x, 0, sizeof(*x));
	sp_graph_init(&x->g);
	x->link = sp_intern(&x->g, "int(struct dev*)");
	x->small = typed(x, "link_small", "int(struct dev*)");
	x->big = typed(x, "link_big", "int(struct dev*)");
	/* the same class (object pointers are one), not the same prototype */
	x->other = typed(x, "link_void", "int(void*)");
	x->asm_fn = typed(x, "asm_fn", NULL);
	x->local = typed(x, "probe_local", "int(struct dev*)");	/* not exported */
	x->run_a = typed(x, "run_a", "int(struct dev*)");
	marks[x->small] = marks[x->big] = marks[x->other] = marks[x->asm_fn] = 1;

	x->r.g = &x->g;
	ind_keys_init(&x->r.keys);
	x->get = ind_key(&x->r.keys, sp_intern(&x->g, "ops"), 0, sp_intern(&x->g, "get"),
			 x->link);
	x->put = ind_key(&x->r.keys, sp_intern(&x->g, "ops"), 8, sp_intern(&x->g, "put"),
			 x->link);
	x->r.keys.v[x->put].escaped = true;
	x->run = ind_key(&x->r.keys, sp_intern(&x->g, "ops"), 16, sp_intern(&x->g, "run"),
			 x->link);
	ind_key_add(&x->r.keys, x->run, x->run_a);
	ind_keys_seal(&x->r.keys);

	/* what ind_exported_init finds in the images' __ksymtab_ symbols */
	x->k.r = &x->r;
	x->k.kernel = kernel;
	x->kernel_image[0] = kernel;
	x->k.kernel_image = x->kernel_image;
	if (kernel) {
		ind_fallback_init(&x->k.exported, &x->g, marks, true);
		sp_u64map_init(&x->k.modules, 16);
	}
}

static void teardown(struct fixture *x)
{
	x->k.kernel_image = NULL;	/* the fixture's */
	ind_exported_release(&x->k);
	ind_keys_release(&x->r.keys);
	sp_graph_release(&x->g);
}

static enum sp_resolved targets(struct fixture *x, uint32_t key, const char *proto,
				struct ids *out, const char **desc)
{
	struct ind_site s = { .func = x->local };

	s.t.kind = IND_TK_KEY;
	s.t.key = key;
	s.t.proto = proto;
	out->n = 0;
	*desc = "struct ops.get";
	return ind_exported_targets(&x->k, &s, out, desc);
}

static bool has(const struct ids *v, uint32_t id)
{
	uint32_t i;

	for (i = 0; i < v->n; i++)
		if (v->v[i] == id)
			return true;
	return false;
}

/* A member nothing stores: the exported functions of its prototype (not
 * of its class), those of none known, and the modules' code, a stand-in
 * of unknown frame named after the member; one per member. */
static void test_unstored(void **state)
{
	struct fixture x;
	struct ids v = { 0 };
	const char *desc;
	uint32_t mc;

	(void)state;
	setup(&x, true);
	assert_int_equal(targets(&x, x.get, x.link, &v, &desc), SP_RES_EXPORTED);
	assert_int_equal(v.n, 4);
	assert_true(has(&v, x.small) && has(&v, x.big) && has(&v, x.asm_fn));
	assert_false(has(&v, x.other) || has(&v, x.local) || has(&v, x.run_a));
	mc = v.v[3];
	assert_string_equal(x.g.funcs[mc].name, "<module code: struct ops.get>");
	assert_int_equal(x.g.funcs[mc].qual, SP_QUAL_UNKNOWN);
	assert_true(x.g.funcs[mc].flags & SP_F_NOT_GIVEN);
	/* a second site through it reaches the same stand-in */
	assert_int_equal(targets(&x, x.get, x.link, &v, &desc), SP_RES_EXPORTED);
	assert_int_equal(v.v[3], mc);
	/* no prototype known: every exported function */
	assert_int_equal(targets(&x, x.get, NULL, &v, &desc), SP_RES_EXPORTED);
	assert_int_equal(v.n, 5);
	assert_true(has(&v, x.other));
	free(v.v);
	teardown(&x);
}

/* A member written with a value of unknown origin, or holding what is
 * stored, or of a struct some function's local is (written there unseen,
 * as work_on_cpu's work_for_cpu from its parameter), is not this case:
 * NONE, nothing added (the fallback stays). */
static void test_stored(void **state)
{
	struct fixture x;
	struct ids v = { 0 };
	const char *desc;

	(void)state;
	setup(&x, true);
	assert_int_equal(targets(&x, x.put, x.link, &v, &desc), SP_RES_NONE);
	assert_int_equal(targets(&x, x.run, x.link, &v, &desc), SP_RES_NONE);
	x.r.keys.v[x.get].local = true;
	assert_int_equal(targets(&x, x.get, x.link, &v, &desc), SP_RES_NONE);
	assert_int_equal(v.n, 0);
	assert_int_equal(x.g.nfuncs, 6);
	free(v.v);
	teardown(&x);
}

/* A program (no image exports to modules): NONE, the prototype fallback. */
static void test_program(void **state)
{
	struct fixture x;
	struct ids v = { 0 };
	const char *desc;

	(void)state;
	setup(&x, false);
	assert_int_equal(targets(&x, x.get, x.link, &v, &desc), SP_RES_NONE);
	assert_int_equal(v.n, 0);
	free(v.v);
	teardown(&x);
}

/* A total through the stand-in is partial (a lower bound, bounded), and
 * says which member leads to code not given. */
static void test_partial(void **state)
{
	struct fixture x;
	struct ids v = { 0 };
	struct sp_strbuf t = { 0 };
	const char *desc;
	uint32_t caller, i;

	(void)state;
	setup(&x, true);
	caller = fs(&x.g, "link_up", 32);
	assert_int_equal(targets(&x, x.get, x.link, &v, &desc), SP_RES_EXPORTED);
	for (i = 0; i < v.n; i++)
		call(&x.g, caller, v.v[i]);
	solve(&x.g);
	assert_true(res(&x.g, caller)->bounded);
	assert_true(res(&x.g, caller)->partial);
	assert_int_equal(res(&x.g, caller)->total, 48);
	assert_true(sp_reason_text(&x.g, caller, SP_CAUSE_UNKNOWN, &t));
	assert_string_equal(t.buf, "calls module code through struct ops.get: "
			    "pass the modules to analyse them");
	free(t.buf);
	free(v.v);
	teardown(&x);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_unstored),
		cmocka_unit_test(test_stored),
		cmocka_unit_test(test_program),
		cmocka_unit_test(test_partial),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
