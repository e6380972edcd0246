/*
 * build.c - turn the DWARF records into sp_graph functions and edges.
 *
 * A function is identified by its entry address: every DIE, symbol and
 * alias that names the same address is the same node.  Call sites are
 * attributed to the function whose code holds their return address - 1,
 * not to the DIE they are nested in: some sit in lexical blocks of the
 * abstract tree.
 */
#include "callgraph/internal.h"

#include <string.h>

#include "common/search.h"
#include "common/xalloc.h"
#include "insn/icall.h"

static int range_cmp(const void *pa, const void *pb)
{
	const struct cg_range *a = pa, *b = pb;

	return (a->lo > b->lo) - (a->lo < b->lo);
}

static uint64_t range_lo(const void *base, size_t i)
{
	return ((const struct cg_range *)base)[i].lo;
}

/* The last range starting at or before addr (nranges: none), tried first
 * at hint and the range after it: the code's calls come by site, a
 * function's in a row, and most of its jumps stay inside it. */
static size_t range_index(const struct cg_image *img, size_t hint, uint64_t addr)
{
	size_t k;

	for (k = hint; k < img->nranges && k <= hint + 1; k++)
		if (img->ranges[k].lo <= addr &&
		    (k + 1 == img->nranges || img->ranges[k + 1].lo > addr))
			return k;
	return sp_search_last_le(img->ranges, img->nranges, range_lo, addr);
}

/* The function of range i (from range_index) if it holds addr. */
static uint32_t range_func(const struct cg_image *img, size_t i, uint64_t addr)
{
	return i < img->nranges && addr < img->ranges[i].hi ? img->ranges[i].func : SP_NONE;
}

uint32_t cg_func_containing(const struct cg_image *img, uint64_t addr)
{
	return range_func(img, sp_search_last_le(img->ranges, img->nranges, range_lo, addr),
			  addr);
}

static void add_range(struct cg_image *img, size_t *cap, uint64_t lo, uint64_t hi,
		      uint32_t func)
{
	if (hi <= lo)
		return;
	SP_ALLOC_GROW(img->ranges, img->nranges + 1, *cap);
	img->ranges[img->nranges].lo = lo;
	img->ranges[img->nranges].hi = hi;
	img->ranges[img->nranges].func = func;
	img->nranges++;
}

static bool is_cold_name(const char *name)
{
	const char *dot = strstr(name, ".cold");

	return dot && (dot[5] == '\0' || dot[5] == '.');
}

/* The symbol at addr that best names a function: its own name if present. */
static const struct sp_elf_sym *sym_at(const struct sp_elf *e, uint64_t addr,
				   const char *name, const char *linkage)
{
	uint32_t i = sp_u64map_get(&e->sym_by_addr, addr);
	size_t j;

	if (i == SP_NONE)
		return NULL;
	for (j = i; j < e->nsyms && e->syms[j].addr == addr; j++)
		if (e->syms[j].name == linkage || e->syms[j].name == name)
			return &e->syms[j];
	return &e->syms[i];
}

/* Is a symbol at addr an IFUNC?  The resolver's DWARF names its FUNC
 * symbol (__new_memcpy_ifunc), the IFUNC (memcpy) is another at the
 * same address. */
static bool ifunc_at(const struct sp_elf *e, uint64_t addr)
{
	uint32_t i = sp_u64map_get(&e->sym_by_addr, addr);
	size_t j;

	for (j = i; i != SP_NONE && j < e->nsyms && e->syms[j].addr == addr; j++)
		if (e->syms[j].ifunc)
			return true;
	return false;
}

/* A function split by -freorder-blocks-and-partition has DW_AT_ranges; it is
 * entered at the range that a non-.cold symbol names. */
static uint64_t sub_entry(const struct cg_image *img, const struct dw_sub *s)
{
	uint32_t k;

	for (k = 0; k < s->nranges; k++) {
		uint64_t lo = img->dw.xranges[s->range_first + k].lo;
		const struct sp_elf_sym *sym = sym_at(&img->elf, lo, NULL, NULL);

		if (sym && !is_cold_name(sym->name))
			return lo;
	}
	return s->lo;
}

