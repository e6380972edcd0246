/*
 * sites.c - each indirect call's targets, from what its chain says:
 *
 *	member of a struct	its key's functions (field);
 *	word, table		the functions in its words, and those the code
 *				stores there (table);
 *	a constant		that function (table);
 *	a function type		the address-taken functions of that
 *				prototype's class (sp_proto_class: object
 *				pointers one class, as a cast allows; in a
 *				kernel, the prototype itself, strict()), or
 *				of none known (prototype);
 *	nothing			every address-taken function (address-taken).
 *
 * A key or a word written with a value of unknown origin, or found
 * empty, falls back to the prototype (with what was found: a cast may
 * hide it from the prototype): a member nobody fills in the image is
 * filled some way the analysis does not see; in a kernel, by a module
 * not given (exported.c: exported).  A jump through a table of its own
 * function's code is a switch, not a call.
 */
#include "indirect/run.h"

#include <stdlib.h>
#include <string.h>

#include "common/search.h"
#include "common/strbuf.h"
#include "common/xalloc.h"
#include "indirect/kernel.h"

void ind_type_site(struct ind_image *ims, struct ind_site *s)
{
	struct ind_image *im = &ims[s->image];
	const struct insn_icalls *ic = &im->code->icalls;
	const struct insn_icall *c = &ic->calls[s->icall];

	if (!ind_type_call_chain(im, ic->links + c->link, c->nlinks, &s->t))
		s->t.kind = IND_TK_NONE;
	else if (s->t.kind == IND_TK_KEY && !s->t.alts)
		ind_site_layers(im, ic->links + c->link, c->nlinks, s);
}

const char *ind_func_proto(struct ind_run *r, const struct ind_image *im, uint32_t func)
{
	const struct sp_func *f = &r->g->funcs[func];
	uint64_t die = sp_func_proto_die(f);

	/* a random unit's DIEs, and its abbreviations parsed, otherwise */
	if (f->proto)
		return f->proto;
	return die && im->reader ? dw_func_proto(im->reader, r->g, die) : NULL;
}

/* ---- the fallbacks' functions ---- */

static int by_proto_cmp(const void *pa, const void *pb)
{
	const struct by_proto *a = pa, *b = pb;
	uintptr_t x = (uintptr_t)a->proto, y = (uintptr_t)b->proto;

	if (x != y)
		return (x > y) - (x < y);
	return (a->id > b->id) - (a->id < b->id);
}

const char *ind_proto_key(const struct fallback *fb, struct sp_graph *g, const char *proto)
{
	return fb->strict ? sp_proto_strict(g, proto) : sp_proto_class(g, proto);
}

void ind_fallback_init(struct fallback *fb, struct sp_graph *g, const uint8_t *taken,
		       bool strict)
{
	uint32_t i;

	memset(fb, 0, sizeof(*fb));
	fb->strict = strict;
	fb->all = sp_xmalloc((g->nfuncs + 1) * sizeof(*fb->all));
	fb->typed = sp_xmalloc((g->nfuncs + 1) * sizeof(*fb->typed));
	fb->untyped = sp_xmalloc((g->nfuncs + 1) * sizeof(*fb->untyped));
	fb->cls = sp_xcalloc(g->nfuncs + 1, sizeof(*fb->cls));
	for (i = 0; i < g->nfuncs; i++) {
		if (!taken[i])
			continue;
		fb->all[fb->nall++] = i;
		if (g->funcs[i].proto) {
			fb->cls[i] = ind_proto_key(fb, g, g->funcs[i].proto);
			fb->typed[fb->ntyped].proto = fb->cls[i];
			fb->typed[fb->ntyped++].id = i;
		} else if (!(g->funcs[i].flags & SP_F_OBJECT_DECL)) {
			fb->untyped[fb->nuntyped++] = i;
		}
	}
	if (fb->ntyped)
		qsort(fb->typed, fb->ntyped, sizeof(*fb->typed), by_proto_cmp);

}

void ind_fallback_release(struct fallback *fb)
{
	free(fb->all);
	free(fb->typed);
	free(fb->untyped);
	free(fb->cls);
}

static uint64_t typed_key(const void *base, size_t i)
{
	return (uintptr_t)((const struct by_proto *)base)[i].proto;
}

/* ---- one site's targets ---- */

void ids_add(struct ids *x, uint32_t id)
{
	SP_ALLOC_GROW(x->v, x->n + 1, x->cap);
	x->v[x->n++] = id;
}

void ind_proto_typed(const struct fallback *fb, const char *cls, struct ids *out)
{
	size_t i = sp_search_first_ge(fb->typed, fb->ntyped, typed_key, (uintptr_t)cls);

	for (; i < fb->ntyped && fb->typed[i].proto == cls; i++)
		ids_add(out, fb->typed[i].id);
}

void ind_proto_targets(const struct fallback *fb, const char *cls, struct ids *out)
{
	uint32_t k;

	ind_proto_typed(fb, cls, out);
	for (k = 0; k < fb->nuntyped; k++)
		ids_add(out, fb->untyped[k]);
}

static bool word_targets_at(const struct ind_run *r, uint32_t image, const struct ind_target *t,
			    struct ids *out, int depth);

/* The stores to fixed addresses by address (ind_add_sites sorts them):
 * a word's are found by a search, not a pass over all of them for each
 * site through a global word or table. */
