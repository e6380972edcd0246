/*
 * reasons.c - say in words why a total is unbounded or partial, naming
 * the witness that sp_analyze() recorded for each cause.
 */
#include "analysis/analysis.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/search.h"
#include "common/strbuf.h"
#include "common/u64map.h"
#include "common/xalloc.h"

const char *sp_func_label(const struct sp_func *f)
{
	if (f->name)
		return f->name;
	return f->symbol ? f->symbol : "?";
}

/* x's calls are followed: its assumed blocks need no second look, as
 * every target they hold has its parent now (or is outside, or is w). */
static void mark_expanded(const struct sp_graph *g, uint32_t x, uint8_t *expanded)
{
	const uint32_t *b = sp_assumed_blocks(g, &g->funcs[x]);

	for (; b && *b != SP_NONE; b++)
		expanded[*b] = 1;
}

/*
 * The shortest cycle through w, by BFS over w's component.  The visited
 * map grows with what the search touches, not with the graph, so that a
 * report asking for many functions stays linear in practice; an assumed
 * set is looked at once, however many callers share it.
 */
static void cycle_through(const struct sp_graph *g, uint32_t w, struct sp_strbuf *t)
{
	struct sp_u64map parent;
	uint32_t *queue = NULL, *chain = NULL;
	size_t head = 0, tail = 0, qcap = 0, n = 0, ccap = 0, i;
	uint32_t last = SP_NONE, scc = g->funcs[w].res.scc;
	uint8_t *expanded = sp_xcalloc(g->assumed.nblocks + 1, 1);

	sp_u64map_init(&parent, 16);
	SP_ALLOC_GROW(queue, 1, qcap);
	queue[tail++] = w;
	while (head < tail && last == SP_NONE) {
		uint32_t x = queue[head++];
		struct sp_calls it;
		struct sp_edge e;

		sp_calls_begin(&it, g, x, expanded);
		mark_expanded(g, x, expanded);
		while (sp_calls_next(&it, &e)) {
			if (e.to == w) {
				last = x;
				break;
			}
			if (g->funcs[e.to].res.scc != scc ||
			    sp_u64map_get(&parent, e.to) != UINT32_MAX)
				continue;
			sp_u64map_put(&parent, e.to, x);
			SP_ALLOC_GROW(queue, tail + 1, qcap);
			queue[tail++] = e.to;
		}
		sp_calls_end(&it);
	}
	/* walk back from the closing edge; w was never given a parent */
	for (; last != SP_NONE && last != w; last = sp_u64map_get(&parent, last)) {
		SP_ALLOC_GROW(chain, n + 1, ccap);
		chain[n++] = last;
	}
	sp_strbuf_addf(t, "recursion %s", sp_func_label(&g->funcs[w]));
	for (i = n; i-- > 0;)
		sp_strbuf_addf(t, " -> %s", sp_func_label(&g->funcs[chain[i]]));
	sp_strbuf_addf(t, " -> %s", sp_func_label(&g->funcs[w]));
	free(chain);
	free(queue);
	free(expanded);
	sp_u64map_release(&parent);
}

/* A cycle found before: a once/nest function's shortest, by
 * analysis/nest.c (its cycles are cut, so it has no component to
 * search), or one through a member of a large component, by
 * analysis/cycles.c. */
static void stored_cycle(const struct sp_graph *g, uint32_t w, struct sp_strbuf *t)
{
	const struct sp_path_seg *seg;
	uint32_t i;

	sp_strbuf_addf(t, "recursion %s", sp_func_label(&g->funcs[w]));
	if (g->funcs[w].res.cycle >= g->nsegs)
		return;
	seg = &g->segs[g->funcs[w].res.cycle];
	for (i = 0; i < seg->n; i++)
		sp_strbuf_addf(t, " -> %s", sp_func_label(&g->funcs[g->steps[seg->first + i].func]));
}

static void any_cycle(const struct sp_graph *g, uint32_t w, struct sp_strbuf *t)
{
	if (g->funcs[w].res.cycle < g->nsegs)
		stored_cycle(g, w, t);
	else
		cycle_through(g, w, t);
}

/* The depth bound_cycle() used: the largest one of w's cycle. */
static uint32_t depth_of_cycle(const struct sp_graph *g, uint32_t w)
{
	uint32_t i, d = 0, scc = g->funcs[w].res.scc;

	for (i = 0; i < g->nfuncs; i++)
		if (g->funcs[i].res.scc == scc && g->funcs[i].rec_depth > d)
			d = g->funcs[i].rec_depth;
	return d;
}