static bool addr_is_linked(const struct cg_image *img, uint64_t addr)
{
	/* in a relocatable object every section starts at 0 */
	if (img->elf.type == ET_REL)
		return true;
	/* a discarded function keeps its DIE with a tombstone address */
	return sp_elf_is_code(&img->elf, addr) && !sp_elf_in_plt(&img->elf, addr);
}

static void note_copy(struct cg_image *img, uint32_t abstract, uint32_t func)
{
	uint64_t off = img->dw.subs[abstract].off;

	/* the first copy stands for all: the call instruction, tried first,
	 * picks the right clone wherever it can be decoded */
	if (sp_u64map_get(&img->copies, off) == SP_NONE)
		sp_u64map_put(&img->copies, off, func);
}

static uint32_t new_dwarf_func(struct cg_image *img, uint32_t si, uint64_t entry)
{
	struct sp_graph *g = img->g;
	struct dw_decl d;
	const struct sp_elf_sym *sym;
	uint32_t id;
	struct sp_func *f;

	dw_sub_resolve(&img->dw, si, &d);
	sym = sym_at(&img->elf, entry, d.name, d.linkage);
	id = sp_graph_add_func(g);
	f = &g->funcs[id];
	f->symbol = sym ? sym->name : NULL;
	f->name = d.name ? d.name : d.linkage ? d.linkage : f->symbol;
	if (!f->name)
		f->name = sp_intern(g, "<anonymous>");
	f->file = d.file;
	f->line = d.line;
	f->col = d.col;
	f->addr = entry;
	f->cu = img->dw.subs[si].cu;
	f->die = img->dw.subs[si].off;
	f->flags = SP_F_HAS_CODE | (ifunc_at(&img->elf, entry) ? SP_F_IFUNC : 0);
	if (!img->dw.subs[si].all_calls)
		f->flags |= SP_F_CALLS_INCOMPLETE;
	if (d.abstract != SP_NONE) {
		f->origin_die = img->dw.subs[d.abstract].off;
		note_copy(img, d.abstract, id);
	}
	return id;
}

static void make_dwarf_funcs(struct cg_image *img, size_t *rcap)
{
	size_t i;
	uint32_t k;

	for (i = 0; i < img->dw.nsubs; i++) {
		struct dw_sub *s = &img->dw.subs[i];
		uint64_t entry;
		uint32_t id;

		if (s->declaration || s->hi <= s->lo)
			continue;
		entry = sub_entry(img, s);
		if (!addr_is_linked(img, entry))
			continue;
		id = sp_u64map_get(&img->func_by_addr, entry);
		if (id == SP_NONE) {
			id = new_dwarf_func(img, (uint32_t)i, entry);
			sp_u64map_put(&img->func_by_addr, entry, id);
			s = &img->dw.subs[i];	/* resolving may have moved subs */
			img->g->funcs[id].size = s->hi - s->lo;
		}
		s->func = id;
		if (!s->nranges)
			add_range(img, rcap, s->lo, s->hi, id);
		for (k = 0; k < s->nranges; k++)
			add_range(img, rcap, img->dw.xranges[s->range_first + k].lo,
				  img->dw.xranges[s->range_first + k].hi, id);
	}
}

/* DWARF subprograms without code, by name: where an ICF-folded function or
 * a thunk keeps its declaration coordinates (defs), and the DIE that says
 * its prototype (protos): that definition when it is the only one of its
 * name (two static functions of one name are two functions), else an
 * external declaration, which every other of its name must be compatible
 * with (C11 6.2.7): an assembly function's C declaration. */
struct codeless {
	struct sp_u64map defs, protos, decls;
};

#define CODELESS_TWICE (SP_NONE - 1)

static void index_name(struct codeless *c, const char *name, uint32_t i, bool decl)
{
	uint32_t old;

	if (!name)
		return;
	if (decl) {
		if (sp_u64map_get(&c->decls, (uintptr_t)name) == SP_NONE)
			sp_u64map_put(&c->decls, (uintptr_t)name, i);
		return;
	}
	sp_u64map_put(&c->defs, (uintptr_t)name, i);
	old = sp_u64map_swap(&c->protos, (uintptr_t)name, i);
	if (old != SP_NONE && old != i)
		sp_u64map_put(&c->protos, (uintptr_t)name, CODELESS_TWICE);
}

