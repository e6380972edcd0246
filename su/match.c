/*
 * match.c - give each .su row to the function of the image it describes.
 *
 * First each .su file is tied to the compile unit it was written for
 * (by path, else by stem), so that static functions of the same name in
 * different files stay apart.  Then each row is looked up among that
 * unit's functions by file basename and line (and column when the row
 * has one).  A function and its clones (helper, helper.constprop.0)
 * share one location, so the row's spelling picks among them.  Rows of
 * files that belong to no unit (LTO partitions, renamed or concatenated
 * files) are looked up globally, unless most of them fit nothing: then
 * the file is another program's.
 *
 * Everything goes through hash chains: the kernel has ~30k functions and
 * ~40k rows, so nothing may be quadratic.
 */
#include "su/su.h"

#include <elf.h>
#include <stdlib.h>
#include <string.h>

#include "common/path.h"
#include "common/xalloc.h"
#include "elf/arch.h"

#define SU_NOCU UINT32_MAX

/* A chained index: a map from a 64-bit key to the first member, and the
 * next member of each member's chain.  Members are verified by the user:
 * keys are hashes, and different tuples may share one chain. */
struct su_chain {
	struct sp_u64map head;
	uint32_t *next;
};

static void chain_init(struct su_chain *c, size_t n)
{
	sp_u64map_init(&c->head, n);
	c->next = sp_xmalloc((n ? n : 1) * sizeof(*c->next));
}

static void chain_release(struct su_chain *c)
{
	sp_u64map_release(&c->head);
	free(c->next);
}

/* Members are added in descending id order so that chains ascend. */
static void chain_add(struct su_chain *c, uint64_t key, uint32_t id)
{
	c->next[id] = sp_u64map_swap(&c->head, key, id);
}

static uint64_t key_mix(uint64_t h, uint64_t v)
{
	return (h ^ v) * 0x9e3779b97f4a7c15ULL + 0x632be59bd9b4e019ULL;
}

static uint64_t key_ptr(const void *p)
{
	return (uint64_t)(uintptr_t)p;
}

/* Per-function facts derived once. */
struct su_fn {
	const char *base;	/* interned basename of file, NULL if none */
	const char *name;	/* interned source name, or NULL */
	const char *strip;	/* symbol without ".N" parts, or the name */
	uint32_t line;		/* DWARF's line, before a row rewrites it */
	bool clone;		/* the symbol has a clone suffix */
	bool taken;		/* already given a row */
};

/* Per-row facts derived once. */
struct su_rw {
	const char *name, *file, *base;	/* interned in the graph */
	const char *bare;	/* name without its clone suffix */
	bool clone;		/* "foo.constprop" rather than "foo" */
	bool cxx;		/* a C++ signature: "int ns::f(int)" */
	uint32_t cu;		/* the unit of its .su file, SU_NOCU */
	uint32_t func;		/* matched function, SP_NONE */
};

struct su_matcher {
	struct sp_graph *g;
	const struct su_set *s;
	struct sp_frames *frames;	/* what the rows given say, for the frames stage */
	struct su_fn *fn;
	struct su_rw *rw;
	struct su_chain loc;	/* (cu, base, line) -> functions */
	struct su_chain gloc;	/* (base, line) -> functions: global_locations() */
	struct su_chain sym;	/* (cu, strip) -> functions: symbols() */
	uint32_t *file_cu;	/* .su file -> unit, SU_NOCU */
	bool *file_ltrans;	/* .su file is an LTO partition */
	bool *file_global;	/* a file of no unit whose rows are still used */
	uint32_t *file_rows;	/* rows of each file: file_first[i].. */
	uint32_t *file_first;	/* npaths + 1 offsets into file_rows */
};

static const char *intern_n(struct sp_graph *g, const char *s, size_t len)
{
	return sp_strtab_intern(&g->strs, s, len);
}

static const char *base_of(struct sp_graph *g, const char *path)
{
	const char *slash;

	if (!path)
		return NULL;
	slash = strrchr(path, '/');
	path = slash ? slash + 1 : path;
	return intern_n(g, path, strlen(path));
}

