/* internal.h - state shared by the indirect/ files; not for other stages. */
#ifndef SP_IND_INTERNAL_H
#define SP_IND_INTERNAL_H

#include "callgraph/callgraph.h"
#include "dwarf/dwarf.h"
#include "indirect/indirect.h"
#include "insn/passes.h"

/* ---- types (types.c) ---- */

enum ind_kind {
	IND_OTHER = 0,		/* base, enum, void, unknown */
	IND_STRUCT,		/* struct, class or union */
	IND_POINTER,
	IND_ARRAY,
	IND_FUNC,		/* a subroutine type */
};

struct ind_member {
	uint64_t off;
	uint64_t type;
	uint64_t die;		/* its own */
	const char *name;	/* read from die when first needed, once named */
	bool named;
	bool typed;		/* index is known */
	uint32_t index;		/* type's in ind_types.v, SP_NONE for none */
};

/* A pointer to a function inside a type, at off from its start.  It is
 * filed under a key, the innermost named struct holding it; the elements
 * of an array share the first one's key (key_off). */
struct ind_slot {
	uint64_t off;
	uint64_t key_off;	/* the offset its key names, from the type's start */
	uint32_t key;		/* SP_NONE: no named struct of the type holds it */
	const char *member;	/* its member's name, for a key made later */
	uint64_t func;		/* its subroutine type */
};

/* A type, seen through its typedefs and qualifiers. */
struct ind_type {
	uint8_t kind;		/* enum ind_kind */
	bool is_union;
	bool bad;		/* overlapping members, a loop: not trusted */
	bool members_read;	/* STRUCT: member, nmembers are read */
	bool unread;		/* STRUCT: ... and dwarf/ could not read them */
	uint8_t checked;	/* STRUCT: overlap checked (1), and bad (2) */
	uint64_t die;		/* the DIE under the typedefs and qualifiers */
	const char *name;	/* STRUCT: the tag, or the typedef naming it */
	uint64_t size;		/* bytes, 0 when unknown */
	uint64_t target;	/* POINTER: the pointee; ARRAY: the element */
	uint64_t func;		/* POINTER to a function: its subroutine type */
	uint64_t count;		/* ARRAY: the elements, 0 when unknown */
	uint32_t member, nmembers;	/* STRUCT: in ind_types.members, once read */
	/* STRUCT, checked 1, no union: its first member of no type or of a
	 * type of no known size, nmembers when none: the members are in
	 * order of offset, and of those before it one holds an offset at
	 * most */
	uint32_t first_empty;
	int32_t slot, nslots;	/* its function pointers, -1 until flattened */
	int32_t pslot, npslots;	/* its pointers to structs, -1 until flattened */
};

/* The longest chain of named structs, one inside the other, that a
 * pointer member is filed under (ind_pslot). */
#define IND_PATH 6

/* A pointer to a struct inside a type, at off from its start: filed
 * under each named struct holding it, its member in each (pkeys), the
 * elements of an array under the first one's. */
struct ind_pslot {
	uint64_t off;
	uint64_t key_off;	/* from the start of the type being flattened */
	uint32_t key[IND_PATH];	/* into ind_types.pkeys */
	uint8_t n;
};

struct ind_keys;

struct ind_types {
	struct dw_reader *reader;
	struct sp_graph *g;
	struct ind_keys *keys;
	struct ind_type *v;
	size_t n, cap;
	struct sp_u64map by_off;	/* DIE offset -> v index */
	struct ind_member *members;
	size_t nmembers, members_cap;
	struct ind_slot *slots;
	size_t nslots, slots_cap;
	struct ind_keys *pkeys;		/* the members that point to structs */
	struct ind_pslot *pslots;
	size_t npslots, pslots_cap;
	struct sp_u64map proto_by_off;	/* subroutine type DIE -> protos index */
	const char **protos;
	size_t nprotos, protos_cap;
	uint8_t addr_size;		/* a pointer's bytes */
	int depth;			/* type_index's recursion, bounded */
	/* ind_type_place's answers, by type and offset (place_key) */
	struct sp_u64map place_at;
	struct ind_place_answer *places;
	size_t nplaces, places_cap;
};

void ind_types_init(struct ind_types *t, struct dw_reader *reader, struct sp_graph *g,
		    struct ind_keys *keys, uint8_t addr_size);
void ind_types_release(struct ind_types *t);
/* Forget every type read: a unit's types are its own, so a reader going
 * unit after unit keeps one unit's (the keys stay). */
