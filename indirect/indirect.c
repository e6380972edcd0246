/*
 * indirect.c - --indirect=types, image by image and then over them all:
 *
 *	1. the variables at fixed addresses, their types (vars);
 *	2. every initialised variable's function pointers, filed under the
 *	   member of the named struct that holds each (keys), and the keys
 *	   of the structs the functions' parameters are: read in the same
 *	   pass over the units as step 4's chains, whose types they share;
 *	3. the code's stores of function addresses, typed like the chains
 *	   of the calls: a member gains the function, or, stored with a
 *	   value of unknown origin, escapes (its calls fall back to the
 *	   prototype); a store no type says where it goes gives its function
 *	   to every member of the function's prototype;
 *	4. each call's chain typed (chain.c), then its targets (sites.c).
 *
 * Keys are shared by every image of the graph (a module's operations
 * fill the members vmlinux calls through); words and stores at fixed
 * addresses are each image's.
 */
#include "indirect/internal.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"
#include "indirect/kernel.h"
#include "indirect/run.h"

static int var_cmp(const void *pa, const void *pb)
{
	const struct ind_var *a = pa, *b = pb;

	if (a->addr != b->addr)
		return (a->addr > b->addr) - (a->addr < b->addr);
	return (a->size < b->size) - (a->size > b->size);	/* largest first */
}

/* Move to the unit of the DIE at off, and forget the last unit's types. */
void ind_seek_unit(struct ind_image *im, uint64_t off)
{
	if (!im->reader)
		return;
	dw_reader_seek(im->reader, off);
	if (dw_reader_moves(im->reader) != im->types_unit) {
		im->types_unit = dw_reader_moves(im->reader);
		ind_types_reset(&im->types);
	}
}

void ind_vars_load(struct ind_image *im, const struct ind_data *data)
{
	const struct dw_image *dw = im->dw;
	size_t i, out = 0;
	uint64_t size;

	im->vars = sp_xmalloc((dw->nvars ? dw->nvars : 1) * sizeof(*im->vars));
	for (i = 0; i < dw->nvars && im->reader; i++) {
		uint64_t type;
		const struct ind_type *t;

		ind_seek_unit(im, dw->vars[i].die);
		type = dw->vars[i].type ? dw->vars[i].type :
		       dw_decl_type(im->reader, dw->vars[i].die);
		t = ind_type_at(&im->types, type);

		/* a size the linker's symbol does not give is DWARF's mistake:
		 * the variable, and the calls through it, are not typed */
		if (!t || !t->size ||
		    ((size = ind_data_object_size(data, dw->vars[i].addr)) && size != t->size))
			continue;
		im->vars[out].addr = dw->vars[i].addr;
		im->vars[out].size = t->size;
		im->vars[out].type = type;
		im->vars[out++].die = dw->vars[i].die;
	}
	if (out)
		qsort(im->vars, out, sizeof(*im->vars), var_cmp);
	/* a declaration and its definition, or two units' copies: one */
	im->nvars = 0;
	for (i = 0; i < out; i++)
		if (!im->nvars || im->vars[im->nvars - 1].addr != im->vars[i].addr)
			im->vars[im->nvars++] = im->vars[i];
}

/* The function whose entry a data word holds (ARM: a Thumb one has bit
 * 0 set), SP_NONE when it is none. */
uint32_t ind_func_at(const struct ind_image *im, uint64_t addr)
{
	uint32_t id;

	if (!addr)
		return SP_NONE;
	id = cg_func_at(im->img, addr);
	if (id == SP_NONE && im->elf->arch->thumb && (addr & 1))
		id = cg_func_at(im->img, addr & ~(uint64_t)1);
	return id;
}

struct ind_image *ind_image_of(struct ind_run *r, uint32_t id)
{
	uint32_t first, end, m;

	for (m = 0; m < r->nims; m++) {
		cg_funcs(r->ims[m].img, &first, &end);
		if (id >= first && id < end)
			return &r->ims[m];
	}
	return NULL;
}

/* ---- 2. initialised data ---- */

static void scan_slots(struct ind_image *im, const struct ind_data *data, uint64_t base,
		       const struct ind_slot *s, int32_t n, uint64_t end)
{
	int32_t k;

	for (k = 0; k < n; k++) {
		uint64_t word;
		uint32_t id;

		if (s[k].key == SP_NONE || base + s[k].off + data->word > end ||
		    !ind_data_word(data, base + s[k].off, &word) ||
		    (id = ind_func_at(im, word)) == SP_NONE)
			continue;
		ind_key_add(im->types.keys, s[k].key, id);
	}
}

/* The objects the pointers to structs of a struct at base hold, filed
 * under each key of their slots. */
static void scan_pslots(struct ind_image *im, const struct ind_data *data, uint32_t image,
			uint64_t base, const struct ind_pslot *s, int32_t n, uint64_t end)
{
	struct ind_keys *pk = im->types.pkeys;
	uint64_t word;
	int32_t k;
	uint8_t j;

	for (k = 0; k < n; k++)
		if (base + s[k].off + data->word <= end &&
		    ind_data_word(data, base + s[k].off, &word) && word)
			for (j = 0; j < s[k].n; j++)
				ind_key_obj(pk, s[k].key[j], image, word, 0);
}

/* One struct object's function pointers and pointers to structs; false
 * when its type has none. */
static bool scan_object(struct ind_image *im, const struct ind_data *data, uint32_t image,
			uint64_t type, uint64_t base, uint64_t end)
{
	const struct ind_slot *s;
	const struct ind_pslot *ps;
	int32_t n, np;

	s = ind_type_slots(&im->types, type, &n);
	scan_slots(im, data, base, s, n, end);
	ps = ind_type_pslots(&im->types, type, &np);
	scan_pslots(im, data, image, base, ps, np, end);
	return n || np;
}

/* One variable's function pointers into the keys of im (the thread's):
 * a struct's, or each element's of an array of structs (clipped to its
 * section: DWARF may get an extern table's size wrong); the words are
 * data's (the main thread's image's, read only). */
static void scan_var(struct ind_image *im, const struct ind_data *data, uint32_t image,
		     const struct ind_var *v)
{
	const struct ind_section *sec = ind_data_section(data, v->addr);
	const struct ind_type *t, *e;
	uint64_t end, esize, count, i;
	uint64_t elem;

	if (!sec || !sec->bytes || !(t = ind_type_at(&im->types, v->type)))
		return;
	end = sec->addr + sec->size;
	if (v->size < end - v->addr)
		end = v->addr + v->size;
	if (t->kind == IND_STRUCT) {
		scan_object(im, data, image, v->type, v->addr, end);
		return;
	}
	if (t->kind != IND_ARRAY)
		return;
	elem = t->target;
	e = ind_type_at(&im->types, elem);
	if (!e || e->kind != IND_STRUCT || !(esize = e->size))
		return;
	count = (end - v->addr) / esize;
	for (i = 0; i < count; i++)
		if (!scan_object(im, data, image, elem, v->addr + i * esize, end))
			return;
}

