/*
 * object.c - an image's sections as the DWARF readers see them: served
 * from the file mapped read-only, and a relocatable object's (.o, .ko)
 * relocated.
 *
 * In an object built with -ffunction-sections (or with .init.text,
 * .exit.text... as every kernel module has) each code section starts at
 * 0, so DW_AT_low_pc and call return addresses of different functions
 * collide.  elf.c lays the allocated sections out one after the other;
 * here every .debug_* section that has a .rela/.rel section is copied
 * and relocated against that layout when it is first loaded, and the
 * readers (and libdwarf, for the CFI) read the copies.
 */
#include "dwarf/internal.h"

#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "common/xalloc.h"

bool dw_obj_section_header(const struct dw_obj *o, size_t i, struct dw_secinfo *out)
{
	Elf_Scn *scn = elf_getscn(o->elf->elf, i);
	GElf_Shdr sh;

	memset(out, 0, sizeof(*out));
	if (!scn || !gelf_getshdr(scn, &sh))
		return false;
	out->s.ndx = i;
	out->s.addr = i < o->elf->nsec ? o->elf->sec_base[i] :
		      o->elf->type == ET_REL ? 0 : sh.sh_addr;
	out->s.size = sh.sh_size;
	out->name = elf_strptr(o->elf->elf, o->shstrndx, sh.sh_name);
	if (!out->name)
		out->name = "";
	out->type = sh.sh_type;
	out->flags = sh.sh_flags;
	out->align = sh.sh_addralign;
	out->entsize = sh.sh_entsize;
	out->link = sh.sh_link;
	out->info = sh.sh_info;
	return true;
}

static void relocate(struct dw_obj *o, size_t target);

const unsigned char *dw_obj_load(struct dw_obj *o, size_t i)
{
	Elf_Scn *scn;
	Elf_Data *d;

	if (i < o->nsec && !o->copies[i] && o->rel_of[i])
		relocate(o, i);
	if (i < o->nsec && o->copies[i])
		return o->copies[i];
	scn = elf_getscn(o->elf->elf, i);
	if (o->map && scn && !(i < o->nsec && o->inflated[i])) {
		GElf_Shdr sh;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type == SHT_NOBITS || !sh.sh_size ||
		    sh.sh_offset > o->map_len || sh.sh_size > o->map_len - sh.sh_offset)
			return NULL;
		return o->map + sh.sh_offset;
	}
	d = scn ? elf_rawdata(scn, NULL) : NULL;
	return d && d->d_buf && d->d_size ? d->d_buf : NULL;
}

/* Every symbol's value in the ELF stage's layout, read once: a module's
 * .debug_info has a relocation for nearly every string and address, and
 * reading its symbol through libelf each time was most of relocating.
 * An undefined symbol's value is 0, as ld -r would leave it. */
static void read_sym_values(struct dw_obj *o)
{
	GElf_Shdr sh;
	GElf_Sym sym;
	Elf_Data *d;
	size_t i, n;

	o->nsym_values = 0;
	if (!o->elf->symtab || !gelf_getshdr(o->elf->symtab, &sh) || !sh.sh_entsize ||
	    !(d = elf_getdata(o->elf->symtab, NULL)))
		return;
	/* what libelf holds, not what a hostile header claims */
	n = d->d_size / sh.sh_entsize;
	o->sym_values = sp_xcalloc(n ? n : 1, sizeof(*o->sym_values));
	for (i = 0; i < n && i <= INT32_MAX && gelf_getsym(d, (int)i, &sym); i++)
		if (sym.st_shndx != SHN_UNDEF)
			o->sym_values[i] = sym.st_value + (sym.st_shndx < o->elf->nsec ?
							   o->elf->sec_base[sym.st_shndx] : 0);
	o->nsym_values = i;
}

static void apply_one(struct dw_obj *o, unsigned char *buf, size_t len,
		      uint64_t off, uint64_t info, bool rela, int64_t addend)
{
	/* absolute relocations as GCC emits them in .debug_*; a type not
	 * in the table is not applied (TLS offsets of variables, ...) */
	const struct sp_arch_rel *r = sp_arch_rel(o->elf->arch->debug, (uint32_t)GELF_R_TYPE(info));
	unsigned size = r ? (unsigned)r->arg : 0;
	uint64_t sym = GELF_R_SYM(info);

	if (!size || off > len || len - off < size)
		return;		/* hostile or unknown: leave the bytes as they are */
	if (!rela)
		addend = (int64_t)dw_read_uint(buf + off, size, o->msb);
	dw_write_uint(buf + off, size, (sym < o->nsym_values ? o->sym_values[sym] : 0) +
		      (uint64_t)addend, o->msb);
}

