/* assumed.c - the solver's side of --indirect=address-taken's sets. */
#include "analysis/assumed.h"

#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"

#define FOR_EACH_BLOCK(as, v, b) \
	for ((b) = sp_assumed_blocks((as)->g, &(as)->g->funcs[v]); (b) && *(b) != SP_NONE; (b)++)

/* The blocks w is a member of: SP_ASSUMED_ALL and its own, or none. */
static size_t member_blocks(const struct as_solver *as, uint32_t w, uint32_t out[2])
{
	const struct sp_assumed *a = as->a;

	if (w >= a->nfuncs || a->block_of[w] == SP_NONE)
		return 0;
	out[0] = SP_ASSUMED_ALL;
	out[1] = a->block_of[w];
	return 2;
}

static bool better(uint64_t total, uint32_t id, const struct as_best *b)
{
	return b->id == SP_NONE || total > b->total || (total == b->total && id < b->id);
}

static void offer(struct as_best *b, uint64_t total, uint32_t id)
{
	if (better(total, id, b)) {
		b->total = total;
		b->id = id;
	}
}

static void init_slots(struct as_solver *as)
{
	const struct sp_assumed *a = as->a;
	uint32_t b, s, nslots = a->first[a->nblocks] + a->nblocks;

	as->skip = sp_xmalloc(nslots * sizeof(*as->skip));
	for (s = 0; s < nslots; s++)
		as->skip[s] = s;
	as->slot = sp_xmalloc(((size_t)a->nfuncs * 2 + 1) * sizeof(*as->slot));
	memset(as->slot, 0xff, ((size_t)a->nfuncs * 2 + 1) * sizeof(*as->slot));
	for (b = 0; b < a->nblocks; b++)
		for (s = a->first[b]; s < a->first[b + 1]; s++)
			as->slot[(size_t)a->ids[s] * 2 + (b != SP_ASSUMED_ALL)] = s + b;
}

void as_init(struct as_solver *as, const struct sp_graph *g)
{
	const struct sp_assumed *a = &g->assumed;
	uint32_t i, b;
	int c;

	memset(as, 0, sizeof(*as));
	as->g = g;
	as->a = a;
	for (i = 0; i < g->nfuncs; i++)
		if (sp_assumed_blocks(g, &g->funcs[i]))
			break;
	if (i == g->nfuncs || !a->nblocks || a->nfuncs > g->nfuncs)
		return;
	as->blocks = sp_xcalloc(a->nblocks, sizeof(*as->blocks));
	for (b = 0; b < a->nblocks; b++) {
		as->blocks[b].done.id = SP_NONE;
		for (c = 0; c < SP_CAUSE__COUNT; c++)
			as->blocks[b].first[c] = SP_NONE;
	}
	init_slots(as);
}

void as_release(struct as_solver *as)
{
	free(as->blocks);
	free(as->skip);
	free(as->slot);
	free(as->cursors);
	memset(as, 0, sizeof(*as));
}

/* ---- Tarjan ---- */

/* The first slot from s on whose member is not yet seen (path halving). */
static uint32_t next_unseen(struct as_solver *as, uint32_t s)
{
	while (as->skip[s] != s) {
		as->skip[s] = as->skip[as->skip[s]];
		s = as->skip[s];
	}
	return s;
}

size_t as_visit(struct as_solver *as, uint32_t v, const uint32_t *disc, uint32_t *low)
{
	const uint32_t *b;
	uint32_t mb[2];
	size_t base = as->ncursors, k, n;

	if (!as_on(as))
		return 0;
	/* a member on the stack below v keeps it there until v is done:
	 * the lowest one is the least discovery index v's edges could see */
	FOR_EACH_BLOCK(as, v, b) {
		const struct as_block *x = &as->blocks[*b];

		if (x->on_stack && disc[x->bottom] < *low)
			*low = disc[x->bottom];
		SP_ALLOC_GROW(as->cursors, as->ncursors + 1, as->cursors_cap);
		as->cursors[as->ncursors++] = as->a->first[*b] + *b;
	}
	n = member_blocks(as, v, mb);
	for (k = 0; k < n; k++) {
		struct as_block *x = &as->blocks[mb[k]];
		uint32_t s = as->slot[(size_t)v * 2 + k];

		if (!x->on_stack++)
			x->bottom = v;
		as->skip[s] = s + 1;	/* seen */
	}
	return base;
}

uint32_t as_next(struct as_solver *as, uint32_t v, size_t cursors)
{
	const uint32_t *b;
	uint32_t best = SP_NONE;
	size_t k = cursors;

	if (!as_on(as))
		return SP_NONE;
	FOR_EACH_BLOCK(as, v, b) {
		uint32_t s = next_unseen(as, as->cursors[k]);

		as->cursors[k++] = s;
		if (s < as->a->first[*b + 1] + *b && as->a->ids[s - *b] < best)
			best = as->a->ids[s - *b];
	}
	return best;
}