static int abs_cmp(const void *pa, const void *pb)
{
	const struct ind_abs_store *a = pa, *b = pb;

	if (a->addr != b->addr)
		return (a->addr > b->addr) - (a->addr < b->addr);
	return (a->image > b->image) - (a->image < b->image);
}

static uint64_t abs_addr(const void *base, size_t i)
{
	return ((const struct ind_abs_store *)base)[i].addr;
}

/* Global words copied into each other followed this deep: a word copied
 * into itself (through another) says no more. */
#define MAX_WORD_COPIES 4

/* The functions a store at a fixed address puts there: its constant, or
 * what the member or the global word it copies holds, as a call through
 * that one finds them; false when that is not known (a value of unknown
 * origin, a member that escaped or that nothing in the images fills, a
 * word with such a store). */
static bool abs_store_targets(const struct ind_run *r, const struct ind_abs_store *s,
			      struct ids *out, int depth)
{
	const struct ind_key *k;
	uint32_t i;

	if (s->func != SP_NONE) {
		ids_add(out, s->func);
		return true;
	}
	if (s->from_first) {
		struct ind_target w = { .kind = IND_TK_WORD, .key = SP_NONE,
					.first = s->from_first, .end = s->from_end };

		return depth < MAX_WORD_COPIES && word_targets_at(r, s->image, &w, out, depth + 1);
	}
	if (s->from == SP_NONE)
		return false;
	k = &r->keys.v[s->from];
	if (k->escaped || k->module || !k->ntargets)
		return false;
	for (i = 0; i < k->ntargets; i++)
		ids_add(out, k->targets[i]);
	return true;
}

/* The words of a WORD or TABLE target, and the stores to them; false
 * when a store of a value of unknown origin adds more. */
static bool word_targets_at(const struct ind_run *r, uint32_t image, const struct ind_target *t,
			    struct ids *out, int depth)
{
	const struct ind_image *im = &r->ims[image];
	uint64_t a, step = t->kind == IND_TK_TABLE ? t->stride : 0;
	bool known = true;
	size_t i;

	for (a = t->first; a + im->data.word <= t->end || a == t->first; a += step) {
		uint64_t word;
		uint32_t id;

		if (ind_data_word(&im->data, a, &word) && (id = ind_func_at(im, word)) != SP_NONE)
			ids_add(out, id);
		if (!step)
			break;
	}
	for (i = sp_search_first_ge(r->abs, r->nabs, abs_addr, t->first);
	     i < r->nabs && r->abs[i].addr < t->end; i++) {
		const struct ind_abs_store *s = &r->abs[i];

		if (s->image != image || s->addr < t->first || s->addr >= t->end ||
		    (step ? (s->addr - t->first) % step : s->addr != t->first))
			continue;
		if (!abs_store_targets(r, s, out, depth))
			known = false;
	}
	return known;
}

static bool word_targets(const struct ind_run *r, uint32_t image, const struct ind_target *t,
			 struct ids *out)
{
	return word_targets_at(r, image, t, out, 0);
}

void ind_abs_sort(struct ind_run *r)
{
	if (r->nabs)
		qsort(r->abs, r->nabs, sizeof(*r->abs), abs_cmp);
}

/*
 * The functions a word loaded from a fixed address holds (links[0..n):
 * the load, a GLOBAL or TABLE root or a LOAD of a CONST), as a call
 * through it finds them, typed into *t: the table's
 * words (every word of the column a scaled load may read) and the
 * stores to them, into out.  False when that is not known: a store
 * there of anything but a constant function, no function at all, or a writable
 * table of a named struct's elements (a store through a typed pointer
 * writes it too: its key's functions are not all known while stores
 * are applied).  An anonymous struct's table (trace_clocks[]) has no
 * key: a function stored through a pointer to it goes where no type
 * tells, to every key of its prototype.
 */
bool ind_load_targets(struct ind_run *r, uint32_t image, const struct insn_link *links,
		      uint8_t nlinks, struct ind_target *t, struct ids *out)
{
	struct ind_image *im = &r->ims[image];
	const struct insn_link *root = &links[nlinks - 1];
	uint64_t addr = (uint64_t)root->disp + (nlinks > 1 ? (uint64_t)links[0].disp : 0);
	uint8_t scale = links[0].scale;
	const struct ind_var *var = ind_var_at(im, addr);
	const struct ind_section *sec;
	uint32_t n = out->n;
	size_t i;

	if (!var && scale)
		var = ind_var_at(im, addr + scale);
	if (!var || !im->reader)
		return false;
	ind_seek_unit(im, var->die);
	memset(t, 0, sizeof(*t));
	t->key = SP_NONE;
	if (!ind_type_chain(im, links, nlinks, t) ||
	    (t->kind != IND_TK_WORD && t->kind != IND_TK_TABLE))
		return false;
	sec = ind_data_section(&im->data, t->first);
	if (t->key != SP_NONE && (!sec || sec->writable))
		return false;
	/* a store there of a copy: what it copies is known once the
	 * members' flows are, after the stores */
	for (i = sp_search_first_ge(r->abs, r->nabs, abs_addr, t->first);
	     i < r->nabs && r->abs[i].addr < t->end; i++)
		if (r->abs[i].image == image && r->abs[i].func == SP_NONE)
			return false;
	if (!word_targets(r, image, t, out)) {
		out->n = n;
		return false;
	}
	return out->n > n;
}

/*
 * The member a load of function caller's code reads (links[0..n): the
 * load to its root, insn_arg_load's), typed as a chain of its own is,
 * with caller's locations: its key into *key; false when it is no
 * member (a word, a prototype alone, nothing).
 */
