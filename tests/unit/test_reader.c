/* Unit tests of dwarf/reader.c and the questions asked through it
 * (types.c, proto.c): DIEs by offset in a hand-made DWARF 4 unit, their
 * children, origin chains and their cycles, types under typedefs and
 * qualifiers, an irq_handler_t's shape and prototypes, in a
 * little-endian and a big-endian object alike. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "dwarf/internal.h"
#include "tests/unit/bytes.h"

/* The DIEs of the unit, by what they are. */
enum {
	D_INT, D_IRQRET, D_VOIDP, D_CONST, D_VOLATILE, D_HANDLER, D_PARAM0, D_CONCRETE,
	D_CYCLE, D_FNTYPE, D_FNPTR, D_CB, D_LOOP, D_STRUCT, D_MEMBER_A, D_MEMBER_FN,
	D_MEMBER_ANON, D_FUNC, D__COUNT
};

struct unit {
	struct bytes info, abbrev;
	uint64_t off[D__COUNT];
	struct dw_image dw;
	struct dw_state st;
	struct sp_graph g;
	uint64_t unit_off;
};

enum { A_CU = 1, A_BASE, A_TYPEDEF, A_PTR, A_VOIDPTR, A_CONST, A_VOLATILE, A_SUB,
       A_PARAM, A_CONCRETE, A_FNTYPE, A_UNSPEC, A_FUNC, A_LOCATED, A_BLOCK, A_ORIGIN,
       A_STRUCT, A_MEMBER, A_ANON_MEMBER };

static void abbrevs(struct bytes *b)
{
	abbrev(b, A_CU, DW_TAG_compile_unit, true, DW_AT_language, DW_FORM_data1, 0);
	abbrev(b, A_BASE, DW_TAG_base_type, false, DW_AT_name, DW_FORM_string,
	       DW_AT_byte_size, DW_FORM_data1, 0);
	abbrev(b, A_TYPEDEF, DW_TAG_typedef, false, DW_AT_name, DW_FORM_string,
	       DW_AT_type, DW_FORM_ref4, 0);
	abbrev(b, A_PTR, DW_TAG_pointer_type, false, DW_AT_byte_size, DW_FORM_data1,
	       DW_AT_type, DW_FORM_ref4, 0);
	abbrev(b, A_VOIDPTR, DW_TAG_pointer_type, false, DW_AT_byte_size, DW_FORM_data1, 0);
	abbrev(b, A_CONST, DW_TAG_const_type, false, DW_AT_type, DW_FORM_ref4, 0);
	abbrev(b, A_VOLATILE, DW_TAG_volatile_type, false, DW_AT_type, DW_FORM_ref4, 0);
	abbrev(b, A_SUB, DW_TAG_subprogram, true, DW_AT_name, DW_FORM_string,
	       DW_AT_prototyped, DW_FORM_flag_present, DW_AT_type, DW_FORM_ref4, 0);
	abbrev(b, A_PARAM, DW_TAG_formal_parameter, false, DW_AT_type, DW_FORM_ref4, 0);
	abbrev(b, A_CONCRETE, DW_TAG_subprogram, false, DW_AT_abstract_origin, DW_FORM_ref4, 0);
	abbrev(b, A_FNTYPE, DW_TAG_subroutine_type, true, DW_AT_prototyped,
	       DW_FORM_flag_present, DW_AT_type, DW_FORM_ref4, 0);
	abbrev(b, A_UNSPEC, DW_TAG_unspecified_parameters, false, 0);
	abbrev(b, A_FUNC, DW_TAG_subprogram, true, DW_AT_name, DW_FORM_string, 0);
	abbrev(b, A_LOCATED, DW_TAG_variable, false, DW_AT_type, DW_FORM_ref4,
	       DW_AT_location, DW_FORM_exprloc, 0);
	abbrev(b, A_BLOCK, DW_TAG_lexical_block, true, DW_AT_low_pc, DW_FORM_addr,
	       DW_AT_high_pc, DW_FORM_data4, 0);
	abbrev(b, A_ORIGIN, DW_TAG_formal_parameter, false, DW_AT_abstract_origin,
	       DW_FORM_ref4, DW_AT_location, DW_FORM_exprloc, 0);
	abbrev(b, A_STRUCT, DW_TAG_structure_type, true, DW_AT_name, DW_FORM_string,
	       DW_AT_byte_size, DW_FORM_data1, 0);
	abbrev(b, A_MEMBER, DW_TAG_member, false, DW_AT_name, DW_FORM_string, DW_AT_type,
	       DW_FORM_ref4, DW_AT_data_member_location, DW_FORM_data1, 0);
	abbrev(b, A_ANON_MEMBER, DW_TAG_member, false, DW_AT_type, DW_FORM_ref4,
	       DW_AT_data_member_location, DW_FORM_data1, 0);
	put(b, 0, 1);
}

