/* Unit tests of dwarf/expr.c: DWARF expressions as GCC and Clang write
 * them, read an operation at a time, the shapes the stage asks about,
 * either byte order, and what cut or unknown operations give. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "dwarf/internal.h"
#include "tests/unit/bytes.h"

static const struct dw_opsizes le8 = { .addr = 8, .off = 4, .version = 5 };
static const struct dw_opsizes be4 = { .addr = 4, .off = 4, .version = 4, .msb = true };

/* Every kind of operand, in one expression read op by op. */
static void test_operands(void **state)
{
	struct bytes b = { 0 };
	struct dw_bytes r;
	struct dw_op op;

	(void)state;
	put(&b, DW_OP_addr, 1);
	put(&b, 0x401000, 8);
	put(&b, DW_OP_const2s, 1);
	put(&b, 0xfffe, 2);
	put(&b, DW_OP_breg7, 1);
	put_sleb(&b, -16);
	put(&b, DW_OP_bregx, 1);
	put_uleb(&b, 33);
	put_sleb(&b, 8);
	put(&b, DW_OP_entry_value, 1);
	put_uleb(&b, 1);
	put(&b, DW_OP_reg5, 1);
	put(&b, DW_OP_const_type, 1);
	put_uleb(&b, 0x2a);
	put(&b, 4, 1);
	put(&b, 7, 4);
	put(&b, DW_OP_implicit_pointer, 1);
	put(&b, 0x1234, 4);
	put_sleb(&b, 0);
	put(&b, DW_OP_GNU_variable_value, 1);
	put(&b, 0x99, 4);
	put(&b, DW_OP_stack_value, 1);
	dw_bytes_init(&r, b.v, b.n, false);
	assert_true(dw_op_read(&r, &le8, &op));
	assert_int_equal(op.code, DW_OP_addr);
	assert_int_equal(op.arg[0], 0x401000);
	assert_true(dw_op_read(&r, &le8, &op));
	assert_int_equal((int64_t)op.arg[0], -2);
	assert_true(dw_op_read(&r, &le8, &op));
	assert_int_equal((int64_t)op.arg[0], -16);
	assert_true(dw_op_read(&r, &le8, &op));
	assert_int_equal(op.arg[0], 33);
	assert_int_equal(op.arg[1], 8);
	assert_true(dw_op_read(&r, &le8, &op));
	assert_int_equal(op.len, 1);
	assert_int_equal(op.block[0], DW_OP_reg5);
	assert_true(dw_op_read(&r, &le8, &op));
	assert_int_equal(op.arg[0], 0x2a);
	assert_int_equal(op.len, 4);
	assert_true(dw_op_read(&r, &le8, &op));
	assert_int_equal(op.arg[0], 0x1234);
	assert_true(dw_op_read(&r, &le8, &op));
	assert_int_equal(op.arg[0], 0x99);
	assert_true(dw_op_read(&r, &le8, &op));
	assert_int_equal(op.code, DW_OP_stack_value);
	assert_int_equal(dw_bytes_left(&r), 0);
	assert_true(dw_expr_valid(b.v, b.n, &le8));
	/* cut anywhere inside an operand: not an expression */
	assert_false(dw_expr_valid(b.v, 5, &le8));
	/* an operation of no DWARF version */
	b.v[9] = 0xe5;
	assert_false(dw_expr_valid(b.v, b.n, &le8));
}

static void test_addr(void **state)
{
	struct bytes b = { .msb = true };
	uint64_t a = 0;

	(void)state;
	put(&b, DW_OP_addr, 1);
	put(&b, 0x8000f000, 4);
	assert_true(dw_expr_addr(b.v, b.n, &be4, &a));
	assert_int_equal(a, 0x8000f000);
	/* read as an 8-byte address it is cut */
	assert_false(dw_expr_addr(b.v, b.n, &le8, &a));
	/* something after it: a computed address, not a fixed one */
	put(&b, DW_OP_plus_uconst, 1);
	put(&b, 8, 1);
	assert_false(dw_expr_addr(b.v, b.n, &be4, &a));
}

