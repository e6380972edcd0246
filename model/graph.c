/* graph.c - lifecycle of the shared model (model/stackprof.h). */
#include "stackprof.h"

#include <stdlib.h>
#include <string.h>

#include "common/strbuf.h"
#include "common/xalloc.h"

void sp_graph_init(struct sp_graph *g)
{
	memset(g, 0, sizeof(*g));
	sp_arena_init(&g->arena);
	sp_strtab_init(&g->strs);
}

void sp_graph_release(struct sp_graph *g)
{
	free(g->funcs);
	free(g->edges);
	free(g->switches);
	free(g->cus);
	free(g->vlas);
	free(g->icalls);
	free(g->belows);
	free(g->below_unless);
	free(g->pers);
	free(g->inlined);
	free(g->assume_lines);
	free(g->segs);
	free(g->steps);
	sp_assumed_release(&g->assumed);
	free(g->isites);
	free(g->isite_targets);
	sp_arena_release(&g->arena);
	sp_strtab_release(&g->strs);
	memset(g, 0, sizeof(*g));
}

void sp_graph_add_switch(struct sp_graph *g, uint32_t from, uint32_t to, uint64_t pc)
{
	SP_ALLOC_GROW(g->switches, (size_t)g->nswitches + 1, g->switches_cap);
	g->switches[g->nswitches++] = (struct sp_edge){ .from = from, .to = to, .pc = pc,
							.kind = SP_EDGE_CALL };
}

void sp_graph_reserve(struct sp_graph *g, size_t nfuncs, size_t nedges)
{
	SP_ALLOC_GROW(g->funcs, (size_t)g->nfuncs + nfuncs, g->funcs_cap);
	SP_ALLOC_GROW(g->edges, (size_t)g->nedges + nedges, g->edges_cap);
}

uint32_t sp_graph_add_func(struct sp_graph *g)
{
	struct sp_func *f;

	SP_ALLOC_GROW(g->funcs, (size_t)g->nfuncs + 1, g->funcs_cap);
	f = &g->funcs[g->nfuncs];
	memset(f, 0, sizeof(*f));
	f->cu = SP_NONE;
	f->assumed = SP_NONE;
	f->original = SP_NONE;
	sp_result_init(&f->res);
	return g->nfuncs++;
}

uint32_t sp_graph_copy_func(struct sp_graph *g, uint32_t f)
{
	uint32_t c = sp_graph_add_func(g);

	g->funcs[c] = g->funcs[f];
	if (g->funcs[c].original == SP_NONE)
		g->funcs[c].original = f;
	g->funcs[c].edge_first = g->funcs[c].edge_count = 0;
	sp_result_init(&g->funcs[c].res);
	return c;
}

void sp_result_init(struct sp_result *r)
{
	int c;

	memset(r, 0, sizeof(*r));
	r->next = SP_NONE;
	r->certain_next = SP_NONE;
	r->certain_seg = SP_NONE;
	r->scc = SP_NONE;
	r->seg = SP_NONE;
	r->cycle = SP_NONE;
	for (c = 0; c < SP_CAUSE__COUNT; c++)
		r->witness[c] = SP_NONE;
}

void sp_graph_add_edge(struct sp_graph *g, uint32_t from, uint32_t to,
		       enum sp_edge_kind kind, uint64_t pc)
{
	struct sp_edge *e;

	SP_ALLOC_GROW(g->edges, (size_t)g->nedges + 1, g->edges_cap);
	e = &g->edges[g->nedges++];
	e->from = from;
	e->to = to;
	e->kind = (uint8_t)kind;
	e->flags = 0;
	e->how = SP_RES_NONE;
	e->pc = pc;
	g->finalized = false;
}

uint32_t sp_graph_add_cu(struct sp_graph *g)
{
	SP_ALLOC_GROW(g->cus, (size_t)g->ncus + 1, g->cus_cap);
	memset(&g->cus[g->ncus], 0, sizeof(g->cus[0]));
	return g->ncus++;
}

