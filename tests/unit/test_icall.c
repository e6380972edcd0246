/*
 * test_icall.c - the chains insn_icalls_pass traces back from an
 * indirect call (insn/icall.c), over x86-64 functions assembled by hand:
 * which write of the called register reaches the call, through the
 * function's direct jumps.  Each expectation is worked out in the
 * comment from the control flow, not taken from the pass.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>

#include <gelf.h>

#include "elf/elf.h"
#include "insn/icall.h"
#include "insn/insn.h"

/* The chain of the one indirect call in code (at 0x1000): calls[0],
 * and its paths' chains after it (insn_icall.way), if any. */
/* As trace_code, with the kernel's static branches sb[0..nsb). */
static void trace_branches(const uint8_t *code, size_t size, const struct insn_sbranch *sb,
			   size_t nsb, struct insn_icalls *ic)
{
	struct insn_decoder *d = insn_decoder_open(EM_X86_64);
	struct insn_buf b = { 0 };
	struct sp_elf e;

	memset(&e, 0, sizeof(e));
	e.arch = sp_arch(EM_X86_64);
	e.type = ET_EXEC;
	memset(ic, 0, sizeof(*ic));
	ic->sbranches = sb;
	ic->nsbranches = nsb;
	assert_non_null(d);
	assert_true(insn_decode_bytes(d, code, size, 0x1000, false, false, &b));
	insn_icalls_pass(ic, &e, b.v, b.n);
	assert_int_equal(ic->ncalls, 1 + ic->calls[0].nways);
	insn_buf_release(&b);
	insn_decoder_close(d);
}

static void trace_code(const uint8_t *code, size_t size, struct insn_icalls *ic)
{
	trace_branches(code, size, NULL, 0, ic);
}

/* The ways of calls[0] are two chains of one link each, the constants
 * a and b in either order. */
static void assert_ways(const struct insn_icalls *ic, int64_t a, int64_t b)
{
	const struct insn_link *x, *y;

	assert_int_equal(ic->calls[0].nways, 2);
	assert_true(ic->calls[1].way && ic->calls[2].way);
	assert_int_equal(ic->calls[1].pc, ic->calls[0].pc);
	assert_int_equal(ic->calls[1].nlinks, 1);
	assert_int_equal(ic->calls[2].nlinks, 1);
	x = &ic->links[ic->calls[1].link];
	y = &ic->links[ic->calls[2].link];
	assert_int_equal(x->src, INSN_SRC_CONST);
	assert_int_equal(y->src, INSN_SRC_CONST);
	assert_true((x->disp == a && y->disp == b) || (x->disp == b && y->disp == a));
}

/* Two writes of rax reach the call, one from a block placed after the
 * function's return that jumps back (GCC's layout of an unlikely
 * branch): the call's value is neither constant, the register's
 * (INSN_SRC_REG), and not the entry's; each path's chain is its
 * constant.
 *
 *	1000: 85 ff		test %edi,%edi
 *	1002: 75 08		jne 100c
 *	1004: b8 00 20 00 00	mov $0x2000,%eax
 *	1009: ff d0		call *%rax
 *	100b: c3		ret
 *	100c: b8 00 30 00 00	mov $0x3000,%eax
 *	1011: eb f6		jmp 1009	(0x1013 - 10)
 */
static void test_two_writes_one_jumped(void **state)
{
	static const uint8_t code[] = {
		0x85, 0xff, 0x75, 0x08, 0xb8, 0x00, 0x20, 0x00, 0x00, 0xff, 0xd0, 0xc3,
		0xb8, 0x00, 0x30, 0x00, 0x00, 0xeb, 0xf6,
	};
	struct insn_icalls ic;
	const struct insn_link *l;

	(void)state;
	trace_code(code, sizeof(code), &ic);
	assert_int_equal(ic.calls[0].pc, 0x1009);
	assert_int_equal(ic.calls[0].nlinks, 1);
	l = &ic.links[ic.calls[0].link];
	if (l->src == INSN_SRC_CONST)
		fail_msg("call *%%rax: constant %#llx, but 0x3000 reaches it too",
			 (unsigned long long)l->disp);
	assert_int_equal(l->src, INSN_SRC_REG);
	assert_false(l->entry);
	assert_int_equal(ic.calls[0].nways, 2);
	assert_ways(&ic, 0x2000, 0x3000);
	insn_icalls_release(&ic);
}