static uint8_t reg_of(const unsigned char *p, size_t n)
{
	return dw_expr_reg(p, n, &le8);
}

static void test_reg(void **state)
{
	static const unsigned char reg3[] = { DW_OP_reg3 };
	static const unsigned char regx[] = { DW_OP_regx, 0x21 };
	static const unsigned char regx_big[] = { DW_OP_regx, 0xff, 0x01 };
	static const unsigned char breg[] = { DW_OP_breg5, 0, DW_OP_stack_value };
	static const unsigned char breg8[] = { DW_OP_breg5, 8, DW_OP_stack_value };
	static const unsigned char breg_mem[] = { DW_OP_breg5, 0 };
	static const unsigned char reg_piece[] = { DW_OP_reg3, DW_OP_piece, 8 };
	static const unsigned char cut[] = { DW_OP_regx };

	(void)state;
	assert_int_equal(reg_of(reg3, sizeof(reg3)), 3);
	assert_int_equal(reg_of(regx, sizeof(regx)), 0x21);
	assert_int_equal(reg_of(regx_big, sizeof(regx_big)), DW_REG_NONE);
	assert_int_equal(reg_of(breg, sizeof(breg)), 5);
	/* a value the register's plus 8, the word the register points at,
	 * a piece of a variable: none is the variable itself */
	assert_int_equal(reg_of(breg8, sizeof(breg8)), DW_REG_NONE);
	assert_int_equal(reg_of(breg_mem, sizeof(breg_mem)), DW_REG_NONE);
	assert_int_equal(reg_of(reg_piece, sizeof(reg_piece)), DW_REG_NONE);
	assert_int_equal(reg_of(cut, sizeof(cut)), DW_REG_NONE);
	assert_int_equal(reg_of(reg3, 0), DW_REG_NONE);
}

/* The register plus an offset as a value (GCC's container_of): the
 * register and the offset, signed; the register itself has offset 0. */
static void test_reg_plus(void **state)
{
	static const unsigned char minus32[] = { DW_OP_breg5, 0x60, DW_OP_stack_value };
	static const unsigned char plus8[] = { DW_OP_breg13, 8, DW_OP_stack_value };
	static const unsigned char reg3[] = { DW_OP_reg3 };
	static const unsigned char breg_mem[] = { DW_OP_breg5, 0x60 };
	int64_t off = 1;

	(void)state;
	assert_int_equal(dw_expr_reg_plus(minus32, sizeof(minus32), &le8, &off), 5);
	assert_int_equal(off, -32);
	assert_int_equal(dw_expr_reg_plus(plus8, sizeof(plus8), &le8, &off), 13);
	assert_int_equal(off, 8);
	assert_int_equal(dw_expr_reg_plus(reg3, sizeof(reg3), &le8, &off), 3);
	assert_int_equal(off, 0);
	/* the word at the register's value minus 32: a memory location */
	assert_int_equal(dw_expr_reg_plus(breg_mem, sizeof(breg_mem), &le8, &off), DW_REG_NONE);
}