/* A DIE of abbreviation code, its offset as D_what, and ref4 values
 * (offsets of the DIEs named, patched in build() once all are placed). */
struct fix {
	size_t at;
	int to;
};

static void die(struct unit *t, int what, unsigned code)
{
	if (what >= 0)
		t->off[what] = t->info.n;
	put_uleb(&t->info, code);
}

static void ref(struct unit *t, struct fix *fixes, size_t *n, int to)
{
	fixes[(*n)++] = (struct fix){ t->info.n, to };
	put(&t->info, 0, 4);
}

static void build(struct unit *t, bool msb)
{
	struct fix fixes[32];
	size_t nfix = 0, i;

	memset(t, 0, sizeof(*t));
	t->info.msb = t->abbrev.msb = msb;
	abbrevs(&t->abbrev);
	t->info.n = 4;
	put(&t->info, 4, 2);
	put(&t->info, 0, 4);
	put(&t->info, 8, 1);
	die(t, -1, A_CU);
	put(&t->info, DW_LANG_C99, 1);
	die(t, D_INT, A_BASE);
	put_str(&t->info, "int");
	put(&t->info, 4, 1);
	die(t, D_IRQRET, A_TYPEDEF);
	put_str(&t->info, "irqreturn_t");
	ref(t, fixes, &nfix, D_INT);
	die(t, D_VOIDP, A_VOIDPTR);
	put(&t->info, 8, 1);
	die(t, D_CONST, A_CONST);
	ref(t, fixes, &nfix, D_IRQRET);
	die(t, D_VOLATILE, A_VOLATILE);
	ref(t, fixes, &nfix, D_CONST);
	die(t, D_HANDLER, A_SUB);
	put_str(&t->info, "handler");
	ref(t, fixes, &nfix, D_IRQRET);
	die(t, D_PARAM0, A_PARAM);
	ref(t, fixes, &nfix, D_INT);
	die(t, -1, A_PARAM);
	ref(t, fixes, &nfix, D_VOIDP);
	put(&t->info, 0, 1);
	die(t, D_CONCRETE, A_CONCRETE);
	ref(t, fixes, &nfix, D_HANDLER);
	die(t, D_CYCLE, A_CONCRETE);
	ref(t, fixes, &nfix, D_CYCLE);
	die(t, D_FNTYPE, A_FNTYPE);
	ref(t, fixes, &nfix, D_INT);
	die(t, -1, A_PARAM);
	ref(t, fixes, &nfix, D_VOLATILE);
	die(t, -1, A_UNSPEC);
	put(&t->info, 0, 1);
	die(t, D_FNPTR, A_PTR);
	put(&t->info, 8, 1);
	ref(t, fixes, &nfix, D_FNTYPE);
	die(t, D_CB, A_TYPEDEF);
	put_str(&t->info, "cb");
	ref(t, fixes, &nfix, D_FNPTR);
	die(t, D_LOOP, A_TYPEDEF);
	put_str(&t->info, "loop");
	ref(t, fixes, &nfix, D_LOOP);
	/* struct ops { int a; cb fn; int (anonymous) at 16; } */
	die(t, D_STRUCT, A_STRUCT);
	put_str(&t->info, "ops");
	put(&t->info, 24, 1);
	die(t, D_MEMBER_A, A_MEMBER);
	put_str(&t->info, "a");
	ref(t, fixes, &nfix, D_INT);
	put(&t->info, 0, 1);
	die(t, D_MEMBER_FN, A_MEMBER);
	put_str(&t->info, "fn");
	ref(t, fixes, &nfix, D_CB);
	put(&t->info, 8, 1);
	die(t, D_MEMBER_ANON, A_ANON_MEMBER);
	ref(t, fixes, &nfix, D_INT);
	put(&t->info, 16, 1);
	put(&t->info, 0, 1);
	/* a function: a pointer in r5 all along, a function pointer in r3
	 * (its value) in the block at 0x100, r2 in the one at 0x200, and a
	 * parameter typed by its abstract origin in r1 */
	die(t, D_FUNC, A_FUNC);
	put_str(&t->info, "f");
	die(t, -1, A_LOCATED);
	ref(t, fixes, &nfix, D_VOIDP);
	put_uleb(&t->info, 1);
	put(&t->info, DW_OP_reg5, 1);
	die(t, -1, A_BLOCK);
	put(&t->info, 0x100, 8);
	put(&t->info, 0x10, 4);
	die(t, -1, A_LOCATED);
	ref(t, fixes, &nfix, D_FNPTR);
	put_uleb(&t->info, 3);
	put(&t->info, DW_OP_breg3, 1);
	put(&t->info, 0, 1);
	put(&t->info, DW_OP_stack_value, 1);
	put(&t->info, 0, 1);
	die(t, -1, A_BLOCK);
	put(&t->info, 0x200, 8);
	put(&t->info, 0x10, 4);
	die(t, -1, A_LOCATED);
	ref(t, fixes, &nfix, D_FNPTR);
	put_uleb(&t->info, 1);
	put(&t->info, DW_OP_reg2, 1);
	put(&t->info, 0, 1);
	die(t, -1, A_ORIGIN);
	ref(t, fixes, &nfix, D_PARAM0);
	put_uleb(&t->info, 1);
	put(&t->info, DW_OP_reg1, 1);
	put(&t->info, 0, 1);
	put(&t->info, 0, 1);
	set_len(&t->info, 0, t->info.n - 4);
	for (i = 0; i < nfix; i++)
		set_len(&t->info, fixes[i].at, t->off[fixes[i].to]);

	sp_graph_init(&t->g);
	t->dw.g = &t->g;
	t->dw.st = &t->st;
	t->st.secs.msb = msb;
	t->st.secs.info.data = t->info.v;
	t->st.secs.info.size = t->info.n;
	t->st.secs.abbrev.data = t->abbrev.v;
	t->st.secs.abbrev.size = t->abbrev.n;
	t->st.secs_ready = true;
	t->dw.ncus = 1;
	t->st.cu_unit_off = &t->unit_off;
}

