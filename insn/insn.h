/*
 * insn.h - the instruction layer: machine code decoded once into
 * struct insn, which every pass over the code reads.
 *
 * As objtool's decode_instructions() fills a list of struct instruction
 * that its later passes walk, insn_decode() turns a stretch of code into
 * an array of struct insn: what the instruction is (op), how it branches
 * (branch and its target), how it moves the stack and frame pointers
 * (stack, fp), its memory operand and its immediate.  Registers are
 * numbered as DWARF numbers them on the machine, so that a register here
 * is the one a DWARF location names.  The architecture-specific part is
 * one file per family (x86.c, arm.c); capstone is opened in one place
 * (decode.c), one decoder per thread.
 *
 * Also here: the few bytes of a branch read without capstone
 * (insn_branch_before), for the DWARF call sites that name a return
 * address, which no walk over whole functions may have reached.
 */
#ifndef SP_INSN_H
#define SP_INSN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "elf/elf.h"

#define INSN_REG_NONE 0xff

/* What an instruction is, as far as a pass asks: the operation, whatever
 * the architecture spells it. */
enum insn_op {
	INSN_OP_OTHER = 0,
	INSN_OP_CALL,		/* x86 call, ARM bl/blx, AArch64 bl/blr */
	INSN_OP_JMP,		/* an unconditional jump (x86 jmp) */
	INSN_OP_JCC,		/* a conditional branch */
	INSN_OP_RET,
	INSN_OP_PUSH,		/* push of a register, value or memory */
	INSN_OP_PUSHF,		/* push of the flags */
	INSN_OP_POP,
	INSN_OP_POPF,
	INSN_OP_ADD,
	INSN_OP_SUB,
	INSN_OP_AND,
	INSN_OP_XOR,
	INSN_OP_LEA,
	INSN_OP_MOV,
	INSN_OP_LEAVE,
	INSN_OP_ENTER,
	INSN_OP_NOP,
	INSN_OP_MOVQ,		/* x86 movq between a register and an xmm one */
	INSN_OP_UNPCKLQ,	/* x86 punpcklqdq: two low quadwords into one xmm */
	INSN_OP_MOVHPS,		/* x86 movhps: a quadword into an xmm's high half */
	INSN_OP_VMOV,		/* x86 movups/movaps/movdqu/movdqa: 16 bytes */
	INSN_OP_CMOV,		/* x86 cmovCC: a conditional register copy */
	INSN_OP_INT3,		/* x86 int3: padding and a speculation trap after a
				 * jump or return, never run through */
	INSN_OP_INVALID,	/* bytes the decoder cannot read (len 1) */
	INSN_OP_SHL,		/* x86 shl/sal: imm (INSN_F_IMM) the count */
};

/* A branch as the call pass counts it. */
enum insn_branch {
	INSN_BRANCH_NONE = 0,	/* no branch, a return, or a jump through a table */
	INSN_BRANCH_CALL,	/* direct call: target */
	INSN_BRANCH_JUMP,	/* direct jump, conditional or not: target */
	INSN_BRANCH_CALL_DYNAMIC,	/* call through a register or memory */
	INSN_BRANCH_JUMP_DYNAMIC,	/* jump through a register or memory */
};

/* How an instruction moves the stack pointer, in bytes of depth below
 * the function's entry (a push makes it deeper): objtool's stack_op. */
enum insn_stack {
	INSN_STACK_NONE = 0,	/* sp unchanged (a call's push is the callee's) */
	INSN_STACK_PUSH,	/* depth += sp_off */
	INSN_STACK_POP,		/* depth -= sp_off */
	INSN_STACK_ADD,		/* depth += sp_off: sub $N,%rsp is +N */
	INSN_STACK_FROM_SP,	/* sp = sp + sp_off (lea): depth -= sp_off */
	INSN_STACK_FROM_REG,	/* sp = sbase + sp_off (mov %rbp,%rsp; lea -8(%rbp),%rsp) */
	INSN_STACK_LEAVE,	/* sp = fp, then pop fp (sp_off: a word) */
	INSN_STACK_ENTER,	/* push fp, fp = sp, sp -= sp_off */
	INSN_STACK_ALIGN,	/* sp &= sp_off (and $-16,%rsp) */
	INSN_STACK_BY_REG,	/* sp moves by a register's value: alloca */
	INSN_STACK_LOAD,	/* sp loaded from memory (mov (%rdi),%rsp; pop %rsp) */
	INSN_STACK_OTHER,	/* sp written some other way */
};

/* Whether an instruction copies the stack pointer to a register (a
 * frame pointer, most often). */
enum insn_fp {
	INSN_FP_NONE = 0,
	INSN_FP_FROM_SP,	/* dst = sp + fp_off (mov %rsp,%rbp: 0; add x29, sp, #16) */
};

/* insn.groups: capstone's groups, which some passes count by */
#define INSN_G_CALL	(1u << 0)
#define INSN_G_JUMP	(1u << 1)
#define INSN_G_RET	(1u << 2)

