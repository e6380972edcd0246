/*
 * resolve.c - --indirect's policy, one entry point for main: which
 * functions each mode lets an indirect call reach, and how that meets
 * the annotations.
 */
#include "indirect/indirect.h"

#include <stdlib.h>

#include "annotate/annotate.h"
#include "common/xalloc.h"

struct ind_policy {
	enum ind_mode mode;
	struct sp_graph *g;
	struct cg_image *const *imgs;
	size_t n;
	struct ind_run *run;	/* IND_TYPES: the chains being typed */
};

struct ind_policy *ind_begin(enum ind_mode mode, struct sp_graph *g,
			     struct cg_image *const *imgs, size_t n, bool lines)
{
	struct ind_policy *p = sp_xcalloc(1, sizeof(*p));

	*p = (struct ind_policy){ mode, g, imgs, n, NULL };
	/* the chains of the indirect calls are typed while the frames are */
	if (mode == IND_TYPES)
		p->run = ind_start(g, imgs, n, lines);
	return p;
}

void ind_release(struct ind_policy *p)
{
	if (!p)
		return;
	ind_abandon(p->run);
	free(p);
}

/*
 * What any image takes the address of: the functions an indirect call may
 * reach (out->ntaken counts them).  Their prototypes are read when a call
 * site is typed; with --indirect=types, for every one, by ind_finish
 * (with the functions a kernel exports, in the same pass).
 */
static uint8_t *address_taken(const struct ind_policy *p, struct ind_summary *out)
{
	struct sp_graph *g = p->g;
	bool typed = p->mode == IND_TYPES;
	uint8_t *taken = sp_xcalloc(g->nfuncs ? g->nfuncs : 1, 1);
	uint32_t i;

	for (i = 0; i < p->n; i++)
		cg_address_taken(p->imgs[i], g, taken);
	for (i = 0; !typed && i < p->n; i++)
		cg_indirect_sites(p->imgs[i], g);
	for (i = 0; !typed && g->nicalls && i < p->n; i++)
		cg_indirect_prototypes(p->imgs[i], g, taken);
	out->ntaken = 0;
	for (i = 0; i < g->nfuncs; i++)
		out->ntaken += taken[i];
	return taken;
}

/*
 * analysis/nest.c solves a once/nest function on its own edges: the
 * assumed targets of --indirect=address-taken's sets below it would be
 * missed, so those annotations are not applied, nor 'ignore ... below'
 * (the cycles stay unbounded, the calls stay: sound, if loose).
 */
static void drop_once_nest(struct sp_graph *g, struct ind_summary *out)
{
	uint32_t i;

	for (i = 0; i < g->nfuncs; i++)
		if (g->funcs[i].nest) {
			out->nest_dropped += sp_nest_counted(g->funcs[i].nest) ||
					     g->funcs[i].nest == SP_NEST_PER;
			g->funcs[i].nest = 0;
		}
	g->npers = 0;
	out->belows_dropped = g->nbelows;
	g->nbelows = 0;
}

/* The mode's targets: address-taken sets, or typed targets. */
static int resolve(struct ind_policy *p, struct ind_summary *out, struct sp_err *err)
{
	uint8_t *taken;
	int ret = 0;

	if (p->mode == IND_NONE)
		return 0;
	taken = address_taken(p, out);
	if (p->mode == IND_ADDRESS_TAKEN) {
		out->added = sp_assume_address_taken(p->g, taken);
		out->nicalls = p->g->nicalls;
	} else {
		ret = ind_finish(p->run, taken, &out->st, err);
		p->run = NULL;
	}
	free(taken);
	out->resolved = !ret;
	return ret;
}

int ind_resolve(struct ind_policy *p, const struct sp_annots *annots,
		struct ind_summary *out, struct sp_err *err)
{
	int ret = -1;

	*out = (struct ind_summary){ .mode = p->mode };
	if (resolve(p, out, err) || sp_annot_apply(annots, p->g, err))
		goto out;
	if (p->mode == IND_ADDRESS_TAKEN)
		drop_once_nest(p->g, out);
	ret = 0;
out:
	ind_release(p);
	return ret;
}