static bool all_digits(const char *p, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (p[i] < '0' || p[i] > '9')
			return false;
	return len > 0;
}

/* "foo.constprop.0.isra.0" -> "foo.constprop.isra"; sym is interned */
static const char *strip_symbol(struct sp_graph *g, const char *sym)
{
	size_t len, n = 0;
	const char *p = sym, *end;
	char *buf;
	const char *ret;

	if (!strchr(sym, '.'))
		return sym;
	len = strlen(sym);
	end = sym + len;
	buf = sp_xmalloc(len + 1);
	while (p < end) {
		const char *dot = memchr(p, '.', (size_t)(end - p));
		size_t plen = dot ? (size_t)(dot - p) : (size_t)(end - p);

		if (p == sym || !all_digits(p, plen)) {
			if (p != sym)
				buf[n++] = '.';
			memcpy(buf + n, p, plen);
			n += plen;
		}
		p += plen + 1;
	}
	ret = intern_n(g, buf, n);
	free(buf);
	return ret;
}

static bool is_ident_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_' || c == '$';
}

/* prev: the row described before, whose file most rows share */
static void describe_row(struct su_matcher *m, struct su_rw *r, const struct su_row *row,
			 const struct su_rw *prev)
{
	struct sp_graph *g = m->g;
	const char *p, *dot = NULL;

	/* rows are interned in g->strs (su_match's contract) */
	r->name = row->name;
	r->file = row->file;
	r->base = prev && prev->file == r->file ? prev->base : base_of(g, r->file);
	r->cxx = false;
	for (p = r->name; *p; p++) {
		if (*p == '.' && !dot)
			dot = p;
		else if (*p != '.' && !is_ident_char(*p))
			r->cxx = true;
	}
	r->clone = !r->cxx && dot;
	r->bare = r->clone ? intern_n(g, r->name, (size_t)(dot - r->name)) : r->name;
	r->func = SP_NONE;
}

static uint64_t loc_key(uint32_t cu, const char *base, uint32_t line)
{
	return key_mix(key_mix(key_mix(0, cu), key_ptr(base)), line);
}

static uint64_t sym_key(uint32_t cu, const char *strip)
{
	return key_mix(key_mix(1, cu), key_ptr(strip));
}

/*
 * The names are the model's, interned in g->strs, so they are used as
 * they are; a unit's functions are neighbours and mostly share a file,
 * whose basename is then interned once.  Only the (cu, base, line) chain
 * is built here: the others serve rows this one leaves over, and a run
 * whose rows all match by location never needs them (a million
 * functions: two tables that miss the caches on every access).
 */
static void index_functions(struct su_matcher *m)
{
	struct sp_graph *g = m->g;
	const char *file = NULL, *base = NULL;
	uint32_t i;

	m->fn = sp_xcalloc(g->nfuncs ? g->nfuncs : 1, sizeof(*m->fn));
	chain_init(&m->loc, g->nfuncs);
	for (i = g->nfuncs; i-- > 0;) {
		const struct sp_func *f = &g->funcs[i];
		struct su_fn *x = &m->fn[i];

		if (!(f->flags & SP_F_HAS_CODE))
			continue;
		if (f->file != file) {
			file = f->file;
			base = base_of(g, file);
		}
		x->base = base;
		x->line = f->line;
		x->name = f->name;
		x->strip = f->symbol ? strip_symbol(g, f->symbol) : x->name;
		x->clone = f->symbol && strchr(f->symbol, '.');
		if (x->base && f->line)
			chain_add(&m->loc, loc_key(f->cu, x->base, f->line), i);
	}
}

/* The key of function i in a chain built on demand; false: not in it. */
typedef bool su_key_fn(const struct su_matcher *m, uint32_t i, uint64_t *key);