/* One write reaches the call, over a jump and the padding after it:
 * the constant.
 *
 *	1000: b8 00 20 00 00	mov $0x2000,%eax
 *	1005: eb 02		jmp 1009
 *	1007: cc cc		int3; int3	(nothing reaches them)
 *	1009: ff d0		call *%rax
 *	100b: c3		ret
 */
static void test_one_write_over_a_jump(void **state)
{
	static const uint8_t code[] = {
		0xb8, 0x00, 0x20, 0x00, 0x00, 0xeb, 0x02, 0xcc, 0xcc, 0xff, 0xd0, 0xc3,
	};
	struct insn_icalls ic;
	const struct insn_link *l;

	(void)state;
	trace_code(code, sizeof(code), &ic);
	assert_int_equal(ic.calls[0].nlinks, 1);
	l = &ic.links[ic.calls[0].link];
	assert_int_equal(l->src, INSN_SRC_CONST);
	assert_int_equal(l->disp, 0x2000);
	insn_icalls_release(&ic);
}

/* The chain of a register spilled to the stack across a call that
 * clobbers it and reloaded: a copy of what was stored, the argument the
 * function got (a compare of the slot writes nothing).
 *
 *	1000: 48 83 ec 18		sub $0x18,%rsp
 *	1004: 48 89 7c 24 08		mov %rdi,0x8(%rsp)
 *	1009: e8 f2 0f 00 00		call 2000
 *	100e: 48 83 7c 24 08 00		cmpq $0x0,0x8(%rsp)
 *	1014: 48 8b 44 24 08		mov 0x8(%rsp),%rax
 *	1019: ff d0			call *%rax
 *	101b: 48 83 c4 18		add $0x18,%rsp
 *	101f: c3			ret
 */
static void test_spill_reload(void **state)
{
	static const uint8_t code[] = {
		0x48, 0x83, 0xec, 0x18, 0x48, 0x89, 0x7c, 0x24, 0x08, 0xe8, 0xf2, 0x0f,
		0x00, 0x00, 0x48, 0x83, 0x7c, 0x24, 0x08, 0x00, 0x48, 0x8b, 0x44, 0x24,
		0x08, 0xff, 0xd0, 0x48, 0x83, 0xc4, 0x18, 0xc3,
	};
	struct insn_icalls ic;
	const struct insn_link *l;

	(void)state;
	trace_code(code, sizeof(code), &ic);
	assert_int_equal(ic.calls[0].pc, 0x1019);
	l = &ic.links[ic.calls[0].link];
	assert_int_equal(ic.calls[0].nlinks, 2);
	/* rax at the call: loaded from the slot, a copy of rdi stored there */
	assert_int_equal(l[0].src, INSN_SRC_MOVE);
	assert_int_equal(l[1].src, INSN_SRC_REG);
	assert_int_equal(l[1].reg, 5);	/* rdi */
	assert_int_equal(l[1].pc, 0x1004);
	assert_true(l[1].entry);
	assert_int_equal(l[1].disp, 0x1000);	/* where DWARF names rdi's argument */
	assert_int_equal(insn_entry_reg(l, 2), 5);
	insn_icalls_release(&ic);
}

/* The chain ends at a reload that may not read the spill back: the
 * callee gets the stack's address below the slot (mov %rsp,%rdi) and
 * may write it, or a 4-byte store overlaps the slot.  The slot's value
 * is then whatever DWARF locates there (INSN_SRC_FRAME, 0x8 above the
 * stack pointer 0x18 below the entry's), not the argument.
 *
 *	1000: 48 83 ec 18		sub $0x18,%rsp
 *	1004: 48 89 7c 24 08		mov %rdi,0x8(%rsp)
 *	1009: 48 89 e7			mov %rsp,%rdi
 *	100c: e8 ef 0f 00 00		call 2000
 *	1011: 48 8b 44 24 08		mov 0x8(%rsp),%rax
 *	1016: ff d0			call *%rax
 *	1018: 48 83 c4 18		add $0x18,%rsp
 *	101c: c3			ret
 *
 * and the same with movl $0x0,0xc(%rsp) (c7 44 24 0c 00 00 00 00) for
 * the mov and the call.
 */