static void dynamic_reason(const struct sp_func *f, struct sp_strbuf *t)
{
	sp_strbuf_addf(t, "dynamic frame in %s", sp_func_label(f));
	if (f->file && f->line)
		sp_strbuf_addf(t, " at %s:%u", f->file, f->line);
	else if (f->file)
		sp_strbuf_addf(t, " in %s", f->file);
	if (f->dyn_cause)
		sp_strbuf_addf(t, " (%s)", f->dyn_cause);
}

static uint64_t isite_func(const void *base, size_t i)
{
	return ((const struct sp_isite *)base)[i].func;
}

/* --indirect=types: how each indirect call of function w was resolved,
 * "indirect calls in f: targets assumed (field struct ops.read, 2; table
 * handlers, 3)"; the first few sites. */
static void typed_sites(const struct sp_graph *g, uint32_t w, struct sp_strbuf *t)
{
	size_t i = sp_search_first_ge(g->isites, g->nisites, isite_func, w), k;

	sp_strbuf_addf(t, "indirect call in %s: targets assumed (", sp_func_label(&g->funcs[w]));
	for (k = 0; i < g->nisites && g->isites[i].func == w; i++, k++) {
		const struct sp_isite *s = &g->isites[i];

		if (k == 3) {
			sp_strbuf_addf(t, "; ...");
			break;
		}
		sp_strbuf_addf(t, "%s%s%s%s, %u", k ? "; " : "",
			       sp_resolved_name((enum sp_resolved)s->how), s->type ? " " : "",
			       s->type ? s->type : "", s->ntargets);
	}
	sp_strbuf_addf(t, k ? ")" : "every address-taken function)");
}

/* A once/nest total of the coarse counts (analysis/nest.c). */
static void pooled_reason(const struct sp_graph *g, struct sp_strbuf *t)
{
	sp_strbuf_addf(t, " (coarse: ");
	if (g->nest.pooled)
		sp_strbuf_addf(t, "%u once/nest functions counted in one budget per "
			       "cycle, of at most %u activations%s", g->nest.pooled, g->nest.budget,
			       g->nest.forgotten ? ", " : "");
	if (g->nest.forgotten)
		sp_strbuf_addf(t, "%u ancestors of 'below' lines not known", g->nest.forgotten);
	if (g->nest.since)
		sp_strbuf_addf(t, "%s%u ancestors of 'below' lines known only since the budget's "
			       "last activation", g->nest.pooled + g->nest.forgotten ? ", " : "",
			       g->nest.since);
	sp_strbuf_addf(t, ", over the limit of %u contexts of exact counts; the total may be "
		       "above the exact one)", g->nest.exact_limit);
}

bool sp_assume_line_reason(const struct sp_graph *g, const struct sp_result *r,
			   uint32_t i, struct sp_strbuf *t)
{
	if (!sp_rests_on_line(r, i) || i >= g->nassume_lines)
		return false;
	sp_strbuf_addf(t, "assumed by annotation: %s", g->assume_lines[i]);
	return true;
}

/* Every 'assume' line r rests on, joined by "; ". */
static void assumption_reason(const struct sp_graph *g, const struct sp_result *r,
			      struct sp_strbuf *t)
{
	size_t before = t->len;
	uint32_t i;

	for (i = 0; i < g->nassume_lines; i++)
		if (sp_rests_on_line(r, i)) {
			if (t->len > before)
				sp_strbuf_add(t, "; ");
			sp_assume_line_reason(g, r, i, t);
		}
}

static void describe(const struct sp_graph *g, enum sp_cause c, uint32_t w,
		     struct sp_strbuf *t)
{
	const struct sp_func *f = &g->funcs[w];