static const struct su_chain *built(struct su_matcher *m, struct su_chain *c,
				    su_key_fn *key_of)
{
	uint64_t key;
	uint32_t i;

	if (c->next)
		return c;
	chain_init(c, m->g->nfuncs);
	for (i = m->g->nfuncs; i-- > 0;)
		if (key_of(m, i, &key))
			chain_add(c, key, i);
	return c;
}

static bool global_key(const struct su_matcher *m, uint32_t i, uint64_t *key)
{
	const struct su_fn *x = &m->fn[i];

	*key = loc_key(SU_NOCU, x->base, x->line);
	return x->base && x->line;
}

static bool symbol_key(const struct su_matcher *m, uint32_t i, uint64_t *key)
{
	*key = sym_key(m->g->funcs[i].cu, m->fn[i].strip);
	return m->fn[i].strip != NULL;
}

/* (base, line) -> functions of any unit, built when first asked for. */
static const struct su_chain *global_locations(struct su_matcher *m)
{
	return built(m, &m->gloc, global_key);
}

/* (cu, symbol without clone numbers) -> functions, built when first asked for. */
static const struct su_chain *symbols(struct su_matcher *m)
{
	return built(m, &m->sym, symbol_key);
}

/* ---- candidates ---- */

/* How well a function's names fit a row's spelling: 3 exact (clone
 * suffix included), 2 neither is a clone, 1 the same source name. */
static int name_fit(const struct su_matcher *m, uint32_t fi, const struct su_rw *r)
{
	const struct su_fn *x = &m->fn[fi];

	if (x->strip && x->strip == r->name)
		return 3;
	if (!r->cxx && !r->clone && !x->clone)
		return 2;
	if (x->name && x->name == r->bare)
		return 1;
	if (r->cxx && x->name) {
		const char *p = strstr(r->name, x->name);
		size_t len = strlen(x->name);

		if (p && (p[len] == '(' || p[len] == '<'))
			return 1;
	}
	return 0;
}

struct su_rank {
	int fit;
	bool col_exact;
	size_t suffix;
};

static bool rank_better(const struct su_rank *a, const struct su_rank *b)
{
	if (a->fit != b->fit)
		return a->fit > b->fit;
	if (a->col_exact != b->col_exact)
		return a->col_exact;
	return a->suffix > b->suffix;	/* ties keep the lower id */
}

/* Does function fi stand at the row's location (within unit cu, or any
 * unit when cu is SU_NOCU)? */
static bool at_location(const struct su_matcher *m, uint32_t fi, const struct su_rw *r,
			const struct su_row *row, uint32_t cu)
{
	const struct sp_func *f = &m->g->funcs[fi];

	if ((cu != SU_NOCU && f->cu != cu) || m->fn[fi].base != r->base ||
	    f->line != row->line)
		return false;
	return !row->col || !f->col || f->col == row->col;
}

/* The best untaken function at the row's location with at least min_fit. */
static uint32_t best_at(const struct su_matcher *m, const struct su_chain *c,
			uint64_t key, const struct su_rw *r, const struct su_row *row,
			uint32_t cu, int min_fit)
{
	uint32_t i, best = SP_NONE;
	struct su_rank br = { -1, false, 0 };

	for (i = sp_u64map_get(&c->head, key); i != UINT32_MAX; i = c->next[i]) {
		const struct sp_func *f = &m->g->funcs[i];
		struct su_rank rk;

		if (m->fn[i].taken || !at_location(m, i, r, row, cu))
			continue;
		rk.fit = name_fit(m, i, r);
		if (rk.fit < min_fit)
			continue;
		rk.col_exact = row->col && f->col == row->col;
		rk.suffix = su_path_common_suffix(r->file, strlen(r->file), f->file,
						  strlen(f->file));
		if (best == SP_NONE || rank_better(&rk, &br)) {
			best = i;
			br = rk;
		}
	}
	return best;
}

/* Count how many rows of .su file fi would find a function in unit cu,
 * less those that would not: a stale or foreign file scores low. */
