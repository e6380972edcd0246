/*
 * arch.c - the machines stackprof reads, one row each (see arch.h).
 */
#include "elf/arch.h"

#include <capstone/capstone.h>
#include <elf.h>

#ifndef R_AARCH64_RELATIVE
#define R_AARCH64_RELATIVE 1027
#endif
#ifndef R_AARCH64_ABS64
#define R_AARCH64_ABS64 257
#endif

static const struct sp_arch arches[] = {
	{
		.id = SP_ARCH_X86_64, .machine = EM_X86_64, .word = 8, .ret_push = 8,
		.sp = 7, .fp = 6,
		.caller_saved = 0x0f37u,	/* rax rdx rcx rsi rdi r8-r11 */
		.arg_regs = 0x0336u,		/* rdi rsi rdx rcx r8 r9 */
		.red_zone = 128, .orc = true, .lazy_frame = 24,
		.plt_header = 16, .plt_entry = 16,
		.cs_arch = CS_ARCH_X86, .cs_mode = CS_MODE_64, .skip = 1,
		.rel_relative = R_X86_64_RELATIVE, .rel_word = R_X86_64_64,
		.rel_irelative = R_X86_64_IRELATIVE,
		.debug = { { R_X86_64_64, 8 }, { R_X86_64_32, 4 }, { R_X86_64_32S, 4 } },
		.branch = { { R_X86_64_PC32, 4 }, { R_X86_64_PLT32, 4 } },
		.multiarch = "x86_64-linux-gnu",
	},
	{
		.id = SP_ARCH_I386, .machine = EM_386, .word = 4, .ret_push = 4,
		.sp = 4, .fp = 5,
		.caller_saved = 0x7u,		/* eax ecx edx */
		.lazy_frame = 16,
		.cs_arch = CS_ARCH_X86, .cs_mode = CS_MODE_32, .skip = 1,
		.rel_relative = R_386_RELATIVE, .rel_word = R_386_32,
		.rel_irelative = R_386_IRELATIVE,
		.debug = { { R_386_32, 4 } },
		.branch = { { R_386_PC32, 4 }, { R_386_PLT32, 4 } },
		.multiarch = "i386-linux-gnu",
	},
	{
		.id = SP_ARCH_AARCH64, .machine = EM_AARCH64, .word = 8,
		.sp = 31, .fp = 29,
		.caller_saved = 0x4007ffffu,	/* x0-x18, x30 */
		.arg_regs = 0xffu,		/* x0-x7 */
		.lazy_frame = 16,
		.plt_header = 32,		/* stubs of 16, or 24 with BTI/PAC */
		.cs_arch = CS_ARCH_ARM64, .cs_mode = CS_MODE_ARM, .skip = 4,
		.rel_relative = R_AARCH64_RELATIVE, .rel_word = R_AARCH64_ABS64,
		.rel_irelative = R_AARCH64_IRELATIVE,
		.debug = { { R_AARCH64_ABS64, 8 }, { R_AARCH64_ABS32, 4 } },
		.branch = { { R_AARCH64_CALL26, 0 }, { R_AARCH64_JUMP26, 0 } },
		.multiarch = "aarch64-linux-gnu",
	},
	{
		.id = SP_ARCH_ARM, .machine = EM_ARM, .word = 4,
		.sp = 13, .fp = 11,
		.caller_saved = 0x500fu,	/* r0-r3, r12, lr */
		.arg_regs = 0xfu,		/* r0-r3 */
		.thumb = true, .lazy_frame = 16,
		.cs_arch = CS_ARCH_ARM, .cs_mode = CS_MODE_ARM, .cs_mode_thumb = CS_MODE_THUMB,
		.skip = 4,
		.rel_relative = R_ARM_RELATIVE, .rel_word = R_ARM_ABS32,
		.rel_irelative = R_ARM_IRELATIVE,
		.debug = { { R_ARM_ABS32, 4 } },
		.branch = { { R_ARM_CALL, 8 }, { R_ARM_JUMP24, 8 }, { R_ARM_PC24, 8 },
			    { R_ARM_THM_PC22, 4, true }, { R_ARM_THM_JUMP24, 4, true } },
		.multiarch = "arm-linux-gnueabihf",
	},
};

static const struct sp_arch unknown = {
	.id = SP_ARCH_UNKNOWN, .sp = -1, .fp = -1, .caller_saved = UINT32_MAX,
	.lazy_frame = 16, .skip = 4,
};

const struct sp_arch *sp_arch(uint16_t machine)
{
	size_t i;

	for (i = 0; i < sizeof(arches) / sizeof(arches[0]); i++)
		if (arches[i].machine == machine)
			return &arches[i];
	return &unknown;
}

const struct sp_arch_rel *sp_arch_rel(const struct sp_arch_rel *list, uint32_t type)
{
	for (; list->type; list++)
		if (list->type == type)
			return list;
	return NULL;
}