static void test_spill_overwritten(void **state)
{
	static const uint8_t escaped[] = {
		0x48, 0x83, 0xec, 0x18, 0x48, 0x89, 0x7c, 0x24, 0x08, 0x48, 0x89, 0xe7,
		0xe8, 0xef, 0x0f, 0x00, 0x00, 0x48, 0x8b, 0x44, 0x24, 0x08, 0xff, 0xd0,
		0x48, 0x83, 0xc4, 0x18, 0xc3,
	};
	static const uint8_t half[] = {
		0x48, 0x83, 0xec, 0x18, 0x48, 0x89, 0x7c, 0x24, 0x08, 0xc7, 0x44, 0x24,
		0x0c, 0x00, 0x00, 0x00, 0x00, 0x48, 0x8b, 0x44, 0x24, 0x08, 0xff, 0xd0,
		0x48, 0x83, 0xc4, 0x18, 0xc3,
	};
	const uint8_t *code[2] = { escaped, half };
	struct insn_icalls ic;
	const struct insn_link *l;
	int k;

	(void)state;
	for (k = 0; k < 2; k++) {
		trace_code(code[k], k ? sizeof(half) : sizeof(escaped), &ic);
		l = &ic.links[ic.calls[0].link];
		assert_int_equal(ic.calls[0].nlinks, 1);
		assert_int_equal(l[0].src, INSN_SRC_FRAME);
		assert_int_equal(l[0].disp, -0x10);
		assert_true(l[0].sp);	/* loaded as 0x8(%rsp): DW_OP_breg7 8 */
		assert_int_equal(l[0].sp_disp, 8);
		assert_int_equal(l[0].scale, 0);	/* no frame pointer */
		assert_int_equal(l[0].pc + (uint64_t)(int64_t)l[0].back, 0x1011);
		assert_int_equal(insn_entry_reg(l, 1), INSN_REG_NONE);
		insn_icalls_release(&ic);
	}
}

/* A spill through the frame pointer (GCC's when it keeps one, as
 * __sys_bpf does): rbp is set up once in the entry's block and only
 * leave restores it, so -0x10(%rbp) is the frame's word 0x18 below the
 * entry's stack pointer, and the reload reads back the argument stored
 * there.  Not when the function lets an address at or below the slot
 * out (lea -0x18(%rbp),%rdi; mov %rbp,%rdi: rbp itself, read as a
 * value) or writes part of the slot (movl $0,-0xc(%rbp)); an address
 * above it (lea -0x8(%rbp),%rdi: an object written upwards) is no harm.
 *
 *	1000: 55			push %rbp
 *	1001: 48 89 e5			mov %rsp,%rbp
 *	1004: 48 83 ec 20		sub $0x20,%rsp
 *	1008: 48 89 7d f0		mov %rdi,-0x10(%rbp)
 *	100c: e8 ef 0f 00 00		call 2000
 *	1011: (one of the above, 4 or 7 bytes)
 *	....: 48 8b 45 f0		mov -0x10(%rbp),%rax
 *	....: ff d0			call *%rax
 *	....: c9			leave
 *	....: c3			ret
 */