void ind_types_reset(struct ind_types *t);
/* The type at DIE off; NULL when off is 0 or no type.  Valid until the
 * next call (the array may move). */
const struct ind_type *ind_type_at(struct ind_types *t, uint64_t off);
/* The kind (enum ind_kind) of the type at DIE off, -1 when none: what
 * ind_type_at's says, without reading the pointee of a pointer nor
 * keeping the type (most types asked about this way are pointers, and
 * not asked about again). */
int ind_type_kind(struct ind_types *t, uint64_t off);
/* The pointer-to-function slots of the type at off: *n of them, offsets
 * from its start (arrays inside it expanded); NULL when none.  Valid
 * until the next call. */
const struct ind_slot *ind_type_slots(struct ind_types *t, uint64_t off, int32_t *n);
/* The pointers to structs of the type at off (arrays inside it
 * expanded, every member of a union): *n of them; NULL when none.
 * Valid until the next call. */
const struct ind_pslot *ind_type_pslots(struct ind_types *t, uint64_t off, int32_t *n);
/* The pointer member at byte off of struct type: into path[0..*n) the
 * key of each named struct holding it (the outermost first), and the
 * struct it points to into *pointee (its DIE); false when no pointer to
 * a struct is there, a union's other member may hold it, or more than
 * IND_PATH named structs do.  outer: only path[0] is asked for (a
 * union's first member that holds off is followed, the IND_PATH
 * outermost kept). */
bool ind_type_path(struct ind_types *t, uint64_t type, uint64_t off, bool outer,
		   uint32_t *path, uint8_t *n, uint64_t *pointee);
/* The keys a store at byte off of an object of type writes, when a
 * pointer to a struct is there: every named struct around it in each
 * member that holds off (a union's each), the IND_PATH innermost of
 * each way, into keys[0..max); their number. */
uint8_t ind_type_store_keys(struct ind_types *t, uint64_t type, uint64_t off, uint32_t *keys,
			    uint8_t max);
/* Is the word at byte off of an object of the type at DIE type an
 * integer (or enum, float) in each member that holds it, each as wide
 * as the word or wider: no pointer, nor anything unknown, there? */
bool ind_type_scalar_at(struct ind_types *t, uint64_t type, uint64_t off);
/* The prototype of the subroutine type at func, interned; NULL unknown. */
const char *ind_type_proto(struct ind_types *t, uint64_t func);

/* The most members a call below a struct may be one of (ind_place.any). */
#define IND_ANY_KEYS 4

/* Add key to the set any[0..*nany) (IND_ANY_KEYS at most); false when
 * it is not there and the set is full. */
static inline bool ind_any_add(uint32_t *any, uint8_t *nany, uint32_t key)
{
	uint8_t i;

	for (i = 0; i < *nany; i++)
		if (any[i] == key)
			return true;
	if (*nany == IND_ANY_KEYS)
		return false;
	any[(*nany)++] = key;
	return true;
}

/* What a pointer-sized word at an offset into a type is. */
struct ind_place {
	uint64_t type;		/* the word's type (a pointer), 0 when none */
	uint32_t key;		/* when a function pointer: its key, SP_NONE when
				 * no named struct holds it */
	uint64_t func;		/* when a function pointer: its subroutine type */
	uint64_t alts;		/* a union whose members there are several
				 * function pointers: its DIE, else 0 */
	uint64_t stride;	/* the size of an element of the innermost
				 * array holding the word, 0 when none */
	/* a container_of the unit's structs do not settle (container.c):
	 * the word is one of these members, each a function pointer */
	uint8_t nany;
	uint32_t any[IND_ANY_KEYS];
};
/* The word at byte off of an object of the type at DIE type (through
 * nested structs, unions and arrays); false when no pointer is there. */
bool ind_type_place(struct ind_types *t, uint64_t type, uint64_t off, struct ind_place *out);
/* The member of the union at DIE alts (a place's) that is a pointer to a
 * function of prototype proto, NULL when none is. */
const char *ind_union_member(struct ind_types *t, uint64_t alts, const char *proto);
/* The pointer types (DIEs) to a struct at byte off of type: a union's
 * each member there, into v[0..max); 0 when more. */
uint8_t ind_type_struct_ptrs(struct ind_types *t, uint64_t type, uint64_t off, uint64_t *v,
			     uint8_t max);