/* The keys of a struct some function's parameter is (or holds by value,
 * or is an array of), of type DIE type: its callers write them where no
 * store the analysis types shows.  Only the calls through a member
 * nothing else stores ask (exported.c).  Marked in im's keys (its
 * thread's: merge_typed). */
static void scan_param(struct ind_image *im, uint64_t type)
{
	const struct ind_type *t;
	const struct ind_slot *s;
	int32_t ns, k;
	size_t hops;

	ind_seek_unit(im, type);
	/* most are pointers or numbers: their pointees are not read */
	k = ind_type_kind(&im->types, type);
	if (k != IND_STRUCT && k != IND_ARRAY)
		return;
	for (hops = 0; (t = ind_type_at(&im->types, type)) && t->kind == IND_ARRAY && hops < 8;
	     hops++)
		type = t->target;
	if (!t || t->kind != IND_STRUCT)
		return;
	s = ind_type_slots(&im->types, type, &ns);
	for (k = 0; k < ns; k++)
		if (s[k].key != SP_NONE)
			im->types.keys->v[s[k].key].local = true;
}

/* ---- 3. stores ---- */

static void add_abs_store(struct ind_run *r, uint32_t image, uint64_t addr, uint32_t func,
			  uint32_t from)
{
	SP_ALLOC_GROW(r->abs, r->nabs + 1, r->abs_cap);
	r->abs[r->nabs] = (struct ind_abs_store){ .image = image, .addr = addr, .from = from,
						  .func = func };
	r->nabs++;
}

/* A store at a fixed address of a value loaded from a global word that
 * no struct holds: the stored word holds what that one does (its words
 * and stores), found as a call through it finds them. */
static bool copied_word(struct ind_run *r, const struct ind_store *st)
{
	const struct insn_store *s = &r->ims[st->image].code->icalls.stores[st->store];

	if (st->func != SP_NONE || !s->loaded || !st->vtyped || st->vt.kind != IND_TK_WORD ||
	    st->vt.key != SP_NONE || !st->vt.first)
		return false;
	r->abs[r->nabs - 1].from_first = st->vt.first;
	r->abs[r->nabs - 1].from_end = st->vt.end;
	return true;
}

/* The member a loaded value stored at a fixed address was read from, or
 * SP_NONE: a global pointer set from an ops struct's member
 * (register_ftrace_graph()'s ftrace_graph_return = gops->retfunc) holds
 * what that member holds. */
static uint32_t copied_member(const struct ind_run *r, const struct ind_store *st)
{
	const struct insn_store *s = &r->ims[st->image].code->icalls.stores[st->store];

	if (st->func != SP_NONE || !s->loaded || !st->vtyped || st->vt.kind != IND_TK_KEY)
		return SP_NONE;
	return st->vt.key;
}

/* The chain of a store: one link more than its base's, the word it
 * writes at disp from the base, or the word at its fixed address. */
static uint8_t store_chain(const struct insn_icalls *ic, const struct insn_store *s,
			   struct insn_link *links)
{
	uint8_t n = s->nlinks < IND_MAX_LINKS ? s->nlinks : IND_MAX_LINKS;

	if (s->addr) {
		links[0] = (struct insn_link){ .pc = s->pc, .reg = INSN_REG_NONE,
					       .src = s->indexed ? INSN_SRC_TABLE : INSN_SRC_GLOBAL,
					       .disp = (int64_t)s->addr, .scale = s->indexed ? 8 : 0 };
		return 1;
	}
	links[0] = (struct insn_link){ .pc = s->pc, .reg = INSN_REG_NONE,
				       .src = INSN_SRC_LOAD, .disp = s->disp };
	memcpy(links + 1, ic->links + s->link, n * sizeof(*links));
	return (uint8_t)(n + 1);
}

/* A store into the frame at an offset not known (alloca, a frame
 * pointer set up twice): each struct in the frame there may be written
 * where the analysis does not see, as a parameter is (scan_param). */
static void frame_unknown(struct ind_image *im, const struct insn_store *s)
{
	const struct ind_locs *locs = ind_locs_get(&im->locs);
	const struct ind_slot *slot;
	int32_t n, k;
	size_t i;

	for (i = 0; i < locs->n; i++) {
		const struct ind_loc *x = &locs->v[i];
		const struct ind_type *t;
		uint64_t type = x->type;

		if (x->reg != IND_REG_FRAME || s->pc < x->lo || s->pc >= x->hi)
			continue;
		if ((t = ind_type_at(&im->types, type)) && t->kind == IND_ARRAY)
			type = t->target;
		slot = ind_type_slots(&im->types, type, &n);
		for (k = 0; k < n; k++)
			if (slot[k].key != SP_NONE)
				im->types.keys->v[slot[k].key].local = true;
	}
}

/* The member of a local struct a store into the frame writes (DWARF's
 * DW_OP_fbreg of a variable whose scope holds the store): false when
 * it is none that holds a function (a spill, an argument passed on the
 * stack) or the store's offset is unknown. */
static bool frame_store(struct ind_image *im, const struct insn_store *s,
			struct ind_target *out)
{
	const struct ind_locs *locs;
	/* the CFA is the entry's stack pointer above the return address:
	 * the store's offset from it */
	int64_t at = s->frame - (int64_t)im->types.addr_size;
	struct ind_place p;
	size_t i;

	if (s->frame == INSN_FRAME_UNKNOWN) {
		frame_unknown(im, s);
		return false;
	}
	locs = ind_locs_get(&im->locs);
	for (i = 0; i < locs->n; i++) {
		const struct ind_loc *x = &locs->v[i];
		const struct ind_type *t;

		if (x->reg != IND_REG_FRAME || s->pc < x->lo || s->pc >= x->hi || at < x->off ||
		    !(t = ind_type_at(&im->types, x->type)) ||
		    (uint64_t)(at - x->off) + im->types.addr_size > t->size ||
		    !ind_type_place(&im->types, x->type, (uint64_t)(at - x->off), &p) ||
		    !p.func || p.key == SP_NONE)
			continue;
		memset(out, 0, sizeof(*out));
		out->kind = IND_TK_KEY;
		out->key = p.key;
		out->alts = p.alts;
		out->proto = ind_type_proto(&im->types, p.func);
		return true;
	}
	return false;
}

/* The keys of the pointer member a store of no function writes, into
 * st->okeys: through a typed pointer (links[1..n) its chain, links[0]
 * the store's offset from it) or at a variable's address; none when no
 * struct holds a pointer to a struct there or the place is not known
 * (an object stored there is loose). */
