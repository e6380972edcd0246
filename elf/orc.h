/*
 * orc.h - the ORC unwind tables of an x86-64 Linux kernel or module.
 *
 * objtool writes two parallel arrays: .orc_unwind_ip, one s32 per entry,
 * the address of the first instruction it describes relative to the
 * word itself (in a relocatable module the words are 0 and each carries
 * an R_X86_64_PC32 relocation against the code), and .orc_unwind, one
 * 6-byte struct orc_entry per entry (arch/x86/include/asm/orc_types.h of
 * Linux 4.14 to 6.2).  An entry holds from its address up to the next
 * entry's: "the caller's stack pointer (the CFA) is REG + sp_offset".
 * Based on the stack pointer, sp_offset counts the return address: 8 at
 * a function's entry, the convention of GCC's .su and of the CFI.
 *
 *	struct orc_table t;
 *	if (orc_table_read(&t, elf, &layout, path, &err)) ...  (a warning)
 *	orc_frame(&t, lo, hi, &frame);
 *	orc_table_release(&t);
 *
 * Library code: it reports through struct sp_err and never prints.
 */
#ifndef SP_ELF_ORC_H
#define SP_ELF_ORC_H

#include <gelf.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/error.h"

/* ORC_REG_*: the register the CFA (sp_reg) or the saved %rbp (bp_reg)
 * is found from */
enum orc_reg {
	ORC_REG_UNDEFINED = 0,
	ORC_REG_PREV_SP = 1,
	ORC_REG_DX = 2,
	ORC_REG_DI = 3,
	ORC_REG_BP = 4,
	ORC_REG_SP = 5,
	ORC_REG_R10 = 6,
	ORC_REG_R13 = 7,
	ORC_REG_BP_INDIRECT = 8,
	ORC_REG_SP_INDIRECT = 9,
};

/* The type field, UNWIND_HINT_TYPE_* (include/linux/objtool.h): CALL is
 * an ordinary frame; REGS and REGS_PARTIAL are entry code whose CFA
 * offset locates a struct pt_regs. */
enum orc_type {
	ORC_TYPE_CALL = 0,
	ORC_TYPE_REGS = 1,
	ORC_TYPE_REGS_PARTIAL = 2,
};

struct orc_row {
	uint64_t ip;		/* first byte it describes, in the image's layout */
	int16_t sp_offset, bp_offset;
	uint8_t sp_reg, bp_reg;	/* enum orc_reg */
	uint8_t type;		/* enum orc_type */
	bool end;		/* with sp_reg UNDEFINED: the bottom of a stack */
};

struct orc_table {
	struct orc_row *rows;	/* by ip, see orc_table_read */
	size_t n;
};

/*
 * Where a relocatable object's allocated sections are (the layout the
 * caller gives its symbols and code): section i at sec_base[i], for i <
 * nsec.  A linked image needs none: orc_table_read takes NULL.
 */
struct orc_layout {
	const uint64_t *sec_base;
	size_t nsec;
};

/*
 * Read the ORC table of elf (path names it in messages).  An image that
 * is not x86-64, or has neither section, gives an empty table and 0; so
 * does a separate debug file, whose allocated sections are NOBITS.
 * -1 and err when the table cannot be trusted: a truncated section, sizes
 * that are not whole entries or give the two arrays different lengths,
 * an entry outside every code section (one past a section's end is
 * where objtool puts its terminator), a module's word without exactly one
 * PC32 relocation, the bits of a later format.  Rows are sorted by ip
 * (a module's table is sorted only when the kernel loads it); among rows
 * of one address, a terminator (UNDEFINED, not end) comes first and the
 * last row is the one in effect, as the kernel's orc_sort_cmp and
 * __orc_find do.
 */
int orc_table_read(struct orc_table *t, Elf *elf, const struct orc_layout *layout,
		   const char *path, struct sp_err *err);
void orc_table_release(struct orc_table *t);

enum orc_frame_kind {
	ORC_FRAME_NONE = 0,	/* no ORC describes lo: objtool skipped this code */
	ORC_FRAME_SP,		/* every reachable byte on the stack pointer */
	ORC_FRAME_OTHER,	/* a frame pointer, a DRAP register, entry code... */
};

/*
 * The frame of the function whose code is [lo, hi): the largest sp_offset
 * over the rows in effect there, in *frame when ORC_FRAME_SP.  The row in
 * effect at lo may start before lo (objtool leaves out a row equal to the
 * one before it, across functions too); a row at hi or later is the next
 * function's.  Counted are rows "SP + offset" of type CALL; a row with
 * sp_reg UNDEFINED and not end after lo is code objtool never reached
 * from the function's entry (padding, code after a noreturn call) and is
 * skipped; UNDEFINED at lo is ORC_FRAME_NONE.  Any other row (BP or
 * another register, entry code, end of stack, a negative offset) gives
 * ORC_FRAME_OTHER.  A binary search, then a walk over the rows inside.
 */
enum orc_frame_kind orc_frame(const struct orc_table *t, uint64_t lo, uint64_t hi,
			      uint64_t *frame);
/*
 * Can a function end at addr: is the row in effect there a function's
 * entry ("SP + 8", type CALL), code objtool never reached (UNDEFINED:
 * padding, a section's terminator), or is there none?  Where it is not,
 * the code before addr goes on past it, with its frame still on the
 * stack: a function whose range ends there unless another starts there
 * (a .cold part follows its function's code in the middle of its frame).
 */
bool orc_can_end(const struct orc_table *t, uint64_t addr);

#endif