static void index_codeless(struct cg_image *img, struct codeless *c)
{
	size_t i;

	sp_u64map_init(&c->defs, img->dw.nsubs / 4);
	sp_u64map_init(&c->protos, img->dw.nsubs / 4);
	sp_u64map_init(&c->decls, img->dw.nsubs / 4);
	for (i = 0; i < img->dw.nsubs; i++) {
		const struct dw_sub *s = &img->dw.subs[i];
		bool decl = s->declaration;

		if (s->hi > s->lo || !s->file || (decl && !s->external))
			continue;
		index_name(c, s->linkage, (uint32_t)i, decl);
		if (s->name != s->linkage)
			index_name(c, s->name, (uint32_t)i, decl);
	}
}

/* f's DIE that says the prototype of symbol sym, which DWARF gives no
 * code; none when two definitions of a local symbol's name could (two
 * static functions of one name are two functions).  A global symbol's
 * two (the kernel's __x64_sys_fadvise64: mm/fadvise.c's and
 * kernel/sys_ni.c's weak one, folded) are one function's, which its
 * external declaration says, as every declaration of it must agree. */
static void codeless_proto(const struct cg_image *img, const struct codeless *c,
			   const struct sp_elf_sym *sym, struct sp_func *f)
{
	uint32_t si = sp_u64map_get(&c->protos, (uintptr_t)sym->name);

	if (si == CODELESS_TWICE && sym->bind == STB_LOCAL)
		return;
	if (si == CODELESS_TWICE) {
		si = sp_u64map_get(&c->decls, (uintptr_t)sym->name);
	} else if (si == SP_NONE && sym->bind != STB_LOCAL) {
		si = sp_u64map_get(&c->decls, (uintptr_t)sym->name);
		if (si != SP_NONE)
			f->flags |= SP_F_DECLARED;
	}
	if (si != SP_NONE)
		f->decl_die = img->dw.subs[si].off;
}

/* A function whose DIE is an assembler's (GNU as --gdwarf-N writes a
 * name and a range: no declaration coordinates, no prototype) and whose
 * symbol is global: its prototype is its C declaration's, as for one
 * DWARF gives no code (wakeup_long64, `extern void wakeup_long64(void)`,
 * would otherwise be of every prototype class). */
static void asm_decls(struct cg_image *img, const struct codeless *c)
{
	const struct sp_elf_sym *sym;
	struct sp_func *f;
	uint32_t si;
	size_t i;

	for (i = 0; i < img->dw.nsubs; i++) {
		const struct dw_sub *s = &img->dw.subs[i];

		if (s->declaration || s->hi <= s->lo || s->file || s->origin || s->spec ||
		    s->func == SP_NONE)
			continue;
		f = &img->g->funcs[s->func];
		if (f->die != s->off || f->decl_die || !f->symbol)
			continue;
		sym = sym_at(&img->elf, f->addr, f->symbol, NULL);
		si = sp_u64map_get(&c->decls, (uintptr_t)f->symbol);
		if (!sym || sym->bind == STB_LOCAL || si == SP_NONE)
			continue;
		f->decl_die = img->dw.subs[si].off;
		f->flags |= SP_F_DECLARED;
	}
}

static void codeless_release(struct codeless *c)
{
	sp_u64map_release(&c->defs);
	sp_u64map_release(&c->protos);
	sp_u64map_release(&c->decls);
}