/* A section smaller than this keeps its pages until the image is parked
 * (dw_obj_drop): each madvise() of a process with threads flushes every
 * core's TLB, and a module has a few small sections to relocate. */
#define DROP_MIN (1u << 20)

/* Hand the pages of a section in o's mapping back (a later read faults
 * them in again): the mapping is read-only, so whole pages are safe. */
static void drop_pages(const struct dw_obj *o, const GElf_Shdr *sh)
{
	uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE), lo, hi;

	if (!o->map || sh->sh_type == SHT_NOBITS || sh->sh_size < DROP_MIN ||
	    sh->sh_offset > o->map_len || sh->sh_size > o->map_len - sh->sh_offset)
		return;
	lo = sh->sh_offset / page * page;
	hi = sh->sh_offset + sh->sh_size;
	madvise(o->map + lo, hi - lo, MADV_DONTNEED);
}

/* The bytes of a section in o's own mapping of the file, or NULL. */
static const unsigned char *mapped(const struct dw_obj *o, const GElf_Shdr *sh)
{
	if (!o->map || sh->sh_type == SHT_NOBITS || sh->sh_offset > o->map_len ||
	    sh->sh_size > o->map_len - sh->sh_offset)
		return NULL;
	return o->map + sh->sh_offset;
}

/* One relocation of a section: r_info in GElf's (64-bit) layout. */
struct reloc {
	uint64_t offset, info;
	int64_t addend;
	bool rela;
};

/* Entry i of the relocation section sh, read from the mapping as
 * gelf_getrel(a) would: libelf's own reads of .rela.debug_* (the
 * largest sections of a module) would stay in memory to the end. */
static void read_mapped_reloc(const struct dw_obj *o, const unsigned char *p,
			      const GElf_Shdr *sh, size_t i, struct reloc *r)
{
	unsigned w = o->elf64 ? 8 : 4;
	uint64_t info;

	r->rela = sh->sh_type == SHT_RELA;
	p += i * sh->sh_entsize;
	r->offset = dw_read_uint(p, w, o->msb);
	info = dw_read_uint(p + w, w, o->msb);
	r->info = o->elf64 ? info : GELF_R_INFO(ELF32_R_SYM(info), ELF32_R_TYPE(info));
	r->addend = !r->rela ? 0 : o->elf64 ? (int64_t)dw_read_uint(p + 2 * w, w, o->msb) :
		    (int32_t)(uint32_t)dw_read_uint(p + 2 * w, w, o->msb);
}

static bool read_reloc(const struct dw_obj *o, Elf_Data *rd, const unsigned char *p,
		       const GElf_Shdr *sh, size_t i, struct reloc *r)
{
	GElf_Rela ra;
	GElf_Rel rl;

	if (p) {
		read_mapped_reloc(o, p, sh, i, r);
		return true;
	}
	r->rela = sh->sh_type == SHT_RELA;
	if (r->rela && gelf_getrela(rd, (int)i, &ra)) {
		r->offset = ra.r_offset;
		r->info = ra.r_info;
		r->addend = ra.r_addend;
		return true;
	}
	if (!r->rela && gelf_getrel(rd, (int)i, &rl)) {
		r->offset = rl.r_offset;
		r->info = rl.r_info;
		r->addend = 0;
		return true;
	}
	return false;
}

/* The size of one entry of a relocation section of the object's class. */
static uint64_t reloc_entsize(const struct dw_obj *o, const GElf_Shdr *sh)
{
	return (o->elf64 ? 8 : 4) * (sh->sh_type == SHT_RELA ? 3 : 2);
}

/* Copy the section that rel relocates, if it is DWARF, and apply rel.
 * Both are read from the mapping when there is one (see dw_obj_drop). */
static void relocate_section(struct dw_obj *o, Elf_Scn *rel, const GElf_Shdr *sh)
{
	Elf_Scn *target = elf_getscn(o->elf->elf, sh->sh_info);
	const unsigned char *src, *relp;
	Elf_Data *rd = NULL, *td = NULL;
	GElf_Shdr tsh;
	const char *name;
	size_t i, n;

	if (!target || !gelf_getshdr(target, &tsh) || (tsh.sh_flags & SHF_ALLOC) ||
	    sh->sh_info >= o->nsec || !sh->sh_entsize)
		return;
	name = elf_strptr(o->elf->elf, o->shstrndx, tsh.sh_name);
	if (!name || strncmp(name, ".debug_", 7) || tsh.sh_type == SHT_NOBITS || !tsh.sh_size)
		return;
	src = mapped(o, &tsh);
	if (!src && (!(td = elf_rawdata(target, NULL)) || !td->d_buf ||
		     td->d_size != tsh.sh_size))
		return;
	relp = sh->sh_entsize == reloc_entsize(o, sh) ? mapped(o, sh) : NULL;
	if (!relp && !(rd = elf_getdata(rel, NULL)))
		return;
	if (!o->sym_values)
		read_sym_values(o);
	if (!o->copies[sh->sh_info]) {
		o->copies[sh->sh_info] = sp_xmalloc(tsh.sh_size);
		memcpy(o->copies[sh->sh_info], src ? src : td->d_buf, tsh.sh_size);
	}
	n = sh->sh_size / sh->sh_entsize;
	for (i = 0; i < n && i <= INT32_MAX; i++) {
		struct reloc r;

		if (read_reloc(o, rd, relp, sh, i, &r))
			apply_one(o, o->copies[sh->sh_info], tsh.sh_size, r.offset, r.info,
				  r.rela, r.addend);
	}
}

