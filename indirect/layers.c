/*
 * layers.c - a member called through a pointer member (p->ops->f):
 * the objects the outer member can hold narrow the functions (MLTA,
 * "multi-layer type analysis"):
 *
 *	event_call->event.funcs->trace(...)
 *	    the trace of each struct trace_event_functions stored into a
 *	    struct trace_event_call's event.funcs, not of those stored
 *	    into a standalone struct trace_event's funcs.
 *
 * The outer member is filed under every named struct that holds it
 * (ind_type_path: struct trace_event_call's event.funcs, struct
 * trace_event's funcs); its objects are the data words of initialised
 * variables at the outermost one (a word is filed under each named
 * struct around it, ind_pslot), the stores at any of them (a store
 * through a struct trace_event * may write one inside a struct
 * trace_event_call), the objects stored where no type tells, and in a
 * kernel the data it exports (a module not given may store those).  When
 * every value stored there is a known object, the call reaches the
 * functions of its key that those objects hold at its offset, read
 * from the data, and those the code puts in any object of its type (a
 * store through a typed pointer may write any, a store no type tells
 * may be there); never nothing.
 */
#include "indirect/run.h"

#include <gelf.h>
#include <stdlib.h>
#include <string.h>

#include "common/search.h"
#include "common/xalloc.h"

/* The outer member of a site typed to a member: the load before the
 * last reads a pointer member, the last a function member of the
 * struct it points to (the same key the chain found). */
void ind_site_layers(struct ind_image *im, const struct insn_link *links, uint8_t n,
		     struct ind_site *s)
{
	uint64_t ptr, pointee;
	const struct ind_type *t;
	struct ind_place p;
	int64_t bias;
	uint8_t a = 0, b;

	while (a < n && links[a].src == INSN_SRC_MOVE)
		a++;
	for (b = a + 1; b < n && links[b].src == INSN_SRC_MOVE; b++)
		;
	if (b + 1 >= n || links[a].src != INSN_SRC_LOAD || links[a].scale ||
	    links[b].src != INSN_SRC_LOAD || links[b].scale || links[a].disp < 0 ||
	    !ind_type_pointer(im, links + b + 1, (uint8_t)(n - b - 1), &ptr, &bias) ||
	    !(t = ind_type_at(&im->types, ptr)) || links[b].disp + bias < 0)
		return;
	if (!ind_type_path(&im->types, t->target, (uint64_t)(links[b].disp + bias), false,
			   s->path, &s->npath, &pointee) ||
	    !ind_type_place(&im->types, pointee, (uint64_t)links[a].disp, &p) ||
	    p.key != s->t.key || p.alts) {
		s->npath = 0;
		return;
	}
	s->call_off = (uint64_t)links[a].disp;
}

static int obj_cmp(const void *pa, const void *pb)
{
	const struct ind_pobj *a = pa, *b = pb;

	if (a->key != b->key)
		return (a->key > b->key) - (a->key < b->key);
	if (a->image != b->image)
		return (a->image > b->image) - (a->image < b->image);
	return (a->addr > b->addr) - (a->addr < b->addr);
}

static uint64_t obj_key(const void *base, size_t i)
{
	return ((const struct ind_pobj *)base)[i].key;
}

/* The function the word at addr in image's data holds (SP_NONE: none,
 * or .bss, where nothing is in the file and no code stores a function);
 * false when the image has no such address (another image's object). */
static bool held_func(const struct ind_run *r, uint32_t image, uint64_t addr, uint32_t *id)
{
	const struct ind_image *im = &r->ims[image];
	uint64_t word;

	if (!ind_data_section(&im->data, addr))
		return false;
	*id = ind_data_word(&im->data, addr, &word) ? ind_func_at(im, word) : SP_NONE;
	return true;
}

/* The function at obj + off in image's data when it is one of key k's
 * (else nothing: a loose object's word of another type), into out;
 * false when the image has no such address. */
static bool object_target(struct ind_run *r, uint32_t image, uint64_t obj, uint64_t off,
			  const struct ind_key *k, struct ids *out)
{
	uint32_t id;

	if (!held_func(r, image, obj + off, &id))
		return false;
	if (id == SP_NONE)
		return true;
	if (ind_ids_has(k->targets, k->ntargets, id))
		ids_add(out, id);
	return true;
}

/* The functions the loose objects hold at off, sorted: the same for
 * every site and key that asks with that offset (a few hundred pairs
 * of them in a kernel, a few dozen offsets, thousands of objects), so
 * read once per offset. */
static const uint32_t *loose_funcs(struct ind_run *r, uint64_t off, uint32_t *n)
{
	struct ids x = { 0 };
	const uint32_t *v;
	uint32_t i, id;

	if (ind_idsets_get(&r->loose_at, off, &v, n))
		return v;
	for (i = 0; i < r->nloose; i++)
		if (held_func(r, r->loose[i].image, r->loose[i].addr + off, &id) &&
		    id != SP_NONE)
			ids_add(&x, id);
	*n = ind_unique_ids(x.v, x.n);
	v = ind_idsets_put(&r->loose_at, off, x.v, *n);
	free(x.v);
	return v;
}