void as_finish(struct as_solver *as, size_t cursors)
{
	if (as_on(as))
		as->ncursors = cursors;
}

void as_pop(struct as_solver *as, uint32_t w)
{
	uint32_t mb[2];
	size_t k, n;

	if (!as_on(as))
		return;
	n = member_blocks(as, w, mb);
	for (k = 0; k < n; k++)
		as->blocks[mb[k]].on_stack--;
}

/* ---- solving a component ---- */

void as_scc_begin(struct as_solver *as, const uint32_t *members, size_t n)
{
	uint32_t mb[2];
	size_t i, k, nb;

	if (!as_on(as))
		return;
	as->scc++;
	for (i = 0; i < n; i++) {
		nb = member_blocks(as, members[i], mb);
		for (k = 0; k < nb; k++) {
			struct as_block *x = &as->blocks[mb[k]];

			if (x->stamp != as->scc) {
				x->stamp = as->scc;
				x->solved.id = SP_NONE;
				x->lowest = members[i];
			} else if (members[i] < x->lowest) {
				x->lowest = members[i];
			}
		}
	}
}

void as_solved(struct as_solver *as, uint32_t v)
{
	uint32_t mb[2];
	size_t k, n;

	if (!as_on(as))
		return;
	n = member_blocks(as, v, mb);
	for (k = 0; k < n; k++)
		offer(&as->blocks[mb[k]].solved, as->g->funcs[v].res.total, v);
}

void as_scc_end(struct as_solver *as, const uint32_t *members, size_t n)
{
	uint32_t mb[2];
	size_t i, k, nb;
	int c;

	if (!as_on(as))
		return;
	for (i = 0; i < n; i++) {
		const struct sp_result *r = &as->g->funcs[members[i]].res;

		nb = member_blocks(as, members[i], mb);
		for (k = 0; k < nb; k++) {
			struct as_block *x = &as->blocks[mb[k]];

			offer(&x->done, r->total, members[i]);
			x->done.overflow |= r->overflow;
			x->done_lines |= r->assume_lines;
			for (c = 0; c < SP_CAUSE__COUNT; c++)
				if (r->witness[c] != SP_NONE && members[i] < x->first[c])
					x->first[c] = members[i];
		}
	}
}

/* Is block x's state about the component being solved? */
static bool current(const struct as_solver *as, const struct as_block *x)
{
	return x->stamp == as->scc;
}

struct as_best as_best_target(const struct as_solver *as, uint32_t v)
{
	struct as_best best = { 0, SP_NONE, false };
	const uint32_t *b;

	if (!as_on(as))
		return best;
	FOR_EACH_BLOCK(as, v, b) {
		const struct as_block *x = &as->blocks[*b];

		if (x->done.id != SP_NONE)
			offer(&best, x->done.total, x->done.id);
		if (current(as, x) && x->solved.id != SP_NONE)
			offer(&best, x->solved.total, x->solved.id);
	}
	return best;
}

bool as_exit(const struct as_solver *as, uint32_t v, uint64_t *total, bool *overflow)
{
	const uint32_t *b;
	bool any = false;

	if (!as_on(as))
		return false;
	FOR_EACH_BLOCK(as, v, b) {
		const struct as_block *x = &as->blocks[*b];

		if (x->done.id == SP_NONE)
			continue;
		if (!any || x->done.total > *total)
			*total = x->done.total;
		*overflow |= x->done.overflow;
		any = true;
	}
	return any;
}

uint64_t as_exit_lines(const struct as_solver *as, uint32_t v)
{
	const uint32_t *b;
	uint64_t lines = 0;

	if (!as_on(as))
		return 0;
	FOR_EACH_BLOCK(as, v, b)
		lines |= as->blocks[*b].done_lines;
	return lines;
}

uint32_t as_first_witness(const struct as_solver *as, uint32_t v, int c)
{
	const uint32_t *b;
	uint32_t w = SP_NONE;

	if (!as_on(as))
		return SP_NONE;
	FOR_EACH_BLOCK(as, v, b)
		if (as->blocks[*b].first[c] < w)
			w = as->blocks[*b].first[c];
	return w;
}

uint32_t as_lowest_inside(const struct as_solver *as, uint32_t v)
{
	const uint32_t *b;
	uint32_t w = SP_NONE;

	if (!as_on(as))
		return SP_NONE;
	FOR_EACH_BLOCK(as, v, b)
		if (current(as, &as->blocks[*b]) && as->blocks[*b].lowest < w)
			w = as->blocks[*b].lowest;
	return w;
}
