/*
 * icall.h - the indirect calls of the code and the function addresses it
 * stores, each with how its value was computed: the chain of loads and
 * moves inside the block, back to a register, a fixed address or a
 * constant (--indirect=types types the chain with DWARF, indirect/).
 *
 *	call *%rax			link 0: rax at the call, from LOAD 0x20 of
 *	  mov 0x20(%rcx),%rax		link 1: rcx at the mov, from LOAD 0x28 of
 *	  mov 0x28(%rbp),%rcx		link 2: rbp at the mov, from REG: whatever
 *					DWARF locates in rbp there (file)
 *
 * A call through a retpoline thunk (call __x86_indirect_thunk_rax) is an
 * indirect call through the register its name says.  Each link follows
 * the one write of its register that reaches it on every path through
 * the function's direct jumps (and the kernel's static branches: each
 * site may jump to its landing and may fall through, sbranches); the
 * chain stops where two writes reach it
 * (or the function's entry, or code only a jump through a register can
 * reach: code nothing reaches is dead, the padding after a jump), at a
 * call that clobbers the register, and at any write it does not follow.
 * A load of a stack slot the function spilled a register to (a value it
 * needs after calls that clobber every register it has left) is a copy
 * of that register where it was stored: the slot is followed as a
 * register is, when nothing else may write it (no stack address at or
 * below it leaves the function's registers).  Where two or more writes
 * reach a call's root (or one write and the function's entry, whose
 * way is the argument; or two or more stores of 8 bytes, of a register
 * or a constant, the slot it reloads), each followed as far as it goes,
 * the call gets one chain per write (insn_icall.nways).
 */
#ifndef SP_INSN_ICALL_H
#define SP_INSN_ICALL_H

#include <stddef.h>
#include <stdint.h>

#include "elf/elf.h"
#include "insn/insn.h"

/* How a link's value was computed. */
enum insn_src {
	INSN_SRC_REG = 0,	/* live where the block begins, or clobbered by a
				 * call: whatever DWARF locates in reg at pc */
	INSN_SRC_OTHER,		/* written by an instruction the chain does not
				 * follow: whatever DWARF locates there, too */
	INSN_SRC_LOAD,		/* *(r + disp [+ index * scale]): r is the next link */
	INSN_SRC_MOVE,		/* a copy of r, the next link; with entry, a
				 * reload of a spill (at pc + back, of the word
				 * at disp from register scale, rsp or rbp):
				 * the next link is the register the store
				 * wrote there, at the store */
	INSN_SRC_GLOBAL,	/* *(addr): a word at a fixed address */
	INSN_SRC_TABLE,		/* *(addr + index * scale) */
	INSN_SRC_CONST,		/* addr itself (lea addr(%rip), mov $addr) */
	INSN_SRC_RETURN,	/* what the function at addr returned */
	INSN_SRC_FRAME,		/* a word of the function's frame, at disp from
				 * the entry's stack pointer, loaded at pc +
				 * back (a spill not followed, an argument
				 * passed on the stack): whatever DWARF locates
				 * there (DW_OP_fbreg), or in reg at pc */
	INSN_SRC_STACK,		/* a word of the stack at disp from the stack
				 * pointer, loaded at pc + back, where the
				 * frame's depth is not known (and $-16,%rsp
				 * realigns it): whatever DWARF locates at
				 * rsp plus disp (DW_OP_breg7), or in reg at pc */
	INSN_SRC_PERCPU,	/* x86-64: the word at disp in this CPU's per-cpu
				 * area (mov %gs:disp: the kernel's
				 * this_cpu_read(var), var at disp in
				 * .data..percpu) */
};