/* ---- keys (keys.c): the function pointers of one struct member ---- */

struct ind_key {
	const char *name;	/* the struct's name (interned) */
	uint64_t off;		/* the member's offset in it */
	const char *member;	/* its name, for the report */
	const char *proto;	/* its prototype (proto.c's form), NULL unknown */
	uint32_t next;		/* the next key of the same struct */
	uint32_t *targets;	/* function ids, sorted and unique once sealed */
	uint32_t ntargets, cap;
	bool escaped;		/* a value of unknown origin is stored there */
	bool local;		/* a function's parameter holds it, or a local
				 * written at an offset not known: written
				 * there unseen (exported.c) */
	bool module;		/* an argument of a function a kernel exports
				 * is stored there: a module's code may pass
				 * its own (args.c, exported.c) */
	uint32_t *code;		/* those the code puts there (a store, an
				 * argument, a copy, a store no type tells),
				 * not the data: sorted and unique once sealed */
	uint32_t ncode, code_cap;
	bool pescaped;		/* a pointer member: a value not a known
				 * object is stored there */
	bool pescaped_outer;	/* ... through a pointer to this struct */
};

/* An object a pointer member holds (its address): a data word of an
 * initialised variable (filed under every key of its ind_pslot) or a
 * store's constant (under every key of its place, store 2 for the
 * outermost one, 1 for the others). */
struct ind_pobj {
	uint64_t addr;
	uint32_t key, image;
	uint8_t store;
};

struct ind_keys {
	struct ind_key *v;
	uint32_t n, cap;
	struct sp_u64map by_name;	/* name pointer -> first key */
	/* pointer members (ind_types.pkeys): the objects found there */
	struct ind_pobj *objs;
	uint32_t nobjs, objs_cap;
	uint32_t *pool;		/* the keys of the stores' places (ind_store) */
	uint32_t npool, pool_cap;
	bool deep;		/* a pointer of more named structs than IND_PATH */
};

void ind_keys_init(struct ind_keys *k);
void ind_keys_release(struct ind_keys *k);
/* The key of member off of struct name, made when new. */
uint32_t ind_key(struct ind_keys *k, const char *name, uint64_t off, const char *member,
		 const char *proto);
void ind_key_add(struct ind_keys *k, uint32_t key, uint32_t func);
/* ... put there by the code (also into ind_key.code). */
void ind_key_add_code(struct ind_keys *k, uint32_t key, uint32_t func);
/* Object addr of image stored in pointer member key. */
void ind_key_obj(struct ind_keys *k, uint32_t key, uint32_t image, uint64_t addr, uint8_t store);
/* Sort and make unique every key's targets. */
void ind_keys_seal(struct ind_keys *k);
/* Sort v[0..n) and drop repeats; the count left. */
uint32_t ind_unique_ids(uint32_t *v, uint32_t n);

/* ---- the image's data (data.c) ---- */

struct ind_section {
	uint64_t addr, size;
	const unsigned char *bytes;	/* NULL: no bytes in the file (.bss) */
	bool writable;
};

/* A word the loader writes: a PIE's RELATIVE relocation, an object's
 * absolute relocation. */
struct ind_reloc {
	uint64_t addr, value;
};

/* A data object's symbol: where the linker put how many bytes. */
struct ind_object {
	uint64_t addr, size;
	bool global;		/* STB_GLOBAL or STB_WEAK: another image may name it */
};

struct ind_data {
	struct ind_section *secs;	/* allocated, not code, by address */
	size_t nsecs;
	struct ind_object *objects;	/* STT_OBJECT symbols, by address */
	size_t nobjects;
	struct ind_reloc *relocs;	/* by address */
	size_t nrelocs;
	unsigned word;			/* 8 or 4 */
	bool msb;
};

void ind_data_init(struct ind_data *d, const struct sp_elf *e, struct sp_graph *g);
void ind_data_release(struct ind_data *d);
/* The word at addr as the loaded image has it; false when there is none
 * in the file (.bss, no section). */
bool ind_data_word(const struct ind_data *d, uint64_t addr, uint64_t *value);
/* Each word of section secs[k] that ind_data_word reads and whose value
 * is in [lo, hi], in address order, to fn: one pass, no search per word
 * (the callers look for code addresses, which most words are not). */
void ind_data_words(const struct ind_data *d, size_t k, uint64_t lo, uint64_t hi,
		    void (*fn)(void *arg, uint64_t addr, uint64_t value), void *arg);