static void pointer_store(struct ind_image *im, const struct insn_store *s,
			  const struct insn_link *links, uint8_t n, struct ind_store *st)
{
	struct ind_keys *pk = im->types.pkeys;
	const struct ind_type *t;
	const struct ind_var *var;
	uint64_t type, off;
	int64_t bias;

	if (s->addr) {
		if (!(var = ind_var_at(im, s->addr)))
			return;
		type = var->type;
		off = s->addr - var->addr;
	} else {
		if (n < 2 || !ind_type_pointer(im, links + 1, (uint8_t)(n - 1), &type, &bias) ||
		    !(t = ind_type_at(&im->types, type)) || links[0].disp + bias < 0)
			return;
		type = t->target;
		off = (uint64_t)(links[0].disp + bias);
	}
	SP_ALLOC_GROW(pk->pool, pk->npool + IND_STORE_KEYS, pk->pool_cap);
	st->okeys = pk->npool;
	st->nokeys = ind_type_store_keys(&im->types, type, off, pk->pool + pk->npool,
					 IND_STORE_KEYS);
	pk->npool += st->nokeys;
}

/* Is the value a store writes, of no constant, a pointer to a struct
 * as DWARF types it (a variable of that type in its register, a member
 * of that type loaded)?  Then it is an object's address, no function:
 * C converts a pointer to an object to a pointer to a function only by
 * a cast.  Such a store into a function pointer's place writes another
 * member of a union there (struct page's lru.prev over its rcu_head's
 * func, sk_buff's tcp_tsorted_anchor.prev over its destructor).  A void
 * pointer, which the kernel does hand functions in, is not one. */
static bool object_value(struct ind_image *im, const struct insn_icalls *ic,
			 const struct insn_store *s)
{
	const struct ind_type *t;
	uint64_t ptr;
	int64_t bias;

	if (!s->nvlinks || !ind_type_pointer(im, ic->links + s->vlink, s->nvlinks, &ptr, &bias))
		return false;
	t = ind_type_at(&im->types, ptr);
	if (!t || t->kind != IND_POINTER || t->func)
		return false;
	t = ind_type_at(&im->types, t->target);
	return t && t->kind == IND_STRUCT;
}

/* Is the word a store writes, at disp from its base, an integer as
 * DWARF types the base pointer: a member of integer type
 * (struct restore_data_record's jump_address), or the pointee of a
 * variable that points to an integer (a return address slot, ftrace's
 * `unsigned long *parent`, rethook's `unsigned long *stack`)?  A
 * function stored there is a number (a return hook, an address to jump
 * to), which C puts in no member of a function's type without a cast
 * of the member's address (assumed none).  A variable that points to a
 * struct, located there too, is asked first: its member says. */
static bool scalar_place(struct ind_image *im, const struct insn_icalls *ic,
			 const struct insn_store *s)
{
	uint8_t n = s->nlinks < IND_MAX_LINKS ? s->nlinks : IND_MAX_LINKS;
	const struct ind_type *t;
	uint64_t ptr, pointee;
	int64_t bias, off;

	if (!n || !(ind_type_pointer(im, ic->links + s->link, n, &ptr, &bias) ||
		    ind_type_word_pointer(im, ic->links + s->link, n, &ptr, &bias)))
		return false;
	t = ind_type_at(&im->types, ptr);
	if (!t || t->kind != IND_POINTER || t->func)
		return false;
	pointee = t->target;
	off = bias + s->disp;
	return off >= 0 && ind_type_scalar_at(&im->types, pointee, (uint64_t)off);
}

static void type_store(struct ind_image *ims, struct ind_store *st)
{
	struct ind_image *im = &ims[st->image];
	const struct insn_icalls *ic = &im->code->icalls;
	const struct insn_store *s = &ic->stores[st->store];
	struct insn_link links[1 + IND_MAX_LINKS];
	uint8_t n = store_chain(ic, s, links);

	if (s->stack)
		st->typed = !st->data && frame_store(im, s, &st->t);
	else
		st->typed = !st->data && ind_type_chain(im, links, n, &st->t) &&
			    (st->t.kind == IND_TK_KEY || st->t.kind == IND_TK_WORD ||
			     st->t.kind == IND_TK_TABLE);
	if (st->typed && !s->stack && st->func == SP_NONE && object_value(im, ic, s))
		st->typed = false;	/* no function: a pointer member's store */
	/* a value copied from another object: what its chain reads */
	if (st->typed && s->loaded && s->nvlinks)
		st->vtyped = ind_type_chain(im, ic->links + s->vlink, s->nvlinks, &st->vt);
	if (!st->typed && st->func != SP_NONE && !s->stack && !s->addr)
		st->scalar = scalar_place(im, ic, s);
	/* no function: maybe an object into a member that points to one */
	if (!st->typed && st->func == SP_NONE && !s->stack)
		pointer_store(im, s, links, n, st);
}

/* A value of unknown origin stored in key: when it is an argument the
 * storing function was called with (an init function's callback), what
 * its callers pass there (args.c), and, through a function a kernel
 * exports, what a module's may (ind_key.module); else the key escapes. */
static void store_argument(struct ind_run *r, const struct ind_store *st, uint32_t key)
{
	const struct insn_icalls *ic = &r->ims[st->image].code->icalls;
	const struct insn_store *s = &ic->stores[st->store];
	const uint32_t *v;
	uint32_t n, i;
	bool outside;

	if (!s->nvlinks || !ind_arg_values(r->args, st->caller,
					   insn_entry_reg(ic->links + s->vlink, s->nvlinks), &v, &n,
					   &outside)) {
		r->keys.v[key].escaped = true;
		return;
	}
	r->keys.v[key].module |= outside;
	for (i = 0; i < n; i++)
		ind_key_add_code(&r->keys, key, v[i]);
	/* a caller passes a member's value: key holds what that one does */
	ind_arg_keys(r->args, &v, &n);
	for (i = 0; i < n; i++)
		if (r->keys.v[v[i]].local) {	/* written where no store shows */
			r->keys.v[key].escaped = true;
		} else if (v[i] != key) {
			SP_ALLOC_GROW(r->flows, r->nflows + 1, r->flows_cap);
			r->flows[r->nflows].from = v[i];
			r->flows[r->nflows++].to = key;
		}
}

/*
 * A value copied into member key from another object: a member (or a
 * struct variable's word) holds what that one holds, found once every
 * store is applied (flow_keys); a constant function, that one; anything
 * else (a global pointer, a call's return, no type) is of unknown origin.
 */
