/*
 * lazy.c - lazy binding.  Unless an image is bound when it is loaded
 * (-z now: DF_BIND_NOW, DF_1_NOW), the first call through each of its PLT
 * slots runs the dynamic linker's resolver on the caller's stack: the
 * stub pushes the slot's index, the PLT's header the link map, and
 * ld.so's _dl_runtime_resolve_xsavec saves the vector registers below
 * them (an XSAVE area the CPU sizes) and calls _dl_fixup, which looks
 * the symbol up; then it jumps to the function with its frame gone.
 *
 * Each such call goes through a node of its own, "NAME@plt" marked
 * [lazy binding]: a call to the resolvers (the one ld.so picks depends
 * on the CPU, so each of them) and a tail call to the function, so that
 * its total is the deeper of the two.  Its frame and the resolvers' are
 * decided with the others (frames/frames.c).
 */
#include "callgraph/internal.h"

#include <stdio.h>
#include <string.h>

#include "elf/dynamic.h"

static const char *const resolvers[] = {
	"_dl_runtime_resolve_xsavec", "_dl_runtime_resolve_xsave",
	"_dl_runtime_resolve_fxsave",
};

#define NRESOLVERS (sizeof(resolvers) / sizeof(resolvers[0]))

/* The resolvers' functions, in whichever image (ld.so) has them. */
static size_t find_resolvers(struct cg_image *const *imgs, size_t n, struct sp_graph *g,
			     uint32_t *out)
{
	size_t i, k, r, found = 0;

	for (r = 0; r < NRESOLVERS; r++) {
		const char *name = sp_intern(g, resolvers[r]);

		for (i = 0; i < n; i++) {
			const struct sp_elf *e = &imgs[i]->elf;
			uint32_t id = SP_NONE;

			for (k = 0; k < e->nsyms && id == SP_NONE; k++)
				if (e->syms[k].name == name)
					id = cg_func_at(imgs[i], e->syms[k].addr);
			if (id != SP_NONE) {
				/* its jmp *%r11 is the jump to the function,
				 * which the stub's tail call stands for */
				g->funcs[id].flags |= SP_F_RESOLVER;
				g->funcs[id].n_indirect = 0;
				out[found++] = id;
				break;
			}
		}
	}
	return found;
}

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

/* Is img the dynamic linker some image names as its interpreter?  It
 * relocates itself, all at once, before anything runs. */
static bool is_interpreter(struct cg_image *const *imgs, size_t n, const struct cg_image *img)
{
	size_t i;
	bool found = false;

	for (i = 0; i < n && !found; i++) {
		struct sp_elf_dynamic d;

		sp_elf_read_dynamic(&imgs[i]->elf, &d);
		found = d.interp && !strcmp(base_name(d.interp), base_name(img->path));
		sp_elf_dynamic_release(&d);
	}
	return found;
}

/* The image's PLT names with a lazily bound slot, set in *names. */
static bool lazy_slots(struct cg_image *const *imgs, size_t n, const struct cg_image *img,
		       struct sp_u64map *names)
{
	struct sp_elf_dynamic d;
	size_t k;
	bool lazy;

	sp_elf_read_dynamic(&img->elf, &d);
	lazy = d.dynamic && !d.bind_now && img->elf.nplt;
	sp_elf_dynamic_release(&d);
	if (lazy && is_interpreter(imgs, n, img))
		lazy = false;
	if (!lazy)
		return false;
	sp_u64map_init(names, img->elf.nplt);
	for (k = 0; k < img->elf.nplt; k++)
		if (img->elf.plt_names[k])
			sp_u64map_put(names, (uintptr_t)img->elf.plt_names[k], SP_NONE - 1);
	return true;
}

static uint32_t new_stub(struct sp_graph *g, const struct cg_image *img, uint32_t callee,
			 const uint32_t *res, size_t nres)
{
	char name[512];
	uint32_t id = sp_graph_add_func(g), unknown;
	size_t r;

	snprintf(name, sizeof(name), "%s@plt", g->funcs[callee].name);
	g->funcs[id].name = g->funcs[id].symbol = sp_intern(g, name);
	g->funcs[id].flags = SP_F_LAZY;
	g->funcs[id].lib = img->lib;
	sp_graph_add_edge(g, id, callee, SP_EDGE_TAIL, 0);
	for (r = 0; r < nres; r++)
		sp_graph_add_edge(g, id, res[r], SP_EDGE_CALL, 0);
	if (!nres) {	/* ld.so without its symbols: an unknown frame */
		unknown = sp_graph_add_func(g);
		g->funcs[unknown].name = g->funcs[unknown].symbol =
			sp_intern(g, "_dl_runtime_resolve");
		g->funcs[unknown].flags = SP_F_EXTERNAL;
		sp_graph_add_edge(g, id, unknown, SP_EDGE_CALL, 0);
	}
	return id;
}

/* Send img's calls through its lazily bound slots to their stubs. */
static uint32_t stub_calls(struct sp_graph *g, const struct cg_image *img,
			   struct sp_u64map *names, const uint32_t *res, size_t nres)
{
	uint32_t k, nedges = g->nedges, nstubs = 0;

	for (k = 0; k < nedges; k++) {
		uint32_t from = g->edges[k].from, to = g->edges[k].to, stub;
		const struct sp_func *f = &g->funcs[to];
		const char *name = f->symbol ? f->symbol : f->name;

		if (from < img->func_first || from >= img->func_end ||
		    !(f->flags & SP_F_EXTERNAL) || !name)
			continue;
		stub = sp_u64map_get(names, (uintptr_t)name);
		if (stub == SP_NONE)
			continue;	/* no PLT slot of this image */
		if (stub == SP_NONE - 1) {
			stub = new_stub(g, img, to, res, nres);
			sp_u64map_put(names, (uintptr_t)name, stub);
			nstubs++;
		}
		g->edges[k].to = stub;
		g->finalized = false;
	}
	return nstubs;
}

uint32_t cg_lazy_binding(struct cg_image *const *imgs, size_t n, struct sp_graph *g)
{
	uint32_t res[NRESOLVERS], nstubs = 0;
	size_t nres = find_resolvers(imgs, n, g, res), i;

	for (i = 0; i < n; i++) {
		struct sp_u64map names;

		if (!lazy_slots(imgs, n, imgs[i], &names))
			continue;
		nstubs += stub_calls(g, imgs[i], &names, res, nres);
		sp_u64map_release(&names);
	}
	return nstubs;
}