	switch (c) {
	case SP_CAUSE_DYNAMIC:
		dynamic_reason(f, t);
		return;
	case SP_CAUSE_RECURSION:
		any_cycle(g, w, t);
		return;
	case SP_CAUSE_INDIRECT:
		sp_strbuf_addf(t, "indirect call in %s", sp_func_label(f));
		return;
	case SP_CAUSE_UNKNOWN:
		if (f->flags & SP_F_NOT_GIVEN)	/* "<module code: struct X.m>" */
			sp_strbuf_addf(t, "calls module code through %.*s: pass the modules "
				       "to analyse them", (int)(strlen(f->name) -
							       strlen(SP_MODULE_CODE) - 1),
				       f->name + strlen(SP_MODULE_CODE));
		else if (f->flags & SP_F_HYPERVISOR)	/* "<hypervisor code: VAR>" */
			sp_strbuf_addf(t, "calls hypervisor code through %.*s: a page the "
				       "hypervisor fills, its frame unknown",
				       (int)(strlen(f->name) - strlen(SP_HYPERVISOR_CODE) - 1),
				       f->name + strlen(SP_HYPERVISOR_CODE));
		else
			sp_strbuf_addf(t, "unknown frame size for %s", sp_func_label(f));
		return;
	case SP_CAUSE_ASSUMED:
		if (g->indirect_typed) {
			typed_sites(g, w, t);
			return;
		}
		sp_strbuf_addf(t, "indirect call in %s: targets assumed (%s)", sp_func_label(f),
			       f->flags & SP_F_INDIRECT_TYPED ?
			       "the address-taken functions of its prototype" :
			       "every address-taken function");
		return;
	case SP_CAUSE_DEPTH:
		any_cycle(g, w, t);
		sp_strbuf_addf(t, " bounded by annotation: at most %u deep",
			       depth_of_cycle(g, w));
		return;
	case SP_CAUSE_NEST:
		/* forgotten: a 'below' ancestor never below itself */
		if ((f->flags & SP_F_NEST_POOLED) &&
		    (f->nest == SP_NEST_CONTEXT || f->res.cycle >= g->nsegs)) {
			sp_strbuf_addf(t, "the calls 'below' lines drop while %s is on the "
				       "stack kept", sp_func_label(f));
			pooled_reason(g, t);
			return;
		}
		stored_cycle(g, w, t);
		if (f->nest == SP_NEST_PER)
			sp_strbuf_addf(t, " bounded by annotation: %s at most once per "
				       "holder below it", sp_func_label(f));
		else if (f->nest <= 1)
			sp_strbuf_addf(t, " bounded by annotation: %s at most once on a stack",
				       sp_func_label(f));
		else
			sp_strbuf_addf(t, " bounded by annotation: %s at most %u deep",
				       sp_func_label(f), f->nest);
		if (f->flags & SP_F_NEST_POOLED)
			pooled_reason(g, t);
		return;
	case SP_CAUSE_ASSUMPTION:	/* sp_reason_text()'s */
	case SP_CAUSE_INCOMPLETE:
	case SP_CAUSE__COUNT:
		break;
	}
	if (f->lib)	/* no DWARF read: its code could not be read whole */
		sp_strbuf_addf(t, "calls not all known in %s (%s: code not decoded whole, "
			       "or a call to code no symbol names)",
			       sp_func_label(f), f->lib);
	else
		sp_strbuf_addf(t, "calls not listed in DWARF in %s", sp_func_label(f));
}

/* Where the worst path's sum first left 64 bits: the deepest function on
 * it whose total saturated. */
static void overflow_reason(const struct sp_graph *g, uint32_t id, struct sp_strbuf *t)
{
	uint32_t at = id, steps;

	/* next never repeats a function, so g->nfuncs steps are enough */
	for (steps = 0; steps < g->nfuncs; steps++) {
		uint32_t next = g->funcs[at].res.next;

		if (next >= g->nfuncs || !g->funcs[next].res.overflow)
			break;
		at = next;
	}
	sp_strbuf_addf(t, "the sum overflows 64 bits at %s (frame %llu bytes): "
		       "saturated at %llu", sp_func_label(&g->funcs[at]),
		       (unsigned long long)g->funcs[at].self,
		       (unsigned long long)UINT64_MAX);
}

bool sp_reason_text(const struct sp_graph *g, uint32_t id, int c, struct sp_strbuf *t)
{
	const struct sp_result *r;

	if (id >= g->nfuncs || c < 0 || c > SP_CAUSE__COUNT)
		return false;
	r = &g->funcs[id].res;
	if (c == SP_CAUSE__COUNT) {
		if (!r->overflow)
			return false;
		overflow_reason(g, id, t);
		return true;
	}
	if (r->witness[c] >= g->nfuncs)
		return false;
	if (c == SP_CAUSE_ASSUMPTION)
		assumption_reason(g, r, t);
	else
		describe(g, (enum sp_cause)c, r->witness[c], t);
	return true;
}

size_t sp_reasons(const struct sp_graph *g, uint32_t id,
		  void (*emit)(void *ctx, const char *reason), void *ctx)
{
	struct sp_strbuf t = { NULL, 0, 0 };
	size_t count = 0;
	int c;

	for (c = 0; c <= SP_CAUSE__COUNT; c++) {
		uint32_t i;

		t.len = 0;
		if (c != SP_CAUSE_ASSUMPTION) {
			if (!sp_reason_text(g, id, c, &t))
				continue;
			emit(ctx, t.buf);
			count++;
			continue;
		}
		/* one reason per line */
		for (i = 0; id < g->nfuncs && i < g->nassume_lines; i++) {
			t.len = 0;
			if (sp_assume_line_reason(g, &g->funcs[id].res, i, &t)) {
				emit(ctx, t.buf);
				count++;
			}
		}
	}
	free(t.buf);
	return count;
}