static void store_loaded(struct ind_run *r, const struct ind_store *st, uint32_t key)
{
	const struct ind_target *vt = &st->vt;
	uint32_t id;

	/* a member, or a word of a struct variable (its key has what is
	 * stored there and what the image's data holds) */
	if (st->vtyped && (vt->kind == IND_TK_KEY || vt->kind == IND_TK_WORD ||
			   vt->kind == IND_TK_TABLE) && vt->key != SP_NONE) {
		if (vt->key == key)
			return;
		SP_ALLOC_GROW(r->flows, r->nflows + 1, r->flows_cap);
		r->flows[r->nflows].from = vt->key;
		r->flows[r->nflows++].to = key;
	} else if (st->vtyped && vt->kind == IND_TK_CONST &&
		   (id = ind_func_at(&r->ims[st->image], vt->addr)) != SP_NONE) {
		ind_key_add_code(&r->keys, key, id);
	} else {
		r->keys.v[key].escaped = true;
	}
}

/* Each member copied into another: the targets and the escape of the
 * one flow into the other, until nothing changes. */
static void flow_keys(struct ind_run *r)
{
	bool changed = true;
	uint32_t round, i, k;

	for (round = 0; changed && round <= r->nflows; round++) {
		changed = false;
		for (i = 0; i < r->nflows; i++) {
			struct ind_key *from = &r->keys.v[r->flows[i].from];
			struct ind_key *to = &r->keys.v[r->flows[i].to];
			uint32_t n = to->ntargets;

			if (from->escaped && !to->escaped)
				changed = to->escaped = true;
			if (from->module && !to->module)
				changed = to->module = true;
			/* a copy the code makes */
			for (k = 0; k < from->ntargets; k++)
				ind_key_add_code(&r->keys, r->flows[i].to,
						 r->keys.v[r->flows[i].from].targets[k]);
			to = &r->keys.v[r->flows[i].to];
			to->ntargets = ind_unique_ids(to->targets, to->ntargets);
			to->ncode = ind_unique_ids(to->code, to->ncode);
			changed |= to->ntargets != n;
		}
	}
}

/* A store of no function: an object into a pointer member (the member
 * holds it), a value not a known object (the member's objects are not
 * known), an object where no type tells (loose: it may be any
 * member's). */
static void apply_pointer_store(struct ind_run *r, const struct ind_store *st)
{
	const uint32_t *keys = r->pkeys.pool + st->okeys;
	uint8_t j;

	/* keys[0] is the outermost (ind_type_store_keys) */
	for (j = 0; j < st->nokeys; j++)
		if (st->data && st->obj) {
			ind_key_obj(&r->pkeys, keys[j], st->image, st->obj, j ? 1 : 2);
		} else {
			r->pkeys.v[keys[j]].pescaped = true;
			r->pkeys.v[keys[j]].pescaped_outer |= !j;
		}
	if (!st->nokeys && st->data && st->obj) {
		SP_ALLOC_GROW(r->loose, r->nloose + 1, r->loose_cap);
		r->loose[r->nloose].addr = st->obj;
		r->loose[r->nloose++].image = st->image;
	}
}

static void apply_store(struct ind_run *r, const struct ind_store *st)
{
	const struct insn_store *s = &r->ims[st->image].code->icalls.stores[st->store];
	uint32_t key = st->t.key;

	if (st->data || st->nokeys)
		apply_pointer_store(r, st);
	if (st->data)
		return;
	if (st->typed) {
		r->stats->stores_typed++;
		if (st->t.kind != IND_TK_KEY) {
			add_abs_store(r, st->image, st->t.addr, st->func, copied_member(r, st));
			copied_word(r, st);
		}
		if (key != SP_NONE && s->loaded)
			store_loaded(r, st, key);
		else if (key != SP_NONE && st->func == SP_NONE)	/* store_argument */
			ids_add(&r->arg_stores, (uint32_t)(st - r->stores));
		else if (key != SP_NONE)
			ind_key_add_code(&r->keys, key, st->func);
	} else if (s->addr) {
		add_abs_store(r, st->image, s->addr, st->func, SP_NONE);
	} else if (st->func != SP_NONE) {
		/* where it goes no type says: a member of its prototype may hold it */
		SP_ALLOC_GROW(r->smear, r->nsmear + 1, r->smear_cap);
		r->smear[r->nsmear].func = st->func;
		r->smear[r->nsmear].stack = s->stack;
		r->smear[r->nsmear].scalar = st->scalar;
		r->smear[r->nsmear++].disp = s->disp;
	}
}

/* The stores of function addresses (a label inside the code is none),
 * and those of other values: an object's address, for the members that
 * point to structs. */
static void collect_stores(struct ind_run *r, uint32_t image)
{
	struct ind_image *im = &r->ims[image];
	const struct insn_icalls *ic = &im->code->icalls;
	size_t i;

	for (i = 0; i < ic->nstores; i++) {
		const struct insn_store *s = &ic->stores[i];
		uint64_t value = s->value;
		uint32_t func;
		struct ind_store *st;
		bool data;

		/* a constant pool's word: the function it holds, if any (a
		 * NULL is no store) */
		if (s->value_at && (!ind_data_word(&im->data, s->value_at, &value) || !value))
			continue;
		func = value && !s->data ? ind_func_at(im, value) : SP_NONE;
		data = s->data || (value && func == SP_NONE);
		SP_ALLOC_GROW(r->stores, r->nstores + 1, r->stores_cap);
		st = &r->stores[r->nstores++];
		memset(st, 0, sizeof(*st));
		st->image = image;
		st->store = (uint32_t)i;
		st->func = func;
		st->data = data;
		st->obj = data ? value : 0;
		st->vt.key = SP_NONE;
		st->caller = cg_func_containing(im->img, s->pc);
	}
}

static void collect_sites(struct ind_run *r, uint32_t image)
{
	struct ind_image *im = &r->ims[image];
	const struct insn_icalls *ic = &im->code->icalls;
	size_t i;

	for (i = 0; i < ic->ncalls; i++) {
		struct ind_site *s;

		SP_ALLOC_GROW(r->sites, r->nsites + 1, r->sites_cap);
		s = &r->sites[r->nsites++];
		memset(s, 0, sizeof(*s));
		s->image = image;
		s->icall = (uint32_t)i;
		s->func = cg_func_containing(im->img, ic->calls[i].pc);
		s->t.key = SP_NONE;
	}
}

struct pcs {
	uint64_t *v;
	size_t n, cap;
};

/* A chain to type, a variable or a parameter's type to scan, in DIE order:
 * a reader keeps the units it read open, so that a walk that goes unit
 * after unit reads each unit's abbreviations once, and each unit's types
 * are read together, for its functions' chains, its variables and its
 * parameters alike. */