/* The section holding addr, NULL when none. */
const struct ind_section *ind_data_section(const struct ind_data *d, uint64_t addr);
/* The size of the data symbol at addr, 0 when none is there. */
uint64_t ind_data_object_size(const struct ind_data *d, uint64_t addr);
/* Is every data symbol at addr local (STB_LOCAL), at least one there? */
bool ind_data_object_local(const struct ind_data *d, uint64_t addr);

/* ---- where variables are, by pc (locs.c) ---- */

#define IND_REG_FRAME 0xfe	/* ind_loc.reg: in memory at the CFA + off */

struct ind_loc {
	uint64_t lo, hi;	/* [lo, hi): the variable is reg + off */
	int64_t off;		/* 0, or a container_of's (DW_OP_breg5 -32) */
	uint64_t type;
	uint8_t reg;
	/* the variable is live over [lo, hi) and is, where DWARF says so,
	 * reg's value at the function's entry plus off (DW_OP_entry_value:
	 * container_of(timer, struct rq, hrtick_timer)) */
	bool entry;
	/* or the variable is in memory (dw_reg_vars.in_memory): its value
	 * is the word at mem[nmem - 1] from ... the word at mem[0] from reg
	 * (`rft = of->kn->priv`: a load the chain makes from a member DWARF
	 * calls void *, typed by the variable), plus off (page_movable_ops():
	 * page->mapping - PAGE_MAPPING_MOVABLE, off -2); nmem 0 otherwise */
	uint8_t nmem;
	int64_t mem[DW_MEM_PATH];
	/* a pointer to an integer of a word or more (`unsigned long
	 * *parent`), in a register: no chain loads on from it, only a
	 * store's base is typed by it (ind_type_word_pointer) */
	bool word;
};

struct ind_locs {
	struct dw_reader *reader;
	struct ind_types *types;
	uint32_t func;		/* whose locations v holds, SP_NONE */
	/* the function whose locations are read when first asked for
	 * (ind_locs_get): one whose chains are all typed from their roots
	 * (a table, a global) needs none */
	const struct sp_func *pending;
	uint32_t pending_func;
	const uint64_t *pcs;
	size_t npcs;
	struct ind_loc *v;
	size_t n, cap;
	/* what the last type asked about is (locs.c's class_of): a
	 * variable's type is asked about for it, then for each of its spans */
	uint64_t class_type;
	uint8_t class;
};

/* The locations of function func's pointer parameters and variables
 * that are a register, and of its structs holding function pointers
 * that are in its frame (IND_REG_FRAME), as dw_func_reg_vars gives them
 * for pcs[0..npcs) (the only ones asked about). */
void ind_locs_init(struct ind_locs *l, struct dw_reader *reader, struct ind_types *types);
void ind_locs_load(struct ind_locs *l, const struct sp_func *f, uint32_t func,
		   const uint64_t *pcs, size_t npcs);
/* As ind_locs_load, but read when ind_locs_get first asks (pcs stays
 * the caller's until then); f NULL: none. */
void ind_locs_defer(struct ind_locs *l, const struct sp_func *f, uint32_t func,
		    const uint64_t *pcs, size_t npcs);
/* The locations, read now if they were deferred. */
const struct ind_locs *ind_locs_get(struct ind_locs *l);
void ind_locs_release(struct ind_locs *l);

/* ---- one image's resolution (indirect.c, scan.c, resolve.c) ---- */

/* A variable at a fixed address, its size from its type. */
struct ind_var {
	uint64_t addr, size;
	uint64_t type;
	uint64_t die;		/* for its name, in the report */
};

/* A store's or a site's typed meaning. */
enum ind_target_kind {
	IND_TK_NONE = 0,
	IND_TK_KEY,		/* a member of a struct: key */
	IND_TK_WORD,		/* the word at addr */
	IND_TK_TABLE,		/* the words of the array at addr, stride apart */
	IND_TK_PROTO,		/* any function of prototype proto */
	IND_TK_CONST,		/* the function at addr */
	IND_TK_OBJ,		/* a pointer to an object: its type's DIE in addr,
				 * the value the pointer plus first */
	IND_TK_KEYS,		/* one of the members any[0..nany) (a container
				 * the unit's structs do not settle) */
};

