/*
 * orc.c - read the ORC unwind tables (see orc.h).
 *
 * Every size and index read from the file is checked before use: the
 * two sections must hold whole entries and as many of each, every entry
 * must land in code, a module's words must each carry one relocation.
 * A table that fails any of this is refused whole: a row left out would
 * let the row before it stand for code it does not describe.
 */
#include "elf/orc.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "common/search.h"
#include "common/xalloc.h"
#include "elf/arch.h"

#define ORC_IP_SIZE	4
#define ORC_ENTRY_SIZE	6
/* bits 0-10 of the flags word: sp_reg:4, bp_reg:4, type:2, end:1 */
#define ORC_FLAGS_USED	0x07ffu

struct code_range {
	uint64_t lo, hi;	/* [lo, hi]: hi itself is where a terminator may be */
};

/* What orc_table_read gathers from the section headers. */
struct orc_scan {
	Elf *elf;
	const char *path;
	const struct orc_layout *layout;
	bool rel;			/* ET_REL: the words are relocated */
	Elf_Scn *ip_scn, *orc_scn, *rela_scn;
	GElf_Shdr ip_sh, orc_sh, rela_sh;
	bool has_header;		/* .orc_header: the Linux 6.4 format */
	struct code_range *code;	/* sorted by lo */
	size_t ncode, code_cap;
};

static uint16_t le16(const unsigned char *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static uint32_t le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

/* Where section ndx (header sh) is in the image's layout. */
static uint64_t section_base(const struct orc_scan *s, size_t ndx, const GElf_Shdr *sh)
{
	const struct orc_layout *l = s->layout;

	return sh->sh_addr + (l && l->sec_base && ndx < l->nsec ? l->sec_base[ndx] : 0);
}

static void add_code(struct orc_scan *s, Elf_Scn *scn, const GElf_Shdr *sh)
{
	uint64_t lo = section_base(s, elf_ndxscn(scn), sh);

	if (sh->sh_size > UINT64_MAX - lo)
		return;
	SP_ALLOC_GROW(s->code, s->ncode + 1, s->code_cap);
	s->code[s->ncode].lo = lo;
	s->code[s->ncode].hi = lo + sh->sh_size;
	s->ncode++;
}

static int code_cmp(const void *pa, const void *pb)
{
	const struct code_range *a = pa, *b = pb;

	return (a->lo > b->lo) - (a->lo < b->lo);
}

static uint64_t code_lo(const void *base, size_t i)
{
	return ((const struct code_range *)base)[i].lo;
}

/* Is ip in a code section, or just past its end? */
static bool in_code(const struct orc_scan *s, uint64_t ip)
{
	size_t i = sp_search_last_le(s->code, s->ncode, code_lo, ip);

	return i < s->ncode && ip <= s->code[i].hi;
}

static void note_section(struct orc_scan *s, Elf_Scn *scn, const GElf_Shdr *sh,
			 const char *name)
{
	if ((sh->sh_flags & SHF_EXECINSTR) && (sh->sh_flags & SHF_ALLOC))
		add_code(s, scn, sh);
	if (!name)
		return;
	if (!strcmp(name, ".orc_unwind_ip"))
		s->ip_scn = scn, s->ip_sh = *sh;
	else if (!strcmp(name, ".orc_unwind"))
		s->orc_scn = scn, s->orc_sh = *sh;
	else if (!strcmp(name, ".orc_header"))
		s->has_header = true;
}

static int scan_sections(struct orc_scan *s, struct sp_err *err)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx;
	GElf_Shdr sh;

	if (elf_getshdrstrndx(s->elf, &shstrndx))
		return sp_err_set(err, "'%s': bad section header table: %s", s->path,
				  elf_errmsg(-1));
	while ((scn = elf_nextscn(s->elf, scn))) {
		if (!gelf_getshdr(scn, &sh))
			return sp_err_set(err, "'%s': bad section header: %s", s->path,
					  elf_errmsg(-1));
		note_section(s, scn, &sh, elf_strptr(s->elf, shstrndx, sh.sh_name));
	}
	/* a module's relocations of its words: found once the words are */
	scn = NULL;
	while (s->rel && s->ip_scn && (scn = elf_nextscn(s->elf, scn)))
		if (gelf_getshdr(scn, &sh) && (sh.sh_type == SHT_RELA || sh.sh_type == SHT_REL) &&
		    sh.sh_info == elf_ndxscn(s->ip_scn)) {
			s->rela_scn = scn;
			s->rela_sh = sh;
		}
	if (s->ncode > 1)
		qsort(s->code, s->ncode, sizeof(*s->code), code_cmp);
	return 0;
}

