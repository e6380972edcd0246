/* elf.c - the symbol table and executable sections of the image. */
#include "elf/elf.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/search.h"
#include "common/xalloc.h"

/* Among symbols at one address prefer GLOBAL, then WEAK, then LOCAL: the
 * name a caller links against. */
static int bind_rank(uint8_t bind)
{
	return bind == STB_GLOBAL ? 0 : bind == STB_WEAK ? 1 : 2;
}

static int sym_cmp(const void *pa, const void *pb)
{
	const struct sp_elf_sym *a = pa, *b = pb;

	if (a->addr != b->addr)
		return a->addr < b->addr ? -1 : 1;
	if (bind_rank(a->bind) != bind_rank(b->bind))
		return bind_rank(a->bind) - bind_rank(b->bind);
	return strcmp(a->name, b->name);
}

static void elf_add_code(struct sp_elf *e, size_t *cap, Elf_Scn *scn,
			 const GElf_Shdr *sh, const char *name)
{
	Elf_Data *d = sh->sh_type == SHT_NOBITS ? NULL : elf_rawdata(scn, NULL);
	struct sp_elf_code *c;

	size_t ndx = elf_ndxscn(scn);

	SP_ALLOC_GROW(e->code, e->ncode + 1, *cap);
	c = &e->code[e->ncode++];
	c->addr = sh->sh_addr + (ndx < e->nsec ? e->sec_base[ndx] : 0);
	c->size = sh->sh_size;
	c->bytes = d && d->d_size >= sh->sh_size ? d->d_buf : NULL;
	c->is_plt = name && !strncmp(name, ".plt", 4);
}

/* "$a", "$t", "$d", optionally followed by ".anything": the ARM ELF
 * mapping symbols; 0 for any other name. */
static char map_kind(const char *name)
{
	if (name[0] != '$' || !strchr("atd", name[1]) || (name[2] && name[2] != '.'))
		return 0;
	return name[1];
}

static void elf_add_map(struct sp_elf *e, uint64_t addr, char kind, size_t *cap)
{
	SP_ALLOC_GROW(e->maps, e->nmaps + 1, *cap);
	e->maps[e->nmaps].addr = addr;
	e->maps[e->nmaps].kind = kind;
	e->nmaps++;
}

static void elf_add_sym(struct sp_elf *e, struct sp_graph *g, const GElf_Sym *sym,
			uint64_t addr, const char *name, size_t *cap)
{
	struct sp_elf_sym *s;

	SP_ALLOC_GROW(e->syms, e->nsyms + 1, *cap);
	s = &e->syms[e->nsyms++];
	/* bit 0 of an ARM function's value only says Thumb: its code, its
	 * DWARF entry and its callers' branch targets are even */
	s->thumb = e->arch->thumb && (addr & 1);
	s->addr = s->thumb ? addr & ~(uint64_t)1 : addr;
	s->size = sym->st_size;
	s->name = sp_intern(g, name);
	s->bind = GELF_ST_BIND(sym->st_info);
}

/* Is the symbol in a code section?  A symbol without a type but with
 * a size there is assembly the kernel's SYM_CODE_START/SYM_CODE_END
 * mark (relocate_kernel, the asm_exc_* entries): code like a function's. */
static bool in_code(const struct sp_elf *e, const GElf_Sym *sym)
{
	Elf_Scn *scn;
	GElf_Shdr sh;

	if (sym->st_shndx >= SHN_LORESERVE)
		return false;
	scn = elf_getscn(e->elf, sym->st_shndx);
	return scn && gelf_getshdr(scn, &sh) && (sh.sh_flags & SHF_EXECINSTR);
}

/* The kernel's return thunks (__x86_return_thunk, srso_return_thunk...):
 * a jump there is a return, as objtool's arch_is_rethunk() reads it, not
 * a tail call. */
bool sp_elf_return_thunk(const char *name)
{
	size_t n = strlen(name), k = strlen("_return_thunk");

	return n >= k && !strcmp(name + n - k, "_return_thunk");
}

/*
 * An untyped symbol is a function only when no other symbol starts
 * inside it: the retpoline thunks (__x86_indirect_thunk_rax...) are
 * labels inside __x86_indirect_thunk_array, where a call is an indirect
 * call, and entry_SYSCALL_64's labels are entered from elsewhere.
 */
static void drop_containers(struct sp_elf *e, size_t first, uint64_t *labels, size_t nlabels)
{
	size_t i, k = first;

	if (nlabels)
		qsort(labels, nlabels, sizeof(*labels), sp_u64_cmp);
	for (i = first; i < e->nsyms; i++) {
		const struct sp_elf_sym *s = &e->syms[i];
		size_t at = sp_search_first_ge(labels, nlabels, sp_u64_at, s->addr);

		if (s->untyped && at + 1 < nlabels && labels[at + 1] < s->addr + s->size)
			continue;
		e->syms[k++] = *s;
	}
	e->nsyms = k;
}

/*
 * Symbol versions.  A linked .symtab spells a default version
 * "memcpy@@GLIBC_2.14" (callers link against "memcpy") and another one
 * "memcpy@GLIBC_2.2.5"; .dynsym says it in .gnu.version, whose hidden
 * bit marks the versions that are not the default.  Both become the same
 * names: "memcpy" for the default, "memcpy@GLIBC_2.2.5" for the others,
 * so that a call binds by name to the version a new link binds to.
 */
struct sym_versions {
	Elf_Data *versym;	/* .gnu.version, NULL without */
	const char **names;	/* by version index, from .gnu.version_d */
	size_t nnames;
};

