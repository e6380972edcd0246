/*
 * apply.c - put what an annotation file says into the graph, and the
 * --indirect=address-taken assumption.
 */
#include "annotate/annotate.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "common/strbuf.h"
#include "common/u64map.h"
#include "common/search.h"
#include "common/xalloc.h"

/* The nodes of the copies of callee inlined into one of funcs. */
static void inlined_nodes(const struct sp_graph *g, const uint32_t *funcs, size_t nfuncs,
			  const char *callee, uint32_t **ids, size_t *n, size_t *cap)
{
	uint32_t i;
	size_t k;

	for (i = 0; i < g->ninlined; i++)
		for (k = 0; k < nfuncs; k++)
			if (g->inlined[i].func == funcs[k] && !strcmp(g->inlined[i].callee, callee)) {
				SP_ALLOC_GROW(*ids, *n + 1, *cap);
				(*ids)[(*n)++] = g->inlined[i].node;
			}
}

/*
 * What spec names, appended to *ids: functions as --entry finds them,
 * or for FUNC/INLINED the inlined copies' nodes (*func_known then says
 * whether FUNC was found).  0 when one was found.
 */
static int find_ids(const struct sp_graph *g, const struct sp_name_index *ix,
		    const char *spec, uint32_t **ids, size_t *n,
		    size_t *cap, bool *func_known)
{
	size_t slash = sp_annot_inlined_at(spec), nf = 0, fcap = 0, before = *n;
	uint32_t *funcs = NULL;
	char *func;
	bool known;

	if (!slash)
		return sp_find_entries_in(g, ix, spec, ids, n, cap, NULL) || *n == before ? -1 : 0;
	func = sp_xmalloc(slash + 1);
	memcpy(func, spec, slash);
	func[slash] = '\0';
	known = !sp_find_entries_in(g, ix, func, &funcs, &nf, &fcap, NULL) && nf;
	if (known)
		inlined_nodes(g, funcs, nf, spec + slash + 1, ids, n, cap);
	if (func_known)
		*func_known = known;
	free(func);
	free(funcs);
	return *n > before ? 0 : -1;
}

/* Every function spec names (an error naming file:line when none). */
static int resolve(const struct sp_graph *g, const struct sp_name_index *ix,
		   const struct sp_annot *x,
		   const char *spec, uint32_t **ids,
		   size_t *n, struct sp_err *err)
{
	size_t cap = 0, slash;
	bool func_known = false;

	*ids = NULL;
	*n = 0;
	if (!find_ids(g, ix, spec, ids, n, &cap, &func_known))
		return 0;
	free(*ids);
	*ids = NULL;
	*n = 0;
	slash = sp_annot_inlined_at(spec);
	if (slash && func_known)
		return sp_err_set(err, "%s:%u: no inlined copy of '%s' in '%.*s' (no "
				  "DW_TAG_inlined_subroutine of that name in its DWARF)",
				  x->file, x->line, spec + slash + 1, (int)slash, spec);
	return sp_err_set(err, "%s:%u: unknown function '%.*s'", x->file, x->line,
			  slash ? (int)slash : (int)strlen(spec), spec);
}

static void add_flagged_edge(struct sp_graph *g, uint32_t from, uint32_t to, uint8_t flags)
{
	sp_graph_add_edge(g, from, to, SP_EDGE_CALL, 0);
	g->edges[g->nedges - 1].flags = flags;
}

static bool in_ids(const uint32_t *ids, size_t n, uint32_t id);

/* The annotation replaces what --indirect=address-taken assumed. */
static void drop_assumed(struct sp_graph *g, const uint32_t *from, size_t nfrom)
{
	uint32_t i, out = 0;

	for (i = 0; i < g->nedges; i++) {
		const struct sp_edge *e = &g->edges[i];

		if ((e->flags & SP_EDGE_F_ASSUMED) && in_ids(from, nfrom, e->from))
			continue;
		g->edges[out++] = *e;
	}
	g->nedges = out;
	g->finalized = false;
}

static uint64_t isite_func(const void *base, size_t i)
{
	return ((const struct sp_isite *)base)[i].func;
}

/* --indirect=types: the indirect call sites of the annotated functions
 * now call the annotation's targets. */