static long file_fit(const struct su_matcher *m, uint32_t file, uint32_t cu)
{
	long score = 0;
	uint32_t k;

	for (k = m->file_first[file]; k < m->file_first[file + 1]; k++) {
		uint32_t ri = m->file_rows[k];
		const struct su_row *row = &m->s->rows[ri];
		const struct su_rw *r = &m->rw[ri];
		uint32_t i;
		bool found = false;

		for (i = sp_u64map_get(&m->loc.head, loc_key(cu, r->base, row->line));
		     i != UINT32_MAX && !found; i = m->loc.next[i])
			found = at_location(m, i, r, row, cu);
		score += found ? 1 : -1;
	}
	return score;
}

/* Would rows of a file tied to no unit find functions anywhere, more often
 * than not?  A renamed or concatenated .su ("all.su") does; the .su of
 * another program of the tree shares at most a few header inlines. */
static bool fits_globally(struct su_matcher *m, uint32_t file)
{
	const struct su_chain *gloc = global_locations(m);
	long score = 0;
	uint32_t k;

	for (k = m->file_first[file]; k < m->file_first[file + 1]; k++) {
		uint32_t ri = m->file_rows[k], i;
		const struct su_row *row = &m->s->rows[ri];
		const struct su_rw *r = &m->rw[ri];
		bool found = false;

		for (i = sp_u64map_get(&gloc->head, loc_key(SU_NOCU, r->base, row->line));
		     i != UINT32_MAX && !found; i = gloc->next[i])
			found = at_location(m, i, r, row, SU_NOCU) && name_fit(m, i, r) >= 1;
		score += found ? 1 : -1;
	}
	return score > 0;
}

/* ---- .su files to compile units ---- */

struct su_claim {
	uint32_t file, cu;
	int tier;		/* 2: same path, 1: same stem */
	size_t suffix;		/* common trailing path components */
	long fit;
};

static int claim_cmp(const void *pa, const void *pb)
{
	const struct su_claim *a = pa, *b = pb;

	if (a->tier != b->tier)
		return a->tier > b->tier ? -1 : 1;
	if (a->suffix != b->suffix)
		return a->suffix > b->suffix ? -1 : 1;
	if (a->fit != b->fit)
		return a->fit > b->fit ? -1 : 1;
	if (a->file != b->file)
		return a->file < b->file ? -1 : 1;
	return (a->cu > b->cu) - (a->cu < b->cu);
}

/* Keys of a unit: its source path and its stem, without extensions. */
struct su_units {
	struct sp_strtab strs;		/* paths, local to matching */
	struct su_chain path, stem;	/* interned key -> units */
	char **src;			/* normalised source path, no extension */
};

static const char *last_component(const char *p)
{
	const char *slash = strrchr(p, '/');

	return slash ? slash + 1 : p;
}

static void units_init(struct su_units *u, const struct sp_graph *g)
{
	uint32_t i;

	sp_strtab_init(&u->strs);
	chain_init(&u->path, g->ncus);
	chain_init(&u->stem, g->ncus);
	u->src = sp_xcalloc(g->ncus ? g->ncus : 1, sizeof(*u->src));
	for (i = g->ncus; i-- > 0;) {
		const struct sp_cu *cu = &g->cus[i];
		const char *stem;
		char *src;

		if (!cu->name)
			continue;
		src = su_path_normalize(cu->comp_dir, cu->name);
		src[su_path_stem_len(src)] = '\0';
		u->src[i] = src;
		stem = last_component(src);
		chain_add(&u->path, key_ptr(sp_strtab_intern(&u->strs, src, strlen(src))), i);
		chain_add(&u->stem, key_ptr(sp_strtab_intern(&u->strs, stem, strlen(stem))), i);
	}
}

static void units_release(struct su_units *u, uint32_t ncus)
{
	uint32_t i;

	for (i = 0; i < ncus; i++)
		free(u->src[i]);
	free(u->src);
	chain_release(&u->path);
	chain_release(&u->stem);
	sp_strtab_release(&u->strs);
}