/* insn.flags */
#define INSN_F_TARGET	(1u << 0)	/* one immediate operand: imm is the branch target */
#define INSN_F_IMM	(1u << 1)	/* an immediate operand (imm), not a branch target */
#define INSN_F_MEM	(1u << 2)	/* a memory operand without a segment: base, index... */
#define INSN_F_WRITES_SP (1u << 3)	/* the stack pointer is written (or may be) */
#define INSN_F_PUSH_REG	(1u << 4)	/* a push of one register */
#define INSN_F_WREGS_ALL (1u << 5)	/* which registers it writes is unknown: all */
#define INSN_F_THUNK	(1u << 6)	/* x86: an indirect branch made by a branch to a
					 * retpoline thunk (insn_retpoline_pass) */
#define INSN_F_MEM_READ	(1u << 7)	/* the memory operand is only read (cmp, test) */
#define INSN_F_PERCPU	(1u << 8)	/* x86-64: a memory operand %gs:disp, only read,
					 * of no base nor index (the kernel's per-cpu
					 * area); disp is set, not base and index */
#define INSN_F_COMPARE	(1u << 9)	/* x86 cmp or test: reads its operands, writes
					 * the flags alone */

struct insn {
	uint64_t addr;
	int64_t imm;		/* branch target (INSN_F_TARGET) or immediate (INSN_F_IMM) */
	int64_t disp;		/* the memory operand's displacement */
	int32_t sp_off, fp_off;	/* see enum insn_stack, enum insn_fp */
	uint16_t flags;		/* INSN_F_* */
	uint8_t len;
	uint8_t op;		/* enum insn_op */
	uint8_t branch;		/* enum insn_branch */
	uint8_t groups;		/* INSN_G_* */
	uint8_t stack;		/* enum insn_stack */
	uint8_t fp;		/* enum insn_fp */
	uint8_t base, index, scale;	/* the memory operand, DWARF register numbers */
	uint8_t reg;		/* the first register operand, INSN_REG_NONE */
	uint8_t sbase;		/* INSN_STACK_FROM_REG's register */
	uint8_t dst;		/* INSN_FP_FROM_SP's register */
	uint8_t reg2;		/* x86: the second operand when a register (a move's
				 * source, a store's value), INSN_REG_NONE; xmm
				 * registers count (17-32) */
	uint8_t size;		/* x86: bytes of the first operand (a load's
				 * destination, a store's memory), 0 unknown */
	uint64_t wregs;		/* the registers it writes, bit n for DWARF number n
				 * (x86-64: xmm 17-32); all ones when unknown */
};

/* A growing array of decoded instructions, reused from function to function. */
struct insn_buf {
	struct insn *v;
	size_t n, cap;
};

void insn_buf_release(struct insn_buf *b);

/* The stack and frame pointers of a machine, as DWARF numbers them. */
struct insn_regs {
	uint8_t sp, fp;
	uint8_t word;		/* bytes a push of a register moves: 8, 4 */
};
bool insn_machine_regs(uint16_t machine, struct insn_regs *out);

/*
 * One thread's decoder for one ELF machine (ARM: an ARM and a Thumb
 * handle).  The only place capstone is opened.
 */
struct insn_decoder;

/* NULL when the machine has no decoder (the caller says so) or capstone
 * cannot open it. */
struct insn_decoder *insn_decoder_open(uint16_t machine);
void insn_decoder_close(struct insn_decoder *d);
bool insn_machine_decodes(uint16_t machine);
/* Instructions decoded by d since it was opened. */
uint64_t insn_decoder_count(const struct insn_decoder *d);

/* What insn_decode() made of a run. */
enum insn_decoded {
	INSN_WHOLE = 0,		/* decoded to its end */
	INSN_GAP,		/* bytes it cannot read (an INSN_OP_INVALID marks them) */
	INSN_NO_BYTES,		/* the run has no bytes in the file (SHT_NOBITS) */
};

/*
 * Decode the run [run->addr, run->end) of e's code, appending to out.
 * Stops at the first bytes it cannot read, which an INSN_OP_INVALID
 * entry marks, unless skip_invalid: then it steps over them as
 * capstone's SKIPDATA does and goes on.
 */
enum insn_decoded insn_decode(struct insn_decoder *d, const struct sp_elf *e,
			      const struct sp_elf_run *run, bool skip_invalid,
			      struct insn_buf *out);
/* The same over size bytes at code, the first at addr (for unit tests,
 * and code that is not an ELF's); false when there was a gap. */
bool insn_decode_bytes(struct insn_decoder *d, const uint8_t *code, size_t size,
		       uint64_t addr, bool thumb, bool skip_invalid, struct insn_buf *out);

/* ---- branches read from their bytes alone (branch.c) ---- */

/* What instruction ends just before ret_pc, and its target for direct
 * ones: the call-pass kinds of enum insn_branch. */
enum insn_branch insn_branch_before(const struct sp_elf *e, uint64_t ret_pc, uint64_t *target);
/* The same from the bytes: end[-avail] .. end[-1] are the code up to
 * ret_pc; thumb says ARM code there is Thumb.  What the unit tests call. */
enum insn_branch insn_branch_decode(uint16_t machine, bool thumb, const unsigned char *end,
				    size_t avail, uint64_t ret_pc, uint64_t *target);
/* The length of the direct jump at pc (a tail call DWARF places by its
 * DW_AT_call_pc), 0 when it is no direct jump this reader knows. */
unsigned insn_jump_len_at(const struct sp_elf *e, uint64_t pc);

#endif