static void annotated_sites(struct sp_graph *g, const uint32_t *from, size_t nfrom,
			    const uint32_t *to, size_t nto)
{
	size_t i, k;

	for (i = 0; i < nfrom; i++) {
		k = sp_search_first_ge(g->isites, g->nisites, isite_func, from[i]);
		for (; k < g->nisites && g->isites[k].func == from[i]; k++) {
			g->isites[k].how = SP_RES_ANNOTATION;
			g->isites[k].type = NULL;
			sp_graph_set_isite_targets(g, &g->isites[k], to, (uint32_t)nto);
		}
	}
}

static int apply_calls(struct sp_graph *g, const struct sp_name_index *ix,
		       const struct sp_annot *x,
		       const uint32_t *from, size_t nfrom,
		       struct sp_err *err)
{
	uint32_t *to;
	size_t nto, i, j, k;

	uint32_t *all = NULL;
	size_t nall = 0, cap = 0;

	for (k = 0; k < x->nnames; k++) {
		if (resolve(g, ix, x, x->names[k], &to, &nto, err)) {
			free(all);
			return -1;
		}
		for (i = 0; i < nfrom; i++)
			for (j = 0; j < nto; j++)
				add_flagged_edge(g, from[i], to[j], SP_EDGE_F_ANNOTATED);
		SP_ALLOC_GROW(all, nall + nto, cap);
		for (j = 0; j < nto; j++)
			all[nall++] = to[j];
		free(to);
	}
	annotated_sites(g, from, nfrom, all, nall);
	free(all);
	for (i = 0; i < nfrom; i++) {
		g->funcs[from[i]].flags |= SP_F_INDIRECT_ANNOTATED;
		g->funcs[from[i]].flags &= ~(SP_F_INDIRECT_ASSUMED | SP_F_INDIRECT_TYPED);
		g->funcs[from[i]].assumed = SP_NONE;
	}
	drop_assumed(g, from, nfrom);
	return 0;
}

static bool in_ids(const uint32_t *ids, size_t n, uint32_t id)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (ids[i] == id)
			return true;
	return false;
}

/* f cannot be both FUNC of 'per' and counted otherwise. */
static int per_counted(const struct sp_graph *g, const struct sp_annot *x, uint32_t f,
		       struct sp_err *err)
{
	return sp_err_set(err, "%s:%u: '%s' is counted both by 'nest ... per' and by "
			  "once, nest or below", x->file, x->line, g->funcs[f].name);
}

/* The ancestors, and the functions of 'unless', of one 'below' line. */
struct below_ids {
	uint32_t *anc, *unless;
	size_t nanc, nunless;
};

static void mark_context(struct sp_graph *g, const uint32_t *ids, size_t n)
{
	size_t k;

	for (k = 0; k < n; k++)
		if (!g->funcs[ids[k]].nest || g->funcs[ids[k]].nest == SP_NEST_HOLDER)
			g->funcs[ids[k]].nest = SP_NEST_CONTEXT;
}

/* The calls from one of from to one of to, below each ancestor: kept,
 * and listed in graph->belows with the functions of 'unless'; those and
 * the ancestors become once/nest functions without a count when they
 * have none (analysis/nest.c). */
static uint32_t add_belows(struct sp_graph *g, const uint32_t *from, size_t nfrom,
			   const uint32_t *to, size_t nto, const struct below_ids *b)
{
	uint32_t i, k, found = 0, unless_first = g->nbelow_unless;

	for (k = 0; k < b->nunless; k++) {
		SP_ALLOC_GROW(g->below_unless, (size_t)g->nbelow_unless + 1, g->below_unless_cap);
		g->below_unless[g->nbelow_unless++] = b->unless[k];
	}
	for (i = 0; i < g->nedges; i++) {
		const struct sp_edge *e = &g->edges[i];

		if (!in_ids(from, nfrom, e->from) || !in_ids(to, nto, e->to))
			continue;
		found++;
		for (k = 0; k < b->nanc; k++) {
			SP_ALLOC_GROW(g->belows, (size_t)g->nbelows + 1, g->belows_cap);
			g->belows[g->nbelows++] = (struct sp_below){
				e->from, e->to, b->anc[k], unless_first, (uint32_t)b->nunless };
		}
	}
	if (found) {
		mark_context(g, b->anc, b->nanc);
		mark_context(g, b->unless, b->nunless);
	}
	return found;
}

/* Every function the names of 'unless' (x->names from 2 on) give. */
static int resolve_unless(const struct sp_graph *g, const struct sp_name_index *ix,
			  const struct sp_annot *x,
			  struct below_ids *b, struct sp_err *err)
{
	size_t k, cap = 0, n;
	uint32_t *ids;

