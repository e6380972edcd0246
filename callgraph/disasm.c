/*
 * disasm.c - the calls DWARF does not describe, read from the code.
 *
 * GCC emits call-site DIEs only when it optimises, and never for calls made
 * from inline assembly (the kernel's __get_user_N, the IRQ-stack switch) or
 * for hand-written assembly.  This pass decodes every function symbol with
 * capstone and records each call, direct jump and indirect branch.  It only
 * reads the ELF, so it runs on a second thread while the main thread walks
 * the DWARF; cg_disasm_merge() then adds what DWARF lacked.
 */
#include "callgraph/internal.h"

#include <capstone/capstone.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"

int cg_cs_setup(const struct sp_elf *e, bool thumb, cs_arch *arch, cs_mode *mode)
{
	switch (e->machine) {
	case EM_X86_64:
		*arch = CS_ARCH_X86, *mode = CS_MODE_64;
		return 0;
	case EM_386:
		*arch = CS_ARCH_X86, *mode = CS_MODE_32;
		return 0;
	case EM_AARCH64:
		*arch = CS_ARCH_ARM64, *mode = CS_MODE_ARM;
		return 0;
	case EM_ARM:
		*arch = CS_ARCH_ARM, *mode = thumb ? CS_MODE_THUMB : CS_MODE_ARM;
		return 0;
	}
	return -1;
}

bool cg_disasm_supported(const struct sp_elf *e)
{
	cs_arch arch;
	cs_mode mode;

	return cg_cs_setup(e, false, &arch, &mode) == 0;
}

/* "0xffffffff81001234" (x86, Intel syntax) or "#0x8000" (ARM): a direct
 * target.  Anything else is a register or memory operand. */
static bool parse_target(const char *op, uint64_t *target)
{
	char *end;

	if (*op == '#')
		op++;
	if (op[0] != '0' || op[1] != 'x')
		return false;
	*target = strtoull(op, &end, 16);
	return *end == '\0';
}

/* x86 jump tables index their table: "jmp qword ptr [rax*8 - 0x7e000000]".
 * Such a jump stays inside the function; other indirect jumps may leave it. */
static bool is_jump_table(const char *op)
{
	return strchr(op, '*') != NULL;
}

static enum cg_insn classify(cs_arch arch, const cs_insn *in)
{
	const char *m = in->mnemonic;

	switch (arch) {
	case CS_ARCH_X86:
		if (in->id == X86_INS_CALL || in->id == X86_INS_LCALL)
			return CG_INSN_CALL;
		if (m[0] == 'j' || !strncmp(m, "notrack j", 9) || !strncmp(m, "bnd j", 5))
			return CG_INSN_JMP;
		return CG_INSN_NONE;
	case CS_ARCH_ARM64:
		if (in->id == ARM64_INS_BL || in->id == ARM64_INS_BLR)
			return CG_INSN_CALL;
		if (in->id == ARM64_INS_B || in->id == ARM64_INS_BR)
			return CG_INSN_JMP;
		return CG_INSN_NONE;
	case CS_ARCH_ARM:
		if (in->id == ARM_INS_BL || in->id == ARM_INS_BLX)
			return CG_INSN_CALL;
		if (in->id == ARM_INS_B || in->id == ARM_INS_BX)
			return CG_INSN_JMP;
		return CG_INSN_NONE;
	default:
		return CG_INSN_NONE;
	}
}

bool cg_disasm_classify(cs_arch arch, const cs_insn *in, struct cg_dcall *out)
{
	enum cg_insn kind = classify(arch, in);
	uint64_t target = 0;

	if (kind == CG_INSN_NONE)
		return false;
	if (!parse_target(in->op_str, &target)) {
		if (kind == CG_INSN_JMP && is_jump_table(in->op_str))
			return false;
		/* ARM "bx lr" is a return, not a branch to another function */
		if (kind == CG_INSN_JMP && !strcmp(in->op_str, "lr"))
			return false;
		kind = kind == CG_INSN_CALL ? CG_INSN_ICALL : CG_INSN_IJMP;
	}
	out->site = in->address + in->size;
	out->target = target;
	out->kind = (uint8_t)kind;
	return true;
}

