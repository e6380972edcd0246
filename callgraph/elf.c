/* elf.c - the symbol table and executable sections of the image. */
#include "callgraph/internal.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/xalloc.h"

/* Among symbols at one address prefer GLOBAL, then WEAK, then LOCAL: the
 * name a caller links against. */
static int bind_rank(uint8_t bind)
{
	return bind == STB_GLOBAL ? 0 : bind == STB_WEAK ? 1 : 2;
}

static int sym_cmp(const void *pa, const void *pb)
{
	const struct cg_sym *a = pa, *b = pb;

	if (a->addr != b->addr)
		return a->addr < b->addr ? -1 : 1;
	if (bind_rank(a->bind) != bind_rank(b->bind))
		return bind_rank(a->bind) - bind_rank(b->bind);
	return strcmp(a->name, b->name);
}

static void elf_add_code(struct cg_elf *e, size_t *cap, Elf_Scn *scn,
			 const GElf_Shdr *sh, const char *name)
{
	Elf_Data *d = sh->sh_type == SHT_NOBITS ? NULL : elf_rawdata(scn, NULL);
	struct cg_code *c;

	SP_ALLOC_GROW(e->code, e->ncode + 1, *cap);
	c = &e->code[e->ncode++];
	c->addr = sh->sh_addr;
	c->size = sh->sh_size;
	c->bytes = d && d->d_size >= sh->sh_size ? d->d_buf : NULL;
	c->is_plt = name && !strncmp(name, ".plt", 4);
}

static void elf_read_symtab(struct cg_elf *e, struct sp_graph *g, Elf_Scn *scn,
			    const GElf_Shdr *sh, size_t *cap)
{
	Elf_Data *d = elf_getdata(scn, NULL);
	size_t i, n;

	if (!d || !sh->sh_entsize)
		return;
	n = sh->sh_size / sh->sh_entsize;
	for (i = 0; i < n; i++) {
		GElf_Sym sym;
		const char *name;

		if (!gelf_getsym(d, (int)i, &sym) ||
		    GELF_ST_TYPE(sym.st_info) != STT_FUNC ||
		    sym.st_shndx == SHN_UNDEF)
			continue;
		name = elf_strptr(e->elf, sh->sh_link, sym.st_name);
		if (!name || !*name)
			continue;
		SP_ALLOC_GROW(e->syms, e->nsyms + 1, *cap);
		e->syms[e->nsyms].addr = sym.st_value;
		e->syms[e->nsyms].size = sym.st_size;
		e->syms[e->nsyms].name = sp_intern(g, name);
		e->syms[e->nsyms].bind = GELF_ST_BIND(sym.st_info);
		e->nsyms++;
	}
}

/* x86-64 PLT stubs are 16 bytes each, in .rela.plt order: in .plt.sec
 * from its start (IBT builds), else in .plt after the one-stub header. */
static void elf_read_plt(struct cg_elf *e, struct sp_graph *g, Elf_Scn *rela,
			 uint64_t plt, uint64_t plt_sec)
{
	GElf_Shdr sh, dsh;
	Elf_Data *d, *dd;
	Elf_Scn *dyn;
	size_t i, n;

	if (e->machine != EM_X86_64 || !rela || !gelf_getshdr(rela, &sh) || !sh.sh_entsize)
		return;
	dyn = elf_getscn(e->elf, sh.sh_link);
	d = elf_getdata(rela, NULL);
	if (!dyn || !gelf_getshdr(dyn, &dsh) || !d || !(dd = elf_getdata(dyn, NULL)))
		return;
	n = sh.sh_size / sh.sh_entsize;
	e->plt_names = sp_xcalloc(n, sizeof(*e->plt_names));
	e->nplt = n;
	e->plt_stride = 16;
	e->plt_base = plt_sec ? plt_sec : plt + 16;
	for (i = 0; i < n; i++) {
		GElf_Rela r;
		GElf_Sym sym;
		const char *name;

		if (!gelf_getrela(d, (int)i, &r) ||
		    !gelf_getsym(dd, (int)GELF_R_SYM(r.r_info), &sym))
			continue;
		name = elf_strptr(e->elf, dsh.sh_link, sym.st_name);
		if (name && *name)
			e->plt_names[i] = sp_intern(g, name);
	}
}

