/*
 * test_orc.c - elf/orc.c over ELF images made here byte by byte: linked
 * images (.orc_unwind_ip words relative to themselves) and relocatable
 * objects (words 0, one R_X86_64_PC32 each), good and broken.  Every
 * row is written from arch/x86/include/asm/orc_types.h of Linux 6.1
 * (sp_offset, bp_offset, then sp_reg:4 bp_reg:4 type:2 end:1), and each
 * expected frame is worked out in the comment from the rows.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "elf/orc.h"

#define TEXT	0x1000		/* a linked image's .text, 0x100 bytes */
#define IPS	0x2000		/* its .orc_unwind_ip */

/* ---- a small ELF writer ---- */

struct sec {
	const char *name;
	uint32_t type;
	uint64_t flags, addr;
	const void *data;
	size_t size;
	uint32_t link, info;
	uint64_t entsize;
};

struct image {
	unsigned char buf[16384];
	size_t len;
	Elf *elf;
};

static void put(struct image *im, size_t at, const void *p, size_t n)
{
	assert_true(at + n <= sizeof(im->buf));
	memcpy(im->buf + at, p, n);
	if (at + n > im->len)
		im->len = at + n;
}

/*
 * An ELF64 little-endian image of the sections s[0..n-1] (indices 1..n)
 * and .shstrtab (n + 1): the header, the section headers, the names,
 * then each section's bytes in order; the last cut bytes dropped.
 */
static Elf *build(struct image *im, uint16_t machine, uint16_t type,
		  const struct sec *s, size_t n, size_t cut)
{
	Elf64_Ehdr eh = { 0 };
	Elf64_Shdr sh;
	char names[512] = "";
	size_t i, nlen = 1, off, name_at[16];

	assert_true(n + 2 <= 16);
	im->len = 0;
	memset(im->buf, 0, sizeof(im->buf));
	for (i = 0; i < n; i++) {
		name_at[i] = nlen;
		strcpy(names + nlen, s[i].name);
		nlen += strlen(s[i].name) + 1;
	}
	name_at[n] = nlen;
	strcpy(names + nlen, ".shstrtab");
	nlen += sizeof(".shstrtab");
	memcpy(eh.e_ident, ELFMAG, SELFMAG);
	eh.e_ident[EI_CLASS] = ELFCLASS64;
	eh.e_ident[EI_DATA] = ELFDATA2LSB;
	eh.e_ident[EI_VERSION] = EV_CURRENT;
	eh.e_type = type;
	eh.e_machine = machine;
	eh.e_version = EV_CURRENT;
	eh.e_ehsize = sizeof(eh);
	eh.e_shentsize = sizeof(sh);
	eh.e_shnum = (uint16_t)(n + 2);
	eh.e_shoff = sizeof(eh);
	eh.e_shstrndx = (uint16_t)(n + 1);
	put(im, 0, &eh, sizeof(eh));
	off = sizeof(eh) + (n + 2) * sizeof(sh);
	memset(&sh, 0, sizeof(sh));
	sh.sh_type = SHT_STRTAB;
	sh.sh_name = (uint32_t)name_at[n];
	sh.sh_offset = off;
	sh.sh_size = nlen;
	sh.sh_addralign = 1;
	put(im, sizeof(eh) + (n + 1) * sizeof(sh), &sh, sizeof(sh));
	put(im, off, names, nlen);
	off += nlen;
	for (i = 0; i < n; i++) {
		off = (off + 7) & ~(size_t)7;
		memset(&sh, 0, sizeof(sh));
		sh.sh_name = (uint32_t)name_at[i];
		sh.sh_type = s[i].type;
		sh.sh_flags = s[i].flags;
		sh.sh_addr = s[i].addr;
		sh.sh_offset = off;
		sh.sh_size = s[i].size;
		sh.sh_link = s[i].link;
		sh.sh_info = s[i].info;
		sh.sh_addralign = 1;
		sh.sh_entsize = s[i].entsize;
		put(im, sizeof(eh) + (i + 1) * sizeof(sh), &sh, sizeof(sh));
		if (s[i].type != SHT_NOBITS && s[i].size) {
			if (s[i].data)
				put(im, off, s[i].data, s[i].size);
			else
				im->len = off + s[i].size;	/* zeros */
			off += s[i].size;
		}
	}
	assert_true(cut <= im->len);
	elf_version(EV_CURRENT);
	im->elf = elf_memory((char *)im->buf, im->len - cut);
	assert_non_null(im->elf);
	return im->elf;
}