bool ind_member_load(struct ind_run *r, uint32_t image, uint32_t caller,
		     const struct insn_link *links, uint8_t n, uint32_t *key)
{
	struct ind_image *im = &r->ims[image];
	const struct sp_func *f = &r->g->funcs[caller];
	uint64_t pcs[3 * IND_MAX_LINKS];
	struct ind_target t;
	size_t npcs = 0;
	uint8_t k;
	bool ok;

	if (!f->die || !im->reader || n > IND_MAX_LINKS)
		return false;
	for (k = 0; k < n; k++) {
		pcs[npcs++] = links[k].pc;
		if (links[k].via)
			pcs[npcs++] = links[k].via;
		if (links[k].src == INSN_SRC_REG && links[k].entry)
			pcs[npcs++] = (uint64_t)links[k].disp;
		else if (links[k].src == INSN_SRC_FRAME || links[k].src == INSN_SRC_STACK)
			pcs[npcs++] = links[k].pc + (uint64_t)(int64_t)links[k].back;
	}
	ind_seek_unit(im, f->die);
	ind_locs_defer(&im->locs, f, caller, pcs, npcs);
	memset(&t, 0, sizeof(t));
	t.key = SP_NONE;
	ok = ind_type_chain(im, links, n, &t) && t.kind == IND_TK_KEY && t.key != SP_NONE;
	ind_locs_defer(&im->locs, NULL, SP_NONE, NULL, 0);
	*key = t.key;
	return ok;
}

/* Is a jump through these words a switch: do they all land inside the
 * caller, none at a function's entry? */
static bool is_switch(const struct ind_run *r, const struct ind_site *s)
{
	const struct ind_image *im = &r->ims[s->image];
	const struct sp_func *f;
	uint64_t a, word;
	bool any = false;

	if (s->func == SP_NONE || (s->t.kind != IND_TK_TABLE && s->t.kind != IND_TK_WORD) ||
	    !im->code->icalls.calls[s->icall].tail)
		return false;
	f = &r->g->funcs[s->func];
	for (a = s->t.first; a + im->data.word <= s->t.end; a += s->t.stride ? s->t.stride : 1) {
		if (!ind_data_word(&im->data, a, &word) || !word)
			continue;
		if (word <= f->addr || word >= f->addr + f->size)
			return false;
		any = true;
		if (!s->t.stride)
			break;
	}
	return any;
}

static const char *var_name(const struct ind_run *r, uint32_t image, uint64_t addr)
{
	const struct ind_image *im = &r->ims[image];
	const struct ind_var *v = ind_var_at(im, addr);

	return v && im->reader ? dw_die_name(im->reader, r->g, v->die) : NULL;
}

static const char *key_desc(struct ind_run *r, uint32_t key)
{
	const struct ind_key *k = &r->keys.v[key];
	struct sp_strbuf sb = { 0 };
	const char *s;

	sp_strbuf_addf(&sb, "struct %s.%s", k->name, k->member ? k->member : "?");
	s = sp_intern(r->g, sb.buf);
	free(sb.buf);
	return s;
}

/* A member narrowed by the objects its outer member holds: "struct
 * trace_event_functions.trace via struct trace_event_call". */
static const char *layers_desc(struct ind_run *r, const struct ind_site *s, const char *desc)
{
	struct sp_strbuf sb = { 0 };
	const char *d;

	sp_strbuf_addf(&sb, "%s via struct %s", desc, r->pkeys.v[s->path[0]].name);
	d = sp_intern(r->g, sb.buf);
	free(sb.buf);
	return d;
}

/*
 * A union of several function types (the kernel's LSM hooks: union
 * security_list_options, one member per hook) is one key: its data and
 * stores do not say which member they fill.  A wrapper calls the hook of
 * its own prototype (security_file_open() calls hook.file_open), so when
 * one member has the caller's prototype, the functions of that prototype
 * are its targets (and those of unknown prototype); else all of them.
 */
static bool union_targets(struct ind_run *r, const struct ind_site *s, const struct ind_key *k,
			  struct ids *out, const char **desc)
{
	struct ind_image *im = &r->ims[s->image];
	const char *proto = ind_func_proto(r, im, s->func);
	const char *member = ind_union_member(&im->types, s->t.alts, proto);
	struct sp_strbuf sb = { 0 };
	uint32_t i;

	if (!member)
		return false;
	for (i = 0; i < k->ntargets; i++) {
		const char *p = r->g->funcs[k->targets[i]].proto;

		if (!p || p == proto)
			ids_add(out, k->targets[i]);
	}
	sp_strbuf_addf(&sb, "union %s.%s", k->name, member);
	*desc = sp_intern(r->g, sb.buf);
	free(sb.buf);
	return true;
}

/* A call that is one of several members (a container_of the unit's
 * structs do not settle, IND_TK_KEYS): the union of their functions,
 * when each member says what it holds (none escaped, empty or filled by
 * a module); else nothing is added. */
static enum sp_resolved any_targets(struct ind_run *r, const struct ind_target *t,
				    struct ids *out, const char **desc)
{
	struct sp_strbuf sb = { 0 };
	uint32_t i, n = out->n;
	uint8_t a;