/* The bytes of a section, all sh_size of them, or NULL and err. */
static const unsigned char *section_bytes(const struct orc_scan *s, Elf_Scn *scn,
					  const GElf_Shdr *sh, const char *name,
					  struct sp_err *err)
{
	Elf_Data *d = elf_rawdata(scn, NULL);

	if (!d || !d->d_buf || d->d_size != sh->sh_size) {
		sp_err_set(err, "'%s': truncated or unreadable %s section", s->path, name);
		return NULL;
	}
	return d->d_buf;
}

/* The number of entries, when both sections hold whole ones and as many. */
static int count_entries(const struct orc_scan *s, size_t *n, struct sp_err *err)
{
	uint64_t nip = s->ip_sh.sh_size / ORC_IP_SIZE, norc = s->orc_sh.sh_size / ORC_ENTRY_SIZE;

	if (s->ip_sh.sh_size % ORC_IP_SIZE)
		return sp_err_set(err, "'%s': .orc_unwind_ip section of %" PRIu64
				  " bytes: not a whole number of 4-byte entries",
				  s->path, (uint64_t)s->ip_sh.sh_size);
	if (s->orc_sh.sh_size % ORC_ENTRY_SIZE)
		return sp_err_set(err, "'%s': .orc_unwind section of %" PRIu64
				  " bytes: not a whole number of 6-byte entries",
				  s->path, (uint64_t)s->orc_sh.sh_size);
	if (nip != norc)
		return sp_err_set(err, "'%s': .orc_unwind_ip has %" PRIu64 " entries but "
				  ".orc_unwind has %" PRIu64, s->path, nip, norc);
	if (nip > SIZE_MAX / sizeof(struct orc_row))
		return sp_err_set(err, "'%s': .orc_unwind too large", s->path);
	*n = (size_t)nip;
	return 0;
}

/* A linked image: entry i describes the word's own address plus its value. */
static void linked_ips(const struct orc_scan *s, const unsigned char *ip,
		       struct orc_row *rows, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		rows[i].ip = s->ip_sh.sh_addr + ORC_IP_SIZE * (uint64_t)i +
			     (uint64_t)(int64_t)(int32_t)le32(ip + ORC_IP_SIZE * i);
}

/* The symbol table the relocations name, and its extended section
 * indices (SHT_SYMTAB_SHNDX) when it has them. */
static int rel_symtab(const struct orc_scan *s, Elf_Data **syms, Elf_Data **xndx,
		      struct sp_err *err)
{
	Elf_Scn *symtab = elf_getscn(s->elf, s->rela_sh.sh_link), *scn = NULL;
	GElf_Shdr sh;

	*xndx = NULL;
	if (!symtab || !gelf_getshdr(symtab, &sh) || sh.sh_type != SHT_SYMTAB ||
	    !(*syms = elf_getdata(symtab, NULL)))
		return sp_err_set(err, "'%s': .rela.orc_unwind_ip names no symbol table",
				  s->path);
	while ((scn = elf_nextscn(s->elf, scn)))
		if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_SYMTAB_SHNDX &&
		    sh.sh_link == elf_ndxscn(symtab))
			*xndx = elf_getdata(scn, NULL);
	return 0;
}