static void release(struct unit *t)
{
	dw_reader_close(t->st.reader);
	sp_graph_release(&t->g);
}

static void test_entries(void **state)
{
	struct unit t;
	struct dw_reader *r;
	struct dw_entry e, c, up;
	struct dw_kids k;
	int n = 0;

	(void)state;
	build(&t, false);
	r = dw_reader(&t.dw);
	assert_non_null(r);
	assert_true(dw_entry_at(r, t.off[D_HANDLER], &e));
	assert_int_equal(e.d.ab->tag, DW_TAG_subprogram);
	assert_string_equal(dw_entry_name(&e), "handler");
	assert_int_equal(dw_entry_ref(&e, DW_AT_type), t.off[D_IRQRET]);
	dw_kids_begin(&e, &k);
	while (dw_kids_next(&k, &c) > 0) {
		assert_int_equal(c.d.ab->tag, DW_TAG_formal_parameter);
		n++;
	}
	assert_int_equal(n, 2);
	assert_int_equal(k.end, t.off[D_CONCRETE]);
	/* a DIE with no children has none */
	assert_true(dw_entry_at(r, t.off[D_INT], &e));
	dw_kids_begin(&e, &k);
	assert_int_equal(dw_kids_next(&k, &c), 0);
	/* past the unit, in the middle of a DIE's values */
	assert_false(dw_entry_at(r, t.info.n + 10, &e));
	assert_false(dw_entry_at(r, 0, &e));

	/* the origin chain: the concrete copy ends at its abstract DIE */
	assert_int_equal(dw_entry_follow(r, t.off[D_CONCRETE], 0, &e), 1);
	assert_int_equal(e.d.off, t.off[D_HANDLER]);
	assert_int_equal(dw_entry_follow(r, t.off[D_CONCRETE], DW_AT_type, &e), 1);
	assert_int_equal(e.d.off, t.off[D_HANDLER]);
	assert_int_equal(dw_entry_follow(r, t.off[D_INT], DW_AT_type, &e), 0);
	/* ... and one at itself is a cycle */
	assert_int_equal(dw_entry_follow(r, t.off[D_CYCLE], 0, &e), -1);
	assert_true(dw_entry_at(r, t.off[D_CYCLE], &e));
	assert_int_equal(dw_entry_origin(r, &e, &up), 1);
	release(&t);
}