static void test_entry_plus(void **state)
{
	/* hrtick's rq: entry_value(RDI) - 0xbc0 */
	static const unsigned char minus[] = { DW_OP_entry_value, 1, DW_OP_reg5, DW_OP_const2u,
					       0xc0, 0x0b, DW_OP_minus, DW_OP_stack_value };
	static const unsigned char plus[] = { DW_OP_GNU_entry_value, 1, DW_OP_reg3,
					      DW_OP_plus_uconst, 16, DW_OP_stack_value };
	static const unsigned char bare[] = { DW_OP_entry_value, 1, DW_OP_reg4,
					      DW_OP_stack_value };
	static const unsigned char neg[] = { DW_OP_entry_value, 1, DW_OP_reg5, DW_OP_consts,
					     0x78, DW_OP_plus, DW_OP_stack_value };
	/* the word at the entry value, a product, no DW_OP_stack_value */
	static const unsigned char deref[] = { DW_OP_entry_value, 1, DW_OP_reg5, DW_OP_deref,
					       DW_OP_stack_value };
	static const unsigned char mul[] = { DW_OP_entry_value, 1, DW_OP_reg5, DW_OP_lit8,
					     DW_OP_mul, DW_OP_stack_value };
	static const unsigned char novalue[] = { DW_OP_entry_value, 1, DW_OP_reg5 };
	static const unsigned char plain[] = { DW_OP_breg5, 0x60, DW_OP_stack_value };
	int64_t off = 1;

	(void)state;
	assert_int_equal(dw_expr_entry_plus(minus, sizeof(minus), &le8, &off), 5);
	assert_int_equal(off, -0xbc0);
	assert_int_equal(dw_expr_entry_plus(plus, sizeof(plus), &le8, &off), 3);
	assert_int_equal(off, 16);
	assert_int_equal(dw_expr_entry_plus(bare, sizeof(bare), &le8, &off), 4);
	assert_int_equal(off, 0);
	assert_int_equal(dw_expr_entry_plus(neg, sizeof(neg), &le8, &off), 5);
	assert_int_equal(off, -8);
	assert_int_equal(dw_expr_entry_plus(deref, sizeof(deref), &le8, &off), DW_REG_NONE);
	assert_int_equal(dw_expr_entry_plus(mul, sizeof(mul), &le8, &off), DW_REG_NONE);
	assert_int_equal(dw_expr_entry_plus(novalue, sizeof(novalue), &le8, &off), DW_REG_NONE);
	assert_int_equal(dw_expr_entry_plus(plain, sizeof(plain), &le8, &off), DW_REG_NONE);
}

static void test_mem_path(void **state)
{
	/* rdtgroup_seqfile_show's rft: *(*(rcx + 0) + 0x60) */
	static const unsigned char rft[] = { DW_OP_breg2, 0, DW_OP_deref, DW_OP_plus_uconst,
					     0x60 };
	/* a member's place: *(rax + 8) */
	static const unsigned char one[] = { DW_OP_breg0, 8 };
	/* below the register, then two loads with nothing added */
	static const unsigned char neg[] = { DW_OP_breg3, 0x70, DW_OP_deref, DW_OP_deref };
	/* a value, not a place; a product; a load too many; an entry value */
	static const unsigned char value[] = { DW_OP_breg5, 8, DW_OP_deref, DW_OP_stack_value };
	static const unsigned char mul[] = { DW_OP_breg5, 8, DW_OP_lit8, DW_OP_mul };
	static const unsigned char deep[] = { DW_OP_breg5, 8, DW_OP_deref, DW_OP_deref,
					      DW_OP_deref, DW_OP_deref };
	static const unsigned char entry[] = { DW_OP_entry_value, 1, DW_OP_reg5,
					       DW_OP_plus_uconst, 8, DW_OP_deref };
	int64_t off[4] = { 0 };
	int n = 9;

	(void)state;
	assert_int_equal(dw_expr_mem_path(rft, sizeof(rft), &le8, off, 4, &n), 2);
	assert_int_equal(n, 2);
	assert_int_equal(off[0], 0);
	assert_int_equal(off[1], 0x60);
	assert_int_equal(dw_expr_mem_path(one, sizeof(one), &le8, off, 4, &n), 0);
	assert_int_equal(n, 1);
	assert_int_equal(off[0], 8);
	assert_int_equal(dw_expr_mem_path(neg, sizeof(neg), &le8, off, 4, &n), 3);
	assert_int_equal(n, 3);
	assert_int_equal(off[0], -16);
	assert_int_equal(off[1], 0);
	assert_int_equal(off[2], 0);
	assert_int_equal(dw_expr_mem_path(value, sizeof(value), &le8, off, 4, &n), DW_REG_NONE);
	assert_int_equal(dw_expr_mem_path(mul, sizeof(mul), &le8, off, 4, &n), DW_REG_NONE);
	assert_int_equal(dw_expr_mem_path(deep, sizeof(deep), &le8, off, 4, &n), DW_REG_NONE);
	assert_int_equal(dw_expr_mem_path(entry, sizeof(entry), &le8, off, 4, &n), DW_REG_NONE);
}