	for (a = 0; a < t->nany; a++) {
		const struct ind_key *k = &r->keys.v[t->any[a]];

		if (k->escaped || k->module || !k->ntargets) {
			out->n = n;
			free(sb.buf);
			return SP_RES_NONE;
		}
		for (i = 0; i < k->ntargets; i++)
			ids_add(out, k->targets[i]);
		sp_strbuf_addf(&sb, "%s%s", a ? " | " : "", key_desc(r, t->any[a]));
	}
	*desc = sp_intern(r->g, sb.buf);
	free(sb.buf);
	return SP_RES_FIELD;
}

/* What a typed chain gives; how it was resolved. */
static enum sp_resolved precise_targets(struct ind_run *r, const struct ind_site *s,
					struct ids *out, const char **desc)
{
	const struct ind_target *t = &s->t;
	const struct ind_image *im = &r->ims[s->image];
	const struct ind_section *sec;
	const struct ind_key *k = t->key != SP_NONE ? &r->keys.v[t->key] : NULL;
	uint32_t id, i;

	switch (t->kind) {
	case IND_TK_KEY:
		*desc = key_desc(r, t->key);
		if (t->alts && !k->escaped && !k->module && ind_hook_targets(r, s, k, out, desc))
			return SP_RES_FIELD;
		if (t->alts && !k->escaped && union_targets(r, s, k, out, desc))
			return SP_RES_FIELD;
		if (ind_layer_targets(r, s, k, out)) {
			*desc = layers_desc(r, s, *desc);
			r->stats->narrowed++;
			return SP_RES_FIELD;
		}
		for (i = 0; i < k->ntargets; i++)
			ids_add(out, k->targets[i]);
		return k->escaped || !k->ntargets ? SP_RES_NONE : SP_RES_FIELD;
	case IND_TK_WORD:
	case IND_TK_TABLE:
		if (!word_targets(r, s->image, t, out))
			return SP_RES_NONE;
		/* writable: what is stored through a typed pointer counts too */
		sec = ind_data_section(&im->data, t->first);
		if (k && (!sec || sec->writable)) {
			for (i = 0; i < k->ntargets; i++)
				ids_add(out, k->targets[i]);
			if (k->escaped || k->module)
				return SP_RES_NONE;
		}
		if (!out->n)
			return SP_RES_NONE;
		*desc = var_name(r, s->image, t->var);
		/* the kernel's paravirt calls, apart from the tables they
		 * outnumber: .parainstructions patches each into a direct
		 * call of what pv_ops holds, or its code inlined */
		return *desc && !strcmp(*desc, "pv_ops") ? SP_RES_PARAVIRT : SP_RES_TABLE;
	case IND_TK_KEYS:
		return any_targets(r, t, out, desc);
	case IND_TK_CONST:
		if ((id = ind_func_at(im, t->addr)) == SP_NONE)
			return SP_RES_NONE;
		ids_add(out, id);
		return SP_RES_TABLE;
	}
	return SP_RES_NONE;
}

/* A word or table that nothing but the stores the store pass reads can
 * write (unwritten.c), whose data and those stores hold no function: it
 * holds its initial NULL, and no call goes through it. */
static bool unwritten_null(struct ind_run *r, struct ind_kernel *kern,
			   const struct ind_site *s, const char **desc)
{
	struct ids found = { 0 };
	bool empty;

	if (s->t.kind != IND_TK_WORD && s->t.kind != IND_TK_TABLE)
		return false;
	empty = word_targets(r, s->image, &s->t, &found) && !found.n &&
		ind_unwritten(r, kern->kernel_image, s->image, &s->t);
	free(found.v);
	if (empty)
		*desc = var_name(r, s->image, s->t.var);
	return empty;
}

static enum sp_resolved site_targets(struct ind_run *r, const struct fallback *fb,
				     struct ind_kernel *kern, const struct ind_site *s,
				     struct ids *out, const char **desc)
{
	uint32_t first = out->n, n, i, outside;
	enum sp_resolved how = precise_targets(r, s, out, desc);
	const uint32_t *v;

	if (how == SP_RES_FIELD && s->t.kind == IND_TK_KEY && r->keys.v[s->t.key].module)
		how = ind_exported_module(kern, s, out, desc);
	if (how == SP_RES_FIELD)
		ind_bpf_map_helper(kern, s, out, first);
	if (how == SP_RES_NONE)
		how = ind_kernel_targets(kern, s, out, desc);
	if (how == SP_RES_NONE && unwritten_null(r, kern, s, desc))
		return SP_RES_TABLE;
	/* what was found stays: a member written with a value of unknown
	 * origin still holds what its data and the known stores put there */
	if (how != SP_RES_NONE)
		return how;
	if (ind_arg_targets(r->args, s, &v, &n, &outside)) {
		*desc = s->t.proto;
		for (i = 0; i < n; i++)
			ids_add(out, v[i]);
		if (outside == SP_NONE)
			return SP_RES_ARGUMENT;
		ind_exported_args(kern, outside, s->t.proto, out);
		return SP_RES_EXPORTED;
	}
	if ((how = ind_exported_targets(kern, s, out, desc)) != SP_RES_NONE)
		return how;
	if (s->t.proto) {
		*desc = s->t.proto;
		ind_proto_targets(fb, ind_proto_key(fb, r->g, s->t.proto), out);
		return SP_RES_PROTOTYPE;
	}
	*desc = NULL;
	return SP_RES_ADDRESS_TAKEN;
}

static bool plain(enum sp_resolved how)
{
	return how == SP_RES_FIELD || how == SP_RES_TABLE;
}

/* A joined site's paths that fall back to their prototype: their classes
 * (insn_icall.nways is at most 8). */