	for (k = 2; k < x->nnames; k++) {
		if (resolve(g, ix, x, x->names[k], &ids, &n, err))
			return -1;
		SP_ALLOC_GROW(b->unless, b->nunless + n, cap);
		memcpy(b->unless + b->nunless, ids, n * sizeof(*ids));
		b->nunless += n;
		free(ids);
	}
	return 0;
}

/* Drop every call from one of from to one of to (below an ancestor,
 * when the line names one).  No such call is an error: the line is
 * stale. */
static int apply_ignore(struct sp_graph *g, const struct sp_name_index *ix,
			const struct sp_annot *x,
			const uint32_t *from, size_t nfrom,
			struct sp_err *err)
{
	uint32_t *to, i, out = 0;
	size_t nto;
	struct below_ids b = { 0 };
	bool found;
	int ret = -1;

	if (resolve(g, ix, x, x->names[0], &to, &nto, err))
		return -1;
	if (x->nnames > 1 && (resolve(g, ix, x, x->names[1], &b.anc, &b.nanc, err) ||
			      resolve_unless(g, ix, x, &b, err)))
		goto out;
	for (i = 0; i < b.nanc; i++)
		if (g->funcs[b.anc[i]].nest == SP_NEST_PER) {
			per_counted(g, x, b.anc[i], err);
			goto out;
		}
	for (i = 0; i < b.nanc; i++)
		if (in_ids(from, nfrom, b.anc[i])) {
			sp_err_set(err, "%s:%u: '%s' below itself: say how often it "
				   "nests with once or nest", x->file, x->line, x->func);
			goto out;
		}
	/* an assumed target can be ignored: the caller's set becomes edges */
	for (i = 0; i < nfrom; i++)
		sp_graph_expand_assumed(g, from[i]);
	if (b.anc) {
		found = add_belows(g, from, nfrom, to, nto, &b);
	} else {
		for (i = 0; i < g->nedges; i++) {
			const struct sp_edge *e = &g->edges[i];

			if (in_ids(from, nfrom, e->from) && in_ids(to, nto, e->to))
				continue;
			g->edges[out++] = *e;
		}
		found = out != g->nedges;
		g->nedges = out;
		g->finalized = false;
	}
	if (!found)
		sp_err_set(err, "%s:%u: no call from '%s' to '%s'",
			   x->file, x->line, x->func, x->names[0]);
	else
		ret = 0;
out:
	free(to);
	free(b.anc);
	free(b.unless);
	return ret;
}

/* The bit of an applied 'assume' line, "FILE:LINE: DIRECTIVE ..." interned
 * (a line applied twice, as 'from' does for each function it copies,
 * keeps its bit); from the 64th line on they share the last. */
static uint64_t assume_bit(struct sp_graph *g, const char *line)
{
	uint32_t i;

	for (i = 0; i < g->nassume_lines && g->assume_lines[i] != line; i++)
		;
	if (i == g->nassume_lines) {
		SP_ALLOC_GROW(g->assume_lines, (size_t)g->nassume_lines + 1, g->assume_lines_cap);
		g->assume_lines[g->nassume_lines++] = line;
	}
	return 1ull << (i < SP_ASSUME_BITS - 1 ? i : SP_ASSUME_BITS - 1);
}

/*
 * An 'assume' line: ids are what it rests on (its FUNC; of 'from', the
 * copy), flagged SP_F_ASSUME with the line's bit, which the solver
 * passes to every total that reaches them.  A copy made later of one of
 * them copies its bits with it.
 */
static void mark_assumed(struct sp_graph *g, const struct sp_annot *x,
			 const uint32_t *ids, size_t n)
{
	struct sp_strbuf t = { NULL, 0, 0 };
	uint64_t bit;
	size_t i;

	sp_strbuf_addf(&t, "%s:%u: %s", x->file, x->line, x->text);
	bit = assume_bit(g, sp_strtab_intern(&g->strs, t.buf, t.len));
	free(t.buf);
	for (i = 0; i < n; i++) {
		g->funcs[ids[i]].flags |= SP_F_ASSUME;
		g->funcs[ids[i]].assume_bits |= bit;
	}
}

/* The copies of FUNC that 'from' lines made (struct copies). */
struct copies {
	uint32_t *ids;
	size_t n, cap;
};

