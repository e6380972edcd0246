/*
 * graph_fixture.h - building small graphs by hand in unit tests:
 * functions with a frame, call and tail edges, then solve.
 * Include after <cmocka.h>; static inline so a test uses what it needs.
 */
#ifndef SP_TEST_GRAPH_FIXTURE_H
#define SP_TEST_GRAPH_FIXTURE_H

#include "analysis/analysis.h"
#include "stackprof.h"

/* A function with code and a .su frame of self bytes (q UNKNOWN: none). */
static inline uint32_t fn(struct sp_graph *g, const char *name, uint64_t self,
			  enum sp_qual q)
{
	uint32_t id = sp_graph_add_func(g);
	struct sp_func *f = &g->funcs[id];

	f->name = name ? sp_intern(g, name) : NULL;
	f->self = self;
	f->qual = q;
	f->src = q == SP_QUAL_UNKNOWN ? SP_SRC_NONE : SP_SRC_SU;
	f->flags = SP_F_HAS_CODE;
	return id;
}

static inline uint32_t fs(struct sp_graph *g, const char *name, uint64_t self)
{
	return fn(g, name, self, SP_QUAL_STATIC);
}

static inline void call(struct sp_graph *g, uint32_t from, uint32_t to)
{
	sp_graph_add_edge(g, from, to, SP_EDGE_CALL, 0);
}

static inline void tail(struct sp_graph *g, uint32_t from, uint32_t to)
{
	sp_graph_add_edge(g, from, to, SP_EDGE_TAIL, 0);
}

static inline void solve(struct sp_graph *g)
{
	struct sp_err err = { { 0 } };

	sp_graph_finalize(g);
	assert_int_equal(sp_analyze(g, &err), 0);
}

static inline const struct sp_result *res(const struct sp_graph *g, uint32_t id)
{
	return &g->funcs[id].res;
}

#endif