/* ---- rows ---- */

struct row {
	uint64_t ip;		/* linked: the address; object: the offset in its section */
	int16_t sp_offset, bp_offset;
	unsigned sp_reg, bp_reg, type, end;
};

#define SP(ip, off)	{ ip, off, 0, ORC_REG_SP, ORC_REG_UNDEFINED, ORC_TYPE_CALL, 0 }
#define UNDEF(ip)	{ ip, 0, 0, ORC_REG_UNDEFINED, ORC_REG_UNDEFINED, ORC_TYPE_CALL, 0 }

static void row_bytes(const struct row *r, unsigned char *p)
{
	unsigned flags = r->sp_reg | r->bp_reg << 4 | r->type << 8 | r->end << 10;

	p[0] = (unsigned char)r->sp_offset;
	p[1] = (unsigned char)((uint16_t)r->sp_offset >> 8);
	p[2] = (unsigned char)r->bp_offset;
	p[3] = (unsigned char)((uint16_t)r->bp_offset >> 8);
	p[4] = (unsigned char)flags;
	p[5] = (unsigned char)(flags >> 8);
}

static void le32_at(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)v;
	p[1] = (unsigned char)(v >> 8);
	p[2] = (unsigned char)(v >> 16);
	p[3] = (unsigned char)(v >> 24);
}

/* The two sections of a linked image: word i is rows[i].ip - its address. */
struct linked {
	unsigned char ip[4 * 32], orc[6 * 32];
	struct sec s[3];	/* .text, .orc_unwind_ip, .orc_unwind */
};

static void linked_init(struct linked *l, const struct row *rows, size_t n)
{
	size_t i;

	assert_true(n <= 32);
	for (i = 0; i < n; i++) {
		le32_at(l->ip + 4 * i, (uint32_t)(rows[i].ip - (IPS + 4 * i)));
		row_bytes(&rows[i], l->orc + 6 * i);
	}
	l->s[0] = (struct sec){ ".text", SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR, TEXT,
				NULL, 0x100, 0, 0, 0 };
	l->s[1] = (struct sec){ ".orc_unwind_ip", SHT_PROGBITS, SHF_ALLOC, IPS, l->ip,
				4 * n, 0, 0, 0 };
	l->s[2] = (struct sec){ ".orc_unwind", SHT_PROGBITS, SHF_ALLOC, IPS + 0x1000,
				l->orc, 6 * n, 0, 0, 0 };
}

static int read_linked(struct image *im, struct linked *l, struct orc_table *t,
		       struct sp_err *err)
{
	build(im, EM_X86_64, ET_EXEC, l->s, 3, 0);
	return orc_table_read(t, im->elf, NULL, "vmlinux", err);
}

#define NROWS(rows)	(sizeof(rows) / sizeof((rows)[0]))

/* A linked image of rows that must read; close_linked undoes it. */
static void open_linked(struct image *im, const struct row *rows, size_t n,
			struct orc_table *t)
{
	struct linked l;
	struct sp_err err = { "" };

	linked_init(&l, rows, n);
	if (read_linked(im, &l, t, &err))
		fail_msg("%s", err.msg);
}

static void close_linked(struct image *im, struct orc_table *t)
{
	orc_table_release(t);
	elf_end(im->elf);
}

static void expect_frame(const struct orc_table *t, uint64_t lo, uint64_t hi,
			 enum orc_frame_kind kind, uint64_t want)
{
	uint64_t frame = 12345;
	enum orc_frame_kind k = orc_frame(t, lo, hi, &frame);

	if (k != kind)
		fail_msg("[%#llx, %#llx): kind %d, want %d", (unsigned long long)lo,
			 (unsigned long long)hi, k, kind);
	if (kind == ORC_FRAME_SP && frame != want)
		fail_msg("[%#llx, %#llx): frame %llu, want %llu", (unsigned long long)lo,
			 (unsigned long long)hi, (unsigned long long)frame,
			 (unsigned long long)want);
}