struct join {
	bool protos;		/* such paths are taken */
	uint8_t ncls;
	const char *cls[8];
};

/* Is site s's chain a constant NULL, through copies: one path's xor
 * %r13d,%r13d (klist_next()'s put = NULL when the node is gone, a
 * call only when put is set)?  No call goes through it. */
static bool null_way(const struct ind_run *r, const struct ind_site *s)
{
	const struct insn_icalls *ic = &r->ims[s->image].code->icalls;
	const struct insn_icall *c = &ic->calls[s->icall];
	const struct insn_link *l = ic->links + c->link;
	uint8_t k = 0;

	while (k + 1 < c->nlinks && l[k].src == INSN_SRC_MOVE)
		k++;
	return c->nlinks && k + 1 == c->nlinks && l[k].src == INSN_SRC_CONST && !l[k].disp;
}

/*
 * A call whose chain ends where several paths' writes meet (GCC's
 * cross-jumping), its paths' chains the nways sites after r->sites[site]
 * (insn_icall.way): when each path's says what it holds (nothing falls
 * back to a prototype or every address-taken function), the union of
 * theirs, else SP_RES_NONE.  Resolved as the paths are when they agree,
 * else as the first that is neither a field nor a table; the type is
 * each path's, " | " between different ones.  With j->protos (the call's
 * own chain knows nothing), a path may fall back to its prototype: the
 * site is then a prototype site of the union, each such path's class in
 * j->cls (what each path may hold is still all the register may).
 */
static enum sp_resolved join_targets(struct ind_run *r, const struct fallback *fb,
				     struct ind_kernel *kern, size_t site, uint8_t nways,
				     struct ids *out, const char **desc, struct join *j)
{
	enum sp_resolved how = SP_RES_NONE;
	struct sp_strbuf sb = { 0 };
	const char *first = NULL;
	bool same = true, first_way = true;
	uint32_t n = out->n;
	size_t k;

	for (k = site + 1; k <= site + nways; k++) {
		const char *d = NULL;
		enum sp_resolved w;

		if (null_way(r, &r->sites[k]))
			continue;	/* a NULL: no call */
		w = site_targets(r, fb, kern, &r->sites[k], out, &d);

		if (w == SP_RES_ADDRESS_TAKEN || (w == SP_RES_PROTOTYPE && !j->protos)) {
			free(sb.buf);
			return SP_RES_NONE;
		}
		if (w == SP_RES_PROTOTYPE)
			j->cls[j->ncls++] = ind_proto_key(fb, r->g, d);
		if (how == SP_RES_NONE || (plain(how) && !plain(w)) || w == SP_RES_PROTOTYPE)
			how = w;
		if (!d && out->n == n + 1)	/* a constant: its function */
			d = r->g->funcs[out->v[n]].name;
		n = out->n;
		if (first_way)
			first = d;
		same &= d == first;
		sp_strbuf_addf(&sb, "%s%s", first_way ? "" : " | ", d ? d : "?");
		first_way = false;
	}
	*desc = same ? first : sp_intern(r->g, sb.buf);
	free(sb.buf);
	return how;
}

/* Site i's targets into x: its chain's, or where they fall back, its
 * paths' (join_targets, into ways) when each path's chain says, or, when
 * the call's own says nothing, at least each path's prototype. */
static enum sp_resolved call_targets(struct ind_run *r, const struct fallback *fb,
				     struct ind_kernel *kern, size_t i, struct ids *x,
				     struct ids *ways, const char **desc, struct join *j)
{
	const struct ind_site *s = &r->sites[i];
	const struct insn_icall *c = &r->ims[s->image].code->icalls.calls[s->icall];
	enum sp_resolved how = site_targets(r, fb, kern, s, x, desc), joined;
	const char *jdesc = NULL;
	struct ids tmp;

	j->ncls = 0;
	if (!c->nways || (how != SP_RES_PROTOTYPE && how != SP_RES_ADDRESS_TAKEN))
		return how;
	ways->n = 0;
	j->protos = how == SP_RES_ADDRESS_TAKEN;
	if ((joined = join_targets(r, fb, kern, i, c->nways, ways, &jdesc, j)) == SP_RES_NONE) {
		j->ncls = 0;
		return how;
	}
	*desc = jdesc;
	tmp = *x;
	*x = *ways;
	*ways = tmp;
	return joined;
}

/* Why site s, resolved by prototype, found nothing narrower. */
static enum ind_why proto_why(const struct ind_run *r, const struct ind_site *s)
{
	const struct insn_icalls *ic = &r->ims[s->image].code->icalls;
	const struct insn_icall *c = &ic->calls[s->icall];
	const struct ind_key *k;

	if (s->t.kind == IND_TK_KEY && s->t.key != SP_NONE) {
		k = &r->keys.v[s->t.key];
		return k->escaped ? IND_WHY_ESCAPED : k->local ? IND_WHY_LOCAL : IND_WHY_EMPTY;
	}
	if (s->t.kind == IND_TK_WORD || s->t.kind == IND_TK_TABLE)
		return IND_WHY_WORD;
	return insn_entry_reg(ic->links + c->link, c->nlinks) != INSN_REG_NONE ?
	       IND_WHY_ARGUMENT : IND_WHY_TYPE;
}

/* ---- into the graph ---- */

/* Per caller and kind, each target once: stamp[to] is the last caller
 * (+1) that got it. */