/* Does one of from call one of to? */
static bool calls_between(const struct sp_graph *g, const uint32_t *from, size_t nfrom,
			  const uint32_t *to, size_t nto)
{
	uint32_t i;

	for (i = 0; i < g->nedges; i++)
		if (in_ids(from, nfrom, g->edges[i].from) && in_ids(to, nto, g->edges[i].to))
			return true;
	return false;
}

/* Are all the calls into f from one of callers? */
static bool only_from(const struct sp_graph *g, uint32_t f, const uint32_t *callers, size_t n)
{
	uint32_t i;

	for (i = 0; i < g->nedges; i++)
		if (g->edges[i].to == f && !in_ids(callers, n, g->edges[i].from))
			return false;
	return true;
}

/* The copy c of f has f's indirect call sites: its count of them and
 * their targets (edges, or the assumed sets f->assumed names) come with
 * f's record and calls; the sites, for the report, are appended (c is
 * the largest id, so they stay sorted by function). */
static void copy_isites(struct sp_graph *g, uint32_t f, uint32_t c)
{
	uint32_t i = sp_search_first_ge(g->isites, g->nisites, isite_func, f);

	for (; i < g->nisites && g->isites[i].func == f; i++) {
		struct sp_isite s = g->isites[i];

		s.func = c;
		*sp_graph_add_isite(g) = s;
	}
}

/* The copy c of a holder of 'nest ... per' holds what f holds: callers
 * call it in f's place (its count, when it has one, is f's: see
 * copy_func()). */
static void copy_holder(struct sp_graph *g, uint32_t f, uint32_t c)
{
	uint32_t i, n = g->npers;

	for (i = 0; i < n; i++)
		if (g->pers[i].holder == f) {
			SP_ALLOC_GROW(g->pers, (size_t)g->npers + 1, g->pers_cap);
			g->pers[g->npers++] = (struct sp_nest_per){ g->pers[i].func, c };
		}
}

/* A copy of function f whose calls are f's but those to one of to; the
 * 'below' lines that name f's calls name the copy's too.  An activation
 * of the copy is one of f: it shares f's once/nest count, and stands for
 * f as a 'below' line's ancestor (sp_func.original, which
 * analysis/nest.c reads).  Its id. */
static uint32_t copy_func(struct sp_graph *g, uint32_t f, const uint32_t *to, size_t nto)
{
	uint32_t c = sp_graph_copy_func(g, f), i, n = g->nedges, nb = g->nbelows;

	for (i = 0; i < n; i++)
		if (g->edges[i].from == f && !in_ids(to, nto, g->edges[i].to)) {
			struct sp_edge e = g->edges[i];

			e.from = c;
			SP_ALLOC_GROW(g->edges, (size_t)g->nedges + 1, g->edges_cap);
			g->edges[g->nedges++] = e;
		}
	for (i = 0; i < nb; i++)
		if (g->belows[i].from == f) {
			struct sp_below b = g->belows[i];

			b.from = c;
			SP_ALLOC_GROW(g->belows, (size_t)g->nbelows + 1, g->belows_cap);
			g->belows[g->nbelows++] = b;
		}
	copy_isites(g, f, c);
	copy_holder(g, f, c);
	return c;
}

/* The function that callers call in place of f: a copy of f without its
 * calls to one of to (a copy that only callers' calls reach already is
 * one, and loses them in place). */
static uint32_t own_copy(struct sp_graph *g, struct sp_name_index *ix, uint32_t f,
			 const uint32_t *callers, size_t ncallers,
			 const uint32_t *to, size_t nto, struct copies *done)
{
	uint32_t c, i;

	if (in_ids(done->ids, done->n, f) && only_from(g, f, callers, ncallers)) {
		for (i = g->nedges; i-- > 0;)
			if (g->edges[i].from == f && in_ids(to, nto, g->edges[i].to))
				g->edges[i] = g->edges[--g->nedges];
		return f;
	}
	c = copy_func(g, f, to, nto);
	/* a later line names the copy with its function */
	sp_name_index_add(ix, g, c);
	SP_ALLOC_GROW(done->ids, done->n + 1, done->cap);
	done->ids[done->n++] = c;
	for (i = 0; i < g->nedges; i++)
		if (g->edges[i].to == f && in_ids(callers, ncallers, g->edges[i].from))
			g->edges[i].to = c;
	return c;
}

/*
 * The callers of a 'from' line: CALLER's functions, or for a chain
 * CALLER CALLER2... the copies of CALLER that CALLER2's copies call,
 * made from the far end of the chain in.  Each copy keeps every call:
 * it only tells CALLER's activations below CALLER2 from the others.
 */
