/* callgraph.c - open, load and close an image: the stage's public face. */
#include "callgraph/internal.h"

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "common/xalloc.h"

int cg_open(struct cg_image **out, const char *path, struct sp_err *err)
{
	struct cg_image *img = sp_xcalloc(1, sizeof(*img));

	(void)err;	/* the file is opened by cg_load, which reports its errors */

	img->path = path;
	img->elf.fd = -1;
	img->debug_elf.fd = -1;
	*out = img;
	return 0;
}

/* What only the walk and cg_build read: an image need not keep it while
 * the others load (86 of the 558 MB of vmlinux and 280 modules).  The
 * address ranges stay for --indirect=types (cg_func_containing). */
static void release_build_state(struct cg_image *img)
{
	dw_release_walk(&img->dw);
	if (!img->opts.typed) {
		free(img->ranges);
		img->ranges = NULL;
		img->nranges = 0;
	}
	if (img->extern_by_name.nslots)
		sp_u64map_release(&img->extern_by_name);
	if (img->copies.nslots)
		sp_u64map_release(&img->copies);
}

/* How a caller knows a name: exported, then fewer leading '_' (libc's
 * printf is also _IO_printf, its internal aliases __GI_...), unversioned,
 * then shorter (strtol, not strtoimax). */
static unsigned name_rank(const struct sp_elf_sym *sym)
{
	unsigned r = (sym->bind == STB_LOCAL ? 100000 : 0) + 10 * (unsigned)strlen(sym->name);
	const char *p = sym->name;

	while (*p == '_')
		p++, r += 1000;
	if (strchr(sym->name, '@'))
		r += 10000;
	if (!strncmp(sym->name, "__GI_", 5))
		r += 10000;
	return r;
}

/* A library's functions: marked with its name, and called by the name
 * the program calls them by, even when its DWARF names them. */
static void mark_library(struct cg_image *img)
{
	const struct sp_elf *e = &img->elf;
	uint32_t i;

	for (i = img->func_first; img->lib && i < img->func_end; i++) {
		struct sp_func *f = &img->g->funcs[i];
		uint32_t k = (f->flags & SP_F_HAS_CODE) ? sp_u64map_get(&e->sym_by_addr, f->addr) :
			     SP_NONE;
		const struct sp_elf_sym *best = NULL;

		f->lib = img->lib;
		for (; k != SP_NONE && k < e->nsyms && e->syms[k].addr == f->addr; k++)
			if (!best || name_rank(&e->syms[k]) < name_rank(best))
				best = &e->syms[k];
		/* its symbol, not the debug file's internal name (__qsort_r) */
		if (best && (f->cu == SP_NONE || img->debug_elf.elf))
			f->name = best->name;
	}
}

/* A library's DWARF from its debug file (Debian's libc6-dbg): its
 * functions' source lines and the variables behind a dynamic frame.
 * Without it, or when it cannot be read, the library is read by its
 * symbols, CFI and code alone. */
static void open_debug_dwarf(struct cg_image *img, struct sp_graph *g)
{
	if (!img->debug_file)
		return;
	if (sp_elf_open(&img->debug_elf, g, img->debug_file, NULL) ||
	    dw_open_debug(&img->dw, &img->debug_elf))
		sp_elf_close(&img->debug_elf);
}

int cg_load(struct cg_image *img, struct sp_graph *g, const struct cg_options *opts,
	    struct sp_err *err)
{
	struct dw_walk_opts walk = {
		.progress = opts->progress, .progress_arg = opts->progress_arg,
		.split_min = opts->split_walk_min, .vars = opts->typed,
	};

	img->g = g;
	img->opts = *opts;
	img->func_first = g->nfuncs;
	if (sp_elf_open(&img->elf, g, img->path, err))
		return -1;
	/* a stripped library's own symbols are only its exports: its debug
	 * file's name the functions they call */
	if (img->debug_file && img->elf.stripped)
		sp_elf_read_debug_syms(&img->elf, g, img->debug_file, NULL);
	if (dw_open(&img->dw, img->path, &img->elf, g, err))
		return -1;
	open_debug_dwarf(img, g);
	/* no decoder: the call-site check and the code pass would be skipped
	 * and calls DWARF does not list (tail calls, inline assembly) lost
	 * silently, so that takes asking for DWARF alone */
	if (opts->calls != CG_CALLS_DWARF && !insn_machine_decodes(img->elf.machine))
		return sp_err_set(err, "'%s': unsupported machine (ELF e_machine %u; x86-64, "
				  "i386, AArch64 and ARM are decoded), --calls=dwarf reads "
				  "DWARF alone", img->path, (unsigned)img->elf.machine);
	g->binary = sp_intern(g, img->path);
	g->machine = img->elf.machine;
	/* the code is decoded on a second core while the first reads DWARF */
	if (insn_image_start(&img->code, &img->elf, opts->addr_taken, opts->typed, err))
		return -1;
	if (dw_walk(&img->dw, &walk, err) || insn_image_finish(&img->code, img->path, err))
		return -1;
	img->stats.call_sites = img->dw.call_sites;
	img->stats.split_units = img->dw.split_units;
	if (!img->dw.ncus && !img->lib)
		return sp_err_set(err, "'%s': no DWARF compile units (build with -g)",
				  img->path);
	cg_build(img);
	img->func_end = g->nfuncs;
	cg_inlined_nodes(img);
	mark_library(img);
	release_build_state(img);
	dw_park(&img->dw);
	return 0;
}