struct edger {
	struct sp_graph *g;
	uint32_t *stamp[2];
	uint32_t hub;		/* the stand-in for every address-taken function */
	uint32_t untyped;	/* ... for those of no known prototype */
	struct sp_u64map proto_hubs;	/* prototype -> its stand-in */
	struct ids scratch;
	uint64_t added;
};

static void add_edges(struct edger *e, uint32_t from, bool tail, const uint32_t *ids, uint32_t n,
		      enum sp_resolved how, uint64_t pc)
{
	uint32_t *stamp = e->stamp[tail], i;

	for (i = 0; i < n; i++) {
		struct sp_edge *x;

		if (stamp[ids[i]] == from + 1)
			continue;
		stamp[ids[i]] = from + 1;
		sp_graph_add_edge(e->g, from, ids[i], tail ? SP_EDGE_TAIL : SP_EDGE_CALL, pc);
		x = &e->g->edges[e->g->nedges - 1];
		x->flags = SP_EDGE_F_ASSUMED;
		x->how = (uint8_t)how;
		e->added++;
	}
}

/*
 * Stand-ins: the calls of which nothing is known go to every
 * address-taken function through one node, those of which only the
 * prototype is known through one node per prototype (which reaches the
 * functions of unknown prototype through another): a site's thousand
 * edges become one, and each stand-in's are made once.  A stand-in has
 * no frame.
 */
static uint32_t new_hub(struct edger *e, const char *name, const uint32_t *ids, uint32_t n,
			uint32_t also)
{
	uint32_t hub = sp_graph_add_func(e->g), i;
	struct sp_func *f = &e->g->funcs[hub];

	f->name = sp_intern(e->g, name);
	f->flags = SP_F_ANY_TAKEN;
	f->qual = SP_QUAL_STATIC;
	f->src = SP_SRC_NONE;
	for (i = 0; i <= n; i++) {
		uint32_t to = i < n ? ids[i] : also;
		struct sp_edge *x;

		if (to == SP_NONE)
			continue;
		sp_graph_add_edge(e->g, hub, to, SP_EDGE_CALL, 0);
		x = &e->g->edges[e->g->nedges - 1];
		x->flags = SP_EDGE_F_ASSUMED;
		x->how = i < n && also == SP_NONE && name[1] == 'a' ? SP_RES_ADDRESS_TAKEN :
			 SP_RES_PROTOTYPE;
		e->added++;
	}
	return hub;
}

static uint32_t any_taken(struct edger *e, const struct fallback *fb)
{
	if (e->hub == SP_NONE)
		e->hub = new_hub(e, "<address-taken>", fb->all, fb->nall, SP_NONE);
	return e->hub;
}

/* The stand-in of prototype class cls. */
static uint32_t proto_hub(struct edger *e, const struct fallback *fb, const char *cls)
{
	uint32_t hub = sp_u64map_get(&e->proto_hubs, (uintptr_t)cls);
	struct sp_strbuf sb = { 0 };
	size_t i, k;

	if (hub != SP_NONE)
		return hub;
	if (e->untyped == SP_NONE && fb->nuntyped)
		e->untyped = new_hub(e, "<prototype unknown>", fb->untyped, fb->nuntyped,
				     SP_NONE);
	i = sp_search_first_ge(fb->typed, fb->ntyped, typed_key, (uintptr_t)cls);
	for (k = i; k < fb->ntyped && fb->typed[k].proto == cls; k++)
		;
	sp_strbuf_addf(&sb, "<prototype %s>", cls);
	/* the group's ids, one after the other in typed[] */
	e->scratch.n = 0;
	for (; i < k; i++)
		ids_add(&e->scratch, fb->typed[i].id);
	hub = new_hub(e, sb.buf, e->scratch.v, e->scratch.n, e->untyped);
	free(sb.buf);
	sp_u64map_put(&e->proto_hubs, (uintptr_t)cls, hub);
	return hub;
}

static void add_hub(struct edger *e, uint32_t hub, uint32_t from, bool tail,
		    enum sp_resolved how, uint64_t pc)
{
	add_edges(e, from, tail, &hub, 1, how, pc);
}

static bool among(const char *const *v, uint8_t n, const char *p)
{
	uint8_t i;

	for (i = 0; i < n; i++)
		if (v[i] == p)
			return true;
	return false;
}

/* A prototype site: the functions found, and the stand-ins of its
 * prototype classes cls[0, ncls). */
static void add_proto_edges(struct edger *e, const struct fallback *fb,
			    const struct ind_site *s, const struct insn_icall *c,
			    const struct ids *x, const char *const *cls, uint8_t ncls)
{
	uint32_t i;

	for (i = 0; i < x->n; i++) {
		const char *p = fb->cls[x->v[i]];

		/* the stand-ins have those of their class, and of none */
		if (p && !among(cls, ncls, p))
			add_edges(e, s->func, c->tail, &x->v[i], 1, SP_RES_PROTOTYPE, c->ret);
	}
	for (i = 0; i < ncls; i++)
		add_hub(e, proto_hub(e, fb, cls[i]), s->func, c->tail, SP_RES_PROTOTYPE, c->ret);
}

static int isite_cmp(const void *pa, const void *pb)
{
	const struct sp_isite *a = pa, *b = pb;

	if (a->func != b->func)
		return (a->func > b->func) - (a->func < b->func);
	return (a->addr > b->addr) - (a->addr < b->addr);
}