static void expect_error(struct image *im, int ret, const struct orc_table *t,
			 const struct sp_err *err, const char *part)
{
	(void)im;
	assert_int_equal(ret, -1);
	assert_null(t->rows);
	assert_int_equal(t->n, 0);
	if (!strstr(err->msg, part))
		fail_msg("error '%s' does not say '%s'", err->msg, part);
}

/* ---- good tables ---- */

/*
 * f [0x1000, 0x1010): push; sub $32 at 0x1008; add, pop; ret at 0x100f:
 * 8, 16, 48, 16, 8 -> 48.  g [0x1010, 0x1020) has no row at its entry:
 * 0x100f's "sp+8" holds on (objtool writes no row equal to the one
 * before), then sp+24 at 0x1014 and sp+8 at 0x101c -> 24; its first four
 * bytes alone -> 8.  The terminator at 0x1020 and h's sp+200 there are
 * h's, not g's.
 */
static void test_sp_frames(void **state)
{
	static const struct row rows[] = {
		SP(0x1000, 8), SP(0x1001, 16), SP(0x1008, 48), SP(0x100c, 16),
		SP(0x100f, 8), SP(0x1014, 24), SP(0x101c, 8), SP(0x1020, 200),
		SP(0x1030, 8), UNDEF(0x1031),
	};
	struct image im;
	struct orc_table t;

	(void)state;
	open_linked(&im, rows, NROWS(rows), &t);
	assert_int_equal(t.n, 10);
	assert_int_equal(t.rows[2].ip, 0x1008);
	assert_int_equal(t.rows[2].sp_offset, 48);
	assert_int_equal(t.rows[2].sp_reg, ORC_REG_SP);
	expect_frame(&t, 0x1000, 0x1010, ORC_FRAME_SP, 48);
	expect_frame(&t, 0x1010, 0x1020, ORC_FRAME_SP, 24);
	expect_frame(&t, 0x1010, 0x1014, ORC_FRAME_SP, 8);
	expect_frame(&t, 0x1020, 0x1031, ORC_FRAME_SP, 200);
	/* a function inside one row: that row's offset */
	expect_frame(&t, 0x1009, 0x100b, ORC_FRAME_SP, 48);
	/* where a function may end: at an entry's "sp+8", at a terminator,
	 * before any row; not with 48 or 200 bytes still on the stack */
	assert_true(orc_can_end(&t, 0x1010));
	assert_true(orc_can_end(&t, 0x1031));
	assert_true(orc_can_end(&t, 0x0fff));
	assert_false(orc_can_end(&t, 0x1009));
	assert_false(orc_can_end(&t, 0x1020));
	close_linked(&im, &t);
}

/*
 * Frame-pointer code: push %rbp (sp+16), mov %rsp,%rbp (bp+16): not on
 * the stack pointer.  So are a DRAP function (CFA on %r10), entry code
 * (type REGS), the end of the stack (UNDEFINED with end) and a row with
 * a negative offset: no ORC frame, never a guess.
 */
static void test_other_bases(void **state)
{
	static const struct row rows[] = {
		SP(0x1000, 8), SP(0x1001, 16),
		{ 0x1004, 16, -16, ORC_REG_BP, ORC_REG_PREV_SP, ORC_TYPE_CALL, 0 },
		SP(0x1010, 8),
		{ 0x1015, 0, 0, ORC_REG_R10, ORC_REG_UNDEFINED, ORC_TYPE_CALL, 0 },
		SP(0x1020, 8),
		{ 0x1021, 160, 0, ORC_REG_SP, ORC_REG_UNDEFINED, ORC_TYPE_REGS, 0 },
		SP(0x1030, 8),
		{ 0x1031, 0, 0, ORC_REG_UNDEFINED, ORC_REG_UNDEFINED, ORC_TYPE_CALL, 1 },
		SP(0x1040, 8), SP(0x1044, -8),
		SP(0x1050, 8), UNDEF(0x1051),
	};
	struct image im;
	struct orc_table t;

	(void)state;
	open_linked(&im, rows, NROWS(rows), &t);
	expect_frame(&t, 0x1000, 0x1010, ORC_FRAME_OTHER, 0);
	/* its first four bytes are on the stack pointer */
	expect_frame(&t, 0x1000, 0x1004, ORC_FRAME_SP, 16);
	expect_frame(&t, 0x1010, 0x1020, ORC_FRAME_OTHER, 0);
	expect_frame(&t, 0x1020, 0x1030, ORC_FRAME_OTHER, 0);
	expect_frame(&t, 0x1030, 0x1040, ORC_FRAME_OTHER, 0);
	expect_frame(&t, 0x1040, 0x1050, ORC_FRAME_OTHER, 0);
	expect_frame(&t, 0x1050, 0x1051, ORC_FRAME_SP, 8);
	close_linked(&im, &t);
}

