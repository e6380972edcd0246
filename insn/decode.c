/*
 * decode.c - capstone, opened here and nowhere else: a decoder per
 * thread, and the loop that turns a stretch of code into struct insn.
 */
#include "insn/arch.h"

#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"

struct insn_decoder {
	const struct sp_arch *arch;
	csh cs[2];		/* [1]: Thumb, for ARM's Thumb code */
	cs_insn *in[2];
	int nhandles;
	uint64_t count;
};

bool insn_machine_decodes(uint16_t machine)
{
	return sp_arch(machine)->id != SP_ARCH_UNKNOWN;
}

bool insn_machine_regs(uint16_t machine, struct insn_regs *out)
{
	const struct sp_arch *a = sp_arch(machine);

	if (a->id == SP_ARCH_UNKNOWN)
		return false;
	*out = (struct insn_regs){ .sp = (uint8_t)a->sp, .fp = (uint8_t)a->fp, .word = a->word };
	return true;
}

struct insn_decoder *insn_decoder_open(uint16_t machine)
{
	const struct sp_arch *a = sp_arch(machine);
	struct insn_decoder *d;
	int t;

	if (a->id == SP_ARCH_UNKNOWN)
		return NULL;
	d = sp_xcalloc(1, sizeof(*d));
	d->arch = a;
	for (t = 0; t < (a->thumb ? 2 : 1); t++) {
		if (cs_open((cs_arch)a->cs_arch, (cs_mode)(t ? a->cs_mode_thumb : a->cs_mode),
			    &d->cs[t]) != CS_ERR_OK) {
			insn_decoder_close(d);
			return NULL;
		}
		d->nhandles++;
		cs_option(d->cs[t], CS_OPT_DETAIL, CS_OPT_ON);
		d->in[t] = cs_malloc(d->cs[t]);
	}
	return d;
}

void insn_decoder_close(struct insn_decoder *d)
{
	int t;

	if (!d)
		return;
	for (t = 0; t < d->nhandles; t++) {
		if (d->in[t])
			cs_free(d->in[t], 1);
		cs_close(&d->cs[t]);
	}
	free(d);
}

uint64_t insn_decoder_count(const struct insn_decoder *d)
{
	return d ? d->count : 0;
}

uint8_t insn_groups(const cs_insn *in)
{
	uint8_t g = 0, i;

	for (i = 0; i < in->detail->groups_count; i++) {
		if (in->detail->groups[i] == CS_GRP_CALL)
			g |= INSN_G_CALL;
		else if (in->detail->groups[i] == CS_GRP_JUMP)
			g |= INSN_G_JUMP;
		else if (in->detail->groups[i] == CS_GRP_RET)
			g |= INSN_G_RET;
	}
	return g;
}

void insn_buf_release(struct insn_buf *b)
{
	free(b->v);
	memset(b, 0, sizeof(*b));
}

static struct insn *buf_add(struct insn_buf *b)
{
	struct insn *i;

	SP_ALLOC_GROW(b->v, b->n + 1, b->cap);
	i = &b->v[b->n++];
	memset(i, 0, sizeof(*i));
	i->base = i->index = i->reg = i->reg2 = i->sbase = i->dst = INSN_REG_NONE;
	return i;
}

static void fill(struct insn_decoder *d, int t, const cs_insn *in, struct insn *out)
{
	out->addr = in->address;
	out->len = (uint8_t)in->size;
	switch (d->arch->cs_arch) {
	case CS_ARCH_X86:
		insn_x86_fill(d->cs[t], in, d->arch->word == 8, out);
		break;
	case CS_ARCH_ARM64:
		insn_arm64_fill(in, out);
		break;
	case CS_ARCH_ARM:
		insn_arm_fill(in, out);
		break;
	}
}

/*
 * x86 instructions capstone 4 does not know, whose length is plain: the
 * register forms of 0f 01 and 0f ae (rdpkru, wrpkru, serialize,
 * monitorx, mwaitx, tpause, umwait...), behind their prefixes.  None
 * moves the stack pointer; rdpkru writes eax and edx.  0 when it is
 * none of them.
 */
static size_t x86_unknown_len(const uint8_t *p, size_t size)
{
	size_t i = 0;

	while (i < size && i < 4 && (p[i] == 0x66 || p[i] == 0xf2 || p[i] == 0xf3 ||
				     (p[i] & 0xf0) == 0x40))
		i++;
	if (size - i < 3 || p[i] != 0x0f || (p[i + 1] != 0x01 && p[i + 1] != 0xae) ||
	    p[i + 2] < 0xc0)
		return 0;
	return i + 3;
}

/* The opcodes of EVEX map 1 (0f) that take an imm8: shifts by an
 * immediate, compares, shuffles, inserts and extracts. */
static bool evex_map1_imm(uint8_t op)
{
	return (op >= 0x70 && op <= 0x73) || op == 0xc2 || op == 0xc4 || op == 0xc5 ||
	       op == 0xc6;
}

/*
 * x86-64 AVX-512 instructions (the EVEX prefix 62) that capstone 4 does
 * not know (vpermi2d, vprord... in the kernel's blake2s_compress_avx512):
 * their length from the prefix, the opcode map and the ModRM byte.  None
 * branches or moves the stack pointer; what they write is vector and
 * mask registers, or a general register (vmovd, vpextr), so the caller
 * takes every general register but the stack pointer as written.  0 when
 * the bytes are no EVEX instruction.
 */