static void test_mem_value(void **state)
{
	/* move_to_new_folio's mops = page_movable_ops(src):
	 * *(rbx + 24) - 2 */
	static const unsigned char mops[] = { DW_OP_breg3, 24, DW_OP_deref, DW_OP_lit2,
					      DW_OP_minus, DW_OP_stack_value };
	/* two loads, then DW_OP_plus_uconst: *(*(rax - 16) + 8) + 5 */
	static const unsigned char two[] = { DW_OP_breg0, 0x70, DW_OP_deref, DW_OP_plus_uconst,
					     8, DW_OP_deref, DW_OP_plus_uconst, 5,
					     DW_OP_stack_value };
	/* the word itself */
	static const unsigned char word[] = { DW_OP_breg5, 8, DW_OP_deref, DW_OP_stack_value };
	/* a place, not a value; no load; a product; a constant and no
	 * operation */
	static const unsigned char place[] = { DW_OP_breg5, 8, DW_OP_deref };
	static const unsigned char noload[] = { DW_OP_breg5, 8, DW_OP_lit2, DW_OP_minus,
						DW_OP_stack_value };
	static const unsigned char mul[] = { DW_OP_breg5, 8, DW_OP_deref, DW_OP_lit2, DW_OP_mul,
					     DW_OP_stack_value };
	static const unsigned char lone[] = { DW_OP_breg5, 8, DW_OP_deref, DW_OP_lit2,
					      DW_OP_stack_value };
	int64_t off[4] = { 0 }, add = 9;
	int n = 9;

	(void)state;
	assert_int_equal(dw_expr_mem_value(mops, sizeof(mops), &le8, off, 4, &n, &add), 3);
	assert_int_equal(n, 1);
	assert_int_equal(off[0], 24);
	assert_int_equal(add, -2);
	assert_int_equal(dw_expr_mem_value(two, sizeof(two), &le8, off, 4, &n, &add), 0);
	assert_int_equal(n, 2);
	assert_int_equal(off[0], -16);
	assert_int_equal(off[1], 8);
	assert_int_equal(add, 5);
	assert_int_equal(dw_expr_mem_value(word, sizeof(word), &le8, off, 4, &n, &add), 5);
	assert_int_equal(n, 1);
	assert_int_equal(off[0], 8);
	assert_int_equal(add, 0);
	assert_int_equal(dw_expr_mem_value(place, sizeof(place), &le8, off, 4, &n, &add),
			 DW_REG_NONE);
	assert_int_equal(dw_expr_mem_value(noload, sizeof(noload), &le8, off, 4, &n, &add),
			 DW_REG_NONE);
	assert_int_equal(dw_expr_mem_value(mul, sizeof(mul), &le8, off, 4, &n, &add),
			 DW_REG_NONE);
	assert_int_equal(dw_expr_mem_value(lone, sizeof(lone), &le8, off, 4, &n, &add),
			 DW_REG_NONE);
}