static int chain_callers(struct sp_graph *g, struct sp_name_index *ix,
			 const struct sp_annot *x, struct copies *done,
			 uint32_t **out, size_t *nout, struct sp_err *err)
{
	uint32_t *cur = NULL, *ids = NULL, *next;
	size_t ncur, nids, nnext, k, i, cap;

	if (resolve(g, ix, x, x->names[x->nnames - 1], &cur, &ncur, err))
		return -1;
	for (k = x->nnames - 1; k-- > 1; cur = next, ncur = nnext) {
		if (resolve(g, ix, x, x->names[k], &ids, &nids, err))
			goto fail;
		next = NULL;
		nnext = cap = 0;
		for (i = 0; i < nids; i++) {
			if (!calls_between(g, cur, ncur, &ids[i], 1))
				continue;
			SP_ALLOC_GROW(next, nnext + 1, cap);
			next[nnext++] = own_copy(g, ix, ids[i], cur, ncur, NULL, 0, done);
		}
		if (!nnext) {
			sp_err_set(err, "%s:%u: no call from '%s' to '%s'", x->file, x->line,
				   x->names[k + 1], x->names[k]);
			goto fail;
		}
		free(ids);
		ids = NULL;
		free(cur);
	}
	*out = cur;
	*nout = ncur;
	return 0;
fail:
	free(ids);
	free(cur);
	return -1;
}

/*
 * ignore FUNC CALLEE from CALLER...: the calls from CALLER to FUNC go to
 * a copy of FUNC without the calls to CALLEE.  A copy is counted as FUNC
 * (see copy_func()), so FUNC and each CALLER of a chain may be counted
 * by once, nest or a 'below' line.
 */
static int apply_from(struct sp_graph *g, struct sp_name_index *ix,
		      const struct sp_annot *x, struct copies *done, struct sp_err *err)
{
	uint32_t *to = NULL, *callers = NULL, *from = NULL, k, c;
	size_t nto, ncallers, nfrom;
	bool found = false;
	int ret = -1;

	/* CALLEE and FUNC after the chain's copies: a chain may run through
	 * CALLEE (FUNC's caller's caller is CALLEE), and FUNC then calls its
	 * copy, or through FUNC (a cycle: FUNC below itself), and CALLER's
	 * copy then calls FUNC's */
	if (chain_callers(g, ix, x, done, &callers, &ncallers, err) ||
	    resolve(g, ix, x, x->names[0], &to, &nto, err) ||
	    resolve(g, ix, x, x->func, &from, &nfrom, err))
		goto out;
	for (k = 0; k < nfrom; k++) {
		if (!calls_between(g, callers, ncallers, &from[k], 1) ||
		    !calls_between(g, &from[k], 1, to, nto))
			continue;
		found = true;
		c = own_copy(g, ix, from[k], callers, ncallers, to, nto, done);
		if (x->assume)
			mark_assumed(g, x, &c, 1);
	}
	g->finalized = false;
	if (!found)
		sp_err_set(err, "%s:%u: no call from '%s' to '%s' that '%s' calls",
			   x->file, x->line, x->func, x->names[0], x->names[1]);
	else
		ret = 0;
out:
	free(to);
	free(callers);
	free(from);
	return ret;
}

static bool names_one(const struct sp_graph *g, const struct sp_name_index *ix,
		      const char *spec)
{
	uint32_t *ids = NULL;
	size_t n = 0, cap = 0;
	bool found = !find_ids(g, ix, spec, &ids, &n, &cap, NULL);

	free(ids);
	return found;
}

static bool calls_one_of(const struct sp_graph *g, const struct sp_name_index *ix,
			 const char *from, const char *to)
{
	uint32_t *f = NULL, *t = NULL, i;
	size_t nf = 0, nt = 0, fcap = 0, tcap = 0;
	bool found = false;

	find_ids(g, ix, from, &f, &nf, &fcap, NULL);
	find_ids(g, ix, to, &t, &nt, &tcap, NULL);
	for (i = 0; i < g->nedges && !found; i++)
		found = in_ids(f, nf, g->edges[i].from) && in_ids(t, nt, g->edges[i].to);
	free(f);
	free(t);
	return found;
}

