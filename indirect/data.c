/*
 * data.c - the words of an image's data as it runs: the bytes of its
 * allocated sections, and what the loader writes over them (a PIE's
 * RELATIVE relocations, whose words are 0 in the file; a relocatable
 * object's absolute relocations, laid out as elf/ lays its sections).
 */
#include "indirect/internal.h"

#include <string.h>

#include "common/search.h"
#include "common/xalloc.h"

#ifndef R_AARCH64_RELATIVE
#define R_AARCH64_RELATIVE 1027
#endif
#ifndef R_AARCH64_ABS64
#define R_AARCH64_ABS64 257
#endif

static int sec_cmp(const void *pa, const void *pb)
{
	const struct ind_section *a = pa, *b = pb;

	return (a->addr > b->addr) - (a->addr < b->addr);
}

static int reloc_cmp(const void *pa, const void *pb)
{
	const struct ind_reloc *a = pa, *b = pb;

	return (a->addr > b->addr) - (a->addr < b->addr);
}

static uint64_t sec_base(const struct sp_elf *e, size_t ndx, const GElf_Shdr *sh)
{
	if (e->type != ET_REL)
		return sh->sh_addr;
	return ndx < e->nsec ? e->sec_base[ndx] : 0;
}

static void add_section(struct ind_data *d, size_t *cap, const struct sp_elf *e,
			Elf_Scn *scn, const GElf_Shdr *sh)
{
	Elf_Data *data = sh->sh_type == SHT_NOBITS ? NULL : elf_getdata(scn, NULL);
	struct ind_section *s;

	if (sh->sh_type != SHT_NOBITS && (!data || !data->d_buf || data->d_size < sh->sh_size))
		return;
	SP_ALLOC_GROW(d->secs, d->nsecs + 1, *cap);
	s = &d->secs[d->nsecs++];
	s->addr = sec_base(e, elf_ndxscn(scn), sh);
	s->size = sh->sh_size;
	s->bytes = data ? data->d_buf : NULL;
	s->writable = sh->sh_flags & SHF_WRITE;
}

/* An absolute relocation of a pointer-sized word, and how its value is
 * made: relative to the image (PIE) or to a symbol (an object). */
static bool word_reloc(uint16_t machine, uint32_t type, bool *relative)
{
	*relative = (machine == EM_X86_64 && type == R_X86_64_RELATIVE) ||
		    (machine == EM_AARCH64 && type == R_AARCH64_RELATIVE) ||
		    (machine == EM_ARM && type == R_ARM_RELATIVE);
	return *relative || (machine == EM_X86_64 && type == R_X86_64_64) ||
	       (machine == EM_AARCH64 && type == R_AARCH64_ABS64) ||
	       (machine == EM_ARM && type == R_ARM_ABS32);
}

static void add_reloc(struct ind_data *d, size_t *cap, uint64_t addr, uint64_t value)
{
	SP_ALLOC_GROW(d->relocs, d->nrelocs + 1, *cap);
	d->relocs[d->nrelocs].addr = addr;
	d->relocs[d->nrelocs++].value = value;
}

/* One relocation section: a linked image's dynamic RELATIVE ones, or an
 * object's relocations of its data. */
static void read_relocs(struct ind_data *d, size_t *cap, const struct sp_elf *e,
			struct sp_graph *g, Elf_Scn *scn, const GElf_Shdr *sh)
{
	Elf_Data *data = elf_getdata(scn, NULL);
	uint64_t base = 0;
	size_t i, n = sh->sh_entsize ? sh->sh_size / sh->sh_entsize : 0;
	GElf_Shdr target;

	if (e->type == ET_REL) {
		Elf_Scn *t = elf_getscn(e->elf, sh->sh_info);

		if (!t || !gelf_getshdr(t, &target) || !(target.sh_flags & SHF_ALLOC) ||
		    (target.sh_flags & SHF_EXECINSTR) || sh->sh_info >= e->nsec)
			return;
		base = e->sec_base[sh->sh_info];
	} else if (!(sh->sh_flags & SHF_ALLOC)) {
		return;		/* --emit-relocs: the words already hold the values */
	}
	for (i = 0; data && i < n && i <= INT32_MAX; i++) {
		GElf_Rela r;
		GElf_Rel rel;
		bool relative;
		uint64_t value;
		const char *name;

		if (sh->sh_type == SHT_RELA ? !gelf_getrela(data, (int)i, &r) :
		    !gelf_getrel(data, (int)i, &rel))
			break;
		if (sh->sh_type == SHT_REL) {
			r.r_offset = rel.r_offset;
			r.r_info = rel.r_info;
			r.r_addend = 0;	/* in the word: an object's words stay as read */
		}
		if (!word_reloc(e->machine, (uint32_t)GELF_R_TYPE(r.r_info), &relative))
			continue;
		if (relative)
			add_reloc(d, cap, base + r.r_offset, (uint64_t)r.r_addend);
		else if (e->type == ET_REL &&
			 sp_elf_sym_value(e, GELF_R_SYM(r.r_info), &value, &name, g))
			add_reloc(d, cap, base + r.r_offset, value + (uint64_t)r.r_addend);
	}
}