/* Version index ndx is called name. */
static void name_version(struct sym_versions *v, size_t ndx, const char *name)
{
	if (!name || ndx >= 0x8000)
		return;
	if (ndx >= v->nnames) {
		size_t n = ndx + 1;

		v->names = sp_xrealloc(v->names, n * sizeof(*v->names));
		memset(v->names + v->nnames, 0, (n - v->nnames) * sizeof(*v->names));
		v->nnames = n;
	}
	v->names[ndx] = name;
}

static void read_verdefs(Elf *elf, Elf_Scn *scn, const GElf_Shdr *sh, struct sym_versions *v)
{
	Elf_Data *d = elf_getdata(scn, NULL);
	size_t off = 0, k;

	for (k = 0; d && k < sh->sh_info; k++) {
		GElf_Verdef def;
		GElf_Verdaux aux;

		if (!gelf_getverdef(d, (int)off, &def) ||
		    !gelf_getverdaux(d, (int)(off + def.vd_aux), &aux))
			break;
		name_version(v, def.vd_ndx, elf_strptr(elf, sh->sh_link, aux.vda_name));
		if (!def.vd_next)
			break;
		off += def.vd_next;
	}
}

/* The versions the image asks of its libraries (.gnu.version_r): their
 * indexes share one numbering with the versions it defines. */
static void read_verneeds(Elf *elf, Elf_Scn *scn, const GElf_Shdr *sh, struct sym_versions *v)
{
	Elf_Data *d = elf_getdata(scn, NULL);
	size_t off = 0, k;

	for (k = 0; d && k < sh->sh_info; k++) {
		GElf_Verneed need;
		GElf_Vernaux aux;
		size_t a, j;

		if (!gelf_getverneed(d, (int)off, &need))
			break;
		for (j = 0, a = off + need.vn_aux; j < need.vn_cnt; j++, a += aux.vna_next) {
			if (!gelf_getvernaux(d, (int)a, &aux))
				break;
			name_version(v, aux.vna_other & 0x7fff,
				     elf_strptr(elf, sh->sh_link, aux.vna_name));
			if (!aux.vna_next)
				break;
		}
		if (!need.vn_next)
			break;
		off += need.vn_next;
	}
}

static void find_versions(Elf *elf, struct sym_versions *v)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	while ((scn = elf_nextscn(elf, scn))) {
		if (!gelf_getshdr(scn, &sh))
			continue;
		if (sh.sh_type == SHT_GNU_versym)
			v->versym = elf_getdata(scn, NULL);
		else if (sh.sh_type == SHT_GNU_verdef)
			read_verdefs(elf, scn, &sh, v);
		else if (sh.sh_type == SHT_GNU_verneed)
			read_verneeds(elf, scn, &sh, v);
	}
}

/* The version each undefined dynamic symbol asks for (memcpy@GLIBC_2.2.5
 * of a program linked against an old libc, or one that picked it with
 * .symver): a call binds to that version, not the library's default. */
static void elf_read_needed_versions(struct sp_elf *e, struct sp_graph *g, Elf_Scn *dynsym,
				     const struct sym_versions *v)
{
	Elf_Data *d;
	GElf_Shdr sh;
	size_t i, n, cap = 0;

	if (!dynsym || !v->versym || !gelf_getshdr(dynsym, &sh) || !sh.sh_entsize ||
	    !(d = elf_getdata(dynsym, NULL)))
		return;
	n = sh.sh_size / sh.sh_entsize;
	for (i = 1; i < n; i++) {
		GElf_Versym ver;
		GElf_Sym sym;
		const char *name;
		size_t k;

		if (!gelf_getsym(d, (int)i, &sym) || sym.st_shndx != SHN_UNDEF ||
		    !gelf_getversym(v->versym, (int)i, &ver) || (k = ver & 0x7fff) < 2 ||
		    k >= v->nnames || !v->names[k] ||
		    !(name = elf_strptr(e->elf, sh.sh_link, sym.st_name)) || !*name)
			continue;
		if (!e->needed_versions)
			sp_u64map_init(&e->need_at, 16);
		SP_ALLOC_GROW(e->needed_versions, e->nneeded_versions + 1, cap);
		e->needed_versions[e->nneeded_versions] = sp_intern(g, v->names[k]);
		sp_u64map_put(&e->need_at, (uintptr_t)sp_intern(g, name),
			      (uint32_t)e->nneeded_versions++);
	}
}

const char *sp_elf_needed_version(const struct sp_elf *e, const char *name)
{
	uint32_t k = e->nneeded_versions ? sp_u64map_get(&e->need_at, (uintptr_t)name) : SP_NONE;

	return k == SP_NONE ? NULL : e->needed_versions[k];
}

/* The name symbol i goes by (see struct sym_versions), interned. */
static const char *versioned_name(struct sp_graph *g, const struct sym_versions *v,
				  size_t i, const char *name)
{
	const char *at = strstr(name, "@@");
	GElf_Versym ver;
	char buf[512];

	if (at) {
		snprintf(buf, sizeof(buf), "%.*s", (int)(at - name), name);
		return sp_intern(g, buf);
	}
	if (!v || !v->versym || !gelf_getversym(v->versym, (int)i, &ver) || !(ver & 0x8000) ||
	    (ver & 0x7fff) >= v->nnames || !v->names[ver & 0x7fff])
		return sp_intern(g, name);
	snprintf(buf, sizeof(buf), "%s@%s", name, v->names[ver & 0x7fff]);
	return sp_intern(g, buf);
}

