/* run.h - one --indirect=types run over a graph's images (indirect.c,
 * sites.c); not for other stages. */
#ifndef SP_IND_RUN_H
#define SP_IND_RUN_H

#include <pthread.h>
#include <stdatomic.h>

#include "indirect/internal.h"

/* A store to a fixed address: the function stored, SP_NONE for a value
 * it does not know (then from says whether a member's). */
struct ind_abs_store {
	uint64_t addr;
	uint32_t image, func;
	uint32_t from;	/* func SP_NONE: the member whose value it copies
			 * (gops->retfunc into a global pointer), SP_NONE
			 * when the value's origin is unknown */
	uint64_t from_first, from_end;	/* or the global word it copies
					 * (ftrace_graph_entry =
					 * __ftrace_graph_entry), 0 */
};

/* A function stored where no type tells: at disp from its base
 * (stack: into a local). */
struct ind_smear {
	uint32_t func;
	bool stack;
	bool scalar;		/* into an integer, as DWARF types the place */
	int64_t disp;
};

/* One indirect call and what its chain says. */
struct ind_site {
	uint32_t image, icall;	/* code.icalls.calls[icall] of ims[image] */
	uint32_t func;		/* the caller, SP_NONE outside any function */
	bool thread;		/* typed by the typing thread: t's key is its own */
	struct ind_target t;
	/* a member loaded through a pointer member (p->ops->f): the keys
	 * of the named structs holding that pointer (ind_type_path's, in
	 * pkeys), the outermost first, and f's offset */
	uint32_t path[IND_PATH];
	uint8_t npath;
	uint64_t call_off;
};

#define IND_STORE_KEYS 32	/* pointer member keys of a store kept */

/* A store of a function address (or of a value of unknown origin). */
struct ind_store {
	uint32_t image, store;	/* code.icalls.stores[store] of ims[image] */
	uint32_t func;		/* the function stored, SP_NONE: unknown origin */
	uint32_t caller;	/* the function storing it */
	bool typed;		/* t says where it goes */
	bool thread;		/* typed by the typing thread: t's key is its own */
	bool vtyped;		/* a loaded value (insn_store.loaded): vt says
				 * what it is */
	bool data;		/* no function: insn_store.data, obj its value */
	bool scalar;		/* not typed: DWARF types the place an integer */
	uint64_t obj;
	/* not into a function member: the keys of the pointer member it
	 * writes (ind_type_store_keys), pkeys.pool[okeys .. + nokeys) */
	uint32_t okeys;
	uint8_t nokeys;
	struct ind_target t;
	struct ind_target vt;
};

/* A data address stored where no type tells. */
struct ind_loose {
	uint64_t addr;
	uint32_t image;
};

/* A member copied into another (p->f = q->g): to holds what from holds. */
struct ind_flow {
	uint32_t from, to;
};

#define IND_MAX_LINKS 8		/* links of a store's base chain kept */

/* A list of function ids. */
struct ids {
	uint32_t *v;
	uint32_t n, cap;
};

/* Sets of function ids, each filed under a 64-bit key once (idsets.c):
 * what a pass over many objects found, for the next site that asks the
 * same.  All zero is empty. */
struct ind_idspan {
	uint32_t first, n;	/* in pool */
};

struct ind_idsets {
	struct sp_u64map at;	/* key -> index in span */
	struct ind_idspan *span;
	uint32_t nspan, span_cap;
	uint32_t *pool;
	uint32_t npool, pool_cap;
};

void ind_idsets_release(struct ind_idsets *c);
/* The set filed under key, into *v and *n; false when none is. */
bool ind_idsets_get(const struct ind_idsets *c, uint64_t key, const uint32_t **v, uint32_t *n);
/* File a copy of v[0..n) under key (not filed yet); the copy, valid
 * until the next put. */
const uint32_t *ind_idsets_put(struct ind_idsets *c, uint64_t key, const uint32_t *v,
			       uint32_t n);
/* The ids in both a[0..na) and b[0..nb), each sorted and unique, into
 * out. */
/* Does sorted v[0..n) hold id? */
bool ind_ids_has(const uint32_t *v, uint32_t n, uint32_t id);
void ind_ids_meet(const uint32_t *a, uint32_t na, const uint32_t *b, uint32_t nb,
		  struct ids *out);

struct work;