static void record(struct cg_disasm *d, const cs_insn *in, cs_arch arch)
{
	struct cg_dcall c;

	if (!cg_disasm_classify(arch, in, &c))
		return;
	SP_ALLOC_GROW(d->calls, d->ncalls + 1, d->calls_cap);
	d->calls[d->ncalls++] = c;
}

static void note_partial(struct cg_disasm *d, uint64_t addr)
{
	SP_ALLOC_GROW(d->partial, d->npartial + 1, d->partial_cap);
	d->partial[d->npartial++] = addr;
}

/* Decode one run; false when capstone stops before its end. */
static bool scan_run(struct cg_disasm *d, csh cs, cs_arch arch, cs_insn *in,
		     const struct sp_elf_run *run)
{
	uint64_t pc = run->addr;
	size_t left = run->end - run->addr;
	const uint8_t *code = sp_elf_code_at(d->elf, pc, left);

	if (!code)
		return true;
	while (left) {
		/* data in the code, or an instruction capstone lacks:
		 * what follows may hide calls */
		if (!cs_disasm_iter(cs, &code, &left, &pc, in))
			return false;
		record(d, in, arch);
	}
	return true;
}

/* A function's code, run by run: ARM mapping symbols switch between ARM,
 * Thumb and the literal pools, which are data. */
static void scan_sym(struct cg_disasm *d, csh *cs, cs_arch arch, cs_insn **in,
		     const struct sp_elf_sym *sym)
{
	uint64_t pc = sym->addr;
	struct sp_elf_run run;

	while (sp_elf_next_run(d->elf, &pc, sym->addr + sym->size, sym->thumb, &run))
		if (!scan_run(d, cs[run.thumb], arch, in[run.thumb], &run)) {
			note_partial(d, sym->addr);
			return;
		}
}

static void *disasm_thread(void *arg)
{
	struct cg_disasm *d = arg;
	const struct sp_elf *e = d->elf;
	const struct sp_elf_sym *sym;
	csh cs[2];
	cs_arch arch;
	cs_mode mode;
	cs_insn *in[2];
	uint64_t end = 0;
	size_t i = 0;
	int t;

	for (t = 0; t < 2; t++) {	/* [1]: Thumb, for ARM's Thumb code */
		if (cg_cs_setup(e, t == 1, &arch, &mode) || cs_open(arch, mode, &cs[t]) != CS_ERR_OK) {
			d->failed = true;
			return NULL;
		}
		in[t] = cs_malloc(cs[t]);
	}
	/* aliases and labels inside a function are scanned with it */
	while ((sym = sp_elf_next_code_sym(e, &i, &end)))
		scan_sym(d, cs, arch, in, sym);
	for (t = 0; t < 2; t++) {
		cs_free(in[t], 1);
		cs_close(&cs[t]);
	}
	return NULL;
}

int cg_disasm_start(struct cg_disasm *d, const struct sp_elf *e, struct sp_err *err)
{
	int rc;

	memset(d, 0, sizeof(*d));
	d->elf = e;
	/* EAGAIN is what a small ulimit -v gives: no room for its stack */
	rc = pthread_create(&d->thread, NULL, disasm_thread, d);
	if (rc)
		return sp_err_set(err, "out of memory: cannot start the disassembly thread (%s)",
				  strerror(rc));
	d->started = true;
	return 0;
}

int cg_disasm_finish(struct cg_disasm *d, const char *path, struct sp_err *err)
{
	if (d->started) {
		pthread_join(d->thread, NULL);
		d->started = false;
	}
	if (d->failed)
		return sp_err_set(err, "'%s': capstone cannot decode this architecture", path);
	return 0;
}

void cg_disasm_release(struct cg_disasm *d)
{
	if (d->started)
		pthread_join(d->thread, NULL);
	free(d->calls);
	free(d->partial);
	memset(d, 0, sizeof(*d));
}