void sp_graph_add_icall(struct sp_graph *g, uint32_t func, const char *proto)
{
	SP_ALLOC_GROW(g->icalls, (size_t)g->nicalls + 1, g->icalls_cap);
	g->icalls[g->nicalls].func = func;
	g->icalls[g->nicalls++].proto = proto;
}

struct sp_isite *sp_graph_add_isite(struct sp_graph *g)
{
	struct sp_isite *s;

	SP_ALLOC_GROW(g->isites, (size_t)g->nisites + 1, g->isites_cap);
	s = &g->isites[g->nisites++];
	memset(s, 0, sizeof(*s));
	s->func = SP_NONE;
	s->first = SP_NONE;
	return s;
}

uint32_t sp_graph_set_isite_targets(struct sp_graph *g, struct sp_isite *s,
				    const uint32_t *ids, uint32_t n)
{
	uint32_t i, *v;

	SP_ALLOC_GROW(g->isite_targets, (size_t)g->nisite_targets + n, g->isite_targets_cap);
	v = g->isite_targets + g->nisite_targets;
	for (i = 0; i < n; i++)
		v[i] = ids[i];
	s->first = g->nisite_targets;
	s->ntargets = n;
	g->nisite_targets += n;
	return n;
}

int sp_edge_cmp(const void *pa, const void *pb)
{
	const struct sp_edge *a = pa, *b = pb;

	if (a->from != b->from)
		return a->from < b->from ? -1 : 1;
	if (a->to != b->to)
		return a->to < b->to ? -1 : 1;
	if (a->kind != b->kind)
		return a->kind < b->kind ? -1 : 1;
	return (a->pc > b->pc) - (a->pc < b->pc);
}

/* The edges of one caller, e[0..n), by sp_edge_cmp: most callers have a
 * few, which insertion sorts without qsort's calls of the comparison. */
static void sort_caller(struct sp_edge *e, uint32_t n)
{
	uint32_t i, j;

	if (n > 16) {
		qsort(e, n, sizeof(*e), sp_edge_cmp);
		return;
	}
	for (i = 1; i < n; i++) {
		struct sp_edge x = e[i];

		for (j = i; j > 0 && sp_edge_cmp(&e[j - 1], &x) > 0; j--)
			e[j] = e[j - 1];
		e[j] = x;
	}
}

/*
 * The edges in sp_edge_cmp's order: by caller with a counting sort, then
 * each caller's: qsort of the whole array was 306 M instructions of the
 * typed run on Debian's kernel (397,000 edges), 1.2 % of it.  Edges
 * that compare equal differ at most in flags and how, which
 * sp_graph_finalize() merges whatever their order, so the graph is the
 * one any sort gives.  An edge from no function (an untrusted loader's,
 * refused by the solver) leaves it to qsort.
 */
static void sort_edges(struct sp_graph *g)
{
	uint32_t *first, i, n = g->nedges;
	struct sp_edge *tmp;

	for (i = 0; i < n; i++)
		if (g->edges[i].from >= g->nfuncs) {
			qsort(g->edges, n, sizeof(*g->edges), sp_edge_cmp);
			return;
		}
	first = sp_xcalloc((size_t)g->nfuncs + 2, sizeof(*first));
	tmp = sp_xmalloc(n * sizeof(*tmp));
	for (i = 0; i < n; i++)
		first[g->edges[i].from + 2]++;
	for (i = 2; i < g->nfuncs + 2; i++)
		first[i] += first[i - 1];
	for (i = 0; i < n; i++)
		tmp[first[g->edges[i].from + 1]++] = g->edges[i];
	memcpy(g->edges, tmp, n * sizeof(*tmp));
	free(tmp);
	/* first[f] is now where caller f's edges begin */
	for (i = 0; i < g->nfuncs; i++)
		sort_caller(g->edges + first[i], first[i + 1] - first[i]);
	free(first);
}

