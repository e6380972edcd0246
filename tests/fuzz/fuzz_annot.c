/*
 * fuzz_annot.c - libFuzzer harness for the --annotate parser: one buffer
 * parsed, then (as --indirect=address-taken --annotate would) applied to
 * a small fixed graph whose names it can hit - a cycle, a clone, a
 * static of another file, an indirect caller, an unknown frame - and
 * analysed, so that frames and depths from the input reach the
 * arithmetic.  Seeded with the annotation files of the tests (make fuzz).
 */
#include <stddef.h>
#include <stdint.h>

#include "analysis/analysis.h"
#include "annotate/annotate.h"
#include "frames/frames.h"
#include "stackprof.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A function with code, its frame (when known) given as a .su row would. */
static uint32_t add_fn(struct sp_graph *g, struct sp_frames *su, const char *name,
		       const char *file, uint64_t self, enum sp_qual q)
{
	uint32_t id = sp_graph_add_func(g);
	struct sp_func *f = &g->funcs[id];

	f->name = sp_intern(g, name);
	f->file = file ? sp_intern(g, file) : NULL;
	f->flags = SP_F_HAS_CODE;
	if (q != SP_QUAL_UNKNOWN)
		sp_frames_add(su, id, q, self);
	return id;
}

/* main -> a <-> b, main -> a.constprop.0, main -> c (indirect) -> s
 * (tail), s -> u (no frame), main -> x.c:s and y.c:s */
static void build(struct sp_graph *g, struct sp_frames *su)
{
	uint32_t m = add_fn(g, su, "main", "m.c", 32, SP_QUAL_STATIC);
	uint32_t a = add_fn(g, su, "a", "m.c", 16, SP_QUAL_STATIC);
	uint32_t b = add_fn(g, su, "b", "m.c", 8, SP_QUAL_DYNAMIC);
	uint32_t ac = add_fn(g, su, "a.constprop.0", "m.c", 24, SP_QUAL_STATIC);
	uint32_t c = add_fn(g, su, "c", "m.c", 48, SP_QUAL_BOUNDED);
	uint32_t s1 = add_fn(g, su, "s", "x.c", UINT64_MAX - 8, SP_QUAL_STATIC);
	uint32_t s2 = add_fn(g, su, "s", "y.c", 0, SP_QUAL_STATIC);
	uint32_t u = add_fn(g, su, "u", NULL, 0, SP_QUAL_UNKNOWN);

	g->funcs[c].n_indirect = 1;
	sp_graph_add_edge(g, m, a, SP_EDGE_CALL, 0);
	sp_graph_add_edge(g, a, b, SP_EDGE_CALL, 0);
	sp_graph_add_edge(g, b, a, SP_EDGE_CALL, 0);
	sp_graph_add_edge(g, m, ac, SP_EDGE_CALL, 0);
	sp_graph_add_edge(g, m, c, SP_EDGE_CALL, 0);
	sp_graph_add_edge(g, c, s1, SP_EDGE_TAIL, 0);
	sp_graph_add_edge(g, s1, u, SP_EDGE_CALL, 0);
	sp_graph_add_edge(g, m, s2, SP_EDGE_CALL, 0);
	sp_graph_finalize(g);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const uint8_t taken[] = { 0, 1, 1, 0, 0, 1, 0, 1 };
	struct sp_frames su = { 0 }, frames = { 0 };
	struct frame_opts fo = { 0 };
	struct frame_stats st;
	struct sp_annots a;
	struct sp_graph g;
	struct sp_err err;

	sp_annots_init(&a);
	if (!sp_annot_parse(&a, "fuzz.ann", (const char *)data, size, &err)) {
		sp_graph_init(&g);
		build(&g, &su);
		/* the first byte picks whether address-taken edges come first */
		if (size && (data[0] & 1))
			sp_assume_address_taken(&g, taken);
		if (!sp_annot_frames(&a, &g, &frames, &err)) {
			frames_decide(&g, NULL, 0, &frames, &su, &fo, &st);
			if (!sp_annot_apply(&a, &g, &err))
				sp_analyze(&g, &err);
		}
		sp_frames_release(&frames);
		sp_frames_release(&su);
		sp_graph_release(&g);
	}
	sp_annots_release(&a);
	return 0;
}
