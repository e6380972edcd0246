/* path.c - see path.h */
#include "report/path.h"

#include <stdlib.h>

#include "analysis/analysis.h"
#include "common/xalloc.h"

typedef size_t walk_fn(const struct sp_graph *g, uint32_t id, uint32_t *out,
		       uint8_t *kinds, uint8_t *flags, uint8_t *hows, size_t max);

static void load(const struct sp_graph *g, uint32_t root, walk_fn *walk, struct sp_path *p)
{
	size_t n = walk(g, root, NULL, NULL, NULL, NULL, SIZE_MAX), i;

	p->ids = sp_xmalloc(n * sizeof(*p->ids));
	p->kinds = sp_xmalloc(n * sizeof(*p->kinds));
	p->flags = sp_xmalloc(n * sizeof(*p->flags));
	p->hows = sp_xmalloc(n * sizeof(*p->hows));
	p->cum = sp_xmalloc(n * sizeof(*p->cum));
	p->n = walk(g, root, p->ids, p->kinds, p->flags, p->hows, n);
	for (i = 0; i < p->n; i++) {
		const struct sp_func *f = &g->funcs[p->ids[i]];
		uint64_t self = sp_frame_bytes(f);
		uint64_t base = 0;

		if (i) {
			const struct sp_func *prev = &g->funcs[p->ids[i - 1]];

			base = p->cum[i - 1];
			if (p->kinds[i] == SP_EDGE_TAIL)
				base -= sp_frame_bytes(prev) < base ? sp_frame_bytes(prev) : base;
		}
		p->cum[i] = base > UINT64_MAX - self ? UINT64_MAX : base + self;
	}
}

void sp_path_load(const struct sp_graph *g, uint32_t root, struct sp_path *p)
{
	load(g, root, sp_worst_path_flags, p);
}

void sp_path_load_assumed(const struct sp_graph *g, uint32_t root, struct sp_path *p)
{
	load(g, root, sp_assumed_path_flags, p);
}

size_t sp_path_first_assumed(const struct sp_path *p)
{
	size_t i;

	for (i = 1; i < p->n; i++)
		if (p->flags[i] & SP_EDGE_F_ASSUMED)
			return i;
	return 0;
}

void sp_path_release(struct sp_path *p)
{
	free(p->ids);
	free(p->kinds);
	free(p->flags);
	free(p->hows);
	free(p->cum);
}

uint64_t sp_path_weight(const struct sp_graph *g, const struct sp_path *p, size_t i)
{
	if (i + 1 < p->n && p->kinds[i + 1] == SP_EDGE_TAIL)
		return 0;
	return sp_frame_bytes(&g->funcs[p->ids[i]]);
}