/* Is the object at objs[i] one the site's outer member may hold: a data
 * word filed under its outermost key (the word is inside an object of
 * the site's struct), a store filed there too, or a store through a
 * pointer to one of the structs the site's holds the member in (the
 * store's outermost key is one of the site's)?  Two objects of other
 * types hold one place only one inside the other: not through a union
 * (the keys assume no type punning). */
static bool holds(const struct ind_site *s, const struct ind_pobj *o)
{
	uint8_t j;

	if (o->key == s->path[0])
		return true;
	for (j = 1; o->store == 2 && j < s->npath; j++)
		if (o->key == s->path[j])
			return true;
	return false;
}

/* May a value not a known object be in the site's outer member? */
static bool escaped(const struct ind_keys *pk, const struct ind_site *s)
{
	uint8_t j;

	if (pk->v[s->path[0]].pescaped)
		return true;
	for (j = 1; j < s->npath; j++)
		if (pk->v[s->path[j]].pescaped_outer)
			return true;
	return false;
}

bool ind_layer_targets(struct ind_run *r, const struct ind_site *s, const struct ind_key *k,
		       struct ids *out)
{
	struct ind_keys *pk = &r->pkeys;
	uint32_t n = out->n, i, nloose;
	const uint32_t *loose;
	uint8_t j;

	if (!s->npath || pk->deep || k->escaped || !k->ntargets)
		return false;
	if (escaped(pk, s))
		return false;
	if (!r->objs_sorted) {
		if (pk->nobjs)
			qsort(pk->objs, pk->nobjs, sizeof(*pk->objs), obj_cmp);
		r->objs_sorted = true;
	}
	for (j = 0; j < s->npath; j++)
		for (i = (uint32_t)sp_search_first_ge(pk->objs, pk->nobjs, obj_key, s->path[j]);
		     i < pk->nobjs && pk->objs[i].key == s->path[j]; i++)
			if (holds(s, &pk->objs[i]) &&
			    !object_target(r, pk->objs[i].image, pk->objs[i].addr, s->call_off, k,
					   out))
				goto no;
	loose = loose_funcs(r, s->call_off, &nloose);
	ind_ids_meet(loose, nloose, k->targets, k->ntargets, out);
	/* what the code stores may be in any of the objects */
	for (i = 0; i < k->ncode; i++)
		ids_add(out, k->code[i]);
	out->n = n + ind_unique_ids(out->v + n, out->n - n);
	if (out->n > n && out->n - n < k->ntargets)
		return true;
no:
	out->n = n;
	return false;
}

/* ---- what modules may store: the objects the kernel exports ---- */

struct exported {
	const char **names;	/* NAME of each __ksymtab_NAME, sorted */
	size_t n, cap;
	struct ind_run *r;
	const struct sp_elf *e;
	uint32_t image;
};

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static void ksymtab_name(void *arg, const GElf_Sym *sym, const char *name)
{
	struct exported *x = arg;

	if (sym->st_shndx == SHN_UNDEF || strncmp(name, "__ksymtab_", 10))
		return;
	SP_ALLOC_GROW(x->names, x->n + 1, x->cap);
	x->names[x->n++] = name + 10;
}

static void exported_object(void *arg, const GElf_Sym *sym, const char *name)
{
	struct exported *x = arg;
	struct ind_run *r = x->r;
	uint64_t value = sym->st_value;

	if (GELF_ST_TYPE(sym->st_info) != STT_OBJECT || sym->st_shndx == SHN_UNDEF ||
	    sym->st_shndx >= SHN_LORESERVE ||
	    !bsearch(&name, x->names, x->n, sizeof(*x->names), name_cmp))
		return;
	if (x->e->type == ET_REL)
		value += sym->st_shndx < x->e->nsec ? x->e->sec_base[sym->st_shndx] : 0;
	SP_ALLOC_GROW(r->loose, r->nloose + 1, r->loose_cap);
	r->loose[r->nloose].addr = value;
	r->loose[r->nloose++].image = x->image;
}

void ind_layer_exports(struct ind_run *r, const bool *kernel_image)
{
	struct exported x = { .r = r };
	size_t i;

	for (i = 0; kernel_image && i < r->nims; i++) {
		if (!kernel_image[i])
			continue;
		x.n = 0;
		x.e = r->ims[i].elf;
		x.image = (uint32_t)i;
		sp_elf_each_symbol(x.e, ksymtab_name, &x);
		if (x.n)
			qsort(x.names, x.n, sizeof(*x.names), name_cmp);
		sp_elf_each_symbol(x.e, exported_object, &x);
	}
	free(x.names);
}