/*
 * UNDEFINED rows (sp_reg 0, not end) are code objtool never reached
 * from the entry: the int3 after an indirect tail jump, padding.
 * Inside a function they are skipped: [0x1000, 0x1020) is 40.  At the
 * entry they mean objtool did not describe the function: NONE.  Before
 * the first row there is no ORC: NONE.
 */
static void test_undefined(void **state)
{
	static const struct row rows[] = {
		SP(0x1008, 8), SP(0x1009, 40), SP(0x1010, 8), UNDEF(0x1015),
		SP(0x1016, 40), SP(0x101e, 8), UNDEF(0x101f),
		SP(0x1030, 8), UNDEF(0x1040),
	};
	struct image im;
	struct orc_table t;

	(void)state;
	open_linked(&im, rows, NROWS(rows), &t);
	expect_frame(&t, 0x1008, 0x1020, ORC_FRAME_SP, 40);
	expect_frame(&t, 0x1000, 0x1008, ORC_FRAME_NONE, 0);
	expect_frame(&t, 0x1020, 0x1030, ORC_FRAME_NONE, 0);
	expect_frame(&t, 0x1040, 0x1050, ORC_FRAME_NONE, 0);
	expect_frame(&t, 0x1030, 0x1040, ORC_FRAME_SP, 8);
	/* an empty range says nothing */
	expect_frame(&t, 0x1030, 0x1030, ORC_FRAME_NONE, 0);
	close_linked(&im, &t);
}

/*
 * An unsorted table (a module's, before the kernel sorts it; or two
 * objects linked out of order) is sorted.  Two rows at 0x1010: a
 * section terminator and the next object's first row; the real row
 * holds, whichever comes first in the file.
 */
static void test_unsorted(void **state)
{
	static const struct row rows[] = {
		SP(0x1010, 8), SP(0x1011, 24), UNDEF(0x1018),
		SP(0x1000, 8), SP(0x1004, 56), SP(0x100f, 8), UNDEF(0x1010),
		SP(0x1020, 8), UNDEF(0x1020), SP(0x1021, 16), UNDEF(0x1028),
	};
	struct image im;
	struct orc_table t;
	size_t i;

	(void)state;
	open_linked(&im, rows, NROWS(rows), &t);
	for (i = 1; i < t.n; i++)
		assert_true(t.rows[i - 1].ip <= t.rows[i].ip);
	expect_frame(&t, 0x1000, 0x1010, ORC_FRAME_SP, 56);
	expect_frame(&t, 0x1010, 0x1018, ORC_FRAME_SP, 24);
	expect_frame(&t, 0x1020, 0x1028, ORC_FRAME_SP, 16);
	expect_frame(&t, 0x1020, 0x1021, ORC_FRAME_SP, 8);
	close_linked(&im, &t);
}

/* ---- broken tables ---- */

/* 3 words, 2 entries: the kernel refuses it (unwind_init), so do we */
static void test_size_mismatch(void **state)
{
	static const struct row rows[] = { SP(0x1000, 8), SP(0x1001, 16), UNDEF(0x1010) };
	struct linked l;
	struct image im;
	struct orc_table t;
	struct sp_err err = { "" };

	(void)state;
	linked_init(&l, rows, 3);
	l.s[2].size = 12;
	expect_error(&im, read_linked(&im, &l, &t, &err), &t, &err,
		     ".orc_unwind_ip has 3 entries but .orc_unwind has 2");
	elf_end(im.elf);
	linked_init(&l, rows, 3);
	l.s[2].size = 17;
	expect_error(&im, read_linked(&im, &l, &t, &err), &t, &err,
		     "not a whole number of 6-byte entries");
	elf_end(im.elf);
	linked_init(&l, rows, 3);
	l.s[1].size = 11;
	expect_error(&im, read_linked(&im, &l, &t, &err), &t, &err,
		     "not a whole number of 4-byte entries");
	elf_end(im.elf);
	/* one of the two alone */
	linked_init(&l, rows, 3);
	build(&im, EM_X86_64, ET_EXEC, l.s, 2, 0);
	expect_error(&im, orc_table_read(&t, im.elf, NULL, "vmlinux", &err), &t, &err,
		     ".orc_unwind_ip section without .orc_unwind");
	elf_end(im.elf);
}

