/*
 * datarel.c - the words of data that relocations write: the one scanner
 * of data relocations, for the address-taken pass and --indirect=types.
 */
#include "elf/elf.h"

/* A relocation section's target, in the layout: false when the section
 * is not one whose words are read as data.  A linked image's dynamic
 * relocations (allocated) hold virtual addresses; an object's apply to
 * the section sh_info, laid out at sec_base (code left out). */
static bool data_target(const struct sp_elf *e, const GElf_Shdr *sh, uint64_t *base)
{
	Elf_Scn *t;
	GElf_Shdr target;

	*base = 0;
	if (e->type != ET_REL)
		return sh->sh_flags & SHF_ALLOC;	/* --emit-relocs: the words hold the values */
	t = elf_getscn(e->elf, sh->sh_info);
	if (!t || !gelf_getshdr(t, &target) || !(target.sh_flags & SHF_ALLOC) ||
	    (target.sh_flags & SHF_EXECINSTR) || sh->sh_info >= e->nsec)
		return false;
	*base = e->sec_base[sh->sh_info];
	return true;
}

/* One relocation: B + A of a RELATIVE one (the image at its link
 * address), S + A of an object's absolute one; false when it writes no
 * pointer or the word in the file already holds it (REL's RELATIVE). */
static bool word_value(const struct sp_elf *e, struct sp_graph *g, const GElf_Rela *r,
		       bool rela, uint64_t *value)
{
	uint32_t type = (uint32_t)GELF_R_TYPE(r->r_info);
	const char *name;

	if (!type)
		return false;
	if (type == e->arch->rel_relative) {
		*value = (uint64_t)r->r_addend;
		return rela;
	}
	if (type != e->arch->rel_word || e->type != ET_REL ||
	    !sp_elf_sym_value(e, GELF_R_SYM(r->r_info), value, &name, g))
		return false;
	*value += (uint64_t)r->r_addend;
	return true;
}

static void scan_section(const struct sp_elf *e, struct sp_graph *g, Elf_Scn *scn,
			 const GElf_Shdr *sh, sp_elf_data_reloc_fn *fn, void *arg)
{
	Elf_Data *data = elf_getdata(scn, NULL);
	size_t i, n = sh->sh_entsize ? sh->sh_size / sh->sh_entsize : 0;
	bool rela = sh->sh_type == SHT_RELA;
	uint64_t base, value;

	if (!data_target(e, sh, &base))
		return;
	for (i = 0; data && i < n && i <= INT32_MAX; i++) {
		GElf_Rela r;
		GElf_Rel rel;

		if (rela ? !gelf_getrela(data, (int)i, &r) : !gelf_getrel(data, (int)i, &rel))
			break;
		if (!rela) {
			r.r_offset = rel.r_offset;
			r.r_info = rel.r_info;
			r.r_addend = 0;	/* in the word: an object's words stay as read */
		}
		if (word_value(e, g, &r, rela, &value))
			fn(arg, base + r.r_offset, value);
	}
}

void sp_elf_each_data_reloc(const struct sp_elf *e, struct sp_graph *g,
			    sp_elf_data_reloc_fn *fn, void *arg)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	while ((scn = elf_nextscn(e->elf, scn)))
		if (gelf_getshdr(scn, &sh) && (sh.sh_type == SHT_RELA || sh.sh_type == SHT_REL))
			scan_section(e, g, scn, &sh, fn, arg);
}