/* The copy of section target, relocated: made when it is first loaded,
 * so that a parked image asked for its CFI alone (cfi.c) relocates
 * .debug_frame alone. */
static void relocate(struct dw_obj *o, size_t target)
{
	Elf_Scn *rel = elf_getscn(o->elf->elf, o->rel_of[target]);
	Elf_Scn *scn = elf_getscn(o->elf->elf, target);
	GElf_Shdr sh, tsh;

	if (!rel || !gelf_getshdr(rel, &sh))
		return;
	relocate_section(o, rel, &sh);
	/* what was read to make the copy is not read again */
	drop_pages(o, &sh);
	if (scn && gelf_getshdr(scn, &tsh))
		drop_pages(o, &tsh);
}

/* Map the file once more, read-only, to serve sections from (libelf
 * does not say whether it mapped or read the file, and only a file
 * mapping may be handed back by dw_obj_info_done and dw_obj_drop). */
static void dwobj_map(struct dw_obj *o, const struct sp_elf *e)
{
	off_t len = lseek(e->fd, 0, SEEK_END);
	void *p;

	if (len <= 0)
		return;
	p = mmap(NULL, (size_t)len, PROT_READ, MAP_PRIVATE, e->fd, 0);
	if (p == MAP_FAILED)
		return;		/* libelf's data serves then */
	o->map = p;
	o->map_len = (size_t)len;
}

static void find_debug_info(struct dw_obj *o, const struct sp_elf *e)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	while ((scn = elf_nextscn(e->elf, scn))) {
		const char *name;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type == SHT_NOBITS)
			continue;
		name = elf_strptr(e->elf, o->shstrndx, sh.sh_name);
		if (name && !strcmp(name, ".debug_info")) {
			o->info_ndx = elf_ndxscn(scn);
			o->info_off = sh.sh_offset;
			o->info_size = sh.sh_size;
		}
	}
}

/* The offset of the unit after the one at off, 0 when none fits. */
static uint64_t next_unit(const struct dw_obj *o, const unsigned char *data, uint64_t off)
{
	uint64_t len;
	unsigned hdr;

	return dw_unit_length(data + off, o->info_size - off, o->msb, &len, &hdr) ?
	       off + hdr + len : 0;
}

static const unsigned char *info_data(struct dw_obj *o)
{
	return o->info_ndx ? dw_obj_load(o, o->info_ndx) : NULL;
}

uint32_t dw_obj_count_units(struct dw_obj *o)
{
	const unsigned char *data = info_data(o);
	uint64_t off = 0;
	uint32_t n = 0;

	while (data && (off = next_unit(o, data, off)))
		n++;
	return n;
}

uint64_t dw_obj_middle_unit(struct dw_obj *o)
{
	const unsigned char *data = info_data(o);
	uint64_t half = o->info_size / 2, off = 0, before = 0;

	while (data && (off = next_unit(o, data, off)) && off < o->info_size) {
		if (off >= half)	/* the boundary nearest the middle */
			return before && half - before < off - half ? before : off;
		before = off;
	}
	return before;
}

/* .debug_info is handed back this much at a time: each madvise() of a
 * process with threads flushes every core's TLB, and a kernel has
 * thousands of units (a call per unit was 12 % of a run's CPU). */
#define DROP_BATCH (8u << 20)

void dw_obj_info_done(const struct dw_obj *o, uint64_t *dropped, uint64_t upto)
{
	uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE), lo, hi;

	/* a relocated copy is what the walk reads: the mapping's pages of
	 * .debug_info went back when it was made, or go at dw_obj_drop */
	if (!o->map || !o->info_ndx || upto > o->info_size || o->copies[o->info_ndx])
		return;
	if (o->inflated[o->info_ndx])
		return;		/* libelf's buffer, not the mapping */
	/* whole pages only: the next unit starts on the last one, and
	 * another walker's units may start on the first */
	lo = (o->info_off + *dropped + page - 1) / page * page;
	hi = (o->info_off + upto) / page * page;
	if (hi < lo + DROP_BATCH && upto < o->info_size)
		return;
	if (hi > lo && hi <= o->map_len)
		madvise(o->map + lo, hi - lo, MADV_DONTNEED);
	if (upto > *dropped)
		*dropped = upto;
}