/* The file ends inside .orc_unwind (the last section's bytes) */
static void test_truncated(void **state)
{
	static const struct row rows[] = { SP(0x1000, 8), SP(0x1001, 16), UNDEF(0x1010) };
	struct linked l;
	struct image im;
	struct orc_table t;
	struct sp_err err = { "" };

	(void)state;
	linked_init(&l, rows, 3);
	build(&im, EM_X86_64, ET_EXEC, l.s, 3, 5);
	expect_error(&im, orc_table_read(&t, im.elf, NULL, "vmlinux", &err), &t, &err,
		     "truncated or unreadable .orc_unwind section");
	elf_end(im.elf);
}

/* A word that points into data, or past the code: the row it would
 * describe would be taken by the row before it */
static void test_outside_code(void **state)
{
	static const struct row bad[] = { SP(0x1000, 8), SP(0x3000, 16), UNDEF(0x1010) };
	static const struct row end[] = { SP(0x1000, 8), SP(0x10ff, 16), UNDEF(0x1100) };
	static const struct row past[] = { SP(0x1000, 8), UNDEF(0x1101) };
	struct linked l;
	struct image im;
	struct orc_table t;
	struct sp_err err = { "" };

	(void)state;
	linked_init(&l, bad, 3);
	expect_error(&im, read_linked(&im, &l, &t, &err), &t, &err,
		     "entry 1 points to 0x3000, outside the code");
	elf_end(im.elf);
	/* the terminator one past .text's end is objtool's own */
	linked_init(&l, end, 3);
	assert_int_equal(read_linked(&im, &l, &t, &err), 0);
	expect_frame(&t, 0x1000, 0x1100, ORC_FRAME_SP, 16);
	orc_table_release(&t);
	elf_end(im.elf);
	linked_init(&l, past, 2);
	expect_error(&im, read_linked(&im, &l, &t, &err), &t, &err, "outside the code");
	elf_end(im.elf);
}

/* Bits 11-15 are 0 in Linux 4.14-6.2; 6.3 put 'end' there, 6.4 'signal'.
 * 6.4's .orc_header names its format: not this one. */
static void test_later_format(void **state)
{
	static const struct row rows[] = { SP(0x1000, 8), UNDEF(0x1010) };
	struct linked l;
	struct image im;
	struct orc_table t;
	struct sp_err err = { "" };
	struct sec s[4];
	static const unsigned char hash[20];

	(void)state;
	linked_init(&l, rows, 2);
	l.orc[6 + 5] |= 0x08;	/* bit 11 of entry 1 */
	expect_error(&im, read_linked(&im, &l, &t, &err), &t, &err,
		     "entry 1: flags 0x800 are not those of Linux 4.14 to 6.2");
	elf_end(im.elf);
	linked_init(&l, rows, 2);
	memcpy(s, l.s, sizeof(l.s));
	s[3] = (struct sec){ ".orc_header", SHT_PROGBITS, SHF_ALLOC, 0x4000, hash, 20, 0, 0, 0 };
	build(&im, EM_X86_64, ET_EXEC, s, 4, 0);
	expect_error(&im, orc_table_read(&t, im.elf, NULL, "vmlinux", &err), &t, &err,
		     "Linux 6.4 and later");
	elf_end(im.elf);
}