static void elf_read_symtab(struct sp_elf *e, struct sp_graph *g, Elf_Scn *scn,
			    const GElf_Shdr *sh, size_t *cap, const struct sym_versions *v)
{
	Elf_Data *d = elf_getdata(scn, NULL);
	size_t i, n, map_cap = 0, first = e->nsyms, nlabels = 0, labels_cap = 0;
	uint64_t *labels = NULL;

	if (!d || !sh->sh_entsize)
		return;
	n = sh->sh_size / sh->sh_entsize;
	for (i = 0; i < n; i++) {
		GElf_Sym sym;
		const char *name;
		uint64_t addr;
		int type;
		bool untyped;

		if (!gelf_getsym(d, (int)i, &sym) || sym.st_shndx == SHN_UNDEF)
			continue;
		type = GELF_ST_TYPE(sym.st_info);
		untyped = in_code(e, &sym) && type == STT_NOTYPE && !e->arch->thumb;
		if (untyped || type == STT_FUNC) {
			addr = sym.st_value + (sym.st_shndx < e->nsec ? e->sec_base[sym.st_shndx] : 0);
			SP_ALLOC_GROW(labels, nlabels + 1, labels_cap);
			labels[nlabels++] = addr;
		}
		if (type != STT_FUNC && type != STT_GNU_IFUNC &&
		    !(type == STT_NOTYPE && e->arch->thumb) && !(untyped && sym.st_size))
			continue;
		name = elf_strptr(e->elf, sh->sh_link, sym.st_name);
		if (!name || !*name)
			continue;
		addr = sym.st_value + (sym.st_shndx < e->nsec ? e->sec_base[sym.st_shndx] : 0);
		if (type == STT_FUNC || type == STT_GNU_IFUNC || (untyped && !sp_elf_return_thunk(name))) {
			elf_add_sym(e, g, &sym, addr, versioned_name(g, v, i, name), cap);
			e->syms[e->nsyms - 1].untyped = untyped;
			e->syms[e->nsyms - 1].ifunc = type == STT_GNU_IFUNC;
		} else if (map_kind(name)) {
			elf_add_map(e, addr, map_kind(name), &map_cap);
		}
	}
	drop_containers(e, first, labels, nlabels);
	free(labels);
}

/* Where the n stubs are, in .rela.plt order.  x86-64: 16 bytes each, in
 * .plt.sec from its start (IBT builds), else in .plt after the one-stub
 * header.  AArch64: in .plt after a 32-byte header, 16 bytes each, or 24
 * with BTI/PAC: the section's size tells which.  False when unknown. */
static bool plt_layout(struct sp_elf *e, size_t n, uint64_t plt, uint64_t plt_size,
		       uint64_t plt_sec)
{
	uint64_t hdr = e->arch->plt_header;

	if (hdr && e->arch->plt_entry) {
		e->plt_stride = e->arch->plt_entry;
		e->plt_base = plt_sec ? plt_sec : plt + hdr;
		return true;
	}
	if (!hdr || !n || plt_size < hdr)
		return false;
	e->plt_stride = (plt_size - hdr) / n;
	e->plt_base = plt + hdr;
	return (e->plt_stride == 16 || e->plt_stride == 24) &&
	       (plt_size - hdr) % n == 0;
}

static void elf_read_plt(struct sp_elf *e, struct sp_graph *g, Elf_Scn *rela,
			 uint64_t plt, uint64_t plt_size, uint64_t plt_sec)
{
	GElf_Shdr sh, dsh;
	Elf_Data *d, *dd;
	Elf_Scn *dyn;
	size_t i, n;

	if (!rela || !gelf_getshdr(rela, &sh) || !sh.sh_entsize)
		return;
	dyn = elf_getscn(e->elf, sh.sh_link);
	d = elf_getdata(rela, NULL);
	if (!dyn || !gelf_getshdr(dyn, &dsh) || !d || !(dd = elf_getdata(dyn, NULL)))
		return;
	n = sh.sh_size / sh.sh_entsize;
	if (!plt_layout(e, n, plt, plt_size, plt_sec))
		return;
	e->plt_names = sp_xcalloc(n, sizeof(*e->plt_names));
	e->plt_irel = sp_xcalloc(n, sizeof(*e->plt_irel));
	e->nplt = n;
	for (i = 0; i < n; i++) {
		GElf_Rela r;
		GElf_Sym sym;
		const char *name;

		if (!gelf_getrela(d, (int)i, &r))
			continue;
		/* a slot the dynamic linker fills with what an IFUNC
		 * resolver returns, the resolver's address in the addend */
		if (e->arch->rel_irelative && GELF_R_TYPE(r.r_info) == e->arch->rel_irelative) {
			e->plt_irel[i] = (uint64_t)r.r_addend;
			continue;
		}
		if (!gelf_getsym(dd, (int)GELF_R_SYM(r.r_info), &sym))
			continue;
		name = elf_strptr(e->elf, dsh.sh_link, sym.st_name);
		if (name && *name)
			e->plt_names[i] = sp_intern(g, name);
	}
}

/* The GOT entries .rela.dyn binds to a function by name (GLOB_DAT):
 * entry address -> index of the name in *names. */
static void got_symbols(struct sp_elf *e, struct sp_graph *g, Elf_Scn *rela,
			struct sp_u64map *at, const char ***names)
{
	GElf_Shdr sh, dsh;
	Elf_Data *d, *dd;
	Elf_Scn *dyn;
	size_t i, n, k = 0;

	sp_u64map_init(at, 16);
	*names = NULL;
	if (!rela || !gelf_getshdr(rela, &sh) || !sh.sh_entsize ||
	    !(dyn = elf_getscn(e->elf, sh.sh_link)) || !gelf_getshdr(dyn, &dsh) ||
	    !(d = elf_getdata(rela, NULL)) || !(dd = elf_getdata(dyn, NULL)))
		return;
	n = sh.sh_size / sh.sh_entsize;
	*names = sp_xcalloc(n + 1, sizeof(**names));
	for (i = 0; i < n; i++) {
		GElf_Rela r;
		GElf_Sym sym;
		const char *name;

		if (!gelf_getrela(d, (int)i, &r) || GELF_R_TYPE(r.r_info) != R_X86_64_GLOB_DAT ||
		    !gelf_getsym(dd, (int)GELF_R_SYM(r.r_info), &sym) ||
		    GELF_ST_TYPE(sym.st_info) != STT_FUNC ||
		    !(name = elf_strptr(e->elf, dsh.sh_link, sym.st_name)) || !*name)
			continue;
		(*names)[k] = sp_intern(g, name);
		sp_u64map_put(at, r.r_offset, (uint32_t)k++);
	}
}