/* Where relocation r makes its word point: S + A (the PC32 value is
 * S + A - P, and the unwinder adds P back). */
static int rel_target(const struct orc_scan *s, Elf_Data *syms, Elf_Data *xndx,
		      const GElf_Rela *r, uint64_t *ip, struct sp_err *err)
{
	GElf_Sym sym;
	Elf32_Word ext = 0;
	size_t shndx;
	uint64_t sym_ndx = GELF_R_SYM(r->r_info);

	if (sym_ndx > INT32_MAX || !gelf_getsymshndx(syms, xndx, (int)sym_ndx, &sym, &ext))
		return sp_err_set(err, "'%s': .rela.orc_unwind_ip names symbol %" PRIu64
				  ", which is not in the symbol table", s->path, sym_ndx);
	shndx = sym.st_shndx == SHN_XINDEX ? ext : sym.st_shndx;
	if (shndx == SHN_UNDEF || (sym.st_shndx != SHN_XINDEX && shndx >= SHN_LORESERVE) ||
	    !s->layout || !s->layout->sec_base || shndx >= s->layout->nsec)
		return sp_err_set(err, "'%s': .rela.orc_unwind_ip relocates against symbol %"
				  PRIu64 ", which is in no section", s->path, sym_ndx);
	*ip = sym.st_value + s->layout->sec_base[shndx] + (uint64_t)r->r_addend;
	return 0;
}

/* A module: every word 0 with one R_X86_64_PC32 relocation against the
 * code it describes. */
static int relocated_ips(const struct orc_scan *s, struct orc_row *rows, size_t n,
			 struct sp_err *err)
{
	Elf_Data *rd, *syms, *xndx;
	uint8_t *seen;
	size_t i, nrel, entsize = gelf_fsize(s->elf, ELF_T_RELA, 1, EV_CURRENT);
	int ret = -1;

	if (!s->rela_scn || s->rela_sh.sh_type != SHT_RELA)
		return sp_err_set(err, "'%s': .orc_unwind_ip of an object file without "
				  "its RELA relocations", s->path);
	if (!entsize || !(rd = elf_getdata(s->rela_scn, NULL)) || rd->d_size % entsize)
		return sp_err_set(err, "'%s': truncated or corrupt .rela.orc_unwind_ip section",
				  s->path);
	if (rel_symtab(s, &syms, &xndx, err))
		return -1;
	nrel = rd->d_size / entsize;
	seen = sp_xcalloc(n ? n : 1, 1);
	for (i = 0; i < nrel; i++) {
		GElf_Rela r;
		uint64_t at;

		if (i > INT32_MAX || !gelf_getrela(rd, (int)i, &r)) {
			sp_err_set(err, "'%s': corrupt .rela.orc_unwind_ip section", s->path);
			goto out_free_seen;
		}
		at = r.r_offset / ORC_IP_SIZE;
		if (GELF_R_TYPE(r.r_info) != R_X86_64_PC32 || r.r_offset % ORC_IP_SIZE ||
		    at >= n || seen[at]) {
			sp_err_set(err, "'%s': .rela.orc_unwind_ip: relocation %zu is not one "
				   "PC32 per entry", s->path, i);
			goto out_free_seen;
		}
		seen[at] = 1;
		if (rel_target(s, syms, xndx, &r, &rows[at].ip, err))
			goto out_free_seen;
	}
	for (i = 0; i < n && seen[i]; i++)
		;
	if (i < n)
		sp_err_set(err, "'%s': .orc_unwind_ip entry %zu has no relocation", s->path, i);
	else
		ret = 0;
out_free_seen:
	free(seen);
	return ret;
}

/* Decode the 6-byte entries; -1 on bits a Linux 4.14-6.2 entry never has. */
static int decode_entries(const struct orc_scan *s, const unsigned char *p,
			  struct orc_row *rows, size_t n, struct sp_err *err)
{
	size_t i;