static size_t x86_evex_len(const uint8_t *p, size_t size)
{
	uint8_t map, mod, rm;
	size_t i = 6;

	if (size < 6 || p[0] != 0x62 || (p[2] & 0x04) == 0)
		return 0;
	map = p[1] & 0x07;
	if (map != 1 && map != 2 && map != 3 && map != 5 && map != 6)
		return 0;
	mod = p[5] >> 6;
	rm = p[5] & 7;
	if (mod != 3 && rm == 4) {	/* SIB, and a base of 5 without one */
		if (size < 7)
			return 0;
		if (mod == 0 && (p[6] & 7) == 5)
			i += 4;
		i++;
	}
	if (mod == 1)
		i += 1;
	else if (mod == 2 || (mod == 0 && rm == 5))
		i += 4;
	if (map == 3 || (map == 1 && evex_map1_imm(p[4])))
		i++;
	return i <= size ? i : 0;
}

/*
 * x86-64 AVX-512's mask instructions in VEX form (kmovd %k0,%eax,
 * kortestq, kandd...: map 0f, opcodes 41-4b and 90-99), which capstone
 * 4 does not know and glibc's string functions are full of: their
 * length from the prefix (c5: two bytes, c4: three) and the ModRM byte.
 * A general register may be written (kmov to one), never the stack
 * pointer.  0 for other bytes.
 */
static size_t x86_vex_mask_len(const uint8_t *p, size_t size)
{
	size_t i, mod, rm;
	uint8_t op;

	if (size >= 2 && p[0] == 0xc5)
		i = 2;
	else if (size >= 3 && p[0] == 0xc4 && (p[1] & 0x1f) == 1)
		i = 3;
	else
		return 0;
	if (size < i + 2)
		return 0;
	op = p[i];
	if (!((op >= 0x41 && op <= 0x4b) || (op >= 0x90 && op <= 0x93) || op == 0x98 ||
	      op == 0x99))
		return 0;
	mod = p[i + 1] >> 6;
	rm = p[i + 1] & 7;
	i += 2;
	if (mod != 3 && rm == 4) {
		if (size < i + 1)
			return 0;
		if (mod == 0 && (p[i] & 7) == 5)
			i += 4;
		i++;
	}
	if (mod == 1)
		i += 1;
	else if (mod == 2 || (mod == 0 && rm == 5))
		i += 4;
	return i <= size ? i : 0;
}

/* An x86 instruction capstone lacks, of a length read here, and what
 * it may write: 0 when none. */
static size_t x86_plain_len(const struct sp_arch *a, const uint8_t *p, size_t size,
			    uint64_t *wregs)
{
	size_t n;

	if (a->cs_arch != CS_ARCH_X86)
		return 0;
	if ((n = x86_unknown_len(p, size))) {
		*wregs = 0x7;	/* eax, edx, ecx at most */
		return n;
	}
	if (a->word == 8 &&
	    ((n = x86_evex_len(p, size)) || (n = x86_vex_mask_len(p, size)))) {
		*wregs = UINT64_MAX & ~(1ull << 7);	/* all but %rsp */
		return n;
	}
	return 0;
}

bool insn_decode_bytes(struct insn_decoder *d, const uint8_t *code, size_t size,
		       uint64_t addr, bool thumb, bool skip_invalid, struct insn_buf *out)
{
	int t = thumb && d->nhandles > 1;
	bool whole = true;

	while (size) {
		struct insn *i;
		uint64_t wregs;
		size_t skip;

		if (cs_disasm_iter(d->cs[t], &code, &size, &addr, d->in[t])) {
			d->count++;
			fill(d, t, d->in[t], buf_add(out));
			continue;
		}
		if ((skip = x86_plain_len(d->arch, code, size, &wregs))) {
			i = buf_add(out);
			i->addr = addr;
			i->len = (uint8_t)skip;
			i->wregs = wregs;
			code += skip;
			size -= skip;
			addr += skip;
			continue;
		}
		/* data in the code, or an instruction capstone lacks */
		whole = false;
		i = buf_add(out);
		i->addr = addr;
		i->op = INSN_OP_INVALID;
		i->len = 1;
		if (!skip_invalid)
			break;
		/* what capstone's SKIPDATA steps over: Thumb's is half */
		skip = t ? d->arch->skip / 2 : d->arch->skip;
		if (skip > size)
			skip = size;
		code += skip;
		size -= skip;
		addr += skip;
	}
	return whole;
}

enum insn_decoded insn_decode(struct insn_decoder *d, const struct sp_elf *e,
			      const struct sp_elf_run *run, bool skip_invalid,
			      struct insn_buf *out)
{
	size_t size = run->end - run->addr;
	const uint8_t *code = sp_elf_code_at(e, run->addr, size);

	if (!code)
		return INSN_NO_BYTES;
	return insn_decode_bytes(d, code, size, run->addr, run->thumb, skip_invalid, out) ?
	       INSN_WHOLE : INSN_GAP;
}