static void test_spill_frame_pointer(void **state)
{
	static const uint8_t head[] = {
		0x55, 0x48, 0x89, 0xe5, 0x48, 0x83, 0xec, 0x20, 0x48, 0x89, 0x7d, 0xf0,
		0xe8, 0xef, 0x0f, 0x00, 0x00,
	};
	static const uint8_t tail[] = { 0x48, 0x8b, 0x45, 0xf0, 0xff, 0xd0, 0xc9, 0xc3 };
	static const struct {
		uint8_t mid[7], len;
		bool follows;
	} cases[] = {
		{ { 0x48, 0x8d, 0x7d, 0xf8 }, 4, true },	/* lea -0x8(%rbp),%rdi */
		{ { 0x48, 0x8d, 0x7d, 0xe8 }, 4, false },	/* lea -0x18(%rbp),%rdi */
		{ { 0x48, 0x89, 0xef, 0x90 }, 4, false },	/* mov %rbp,%rdi; nop */
		{ { 0xc7, 0x45, 0xf4, 0, 0, 0, 0 }, 7, false },	/* movl $0,-0xc(%rbp) */
	};
	uint8_t code[sizeof(head) + 7 + sizeof(tail)];
	struct insn_icalls ic;
	const struct insn_link *l;
	size_t k, n;

	(void)state;
	for (k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		memcpy(code, head, sizeof(head));
		memcpy(code + sizeof(head), cases[k].mid, cases[k].len);
		memcpy(code + sizeof(head) + cases[k].len, tail, sizeof(tail));
		n = sizeof(head) + cases[k].len + sizeof(tail);
		trace_code(code, n, &ic);
		l = &ic.links[ic.calls[0].link];
		if (cases[k].follows) {
			assert_int_equal(ic.calls[0].nlinks, 2);
			assert_int_equal(l[0].src, INSN_SRC_MOVE);
			assert_int_equal(l[1].src, INSN_SRC_REG);
			assert_int_equal(l[1].pc, 0x1008);
			assert_int_equal(insn_entry_reg(l, 2), 5);	/* rdi */
		} else {
			if (l[0].src == INSN_SRC_MOVE)
				fail_msg("case %zu: the reload followed to the spill", k);
			assert_int_equal(insn_entry_reg(l, ic.calls[0].nlinks), INSN_REG_NONE);
		}
		insn_icalls_release(&ic);
	}
}

/* A reload where the frame's depth is not known (and $-64,%rsp realigns
 * it, as for a local aligned to 64 bytes): the slot is no spill the
 * chain can follow, nor a place in the frame; the link keeps the stack
 * pointer's displacement and the load (INSN_SRC_STACK) for DWARF's
 * DW_OP_breg7 locations.
 *
 *	1000: 55			push %rbp
 *	1001: 48 89 e5			mov %rsp,%rbp
 *	1004: 48 83 e4 c0		and $-64,%rsp
 *	1008: 48 83 ec 40		sub $0x40,%rsp
 *	100c: 48 89 7c 24 28		mov %rdi,0x28(%rsp)
 *	1011: e8 ea 0f 00 00		call 2000
 *	1016: 48 8b 44 24 28		mov 0x28(%rsp),%rax
 *	101b: ff 50 08			call *0x8(%rax)
 *	101e: c9			leave
 *	101f: c3			ret
 */
static void test_stack_realigned(void **state)
{
	static const uint8_t code[] = {
		0x55, 0x48, 0x89, 0xe5, 0x48, 0x83, 0xe4, 0xc0, 0x48, 0x83, 0xec, 0x40,
		0x48, 0x89, 0x7c, 0x24, 0x28, 0xe8, 0xea, 0x0f, 0x00, 0x00, 0x48, 0x8b,
		0x44, 0x24, 0x28, 0xff, 0x50, 0x08, 0xc9, 0xc3,
	};
	struct insn_icalls ic;
	const struct insn_link *l;

	(void)state;
	trace_code(code, sizeof(code), &ic);
	assert_int_equal(ic.ncalls, 1);
	l = &ic.links[ic.calls[0].link];
	assert_int_equal(ic.calls[0].nlinks, 2);
	assert_int_equal(l[0].src, INSN_SRC_LOAD);
	assert_int_equal(l[0].disp, 8);
	assert_int_equal(l[1].src, INSN_SRC_STACK);
	assert_int_equal(l[1].reg, 0);	/* rax */
	assert_int_equal(l[1].disp, 0x28);
	assert_int_equal(l[1].pc + (uint64_t)(int64_t)l[1].back, 0x1016);
	insn_icalls_release(&ic);
}