	for (i = 0; i < n; i++, p += ORC_ENTRY_SIZE) {
		uint16_t flags = le16(p + 4);

		if (flags & ~ORC_FLAGS_USED)
			return sp_err_set(err, "'%s': .orc_unwind entry %zu: flags %#x are not "
					  "those of Linux 4.14 to 6.2's ORC", s->path, i, flags);
		rows[i].sp_offset = (int16_t)le16(p);
		rows[i].bp_offset = (int16_t)le16(p + 2);
		rows[i].sp_reg = flags & 0xf;
		rows[i].bp_reg = (flags >> 4) & 0xf;
		rows[i].type = (flags >> 8) & 0x3;
		rows[i].end = (flags >> 10) & 1;
	}
	return 0;
}

static int check_ips(const struct orc_scan *s, const struct orc_row *rows, size_t n,
		     struct sp_err *err)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!in_code(s, rows[i].ip))
			return sp_err_set(err, "'%s': .orc_unwind_ip entry %zu points to %#"
					  PRIx64 ", outside the code", s->path, i, rows[i].ip);
	return 0;
}

/* objtool's section terminator, which a real row at its address overrides */
static bool weak_row(const struct orc_row *r)
{
	return r->sp_reg == ORC_REG_UNDEFINED && !r->end;
}

static int row_order(const struct orc_row *a, const struct orc_row *b)
{
	if (a->ip != b->ip)
		return a->ip < b->ip ? -1 : 1;
	return (int)!weak_row(a) - (int)!weak_row(b);
}

/* Ties past the kernel's order by content: the same input, the same table. */
static int row_cmp(const void *pa, const void *pb)
{
	const struct orc_row *a = pa, *b = pb;
	int c = row_order(a, b);

	if (c)
		return c;
	if (a->sp_reg != b->sp_reg)
		return a->sp_reg - b->sp_reg;
	if (a->sp_offset != b->sp_offset)
		return a->sp_offset - b->sp_offset;
	if (a->type != b->type)
		return a->type - b->type;
	if (a->bp_reg != b->bp_reg)
		return a->bp_reg - b->bp_reg;
	return a->bp_offset - b->bp_offset;
}

static void sort_rows(struct orc_row *rows, size_t n)
{
	size_t i;

	for (i = 1; i < n && row_order(&rows[i - 1], &rows[i]) <= 0; i++)
		;
	if (i < n)
		qsort(rows, n, sizeof(*rows), row_cmp);
}

/* The rows, once the sections are found: -1 and err when untrusted. */
static int read_rows(struct orc_scan *s, struct orc_table *t, struct sp_err *err)
{
	const unsigned char *ip = NULL, *orc;
	size_t n = 0;

	if (count_entries(s, &n, err) ||
	    !(orc = section_bytes(s, s->orc_scn, &s->orc_sh, ".orc_unwind", err)) ||
	    (!s->rel && !(ip = section_bytes(s, s->ip_scn, &s->ip_sh, ".orc_unwind_ip", err))))
		return -1;
	t->rows = sp_xcalloc(n ? n : 1, sizeof(*t->rows));
	t->n = n;
	if (!s->rel)
		linked_ips(s, ip, t->rows, n);
	else if (relocated_ips(s, t->rows, n, err))
		return -1;
	if (decode_entries(s, orc, t->rows, n, err) || check_ips(s, t->rows, n, err))
		return -1;
	sort_rows(t->rows, n);
	return 0;
}

/* Is this an image whose ORC we read?  Others have none (0) or a format
 * we do not know (-1). */
