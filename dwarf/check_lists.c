/*
 * lists_check.c - look over .debug_rnglists and .debug_loclists before
 * libdwarf does.  libdwarf 20210528 frees twice on a corrupt table
 * header in these sections (dwarf_load_rnglists, found by fuzz_elf), so
 * a header that does not fit is reported here, as the file's error,
 * and libdwarf never sees it.  Each table: unit_length (4 bytes, or
 * 0xffffffff + 8), version 5, address size 4 or 8, segment selector
 * size 0, offset_entry_count offsets, all inside the section.
 * (Compressed sections are left to libdwarf.)  .debug_line goes to
 * lines.c from the same loop.
 */
#include "dwarf/internal.h"

#include <string.h>

static uint64_t get_le(const unsigned char *p, int n)
{
	uint64_t v = 0;

	while (n--)
		v = v << 8 | p[n];
	return v;
}

/* True when [p, p + size) is a well-formed sequence of table headers. */
static bool lists_ok(const unsigned char *p, uint64_t size)
{
	uint64_t off = 0;

	while (off < size) {
		uint64_t rest = size - off, len;
		int offsize = 4, lensize = 4;

		if (rest < 4)
			return false;
		len = get_le(p + off, 4);
		if (len == 0xffffffffu) {
			if (rest < 12)
				return false;
			len = get_le(p + off + 4, 8);
			offsize = 8;
			lensize = 12;
		} else if (len >= 0xfffffff0u) {
			return false;
		}
		if (len < 8 || len > rest - (uint64_t)lensize)
			return false;
		off += (uint64_t)lensize;
		if (get_le(p + off, 2) != 5 || (p[off + 2] != 4 && p[off + 2] != 8) ||
		    p[off + 3] != 0)
			return false;
		if (get_le(p + off + 4, 4) > (len - 8) / (uint64_t)offsize)
			return false;
		off += len;
	}
	return true;
}

int dw_check_lists(const struct sp_elf *e, const char *path, struct sp_err *err)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx;
	GElf_Shdr sh;

	if (elf_getshdrstrndx(e->elf, &shstrndx))
		return 0;	/* elf_scan_sections has reported it already */
	while ((scn = elf_nextscn(e->elf, scn))) {
		bool (*ok)(const unsigned char *p, uint64_t size);
		const char *name;
		Elf_Data *d;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type == SHT_NOBITS ||
		    (sh.sh_flags & SHF_COMPRESSED))
			continue;
		name = elf_strptr(e->elf, shstrndx, sh.sh_name);
		if (!name)
			continue;
		if (!strcmp(name, ".debug_rnglists") || !strcmp(name, ".debug_loclists"))
			ok = lists_ok;
		else if (!strcmp(name, ".debug_line"))
			ok = dw_lines_ok;	/* lines.c */
		else
			continue;
		d = elf_getdata(scn, NULL);
		if (!d || d->d_size != sh.sh_size || !ok(d->d_buf, d->d_size))
			return sp_err_set(err, "'%s': corrupt %s section", path, name);
	}
	return 0;
}

int dw_check_relocated_lists(const struct dw_obj *o, const char *path, struct sp_err *err)
{
	static const char *const names[] = { ".debug_rnglists", ".debug_loclists" };
	struct dw_section sec;
	size_t i;

	/* a relocation can write into a table header dw_check_lists passed */
	for (i = 0; o->elf->type == ET_REL && i < sizeof(names) / sizeof(names[0]); i++)
		if (dw_obj_section(o, names[i], &sec) && !lists_ok(sec.data, sec.size))
			return sp_err_set(err, "'%s': corrupt %s section", path, names[i]);
	return 0;
}
