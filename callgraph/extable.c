/*
 * extable.c - the exceptions a kernel takes on the stack it runs on.
 *
 * An instruction that __ex_table lists (a user-memory access, a
 * rdmsr...) may fault, and the handler then runs on the same stack,
 * above the function that faulted.  On x86-64 the CPU aligns %rsp to 16
 * bytes and pushes its frame (ss, rsp, rflags, cs, rip, the error code),
 * the entry code (asm_exc_page_fault, error_entry) pushes the fifteen
 * general registers: struct pt_regs, 21 words, plus at most 8 bytes of
 * alignment, 176 bytes; then it calls exc_page_fault, whose total counts
 * its own return address.  On AArch64 kernel_ventry takes PT_REGS_SIZE,
 * 336 bytes, and calls el1h_64_sync_handler.  Each instruction
 * __bug_table lists (the ud2 of a WARN or a BUG, AArch64's brk) traps
 * the same way into exc_invalid_op (el1h_64_sync_handler), which prints
 * and dumps the stack before it returns.
 *
 * Each function with such an instruction gets an edge flagged
 * SP_EDGE_F_EXCEPTION to a node that stands for the exception's entry:
 * its frame the bytes above, its one call the C handler.  Linked images
 * only: a module's tables are relocations still.
 */
#include "callgraph/internal.h"

#include <stdlib.h>
#include <string.h>

#include "common/search.h"
#include "common/xalloc.h"

/* What one machine's exceptions push and call. */
struct trap_kind {
	const char *table;	/* the section listing the instructions */
	const char *node;	/* the stand-in's name */
	const char *handler;	/* the C function the entry calls */
	uint64_t bytes;		/* what the CPU and the entry push */
	/* __ex_table's 12-byte entries: the fixup types (the low byte of
	 * the third word on x86-64, the 16-bit type on AArch64) of a
	 * user-memory access, bit n for type n: a fault there runs the
	 * whole page fault (handle_mm_fault).  The others (x86's
	 * EX_TYPE_CLEAR_FS, FPU_RESTORE, *MSR*, ZEROPAD...) fault on
	 * kernel addresses, where the handler only applies the fixup.
	 * 0: every entry counts. */
	uint32_t user_types;
	bool type16;		/* AArch64: the type is a halfword at offset 8 */
};

/* x86-64 extable_fixup_types.h: FAULT 2, UACCESS 3, COPY 4, IMM_REG 17
 * (EFAULT_REG) */
static const struct trap_kind x86_64_traps[] = {
	{ "__ex_table", "<page fault>", "exc_page_fault", 21 * 8 + 8,
	  1u << 2 | 1u << 3 | 1u << 4 | 1u << 17, false },
	{ "__bug_table", "<invalid opcode>", "exc_invalid_op", 21 * 8 + 8, 0, false },
};

/* AArch64 asm-extable.h: UACCESS_ERR_ZERO 3 */
static const struct trap_kind aarch64_traps[] = {
	{ "__ex_table", "<synchronous abort>", "el1h_64_sync_handler", 336, 1u << 3, true },
	{ "__bug_table", "<brk>", "el1h_64_sync_handler", 336, 0, false },
};

/* A function of the image by its code's range. */
struct range {
	uint64_t lo, hi;
	uint32_t id;
};

static uint64_t range_lo(const void *base, size_t i)
{
	return ((const struct range *)base)[i].lo;
}

static int range_cmp(const void *pa, const void *pb)
{
	const struct range *a = pa, *b = pb;

	return (a->lo > b->lo) - (a->lo < b->lo);
}

struct trap_state {
	struct cg_image *img;
	struct sp_graph *g;
	struct range *r;
	size_t nr;
};

static uint32_t func_holding(const struct trap_state *t, uint64_t addr)
{
	size_t i = sp_search_last_le(t->r, t->nr, range_lo, addr);

	return i < t->nr && addr < t->r[i].hi ? t->r[i].id : SP_NONE;
}