static void make_symtab_funcs(struct cg_image *img, size_t *rcap)
{
	struct sp_graph *g = img->g;
	struct codeless c;
	size_t i;

	index_codeless(img, &c);
	for (i = 0; i < img->elf.nsyms; i++) {
		const struct sp_elf_sym *sym = &img->elf.syms[i];
		uint32_t id, si;
		struct sp_func *f;

		if (!sym->size || !addr_is_linked(img, sym->addr) ||
		    sp_u64map_get(&img->func_by_addr, sym->addr) != SP_NONE ||
		    cg_func_containing(img, sym->addr) != SP_NONE)
			continue;	/* an alias, a .cold part, or not code */
		id = sp_graph_add_func(g);
		f = &g->funcs[id];
		f->name = f->symbol = sym->name;
		f->addr = sym->addr;
		f->size = sym->size;
		/* no DWARF: its calls are unknown until its code is read */
		f->flags = SP_F_HAS_CODE | SP_F_SYMTAB_ONLY | SP_F_CALLS_INCOMPLETE |
			   (sym->ifunc ? SP_F_IFUNC : 0);
		codeless_proto(img, &c, sym, f);
		si = sp_u64map_get(&c.defs, (uintptr_t)sym->name);
		if (si != SP_NONE) {
			f->file = img->dw.subs[si].file;
			f->line = img->dw.subs[si].line;
			f->col = img->dw.subs[si].col;
			f->cu = img->dw.subs[si].cu;
			if (img->dw.subs[si].name)
				f->name = img->dw.subs[si].name;
		}
		sp_u64map_put(&img->func_by_addr, sym->addr, id);
		add_range(img, rcap, sym->addr, sym->addr + sym->size, id);
		img->stats.symtab_only++;
	}
	asm_decls(img, &c);
	codeless_release(&c);
}

static void sort_ranges(struct cg_image *img)
{
	if (img->nranges)
		qsort(img->ranges, img->nranges, sizeof(*img->ranges), range_cmp);
}

/* ---- callee resolution ---- */

static uint32_t extern_func(struct cg_image *img, const struct dw_decl *d)
{
	const char *name = d->linkage ? d->linkage : d->name;
	struct sp_graph *g = img->g;
	uint32_t id;

	if (!name)
		return SP_NONE;
	id = sp_u64map_get(&img->extern_by_name, (uintptr_t)name);
	if (id != SP_NONE)
		return id;
	id = sp_graph_add_func(g);
	g->funcs[id].name = name;	/* "memset", not GCC's "__builtin_memset" */
	g->funcs[id].symbol = name;
	g->funcs[id].file = d->file;
	g->funcs[id].line = d->line;
	g->funcs[id].col = d->col;
	g->funcs[id].flags = SP_F_EXTERNAL;
	sp_u64map_put(&img->extern_by_name, (uintptr_t)name, id);
	return id;
}

static uint32_t extern_named(struct cg_image *img, const char *name)
{
	struct dw_decl d = { .name = name, .linkage = name, .abstract = SP_NONE };

	return extern_func(img, &d);
}

/* A direct call's target: a function, or the external one behind a PLT stub. */
static uint32_t callee_at(struct cg_image *img, uint64_t addr)
{
	uint32_t id = sp_u64map_get(&img->func_by_addr, addr);
	const char *plt;
	uint64_t irel;

	/* ARM: a Thumb symbol has bit 0 set, its DWARF entry not */
	if (id == SP_NONE && img->elf.arch->thumb)
		id = sp_u64map_get(&img->func_by_addr, addr ^ 1);
	if (id == SP_NONE && (plt = sp_elf_plt_name(&img->elf, addr)))
		id = extern_named(img, plt);
	/* a library's call through its own IRELATIVE slot runs what the
	 * IFUNC picks, as a call to the IFUNC does */
	if (id == SP_NONE && (irel = sp_elf_plt_irelative(&img->elf, addr)))
		id = sp_u64map_get(&img->func_by_addr, irel);
	return id;
}

/* Global symbols by name, for declarations resolved across units; a weak
 * default the linker overrode has no symbol left, so the winner is found. */
static void index_global_names(struct cg_image *img, struct sp_u64map *by_name)
{
	size_t i;

	sp_u64map_init(by_name, img->elf.nsyms);
	for (i = 0; i < img->elf.nsyms; i++) {
		const struct sp_elf_sym *sym = &img->elf.syms[i];
		uint32_t id = sp_u64map_get(&img->func_by_addr, sym->addr);

		if (id == SP_NONE)
			continue;
		if (sym->bind != STB_LOCAL ||
		    sp_u64map_get(by_name, (uintptr_t)sym->name) == SP_NONE)
			sp_u64map_put(by_name, (uintptr_t)sym->name, id);
	}
}

