/* arch.h - what decode.c asks of each architecture's file; not for
 * other stages. */
#ifndef SP_INSN_ARCH_H
#define SP_INSN_ARCH_H

#include <capstone/capstone.h>

#include "insn/insn.h"

/* capstone's call, jump and return groups, as INSN_G_* bits. */
uint8_t insn_groups(const cs_insn *in);
/* Fill out from capstone's detailed instruction.  cs is the handle that
 * decoded it (for the registers it reads and writes). */
void insn_x86_fill(csh cs, const cs_insn *in, bool x86_64, struct insn *out);
void insn_arm64_fill(const cs_insn *in, struct insn *out);
void insn_arm_fill(const cs_insn *in, struct insn *out);

#endif