struct work {
	uint64_t die;	/* a parameter's: its type's */
	/* into r->sites, r->stores | STORE_BIT, the image's vars | VAR_BIT,
	 * or PARAM_BIT */
	uint32_t index;
	uint32_t image;
};
#define STORE_BIT (1u << 31)
#define VAR_BIT (1u << 30)
#define PARAM_BIT (STORE_BIT | VAR_BIT)

static bool is_var(const struct work *w)
{
	return (w->index & PARAM_BIT) == VAR_BIT;
}

static bool is_param(const struct work *w)
{
	return (w->index & PARAM_BIT) == PARAM_BIT;
}

/* Byte b of w's sort key: the items are in order of image, then die, then
 * index (bytes 12-15, 4-11 and 0-3 of the key). */
static unsigned work_byte(const struct work *w, unsigned b)
{
	if (b < 4)
		return (w->index >> (8 * b)) & 0xff;
	if (b < 12)
		return (unsigned)(w->die >> (8 * (b - 4))) & 0xff;
	return (w->image >> (8 * (b - 12))) & 0xff;
}

/* w[0..n) in the order of their keys (work_byte) by a radix sort from the
 * lowest byte, each byte all items share skipped: qsort's comparisons of
 * a kernel's items were 127 M instructions.  Every key differs (an
 * image's items are each a site, a store, a variable or a type once),
 * so the order is the one any sort gives. */
static void sort_work(struct work *w, size_t n)
{
	struct work *tmp = sp_xmalloc((n ? n : 1) * sizeof(*tmp)), *from = w, *to = tmp, *swap;
	size_t count[256], i, c, sum;
	unsigned b;

	for (b = 0; b < 16; b++) {
		memset(count, 0, sizeof(count));
		for (i = 0; i < n; i++)
			count[work_byte(&from[i], b)]++;
		if (!n || count[work_byte(&from[0], b)] == n)
			continue;	/* one value: the order stays */
		for (c = 0, sum = 0; c < 256; c++) {
			size_t k = count[c];

			count[c] = sum;
			sum += k;
		}
		for (i = 0; i < n; i++)
			to[count[work_byte(&from[i], b)]++] = from[i];
		swap = from;
		from = to;
		to = swap;
	}
	if (from != w)
		memcpy(w, from, n * sizeof(*w));
	free(tmp);
}

static uint64_t die_of(const struct ind_run *r, uint32_t func)
{
	return func < r->g->nfuncs ? r->g->funcs[func].die : 0;
}

/* The pcs the chain of a work item asks DWARF about. */
static void add_pcs(struct ind_run *r, const struct work *w, struct pcs *p)
{
	const struct insn_icalls *ic = &r->ims[w->image].code->icalls;
	const struct insn_link *links;
	uint32_t k, n;

	if (w->index & STORE_BIT) {
		const struct insn_store *s = &ic->stores[r->stores[w->index & ~STORE_BIT].store];

		links = ic->links + s->link;
		n = s->addr ? 0 : s->nlinks;
		if (s->stack) {	/* the frame's variables there */
			SP_ALLOC_GROW(p->v, p->n + 1, p->cap);
			p->v[p->n++] = s->pc;
		}
		for (k = 0; s->loaded && k < s->nvlinks; k++) {
			SP_ALLOC_GROW(p->v, p->n + 1, p->cap);
			p->v[p->n++] = ic->links[s->vlink + k].pc;
		}
	} else {
		const struct insn_icall *c = &ic->calls[r->sites[w->index].icall];

		links = ic->links + c->link;
		n = c->nlinks;
	}
	for (k = 0; k < n; k++) {
		SP_ALLOC_GROW(p->v, p->n + 3, p->cap);
		p->v[p->n++] = links[k].pc;
		if (links[k].via)	/* chain.c's held_there: a scope may end there */
			p->v[p->n++] = links[k].via;
		if (links[k].src == INSN_SRC_REG && links[k].entry)	/* chain.c's locates */
			p->v[p->n++] = (uint64_t)links[k].disp;
		if (links[k].src == INSN_SRC_FRAME ||	/* chain.c's from_frame */
		    links[k].src == INSN_SRC_STACK ||	/* and in_place */
		    (links[k].src == INSN_SRC_MOVE && links[k].entry))	/* reloads */
			p->v[p->n++] = links[k].pc + (uint64_t)(int64_t)links[k].back;
		if (links[k].home) {	/* chain.c's from_home */
			SP_ALLOC_GROW(p->v, p->n + 1, p->cap);
			p->v[p->n++] = links[k].pc - links[k].home_back;
		}
	}
}

/* The locations of the function of w[i] and of the items after it in the
 * same function. */
static void load_locs(struct ind_run *r, struct ind_image *ims, const struct work *w, size_t n,
		      size_t i, struct pcs *p)
{
	struct ind_image *im = &ims[w[i].image];
	uint32_t func = w[i].index & STORE_BIT ? r->stores[w[i].index & ~STORE_BIT].caller :
			r->sites[w[i].index].func;
	size_t j;

	p->n = 0;
	for (j = i; j < n && w[j].image == w[i].image && w[j].die == w[i].die; j++)
		add_pcs(r, &w[j], p);
	if (func == SP_NONE || func >= r->g->nfuncs)
		ind_locs_defer(&im->locs, NULL, SP_NONE, NULL, 0);
	else
		ind_locs_defer(&im->locs, &r->g->funcs[func], func, p->v, p->n);
}

/* The types of image's parameters, once each, as work items at w. */
static size_t param_work(const struct ind_run *r, uint32_t image, struct work *w)
{
	const struct dw_image *dw = r->ims[image].dw;
	struct sp_u64map seen;
	size_t i, k = 0;

	sp_u64map_init(&seen, dw->nparams / 4 + 16);
	for (i = 0; i < dw->nparams; i++)
		if (sp_u64map_get(&seen, dw->params[i]) == SP_NONE) {
			sp_u64map_put(&seen, dw->params[i], 0);
			w[k++] = (struct work){ dw->params[i], PARAM_BIT, image };
		}
	sp_u64map_release(&seen);
	return k;
}

/* Every site's and store's chain to type and every variable and
 * parameter's type to scan (the main thread's images' vars: loaded), in
 * DIE order (see struct work), shared out in pieces of whole units
 * between the typing thread and the main thread, once the latter is
 * done with the rest. */