static bool names_all(const struct sp_graph *g, const struct sp_name_index *ix,
		      const struct sp_annot *x)
{
	size_t i;

	if (!names_one(g, ix, x->func))
		return false;
	for (i = 0; i < x->nnames; i++)
		if (!names_one(g, ix, x->names[i]))
			return false;
	return true;
}

/* Does each caller of a 'from' line call the function before it? */
static bool chain_calls(const struct sp_graph *g, const struct sp_name_index *ix,
			const struct sp_annot *x)
{
	size_t k;

	if (!calls_one_of(g, ix, x->names[1], x->func))
		return false;
	for (k = 2; k < x->nnames; k++)
		if (!calls_one_of(g, ix, x->names[k], x->names[k - 1]))
			return false;
	return true;
}

/* Does every name of x match, and an ignore a call?  An optional line
 * that does not is skipped whole: kernels differ by configuration. */
static bool applies(const struct sp_graph *g, const struct sp_name_index *ix,
		    const struct sp_annot *x)
{
	/* a holder the image lacks holds nothing: apply_per() skips it */
	if (x->per)
		return names_one(g, ix, x->func);
	return names_all(g, ix, x) &&
	       (x->kind != SP_ANNOT_IGNORE || calls_one_of(g, ix, x->func, x->names[0])) &&
	       (!x->from || chain_calls(g, ix, x));
}

/* nest FUNC per HOLDER...: each (FUNC, HOLDER) in graph->pers, FUNC
 * marked SP_NEST_PER, each holder without a count SP_NEST_HOLDER (both
 * once/nest functions for analysis/nest.c). */
static int apply_per(struct sp_graph *g, const struct sp_name_index *ix,
		     const struct sp_annot *x, const uint32_t *ids, size_t n,
		     struct sp_err *err)
{
	uint32_t *hold;
	size_t nhold, i, k, j;

	for (i = 0; i < n; i++) {
		if (sp_nest_counted(g->funcs[ids[i]].nest) ||
		    g->funcs[ids[i]].nest == SP_NEST_CONTEXT)
			return per_counted(g, x, ids[i], err);
		g->funcs[ids[i]].nest = SP_NEST_PER;
	}
	for (k = 0; k < x->nnames; k++) {
		if (x->optional && !names_one(g, ix, x->names[k]))
			continue;
		if (resolve(g, ix, x, x->names[k], &hold, &nhold, err))
			return -1;
		for (j = 0; j < nhold; j++) {
			if (in_ids(ids, n, hold[j])) {
				free(hold);
				return sp_err_set(err, "%s:%u: '%s' is its own holder",
						  x->file, x->line, x->names[k]);
			}
			/* a count or a 'below' line's presence stays: the
			 * holder is counted as well (graph->pers) */
			if (!g->funcs[hold[j]].nest)
				g->funcs[hold[j]].nest = SP_NEST_HOLDER;
			for (i = 0; i < n; i++) {
				SP_ALLOC_GROW(g->pers, (size_t)g->npers + 1, g->pers_cap);
				g->pers[g->npers++] = (struct sp_nest_per){ ids[i], hold[j] };
			}
		}
		free(hold);
	}
	return 0;
}

static int apply_one(struct sp_graph *g, struct sp_name_index *ix,
		     const struct sp_annot *x, struct copies *done, struct sp_err *err)
{
	uint32_t *ids;
	size_t n, i;
	int ret = 0;

	if (x->optional && !applies(g, ix, x))
		return 0;
	if (resolve(g, ix, x, x->func, &ids, &n, err))
		return -1;
	switch (x->kind) {
	case SP_ANNOT_FRAME:	/* sp_annot_frames' */
		break;
	case SP_ANNOT_CALLS:
		ret = apply_calls(g, ix, x, ids, n, err);
		break;
	case SP_ANNOT_RECURSION:
		for (i = 0; i < n; i++)
			g->funcs[ids[i]].rec_depth = (uint32_t)x->value;
		break;
	case SP_ANNOT_ENTRY:
		for (i = 0; i < n; i++) {
			g->funcs[ids[i]].flags |= SP_F_BUDGET;
			g->funcs[ids[i]].budget = x->value;
		}
		break;
	case SP_ANNOT_IGNORE:
		ret = x->from ? apply_from(g, ix, x, done, err) : apply_ignore(g, ix, x, ids, n, err);
		break;
	case SP_ANNOT_NEST:
		if (x->per) {
			ret = apply_per(g, ix, x, ids, n, err);
			break;
		}
		/* a count replaces the marks of 'below' and 'per' */
		for (i = 0; i < n; i++) {
			if (g->funcs[ids[i]].nest == SP_NEST_PER) {
				ret = per_counted(g, x, ids[i], err);
				break;
			}
			if (g->funcs[ids[i]].nest < x->value ||
			    !sp_nest_counted(g->funcs[ids[i]].nest))
				g->funcs[ids[i]].nest = (uint32_t)x->value;
		}
		break;
	}
	if (!ret && x->assume && !x->from)
		mark_assumed(g, x, ids, n);
	free(ids);
	return ret;
}