struct insn_link {
	uint64_t pc;		/* the instruction that reads the value */
	int64_t disp;		/* LOAD: the displacement; GLOBAL, TABLE, CONST,
				 * RETURN: the address; REG with entry: the
				 * function's first instruction, where DWARF
				 * locates the argument in reg */
	uint8_t reg;		/* where the value is at pc; INSN_REG_NONE for a
				 * call's own memory operand (call *8(%rax)) */
	uint8_t src;		/* enum insn_src */
	uint8_t scale;		/* LOAD, TABLE: the index's scale, 0 without one;
				 * FRAME: where rbp is the frame pointer at the
				 * load, rbp's offset from the entry's stack
				 * pointer over -8 (DWARF may place the word as
				 * DW_OP_breg6), 0 else */
	bool entry;		/* REG: no write reaches pc on any path from the
				 * function's entry, so reg holds what it held
				 * there (an argument: --indirect=types follows
				 * the callers' values); FRAME: the word is an
				 * argument passed on the stack, unwritten;
				 * TABLE: the column of a pointer stepped
				 * through an array from its start by scale
				 * bytes (for (p = arr; ...; p++)), whose
				 * array the variable there must be: a walk
				 * from a linker's __start_SECTION crosses
				 * variables */
	int32_t back;		/* FRAME, STACK, a spill's MOVE: the load's pc -
				 * pc; RETURN: the call's return address - pc */
	/* reg holds the value over [pc - held, pc]: every path to pc runs
	 * those instructions in order (each is reached only by falling in
	 * from the one before) and none of them writes reg; 0 when none */
	uint32_t held;
	/* and over [via - via_held, via]: via is the one jump into the
	 * straight run before pc (nothing falls into its first
	 * instruction), none of it writing reg; 0 when none */
	uint32_t via_held;
	uint64_t via;
	/* a store in [pc - held, pc] of reg to a word of the frame, at home
	 * from the entry's stack pointer (negative; 0 when none): from the
	 * instruction after it, pc - home_back, to pc, that word holds the
	 * value too (vma = vma_lookup(...), vma's home in the frame); a
	 * spill's reload (MOVE with entry): the slot, where the reload at
	 * pc - home_back reads it */
	int32_t home;
	uint32_t home_back;
	/* a register that holds reg's value plus sib_off at pc, the one lea
	 * sib_off(%reg),%sib reaching pc and reg unwritten since (a list
	 * walk's entry and its container: lea -0x48(%r15),%r12), or
	 * INSN_REG_NONE */
	uint8_t sib;
	/* FRAME loaded through rsp: the load's displacement from rsp
	 * (sp_disp), where DWARF may place the word as DW_OP_breg7 */
	bool sp;
	int16_t sp_disp;
	int32_t sib_off;
};

/* An indirect call or jump: links [link, link + nlinks), from the value
 * the branch uses back to the root (REG, GLOBAL, TABLE, CONST, RETURN). */
struct insn_icall {
	uint64_t pc, ret;	/* the branch and the address after it */
	uint32_t link;
	uint8_t nlinks;
	bool tail;		/* a jump */
	/* a direct call of the kernel's __static_call_update(key, tramp,
	 * func) or __static_call_update_early(tramp, func), which make the
	 * static call's trampoline jump to func: the chain is func's, tramp
	 * the constant the code passes (0 unknown); when several writes
	 * reach func's register, each a constant, nalts CONST links after
	 * the chain say them */
	bool update;
	uint8_t nalts;
	uint64_t tramp;
	/* where the chain ends at a register that several writes reach
	 * (GCC's cross-jumping: each path loads the pointer its own way,
	 * then one shared call), the nways entries after this one are the
	 * chains of each path (way: not a call of its own, at the same pc):
	 * the links above the join, then that path's write */
	uint8_t nways;
	bool way;
};

/* A word stored to memory that may be a function pointer: a constant
 * function address (value, or the word at value_at), or a value whose
 * chain (vlink) ends at a register of unknown origin (a parameter, a
 * variable, a cmov's choice): not a constant, not a load from another
 * object. */