void dw_obj_drop(const struct dw_obj *o)
{
	if (o->map)
		madvise(o->map, o->map_len, MADV_DONTNEED);
}

/* Compressed .debug_* sections (a distribution's debug files: zlib
 * behind an Elf_Chdr) decompressed by libelf, which then serves them and
 * their headers say the decompressed size. */
static void inflate(struct dw_obj *o, const struct sp_elf *e)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	o->inflated = sp_xcalloc(o->nsec ? o->nsec : 1, sizeof(*o->inflated));
	while (e->type != ET_REL && (scn = elf_nextscn(e->elf, scn))) {
		size_t i = elf_ndxscn(scn);

		if (i < o->nsec && gelf_getshdr(scn, &sh) && (sh.sh_flags & SHF_COMPRESSED) &&
		    !(sh.sh_flags & SHF_ALLOC) && elf_compress(scn, 0, 0) == 1)
			o->inflated[i] = o->any_inflated = true;
	}
}

void dw_obj_open(struct dw_obj *o, const struct sp_elf *e)
{
	Elf_Scn *scn = NULL;
	GElf_Ehdr eh;
	GElf_Shdr sh;

	memset(o, 0, sizeof(*o));
	o->elf = e;
	o->nsec = e->nsec;
	if (e->type != ET_REL && elf_getshdrnum(e->elf, &o->nsec))
		o->nsec = 0;
	o->copies = sp_xcalloc(o->nsec ? o->nsec : 1, sizeof(*o->copies));
	o->rel_of = sp_xcalloc(o->nsec ? o->nsec : 1, sizeof(*o->rel_of));
	if (elf_getshdrstrndx(e->elf, &o->shstrndx))
		o->shstrndx = 0;
	if (gelf_getehdr(e->elf, &eh)) {
		o->msb = eh.e_ident[EI_DATA] == ELFDATA2MSB;
		o->elf64 = eh.e_ident[EI_CLASS] == ELFCLASS64;
	}
	dwobj_map(o, e);
	/* a linked image's .debug_* are final (--emit-relocs keeps .rela.*) */
	while (e->type == ET_REL && (scn = elf_nextscn(e->elf, scn)))
		if (gelf_getshdr(scn, &sh) && (sh.sh_type == SHT_RELA || sh.sh_type == SHT_REL) &&
		    sh.sh_info < o->nsec && !o->rel_of[sh.sh_info])
			o->rel_of[sh.sh_info] = elf_ndxscn(scn);
	inflate(o, e);
	find_debug_info(o, e);
}

bool dw_obj_has_dwarf(const struct dw_obj *o)
{
	/* the sections that say an ELF file has DWARF, as libdwarf counts
	 * them (.eh_frame too: a program built without -g is told it has no
	 * compile units, one without any of these that it has no DWARF) */
	static const char *const names[] = {
		".debug_info", ".debug_types", ".debug_abbrev", ".debug_line",
		".debug_frame", ".eh_frame", ".debug_macinfo", ".debug_macro",
		".debug_ranges", ".debug_sup", ".debug_addr",
	};
	struct dw_secinfo h;
	size_t i, k;

	for (i = 1; i < o->nsec; i++)
		for (k = 0; dw_obj_section_header(o, i, &h) && k < sizeof(names) / sizeof(*names);
		     k++)
			if (!strcmp(h.name, names[k]))
				return true;
	return false;
}

bool dw_obj_section(struct dw_obj *o, const char *name, struct dw_section *out)
{
	struct dw_secinfo h;
	size_t i;

	for (i = 1; i < o->nsec; i++) {
		if (!dw_obj_section_header(o, i, &h) || strcmp(h.name, name))
			continue;
		if (h.type == SHT_NOBITS || !(h.s.data = dw_obj_load(o, i)))
			return false;
		*out = h.s;
		return true;
	}
	return false;
}

void dw_obj_free_copies(struct dw_obj *o)
{
	size_t i;

	for (i = 0; o->copies && i < o->nsec; i++) {
		free(o->copies[i]);
		o->copies[i] = NULL;
	}
	free(o->sym_values);
	o->sym_values = NULL;
	o->nsym_values = 0;
}

void dw_obj_release(struct dw_obj *o)
{
	dw_obj_free_copies(o);
	free(o->copies);
	free(o->rel_of);
	free(o->inflated);
	if (o->map)
		munmap(o->map, o->map_len);
	memset(o, 0, sizeof(*o));
}