struct ind_target {
	uint8_t kind;		/* enum ind_target_kind */
	bool want_obj;		/* asked for an OBJ (ind_type_pointer) */
	bool want_word;		/* and a variable that points to an integer
				 * may say it (ind_type_word_pointer) */
	uint32_t key;		/* KEY, and WORD/TABLE inside a named struct */
	uint64_t addr, first, end, stride;	/* WORD, TABLE, CONST */
	uint64_t var;		/* WORD, TABLE: the variable's address */
	const char *proto;	/* the function type when known */
	const char *desc;	/* "struct file_operations.read_iter", "ops[]" */
	uint64_t alts;		/* KEY: a union of several function types there */
	uint8_t nany;		/* KEYS */
	uint32_t any[IND_ANY_KEYS];
};

/* ---- the structs a unit defines, for a container (container.c) ---- */

struct ind_units {
	uint64_t lo, hi;		/* the unit read: its DIE offsets, [0, 0) none */
	bool ok;			/* read to its end */
	/* a call's chain no other way types (ind_type_call_chain): the
	 * unit's walk is asked for only then */
	bool wanted;
	/* a load read past the end of its pointee while not wanted: the
	 * call's chain may read a struct that holds it (a cast) */
	bool past_end;
	struct ind_unit_member {
		uint64_t parent, off, type;
	} *m;
	size_t nm, mcap;
	struct ind_unit_alias {
		uint64_t die, type;
		bool array;
	} *a;
	size_t na, acap;
	/* the unit's answers so far: a header's inline function asks the
	 * same at each of its copies */
	struct ind_unit_answer {
		uint64_t pointee;
		int64_t at;
		bool last, ok;
		struct ind_place p;
	} *ans;
	size_t nans, anscap;
};

struct ind_image;
/* The word at at bytes from a struct of type pointee, below it (a
 * container_of) or past its end (a cast to a struct that begins with it:
 * inet_csk(sk)), as every struct of the unit that holds one says it (the
 * same function pointer's key and prototype when last, else the same
 * pointer type to go on with); false when they disagree or none says. */
bool ind_container_place(struct ind_image *im, uint64_t pointee, int64_t at, bool last,
			 struct ind_place *out);
void ind_units_release(struct ind_units *u);

struct ind_image {
	struct cg_image *img;
	struct dw_image *dw;
	struct dw_reader *reader;	/* dw's, or the typing thread's */
	struct insn_image *code;
	const struct sp_elf *elf;
	struct sp_graph *g;
	uint32_t types_unit;		/* dw_reader_moves when types was last reset */
	struct ind_types types;
	struct ind_locs locs;
	struct ind_units units;
	struct ind_data data;
	struct ind_var *vars;	/* by address */
	size_t nvars;
};

/* What the value at links[0] of the chain links[0..n) is (chain.c), the
 * locations of its function deferred (ind_locs_defer, with every link's pc):
 * false when nothing is known. */
bool ind_type_chain(struct ind_image *im, const struct insn_link *links, uint8_t n,
		    struct ind_target *out);
/* As ind_type_chain, for a call: when that gives no member nor word, the
 * chain typed again with a load below a struct read as a member of a
 * struct of the unit that holds it (ind_container_place). */
bool ind_type_call_chain(struct ind_image *im, const struct insn_link *links, uint8_t n,
			 struct ind_target *out);

/* The pointer the chain links[0..n) computes (not a function: every
 * load of it reads a pointer on), as ind_type_chain types it: its type
 * DIE *ptr (valid while the unit's types are) and *bias, the value
 * being the pointer plus it; false when not known. */
bool ind_type_pointer(struct ind_image *im, const struct insn_link *links, uint8_t n,
		      uint64_t *ptr, int64_t *bias);
/* ind_type_pointer, where a variable DWARF locates in a register of the
 * chain may also be a pointer to an integer (ind_loc.word): the pointer
 * a store writes a word through. */
bool ind_type_word_pointer(struct ind_image *im, const struct insn_link *links, uint8_t n,
			   uint64_t *ptr, int64_t *bias);

/* Move im's reader to the unit of the DIE at off, its types forgotten
 * when it moves (indirect.c). */
void ind_seek_unit(struct ind_image *im, uint64_t off);

/* Every variable's address, size and type (dw->vars), sorted; those
 * whose size disagrees with their symbol's in data left out. */
void ind_vars_load(struct ind_image *im, const struct ind_data *data);
/* The variable holding addr, NULL when none. */
const struct ind_var *ind_var_at(const struct ind_image *im, uint64_t addr);

#endif