static void make_work(struct ind_run *r)
{
	size_t n = r->nsites + r->nstores, i, j, k = 0;
	struct work *w;

	for (i = 0; i < r->nims; i++)
		n += r->ims[i].nvars + (r->ims[i].reader ? r->ims[i].dw->nparams : 0);
	w = sp_xmalloc((n ? n : 1) * sizeof(*w));
	for (i = 0; i < r->nsites; i++)
		w[k++] = (struct work){ die_of(r, r->sites[i].func), (uint32_t)i,
					r->sites[i].image };
	for (i = 0; i < r->nstores; i++)
		w[k++] = (struct work){ die_of(r, r->stores[i].caller), (uint32_t)i | STORE_BIT,
					r->stores[i].image };
	for (i = 0; i < r->nims; i++)
		for (j = 0; j < r->ims[i].nvars; j++)
			w[k++] = (struct work){ r->ims[i].vars[j].die, (uint32_t)j | VAR_BIT,
						(uint32_t)i };
	for (i = 0; i < r->nims; i++)
		if (r->ims[i].reader)
			k += param_work(r, (uint32_t)i, w + k);
	n = k;
	sort_work(w, n);
	r->work = w;
	r->nwork = n;
}

#define PIECE 256	/* work items a thread takes at a time */

static bool same_function(const struct work *a, const struct work *b)
{
	return a->die == b->die && a->image == b->image;
}

/* The first work item from k on (k > 0) that is in neither the unit nor
 * the function of item k - 1. */
static size_t past_unit(const struct ind_run *r, size_t k)
{
	const struct work *w = r->work, *last = &w[k - 1];
	const struct dw_image *dw = r->ims[last->image].dw;
	uint64_t end = dw ? dw_unit_end(dw, last->die) : 0;

	while (k < r->nwork && w[k].image == last->image &&
	       (w[k].die == last->die || w[k].die < end))
		k++;
	return k;
}

/* The next piece of work, [*from, *to), whole units; false when none is
 * left.  A unit split between the threads had its types read by both
 * (each thread's table holds the types of the unit it is in, seek_unit):
 * a third of the kernel's units were. */
static bool next_piece(struct ind_run *r, size_t *from, size_t *to)
{
	size_t c = atomic_fetch_add(&r->next_piece, 1), i = c * PIECE, end = i + PIECE;

	if (i >= r->nwork)
		return false;
	/* a unit that straddles a boundary belongs to the piece it starts in */
	if (i)
		i = past_unit(r, i);
	if (end > r->nwork)
		end = r->nwork;
	if (end < r->nwork)
		end = past_unit(r, end);
	*from = i;
	*to = end;
	return true;
}

/* The variable of w scanned with the images ims (their types and keys). */
static void scan_item(struct ind_run *r, struct ind_image *ims, const struct work *w)
{
	struct ind_image *im = &ims[w->image];

	ind_seek_unit(im, w->die);
	scan_var(im, &r->ims[w->image].data, w->image,
		 &r->ims[w->image].vars[w->index & ~VAR_BIT]);
}

/* Type the pieces of work this thread gets with the images ims; mark
 * says which thread typed each (its keys are its own). */
static void type_pieces(struct ind_run *r, struct ind_image *ims, bool mark)
{
	const struct work *w = r->work;
	struct pcs p = { 0 };
	size_t from, to, i;

	while (next_piece(r, &from, &to)) {
		for (i = from; i < to; i++) {
			struct ind_site *s;

			if (is_var(&w[i])) {
				scan_item(r, ims, &w[i]);
				continue;
			}
			if (is_param(&w[i])) {
				scan_param(&ims[w[i].image], w[i].die);
				continue;
			}
			if (i == from || !same_function(&w[i - 1], &w[i])) {
				if (w[i].die)
					ind_seek_unit(&ims[w[i].image], w[i].die);
				load_locs(r, ims, w, to, i, &p);
			}
			if (w[i].index & STORE_BIT) {
				r->stores[w[i].index & ~STORE_BIT].thread = mark;
				type_store(ims, &r->stores[w[i].index & ~STORE_BIT]);
				continue;
			}
			s = &r->sites[w[i].index];
			s->thread = mark;
			if (s->func != SP_NONE)
				ind_type_site(ims, s);
		}
	}
	/* the pcs the last function's deferred locations name go */
	for (i = 0; i < r->nims; i++)
		ind_locs_defer(&ims[i].locs, NULL, SP_NONE, NULL, 0);
	free(p.v);
}

/* Every function stored where no type tells: into each key of its
 * prototype, or, with no prototype known or only a declaration's
 * (assembly: a return hook stored as a return address, ret_from_fork,
 * is no function of that type), into each key at the offset it was
 * stored at.  A key of no known type takes them all. */
static void smear(struct ind_run *r)
{
	uint32_t i, k;

	for (i = 0; i < r->nsmear; i++) {
		const struct ind_smear *m = &r->smear[i];
		const struct sp_func *f = &r->g->funcs[m->func];
		const char *proto = f->flags & SP_F_DECLARED ? NULL : f->proto;

		for (k = 0; k < r->keys.n; k++) {
			const struct ind_key *key = &r->keys.v[k];

			if (!key->proto || (proto ? key->proto == proto :
					    !m->stack && !m->scalar &&
					    (int64_t)key->off == m->disp))
				ind_key_add_code(&r->keys, k, m->func);
		}
	}
}

/* An image of graph g, its typing state read through reader, names in
 * strs and keys in keys; with its data when data.  Its variables are
 * loaded apart (ind_vars_load): by the typing thread, which shares them
 * with the main thread (main_vars), or by the main thread alone. */
static void image_init(struct ind_image *im, struct cg_image *img, struct sp_graph *g,
		       struct dw_reader *reader, struct sp_graph *strs, struct ind_keys *keys,
		       struct ind_keys *pkeys, bool data)
{
	const struct sp_elf *elf = cg_elf(img);
	uint8_t addr_size = elf->arch->word ? elf->arch->word : 8;

	memset(im, 0, sizeof(*im));
	im->img = img;
	im->dw = cg_dwarf(img);
	im->code = cg_code(img);
	im->elf = elf;
	im->g = g;
	im->reader = reader;
	ind_types_init(&im->types, reader, strs, keys, addr_size);
	im->types.pkeys = pkeys;
	ind_locs_init(&im->locs, reader, &im->types);
	if (data)
		ind_data_init(&im->data, elf, g);
}

static void image_release(struct ind_image *im)
{
	ind_types_release(&im->types);
	ind_locs_release(&im->locs);
	ind_units_release(&im->units);
	ind_data_release(&im->data);
	free(im->vars);
}

/* ---- the typing thread ---- */

/* The variables the thread loaded, copied to the main thread's images
 * (they are DIE offsets and addresses, the same whichever reader reads
 * them), and the work made with them. */