/* Does name resolve?  A node's ("<page fault>") is left to
 * sp_annot_apply(): the nodes are made after the frames are known. */
static int check_name(const struct sp_graph *g, const struct sp_name_index *ix,
		      const struct sp_annot *x, const char *name,
		      struct sp_err *err)
{
	uint32_t *ids;
	size_t n;

	if (name[0] == '<')
		return 0;
	if (resolve(g, ix, x, name, &ids, &n, err))
		return -1;
	free(ids);
	return 0;
}

/* Every name a line gives resolves: checked in file order, so that the
 * first bad line is the one named whichever pass would have used it. */
static int check_names(const struct sp_graph *g, const struct sp_name_index *ix,
		       const struct sp_annot *x, struct sp_err *err)
{
	size_t k;

	if (check_name(g, ix, x, x->func, err))
		return -1;
	for (k = 0; x->kind != SP_ANNOT_RECURSION && x->kind != SP_ANNOT_ENTRY &&
		    k < x->nnames; k++)
		if (check_name(g, ix, x, x->names[k], err))
			return -1;
	return 0;
}

int sp_annot_frames(const struct sp_annots *a, const struct sp_graph *g,
		    struct sp_frames *out, struct sp_err *err)
{
	struct sp_name_index ix;
	size_t i, k;
	int ret = 0;

	/* each line looks names up several times: a scan of every
	 * function each was most of the cost of a line */
	sp_name_index_build(&ix, g);
	for (i = 0; i < a->n && !ret; i++) {
		const struct sp_annot *x = &a->v[i];
		uint32_t *ids;
		size_t n;

		if (x->optional && !names_all(g, &ix, x))
			continue;
		if ((ret = check_names(g, &ix, x, err)))
			break;
		if (x->kind != SP_ANNOT_FRAME)
			continue;
		resolve(g, &ix, x, x->func, &ids, &n, err);
		for (k = 0; k < n; k++)
			sp_frames_add(out, ids[k], SP_QUAL_STATIC, x->value);
		free(ids);
	}
	sp_name_index_release(&ix);
	return ret;
}

int sp_annot_apply(const struct sp_annots *a, struct sp_graph *g, struct sp_err *err)
{
	struct copies done = { NULL, 0, 0 };
	struct sp_name_index ix;
	size_t i;
	int ret = 0;

	/* names resolve without the edge index: sp_analyze() indexes the
	 * edges once, whatever the lines added or removed.  The 'from'
	 * lines come last, so that a copy has every call the others left
	 * and the counts they set are known. */
	sp_name_index_build(&ix, g);
	for (i = 0; i < a->n && !ret; i++)
		if (!a->v[i].from)
			ret = apply_one(g, &ix, &a->v[i], &done, err);
	for (i = 0; i < a->n && !ret; i++)
		if (a->v[i].from)
			ret = apply_one(g, &ix, &a->v[i], &done, err);
	sp_name_index_release(&ix);
	free(done.ids);
	return ret;
}

static int icall_cmp(const void *pa, const void *pb)
{
	const struct sp_icall *a = pa, *b = pb;

	if (a->func != b->func)
		return a->func < b->func ? -1 : 1;
	return ((uintptr_t)a->proto > (uintptr_t)b->proto) -
	       ((uintptr_t)a->proto < (uintptr_t)b->proto);
}

/*
 * The address-taken functions as blocks: SP_ASSUMED_ALL, then one per
 * prototype class (sp_proto_class), SP_ASSUMED_UNTYPED (prototype
 * unknown) first; each block sorted, as the ids are visited in order.
 * *by_proto maps an interned class to its block.
 */
