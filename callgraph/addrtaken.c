/*
 * addrtaken.c - the functions whose address a linked image takes, for
 * --indirect=address-taken: an indirect call can only reach one of them.
 *
 * An address is taken when it is stored in data (a table of handlers,
 * .init_array, a struct of operations: a pointer-sized word of an
 * allocated non-code section), when a PIE's dynamic relocations rebase it
 * (RELATIVE addends: the word itself is 0 in the file), or when the code loads it (an immediate operand, or an
 * x86-64 RIP-relative lea), calls and jumps excepted.  A kernel's tables
 * that list code for the tools, not to call it (ftrace's __mcount_loc,
 * every traced function's entry; the kprobe blacklist...; the paravirt
 * patch sites), are left out.  Relocatable
 * objects (.o, .ko) are not scanned: their addresses are relocations to
 * symbols, which this pass does not follow.
 */
#include "callgraph/internal.h"

#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"

/*
 * Where the image's functions begin, by 64-byte block from the lowest
 * entry to the highest: most words of the data are no entry (numbers,
 * pointers to data), and a block with none is no lookup in the image's
 * map of entries, whose probes miss the caches (a kernel's data is
 * millions of words).
 */
#define BLOCK_SHIFT 6
#define MAX_BLOCKS (1u << 26)	/* 8 MiB of bits: past that, the range alone */

struct taken {
	const struct cg_image *img;
	uint8_t *taken;
	uint32_t nfuncs;
	uint64_t lo, hi;	/* the lowest and highest entry */
	uint64_t *blocks;	/* a bit per block of [lo, hi]: NULL, every block */
};

static void find_entries(struct taken *t)
{
	const struct sp_u64map *m = &t->img->func_by_addr;
	uint64_t n;
	size_t i;

	t->lo = UINT64_MAX;
	t->hi = 0;
	t->blocks = NULL;
	for (i = 0; i < m->nslots; i++)
		if (m->slots[i].val != UINT32_MAX) {
			t->lo = m->slots[i].key < t->lo ? m->slots[i].key : t->lo;
			t->hi = m->slots[i].key > t->hi ? m->slots[i].key : t->hi;
		}
	if (t->lo > t->hi || (n = ((t->hi - t->lo) >> BLOCK_SHIFT) + 1) > MAX_BLOCKS)
		return;
	t->blocks = sp_xcalloc((size_t)(n + 63) / 64, sizeof(*t->blocks));
	for (i = 0; i < m->nslots; i++)
		if (m->slots[i].val != UINT32_MAX) {
			uint64_t b = (m->slots[i].key - t->lo) >> BLOCK_SHIFT;

			t->blocks[b / 64] |= (uint64_t)1 << (b % 64);
		}
}

static void mark(const struct taken *t, uint64_t addr)
{
	uint64_t b;
	uint32_t id;

	if (!addr || addr < t->lo || addr > t->hi)
		return;
	b = (addr - t->lo) >> BLOCK_SHIFT;
	if (t->blocks && !(t->blocks[b / 64] & ((uint64_t)1 << (b % 64))))
		return;
	id = sp_u64map_get(&t->img->func_by_addr, addr);
	if (id < t->nfuncs)
		t->taken[id] = 1;
}

/* Sections whose words are data, not tables of the format (symbols,
 * relocations, hashes) nor PC-relative unwind encodings. */
static bool data_section(const GElf_Shdr *sh, const char *name)
{
	if (!(sh->sh_flags & SHF_ALLOC) || (sh->sh_flags & SHF_EXECINSTR))
		return false;
	if (sh->sh_type != SHT_PROGBITS && sh->sh_type != SHT_INIT_ARRAY &&
	    sh->sh_type != SHT_FINI_ARRAY && sh->sh_type != SHT_PREINIT_ARRAY)
		return false;
	return !name || (strncmp(name, ".eh_frame", 9) && strcmp(name, ".parainstructions"));
}

/* The kernel's tables of code addresses that nothing calls through,
 * as the linker script brackets them. */
static const char *const tool_tables[] = {
	"mcount_loc", "__patchable_function_entries", "kprobe_blacklist",
	"error_injection_whitelist",
};
#define NTOOL_TABLES (sizeof(tool_tables) / sizeof(tool_tables[0]))

_Static_assert(NTOOL_TABLES == CG_TOOL_TABLES, "cg_tool_tables' room");

/* A table's bound, if sym is one: __start_NAME or __stop_NAME. */
static void tool_table_bound(void *arg, const GElf_Sym *sym, const char *name)
{
	struct cg_tool_tables *sk = arg;
	size_t t;

	if (strncmp(name, "__st", 4))
		return;
	for (t = 0; t < NTOOL_TABLES; t++) {
		if (!strncmp(name, "__start_", 8) && !strcmp(name + 8, tool_tables[t]))
			sk->lo[t] = sym->st_value;
		else if (!strncmp(name, "__stop_", 7) && !strcmp(name + 7, tool_tables[t]))
			sk->hi[t] = sym->st_value;
	}
}

void cg_tool_tables(const struct sp_elf *e, struct cg_tool_tables *sk)
{
	memset(sk, 0, sizeof(*sk));
	sp_elf_each_symbol(e, tool_table_bound, sk);
}

bool cg_tool_table_has(const struct cg_tool_tables *sk, uint64_t addr)
{
	size_t t;

	for (t = 0; t < NTOOL_TABLES; t++)
		if (addr >= sk->lo[t] && addr < sk->hi[t])
			return true;
	return false;
}