/* The GOT entry an x86-64 .plt.got stub jumps through (jmp *disp(%rip),
 * after an endbr64 in IBT builds), or 0. */
static uint64_t got_stub_entry(const unsigned char *p, size_t len, uint64_t addr)
{
	size_t k;

	for (k = 0; k + 6 <= len && k <= 4; k++)
		if (p[k] == 0xff && p[k + 1] == 0x25)
			return addr + k + 6 + (uint64_t)(int64_t)(int32_t)((uint32_t)p[k + 2] |
				(uint32_t)p[k + 3] << 8 | (uint32_t)p[k + 4] << 16 |
				(uint32_t)p[k + 5] << 24);
	return 0;
}

/* Each .plt.got stub's function, from the GOT entry it jumps through. */
static void elf_read_plt_got(struct sp_elf *e, struct sp_graph *g, Elf_Scn *stubs,
			     Elf_Scn *rela_dyn)
{
	struct sp_u64map at;
	const char **names;
	GElf_Shdr sh;
	Elf_Data *d;
	size_t i;

	if (e->arch->id != SP_ARCH_X86_64 || !stubs || !gelf_getshdr(stubs, &sh) ||
	    (sh.sh_entsize != 8 && sh.sh_entsize != 16) || !(d = elf_getdata(stubs, NULL)) ||
	    d->d_size < sh.sh_size || !d->d_buf)
		return;
	got_symbols(e, g, rela_dyn, &at, &names);
	e->got_base = sh.sh_addr;
	e->got_stride = sh.sh_entsize;
	e->ngot = sh.sh_size / sh.sh_entsize;
	e->got_names = sp_xcalloc(e->ngot + 1, sizeof(*e->got_names));
	for (i = 0; names && i < e->ngot; i++) {
		uint64_t entry = got_stub_entry((const unsigned char *)d->d_buf + i * e->got_stride,
						e->got_stride, e->got_base + i * e->got_stride);
		uint32_t k = entry ? sp_u64map_get(&at, entry) : SP_NONE;

		if (k != SP_NONE)
			e->got_names[i] = names[k];
	}
	free(names);
	sp_u64map_release(&at);
}

/* The PLT slot of the stub at addr, nplt when none. */
static size_t plt_slot(const struct sp_elf *e, uint64_t addr)
{
	uint64_t i;

	if (!e->nplt || addr < e->plt_base || (addr - e->plt_base) % e->plt_stride)
		return e->nplt;
	i = (addr - e->plt_base) / e->plt_stride;
	return i < e->nplt ? (size_t)i : e->nplt;
}

const char *sp_elf_plt_name(const struct sp_elf *e, uint64_t addr)
{
	size_t i = plt_slot(e, addr);

	if (i < e->nplt)
		return e->plt_names[i];
	if (!e->ngot || addr < e->got_base || (addr - e->got_base) % e->got_stride)
		return NULL;
	i = (addr - e->got_base) / e->got_stride;
	return i < e->ngot ? e->got_names[i] : NULL;
}

uint64_t sp_elf_plt_irelative(const struct sp_elf *e, uint64_t addr)
{
	size_t i = plt_slot(e, addr);

	return i < e->nplt ? e->plt_irel[i] : 0;
}

/* Where a relocatable object's allocated sections would be if linked:
 * one after the other from 64 KiB, each aligned; 0 stays "no address". */
static int elf_layout(struct sp_elf *e, const char *path, struct sp_err *err)
{
	uint64_t next = 0x10000;
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	if (e->type != ET_REL)
		return 0;
	if (elf_getshdrnum(e->elf, &e->nsec))
		return sp_err_set(err, "'%s': bad section header table: %s",
				  path, elf_errmsg(-1));
	e->sec_base = sp_xcalloc(e->nsec ? e->nsec : 1, sizeof(*e->sec_base));
	while ((scn = elf_nextscn(e->elf, scn))) {
		uint64_t align;
		size_t ndx = elf_ndxscn(scn);

		if (!gelf_getshdr(scn, &sh) || !(sh.sh_flags & SHF_ALLOC) || ndx >= e->nsec)
			continue;
		align = sh.sh_addralign > 1 && sh.sh_addralign < 0x10000 ? sh.sh_addralign : 1;
		next = (next + align - 1) & ~(align - 1);
		if (sh.sh_size > UINT64_MAX / 4 - next)
			return sp_err_set(err, "'%s': section too large", path);
		e->sec_base[ndx] = next;
		next += sh.sh_size ? sh.sh_size : 1;
	}
	return 0;
}

/* The bytes of string table ndx when every offset into it names a
 * string ending inside it (its last byte a NUL), as elf_strptr() would
 * find them; NULL when elf_strptr() must be asked (compressed, or not
 * ended by a NUL). */
static const char *plain_strtab(Elf *elf, size_t ndx, size_t *size)
{
	Elf_Scn *scn = elf_getscn(elf, ndx);
	Elf_Data *d;
	GElf_Shdr sh;

	if (!scn || !gelf_getshdr(scn, &sh) || sh.sh_type != SHT_STRTAB ||
	    (sh.sh_flags & SHF_COMPRESSED) || !(d = elf_getdata(scn, NULL)) || !d->d_buf ||
	    d->d_size != sh.sh_size || !d->d_size || ((const char *)d->d_buf)[d->d_size - 1])
		return NULL;
	*size = d->d_size;
	return d->d_buf;
}