static int orc_image(struct orc_scan *s, bool *yes, struct sp_err *err)
{
	GElf_Ehdr eh;

	*yes = false;
	if (!gelf_getehdr(s->elf, &eh))
		return sp_err_set(err, "'%s': truncated or corrupt ELF header: %s", s->path,
				  elf_errmsg(-1));
	if (!sp_arch(eh.e_machine)->orc || eh.e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh.e_ident[EI_DATA] != ELFDATA2LSB)
		return 0;
	s->rel = eh.e_type == ET_REL;
	if (scan_sections(s, err))
		return -1;
	if (!s->ip_scn && !s->orc_scn)
		return 0;
	if (!s->ip_scn || !s->orc_scn)
		return sp_err_set(err, "'%s': %s section without %s", s->path,
				  s->ip_scn ? ".orc_unwind_ip" : ".orc_unwind",
				  s->ip_scn ? ".orc_unwind" : ".orc_unwind_ip");
	/* a separate debug file keeps the headers, not the bytes */
	if (s->ip_sh.sh_type == SHT_NOBITS || s->orc_sh.sh_type == SHT_NOBITS)
		return 0;
	if (s->has_header)
		return sp_err_set(err, "'%s': the ORC format of Linux 6.4 and later "
				  "(.orc_header) is not supported", s->path);
	*yes = true;
	return 0;
}

int orc_table_read(struct orc_table *t, Elf *elf, const struct orc_layout *layout,
		   const char *path, struct sp_err *err)
{
	struct orc_scan s;
	bool yes;
	int ret;

	memset(t, 0, sizeof(*t));
	memset(&s, 0, sizeof(s));
	s.elf = elf;
	s.path = path;
	s.layout = layout;
	ret = orc_image(&s, &yes, err);
	if (!ret && yes)
		ret = read_rows(&s, t, err);
	if (ret)
		orc_table_release(t);
	free(s.code);
	return ret;
}

void orc_table_release(struct orc_table *t)
{
	free(t->rows);
	memset(t, 0, sizeof(*t));
}

static uint64_t row_ip(const void *base, size_t i)
{
	return ((const struct orc_row *)base)[i].ip;
}

/* The first row whose ip is above addr (n when none is). */
static size_t rows_above(const struct orc_table *t, uint64_t addr)
{
	size_t i = sp_search_last_le(t->rows, t->n, row_ip, addr);

	return i < t->n ? i + 1 : 0;
}

bool orc_can_end(const struct orc_table *t, uint64_t addr)
{
	size_t i = rows_above(t, addr);
	const struct orc_row *r = i ? &t->rows[i - 1] : NULL;

	return !r || weak_row(r) ||
	       (r->sp_reg == ORC_REG_SP && r->sp_offset == 8 && r->type == ORC_TYPE_CALL &&
		!r->end);
}

/* A row that a later row at its address overrides describes no byte. */
static bool overridden(const struct orc_table *t, size_t i)
{
	return i + 1 < t->n && t->rows[i + 1].ip == t->rows[i].ip && weak_row(&t->rows[i]);
}

enum orc_frame_kind orc_frame(const struct orc_table *t, uint64_t lo, uint64_t hi,
			      uint64_t *frame)
{
	size_t i = rows_above(t, lo);
	uint64_t best = 0;

	if (!i || hi <= lo)
		return ORC_FRAME_NONE;
	/* back to the first row of the group in effect at lo */
	for (i--; i > 0 && t->rows[i - 1].ip == t->rows[i].ip; i--)
		;
	for (; i < t->n && t->rows[i].ip < hi; i++) {
		const struct orc_row *r = &t->rows[i];

		if (overridden(t, i))
			continue;
		if (weak_row(r)) {
			if (r->ip <= lo)
				return ORC_FRAME_NONE;
			continue;	/* never reached from the entry */
		}
		if (r->sp_reg != ORC_REG_SP || r->type != ORC_TYPE_CALL || r->end ||
		    r->sp_offset < 0)
			return ORC_FRAME_OTHER;
		if ((uint64_t)r->sp_offset > best)
			best = (uint64_t)r->sp_offset;
	}
	*frame = best;
	return ORC_FRAME_SP;
}