struct ind_run {
	struct sp_graph *g;
	const uint8_t *taken;	/* address-taken functions, g->nfuncs bytes */
	struct ind_stats *stats;
	struct ind_keys keys;
	struct cg_image *const *imgs;
	struct ind_image *ims;
	size_t nims;
	struct ind_abs_store *abs;
	size_t nabs, abs_cap;
	struct ind_flow *flows;		/* members copied into others */
	uint32_t nflows, flows_cap;
	struct ind_smear *smear;	/* functions stored where no type tells */
	uint32_t nsmear, smear_cap;
	struct ind_site *sites;
	size_t nsites, sites_cap;
	struct ind_hooks *hooks;	/* a union's functions by head (hooks.c) */
	struct ind_store *stores;
	size_t nstores, stores_cap;
	struct ind_keys pkeys;		/* the members that point to structs */
	struct ind_loose *loose;	/* objects stored where no type tells */
	uint32_t nloose, loose_cap;
	bool objs_sorted;		/* pkeys.objs, by key (layers.c) */
	struct ind_idsets loose_at;	/* the functions loose holds, by offset */
	struct ind_held *held;	/* by image: unwritten.c's, read when asked */
	bool lines;		/* find each site's source line */
	struct ind_args *args;	/* callbacks passed as arguments (args.c) */
	struct ids arg_stores;	/* the stores of an argument (store_argument),
				 * applied after the others */
	bool sealed;		/* keys holds every function it will: a member
				 * an argument is loaded from gives its
				 * functions (args.c), not a flow */
	/* static calls (static_call.c): the trampolines data words hold in
	 * image sc_held_image; the tracepoint sites by caller's name */
	struct ids sc_held;
	uint32_t sc_held_image;
	struct sp_u64map sc_iters;
	bool sc_iters_read;
	/* the chains are typed on a thread of their own, with a DWARF reader
	 * per image of its own, its names interned in tg and its keys in
	 * tkeys (merged into g's and keys when it ends) */
	struct work *work;	/* every chain to type, in DIE order */
	size_t nwork;
	_Atomic size_t next_piece;	/* the next piece of work a thread takes */
	struct ind_image *tims;
	struct sp_graph tg;
	struct ind_keys tkeys, tpkeys;
	pthread_t thread;
	bool threaded;
	/* the thread loads the variables, and shares them (ind_vars_load) */
	pthread_mutex_t vars_lock;
	pthread_cond_t vars_done;
	bool vars_shared;
};

void ids_add(struct ids *x, uint32_t id);

/* Can nothing but the stores the store pass reads write the variable a
 * call's word or table t is in (t: no named struct's), so that it
 * holds its data's word and those stores' values (unwritten.c)?  A
 * kernel image's exported variables (kernel_image, by image) may be
 * written by a module, another image's by the program. */
bool ind_unwritten(struct ind_run *r, const bool *kernel_image, uint32_t image,
		   const struct ind_target *t);
void ind_held_release(struct ind_run *r);

/* A call through the union key k whose paths walk a list from a head at
 * a fixed address (the kernel's LSM hooks): the functions of k the
 * data's elements pair with those heads, and those of k no head is
 * found for, into out, its type into desc; false when not such a call
 * (hooks.c). */
bool ind_hook_targets(struct ind_run *r, const struct ind_site *s, const struct ind_key *k,
		      struct ids *out, const char **desc);
void ind_hooks_release(struct ind_hooks *h);

/* The address-taken functions, the fallbacks' targets (sites.c). */
struct by_proto {
	const char *proto;
	uint32_t id;
};

struct fallback {
	uint32_t *all;		/* every address-taken function */
	uint32_t nall;
	bool strict;		/* a kernel's: classes are sp_proto_strict's */
	struct by_proto *typed;	/* those with a prototype, by its class */
	const char **cls;	/* by function id: its prototype's class */
	uint32_t ntyped;
	uint32_t *untyped;	/* those without one: every prototype's */
	uint32_t nuntyped;
};

/* fb's functions: those marked in taken[] (g->nfuncs bytes), by their
 * prototypes' classes (ind_proto_key). */
void ind_fallback_init(struct fallback *fb, struct sp_graph *g, const uint8_t *taken,
		       bool strict);
/* The class of prototype proto that fb files functions under: as a cast
 * allows (sp_proto_class), or, strict, as C's type checks and the
 * kernel's kCFI do (sp_proto_strict). */
const char *ind_proto_key(const struct fallback *fb, struct sp_graph *g, const char *proto);
void ind_fallback_release(struct fallback *fb);
/* The address-taken functions whose prototype's class is cls
 * (ind_proto_key). */
void ind_proto_typed(const struct fallback *fb, const char *cls, struct ids *out);
/* ... and those whose prototype is unknown. */
void ind_proto_targets(const struct fallback *fb, const char *cls, struct ids *out);

/* Callbacks passed as arguments (args.c). */
struct ind_args *ind_args_new(struct ind_run *r);
void ind_args_free(struct ind_args *a);
/* In a kernel, the functions exported to modules (marks[0..n), kept by
 * the caller): the modules' code calls them too. */