static int32_t s32_at(const uint8_t *p, bool big)
{
	uint32_t v = big ? (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3] :
			   (uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 | (uint32_t)p[1] << 8 | p[0];

	return (int32_t)v;
}

/* The instruction entry i names: its first word is relative to itself. */
static uint64_t entry_insn(const uint8_t *d, uint64_t base, size_t stride, size_t i, bool big)
{
	return base + i * stride + (uint64_t)(int64_t)s32_at(d + i * stride, big);
}

/* The entries' size: the first of 12 and 8 that divides the table and
 * puts every listed instruction in the image's code (a table's layout
 * differs by version and configuration: x86's and AArch64's __ex_table
 * entries are 12 bytes since Linux 5.16, AArch64's 8 before; a
 * bug_entry is 12 with its file and line, else 8). */
static size_t entry_size(const struct sp_elf *e, const uint8_t *d, uint64_t base, size_t size,
			 bool big)
{
	static const size_t strides[] = { 12, 8 };
	size_t k, i;

	for (k = 0; k < 2; k++) {
		if (size % strides[k])
			continue;
		for (i = 0; i < size / strides[k]; i++)
			if (!sp_elf_is_code(e, entry_insn(d, base, strides[k], i, big)))
				break;
		if (i == size / strides[k])
			return strides[k];
	}
	return 0;
}

/* The stand-in of kind k: its frame, and its call to the handler (when
 * the image has none, its calls are not all known: partial). */
static uint32_t new_entry(struct trap_state *t, const struct trap_kind *k)
{
	uint32_t id = sp_graph_add_func(t->g), h = SP_NONE, i;
	struct sp_func *f;

	for (i = t->img->func_first; i < t->img->func_end && h == SP_NONE; i++)
		if (t->g->funcs[i].symbol && !strcmp(t->g->funcs[i].symbol, k->handler))
			h = i;
	f = &t->g->funcs[id];
	f->name = sp_intern(t->g, k->node);
	f->flags = SP_F_EXCEPTION_ENTRY | (h == SP_NONE ? SP_F_CALLS_INCOMPLETE : 0);
	f->self = k->bytes;
	f->qual = SP_QUAL_STATIC;
	f->src = SP_SRC_ENTRY;
	if (h != SP_NONE)
		sp_graph_add_edge(t->g, id, h, SP_EDGE_CALL, 0);
	return id;
}

static void add_trap(struct trap_state *t, uint32_t from, uint32_t node)
{
	sp_graph_add_edge(t->g, from, node, SP_EDGE_CALL, 0);
	t->g->edges[t->g->nedges - 1].flags = SP_EDGE_F_EXCEPTION;
}

/* Does entry i's fault run the handler k stands for? */
static bool traps(const struct trap_kind *k, const uint8_t *d, size_t stride, size_t i,
		  bool big)
{
	const uint8_t *p = d + i * stride + 8;
	uint32_t type;

	if (!k->user_types || stride != 12)
		return true;
	if (k->type16)
		type = big ? (uint32_t)p[0] << 8 | p[1] : (uint32_t)p[1] << 8 | p[0];
	else
		type = big ? p[3] : p[0];
	return type < 32 && ((k->user_types >> type) & 1);
}

/* One table: an edge from each function that holds a listed
 * instruction, once per function. */
static void read_table(struct trap_state *t, const struct trap_kind *k, uint8_t *seen)
{
	const struct sp_elf *e = cg_elf(t->img);
	const char *ident = elf_getident(e->elf, NULL);
	bool big = ident && ident[EI_DATA] == ELFDATA2MSB;
	Elf_Scn *scn = NULL;
	uint32_t node = SP_NONE;
	size_t stride, i, shstrndx;

	if (elf_getshdrstrndx(e->elf, &shstrndx))
		return;
	while ((scn = elf_nextscn(e->elf, scn))) {
		const char *name;
		Elf_Data *d;
		GElf_Shdr sh;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_PROGBITS ||
		    !(name = elf_strptr(e->elf, shstrndx, sh.sh_name)) || strcmp(name, k->table) ||
		    !(d = elf_getdata(scn, NULL)) || d->d_size != sh.sh_size)
			continue;
		stride = entry_size(e, d->d_buf, sh.sh_addr, sh.sh_size, big);
		for (i = 0; stride && i < sh.sh_size / stride; i++) {
			uint32_t f = func_holding(t, entry_insn(d->d_buf, sh.sh_addr, stride, i, big));

			if (f == SP_NONE || seen[f - t->img->func_first] ||
			    !traps(k, d->d_buf, stride, i, big))
				continue;
			seen[f - t->img->func_first] = 1;
			if (node == SP_NONE)
				node = new_entry(t, k);
			add_trap(t, f, node);
		}
	}
}

static void collect_ranges(struct trap_state *t)
{
	uint32_t i;

	t->r = sp_xmalloc(((size_t)t->img->func_end - t->img->func_first + 1) * sizeof(*t->r));
	for (i = t->img->func_first; i < t->img->func_end; i++) {
		const struct sp_func *f = &t->g->funcs[i];

		if ((f->flags & SP_F_HAS_CODE) && !(f->flags & SP_F_EXTERNAL) && f->size)
			t->r[t->nr++] = (struct range){ f->addr, f->addr + f->size, i };
	}
	qsort(t->r, t->nr, sizeof(*t->r), range_cmp);
}

void cg_add_exceptions(struct cg_image *img, struct sp_graph *g)
{
	const struct sp_elf *e = cg_elf(img);
	const struct trap_kind *kinds;
	struct trap_state t = { img, g, NULL, 0 };
	size_t n, k;

	if (e->machine == EM_X86_64)
		kinds = x86_64_traps, n = sizeof(x86_64_traps) / sizeof(x86_64_traps[0]);
	else if (e->machine == EM_AARCH64)
		kinds = aarch64_traps, n = sizeof(aarch64_traps) / sizeof(aarch64_traps[0]);
	else
		return;
	if (e->type == ET_REL)
		return;
	collect_ranges(&t);
	for (k = 0; k < n; k++) {
		uint8_t *seen = sp_xcalloc((size_t)img->func_end - img->func_first + 1, 1);

		read_table(&t, &kinds[k], seen);
		free(seen);
	}
	free(t.r);
}