static void add_claim(struct su_claim **v, size_t *n, size_t *cap, struct su_claim c)
{
	SP_ALLOC_GROW(*v, *n + 1, *cap);
	(*v)[(*n)++] = c;
}

/* Common directories of two extensionless paths, plus the stem itself. */
static size_t dir_suffix(const char *a, const char *b)
{
	const char *sa = strrchr(a, '/'), *sb = strrchr(b, '/');

	if (!sa || !sb)
		return 1;
	return 1 + su_path_common_suffix(a, (size_t)(sa - a), b, (size_t)(sb - b));
}

/*
 * Claims of one .su file named abs (without ".su"): units of the same
 * path; else units whose stem equals the file's stem, or a tail of it
 * after '-' (automake's "prog-a.su", libtool's "libx_la-a.su", GCC's
 * "prog-a.su").  Returns whether it claimed any.
 */
static bool claims_of_path(struct su_matcher *m, struct su_units *u, uint32_t file,
			   const char *abs, struct su_claim **v, size_t *n, size_t *cap)
{
	const char *stem, *p, *key;
	size_t before = *n;
	uint32_t i;

	key = sp_strtab_intern(&u->strs, abs, strlen(abs));
	for (i = sp_u64map_get(&u->path.head, key_ptr(key)); i != UINT32_MAX;
	     i = u->path.next[i])
		add_claim(v, n, cap, (struct su_claim){ file, i, 2, SIZE_MAX,
							file_fit(m, file, i) });
	stem = last_component(abs);
	for (p = stem; *n == before && p; p = strchr(p, '-')) {
		uint32_t first;
		size_t best = 0;
		bool found = false;

		if (*p == '-')
			p++;
		key = sp_strtab_intern(&u->strs, p, strlen(p));
		first = sp_u64map_get(&u->stem.head, key_ptr(key));
		/* only the units sharing most directories: a stem like "core"
		 * has hundreds, and fitting rows to each would be quadratic */
		for (i = first; i != UINT32_MAX; i = u->stem.next[i]) {
			size_t d = dir_suffix(abs, u->src[i]);

			if (!found || d > best)
				best = d;
			found = true;
		}
		for (i = first; i != UINT32_MAX; i = u->stem.next[i])
			if (dir_suffix(abs, u->src[i]) == best)
				add_claim(v, n, cap, (struct su_claim){ file, i, 1, best,
					  file_fit(m, file, i) });
		if (found)
			break;	/* the longest matching tail wins */
	}
	return *n > before;
}

/* Claims of one .su file: by its name without ".su", else without the
 * source's extension too (CMake's object "a.c.o" gives "a.c.su"). */
static void claims_of_file(struct su_matcher *m, struct su_units *u, uint32_t file,
			   struct su_claim **v, size_t *n, size_t *cap)
{
	char *abs = su_path_normalize(NULL, m->s->paths[file]);
	size_t len = su_path_stem_len(abs);

	abs[len] = '\0';
	if (!claims_of_path(m, u, file, abs, v, n, cap) && su_path_stem_len(abs) < len) {
		abs[su_path_stem_len(abs)] = '\0';
		claims_of_path(m, u, file, abs, v, n, cap);
	}
	m->file_ltrans[file] = strstr(last_component(m->s->paths[file]), ".ltrans") != NULL;
	free(abs);
}

static void assign_files(struct su_matcher *m)
{
	const struct su_set *s = m->s;
	struct su_units u;
	struct su_claim *v = NULL;
	size_t n = 0, cap = 0, k;
	bool *cu_taken = sp_xcalloc(m->g->ncus ? m->g->ncus : 1, sizeof(*cu_taken));
	uint32_t f;

	units_init(&u, m->g);
	for (f = 0; f < s->npaths; f++) {
		m->file_cu[f] = SU_NOCU;
		claims_of_file(m, &u, f, &v, &n, &cap);
	}
	if (n)
		qsort(v, n, sizeof(*v), claim_cmp);
	for (k = 0; k < n; k++) {
		if (m->file_cu[v[k].file] != SU_NOCU || cu_taken[v[k].cu])
			continue;
		m->file_cu[v[k].file] = v[k].cu;
		cu_taken[v[k].cu] = true;
	}
	for (f = 0; f < s->npaths; f++)
		m->file_global[f] = m->file_cu[f] == SU_NOCU &&
				    (m->file_ltrans[f] || fits_globally(m, f));
	free(v);
	free(cu_taken);
	units_release(&u, m->g->ncus);
}