int cg_load_library(struct cg_image *img, struct sp_graph *g, const struct cg_options *opts,
		    const char *name, const char *debug_file, struct sp_err *err)
{
	img->lib = sp_intern(g, name);
	img->debug_file = debug_file;
	return cg_load(img, g, opts, err);
}

static void index_exports(const struct cg_image *img, struct sp_u64map *by_name)
{
	size_t i;

	for (i = 0; i < img->elf.nsyms; i++) {
		const struct sp_elf_sym *sym = &img->elf.syms[i];
		uint32_t id;

		if (sym->bind == STB_LOCAL ||
		    sp_u64map_get(by_name, (uintptr_t)sym->name) != SP_NONE)
			continue;
		id = sp_u64map_get(&img->func_by_addr, sym->addr);
		if (id != SP_NONE)
			sp_u64map_put(by_name, (uintptr_t)sym->name, id);
	}
}

/* The image that made function id (an external one: its reference). */
static const struct cg_image *image_of(struct cg_image *const *imgs, size_t n, uint32_t id)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (id >= imgs[i]->func_first && id < imgs[i]->func_end)
			return imgs[i];
	return NULL;
}

/*
 * The definition the external function id of name binds to: the version
 * its image's reference asks for when a library names it so (not its
 * default: memcpy@GLIBC_2.2.5), else the name (the default version, or
 * none asked), as ld.so binds it.
 */
static uint32_t definition(struct cg_image *const *imgs, size_t n, struct sp_graph *g,
			   const struct sp_u64map *by_name, uint32_t id, const char *name)
{
	const struct cg_image *img = image_of(imgs, n, id);
	const char *ver = img ? sp_elf_needed_version(&img->elf, name) : NULL;
	uint32_t def = SP_NONE;
	char buf[512];

	if (ver && (size_t)snprintf(buf, sizeof(buf), "%s@%s", name, ver) < sizeof(buf))
		def = sp_u64map_get(by_name, (uintptr_t)sp_intern(g, buf));
	return def != SP_NONE ? def : sp_u64map_get(by_name, (uintptr_t)name);
}

void cg_link(struct cg_image *const *imgs, size_t n, struct sp_graph *g,
	     uint32_t *linked)
{
	struct sp_u64map by_name;
	size_t i, cap = 0;
	uint32_t k;

	*linked = 0;
	for (i = 0; i < n; i++)
		cap += imgs[i]->elf.nsyms;
	sp_u64map_init(&by_name, cap);
	for (i = 0; i < n; i++)
		index_exports(imgs[i], &by_name);
	for (k = 0; k < g->nedges; k++) {
		const struct sp_func *f = &g->funcs[g->edges[k].to];
		const char *name = f->symbol ? f->symbol : f->name;
		uint32_t id;

		if (!(f->flags & SP_F_EXTERNAL) || !name)
			continue;
		id = definition(imgs, n, g, &by_name, g->edges[k].to, name);
		if (id != SP_NONE) {
			g->edges[k].to = id;
			g->finalized = false;
			(*linked)++;
		}
	}
	sp_u64map_release(&by_name);
}

bool cg_is_elf_file(const char *path)
{
	unsigned char magic[4];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	bool elf;

	if (fd < 0)
		return false;
	elf = read(fd, magic, sizeof(magic)) == (ssize_t)sizeof(magic) &&
	      !memcmp(magic, ELFMAG, SELFMAG);
	close(fd);
	return elf;
}

const struct cg_stats *cg_stats(const struct cg_image *img)
{
	return &img->stats;
}

const char *cg_path(const struct cg_image *img)
{
	return img->path;
}

const struct sp_elf *cg_elf(const struct cg_image *img)
{
	return &img->elf;
}

struct dw_image *cg_dwarf(struct cg_image *img)
{
	return &img->dw;
}

void cg_dwarf_done(struct cg_image *img)
{
	dw_park(&img->dw);
}

struct insn_image *cg_code(struct cg_image *img)
{
	return &img->code;
}

void cg_funcs(const struct cg_image *img, uint32_t *first, uint32_t *end)
{
	*first = img->func_first;
	*end = img->func_end;
}

uint32_t cg_func_at(const struct cg_image *img, uint64_t addr)
{
	return sp_u64map_get(&img->func_by_addr, addr);
}

bool cg_in_plt(const struct cg_image *img, uint64_t addr)
{
	return sp_elf_in_plt(&img->elf, addr);
}

void cg_units(const struct cg_image *img, uint32_t *first, uint32_t *n)
{
	*first = img->dw.cu_first;
	*n = img->dw.ncus;
}

bool cg_red_zone_counts(const struct cg_image *img)
{
	uint32_t i;

	if (!img->elf.arch->red_zone)
		return false;
	for (i = img->dw.cu_first; i < img->dw.cu_first + img->dw.ncus; i++)
		if (img->g->cus[i].producer && strstr(img->g->cus[i].producer, "-mno-red-zone"))
			return false;
	return true;
}

void cg_close(struct cg_image *img)
{
	if (!img)
		return;
	insn_image_release(&img->code);
	release_build_state(img);
	free(img->ranges);	/* what --indirect=types kept past the build */
	dw_close(&img->dw);
	sp_elf_close(&img->debug_elf);
	sp_elf_close(&img->elf);
	free(img->icalls);
	if (img->func_by_addr.nslots)
		sp_u64map_release(&img->func_by_addr);
	free(img);
}