struct resolver {
	struct cg_image *img;
	struct sp_u64map by_name;
};

static uint32_t by_decl_name(struct resolver *r, const struct dw_decl *d)
{
	uint32_t id = SP_NONE;

	if (d->linkage)
		id = sp_u64map_get(&r->by_name, (uintptr_t)d->linkage);
	if (id == SP_NONE && d->name)
		id = sp_u64map_get(&r->by_name, (uintptr_t)d->name);
	return id;
}

/* The function a DW_AT_call_origin names.  An abstract origin may have
 * several concrete copies (clones): then only the instruction can tell, and
 * the caller has already tried it. */
static uint32_t resolve_origin(struct resolver *r, uint64_t off)
{
	struct cg_image *img = r->img;
	uint32_t si = dw_sub_at(&img->dw, off), id;
	struct dw_decl d;

	if (si == SP_NONE)
		return SP_NONE;
	id = img->dw.subs[si].func;
	if (id != SP_NONE && img->g->funcs[id].symbol)
		return id;
	dw_sub_resolve(&img->dw, si, &d);
	if (id != SP_NONE) {
		/* concrete but without a symbol: maybe a weak the linker overrode */
		uint32_t winner = by_decl_name(r, &d);

		return winner != SP_NONE ? winner : id;
	}
	id = sp_u64map_get(&img->copies, off);
	if (id != SP_NONE)
		return id;
	id = by_decl_name(r, &d);
	if (id != SP_NONE)
		return id;
	return extern_func(img, &d);
}

static uint32_t func_at(const struct cg_image *img, uint64_t addr)
{
	return sp_u64map_get(&img->func_by_addr, addr);
}

/* The callee of the direct branch ending at site whose encoded target is
 * addr: in a relocatable object the relocation says, and a symbol it
 * leaves undefined is a function of another ELF, found by name later -
 * except the kernel's thunks: a jump to the return thunk returns, and a
 * branch to a retpoline thunk is an indirect call. */
static uint32_t branch_callee(struct cg_image *img, uint64_t site, uint64_t addr)
{
	const struct sp_elf_reloc *rel = sp_elf_branch_reloc(&img->elf, site);

	if (!rel)
		return callee_at(img, addr);
	if (rel->name && (sp_elf_return_thunk(rel->name) ||
			  insn_thunk_reg(rel->name) != INSN_REG_NONE))
		return SP_NONE;
	if (rel->name)
		return extern_named(img, rel->name);
	return callee_at(img, rel->target);
}

/* Clang places a tail call by its jump (DW_AT_call_pc) and gives no
 * return address: the end of the jump stands for one. */
static void place_by_jump(const struct cg_image *img, struct dw_site *site)
{
	unsigned len = insn_jump_len_at(&img->elf, site->call_pc);

	site->ret_pc = site->call_pc + (len ? len : 1);
	site->no_decode = !len;
}

static void add_site_edge(struct resolver *r, struct dw_site *site)
{
	struct cg_image *img = r->img;
	uint32_t caller, callee = SP_NONE;
	enum sp_edge_kind kind = site->tail ? SP_EDGE_TAIL : SP_EDGE_CALL;
	enum insn_branch insn = INSN_BRANCH_NONE;
	uint64_t addr = 0;

	if (!site->ret_pc)
		place_by_jump(img, site);
	caller = cg_func_containing(img, site->ret_pc - 1);
	if (caller == SP_NONE && site->sub != SP_NONE)
		caller = img->dw.subs[site->sub].func;
	if (caller == SP_NONE) {
		img->stats.orphan_sites++;
		return;
	}
	if (site->computed)
		goto indirect;
	if (site->target)
		callee = func_at(img, site->target);
	/* the instruction is the ground truth: clones share one abstract
	 * origin, and a weak symbol may have been overridden */
	if (callee == SP_NONE && !site->no_decode)
		insn = insn_branch_before(&img->elf, site->ret_pc, &addr);
	if (callee == SP_NONE && (insn == INSN_BRANCH_CALL || insn == INSN_BRANCH_JUMP)) {
		callee = img->elf.type == ET_REL ? branch_callee(img, site->ret_pc, addr) :
			 func_at(img, addr);
		if (callee != SP_NONE) {
			img->stats.edges_decoded++;
			if (insn == INSN_BRANCH_JUMP)
				kind = SP_EDGE_TAIL;
		}
	}
	if (callee == SP_NONE && site->origin)
		callee = resolve_origin(r, site->origin);
	if (callee == SP_NONE)
		goto indirect;
	sp_graph_add_edge(img->g, caller, callee, kind, site->ret_pc);
	return;
indirect:
	img->g->funcs[caller].n_indirect++;
	img->stats.indirect++;
	if (site->type) {
		SP_ALLOC_GROW(img->icalls, img->nicalls + 1, img->icalls_cap);
		img->icalls[img->nicalls].func = caller;
		img->icalls[img->nicalls++].type = site->type;
	}
}