/* Rows grouped by file (a counting sort: rows need not be contiguous). */
static void group_rows(struct su_matcher *m)
{
	const struct su_set *s = m->s;
	uint32_t *fill;
	size_t i;

	m->file_first = sp_xcalloc((size_t)s->npaths + 1, sizeof(*m->file_first));
	m->file_rows = sp_xmalloc((s->nrows ? s->nrows : 1) * sizeof(*m->file_rows));
	for (i = 0; i < s->nrows; i++)
		m->file_first[s->rows[i].su_file + 1]++;
	for (i = 0; i < s->npaths; i++)
		m->file_first[i + 1] += m->file_first[i];
	fill = sp_xmalloc(((size_t)s->npaths + 1) * sizeof(*fill));
	memcpy(fill, m->file_first, ((size_t)s->npaths + 1) * sizeof(*fill));
	for (i = 0; i < s->nrows; i++)
		m->file_rows[fill[s->rows[i].su_file]++] = (uint32_t)i;
	free(fill);
}

/* ---- rows to functions ---- */

/* Clang's x86 .su rows leave out the return address that the call pushed,
 * GCC's count it: add it, so that a total means the same for both. */
static uint64_t clang_return_address(const struct sp_graph *g, const struct sp_func *f)
{
	const char *producer;

	if (!sp_arch(g->machine)->ret_push)
		return 0;
	if (f->cu >= g->ncus || !(producer = g->cus[f->cu].producer) ||
	    !strstr(producer, "clang"))
		return 0;
	return sp_arch(g->machine)->ret_push;
}

/* As DWARF's names (dwarf/walk.c): relative to the unit's build directory. */
static const char *build_relative(struct sp_graph *g, const char *file, uint32_t cu)
{
	const char *dir = cu < g->ncus ? g->cus[cu].comp_dir : NULL;
	const char *rel = sp_path_in_dir(file, dir);

	return rel == file ? file : sp_intern(g, rel);
}

static void give(struct su_matcher *m, uint32_t ri, uint32_t fi)
{
	const struct su_row *row = &m->s->rows[ri];
	const struct su_rw *r = &m->rw[ri];
	struct sp_func *f = &m->g->funcs[fi];

	m->rw[ri].func = fi;
	m->fn[fi].taken = true;
	sp_frames_add(m->frames, fi, row->qual, row->bytes + clang_return_address(m->g, f));
	f->name = r->name;
	f->file = build_relative(m->g, r->file, f->cu);
	f->line = row->line;
	if (row->col)
		f->col = row->col;
}

enum su_pass { PASS_EXACT, PASS_LOCATION, PASS_SYMBOL, PASS_LTRANS, PASS_GLOBAL };