static void share_vars(struct ind_run *r)
{
	size_t i;

	for (i = 0; i < r->nims; i++) {
		const struct ind_image *from = &r->tims[i];
		struct ind_image *to = &r->ims[i];

		to->vars = sp_xmalloc((from->nvars ? from->nvars : 1) * sizeof(*to->vars));
		memcpy(to->vars, from->vars, from->nvars * sizeof(*to->vars));
		to->nvars = from->nvars;
	}
	make_work(r);
	pthread_mutex_lock(&r->vars_lock);
	r->vars_shared = true;
	pthread_cond_signal(&r->vars_done);
	pthread_mutex_unlock(&r->vars_lock);
}

/* The main thread's variables and the work: the typing thread's, once
 * it has them. */
static void main_vars(struct ind_run *r)
{
	size_t i;

	if (!r->threaded) {
		for (i = 0; i < r->nims; i++)
			ind_vars_load(&r->ims[i], &r->ims[i].data);
		make_work(r);
		return;
	}
	pthread_mutex_lock(&r->vars_lock);
	while (!r->vars_shared)
		pthread_cond_wait(&r->vars_done, &r->vars_lock);
	pthread_mutex_unlock(&r->vars_lock);
}

static void *typing_thread(void *arg)
{
	struct ind_run *r = arg;
	size_t i;

	for (i = 0; i < r->nims; i++)
		ind_vars_load(&r->tims[i], &r->ims[i].data);
	share_vars(r);
	type_pieces(r, r->tims, true);
	return NULL;
}

static void close_typers(struct ind_run *r, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		dw_reader_close(r->tims[i].reader);
		image_release(&r->tims[i]);
	}
	free(r->tims);
	r->tims = NULL;
	ind_keys_release(&r->tkeys);
	ind_keys_release(&r->tpkeys);
	sp_graph_release(&r->tg);
}

/* A reader of its own for each image (the sections are read-only once
 * the main thread's reader set them up). */
static void open_typers(struct ind_run *r, struct cg_image *const *imgs)
{
	size_t i;

	sp_graph_init(&r->tg);
	ind_keys_init(&r->tkeys);
	ind_keys_init(&r->tpkeys);
	r->tims = sp_xcalloc(r->nims, sizeof(*r->tims));
	for (i = 0; i < r->nims; i++)
		image_init(&r->tims[i], imgs[i], r->g, dw_reader_open(cg_dwarf(imgs[i])),
			   &r->tg, &r->tkeys, &r->tpkeys, false);
}

/* The thread's pointer members made the run's, with the objects its
 * variables put there: into map[], by the thread's key. */
static uint32_t *merge_pkeys(struct ind_run *r)
{
	const struct ind_keys *t = &r->tpkeys;
	uint32_t *map = sp_xmalloc((t->n + 1) * sizeof(*map)), k;

	for (k = 0; k < t->n; k++)
		map[k] = ind_key(&r->pkeys, sp_intern(r->g, t->v[k].name), t->v[k].off, NULL, NULL);
	for (k = 0; k < t->nobjs; k++)
		ind_key_obj(&r->pkeys, map[t->objs[k].key], t->objs[k].image, t->objs[k].addr,
			    t->objs[k].store);
	r->pkeys.deep |= t->deep;
	for (k = 0; k < t->n; k++) {
		r->pkeys.v[map[k]].pescaped |= t->v[k].pescaped;
		r->pkeys.v[map[k]].pescaped_outer |= t->v[k].pescaped_outer;
	}
	return map;
}

/* The thread's results that name its pointer members, renumbered. */
static void map_paths(struct ind_run *r, const uint32_t *map)
{
	uint32_t base = r->pkeys.npool, k;
	size_t i;
	uint8_t j;

	for (i = 0; i < r->nsites; i++)
		for (j = 0; r->sites[i].thread && j < r->sites[i].npath; j++)
			r->sites[i].path[j] = map[r->sites[i].path[j]];
	/* the thread's stores' keys, after the main thread's */
	SP_ALLOC_GROW(r->pkeys.pool, base + r->tpkeys.npool, r->pkeys.pool_cap);
	for (k = 0; k < r->tpkeys.npool; k++)
		r->pkeys.pool[base + k] = map[r->tpkeys.pool[k]];
	r->pkeys.npool += r->tpkeys.npool;
	for (i = 0; i < r->nstores; i++)
		if (r->stores[i].thread)
			r->stores[i].okeys += base;
}

/* The thread's keys and prototypes, interned in its own graph, made the
 * run's, with the functions its variables put in them: its results
 * renumbered. */
static void merge_typed(struct ind_run *r)
{
	uint32_t *pmap = merge_pkeys(r);

	map_paths(r, pmap);
	free(pmap);
	uint32_t *map = sp_xmalloc((r->tkeys.n + 1) * sizeof(*map)), k, j;
	size_t i;

	for (k = 0; k < r->tkeys.n; k++) {
		const struct ind_key *x = &r->tkeys.v[k];

		map[k] = ind_key(&r->keys, sp_intern(r->g, x->name), x->off,
				 sp_intern(r->g, x->member), sp_intern(r->g, x->proto));
		for (j = 0; j < x->ntargets; j++)
			ind_key_add(&r->keys, map[k], x->targets[j]);
		r->keys.v[map[k]].local |= x->local;
	}
	for (i = 0; i < r->nsites + r->nstores; i++) {
		bool thread = i < r->nsites ? r->sites[i].thread : r->stores[i - r->nsites].thread;
		struct ind_target *t = i < r->nsites ? &r->sites[i].t : &r->stores[i - r->nsites].t;

		if (!thread)
			continue;
		if (t->key != SP_NONE && t->key < r->tkeys.n)
			t->key = map[t->key];
		for (j = 0; j < t->nany; j++)
			t->any[j] = map[t->any[j]];
		t->proto = sp_intern(r->g, t->proto);
		if (i < r->nsites)
			continue;
		t = &r->stores[i - r->nsites].vt;	/* a loaded value's */
		if (t->key != SP_NONE && t->key < r->tkeys.n)
			t->key = map[t->key];
		t->proto = sp_intern(r->g, t->proto);
	}
	free(map);
}

/* ---- functions C declares as objects ---- */

/* Is function func of image im a global symbol of it? */
static bool global_symbol(const struct ind_image *im, const struct sp_func *f, uint32_t func)
{
	uint32_t sym;

	if (!f->addr || cg_func_containing(im->img, f->addr) != func)
		return false;
	sym = sp_u64map_get(&im->elf->sym_by_addr, f->addr);
	return sym != SP_NONE && im->elf->syms[sym].bind == STB_GLOBAL &&
	       im->elf->syms[sym].name == f->symbol;
}

/*
 * The address-taken globals of no prototype known (assembly) whose name
 * some unit of their image declares as a variable, `extern char
 * core_restore_code[];`: flagged SP_F_OBJECT_DECL, they are no target
 * of a prototype site (sites.c), only of one that knows no type.  No C
 * code declares them as functions (a global's function declaration
 * gives it a prototype: callgraph/), so a call through a typed pointer
 * reaches them only after a cast of an object's address (assumed: none
 * does; the kernel copies or jumps to such code, or hands its address
 * to the hypervisor).  A local symbol is left alone: another unit's
 * object of that name is another symbol.
 */