static void record(struct ind_run *r, const struct fallback *fb, uint32_t func, uint64_t addr,
		   bool tail, enum sp_resolved how, const char *desc, struct ids *x)
{
	struct sp_isite *is = sp_graph_add_isite(r->g);

	is->func = func;
	is->addr = addr;
	is->tail = tail;
	is->how = (uint8_t)how;
	is->type = desc;
	if (how == SP_RES_ADDRESS_TAKEN)
		is->ntargets = fb->nall;
	else
		sp_graph_set_isite_targets(r->g, is, x->v, x->n);
	r->stats->sites++;
	r->stats->by[how]++;
	r->stats->targets[how] += is->ntargets;
}

/* A function DWARF says has more indirect calls than its code showed
 * (code not decoded, a call the chain pass missed): one more site, at no
 * known address, that may call any address-taken function. */
static void unseen_sites(struct ind_run *r, const struct fallback *fb, struct edger *e,
			 const uint32_t *seen, uint32_t nfuncs)
{
	uint32_t i;

	for (i = 0; i < nfuncs; i++) {
		struct sp_func *f = &r->g->funcs[i];

		if (f->flags & SP_F_ANY_TAKEN)
			continue;
		if (f->n_indirect > seen[i]) {
			record(r, fb, i, 0, false, SP_RES_ADDRESS_TAKEN, NULL, NULL);
			if (fb->nall)
				add_hub(e, any_taken(e, fb), i, false, SP_RES_ADDRESS_TAKEN, 0);
		}
		if (seen[i] > f->n_indirect)
			f->n_indirect = seen[i];
		if (f->n_indirect)
			f->flags |= SP_F_INDIRECT_ASSUMED;
	}
}

/* Site s's edges, from its function (when a static call's, s and c are
 * the trampoline's); j: a joined site's prototype classes, or NULL. */
static void site_edges(struct edger *e, const struct fallback *fb, const struct ind_site *s,
		       const struct insn_icall *c, enum sp_resolved how, const struct ids *x,
		       const struct join *j)
{
	const char *cls;

	if (how == SP_RES_ADDRESS_TAKEN && fb->nall)
		add_hub(e, any_taken(e, fb), s->func, c->tail, how, c->ret);
	else if (how == SP_RES_PROTOTYPE && j && j->ncls)
		add_proto_edges(e, fb, s, c, x, j->cls, j->ncls);
	else if (how == SP_RES_PROTOTYPE) {
		cls = ind_proto_key(fb, e->g, s->t.proto);
		add_proto_edges(e, fb, s, c, x, &cls, 1);
	}
	else
		add_edges(e, s->func, c->tail, x->v, x->n, how, c->ret);
}

/* What one updater call gives one trampoline: targets[first, +n). */
struct sc_part {
	uint32_t tramp, site;
	uint8_t how;		/* STATIC_CALL, or the site's fallback */
	uint32_t first, n;
};

struct sc_parts {
	struct sc_part *v;
	size_t n, cap;
	struct ids targets;
};

static int sc_part_cmp(const void *pa, const void *pb)
{
	const struct sc_part *a = pa, *b = pb;

	if (a->tramp != b->tramp)
		return (a->tramp > b->tramp) - (a->tramp < b->tramp);
	return (a->site > b->site) - (a->site < b->site);
}

/* A call of an updater (static_call.c): what its func argument may be,
 * by DWARF's value, the code's constants, or as a site through it, for
 * each trampoline it may update. */
static void sc_update(struct ind_run *r, const struct fallback *fb, struct ind_kernel *kern,
		      uint32_t site, struct sc_parts *p, struct ids *x, struct ids *tramps)
{
	const struct ind_site *s = &r->sites[site];
	const char *desc;
	uint32_t i;

	tramps->n = 0;
	if (!ind_sc_tramp(r, s, tramps))
		ind_sc_tramps(r, s, tramps);
	for (i = 0; i < tramps->n; i++) {
		struct sc_part *q;

		SP_ALLOC_GROW(p->v, p->n + 1, p->cap);
		q = &p->v[p->n++];
		q->tramp = tramps->v[i];
		q->site = site;
		q->how = SP_RES_STATIC_CALL;
		q->first = p->targets.n;
		x->n = 0;
		if (!ind_sc_tracepoint(r, s, q->tramp, x) && !ind_sc_value(r, s, x)) {
			enum sp_resolved how = site_targets(r, fb, kern, s, x, &desc);

			if (how == SP_RES_PROTOTYPE || how == SP_RES_ADDRESS_TAKEN)
				q->how = (uint8_t)how;
		}
		for (q->n = 0; q->n < x->n; q->n++)
			ids_add(&p->targets, x->v[q->n]);
	}
}

/*
 * Each trampoline an updater call may point elsewhere is a site of its
 * own (a jump, at no address), named by its key __SCK__NAME: it reaches
 * what every such call gives it, or, when one falls back, the
 * prototype's or every address-taken function too.
 */
static void sc_sites(struct ind_run *r, const struct fallback *fb, struct edger *e,
		     struct sc_parts *p, struct ids *x)
{
	size_t i, k;