/*
 * Each symbol of a 64-bit image read in place: libelf holds them as
 * Elf64_Sym, which GElf_Sym is, and its string table ends with a NUL,
 * so a name is the table's bytes at st_name when st_name is inside it
 * (else elf_strptr()'s NULL).  A kernel's 200,000 symbols are walked
 * a dozen times with --indirect=types; gelf_getsym() and elf_strptr()
 * were most of each walk.  False when the image is not such.
 */
static bool each_symbol_in_place(const struct sp_elf *e, const GElf_Shdr *sh,
				 const Elf_Data *d,
				 void (*fn)(void *arg, const GElf_Sym *sym, const char *name),
				 void *arg)
{
	const Elf64_Sym *syms = d->d_buf;
	const char *strs;
	size_t i, n, size;

	if (gelf_getclass(e->elf) != ELFCLASS64 || d->d_type != ELF_T_SYM || !syms ||
	    !(strs = plain_strtab(e->elf, sh->sh_link, &size)))
		return false;
	n = sh->sh_size / sh->sh_entsize;
	if (n > d->d_size / sizeof(*syms))	/* gelf_getsym's bound */
		n = d->d_size / sizeof(*syms);
	for (i = 0; i < n && i <= INT32_MAX; i++)
		if (syms[i].st_name < size)
			fn(arg, &syms[i], strs + syms[i].st_name);
	return true;
}

void sp_elf_each_symbol(const struct sp_elf *e,
			void (*fn)(void *arg, const GElf_Sym *sym, const char *name),
			void *arg)
{
	Elf_Data *d;
	GElf_Shdr sh;
	size_t i, n;

	if (!e->symtab || !gelf_getshdr(e->symtab, &sh) || !sh.sh_entsize ||
	    !(d = elf_getdata(e->symtab, NULL)) || each_symbol_in_place(e, &sh, d, fn, arg))
		return;
	n = sh.sh_size / sh.sh_entsize;
	for (i = 0; i < n && i <= INT32_MAX; i++) {
		GElf_Sym sym;
		const char *name;

		if (gelf_getsym(d, (int)i, &sym) &&
		    (name = elf_strptr(e->elf, sh.sh_link, sym.st_name)))
			fn(arg, &sym, name);
	}
}

bool sp_elf_sym_value(const struct sp_elf *e, size_t i, uint64_t *value,
		      const char **name, struct sp_graph *g)
{
	GElf_Shdr sh;
	GElf_Sym sym;
	Elf_Data *d;
	const char *s;

	*name = NULL;
	if (!e->symtab || !gelf_getshdr(e->symtab, &sh) ||
	    !(d = elf_getdata(e->symtab, NULL)) || i > INT32_MAX ||
	    !gelf_getsym(d, (int)i, &sym))
		return false;
	if (sym.st_shndx == SHN_UNDEF) {
		s = elf_strptr(e->elf, sh.sh_link, sym.st_name);
		*name = s && *s && g ? sp_intern(g, s) : NULL;
		return false;
	}
	*value = sym.st_value + (sym.st_shndx < e->nsec ? e->sec_base[sym.st_shndx] : 0);
	return true;
}

/* Thumb-2 BL/B.W: S:I1:I2:imm10:imm11:0 with I = !(J ^ S). */
static int64_t thumb_branch_imm(uint32_t hw1, uint32_t hw2)
{
	uint32_t s = (hw1 >> 10) & 1, j1 = (hw2 >> 13) & 1, j2 = (hw2 >> 11) & 1;
	uint32_t i1 = !(j1 ^ s), i2 = !(j2 ^ s);
	uint32_t imm = s << 24 | i1 << 23 | i2 << 22 | (hw1 & 0x3ff) << 12 | (hw2 & 0x7ff) << 1;

	return (int32_t)(imm << 7) >> 7;	/* sign-extend 25 bits */
}

/* A REL relocation's addend is what the field already holds: a plain word
 * on i386, the branch's own immediate on ARM. */
static int64_t rel_addend(const struct sp_arch *a, const struct sp_arch_rel *br,
			  const Elf_Data *target, uint64_t off)
{
	const unsigned char *p = target ? target->d_buf : NULL;
	uint32_t w;

	if (!p || off > target->d_size || target->d_size - off < 4)
		return 0;
	w = (uint32_t)p[off] | (uint32_t)p[off + 1] << 8 | (uint32_t)p[off + 2] << 16 |
	    (uint32_t)p[off + 3] << 24;
	if (!a->thumb)
		return (int32_t)w;
	if (br->thumb)
		return thumb_branch_imm(w & 0xffff, w >> 16);
	return (int32_t)((w & 0x00ffffffu) << 8) >> 6;	/* imm24 * 4, signed */
}

static void add_branch_reloc(struct sp_elf *e, struct sp_graph *g, size_t *cap,
			     uint64_t site, size_t sym, int64_t addend)
{
	struct sp_elf_reloc *r;
	uint64_t value = 0;
	const char *name;
	bool defined = sp_elf_sym_value(e, sym, &value, &name, g);

	if (!defined && !name)
		return;
	SP_ALLOC_GROW(e->relocs, e->nrelocs + 1, *cap);
	r = &e->relocs[e->nrelocs];
	r->target = defined ? value + (uint64_t)addend : 0;
	r->name = defined ? NULL : name;
	sp_u64map_put(&e->reloc_at, site, (uint32_t)e->nrelocs++);
}