static void object_decls(struct ind_run *r)
{
	struct sp_graph *g = r->g;
	struct { uint32_t func; uint64_t hash; } cand[64];
	uint32_t ncand, i, k;
	size_t m, j;

	for (m = 0; m < r->nims; m++) {
		struct ind_image *im = &r->ims[m];
		const struct dw_image *dw = im->dw;

		if (!dw || !dw->ndecl_vars || !im->reader)
			continue;
		for (i = 0, ncand = 0; i < g->nfuncs && ncand < 64; i++) {
			const struct sp_func *f = &g->funcs[i];

			if (!r->taken[i] || f->proto || !f->symbol || (f->flags & SP_F_OBJECT_DECL) ||
			    !global_symbol(im, f, i))
				continue;
			cand[ncand].func = i;
			cand[ncand++].hash = dw_name_hash(f->symbol);
		}
		for (j = 0; ncand && j < dw->ndecl_vars; j++)
			for (k = 0; k < ncand; k++) {
				struct sp_func *f = &g->funcs[cand[k].func];

				if (dw->decl_vars[j].hash != cand[k].hash ||
				    (f->flags & SP_F_OBJECT_DECL))
					continue;
				dw_reader_seek(im->reader, dw->decl_vars[j].die);
				if (dw_die_name(im->reader, g, dw->decl_vars[j].die) == f->symbol) {
					f->flags |= SP_F_OBJECT_DECL;
					r->stats->object_decls++;
				}
			}
	}
}

/* ---- the run ---- */

struct ind_run *ind_start(struct sp_graph *g, struct cg_image *const *imgs, size_t n,
			  bool lines)
{
	struct ind_run *r = sp_xcalloc(1, sizeof(*r));
	uint32_t i;

	r->g = g;
	r->nims = n;
	pthread_mutex_init(&r->vars_lock, NULL);
	pthread_cond_init(&r->vars_done, NULL);
	r->lines = lines;
	r->imgs = imgs;
	ind_keys_init(&r->keys);
	ind_keys_init(&r->pkeys);
	r->ims = sp_xcalloc(n ? n : 1, sizeof(*r->ims));
	for (i = 0; i < n; i++) {
		/* its DWARF's sections and reader stay until ind_finish(),
		 * across the passes that would close them (cg_dwarf_done) */
		dw_pin(cg_dwarf(imgs[i]));
		image_init(&r->ims[i], imgs[i], g, dw_reader(cg_dwarf(imgs[i])), g, &r->keys,
			   &r->pkeys, true);
		collect_stores(r, i);
		collect_sites(r, i);
	}
	open_typers(r, imgs);
	if (!pthread_create(&r->thread, NULL, typing_thread, r))
		r->threaded = true;
	else
		close_typers(r, r->nims);
	return r;
}

static void run_free(struct ind_run *r)
{
	size_t i;

	if (r->threaded) {
		pthread_join(r->thread, NULL);
		r->threaded = false;
	}
	if (r->tims)
		close_typers(r, r->nims);
	for (i = 0; r->ims && i < r->nims; i++) {
		image_release(&r->ims[i]);
		if (r->ims[i].dw) {
			dw_unpin(r->ims[i].dw);
			cg_dwarf_done(r->ims[i].img);
		}
	}
	free(r->ims);
	free(r->abs);
	free(r->smear);
	free(r->arg_stores.v);
	free(r->flows);
	free(r->sites);
	free(r->stores);
	free(r->work);
	ind_args_free(r->args);
	free(r->sc_held.v);
	if (r->sc_iters_read)
		sp_u64map_release(&r->sc_iters);
	ind_hooks_release(r->hooks);
	ind_keys_release(&r->keys);
	ind_keys_release(&r->pkeys);
	free(r->loose);
	ind_held_release(r);
	ind_idsets_release(&r->loose_at);
	pthread_mutex_destroy(&r->vars_lock);
	pthread_cond_destroy(&r->vars_done);
	free(r);
}

void ind_abandon(struct ind_run *r)
{
	if (r)
		run_free(r);
}

/* The prototypes of the address-taken functions and of those a kernel
 * exports (kern->marks), read in one pass over each image's units. */
static void read_protos(struct ind_run *r, const struct ind_kernel *kern)
{
	const struct sp_graph *g = r->g;
	uint8_t *want = sp_xmalloc(g->nfuncs + 1);
	uint32_t i;

	for (i = 0; i < g->nfuncs; i++)
		want[i] = r->taken[i] | (kern->marks ? kern->marks[i] : 0);
	for (i = 0; i < r->nims; i++)
		cg_indirect_prototypes(r->imgs[i], r->g, want);
	free(want);
}

int ind_finish(struct ind_run *r, const uint8_t *taken, struct ind_stats *stats,
	       struct sp_err *err)
{
	struct ind_kernel kern;
	uint32_t i;
	int ret;

	memset(stats, 0, sizeof(*stats));
	r->taken = taken;
	r->stats = stats;
	main_vars(r);
	/* the prototypes while the other thread types (none of it reads
	 * them), then what it has not taken yet */
	ind_kernel_init(&kern, r);
	read_protos(r, &kern);
	type_pieces(r, r->ims, false);
	if (r->threaded) {
		pthread_join(r->thread, NULL);
		r->threaded = false;
		merge_typed(r);
		close_typers(r, r->nims);
	}
	for (i = 0; i < r->nstores; i++)
		stats->stores += !r->stores[i].data;
	r->args = ind_args_new(r);
	if (kern.marks)
		ind_args_exported(r->args, kern.marks, kern.nmarks);
	r->sc_held_image = SP_NONE;
	for (i = 0; i < r->nstores; i++)
		apply_store(r, &r->stores[i]);
	/* once every store at a fixed address is in: a caller may pass a
	 * word it loads from a table (ind_load_targets) */
	ind_abs_sort(r);
	for (i = 0; i < r->arg_stores.n; i++) {
		const struct ind_store *st = &r->stores[r->arg_stores.v[i]];

		store_argument(r, st, st->t.key);
	}
	smear(r);
	flow_keys(r);
	ind_keys_seal(&r->keys);
	r->sealed = true;
	object_decls(r);
	ind_layer_exports(r, kern.kernel_image);
	ret = ind_add_sites(r, &kern, err);
	ind_kernel_release(&kern);
	stats->keys = r->keys.n;
	for (i = 0; i < r->keys.n; i++)
		stats->escaped += r->keys.v[i].escaped;
	run_free(r);
	return ret;
}