/* A static branch of the kernel's (asm goto) lands where the code shows
 * no jump: rax's load at 1008 is skipped when the kernel patches the nop
 * at 1003 into a jmp to 100c, and the call then reads the load at 1000.
 * And the same with the jmp in the image (its nop is patched in): the
 * load at 1008 is no dead code.  Either way two writes reach the call:
 * a join of two paths, not the one load the nop's code shows.
 *
 *	1000: 48 8b 07			mov (%rdi),%rax
 *	1003: 0f 1f 44 00 00		nopl 0x0(%rax,%rax,1)	(or jmp 100c)
 *	1008: 48 8b 47 08		mov 0x8(%rdi),%rax
 *	100c: ff 50 10			call *0x10(%rax)
 *	100f: c3			ret
 */
static void test_static_branch(void **state)
{
	static const uint8_t nop[] = {
		0x48, 0x8b, 0x07, 0x0f, 0x1f, 0x44, 0x00, 0x00, 0x48, 0x8b, 0x47, 0x08,
		0xff, 0x50, 0x10, 0xc3,
	};
	static const uint8_t jmp[] = {
		0x48, 0x8b, 0x07, 0xe9, 0x04, 0x00, 0x00, 0x00, 0x48, 0x8b, 0x47, 0x08,
		0xff, 0x50, 0x10, 0xc3,
	};
	static const struct insn_sbranch sb[] = { { 0x1003, 0x100c } };
	const uint8_t *code[2] = { nop, jmp };
	struct insn_icalls ic;
	const struct insn_link *l;
	int k;

	(void)state;
	/* the nop not known as a branch: the code's one path, the load at
	 * 1008, wrong when the kernel enables the branch */
	trace_code(nop, sizeof(nop), &ic);
	l = &ic.links[ic.calls[0].link];
	assert_int_equal(ic.calls[0].nways, 0);
	assert_int_equal(ic.calls[0].nlinks, 3);
	assert_int_equal(l[1].src, INSN_SRC_LOAD);
	assert_int_equal(l[1].disp, 8);
	insn_icalls_release(&ic);
	for (k = 0; k < 2; k++) {
		trace_branches(code[k], sizeof(nop), sb, 1, &ic);
		assert_int_equal(ic.calls[0].nways, 2);
		l = &ic.links[ic.calls[0].link];
		assert_int_equal(l[ic.calls[0].nlinks - 1].src, INSN_SRC_REG);
		assert_false(l[ic.calls[0].nlinks - 1].entry);
		insn_icalls_release(&ic);
	}
}

/* Two stores of the slot reach its reload, one on each path: a constant
 * before the branch, the argument rdi on one side of it (GCC's
 * variable kept in the frame: f = a; if (c) f = b;).  The reload's chain
 * ends there (INSN_SRC_FRAME), and each path's is its store's: the
 * constant, or a copy of rdi.  Not when the function lets the stack's
 * address below the slot out (mov %rsp,%rdx: a callee could write the
 * slot), nor when the entry reaches the reload with no store (one path
 * stores nothing).
 *
 *	1000: 48 83 ec 18			sub $0x18,%rsp
 *	1004: 48 c7 44 24 08 00 20 00 00	movq $0x2000,0x8(%rsp)
 *	100d: 85 f6				test %esi,%esi
 *	100f: 74 05				je 1016
 *	1011: 48 89 7c 24 08			mov %rdi,0x8(%rsp)
 *	1016: 48 8b 44 24 08			mov 0x8(%rsp),%rax
 *	101b: ff d0				call *%rax
 *	101d: 48 83 c4 18			add $0x18,%rsp
 *	1021: c3				ret
 *
 * escaped: 48 89 e2 (mov %rsp,%rdx) after the second store (je 1019);
 * entry: without the movq (je 100d).
 */
