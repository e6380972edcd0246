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

struct reloc_fill {
	struct ind_data *d;
	size_t cap;
};

static void add_reloc(void *arg, uint64_t addr, uint64_t value)
{
	struct reloc_fill *f = arg;
	struct ind_data *d = f->d;

	SP_ALLOC_GROW(d->relocs, d->nrelocs + 1, f->cap);
	d->relocs[d->nrelocs].addr = addr;
	d->relocs[d->nrelocs++].value = value;
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
		d->objects[d->nobjects].global = GELF_ST_BIND(sym.st_info) != STB_LOCAL;
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

bool ind_data_object_local(const struct ind_data *d, uint64_t addr)
{
	size_t i = sp_search_first_ge(d->objects, d->nobjects, object_addr, addr);
	bool any = false;

	for (; i < d->nobjects && d->objects[i].addr == addr; i++) {
		if (d->objects[i].global)
			return false;
		any = true;
	}
	return any;
}

void ind_data_init(struct ind_data *d, const struct sp_elf *e, struct sp_graph *g)
{
	unsigned char *ident = (unsigned char *)elf_getident(e->elf, NULL);
	struct reloc_fill rf = { d, 0 };
	size_t scap = 0;
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	memset(d, 0, sizeof(*d));
	d->word = ident && ident[EI_CLASS] == ELFCLASS32 ? 4 : 8;
	d->msb = ident && ident[EI_DATA] == ELFDATA2MSB;
	while ((scn = elf_nextscn(e->elf, scn))) {
		if (!gelf_getshdr(scn, &sh))
			continue;
		if (sh.sh_type != SHT_RELA && sh.sh_type != SHT_REL &&
		    (sh.sh_flags & SHF_ALLOC) && !(sh.sh_flags & SHF_EXECINSTR) && sh.sh_size)
			add_section(d, &scap, e, scn, &sh);
	}
	sp_elf_each_data_reloc(e, g, add_reloc, &rf);
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

static uint64_t read_word(const struct ind_data *d, const unsigned char *p)
{
	uint64_t value = 0;
	unsigned k;

	/* a 64-bit little-endian image's: one load, not a loop of bytes
	 * (ind_data_words reads every word of a kernel's data) */
	if (d->word == 8 && !d->msb)
		return (uint64_t)p[0] | (uint64_t)p[1] << 8 | (uint64_t)p[2] << 16 |
		       (uint64_t)p[3] << 24 | (uint64_t)p[4] << 32 | (uint64_t)p[5] << 40 |
		       (uint64_t)p[6] << 48 | (uint64_t)p[7] << 56;
	for (k = 0; k < d->word; k++)
		value |= (uint64_t)p[d->msb ? d->word - 1 - k : k] << (8 * k);
	return value;
}

bool ind_data_word(const struct ind_data *d, uint64_t addr, uint64_t *value)
{
	const struct ind_section *s;
	size_t i = sp_search_first_ge(d->relocs, d->nrelocs, reloc_addr, addr);

	if (i < d->nrelocs && d->relocs[i].addr == addr) {
		*value = d->relocs[i].value;
		return true;
	}
	s = ind_data_section(d, addr);
	if (!s || !s->bytes || s->size - (addr - s->addr) < d->word)
		return false;
	*value = read_word(d, s->bytes + (addr - s->addr));
	return true;
}

/* The words of s from *a on that need no look at a relocation nor at a
 * later section (below stop), each in [lo, hi] to fn: the loop over
 * most of a kernel's data, a load and two compares a word. */
static void plain_words(const struct ind_data *d, const struct ind_section *s, uint64_t *a,
			uint64_t stop, uint64_t lo, uint64_t hi,
			void (*fn)(void *arg, uint64_t addr, uint64_t value), void *arg)
{
	uint64_t w;

	for (; *a + d->word <= stop; *a += d->word) {
		w = read_word(d, s->bytes + (*a - s->addr));
		if (w >= lo && w <= hi)
			fn(arg, *a, w);
	}
}

void ind_data_words(const struct ind_data *d, size_t k, uint64_t lo, uint64_t hi,
		    void (*fn)(void *arg, uint64_t addr, uint64_t value), void *arg)
{
	const struct ind_section *s = &d->secs[k];
	uint64_t end = s->addr + s->size, own = end, a = s->addr, stop, w;
	size_t j = sp_search_first_ge(d->relocs, d->nrelocs, reloc_addr, s->addr);

	if (!s->bytes || !d->word)
		return;
	/* from where a later section begins, ind_data_word reads that one */
	if (k + 1 < d->nsecs && d->secs[k + 1].addr < own)
		own = d->secs[k + 1].addr;
	for (; a + d->word <= end; a += d->word) {
		while (j < d->nrelocs && d->relocs[j].addr < a)
			j++;
		stop = j < d->nrelocs && d->relocs[j].addr < own ? d->relocs[j].addr : own;
		plain_words(d, s, &a, stop, lo, hi, fn, arg);
		if (a + d->word > end)
			break;
		/* the word at a: a relocation's, one that runs into a
		 * relocation or into the next section */
		while (j < d->nrelocs && d->relocs[j].addr < a)
			j++;
		if (j < d->nrelocs && d->relocs[j].addr == a)
			w = d->relocs[j].value;
		else if (a + d->word <= own)
			w = read_word(d, s->bytes + (a - s->addr));
		else if (!ind_data_word(d, a, &w))
			continue;
		if (w >= lo && w <= hi)
			fn(arg, a, w);
	}
}
