/*
 * exported.c - a call through a struct member that nothing in the images
 * stores: no initialised object holds a function there, no store of the
 * code writes one (typed, or smeared by prototype), no other member is
 * copied into it, and no value of unknown origin is written there (the
 * key is empty and has not escaped); nor is its struct a function's local
 * or parameter, which code fills unseen (an initialiser from a parameter,
 * a struct copy: work_on_cpu's work_for_cpu).  Its value comes from code
 * that is not given.
 *
 * In a kernel (an image with __ksymtab_NAME symbols: EXPORT_SYMBOL*)
 * that code is a loadable module's (ethtool_ops, devlink_ops: a driver
 * fills them).  A module can store there, assumed:
 *
 *	the functions the images export to modules (__ksymtab_NAME) of the
 *	member's prototype class, or of none known (assembly no C
 *	declaration names), as the
 *	prototype fallback would take them;
 *	its own code, which is not analysed: one stand-in per member,
 *	<module code: struct X.m>, whose frame is unknown, so that every
 *	total through it is partial and says why.
 *
 * Assumed too: a module stores no function the image hands it some other
 * way (a callback passed to it as an argument, read from a table).
 *
 * A program or library (no ksymtab) keeps the prototype fallback: a
 * shared library or a plugin can store any function the program hands it
 * (a callback registered), not only its exported dynamic symbols, so the
 * address-taken functions of the prototype stay its targets.
 */
#include "indirect/run.h"

#include <gelf.h>
#include <stdlib.h>
#include <string.h>

#include "common/strbuf.h"
#include "common/xalloc.h"
#include "indirect/kernel.h"

#define KSYMTAB "__ksymtab_"

struct exports {
	struct ind_kernel *k;
	uint32_t image;
	uint8_t *marks;		/* by function id: exported */
	bool any;		/* some __ksymtab_ symbol seen */
};

static void find_export(void *arg, const GElf_Sym *sym, const char *name)
{
	struct exports *x = arg;
	uint32_t id;

	if (sym->st_shndx == SHN_UNDEF || strncmp(name, KSYMTAB, strlen(KSYMTAB)))
		return;
	x->any = true;
	id = ind_kernel_func_named(x->k, x->image, sp_intern(x->k->r->g, name + strlen(KSYMTAB)));
	if (id != SP_NONE)
		x->marks[id] = 1;
}

void ind_exported_init(struct ind_kernel *k)
{
	struct sp_graph *g = k->r->g;
	struct exports x = { .k = k };
	size_t i;

	x.marks = sp_xcalloc(g->nfuncs + 1, 1);
	k->nmarks = g->nfuncs;
	k->kernel_image = sp_xcalloc(k->r->nims + 1, sizeof(*k->kernel_image));
	for (i = 0; i < k->r->nims; i++) {
		x.image = (uint32_t)i;
		x.any = false;
		sp_elf_each_symbol(k->r->ims[i].elf, find_export, &x);
		k->kernel_image[i] = x.any;
		k->kernel |= x.any;
	}
	/* a module exports nothing, maybe, but it is one */
	for (i = 0; k->kernel && i < k->r->nims; i++)
		k->kernel_image[i] |= k->r->ims[i].elf->type == ET_REL;
	/* any image's ksymtab, not the last one's: a module given after
	 * vmlinux may export nothing */
	if (k->kernel) {
		k->marks = x.marks;
		sp_u64map_init(&k->modules, 256);
	} else {
		free(x.marks);
	}
}

void ind_exported_ready(struct ind_kernel *k)
{
	if (!k->kernel)
		return;
	ind_fallback_init(&k->exported, k->r->g, k->marks, k->fb->strict);
}

void ind_exported_release(struct ind_kernel *k)
{
	free(k->kernel_image);
	free(k->marks);
	if (!k->kernel)
		return;
	ind_fallback_release(&k->exported);
	sp_u64map_release(&k->modules);
}

/* The stand-in for the modules' code member desc may hold: no frame
 * known, no calls known (its total is partial, SP_F_NOT_GIVEN says why). */
static uint32_t module_code(struct ind_kernel *k, uint64_t key, const char *desc)
{
	struct sp_graph *g = k->r->g;
	uint32_t id = sp_u64map_get(&k->modules, key);
	struct sp_strbuf sb = { 0 };
	struct sp_func *f;

	if (id != SP_NONE)
		return id;
	id = sp_graph_add_func(g);
	f = &g->funcs[id];
	sp_strbuf_addf(&sb, "%s%s>", SP_MODULE_CODE, desc);
	f->name = sp_intern(g, sb.buf);
	free(sb.buf);
	f->qual = SP_QUAL_UNKNOWN;
	f->src = SP_SRC_NONE;
	f->flags = SP_F_NOT_GIVEN;
	sp_u64map_put(&k->modules, key, id);
	return id;
}

/* The exported functions a module may store in a member of prototype
 * proto: C's type checks (the kernel builds with
 * -Werror=incompatible-pointer-types) let it store only functions of
 * that prototype, not of its class; those of no known prototype may be
 * any.  With none known, every exported function. */
static void exported_typed(struct ind_kernel *k, const char *proto, struct ids *out)
{
	const struct sp_graph *g = k->r->g;
	uint32_t i, n = out->n;

	if (!proto) {
		for (i = 0; i < k->exported.nall; i++)
			ids_add(out, k->exported.all[i]);
		return;
	}
	ind_proto_targets(&k->exported, ind_proto_key(&k->exported, k->r->g, proto), out);
	for (i = n; i < out->n; i++)
		if (!g->funcs[out->v[i]].proto || g->funcs[out->v[i]].proto == proto)
			out->v[n++] = out->v[i];
	out->n = n;
}

enum sp_resolved ind_exported_targets(struct ind_kernel *k, const struct ind_site *s,
				      struct ids *out, const char **desc)
{
	const struct ind_key *key;

	if (!k->kernel_image[s->image] || s->t.kind != IND_TK_KEY || s->t.key == SP_NONE)
		return SP_RES_NONE;
	key = &k->r->keys.v[s->t.key];
	if (key->escaped || key->ntargets || key->local)
		return SP_RES_NONE;
	exported_typed(k, s->t.proto, out);
	ids_add(out, module_code(k, s->t.key, *desc ? *desc : "?"));
	return SP_RES_EXPORTED;
}

bool ind_exported(const struct ind_kernel *k, uint32_t id)
{
	return k->marks && id < k->nmarks && k->marks[id];
}

uint32_t ind_exported_callers(struct ind_kernel *k, uint32_t func)
{
	struct sp_strbuf sb = { 0 };
	uint32_t id;

	sp_strbuf_addf(&sb, "the callers of %s", k->r->g->funcs[func].name);
	/* a key id is below 2^32: the stand-ins of callers above */
	id = module_code(k, (uint64_t)1 << 32 | func, sp_intern(k->r->g, sb.buf));
	free(sb.buf);
	return id;
}

void ind_exported_args(struct ind_kernel *k, uint32_t func, const char *proto, struct ids *out)
{
	exported_typed(k, proto, out);
	ids_add(out, ind_exported_callers(k, func));
}

enum sp_resolved ind_exported_module(struct ind_kernel *k, const struct ind_site *s,
				     struct ids *out, const char **desc)
{
	if (!k->kernel_image[s->image] || k->r->keys.v[s->t.key].local)
		return SP_RES_NONE;
	exported_typed(k, s->t.proto, out);
	ids_add(out, module_code(k, s->t.key, *desc ? *desc : "?"));
	return SP_RES_EXPORTED;
}