static void test_slot_stores_joined(void **state)
{
	static const uint8_t joined[] = {
		0x48, 0x83, 0xec, 0x18, 0x48, 0xc7, 0x44, 0x24, 0x08, 0x00, 0x20, 0x00,
		0x00, 0x85, 0xf6, 0x74, 0x05, 0x48, 0x89, 0x7c, 0x24, 0x08, 0x48, 0x8b,
		0x44, 0x24, 0x08, 0xff, 0xd0, 0x48, 0x83, 0xc4, 0x18, 0xc3,
	};
	static const uint8_t escaped[] = {
		0x48, 0x83, 0xec, 0x18, 0x48, 0xc7, 0x44, 0x24, 0x08, 0x00, 0x20, 0x00,
		0x00, 0x85, 0xf6, 0x74, 0x08, 0x48, 0x89, 0x7c, 0x24, 0x08, 0x48, 0x89,
		0xe2, 0x48, 0x8b, 0x44, 0x24, 0x08, 0xff, 0xd0, 0x48, 0x83, 0xc4, 0x18,
		0xc3,
	};
	static const uint8_t entry[] = {
		0x48, 0x83, 0xec, 0x18, 0x85, 0xf6, 0x74, 0x05, 0x48, 0x89, 0x7c, 0x24,
		0x08, 0x48, 0x8b, 0x44, 0x24, 0x08, 0xff, 0xd0, 0x48, 0x83, 0xc4, 0x18,
		0xc3,
	};
	const struct { const uint8_t *code; size_t size; } none[2] = {
		{ escaped, sizeof(escaped) }, { entry, sizeof(entry) },
	};
	struct insn_icalls ic;
	const struct insn_link *l;
	unsigned kinds = 0;
	int k;

	(void)state;
	trace_code(joined, sizeof(joined), &ic);
	assert_int_equal(ic.calls[0].nlinks, 1);
	assert_int_equal(ic.links[ic.calls[0].link].src, INSN_SRC_FRAME);
	assert_int_equal(ic.calls[0].nways, 2);
	for (k = 1; k <= 2; k++) {
		l = &ic.links[ic.calls[k].link];
		if (l[0].src == INSN_SRC_CONST) {
			assert_int_equal(ic.calls[k].nlinks, 1);
			assert_int_equal(l[0].disp, 0x2000);
			kinds |= 1;
			continue;
		}
		assert_int_equal(ic.calls[k].nlinks, 2);
		assert_int_equal(l[0].src, INSN_SRC_MOVE);
		assert_int_equal(l[1].src, INSN_SRC_REG);
		assert_int_equal(l[1].reg, 5);	/* rdi */
		assert_int_equal(l[1].pc, 0x1011);
		assert_true(l[1].entry);
		kinds |= 2;
	}
	assert_int_equal(kinds, 3);
	insn_icalls_release(&ic);

	for (k = 0; k < 2; k++) {
		trace_code(none[k].code, none[k].size, &ic);
		assert_int_equal(ic.calls[0].nways, 0);
		assert_int_equal(ic.links[ic.calls[0].link].src, INSN_SRC_FRAME);
		insn_icalls_release(&ic);
	}
}

/* Two writes of rax reach the call, each the same load from rbx, which
 * one write (a copy of the argument rdi) reaches at both (GCC's copy of
 * a block on two paths): the value is that load's, and the chain goes
 * on to the argument.  With rbx rewritten on one path (mov %rdx,%rbx)
 * the loads read different objects: the chain stops at rax, and each
 * path's chain is its own load.
 *
 *	1000: 48 89 fb		mov %rdi,%rbx
 *	1003: 85 f6		test %esi,%esi
 *	1005: 74 06		je 100d
 *	1007: 48 8b 43 18	mov 0x18(%rbx),%rax
 *	100b: eb 04		jmp 1011
 *	100d: 48 8b 43 18	mov 0x18(%rbx),%rax
 *	1011: ff d0		call *%rax
 *	1013: c3		ret
 *
 * and with 48 89 d3 (mov %rdx,%rbx) before the second load (jmp 1014).
 */