void ind_args_exported(struct ind_args *a, const uint8_t *marks, uint32_t n);
/* When site s calls through the value a register had at its function's
 * entry (copied at most): what every caller passes there, into v[0..n)
 * (valid until the next call); false when some way in does not say.
 * *outside: SP_NONE, or the exported function on the way whose callers
 * in the modules may pass what the images do not show. */
bool ind_arg_targets(struct ind_args *a, const struct ind_site *s, const uint32_t **v,
		     uint32_t *n, uint32_t *outside);
/* What every caller of func passes in register reg, as ind_arg_targets;
 * *outside: an exported function is on the way (its modules' callers
 * may pass their own).  outside NULL: their calls left out, each such
 * function must have callers in the images. */
bool ind_arg_values(struct ind_args *a, uint32_t func, uint8_t reg, const uint32_t **v,
		    uint32_t *n, bool *outside);
/* The members the last ind_arg_values' callers load what they pass
 * from, before the keys are sealed (a caller's `f(p->cb)`): what each
 * holds is passed too, a flow into the member the value is stored in;
 * valid until the next call. */
void ind_arg_keys(const struct ind_args *a, const uint32_t **v, uint32_t *n);

/* The kernel's static calls (static_call.c), for a site s of a call of
 * an updater (insn_icall.update): its trampolines, into out (false when
 * unknown);
 * the trampolines it may then update, into out; when s is the
 * tracepoint code's and tramp a tracepoint's, the targets it may give
 * tramp, into out (else false); what DWARF or the code's constants say
 * s passes as the new target, into out (false: they do not say). */
bool ind_sc_tramp(struct ind_run *r, const struct ind_site *s, struct ids *out);
void ind_sc_tramps(struct ind_run *r, const struct ind_site *s, struct ids *out);
bool ind_sc_tracepoint(struct ind_run *r, const struct ind_site *s, uint32_t tramp,
		       struct ids *out);
bool ind_sc_value(struct ind_run *r, const struct ind_site *s, struct ids *out);

/* The stores to fixed addresses, by address (sites.c): before a word's
 * are asked for. */
void ind_abs_sort(struct ind_run *r);
/* The functions the word a load from a fixed address (links[0..n) of
 * image image: insn_arg_load's) holds, as a call through it finds them,
 * into out, the load typed into *t; false when not known (sites.c). */
bool ind_load_targets(struct ind_run *r, uint32_t image, const struct insn_link *links,
		      uint8_t nlinks, struct ind_target *t, struct ids *out);

/* The member key a load (links[0..n) of function caller in image
 * image: insn_arg_load's) reads, into *key; false when no member
 * (sites.c). */
bool ind_member_load(struct ind_run *r, uint32_t image, uint32_t caller,
		     const struct insn_link *links, uint8_t n, uint32_t *key);

/* The function whose entry addr is in image im, SP_NONE when none. */
uint32_t ind_func_at(const struct ind_image *im, uint64_t addr);
/* The image whose function id is, NULL when none. */
struct ind_image *ind_image_of(struct ind_run *r, uint32_t id);
/* args.c: the constant the code of image im loads into register reg
 * just before the call that returns to ret (insn/callargs.c), where
 * DWARF's call site value does not say; DW_ARG_UNKNOWN when none. */
struct dw_call_arg ind_code_arg(const struct ind_image *im, uint64_t ret, uint8_t reg);
/* The prototype of function func of image im (dw_func_proto's), NULL
 * unknown: the one read already when its address is taken or it is
 * exported, else read now. */
const char *ind_func_proto(struct ind_run *r, const struct ind_image *im, uint32_t func);
/* Type the chain of site s into s->t, with the images ims. */
void ind_type_site(struct ind_image *ims, struct ind_site *s);
/* Each site's targets, once the keys are sealed and the prototypes read
 * (kern: ind_kernel_init's): g->isites, the edges, the stats. */
struct ind_kernel;
int ind_add_sites(struct ind_run *r, struct ind_kernel *kern, struct sp_err *err);

/* layers.c: the outer member of site s (typed to a member, with the
 * chain links[0..n)) into s->path, when its chain loads that member
 * through a pointer member. */
void ind_site_layers(struct ind_image *im, const struct insn_link *links, uint8_t n,
		     struct ind_site *s);
/* The functions of key k the objects s's outer member holds have at
 * its offset, into out, when they are fewer than k's and every value
 * stored there is known; else false and nothing added. */
bool ind_layer_targets(struct ind_run *r, const struct ind_site *s, const struct ind_key *k,
		       struct ids *out);

/* The data objects the kernel images (kernel_image[], by image) export
 * to modules, which a module may store in any pointer member: as loose
 * objects. */
void ind_layer_exports(struct ind_run *r, const bool *kernel_image);

/* lines.c: the source line of each site of g->isites. */
void ind_site_lines(struct ind_run *r);

#endif