const char *cg_elf_plt_name(const struct cg_elf *e, uint64_t addr)
{
	uint64_t i;

	if (!e->nplt || addr < e->plt_base || (addr - e->plt_base) % e->plt_stride)
		return NULL;
	i = (addr - e->plt_base) / e->plt_stride;
	return i < e->nplt ? e->plt_names[i] : NULL;
}

static int elf_scan_sections(struct cg_elf *e, struct sp_graph *g,
			     const char *path, struct sp_err *err)
{
	size_t shstrndx, code_cap = 0, sym_cap = 0;
	Elf_Scn *scn = NULL, *symtab = NULL, *dynsym = NULL, *rela_plt = NULL;
	uint64_t plt = 0, plt_sec = 0;
	GElf_Shdr sh, symsh;

	if (elf_getshdrstrndx(e->elf, &shstrndx))
		return sp_err_set(err, "'%s': bad section header table: %s",
				  path, elf_errmsg(-1));
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
		if ((sh.sh_flags & SHF_EXECINSTR) && sh.sh_size)
			elf_add_code(e, &code_cap, scn, &sh, name);
		if (name && !strcmp(name, ".plt"))
			plt = sh.sh_addr;
		else if (name && !strcmp(name, ".plt.sec"))
			plt_sec = sh.sh_addr;
	}
	elf_read_plt(e, g, rela_plt, plt, plt_sec);
	/* .dynsym only when stripped of .symtab: it lacks the local functions */
	if (!symtab)
		symtab = dynsym;
	if (symtab && gelf_getshdr(symtab, &symsh))
		elf_read_symtab(e, g, symtab, &symsh, &sym_cap);
	return 0;
}

static void elf_index_syms(struct cg_elf *e)
{
	size_t i;

	if (e->nsyms)
		qsort(e->syms, e->nsyms, sizeof(*e->syms), sym_cmp);
	sp_u64map_init(&e->sym_by_addr, e->nsyms);
	/* sorted best-first within an address: keep the first */
	for (i = e->nsyms; i-- > 0;)
		sp_u64map_put(&e->sym_by_addr, e->syms[i].addr, (uint32_t)i);
}

static int elf_check_header(struct cg_elf *e, const char *path, struct sp_err *err)
{
	GElf_Ehdr eh;

	if (elf_kind(e->elf) != ELF_K_ELF)
		return sp_err_set(err, "'%s': not an ELF file", path);
	if (!gelf_getehdr(e->elf, &eh))
		return sp_err_set(err, "'%s': truncated or corrupt ELF header: %s",
				  path, elf_errmsg(-1));
	e->machine = eh.e_machine;
	e->type = eh.e_type;
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

int cg_elf_open(struct cg_elf *e, struct sp_graph *g, const char *path,
		struct sp_err *err)
{
	memset(e, 0, sizeof(*e));
	e->fd = -1;
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

void cg_elf_close(struct cg_elf *e)
{
	if (e->elf)
		elf_end(e->elf);
	if (e->fd >= 0)
		close(e->fd);
	free(e->syms);
	free(e->code);
	free(e->plt_names);
	if (e->sym_by_addr.nslots)
		sp_u64map_release(&e->sym_by_addr);
	memset(e, 0, sizeof(*e));
	e->fd = -1;
}

static const struct cg_code *code_section(const struct cg_elf *e, uint64_t addr)
{
	size_t i;

	/* a handful of executable sections: a linear scan is fastest */
	for (i = 0; i < e->ncode; i++)
		if (addr >= e->code[i].addr && addr - e->code[i].addr < e->code[i].size)
			return &e->code[i];
	return NULL;
}

const unsigned char *cg_elf_code_at(const struct cg_elf *e, uint64_t addr, size_t len)
{
	const struct cg_code *c = code_section(e, addr);

	if (!c || !c->bytes || c->size - (addr - c->addr) < len)
		return NULL;
	return c->bytes + (addr - c->addr);
}

bool cg_elf_in_plt(const struct cg_elf *e, uint64_t addr)
{
	const struct cg_code *c = code_section(e, addr);

	return c && c->is_plt;
}

bool cg_elf_is_code(const struct cg_elf *e, uint64_t addr)
{
	return code_section(e, addr) != NULL;
}