/* Not x86-64, or a separate debug file (NOBITS): no table, no error */
static void test_no_table(void **state)
{
	static const struct row rows[] = { SP(0x1000, 8), UNDEF(0x1010) };
	struct linked l;
	struct image im;
	struct orc_table t;
	struct sp_err err = { "" };

	(void)state;
	linked_init(&l, rows, 2);
	build(&im, EM_AARCH64, ET_EXEC, l.s, 3, 0);
	assert_int_equal(orc_table_read(&t, im.elf, NULL, "vmlinux", &err), 0);
	assert_int_equal(t.n, 0);
	expect_frame(&t, 0x1000, 0x1010, ORC_FRAME_NONE, 0);
	elf_end(im.elf);
	linked_init(&l, rows, 2);
	l.s[1].type = l.s[2].type = SHT_NOBITS;
	assert_int_equal(read_linked(&im, &l, &t, &err), 0);
	assert_int_equal(t.n, 0);
	elf_end(im.elf);
	/* no ORC at all */
	build(&im, EM_X86_64, ET_EXEC, l.s, 1, 0);
	assert_int_equal(orc_table_read(&t, im.elf, NULL, "vmlinux", &err), 0);
	assert_int_equal(t.n, 0);
	elf_end(im.elf);
}

/* ---- relocatable objects (modules) ---- */

/*
 * Sections: 1 .text.a (0x20 bytes), 2 .text.b (0x10), 3 .orc_unwind_ip,
 * 4 .rela.orc_unwind_ip, 5 .orc_unwind, 6 .symtab (null, .text.a's and
 * .text.b's section symbols).  objtool writes each section's rows in
 * turn; here .text.b's first, so the table is out of order.
 */
struct module {
	unsigned char ip[4 * 16], orc[6 * 16];
	Elf64_Rela rela[16];
	Elf64_Sym syms[3];
	struct sec s[6];
	size_t n;
};

static const uint64_t mod_base[] = { 0, 0x10000, 0x10040, 0x10080, 0, 0x100c0, 0, 0 };
static const struct orc_layout mod_layout = { mod_base, 8 };

/* rows[i].ip is an offset in section secs[i] (1 or 2) */
static void module_init(struct module *m, const struct row *rows, const unsigned *secs,
			size_t n)
{
	size_t i;

	memset(m, 0, sizeof(*m));
	m->n = n;
	for (i = 0; i < n; i++) {
		row_bytes(&rows[i], m->orc + 6 * i);
		m->rela[i].r_offset = 4 * i;
		m->rela[i].r_info = ELF64_R_INFO(secs[i], R_X86_64_PC32);
		m->rela[i].r_addend = (int64_t)rows[i].ip;
	}
	for (i = 1; i < 3; i++) {
		m->syms[i].st_info = ELF64_ST_INFO(STB_LOCAL, STT_SECTION);
		m->syms[i].st_shndx = (uint16_t)i;
	}
	m->s[0] = (struct sec){ ".text.a", SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR, 0, NULL,
				0x20, 0, 0, 0 };
	m->s[1] = (struct sec){ ".text.b", SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR, 0, NULL,
				0x10, 0, 0, 0 };
	m->s[2] = (struct sec){ ".orc_unwind_ip", SHT_PROGBITS, SHF_ALLOC, 0, m->ip, 4 * n,
				0, 0, 0 };
	m->s[3] = (struct sec){ ".rela.orc_unwind_ip", SHT_RELA, SHF_INFO_LINK, 0, m->rela,
				sizeof(Elf64_Rela) * n, 6, 3, sizeof(Elf64_Rela) };
	m->s[4] = (struct sec){ ".orc_unwind", SHT_PROGBITS, SHF_ALLOC, 0, m->orc, 6 * n,
				0, 0, 0 };
	m->s[5] = (struct sec){ ".symtab", SHT_SYMTAB, 0, 0, m->syms, sizeof(m->syms),
				7, 1, sizeof(Elf64_Sym) };
}

static int read_module(struct image *im, struct module *m, const struct orc_layout *layout,
		       struct orc_table *t, struct sp_err *err)
{
	build(im, EM_X86_64, ET_REL, m->s, 6, 0);
	return orc_table_read(t, im->elf, layout, "mod.ko", err);
}

static const struct row mod_rows[] = {
	SP(0x0, 8), SP(0x1, 16), SP(0x8, 8), UNDEF(0x10),		/* .text.b */
	SP(0x0, 8), SP(0x4, 72), SP(0x1b, 8), UNDEF(0x1c), UNDEF(0x20),	/* .text.a */
};
static const unsigned mod_secs[] = { 2, 2, 2, 2, 1, 1, 1, 1, 1 };

/* .text.a at 0x10000: [0x10000, 0x1001c) is 72; .text.b at 0x10040:
 * [0x10040, 0x10050) is 16 */