void sp_graph_finalize(struct sp_graph *g)
{
	uint32_t i, out = 0;

	if (g->nedges)
		sort_edges(g);
	/* keep the first (lowest pc) of each (from, to, kind) */
	for (i = 0; i < g->nedges; i++) {
		const struct sp_edge *e = &g->edges[i];

		if (out && g->edges[out - 1].from == e->from &&
		    g->edges[out - 1].to == e->to &&
		    g->edges[out - 1].kind == e->kind) {
			g->edges[out - 1].flags &= e->flags;
			if (e->how > g->edges[out - 1].how)
				g->edges[out - 1].how = e->how;
			if (!(g->edges[out - 1].flags & SP_EDGE_F_ASSUMED))
				g->edges[out - 1].how = SP_RES_NONE;
			continue;
		}
		g->edges[out++] = *e;
	}
	g->nedges = out;
	for (i = 0; i < g->nfuncs; i++)
		g->funcs[i].edge_first = g->funcs[i].edge_count = 0;
	for (i = g->nedges; i-- > 0;) {
		struct sp_func *f = &g->funcs[g->edges[i].from];

		f->edge_first = i;
		f->edge_count++;
	}
	g->finalized = true;
}

const char *sp_intern(struct sp_graph *g, const char *s)
{
	return s ? sp_strtab_intern(&g->strs, s, strlen(s)) : NULL;
}

/* A name of a prototype string (int, struct buf, enum style) as C's type
 * checks compare two: qualifiers dropped, and an enum one with the
 * integer types it may be compatible with (C11 6.7.2.2p4: GCC makes an
 * enum of no negative value an unsigned int, which a program converts
 * void (*)(enum kind) to without a cast), int and unsigned int, "int". */
static void strict_name(struct sp_strbuf *sb, const char *s, size_t n)
{
	for (;;)
		if (n > 6 && !memcmp(s, "const ", 6)) {
			s += 6;
			n -= 6;
		} else if (n > 9 && !memcmp(s, "volatile ", 9)) {
			s += 9;
			n -= 9;
		} else {
			break;
		}
	if ((n > 5 && !memcmp(s, "enum ", 5)) || (n == 12 && !memcmp(s, "unsigned int", 12)))
		sp_strbuf_add(sb, "int");
	else
		sp_strbuf_addn(sb, s, n);
}

/*
 * The prototype class of a prototype string (dwarf/proto.c's form), as
 * LLVM's generalized call-graph type ids have it: C lets a program call
 * g(struct buf *) through an int (*)(void *) with a cast, so every
 * pointer or reference to an object is one class, written "void*";
 * pointers to functions keep their (generalized) prototype, and other
 * names are compared as strict_name's.  The string's grammar is
 *	type  = name | type "*" | type "&" | type "&&" | type "[]"
 *	      | type "(" [type {"," type}] ")"		(a function)
 * where a name (int, struct buf, enum style) never ends in ')', '*',
 * '&' or ']'.  A string this does not parse (a C++ name with
 * parentheses) is its own class.
 */
static bool gen_type(struct sp_strbuf *sb, const char *s, size_t n);

/* The '(' that opens the parameters of the function type s[0..n), which
 * ends in ')'; n when unbalanced. */
static size_t params_open(const char *s, size_t n)
{
	size_t i = n - 1, depth = 0;

	do {
		depth += s[i] == ')';
		if (s[i] == '(' && --depth == 0)
			return i;
	} while (i-- > 0);
	return n;
}

static bool gen_function(struct sp_strbuf *sb, const char *s, size_t n)
{
	size_t open = params_open(s, n), i, start, depth = 0;
	bool ok;

	if (open == n || !open)
		return false;
	ok = gen_type(sb, s, open);
	sp_strbuf_addf(sb, "(");
	for (i = start = open + 1; ok && i < n; i++) {
		depth += s[i] == '(';
		if (depth && s[i] == ')')
			depth--;
		else if (!depth && (s[i] == ',' || i == n - 1)) {
			if (i > start && !(i - start == 3 && !memcmp(s + start, "...", 3)))
				ok = gen_type(sb, s + start, i - start);
			else if (i > start)
				sp_strbuf_addf(sb, "...");
			sp_strbuf_addf(sb, "%s", s[i] == ',' ? "," : ")");
			start = i + 1;
		}
	}
	return ok;
}