static void test_constant(void **state)
{
	static const unsigned char lit[] = { DW_OP_lit9 };
	static const unsigned char c1u[] = { DW_OP_const1u, 70, DW_OP_stack_value };
	static const unsigned char c1s[] = { DW_OP_const1s, 0xff };
	static const unsigned char consts[] = { DW_OP_consts, 0x7f };
	static const unsigned char huge[] = { DW_OP_constu, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
					      0xff, 0xff, 0xff, 0x01 };
	static const unsigned char two[] = { DW_OP_lit1, DW_OP_lit2 };
	static const unsigned char slot[] = { DW_OP_fbreg, 0x70, DW_OP_deref, DW_OP_lit1,
					      DW_OP_plus };
	static const unsigned char slot_addr[] = { DW_OP_fbreg, 0x70 };
	struct bytes b = { .msb = true };
	int64_t v = 0;

	(void)state;
	assert_true(dw_expr_constant(lit, sizeof(lit), &le8, &v));
	assert_int_equal(v, 9);
	assert_true(dw_expr_constant(c1u, sizeof(c1u), &le8, &v));
	assert_int_equal(v, 70);
	assert_true(dw_expr_constant(c1s, sizeof(c1s), &le8, &v));
	assert_int_equal(v, -1);
	assert_true(dw_expr_constant(consts, sizeof(consts), &le8, &v));
	assert_int_equal(v, -1);
	assert_false(dw_expr_constant(huge, sizeof(huge), &le8, &v));
	assert_false(dw_expr_constant(two, sizeof(two), &le8, &v));
	assert_false(dw_expr_constant(slot, sizeof(slot), &le8, &v));
	put(&b, DW_OP_const4u, 1);
	put(&b, 100000, 4);
	assert_true(dw_expr_constant(b.v, b.n, &be4, &v));
	assert_int_equal(v, 100000);

	/* -O0's bound: a load from the frame, whatever follows it */
	assert_true(dw_expr_frame_slot(slot, sizeof(slot), &le8));
	assert_false(dw_expr_frame_slot(slot_addr, sizeof(slot_addr), &le8));
	assert_false(dw_expr_frame_slot(c1u, sizeof(c1u), &le8));
}

static void test_plus_uconst(void **state)
{
	static const unsigned char ok[] = { DW_OP_plus_uconst, 0x90, 0x01 };
	static const unsigned char more[] = { DW_OP_plus_uconst, 0x10, DW_OP_deref };
	static const unsigned char other[] = { DW_OP_constu, 0x10 };
	uint64_t v = 0;

	(void)state;
	assert_true(dw_expr_plus_uconst(ok, sizeof(ok), &le8, &v));
	assert_int_equal(v, 0x90);
	assert_false(dw_expr_plus_uconst(more, sizeof(more), &le8, &v));
	assert_false(dw_expr_plus_uconst(other, sizeof(other), &le8, &v));
	assert_false(dw_expr_plus_uconst(ok, 2, &le8, &v));
}

static void test_frame(void **state)
{
	/* a local at the frame base minus 128, -O2's struct in memory */
	static const unsigned char local[] = { DW_OP_fbreg, 0x80, 0x7f };
	static const unsigned char loaded[] = { DW_OP_fbreg, 0x80, 0x7f, DW_OP_deref };
	static const unsigned char cfa[] = { DW_OP_call_frame_cfa };
	static const unsigned char sp[] = { DW_OP_breg7, 0x08 };
	int64_t off = 0;

	(void)state;
	assert_true(dw_expr_fbreg(local, sizeof(local), &le8, &off));
	assert_int_equal(off, -128);
	assert_false(dw_expr_fbreg(loaded, sizeof(loaded), &le8, &off));
	assert_false(dw_expr_fbreg(cfa, sizeof(cfa), &le8, &off));
	assert_true(dw_expr_is_cfa(cfa, sizeof(cfa), &le8));
	assert_false(dw_expr_is_cfa(sp, sizeof(sp), &le8));
	assert_false(dw_expr_is_cfa(local, sizeof(local), &le8));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_operands),
		cmocka_unit_test(test_addr),
		cmocka_unit_test(test_reg),
		cmocka_unit_test(test_reg_plus),
		cmocka_unit_test(test_entry_plus),
		cmocka_unit_test(test_mem_path),
		cmocka_unit_test(test_mem_value),
		cmocka_unit_test(test_constant),
		cmocka_unit_test(test_plus_uconst),
		cmocka_unit_test(test_frame),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