/* ---- merging the disassembly ---- */

static uint64_t pair_key(uint32_t from, uint32_t to)
{
	return (uint64_t)from << 32 | to;
}

/* (caller, callee) -> the first edge DWARF gave the pair; the edges of
 * earlier images leave other callers */
static void index_dwarf_pairs(const struct cg_image *img, struct sp_u64map *pairs)
{
	uint32_t i;

	sp_u64map_init(pairs, img->g->nedges - img->edge_first);
	for (i = img->g->nedges; i-- > img->edge_first;)
		sp_u64map_put(pairs, pair_key(img->g->edges[i].from, img->g->edges[i].to), i);
}

/* Trust the code's indirect branches only where DWARF did not list calls:
 * elsewhere DWARF already counted them, and knows jump tables from calls. */
static bool wants_code_indirect(const struct cg_image *img, const struct sp_func *f)
{
	return img->opts.calls == CG_CALLS_DISASM || (f->flags & SP_F_CALLS_INCOMPLETE);
}

uint32_t cg_branch_enters(enum insn_branch kind, uint32_t caller, uint32_t start,
			  uint32_t inside)
{
	/* a branch into the middle of another function (an assembly
	 * routine's second entry, the kernel's __put_user_nocheck_8 inside
	 * __put_user_8) enters that function: dropping it would hide a frame */
	uint32_t callee = start != SP_NONE ? start : inside;

	if (callee != caller)
		return callee;
	/* a call to its own entry is recursion; a jump there is a loop, not
	 * a tail call, and a branch to a label inside stays in the function */
	return kind == INSN_BRANCH_CALL && start == caller ? caller : SP_NONE;
}

/* merge_call's state from one call to the next, in site order. */
struct merge {
	struct sp_u64map pairs;
	uint32_t *indirect;	/* indirect calls by caller, one of the image's own functions */
	uint8_t *lost;		/* by caller: a call to code no function holds */
	size_t range;		/* range_index of the last call's site */
};

uint32_t cg_code_callee(struct cg_image *img, const struct insn_call *c, uint32_t caller,
			size_t hint, bool *lost)
{
	uint32_t callee = branch_callee(img, c->site, c->target), inside = SP_NONE;

	if (callee == SP_NONE && !sp_elf_branch_reloc(&img->elf, c->site))
		inside = range_func(img, range_index(img, hint, c->target), c->target);
	/* a stripped library without its debug file names only its exports:
	 * a call to one of its local functions is a call to nothing known */
	*lost = callee == SP_NONE && inside == SP_NONE && img->lib &&
		sp_elf_is_code(&img->elf, c->target);
	return cg_branch_enters(c->branch, caller, callee, inside);
}