/* The relocations of one code section's branches. */
static void elf_read_branch_relocs(struct sp_elf *e, struct sp_graph *g, Elf_Scn *rel,
				   const GElf_Shdr *sh, size_t *cap)
{
	Elf_Scn *code = elf_getscn(e->elf, sh->sh_info);
	Elf_Data *d = elf_getdata(rel, NULL), *cd;
	GElf_Shdr csh;
	size_t i, n;

	if (!code || !gelf_getshdr(code, &csh) || !(csh.sh_flags & SHF_EXECINSTR) ||
	    !d || !sh->sh_entsize || sh->sh_info >= e->nsec)
		return;
	cd = csh.sh_type == SHT_NOBITS ? NULL : elf_rawdata(code, NULL);
	n = sh->sh_size / sh->sh_entsize;
	for (i = 0; i < n && i <= INT32_MAX; i++) {
		const struct sp_arch_rel *br;
		GElf_Rela r;
		GElf_Rel rl;

		if (sh->sh_type == SHT_RELA ? !gelf_getrela(d, (int)i, &r) :
		    !gelf_getrel(d, (int)i, &rl))
			continue;
		if (sh->sh_type == SHT_REL) {
			r.r_offset = rl.r_offset;
			r.r_info = rl.r_info;
		}
		br = sp_arch_rel(e->arch->branch, (uint32_t)GELF_R_TYPE(r.r_info));
		if (!br || r.r_offset > csh.sh_size)
			continue;
		if (sh->sh_type == SHT_REL)
			r.r_addend = rel_addend(e->arch, br, cd, r.r_offset);
		add_branch_reloc(e, g, cap, e->sec_base[sh->sh_info] + r.r_offset + 4,
				 GELF_R_SYM(r.r_info), r.r_addend + br->arg);
	}
}

static void elf_read_relocs(struct sp_elf *e, struct sp_graph *g)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	size_t cap = 0;

	sp_u64map_init(&e->reloc_at, 256);
	if (e->type != ET_REL || !e->symtab)
		return;
	while ((scn = elf_nextscn(e->elf, scn)))
		if (gelf_getshdr(scn, &sh) && (sh.sh_type == SHT_RELA || sh.sh_type == SHT_REL) &&
		    elf_getscn(e->elf, sh.sh_link) == e->symtab)
			elf_read_branch_relocs(e, g, scn, &sh, &cap);
}

const struct sp_elf_reloc *sp_elf_branch_reloc(const struct sp_elf *e, uint64_t site)
{
	uint32_t i;

	if (!e->nrelocs)
		return NULL;
	i = sp_u64map_get(&e->reloc_at, site);
	return i == SP_NONE ? NULL : &e->relocs[i];
}

static int elf_scan_sections(struct sp_elf *e, struct sp_graph *g,
			     const char *path, struct sp_err *err)
{
	size_t shstrndx, code_cap = 0, sym_cap = 0;
	Elf_Scn *scn = NULL, *symtab = NULL, *dynsym = NULL, *rela_plt = NULL;
	Elf_Scn *rela_dyn = NULL, *plt_got = NULL;
	uint64_t plt = 0, plt_size = 0, plt_sec = 0;
	struct sym_versions v = { 0 };
	GElf_Shdr sh, symsh;

	if (elf_getshdrstrndx(e->elf, &shstrndx))
		return sp_err_set(err, "'%s': bad section header table: %s",
				  path, elf_errmsg(-1));
	if (elf_layout(e, path, err))
		return -1;
	while ((scn = elf_nextscn(e->elf, scn))) {
		const char *name;

		if (!gelf_getshdr(scn, &sh))
			return sp_err_set(err, "'%s': bad section header: %s",
					  path, elf_errmsg(-1));
		name = elf_strptr(e->elf, shstrndx, sh.sh_name);
		if (sh.sh_type == SHT_SYMTAB)
			symtab = scn;
		else if (sh.sh_type == SHT_DYNSYM)
			dynsym = scn;
		else if (sh.sh_type == SHT_RELA && name && !strcmp(name, ".rela.plt"))
			rela_plt = scn;
		else if (sh.sh_type == SHT_RELA && name && !strcmp(name, ".rela.dyn"))
			rela_dyn = scn;
		if ((sh.sh_flags & SHF_EXECINSTR) && sh.sh_size)
			elf_add_code(e, &code_cap, scn, &sh, name);
		if (name && !strcmp(name, ".plt"))
			plt = sh.sh_addr, plt_size = sh.sh_size;
		else if (name && !strcmp(name, ".plt.sec"))
			plt_sec = sh.sh_addr;
		else if (name && !strcmp(name, ".plt.got"))
			plt_got = scn;
	}
	elf_read_plt(e, g, rela_plt, plt, plt_size, plt_sec);
	elf_read_plt_got(e, g, plt_got, rela_dyn);
	/* .dynsym only when stripped of .symtab: it lacks the local functions */
	e->stripped = !symtab;
	if (!symtab)
		symtab = dynsym;
	if (dynsym)
		find_versions(e->elf, &v);
	elf_read_needed_versions(e, g, dynsym, &v);
	if (symtab && gelf_getshdr(symtab, &symsh))
		elf_read_symtab(e, g, symtab, &symsh, &sym_cap, symtab == dynsym ? &v : NULL);
	free(v.names);
	e->symtab = symtab;
	elf_read_relocs(e, g);
	return 0;
}

static int map_cmp(const void *pa, const void *pb)
{
	const struct sp_elf_map *a = pa, *b = pb;

	return (a->addr > b->addr) - (a->addr < b->addr);
}