	if (p->n)
		qsort(p->v, p->n, sizeof(*p->v), sc_part_cmp);
	for (i = 0; i < p->n; i = k) {
		struct sp_func *f = &r->g->funcs[p->v[i].tramp];
		struct ind_site ts = r->sites[p->v[i].site];
		struct insn_icall c = { .tail = true };
		enum sp_resolved how = SP_RES_STATIC_CALL;
		struct sp_strbuf key = { 0 };
		const char *desc;
		uint32_t j;

		x->n = 0;
		for (k = i; k < p->n && p->v[k].tramp == p->v[i].tramp; k++) {
			for (j = 0; j < p->v[k].n; j++)
				ids_add(x, p->targets.v[p->v[k].first + j]);
			if (p->v[k].how == SP_RES_ADDRESS_TAKEN ||
			    (p->v[k].how == SP_RES_PROTOTYPE && how == SP_RES_STATIC_CALL)) {
				how = (enum sp_resolved)p->v[k].how;
				ts = r->sites[p->v[k].site];	/* its prototype */
			}
		}
		x->n = ind_unique_ids(x->v, x->n);
		ts.func = p->v[i].tramp;
		sp_strbuf_addf(&key, "__SCK__%s", f->name + (strncmp(f->name, "__SCT__", 7) ? 0 : 7));
		desc = how == SP_RES_PROTOTYPE ? ts.t.proto : sp_intern(r->g, key.buf);
		free(key.buf);
		record(r, fb, ts.func, 0, true, how, how == SP_RES_ADDRESS_TAKEN ? NULL : desc, x);
		site_edges(e, fb, &ts, &c, how, x, NULL);
		if (how == SP_RES_ADDRESS_TAKEN)	/* the hub has them, but say them */
			add_edges(e, ts.func, true, x->v, x->n, SP_RES_STATIC_CALL, 0);
		f->n_indirect++;
		f->flags |= SP_F_INDIRECT_ASSUMED;
	}
}

/*
 * Does a prototype site reach only the functions of its own prototype
 * (sp_proto_strict), not of its class?  In a kernel, every image one's
 * (vmlinux, its modules): C leaves a call through a pointer of another
 * function type undefined (C11 6.3.2.3p8), GCC refuses the conversion
 * without a cast (-Werror=incompatible-pointer-types), and the kernel's
 * kCFI (CONFIG_CFI_CLANG, x86-64 since 6.1, arm64 since 5.13) traps
 * such a call at run time, so the kernel has none: a callback is
 * declared of the prototype it is called through.  Assumed: a cast
 * kCFI builds never run could still hide one.  A program keeps the
 * class: its casts (qsort's comparators) are not checked.
 */
static bool strict(const struct ind_kernel *kern)
{
	size_t i;

	for (i = 0; kern->kernel && i < kern->r->nims; i++)
		if (!kern->kernel_image[i])
			return false;
	return kern->kernel;
}

int ind_add_sites(struct ind_run *r, struct ind_kernel *kern, struct sp_err *err)
{
	struct sp_graph *g = r->g;
	struct fallback fb;
	struct edger e = { .g = g, .hub = SP_NONE, .untyped = SP_NONE };
	struct ids x = { 0 }, ways = { 0 }, updates = { 0 }, tramps = { 0 };
	struct sc_parts parts = { 0 };
	struct join join;
	uint32_t nfuncs = g->nfuncs, *seen = sp_xcalloc(nfuncs + 1, sizeof(*seen));
	size_t i;

	(void)err;
	ind_fallback_init(&fb, g, r->taken, strict(kern));
	ind_kernel_ready(kern, &fb);
	/* room for the stand-ins: at most one per site, two, and <bpf jit> */
	e.stamp[0] = sp_xcalloc(g->nfuncs + r->nsites + 4, sizeof(uint32_t));
	e.stamp[1] = sp_xcalloc(g->nfuncs + r->nsites + 4, sizeof(uint32_t));
	sp_u64map_init(&e.proto_hubs, 256);
	ind_abs_sort(r);
	for (i = 0; i < r->nsites; i++) {
		const struct ind_site *s = &r->sites[i];
		const struct insn_icall *c = &r->ims[s->image].code->icalls.calls[s->icall];
		const char *desc = NULL;
		enum sp_resolved how;

		if (s->func == SP_NONE || c->way)	/* a path of the site before it */
			continue;
		if (c->update) {	/* once every site's edges are in */
			ids_add(&updates, (uint32_t)i);
			continue;
		}
		if (is_switch(r, s)) {
			r->stats->switches++;
			continue;
		}
		x.n = 0;
		how = call_targets(r, &fb, kern, i, &x, &ways, &desc, &join);
		if (how == SP_RES_PROTOTYPE)
			r->stats->why[proto_why(r, s)]++;
		x.n = ind_unique_ids(x.v, x.n);
		seen[s->func]++;
		record(r, &fb, s->func, c->pc, c->tail, how, desc, &x);
		site_edges(&e, &fb, s, c, how, &x, &join);
	}
	unseen_sites(r, &fb, &e, seen, nfuncs);
	for (i = 0; i < updates.n; i++)
		sc_update(r, &fb, kern, updates.v[i], &parts, &x, &tramps);
	sc_sites(r, &fb, &e, &parts, &x);
	ind_bpf_finish(kern);
	if (g->nisites)
		qsort(g->isites, g->nisites, sizeof(*g->isites), isite_cmp);
	if (r->lines)
		ind_site_lines(r);
	g->indirect_typed = true;
	r->stats->edges = e.added + kern->edges;
	free(x.v);
	free(ways.v);
	free(updates.v);
	free(tramps.v);
	free(parts.v);
	free(parts.targets.v);
	free(seen);
	free(e.stamp[0]);
	free(e.stamp[1]);
	free(e.scratch.v);
	sp_u64map_release(&e.proto_hubs);
	ind_fallback_release(&fb);
	return 0;
}