static void merge_call(struct cg_image *img, const struct insn_call *c, struct merge *m)
{
	uint32_t caller, callee;
	enum sp_edge_kind kind;
	uint32_t known;
	bool lost;

	m->range = range_index(img, m->range, c->site - 1);
	caller = range_func(img, m->range, c->site - 1);
	/* an IFUNC's resolver runs when the library is loaded, not when it
	 * is called: its calls are none of its callers' (ifunc_edges) */
	if (caller == SP_NONE || c->branch == INSN_BRANCH_NONE ||
	    (img->g->funcs[caller].flags & SP_F_IFUNC))
		return;
	if (c->branch == INSN_BRANCH_CALL_DYNAMIC || c->branch == INSN_BRANCH_JUMP_DYNAMIC) {
		if (wants_code_indirect(img, &img->g->funcs[caller]))
			m->indirect[caller - img->func_first]++;
		return;
	}
	callee = cg_code_callee(img, c, caller, m->range, &lost);
	if (lost)
		m->lost[caller - img->func_first] = 1;
	if (callee == SP_NONE)
		return;
	if (c->switched && c->branch == INSN_BRANCH_CALL) {
		sp_graph_add_switch(img->g, caller, callee, c->site);
		return;
	}
	kind = c->branch == INSN_BRANCH_CALL ? SP_EDGE_CALL : SP_EDGE_TAIL;
	known = sp_u64map_get(&m->pairs, pair_key(caller, callee));
	if (known == SP_NONE) {
		sp_u64map_put(&m->pairs, pair_key(caller, callee), img->g->nedges);
		img->stats.disasm_edges++;
	} else if (img->g->edges[known].kind == kind && img->g->edges[known].pc <= c->site) {
		/* the call DWARF listed, or one finalize would drop for it:
		 * most of the code's calls are, and each would be sorted */
		return;
	}
	sp_graph_add_edge(img->g, caller, callee, kind, c->site);
}

/* Has the code of the function at addr shown every call it makes? */
static bool code_whole(struct cg_image *img, const struct sp_func *f)
{
	const struct insn_func *c = insn_image_func_at(&img->code, f->addr);

	return !c || (c->flags & INSN_FUNC_WHOLE);
}

/* A function decoded to its end has shown every call it makes, unless
 * one of them goes to code no function holds. */
static void mark_complete(struct cg_image *img, const uint32_t *indirect, const uint8_t *lost)
{
	uint32_t i;

	for (i = img->func_first; i < img->g->nfuncs; i++) {
		struct sp_func *f = &img->g->funcs[i];

		if (!(f->flags & SP_F_HAS_CODE) || !wants_code_indirect(img, f))
			continue;
		if (indirect[i - img->func_first] > f->n_indirect)
			f->n_indirect = indirect[i - img->func_first];
		if (lost[i - img->func_first])
			f->flags |= SP_F_CALLS_INCOMPLETE;
		else if (code_whole(img, f) && (f->flags & SP_F_CALLS_INCOMPLETE)) {
			f->flags &= ~SP_F_CALLS_INCOMPLETE;
			img->stats.disasm_completed++;
		}
	}
}

/*
 * A call to an IFUNC runs the implementation its resolver returned: a
 * tail edge to each function the resolver's code loads (the choice is
 * the CPU's), so that its total is the worst of them.  A resolver whose
 * code names none is an indirect call: nothing is known of its choice.
 */
static void ifunc_edges(struct cg_image *img)
{
	const struct insn_ifuncs *l = &img->code.ifuncs;
	size_t k;
	uint32_t i;

	for (i = img->func_first; i < img->g->nfuncs; i++) {
		struct sp_func *f = &img->g->funcs[i];

		if (f->flags & SP_F_IFUNC) {
			f->flags &= ~SP_F_CALLS_INCOMPLETE;
			f->n_indirect = 1;	/* until a target is known */
		}
	}
	for (k = 0; k < l->n; k++) {
		uint32_t from = func_at(img, l->v[k].resolver), to = func_at(img, l->v[k].target);

		if (from == SP_NONE || to == SP_NONE || to == from ||
		    !(img->g->funcs[from].flags & SP_F_IFUNC))
			continue;
		sp_graph_add_edge(img->g, from, to, SP_EDGE_TAIL, 0);
		img->g->funcs[from].n_indirect = 0;
	}
}

