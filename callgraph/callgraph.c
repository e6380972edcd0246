/* callgraph.c - open, load and close an image: the stage's public face. */
#include "callgraph/internal.h"

#include <string.h>

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
	int res = cg_dwarf_init(img->elf.fd, &img->dbg, &derr);

	if (res == DW_DLV_NO_ENTRY)
		return sp_err_set(err, "'%s': no DWARF debug information (build with -g)",
				  img->path);
	if (res != DW_DLV_OK) {
		img->dbg = NULL;
		sp_err_set(err, "'%s': cannot read DWARF: %s", img->path,
			   derr ? dwarf_errmsg(derr) : "unknown error");
		return -1;	/* derr belongs to no dbg: libdwarf frees it */
	}
	return 0;
}

int cg_load(struct cg_image *img, struct sp_graph *g, const struct cg_options *opts,
	    struct sp_err *err)
{
	img->g = g;
	img->opts = *opts;
	if (cg_elf_open(&img->elf, g, img->path, err) || open_dwarf(img, err))
		return -1;
	g->binary = sp_intern(g, img->path);
	g->machine = img->elf.machine;
	/* the code is decoded on a second core while the first reads DWARF */
	if (opts->calls != CG_CALLS_DWARF && cg_disasm_supported(&img->elf) &&
	    cg_disasm_start(&img->disasm, &img->elf, err))
		return -1;
	sp_u64map_init(&img->sub_by_off, 4096);
	if (cg_dwarf_walk(img, err) || cg_disasm_finish(&img->disasm, img->path, err))
		return -1;
	if (!g->ncus)
		return sp_err_set(err, "'%s': no DWARF compile units (build with -g)",
				  img->path);
	return cg_build(img, err);
}

const struct cg_stats *cg_stats(const struct cg_image *img)
{
	return &img->stats;
}

static void release_files(struct cg_image *img)
{
	uint32_t i;

	for (i = 0; img->files && img->g && i < img->g->ncus; i++)
		if (img->files[i].names)
			cg_dealloc_srcfiles(img->dbg, img->files[i].names,
					    img->files[i].count);
	free(img->files);
	free(img->cu_die_off);
}

void cg_close(struct cg_image *img)
{
	Dwarf_Error derr = NULL;

	if (!img)
		return;
	cg_disasm_release(&img->disasm);
	release_files(img);
	if (img->dbg)
		dwarf_finish(img->dbg, &derr);
	cg_elf_close(&img->elf);
	free(img->subs);
	free(img->sites);
	free(img->xranges);
	free(img->ranges);
	if (img->sub_by_off.nslots)
		sp_u64map_release(&img->sub_by_off);
	if (img->func_by_addr.nslots)
		sp_u64map_release(&img->func_by_addr);
	if (img->extern_by_name.nslots)
		sp_u64map_release(&img->extern_by_name);
	if (img->copies.nslots)
		sp_u64map_release(&img->copies);
	free(img);
}