static void elf_index_syms(struct sp_elf *e)
{
	size_t i;

	if (e->nsyms)
		qsort(e->syms, e->nsyms, sizeof(*e->syms), sym_cmp);
	if (e->nmaps)
		qsort(e->maps, e->nmaps, sizeof(*e->maps), map_cmp);
	sp_u64map_init(&e->sym_by_addr, e->nsyms);
	/* sorted best-first within an address: keep the first */
	for (i = e->nsyms; i-- > 0;)
		sp_u64map_put(&e->sym_by_addr, e->syms[i].addr, (uint32_t)i);
}

/* libelf then just finds no sections, which would read as "no DWARF" */
static int elf_check_shdr_table(Elf *elf, const GElf_Ehdr *eh)
{
	size_t size = 0, shnum = 0;

	if (!elf_rawfile(elf, &size) || !eh->e_shoff)
		return 0;
	/* e_shnum 0: the count is in section 0, which must be there at least */
	shnum = eh->e_shnum;
	if (!shnum && (elf_getshdrnum(elf, &shnum) || !shnum))
		shnum = 1;
	return eh->e_shoff > size || (uint64_t)shnum * eh->e_shentsize > size - eh->e_shoff;
}

static int elf_check_header(struct sp_elf *e, const char *path, struct sp_err *err)
{
	GElf_Ehdr eh;

	if (elf_kind(e->elf) != ELF_K_ELF)
		return sp_err_set(err, "'%s': not an ELF file", path);
	if (!gelf_getehdr(e->elf, &eh))
		return sp_err_set(err, "'%s': truncated or corrupt ELF header: %s",
				  path, elf_errmsg(-1));
	e->machine = eh.e_machine;
	e->arch = sp_arch(eh.e_machine);
	e->type = eh.e_type;
	if (elf_check_shdr_table(e->elf, &eh))
		return sp_err_set(err, "'%s': truncated ELF: its section header table "
				  "lies beyond the end of the file", path);
	if (eh.e_type != ET_EXEC && eh.e_type != ET_DYN && eh.e_type != ET_REL)
		return sp_err_set(err, "'%s': not an executable, shared object or object file",
				  path);
	return 0;
}

static int elf_open_fd(const char *path, struct sp_err *err)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return sp_err_set(err, "cannot open '%s': %s", path, strerror(errno));
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		return sp_err_set(err, "'%s': not a regular file", path);
	}
	if (st.st_size == 0) {
		close(fd);
		return sp_err_set(err, "'%s': empty file", path);
	}
	return fd;
}

int sp_elf_open(struct sp_elf *e, struct sp_graph *g, const char *path,
		struct sp_err *err)
{
	memset(e, 0, sizeof(*e));
	e->fd = -1;
	e->arch = sp_arch(EM_NONE);
	if (elf_version(EV_CURRENT) == EV_NONE)
		return sp_err_set(err, "libelf is out of date");
	e->fd = elf_open_fd(path, err);
	if (e->fd < 0)
		return -1;
	e->elf = elf_begin(e->fd, ELF_C_READ_MMAP, NULL);
	if (!e->elf)
		return sp_err_set(err, "'%s': not an ELF file: %s", path, elf_errmsg(-1));
	if (elf_check_header(e, path, err) || elf_scan_sections(e, g, path, err))
		return -1;
	elf_index_syms(e);
	return 0;
}

int sp_elf_read_debug_syms(struct sp_elf *e, struct sp_graph *g, const char *path,
			   struct sp_err *err)
{
	Elf *image = e->elf, *debug;
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	size_t cap = 0;
	int fd = elf_open_fd(path, err);

	if (fd < 0)
		return -1;
	debug = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	while (debug && (scn = elf_nextscn(debug, scn)))
		if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_SYMTAB)
			break;
	if (!scn) {
		if (debug)
			elf_end(debug);
		close(fd);
		return sp_err_set(err, "'%s': no symbol table", path);
	}
	/* the debug file keeps the image's section headers (its code as
	 * NOBITS), so its symbols' sections say what is code */
	free(e->syms);
	e->syms = NULL;
	e->nsyms = 0;
	e->elf = debug;
	elf_read_symtab(e, g, scn, &sh, &cap, NULL);
	e->elf = image;
	elf_end(debug);
	close(fd);
	sp_u64map_release(&e->sym_by_addr);
	elf_index_syms(e);
	return 0;
}

bool sp_elf_build_id(const struct sp_elf *e, const unsigned char **id, size_t *len)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	while ((scn = elf_nextscn(e->elf, scn))) {
		Elf_Data *d;
		GElf_Nhdr nh;
		size_t off = 0, name_off, desc_off;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_NOTE ||
		    !(d = elf_getdata(scn, NULL)))
			continue;
		while ((off = gelf_getnote(d, off, &nh, &name_off, &desc_off)) > 0)
			if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 &&
			    !memcmp((const char *)d->d_buf + name_off, "GNU", 4)) {
				*id = (const unsigned char *)d->d_buf + desc_off;
				*len = nh.n_descsz;
				return nh.n_descsz > 0;
			}
	}
	return false;
}

bool sp_elf_has_symtab(const struct sp_elf *e)
{
	return !e->stripped;
}

void sp_elf_close(struct sp_elf *e)
{
	if (e->elf)
		elf_end(e->elf);
	if (e->fd >= 0)
		close(e->fd);
	free(e->syms);
	free(e->maps);
	free(e->code);
	free(e->plt_names);
	free(e->plt_irel);
	free(e->got_names);
	free(e->needed_versions);
	if (e->need_at.nslots)
		sp_u64map_release(&e->need_at);
	free(e->sec_base);
	free(e->relocs);
	if (e->reloc_at.nslots)
		sp_u64map_release(&e->reloc_at);
	if (e->sym_by_addr.nslots)
		sp_u64map_release(&e->sym_by_addr);
	memset(e, 0, sizeof(*e));
	e->fd = -1;
}