static void test_module(void **state)
{
	struct module m;
	struct image im;
	struct orc_table t;
	struct sp_err err = { "" };

	(void)state;
	module_init(&m, mod_rows, mod_secs, 9);
	assert_int_equal(read_module(&im, &m, &mod_layout, &t, &err), 0);
	assert_int_equal(t.n, 9);
	assert_int_equal(t.rows[0].ip, 0x10000);
	assert_int_equal(t.rows[8].ip, 0x10050);
	expect_frame(&t, 0x10000, 0x1001c, ORC_FRAME_SP, 72);
	expect_frame(&t, 0x10040, 0x10050, ORC_FRAME_SP, 16);
	orc_table_release(&t);
	elf_end(im.elf);
}

static void test_module_bad_relocs(void **state)
{
	struct module m;
	struct image im;
	struct orc_table t;
	struct sp_err err = { "" };

	(void)state;
	/* a word without its relocation */
	module_init(&m, mod_rows, mod_secs, 9);
	m.rela[4] = m.rela[8];
	m.s[3].size -= sizeof(Elf64_Rela);
	expect_error(&im, read_module(&im, &m, &mod_layout, &t, &err), &t, &err,
		     "entry 4 has no relocation");
	elf_end(im.elf);
	/* two for one word */
	module_init(&m, mod_rows, mod_secs, 9);
	m.rela[4].r_offset = 0;
	expect_error(&im, read_module(&im, &m, &mod_layout, &t, &err), &t, &err,
		     "relocation 4 is not one PC32 per entry");
	elf_end(im.elf);
	/* not PC32 */
	module_init(&m, mod_rows, mod_secs, 9);
	m.rela[2].r_info = ELF64_R_INFO(2, R_X86_64_64);
	expect_error(&im, read_module(&im, &m, &mod_layout, &t, &err), &t, &err,
		     "relocation 2 is not one PC32 per entry");
	elf_end(im.elf);
	/* past the table */
	module_init(&m, mod_rows, mod_secs, 9);
	m.rela[3].r_offset = 4 * 9;
	expect_error(&im, read_module(&im, &m, &mod_layout, &t, &err), &t, &err,
		     "relocation 3 is not one PC32 per entry");
	elf_end(im.elf);
	/* a symbol the table does not have */
	module_init(&m, mod_rows, mod_secs, 9);
	m.rela[1].r_info = ELF64_R_INFO(7, R_X86_64_PC32);
	expect_error(&im, read_module(&im, &m, &mod_layout, &t, &err), &t, &err,
		     "symbol 7, which is not in the symbol table");
	elf_end(im.elf);
	/* an undefined symbol */
	module_init(&m, mod_rows, mod_secs, 9);
	m.syms[2].st_shndx = SHN_UNDEF;
	expect_error(&im, read_module(&im, &m, &mod_layout, &t, &err), &t, &err,
		     "which is in no section");
	elf_end(im.elf);
	/* an addend past the section's end */
	module_init(&m, mod_rows, mod_secs, 9);
	m.rela[5].r_addend = 0x30;
	expect_error(&im, read_module(&im, &m, &mod_layout, &t, &err), &t, &err,
		     "entry 5 points to 0x10030, outside the code");
	elf_end(im.elf);
	/* no layout given, or no relocations at all */
	module_init(&m, mod_rows, mod_secs, 9);
	expect_error(&im, read_module(&im, &m, NULL, &t, &err), &t, &err, "in no section");
	elf_end(im.elf);
	module_init(&m, mod_rows, mod_secs, 9);
	m.s[3].type = SHT_PROGBITS;
	expect_error(&im, read_module(&im, &m, &mod_layout, &t, &err), &t, &err,
		     "without its RELA relocations");
	elf_end(im.elf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sp_frames),
		cmocka_unit_test(test_other_bases),
		cmocka_unit_test(test_undefined),
		cmocka_unit_test(test_unsorted),
		cmocka_unit_test(test_size_mismatch),
		cmocka_unit_test(test_truncated),
		cmocka_unit_test(test_outside_code),
		cmocka_unit_test(test_later_format),
		cmocka_unit_test(test_no_table),
		cmocka_unit_test(test_module),
		cmocka_unit_test(test_module_bad_relocs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