static void build_blocks(struct sp_graph *g, const uint8_t *taken, struct sp_u64map *by_proto)
{
	struct sp_assumed *a = &g->assumed;
	uint32_t *count, *fill, i, b, ntaken = 0;

	a->nfuncs = g->nfuncs;
	a->block_of = sp_xmalloc((g->nfuncs ? g->nfuncs : 1) * sizeof(*a->block_of));
	sp_u64map_init(by_proto, 64);
	a->nblocks = 2;
	for (i = 0; i < g->nfuncs; i++) {
		const char *proto;

		a->block_of[i] = SP_NONE;
		if (!taken[i])
			continue;
		proto = sp_proto_class(g, g->funcs[i].proto);
		ntaken++;
		b = proto ? sp_u64map_get(by_proto, (uintptr_t)proto) : SP_ASSUMED_UNTYPED;
		if (b == SP_NONE)
			sp_u64map_put(by_proto, (uintptr_t)proto, b = a->nblocks++);
		a->block_of[i] = b;
	}
	count = sp_xcalloc(a->nblocks, sizeof(*count));
	for (i = 0; i < g->nfuncs; i++)
		if (a->block_of[i] != SP_NONE)
			count[a->block_of[i]]++;
	count[SP_ASSUMED_ALL] = ntaken;
	a->first = sp_xmalloc((a->nblocks + 1) * sizeof(*a->first));
	a->first[0] = 0;
	for (b = 0; b < a->nblocks; b++)
		a->first[b + 1] = a->first[b] + count[b];
	a->ids = sp_xmalloc((a->first[a->nblocks] ? a->first[a->nblocks] : 1) * sizeof(*a->ids));
	fill = count;
	memcpy(fill, a->first, a->nblocks * sizeof(*fill));
	for (i = 0; i < g->nfuncs; i++)
		if (a->block_of[i] != SP_NONE) {
			a->ids[fill[SP_ASSUMED_ALL]++] = i;
			a->ids[fill[a->block_of[i]]++] = i;
		}
	free(count);
}

static void list_add(struct sp_assumed *a, uint32_t block)
{
	SP_ALLOC_GROW(a->lists, (size_t)a->nlists + 1, a->lists_cap);
	a->lists[a->nlists++] = block;
}

/* A caller whose n sites (sorted by prototype class) are all typed
 * reaches the functions of their classes and those of unknown prototype. */
static void list_typed(struct sp_assumed *a, const struct sp_u64map *by_proto,
		       const struct sp_icall *sites, uint32_t n)
{
	uint32_t k;

	list_add(a, SP_ASSUMED_UNTYPED);
	for (k = 0; k < n; k++) {
		uint32_t b = sites[k].proto ? sp_u64map_get(by_proto, (uintptr_t)sites[k].proto) :
			     SP_NONE;

		if (b != SP_NONE && (!k || sites[k].proto != sites[k - 1].proto))
			list_add(a, b);
	}
}

uint64_t sp_assume_address_taken(struct sp_graph *g, const uint8_t *taken)
{
	struct sp_assumed *a = &g->assumed;
	struct sp_u64map by_proto;
	uint32_t i, k = 0;
	uint64_t added = 0;

	sp_assumed_release(a);
	build_blocks(g, taken, &by_proto);
	/* by caller: the typed sites of function i are one run, by class */
	for (i = 0; i < g->nicalls; i++)
		g->icalls[i].proto = sp_proto_class(g, g->icalls[i].proto);
	if (g->nicalls)
		qsort(g->icalls, g->nicalls, sizeof(*g->icalls), icall_cmp);
	for (i = 0; i < g->nfuncs; i++) {
		struct sp_func *f = &g->funcs[i];
		const struct sp_icall *sites;
		const uint32_t *b;
		uint32_t n = 0;

		while (k < g->nicalls && g->icalls[k].func < i)
			k++;
		sites = g->icalls + k;
		while (k + n < g->nicalls && g->icalls[k + n].func == i)
			n++;
		if (!f->n_indirect || (f->flags & SP_F_INDIRECT_ANNOTATED))
			continue;
		f->flags |= SP_F_INDIRECT_ASSUMED;
		f->assumed = a->nlists;
		/* one site without a type may call anything */
		if (n >= f->n_indirect) {
			f->flags |= SP_F_INDIRECT_TYPED;
			list_typed(a, &by_proto, sites, n);
		} else {
			list_add(a, SP_ASSUMED_ALL);
		}
		list_add(a, SP_NONE);
		for (b = sp_assumed_blocks(g, f); *b != SP_NONE; b++)
			added += a->first[*b + 1] - a->first[*b];
	}
	sp_u64map_release(&by_proto);
	return added;
}
