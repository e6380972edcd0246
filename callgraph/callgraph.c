/* callgraph.c - open, load and close an image: the stage's public face. */
#include "callgraph/internal.h"

#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "callgraph/dwarf_compat.h"
#include "common/xalloc.h"

int cg_open(struct cg_image **out, const char *path, struct sp_err *err)
{
	struct cg_image *img = sp_xcalloc(1, sizeof(*img));

	(void)err;	/* the file is opened by cg_load, which reports its errors */

	img->path = path;
	img->elf.fd = -1;
	*out = img;
	return 0;
}

static int open_dwarf(struct cg_image *img, struct sp_err *err)
{
	Dwarf_Error derr = NULL;
	/* every image through the object interface: libdwarf then reads the
	 * sections where libelf mapped them instead of copying them to the
	 * heap (ET_REL objects get relocated copies).  libdwarf's record of
	 * every object it hands out stays on: dwarf_set_de_alloc_flag(0)
	 * saves about 9 % of a run, but libdwarf 20210528 then leaks the
	 * errors it makes and drops itself on corrupt DWARF (fuzz_elf found
	 * one inside dwarf_highpc_b), which only dwarf_finish reclaims */
	int res = cg_dwobj_init(&img->dwobj, &img->elf, &img->dbg, &derr);

	if (res == DW_DLV_NO_ENTRY)
		return sp_err_set(err, "'%s': no DWARF debug information (build with -g)",
				  img->path);
	if (res != DW_DLV_OK) {
		img->dbg = NULL;
		sp_err_set(err, "'%s': cannot read DWARF: %s", img->path,
			   derr ? dwarf_errmsg(derr) : "unknown error");
		/* with no dbg libdwarf malloc'ed derr on its own: ours to free
		 * (found by fuzz_elf) */
		if (derr)
			dwarf_dealloc_error(NULL, derr);
		return -1;
	}
	return 0;
}

int cg_load(struct cg_image *img, struct sp_graph *g, const struct cg_options *opts,
	    struct sp_err *err)
{
	img->g = g;
	img->opts = *opts;
	img->func_first = g->nfuncs;
	img->cu_first = g->ncus;
	if (sp_elf_open(&img->elf, g, img->path, err) ||
	    cg_check_dwarf_lists(&img->elf, img->path, err) || open_dwarf(img, err))
		return -1;
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
	if (insn_image_start(&img->code, &img->elf, opts->addr_taken, err))
		return -1;
	sp_u64map_init(&img->sub_by_off, 4096);
	if (cg_dwarf_walk(img, err) || insn_image_finish(&img->code, img->path, err))
		return -1;
	if (!img->ncus_own)
		return sp_err_set(err, "'%s': no DWARF compile units (build with -g)",
				  img->path);
	cg_build(img);
	img->func_end = g->nfuncs;
	return 0;
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
		id = sp_u64map_get(&by_name, (uintptr_t)name);
		if (id != SP_NONE) {
			g->edges[k].to = id;
			(*linked)++;
		}
	}
	sp_u64map_release(&by_name);
	sp_graph_finalize(g);
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

void cg_release_records(struct cg_image *img)
{
	uint32_t i;

	for (i = 0; img->files && i < img->ncus_own; i++)
		free(img->files[i].names);
	free(img->files);
	free(img->cu_die_off);
	sp_big_free(img->subs, img->subs_cap * sizeof(*img->subs));
	sp_big_free(img->sites, img->sites_cap * sizeof(*img->sites));
	free(img->xranges);
	if (img->sub_by_off.nslots)
		sp_u64map_release(&img->sub_by_off);
	if (img->split_by_off.nslots)
		sp_u64map_release(&img->split_by_off);
}

void cg_close(struct cg_image *img)
{
	Dwarf_Error derr = NULL;

	if (!img)
		return;
	insn_image_release(&img->code);
	cg_release_records(img);
	if (img->dbg && img->dwobj.elf)
		dwarf_object_finish(img->dbg, &derr);
	else if (img->dbg)
		dwarf_finish(img->dbg, &derr);
	cg_dwobj_release(&img->dwobj);
	sp_elf_close(&img->elf);
	free(img->icalls);
	free(img->ranges);
	if (img->func_by_addr.nslots)
		sp_u64map_release(&img->func_by_addr);
	if (img->extern_by_name.nslots)
		sp_u64map_release(&img->extern_by_name);
	if (img->copies.nslots)
		sp_u64map_release(&img->copies);
	free(img);
}
