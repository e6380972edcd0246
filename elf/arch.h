/*
 * arch.h - what stackprof knows of each machine, in one table: the only
 * place that names an ELF EM_* machine.  A stage asks sp_arch() for the
 * entry of an image's e_machine and reads the facts it needs; code that
 * differs per instruction set (insn/'s decoders, callgraph/extable.c's
 * trap lists) picks it by the entry's id.
 */
#ifndef SP_ARCH_H
#define SP_ARCH_H

#include <stdbool.h>
#include <stdint.h>

enum sp_arch_id {
	SP_ARCH_UNKNOWN,	/* a machine stackprof cannot decode */
	SP_ARCH_X86_64,
	SP_ARCH_I386,
	SP_ARCH_AARCH64,
	SP_ARCH_ARM,
};

/* A relocation type and what it means: the bytes it writes (debug
 * relocations), or where a branch lands relative to S + A (x86's rel32
 * counts from the end of its 4-byte field, arm64's imm26 from the
 * instruction, ARM's from 8 ahead in ARM state and 4 in Thumb). */
struct sp_arch_rel {
	uint32_t type;		/* 0 (R_*_NONE) ends a list */
	int8_t arg;		/* size of a debug relocation, bias of a branch */
	bool thumb;		/* a Thumb branch (its immediate's encoding) */
};

struct sp_arch {
	enum sp_arch_id id;
	uint16_t machine;	/* ELF e_machine */
	uint8_t word;		/* bytes of a pointer */
	uint8_t ret_push;	/* bytes a call pushes (its return address);
				 * 0 where the return address goes to a register */
	int8_t sp, fp;		/* stack and frame pointer, as DWARF numbers
				 * them (ARM: the frame pointer of ARM code,
				 * r11; Thumb's is r7); -1 when unknown */
	uint32_t caller_saved;	/* DWARF registers a callee may change */
	uint32_t arg_regs;	/* DWARF registers that pass the first integer
				 * and pointer arguments (none on i386) */
	uint16_t red_zone;	/* bytes below the stack pointer a leaf may use */
	bool thumb;		/* ARM and Thumb code: bit 0 of a function's
				 * value, mapping symbols, branch immediates
				 * as REL addends */
	bool orc;		/* the Linux kernel's ORC unwind tables */
	uint8_t lazy_frame;	/* a lazily bound PLT stub's frame: the call's
				 * return address and what the PLT pushes */
	uint8_t plt_header;	/* bytes before the first PLT stub; 0: unknown */
	uint8_t plt_entry;	/* bytes of a stub; 0: from the section's size */
	int cs_arch, cs_mode;	/* capstone's cs_arch and cs_mode */
	int cs_mode_thumb;	/* ARM: capstone's mode for Thumb code */
	uint8_t skip;		/* bytes to step over what does not decode
				 * (Thumb: half of it) */
	/* the relocations of data words, as the loader or linker applies
	 * them: B + A, S + A (of the word's size), an IFUNC resolver's */
	uint32_t rel_relative, rel_word, rel_irelative;
	struct sp_arch_rel debug[4];	/* absolute, in .debug_*: size */
	struct sp_arch_rel branch[6];	/* calls and jumps: bias */
	const char *multiarch;	/* Debian's library directory */
};

/* The entry of an ELF machine; one with id SP_ARCH_UNKNOWN (and sp and
 * fp -1, every register caller-saved) for a machine not in the table. */
const struct sp_arch *sp_arch(uint16_t machine);

/* The entry's relocation of type in list (debug or branch), NULL if none. */
const struct sp_arch_rel *sp_arch_rel(const struct sp_arch_rel *list, uint32_t type);

#endif