/* Does a tool table overlap [lo, hi)? */
static bool tool_tables_in(const struct cg_tool_tables *sk, uint64_t lo, uint64_t hi)
{
	size_t t;

	for (t = 0; t < NTOOL_TABLES; t++)
		if (sk->lo[t] < sk->hi[t] && sk->lo[t] < hi && sk->hi[t] > lo)
			return true;
	return false;
}

static void scan_words(const struct taken *t, Elf_Data *d, const GElf_Shdr *sh,
		       const struct cg_tool_tables *sk, bool elf64, bool msb)
{
	size_t w = elf64 ? 8 : 4, i, k;
	const unsigned char *p = d->d_buf;
	uint64_t base = sh->sh_addr + d->d_off;
	/* most sections hold no tool table: no word of theirs is looked up */
	bool tables = tool_tables_in(sk, base, base + d->d_size);

	for (i = 0; p && i + w <= d->d_size; i += w) {
		uint64_t v = 0;

		if (tables && cg_tool_table_has(sk, base + i))
			continue;
		/* a 64-bit little-endian image's word: one load (GCC merges
		 * the shifts), not a loop of bytes over a kernel's data */
		if (w == 8 && !msb) {
			mark(t, (uint64_t)p[i] | (uint64_t)p[i + 1] << 8 |
				(uint64_t)p[i + 2] << 16 | (uint64_t)p[i + 3] << 24 |
				(uint64_t)p[i + 4] << 32 | (uint64_t)p[i + 5] << 40 |
				(uint64_t)p[i + 6] << 48 | (uint64_t)p[i + 7] << 56);
			continue;
		}
		for (k = 0; k < w; k++)
			v |= (uint64_t)p[i + (msb ? k : w - 1 - k)] << (8 * (w - 1 - k));
		mark(t, v);
	}
}

static void mark_reloc(void *arg, uint64_t addr, uint64_t value)
{
	(void)addr;
	mark(arg, value);
}

static void scan_data(struct taken *t)
{
	const struct cg_image *img = t->img;
	Elf *elf = img->elf.elf;
	unsigned char *ident = (unsigned char *)elf_getident(elf, NULL);
	bool elf64 = ident && ident[EI_CLASS] == ELFCLASS64;
	bool msb = ident && ident[EI_DATA] == ELFDATA2MSB;
	Elf_Scn *scn = NULL;
	size_t shstrndx;
	GElf_Shdr sh;
	struct cg_tool_tables sk;

	if (elf_getshdrstrndx(elf, &shstrndx))
		return;
	cg_tool_tables(&img->elf, &sk);
	while ((scn = elf_nextscn(elf, scn))) {
		const char *name;
		Elf_Data *d;

		if (!gelf_getshdr(scn, &sh))
			continue;
		name = elf_strptr(elf, shstrndx, sh.sh_name);
		if (data_section(&sh, name) && (d = elf_getdata(scn, NULL)))
			scan_words(t, d, &sh, &sk, elf64, msb);
	}
	sp_elf_each_data_reloc(&img->elf, NULL, mark_reloc, t);
}

/* The addresses the code loads, as insn/addrload.c found them (x86). */
static void scan_code(const struct taken *t)
{
	size_t i;

	for (i = 0; i < t->img->code.loads.n; i++)
		mark(t, t->img->code.loads.v[i]);
}

void cg_address_taken(const struct cg_image *img, const struct sp_graph *g,
		      uint8_t *taken)
{
	struct taken t = { .img = img, .taken = taken, .nfuncs = g->nfuncs };

	if (img->elf.type == ET_REL)
		return;
	find_entries(&t);
	scan_data(&t);
	scan_code(&t);
	free(t.blocks);
}

void cg_indirect_sites(struct cg_image *img, struct sp_graph *g)
{
	struct dw_reader *r = NULL;
	size_t k;

	/* the DWARF is read again only when there is something to read */
	if (img->nicalls)
		r = dw_reader(cg_dwarf(img));
	for (k = 0; k < img->nicalls && r; k++) {
		const char *p = dw_call_proto(r, g, img->icalls[k].type);

		if (p)
			sp_graph_add_icall(g, img->icalls[k].func, p);
	}
}

struct by_die {
	uint64_t die;
	uint32_t func;
};

static int by_die_cmp(const void *pa, const void *pb)
{
	const struct by_die *a = pa, *b = pb;

	return (a->die > b->die) - (a->die < b->die);
}

/* The prototypes of the taken functions, read in DIE order, unit after
 * unit (see dw_reader_seek). */
void cg_indirect_prototypes(struct cg_image *img, struct sp_graph *g, const uint8_t *taken)
{
	struct dw_reader *r = dw_reader(cg_dwarf(img));
	struct by_die *v;
	uint32_t i, n = 0;

	if (!r)
		return;
	v = sp_xmalloc((img->func_end - img->func_first + 1) * sizeof(*v));
	for (i = img->func_first; i < img->func_end && i < g->nfuncs; i++) {
		const struct sp_func *f = &g->funcs[i];

		/* a function DWARF gives no code: what its DIE without code
		 * (an ICF thunk's, an assembly function's declaration) says */
		uint64_t die = sp_func_proto_die(f);

		if (taken[i] && !f->proto && die) {
			v[n].die = die;
			v[n++].func = i;
		}
	}
	if (n)
		qsort(v, n, sizeof(*v), by_die_cmp);
	for (i = 0; i < n; i++) {
		dw_reader_seek(r, v[i].die);
		g->funcs[v[i].func].proto = dw_func_proto(r, g, v[i].die);
	}
	free(v);
	cg_dwarf_done(img);	/* the DIEs of every taken function were read */
}