static void check_questions(bool msb)
{
	struct unit t;
	struct dw_reader *r;
	struct dw_entry e;
	const char *name = NULL;

	build(&t, msb);
	r = dw_reader(&t.dw);
	assert_non_null(r);
	/* volatile const irqreturn_t: an int, named by its typedef */
	assert_true(dw_type_strip(r, t.off[D_VOLATILE], &e, &name));
	assert_int_equal(e.d.off, t.off[D_INT]);
	assert_string_equal(name, "irqreturn_t");
	assert_true(dw_type_strip(r, t.off[D_FNPTR], &e, NULL));
	assert_int_equal(e.d.ab->tag, DW_TAG_pointer_type);
	/* void, and a typedef of itself */
	assert_false(dw_type_strip(r, 0, &e, &name));
	assert_false(dw_type_strip(r, t.off[D_LOOP], &e, &name));

	assert_true(dw_is_irq_handler(r, t.off[D_HANDLER]));
	assert_false(dw_is_irq_handler(r, t.off[D_FNTYPE]));
	/* the concrete copy has no type of its own: its origin is asked */
	assert_false(dw_is_irq_handler(r, t.off[D_CONCRETE]));

	assert_string_equal(dw_func_proto(r, &t.g, t.off[D_CONCRETE]), "int(int,void*)");
	assert_ptr_equal(dw_func_proto(r, &t.g, t.off[D_HANDLER]),
			 dw_func_proto(r, &t.g, t.off[D_CONCRETE]));
	assert_null(dw_func_proto(r, &t.g, t.off[D_CYCLE]));
	assert_null(dw_func_proto(r, &t.g, t.off[D_INT]));
	/* through the typedef and the pointer: qualifiers are no part of it */
	assert_string_equal(dw_call_proto(r, &t.g, t.off[D_CB]), "int(int,...)");
	assert_null(dw_call_proto(r, &t.g, t.off[D_LOOP]));
	release(&t);
}

static void test_questions(void **state)
{
	(void)state;
	check_questions(false);
}

static void test_questions_msb(void **state)
{
	(void)state;
	check_questions(true);
}

struct located {
	uint64_t type[8], lo[8], hi[8];
	uint8_t reg[8];
	int n;
	uint64_t skip;		/* a type not wanted */
};

static bool want(void *ctx, uint64_t type)
{
	return type != ((struct located *)ctx)->skip;
}

static void found(void *ctx, uint64_t lo, uint64_t hi, uint8_t reg, int64_t off,
		  uint64_t type)
{
	struct located *l = ctx;

	assert_int_equal(off, 0);

	l->lo[l->n] = lo;
	l->hi[l->n] = hi;
	l->reg[l->n] = reg;
	l->type[l->n++] = type;
}