static void test_same_load_twice(void **state)
{
	static const uint8_t same[] = {
		0x48, 0x89, 0xfb, 0x85, 0xf6, 0x74, 0x06, 0x48, 0x8b, 0x43, 0x18, 0xeb,
		0x04, 0x48, 0x8b, 0x43, 0x18, 0xff, 0xd0, 0xc3,
	};
	static const uint8_t other[] = {
		0x48, 0x89, 0xfb, 0x85, 0xf6, 0x74, 0x06, 0x48, 0x8b, 0x43, 0x18, 0xeb,
		0x07, 0x48, 0x89, 0xd3, 0x48, 0x8b, 0x43, 0x18, 0xff, 0xd0, 0xc3,
	};
	struct insn_icalls ic;
	const struct insn_link *l;
	unsigned regs = 0;
	int k;

	(void)state;
	trace_code(same, sizeof(same), &ic);
	l = &ic.links[ic.calls[0].link];
	assert_int_equal(ic.calls[0].nlinks, 3);
	assert_int_equal(l[0].src, INSN_SRC_LOAD);
	assert_int_equal(l[0].disp, 0x18);
	assert_int_equal(l[1].src, INSN_SRC_MOVE);
	assert_int_equal(l[1].reg, 3);	/* rbx */
	assert_int_equal(l[2].src, INSN_SRC_REG);
	assert_int_equal(l[2].reg, 5);	/* rdi */
	assert_true(l[2].entry);
	insn_icalls_release(&ic);

	trace_code(other, sizeof(other), &ic);
	l = &ic.links[ic.calls[0].link];
	assert_int_equal(ic.calls[0].nlinks, 1);
	assert_int_equal(l[0].src, INSN_SRC_REG);
	assert_int_equal(l[0].reg, 0);	/* rax */
	assert_false(l[0].entry);
	/* each path's own load: 0x18 of rbx, which is rdi on one (the
	 * first write, at 1000) and rdx on the other */
	assert_int_equal(ic.calls[0].nways, 2);
	for (k = 1; k <= 2; k++) {
		l = &ic.links[ic.calls[k].link];
		assert_int_equal(l[0].src, INSN_SRC_LOAD);
		assert_int_equal(l[0].disp, 0x18);
		assert_int_equal(l[0].reg, 0);
		assert_int_equal(l[1].src, INSN_SRC_MOVE);
		assert_int_equal(l[1].reg, 3);
		regs |= 1u << l[ic.calls[k].nlinks - 1].reg;
	}
	assert_int_equal(regs, (1u << 5) | (1u << 1));	/* rdi, rdx */
	insn_icalls_release(&ic);
}

/* Where a path's write is none the chain follows (add $8,%rax: the
 * pointer moved), the call has no ways: what that path holds is not
 * known, so the union of the others would leave it out.
 *
 *	1000: 85 f6		test %esi,%esi
 *	1002: 74 06		je 100a
 *	1004: 48 8b 47 18	mov 0x18(%rdi),%rax
 *	1008: eb 04		jmp 100e
 *	100a: 48 83 c0 08	add $0x8,%rax
 *	100e: ff d0		call *%rax
 *	1010: c3		ret
 */
static void test_join_not_followed(void **state)
{
	static const uint8_t code[] = {
		0x85, 0xf6, 0x74, 0x06, 0x48, 0x8b, 0x47, 0x18, 0xeb, 0x04, 0x48, 0x83,
		0xc0, 0x08, 0xff, 0xd0, 0xc3,
	};
	struct insn_icalls ic;

	(void)state;
	trace_code(code, sizeof(code), &ic);
	assert_int_equal(ic.calls[0].pc, 0x100e);
	assert_int_equal(ic.calls[0].nways, 0);
	assert_int_equal(ic.links[ic.calls[0].link].src, INSN_SRC_REG);
	insn_icalls_release(&ic);
}