struct insn_store {
	uint64_t pc;
	uint64_t value;		/* the code address stored, 0 when not a constant */
	uint64_t value_at;	/* or the address of a word holding it (a 16-byte
				 * store's constant pool), 0 */
	uint64_t addr;		/* a fixed destination (global), 0: based on a register */
	int64_t disp;		/* the destination's displacement from its base */
	uint32_t link, vlink;	/* chains of the base register (addr == 0) and value */
	uint8_t nlinks, nvlinks;
	bool stack;		/* the base is the stack pointer, or the frame
				 * pointer (a local) */
	/* stack: the destination's offset from the entry's stack pointer
	 * (negative), INSN_FRAME_UNKNOWN when its depth is not known */
	int64_t frame;
	bool indexed;		/* addr: plus an index (tbl[i] = f) */
	bool loaded;		/* the value is loaded from another object (a
				 * member, a global, a call's return): vlink is
				 * its chain, whose meaning indirect/ types */
	bool data;		/* no function: a data address (value), or one
				 * inside an object (value 0, lea 8(%rbx)); kept
				 * for the pointers a call loads its member
				 * through (indirect/'s second layer) */
};

#define INSN_FRAME_UNKNOWN INT64_MIN

/* A static branch of the kernel's (asm goto): the instruction it patches
 * between a nop and a jmp, and where the jmp lands. */
struct insn_sbranch {
	uint64_t site, landing;
};

/* A retpoline thunk's entry and the register it jumps through. */
struct insn_thunk {
	uint64_t addr;
	uint8_t reg;
};

struct insn_icalls {
	struct insn_icall *calls;	/* by pc */
	size_t ncalls, calls_cap;
	struct insn_store *stores;	/* by pc */
	size_t nstores, stores_cap;
	struct insn_link *links;
	size_t nlinks, links_cap;
	struct insn_thunk *thunks;	/* by address */
	size_t nthunks;
	uint64_t fentry;		/* the kernel's __fentry__, which every traced
					 * function calls first and which keeps
					 * every register; 0 when none */
	/* the kernel's pv_ops, [pv_ops, pv_ops_end): a call through one of
	 * its words is a paravirt op's inline asm, which clobbers only the
	 * registers it names (0 when none) */
	uint64_t pv_ops, pv_ops_end;
	/* the kernel's static branches, by site (the image's, read only):
	 * each site may go either way, whatever the image has there */
	const struct insn_sbranch *sbranches;
	size_t nsbranches;
	uint64_t sc_update[2];		/* the kernel's __static_call_update and
					 * __static_call_update_early, 0 */
	/* scratch of the pass, per instruction of the function */
	uint32_t *pred_first, *preds;	/* the jumps landing on each */
	uint32_t *jump_to;		/* each's direct jump target inside, n if none */
	uint8_t *sbranch;		/* each is a static branch's site */
	uint8_t *falls;			/* control falls into each from the one before */
	uint64_t *wmask;		/* the registers each writes (a call: clobbers) */
	uint32_t *seen, stamp;		/* visited by the current search */
	bool table_jumps;		/* the function jumps through a register */
	bool frame_known;		/* depth and escape are the function's */
	int32_t *depth;			/* bytes below the entry's stack pointer
					 * before each instruction, or unknown */
	int64_t fp_frame;		/* rbp's offset from the entry's stack
					 * pointer when it is a frame pointer,
					 * INSN_FRAME_UNKNOWN when it is none */
	int64_t escape;			/* the lowest stack address (from the
					 * entry's) the function lets out of its
					 * registers (lea 8(%rsp),%rdi) */
	bool fp_stable;			/* rbp is the frame pointer from fp_at on,
					 * to the function's exits (fp_stable()) */
	size_t fp_at;			/* the one mov %rsp,%rbp, in the entry's block */
	int64_t fp_escape;		/* escape, rbp reads counted as what they
					 * let out, not as the whole frame */
	size_t scratch_cap;
	uint32_t *stack;
	size_t stack_cap;
	/* the walks' answers for the instructions and registers of the
	 * function indexed last (epoch), which its chains ask again and
	 * again: a hash table of cells, the writes each walk found in a
	 * pool of their own */
	struct insn_memo *memo;
	size_t nmemo, memo_cap;
	uint32_t epoch;
	struct insn_memo_defs *memo_defs;
	size_t nmemo_defs, memo_defs_cap;
};