static int object_cmp(const void *pa, const void *pb)
{
	const struct ind_object *a = pa, *b = pb;

	if (a->addr != b->addr)
		return (a->addr > b->addr) - (a->addr < b->addr);
	return (a->size > b->size) - (a->size < b->size);
}

/* The sized data symbols of a linked image: what DWARF says of a table's
 * size is checked against them. */
static void read_objects(struct ind_data *d, const struct sp_elf *e)
{
	Elf_Data *data;
	GElf_Shdr sh;
	size_t i, n, cap = 0;

	if (e->type == ET_REL || !e->symtab || !gelf_getshdr(e->symtab, &sh) || !sh.sh_entsize ||
	    !(data = elf_getdata(e->symtab, NULL)))
		return;
	n = sh.sh_size / sh.sh_entsize;
	for (i = 0; i < n && i <= INT32_MAX; i++) {
		GElf_Sym sym;

		if (!gelf_getsym(data, (int)i, &sym) || GELF_ST_TYPE(sym.st_info) != STT_OBJECT ||
		    !sym.st_size || sym.st_shndx == SHN_UNDEF)
			continue;
		SP_ALLOC_GROW(d->objects, d->nobjects + 1, cap);
		d->objects[d->nobjects].addr = sym.st_value;
		d->objects[d->nobjects++].size = sym.st_size;
	}
	if (d->nobjects)
		qsort(d->objects, d->nobjects, sizeof(*d->objects), object_cmp);
}

static uint64_t object_addr(const void *base, size_t i)
{
	return ((const struct ind_object *)base)[i].addr;
}

uint64_t ind_data_object_size(const struct ind_data *d, uint64_t addr)
{
	size_t i = sp_search_first_ge(d->objects, d->nobjects, object_addr, addr);

	return i < d->nobjects && d->objects[i].addr == addr ? d->objects[i].size : 0;
}

void ind_data_init(struct ind_data *d, const struct sp_elf *e, struct sp_graph *g)
{
	unsigned char *ident = (unsigned char *)elf_getident(e->elf, NULL);
	size_t scap = 0, rcap = 0;
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	memset(d, 0, sizeof(*d));
	d->word = ident && ident[EI_CLASS] == ELFCLASS32 ? 4 : 8;
	d->msb = ident && ident[EI_DATA] == ELFDATA2MSB;
	while ((scn = elf_nextscn(e->elf, scn))) {
		if (!gelf_getshdr(scn, &sh))
			continue;
		if (sh.sh_type == SHT_RELA || sh.sh_type == SHT_REL)
			read_relocs(d, &rcap, e, g, scn, &sh);
		else if ((sh.sh_flags & SHF_ALLOC) && !(sh.sh_flags & SHF_EXECINSTR) && sh.sh_size)
			add_section(d, &scap, e, scn, &sh);
	}
	if (d->nsecs)
		qsort(d->secs, d->nsecs, sizeof(*d->secs), sec_cmp);
	if (d->nrelocs)
		qsort(d->relocs, d->nrelocs, sizeof(*d->relocs), reloc_cmp);
	read_objects(d, e);
}

void ind_data_release(struct ind_data *d)
{
	free(d->secs);
	free(d->relocs);
	free(d->objects);
	memset(d, 0, sizeof(*d));
}

static uint64_t sec_addr(const void *base, size_t i)
{
	return ((const struct ind_section *)base)[i].addr;
}

static uint64_t reloc_addr(const void *base, size_t i)
{
	return ((const struct ind_reloc *)base)[i].addr;
}

const struct ind_section *ind_data_section(const struct ind_data *d, uint64_t addr)
{
	size_t i = sp_search_last_le(d->secs, d->nsecs, sec_addr, addr);

	return i < d->nsecs && addr - d->secs[i].addr < d->secs[i].size ? &d->secs[i] : NULL;
}

bool ind_data_word(const struct ind_data *d, uint64_t addr, uint64_t *value)
{
	const struct ind_section *s;
	size_t i = sp_search_first_ge(d->relocs, d->nrelocs, reloc_addr, addr);
	const unsigned char *p;
	unsigned k;

	if (i < d->nrelocs && d->relocs[i].addr == addr) {
		*value = d->relocs[i].value;
		return true;
	}
	s = ind_data_section(d, addr);
	if (!s || !s->bytes || s->size - (addr - s->addr) < d->word)
		return false;
	p = s->bytes + (addr - s->addr);
	*value = 0;
	for (k = 0; k < d->word; k++)
		*value |= (uint64_t)p[d->msb ? d->word - 1 - k : k] << (8 * k);
	return true;
}