/* A register that holds a copy of the function's argument on every path
 * through a loop: the entry's copy (mov %rdi,%rcx) and the reload of
 * the spill the loop makes before each call reach the slot's store, so
 * no one write does; each is a copy back to rdi at the entry (GCC's
 * xas_store(): xas in rcx, spilled across calls).  The call's chain is
 * the reload, the copy at the store, and rdi at the function's first
 * instruction, an argument.  With lea 0x8(%rdi),%rcx for the entry's
 * copy (48 8d 4f 08) one path holds no copy: the chain ends at the
 * join, no argument.
 *
 *	1000: 53			push %rbx
 *	1001: 48 83 ec 10		sub $0x10,%rsp
 *	1005: 48 89 f9			mov %rdi,%rcx
 *	1008: 48 89 f3			mov %rsi,%rbx
 *	100b: 48 89 4c 24 08		mov %rcx,0x8(%rsp)
 *	1010: 48 89 df			mov %rbx,%rdi
 *	1013: e8 fb 0f 00 00		call 2013
 *	1018: 48 8b 4c 24 08		mov 0x8(%rsp),%rcx
 *	101d: 48 83 eb 01		sub $0x1,%rbx
 *	1021: 7f e8			jg 100b
 *	1023: ff d1			call *%rcx
 *	1025: 48 83 c4 10		add $0x10,%rsp
 *	1029: 5b			pop %rbx
 *	102a: c3			ret
 */
static void test_entry_copies(void **state)
{
	static const uint8_t copy[] = {
		0x53, 0x48, 0x83, 0xec, 0x10, 0x48, 0x89, 0xf9, 0x48, 0x89, 0xf3, 0x48,
		0x89, 0x4c, 0x24, 0x08, 0x48, 0x89, 0xdf, 0xe8, 0xfb, 0x0f, 0x00, 0x00,
		0x48, 0x8b, 0x4c, 0x24, 0x08, 0x48, 0x83, 0xeb, 0x01, 0x7f, 0xe8, 0xff,
		0xd1, 0x48, 0x83, 0xc4, 0x10, 0x5b, 0xc3,
	};
	static const uint8_t offset[] = {
		0x53, 0x48, 0x83, 0xec, 0x10, 0x48, 0x8d, 0x4f, 0x08, 0x48, 0x89, 0xf3,
		0x48, 0x89, 0x4c, 0x24, 0x08, 0x48, 0x89, 0xdf, 0xe8, 0xfb, 0x0f, 0x00,
		0x00, 0x48, 0x8b, 0x4c, 0x24, 0x08, 0x48, 0x83, 0xeb, 0x01, 0x7f, 0xe8,
		0xff, 0xd1, 0x48, 0x83, 0xc4, 0x10, 0x5b, 0xc3,
	};
	struct insn_icalls ic;
	const struct insn_link *l;
	uint8_t n;

	(void)state;
	trace_code(copy, sizeof(copy), &ic);
	assert_int_equal(ic.calls[0].pc, 0x1023);
	l = &ic.links[ic.calls[0].link];
	n = ic.calls[0].nlinks;
	assert_int_equal(n, 3);
	/* the reload, its slot at -0x10 from the entry's stack pointer */
	assert_int_equal(l[0].src, INSN_SRC_MOVE);
	assert_true(l[0].entry);
	assert_int_equal(l[0].home, -0x10);
	assert_int_equal(l[0].pc - l[0].home_back, 0x1018);
	/* rcx at the store: the copy of rdi, at the first instruction */
	assert_int_equal(l[1].src, INSN_SRC_MOVE);
	assert_int_equal(l[1].pc, 0x100b);
	assert_int_equal(l[2].src, INSN_SRC_REG);
	assert_int_equal(l[2].reg, 5);
	assert_int_equal(l[2].pc, 0x1000);
	assert_true(l[2].entry);
	assert_int_equal(insn_entry_reg(l, n), 5);
	insn_icalls_release(&ic);

	trace_code(offset, sizeof(offset), &ic);
	l = &ic.links[ic.calls[0].link];
	assert_int_equal(insn_entry_reg(l, ic.calls[0].nlinks), INSN_REG_NONE);
	insn_icalls_release(&ic);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_two_writes_one_jumped),
		cmocka_unit_test(test_one_write_over_a_jump),
		cmocka_unit_test(test_spill_reload),
		cmocka_unit_test(test_spill_overwritten),
		cmocka_unit_test(test_spill_frame_pointer),
		cmocka_unit_test(test_entry_copies),
		cmocka_unit_test(test_stack_realigned),
		cmocka_unit_test(test_static_branch),
		cmocka_unit_test(test_slot_stores_joined),
		cmocka_unit_test(test_same_load_twice),
		cmocka_unit_test(test_join_not_followed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