static uint32_t find_for_row(struct su_matcher *m, uint32_t ri, enum su_pass pass)
{
	const struct su_row *row = &m->s->rows[ri];
	const struct su_rw *r = &m->rw[ri];
	const struct su_chain *c;
	uint32_t i;

	switch (pass) {
	case PASS_EXACT:
	case PASS_LOCATION:
		if (r->cu == SU_NOCU)
			return SP_NONE;
		return best_at(m, &m->loc, loc_key(r->cu, r->base, row->line), r, row,
			       r->cu, pass == PASS_EXACT ? 3 : 0);
	case PASS_SYMBOL:
		/* Clang names the main file even for header functions, but
		 * spells the symbol: find it by name within the unit */
		if (r->cu == SU_NOCU)
			return SP_NONE;
		c = symbols(m);
		for (i = sp_u64map_get(&c->head, sym_key(r->cu, r->name));
		     i != UINT32_MAX; i = c->next[i])
			if (!m->fn[i].taken && m->g->funcs[i].cu == r->cu &&
			    m->fn[i].strip == r->name)
				return i;
		return SP_NONE;
	case PASS_LTRANS:
		/* an LTO image's code was generated at link time: its
		 * partitions' rows go before any compile-time .su of the same
		 * sources, left from an earlier build without -flto */
		if (!m->file_ltrans[row->su_file])
			return SP_NONE;
		return best_at(m, global_locations(m), loc_key(SU_NOCU, r->base, row->line),
			       r, row, SU_NOCU, 1);
	case PASS_GLOBAL:
		/* rows of foreign programs stay out; LTO partitions and
		 * renamed or concatenated files come in */
		if (r->cu == SU_NOCU && !m->file_global[row->su_file])
			return SP_NONE;
		return best_at(m, global_locations(m), loc_key(SU_NOCU, r->base, row->line),
			       r, row, SU_NOCU, 1);
	}
	return SP_NONE;
}

static void match_rows(struct su_matcher *m)
{
	enum su_pass pass;
	size_t ri;

	for (pass = PASS_EXACT; pass <= PASS_GLOBAL; pass++) {
		for (ri = 0; ri < m->s->nrows; ri++) {
			uint32_t fi;

			if (m->rw[ri].func != SP_NONE)
				continue;
			fi = find_for_row(m, (uint32_t)ri, pass);
			if (fi != SP_NONE) {
				give(m, (uint32_t)ri, fi);
				m->g->su_matched++;
			}
		}
	}
}

static void report_unmatched(const struct su_matcher *m, sp_warn_fn verbose, void *ctx)
{
	size_t ri;

	for (ri = 0; verbose && ri < m->s->nrows; ri++) {
		const struct su_row *row = &m->s->rows[ri];
		struct sp_err msg;

		if (m->rw[ri].func != SP_NONE)
			continue;
		sp_err_set(&msg, "%s:%u: no function in the image for '%s'",
			   m->s->paths[row->su_file], row->su_line, row->name);
		verbose(ctx, msg.msg);
	}
}

int su_match(struct sp_graph *g, const struct su_set *s, struct sp_frames *frames,
	     sp_warn_fn verbose, void *verbose_ctx, struct sp_err *err)
{
	struct su_matcher m;
	size_t ri;

	(void)err;	/* nothing here can fail: unmatched rows are not errors */
	memset(&m, 0, sizeof(m));
	m.g = g;
	m.s = s;
	m.frames = frames;
	g->su_rows = s->nrows > UINT32_MAX ? UINT32_MAX : (uint32_t)s->nrows;
	g->su_files = s->npaths;
	g->su_matched = 0;
	index_functions(&m);
	group_rows(&m);
	m.rw = sp_xmalloc((s->nrows ? s->nrows : 1) * sizeof(*m.rw));
	for (ri = 0; ri < s->nrows; ri++)
		describe_row(&m, &m.rw[ri], &s->rows[ri], ri ? &m.rw[ri - 1] : NULL);
	m.file_cu = sp_xmalloc(((size_t)s->npaths + 1) * sizeof(*m.file_cu));
	m.file_ltrans = sp_xcalloc((size_t)s->npaths + 1, sizeof(*m.file_ltrans));
	m.file_global = sp_xcalloc((size_t)s->npaths + 1, sizeof(*m.file_global));
	assign_files(&m);
	for (ri = 0; ri < s->nrows; ri++)
		m.rw[ri].cu = m.file_cu[s->rows[ri].su_file];
	match_rows(&m);
	report_unmatched(&m, verbose, verbose_ctx);

	free(m.rw);
	free(m.file_cu);
	free(m.file_ltrans);
	free(m.file_global);
	free(m.file_rows);
	free(m.file_first);
	chain_release(&m.loc);
	chain_release(&m.gloc);
	chain_release(&m.sym);
	free(m.fn);
	return 0;
}