static void merge_code_calls(struct cg_image *img)
{
	struct merge m = { .range = img->nranges };
	size_t k;

	m.indirect = sp_xcalloc(img->g->nfuncs - img->func_first + 1, sizeof(*m.indirect));
	m.lost = sp_xcalloc(img->g->nfuncs - img->func_first + 1, 1);
	index_dwarf_pairs(img, &m.pairs);
	for (k = 0; k < img->code.calls.n; k++)
		merge_call(img, &img->code.calls.v[k], &m);
	mark_complete(img, m.indirect, m.lost);
	sp_u64map_release(&m.pairs);
	free(m.indirect);
	free(m.lost);
}

/*
 * --calls=dwarf: a function without DWARF has no call sites, so its few
 * instructions are its edges, every call and jump capstone names (a
 * register or memory target is an indirect call, a branch inside it is
 * none).
 */
static void scan_symtab_func(struct cg_image *img, uint32_t func)
{
	struct sp_func *f = &img->g->funcs[func];
	const struct insn_func *fc = insn_image_func(&img->code, f->addr, f->size);
	const struct insn_call *c;
	size_t n, k;

	if (!fc)
		return;		/* no bytes: the node stays a leaf, partial */
	c = insn_image_calls(&img->code, fc, &n);
	for (k = 0; k < n; k++) {
		uint32_t callee;

		if (!(c[k].groups & (INSN_G_CALL | INSN_G_JUMP)))
			continue;
		if (!c[k].direct) {
			f->n_indirect++;
			img->stats.indirect++;
			continue;
		}
		if (c[k].target >= f->addr && c[k].target < f->addr + f->size)
			continue;	/* a branch within the function */
		callee = sp_u64map_get(&img->func_by_addr, c[k].target);
		if (callee != SP_NONE)
			sp_graph_add_edge(img->g, func, callee,
					  c[k].groups & INSN_G_CALL ? SP_EDGE_CALL : SP_EDGE_TAIL,
					  c[k].site);
		f = &img->g->funcs[func];	/* adding an edge does not move funcs */
	}
	if ((fc->flags & INSN_FUNC_WHOLE) && !(fc->flags & INSN_FUNC_NO_BYTES))
		f->flags &= ~SP_F_CALLS_INCOMPLETE;
}

/* The most functions the subprograms can give (each with code, once). */
static size_t dwarf_func_bound(const struct cg_image *img)
{
	size_t i, n = 0;

	for (i = 0; i < img->dw.nsubs; i++)
		n += !img->dw.subs[i].declaration && img->dw.subs[i].hi > img->dw.subs[i].lo;
	return n;
}

static size_t with_slack(size_t n)
{
	return n + n / 8 + 256;
}

void cg_build(struct cg_image *img)
{
	struct resolver r = { .img = img };
	size_t rcap = 0, i, nfuncs_max = with_slack(dwarf_func_bound(img));
	uint32_t nfuncs;

	img->edge_first = img->g->nedges;
	/* with room for the symbol-only and external functions and the
	 * calls only the code shows: one more doubling would copy it all */
	sp_graph_reserve(img->g, nfuncs_max, with_slack(img->dw.nsites));
	/* sized for the functions, not for every subprogram DIE: a table
	 * four times too large is probed with a cache miss each time */
	sp_u64map_init(&img->func_by_addr, nfuncs_max);
	sp_u64map_init(&img->extern_by_name, 256);
	sp_u64map_init(&img->copies, img->dw.nsubs / 8);
	make_dwarf_funcs(img, &rcap);
	sort_ranges(img);
	nfuncs = img->g->nfuncs;
	make_symtab_funcs(img, &rcap);
	sort_ranges(img);
	index_global_names(img, &r.by_name);
	for (i = 0; img->opts.calls != CG_CALLS_DISASM && i < img->dw.nsites; i++)
		add_site_edge(&r, &img->dw.sites[i]);
	sp_u64map_release(&r.by_name);
	if (img->opts.calls != CG_CALLS_DWARF) {
		merge_code_calls(img);
	} else {
		/* functions without DWARF: their few instructions are their edges */
		for (i = nfuncs; i < img->g->nfuncs; i++)
			if ((img->g->funcs[i].flags & (SP_F_SYMTAB_ONLY | SP_F_IFUNC)) ==
			    SP_F_SYMTAB_ONLY)
				scan_symtab_func(img, (uint32_t)i);
	}
	ifunc_edges(img);
}