/* The register whose value at the function's entry the chain l[0..n)
 * is (copied at most: links MOVE ... REG with entry), or the stack
 * argument (FRAME with entry: INSN_REG_STACK_ARG + k), else
 * INSN_REG_NONE. */
uint8_t insn_entry_reg(const struct insn_link *l, uint8_t n);

/* What argument register reg (or stack argument, INSN_REG_STACK_ARG + k:
 * the one write of the caller's slot, a push or a mov, then its
 * register) holds at the direct call (or tail jump)
 * of v[0..n), one function's code, that returns to ret: the constants
 * each path into it writes (their number, at most INSN_MAX_VALUES into
 * values, NULLs left out), or 0 and *entry the register it is a copy of,
 * unwritten since the function's entry (the function's own argument
 * passed on); -1 when some path brings neither.  ic is scratch, with
 * the image's thunks, fentry and pv_ops. */
#define INSN_MAX_VALUES 8
/* An argument passed on the stack, as insn_entry_reg and insn_arg_values
 * name it: INSN_REG_STACK_ARG + k, the word k above the callee's return
 * address (k < INSN_STACK_ARGS); no register's number (DWARF's, 0-15
 * here). */
#define INSN_REG_STACK_ARG 0xc0
#define INSN_STACK_ARGS 32
static inline bool insn_stack_arg(uint8_t reg)
{
	return reg >= INSN_REG_STACK_ARG && reg < INSN_REG_STACK_ARG + INSN_STACK_ARGS;
}
int insn_arg_values(struct insn_icalls *ic, const struct insn *v, size_t n, uint64_t ret,
		    uint8_t reg, uint64_t *values, uint8_t *entry);

/* As insn_arg_values, where the register is, through copies, a word
 * loaded from memory (trace_clocks[i].func passed on, `mov
 * tbl(,%rax,8),%rbx; mov %rbx,%rsi`; a member, `mov 0x18(%rdi),%rsi`):
 * that load's chain, from the load to its root, into load[0..max);
 * their number, 0 when the value is no load or its chain is longer. */
int insn_arg_load(struct insn_icalls *ic, const struct insn *v, size_t n, uint64_t ret,
		  uint8_t reg, struct insn_link *load, int max);

/* Find e's retpoline thunks (__x86_indirect_thunk_REG and the call and
 * jump variants) in its symbol table; before the pass runs. */
void insn_find_thunks(struct insn_icalls *ic, const struct sp_elf *e);
/* x86-64: a direct call or jump to a retpoline thunk among v[0..n) (by
 * address, or in a relocatable object by its relocation's name) becomes
 * the indirect branch it is, through the thunk's register, for every
 * pass: the call pass counts it as indirect, not as a call to a label. */
void insn_retpoline_pass(const struct insn_icalls *ic, const struct sp_elf *e,
			 struct insn *v, size_t n);
/* x86-64: is in a store the pass reads (an 8-byte mov, a 16-byte store
 * of an xmm register), wherever it writes? */
bool insn_icall_store(const struct insn *in);
/* x86-64: append the indirect calls and stores of one function's
 * instructions v[0..n) to ic.  The functions must come in address order. */
void insn_icalls_pass(struct insn_icalls *ic, const struct sp_elf *e,
		      const struct insn *v, size_t n);
/* The passes over a chunk's functions are done: their scratch and the
 * answers they shared (one table for the chunk, reused from function to
 * function) are freed; the calls, stores and links stay, to be joined. */
void insn_icalls_done(struct insn_icalls *ic);
void insn_icalls_release(struct insn_icalls *ic);
/* The register a thunk symbol's name ends in (__x86_indirect_thunk_r11),
 * INSN_REG_NONE when it names none. */
uint8_t insn_thunk_reg(const char *name);

#endif