/* The registers a function's variables are in, for a pc in one block. */
static void check_reg_vars(bool msb)
{
	struct unit t;
	struct dw_reader *r;
	struct located l = { 0 };
	const struct dw_reg_vars q = { .wanted = want, .found = found, .ctx = &l };
	uint64_t pc = 0x108;

	build(&t, msb);
	r = dw_reader(&t.dw);
	dw_func_reg_vars(r, t.off[D_FUNC], &pc, 1, &q);
	assert_int_equal(l.n, 3);
	assert_int_equal(l.reg[0], 5);
	assert_int_equal(l.type[0], t.off[D_VOIDP]);
	assert_int_equal(l.lo[0], 0);
	assert_int_equal(l.hi[0], UINT64_MAX);
	assert_int_equal(l.reg[1], 3);
	assert_int_equal(l.type[1], t.off[D_FNPTR]);
	assert_int_equal(l.reg[2], 1);
	assert_int_equal(l.type[2], t.off[D_INT]);
	assert_int_equal(dw_decl_type(r, t.off[D_CONCRETE]), t.off[D_IRQRET]);
	/* a type the caller does not want is not located */
	l.n = 0;
	l.skip = t.off[D_INT];
	pc = 0x208;
	dw_func_reg_vars(r, t.off[D_FUNC], &pc, 1, &q);
	assert_int_equal(l.n, 2);
	assert_int_equal(l.reg[1], 2);
	release(&t);
}

static void test_reg_vars(void **state)
{
	(void)state;
	check_reg_vars(false);
	check_reg_vars(true);
}

struct members {
	struct dw_member v[4];
	int n;
};

static void add_member(void *ctx, const struct dw_member *m)
{
	struct members *ms = ctx;

	if (ms->n < 4)
		ms->v[ms->n] = *m;
	ms->n++;
}

/* A struct's members by offset, type and DIE; each one's name read
 * apart from its DIE (none for the anonymous one), interned. */
static void test_members(void **state)
{
	struct members ms = { .n = 0 };
	struct dw_reader *r;
	struct unit t;

	(void)state;
	build(&t, false);
	r = dw_reader(&t.dw);
	assert_true(dw_type_members(r, t.off[D_STRUCT], add_member, &ms));
	assert_int_equal(ms.n, 3);
	assert_int_equal(ms.v[0].off, 0);
	assert_int_equal(ms.v[0].type, t.off[D_INT]);
	assert_int_equal(ms.v[0].die, t.off[D_MEMBER_A]);
	assert_int_equal(ms.v[1].off, 8);
	assert_int_equal(ms.v[1].type, t.off[D_CB]);
	assert_int_equal(ms.v[1].die, t.off[D_MEMBER_FN]);
	assert_int_equal(ms.v[2].off, 16);
	assert_int_equal(ms.v[2].die, t.off[D_MEMBER_ANON]);
	assert_ptr_equal(dw_member_name(r, &t.g, ms.v[0].die), sp_intern(&t.g, "a"));
	assert_ptr_equal(dw_member_name(r, &t.g, ms.v[1].die), sp_intern(&t.g, "fn"));
	assert_null(dw_member_name(r, &t.g, ms.v[2].die));
	assert_null(dw_member_name(r, &t.g, t.info.n + 8));	/* no DIE there */
	release(&t);
}

/* Where a DIE's unit ends, from the units' offsets the walk listed:
 * the next one's start, all past the last one's, 0 before the first. */
static void test_unit_end(void **state)
{
	uint64_t offs[3] = { 11, 100, 250 };
	struct dw_state st = { .cu_unit_off = offs };
	struct dw_image dw = { .st = &st, .cu_first = 7, .ncus = 3 };

	(void)state;
	assert_int_equal(dw_unit_end(&dw, 5), 0);
	assert_int_equal(dw_unit_end(&dw, 11), 100);
	assert_int_equal(dw_unit_end(&dw, 99), 100);
	assert_int_equal(dw_unit_end(&dw, 100), 250);
	assert_int_equal(dw_unit_end(&dw, 249), 250);
	assert_true(dw_unit_end(&dw, 250) == UINT64_MAX);
	assert_true(dw_unit_end(&dw, 1000000) == UINT64_MAX);
	dw.ncus = 0;
	assert_int_equal(dw_unit_end(&dw, 50), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_entries),
		cmocka_unit_test(test_questions),
		cmocka_unit_test(test_questions_msb),
		cmocka_unit_test(test_reg_vars),
		cmocka_unit_test(test_unit_end),
		cmocka_unit_test(test_members),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