static const struct sp_elf_code *code_section(const struct sp_elf *e, uint64_t addr)
{
	size_t i;

	/* a handful of executable sections: a linear scan is fastest */
	for (i = 0; i < e->ncode; i++)
		if (addr >= e->code[i].addr && addr - e->code[i].addr < e->code[i].size)
			return &e->code[i];
	return NULL;
}

const unsigned char *sp_elf_code_at(const struct sp_elf *e, uint64_t addr, size_t len)
{
	const struct sp_elf_code *c = code_section(e, addr);

	if (!c || !c->bytes || c->size - (addr - c->addr) < len)
		return NULL;
	return c->bytes + (addr - c->addr);
}

bool sp_elf_in_plt(const struct sp_elf *e, uint64_t addr)
{
	const struct sp_elf_code *c = code_section(e, addr);

	return c && c->is_plt;
}

bool sp_elf_section(const struct sp_elf *e, const char *name, uint64_t *addr, uint64_t *size)
{
	return sp_elf_find_section(e, name, addr, size) && *addr != 0;
}

bool sp_elf_find_section(const struct sp_elf *e, const char *name, uint64_t *addr,
			 uint64_t *size)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx;
	GElf_Shdr sh;

	if (!e->elf || elf_getshdrstrndx(e->elf, &shstrndx))
		return false;
	while ((scn = elf_nextscn(e->elf, scn))) {
		const char *n;
		size_t idx = elf_ndxscn(scn);

		if (!gelf_getshdr(scn, &sh) || !(sh.sh_flags & SHF_ALLOC) ||
		    !(n = elf_strptr(e->elf, shstrndx, sh.sh_name)) || strcmp(n, name))
			continue;
		*addr = e->type == ET_REL ? (idx < e->nsec ? e->sec_base[idx] : 0) : sh.sh_addr;
		*size = sh.sh_size;
		return true;
	}
	return false;
}

const unsigned char *sp_elf_bytes_at(const struct sp_elf *e, uint64_t addr, uint64_t len)
{
	Elf_Scn *scn = NULL;
	Elf_Data *d;
	GElf_Shdr sh;

	if (!e->elf || e->type == ET_REL)
		return NULL;
	while ((scn = elf_nextscn(e->elf, scn)))
		if (gelf_getshdr(scn, &sh) && (sh.sh_flags & SHF_ALLOC) &&
		    sh.sh_type == SHT_PROGBITS && addr >= sh.sh_addr &&
		    addr - sh.sh_addr <= sh.sh_size && len <= sh.sh_size - (addr - sh.sh_addr))
			return (d = elf_getdata(scn, NULL)) && d->d_size == sh.sh_size ?
			       (const unsigned char *)d->d_buf + (addr - sh.sh_addr) : NULL;
	return NULL;
}

uint64_t *sp_elf_writable_data(const struct sp_elf *e, size_t *n)
{
	Elf_Scn *scn = NULL;
	uint64_t *v = NULL;
	size_t cap = 0;
	GElf_Shdr sh;

	*n = 0;
	if (!e->elf || e->type == ET_REL)
		return NULL;
	while ((scn = elf_nextscn(e->elf, scn))) {
		if (!gelf_getshdr(scn, &sh) || !(sh.sh_flags & SHF_ALLOC) ||
		    !(sh.sh_flags & SHF_WRITE) || (sh.sh_flags & (SHF_EXECINSTR | SHF_TLS)) ||
		    !sh.sh_size || !sh.sh_addr)
			continue;
		SP_ALLOC_GROW(v, 2 * (*n + 1), cap);
		v[2 * *n] = sh.sh_addr;
		v[2 * *n + 1] = sh.sh_addr + sh.sh_size;
		(*n)++;
	}
	return v;
}

bool sp_elf_is_code(const struct sp_elf *e, uint64_t addr)
{
	return code_section(e, addr) != NULL;
}

const struct sp_elf_sym *sp_elf_next_code_sym(const struct sp_elf *e, size_t *i,
					      uint64_t *end)
{
	while (*i < e->nsyms) {
		const struct sp_elf_sym *sym = &e->syms[(*i)++];

		if (!sym->size || sym->addr < *end || sp_elf_in_plt(e, sym->addr))
			continue;
		*end = sym->addr + sym->size;
		return sym;
	}
	return NULL;
}

static uint64_t map_addr(const void *base, size_t i)
{
	return ((const struct sp_elf_map *)base)[i].addr;
}

/* Index of the last mapping symbol at or before addr, or nmaps if none. */
static size_t map_before(const struct sp_elf *e, uint64_t addr)
{
	return sp_search_last_le(e->maps, e->nmaps, map_addr, addr);
}

bool sp_elf_next_run(const struct sp_elf *e, uint64_t *pc, uint64_t end, bool thumb,
		     struct sp_elf_run *run)
{
	while (*pc < end) {
		size_t i = map_before(e, *pc);
		size_t next = i < e->nmaps ? i + 1 : 0;
		char kind = i < e->nmaps ? e->maps[i].kind : 0;

		/* the run ends where the next mapping symbol starts another */
		while (next < e->nmaps && e->maps[next].addr <= *pc)
			next++;
		run->addr = *pc;
		run->end = next < e->nmaps && e->maps[next].addr < end ? e->maps[next].addr : end;
		run->thumb = kind ? kind == 't' : thumb;
		*pc = run->end;
		if (kind != 'd')
			return true;
	}
	return false;
}

bool sp_elf_thumb_at(const struct sp_elf *e, uint64_t addr)
{
	size_t i;
	uint32_t s;

	if (!e->arch->thumb)
		return false;
	i = map_before(e, addr);
	if (i < e->nmaps)
		return e->maps[i].kind == 't';
	s = sp_u64map_get(&e->sym_by_addr, addr);
	return s == SP_NONE || e->syms[s].thumb;
}