static bool gen_type(struct sp_strbuf *sb, const char *s, size_t n)
{
	size_t ptr = n && (s[n - 1] == '*' || s[n - 1] == '&') ?
		     (n > 1 && s[n - 1] == '&' && s[n - 2] == '&' ? 2 : 1) : 0;

	if (!n)
		return false;
	if (ptr) {
		if (n == ptr || s[n - ptr - 1] != ')') {
			sp_strbuf_addf(sb, "void*");
			return true;
		}
		if (!gen_function(sb, s, n - ptr))
			return false;
		sp_strbuf_addf(sb, "%.*s", (int)ptr, s + n - ptr);
		return true;
	}
	if (s[n - 1] == ')')
		return gen_function(sb, s, n);
	strict_name(sb, s, n);
	return true;
}

const char *sp_proto_class(struct sp_graph *g, const char *proto)
{
	struct sp_strbuf sb = { 0 };
	const char *c;

	if (!proto)
		return NULL;
	c = gen_type(&sb, proto, strlen(proto)) && sb.buf ? sp_intern(g, sb.buf) : proto;
	free(sb.buf);
	return c;
}

const char *sp_proto_strict(struct sp_graph *g, const char *proto)
{
	struct sp_strbuf sb = { 0 };
	const char *s = proto, *c;
	size_t n;

	if (!proto)
		return NULL;
	while (*s) {
		n = strcspn(s, "(),*&[]");
		if (n)
			strict_name(&sb, s, n);
		s += n;
		if (*s)
			sp_strbuf_addn(&sb, s++, 1);
	}
	c = sb.buf ? sp_intern(g, sb.buf) : proto;
	free(sb.buf);
	return c;
}

uint64_t sp_func_proto_die(const struct sp_func *f)
{
	if (f->flags & SP_F_DECLARED)
		return f->decl_die;
	return f->origin_die ? f->origin_die : f->die ? f->die : f->decl_die;
}

const char *sp_frame_src_name(enum sp_frame_src src)
{
	switch (src) {
	case SP_SRC_SU:
		return "su";
	case SP_SRC_CFI:
		return "cfi";
	case SP_SRC_ANNOT:
		return "annotation";
	case SP_SRC_CODE:
		return "code";
	case SP_SRC_ORC:
		return "orc";
	case SP_SRC_ENTRY:
		return "entry";
	case SP_SRC_JIT:
		return "jit";
	case SP_SRC_INLINED:
		return "inlined";
	case SP_SRC_NONE:
	case SP_SRC__COUNT:
		break;
	}
	return NULL;
}

const char *sp_resolved_name(enum sp_resolved r)
{
	static const char *const names[SP_RES__COUNT] = {
		[SP_RES_TABLE] = "table", [SP_RES_FIELD] = "field",
		[SP_RES_PROTOTYPE] = "prototype", [SP_RES_ADDRESS_TAKEN] = "address-taken",
		[SP_RES_ANNOTATION] = "annotation", [SP_RES_TRACEPOINT] = "tracepoint",
		[SP_RES_BPF] = "bpf", [SP_RES_PARAVIRT] = "paravirt",
		[SP_RES_ARGUMENT] = "argument", [SP_RES_STATIC_CALL] = "static-call",
		[SP_RES_EXPORTED] = "exported",
	};

	return (unsigned)r < SP_RES__COUNT ? names[r] : NULL;
}

const char *sp_qual_name(enum sp_qual q)
{
	switch (q) {
	case SP_QUAL_STATIC:
		return "static";
	case SP_QUAL_DYNAMIC:
		return "dynamic";
	case SP_QUAL_BOUNDED:
		return "dynamic,bounded";
	case SP_QUAL_UNKNOWN:
		break;
	}
	return "unknown";
}

void sp_frames_add(struct sp_frames *l, uint32_t func, enum sp_qual qual, uint64_t bytes)
{
	SP_ALLOC_GROW(l->v, l->n + 1, l->cap);
	l->v[l->n].func = func;
	l->v[l->n].qual = qual;
	l->v[l->n].bytes = bytes;
	l->n++;
}

void sp_frames_release(struct sp_frames *l)
{
	free(l->v);
	memset(l, 0, sizeof(*l));
}
