/*
 * extable.c - the exceptions a kernel takes on the stack it runs on.
 *
 * An instruction that __ex_table lists (a user-memory access, a
 * rdmsr, a segment load...) may fault, and the handler then runs on the
 * same stack, above the function that faulted; so does the trap of
 * each instruction __bug_table lists (the ud2 of a WARN or a BUG,
 * AArch64's brk), which prints and dumps the stack before it returns.
 *
 * Each function with such an instruction gets an edge flagged
 * SP_EDGE_F_EXCEPTION to a node that stands for the exception's entry:
 * its frame what the CPU and the entry code push, its one call the C
 * handler.  A module's tables are relocations: the entries' first words
 * are read through them (cg_rel_word()).
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
	/* Does the fault of an entry with this data word (x86's
	 * __ex_table: the type and immediate; __bug_table: the line and
	 * flags) take this kind's exception?  NULL: every entry does. */
	bool (*takes)(uint32_t data);
};

/*
 * x86-64 (arch/x86/entry/entry_64.S, Linux 6.1), from the interrupted
 * code's %rsp upwards:
 *   <= 8  the CPU aligns %rsp to 16 bytes before it pushes (Intel SDM
 *         vol. 3, 6.14.2; kernel code keeps %rsp 8-aligned);
 *     40  the CPU pushes ss, rsp, rflags, cs, rip;
 *      8  the error code (#PF, #GP), or idtentry's "pushq $-1" where
 *         the vector has none (#UD): pt_regs->orig_ax;
 *    120  idtentry_body's call error_entry, whose PUSH_AND_CLEAR_REGS
 *         save_ret=1 stores %rdi over that return address and pushes
 *         the other fourteen general registers (calling.h PUSH_REGS):
 *         struct pt_regs is 21 words, 168 bytes.
 * error_entry pushes its return address back (8, popped by its RET:
 * "movq %rax, %rsp" leaves %rsp at pt_regs) and from kernel mode calls
 * nothing; then "call \cfunc", whose return address the handler's total
 * counts, and that is at least 8: 176 covers error_entry too.
 */
#define X86_64_PT_REGS_FRAME (8 + 21 * 8)

/* arch/x86/include/asm/extable_fixup_types.h: the type is the low byte,
 * the immediate the top halfword. */
enum {
	X86_EX_FAULT = 2, X86_EX_UACCESS = 3, X86_EX_COPY = 4, X86_EX_BPF = 7,
	X86_EX_WRMSR_IN_MCE = 12, X86_EX_RDMSR_IN_MCE = 13, X86_EX_DEFAULT_MCE_SAFE = 14,
	X86_EX_FAULT_MCE_SAFE = 15, X86_EX_IMM_REG = 17, X86_EX_FAULT_SGX = 18,
	X86_EX_UCOPY_LEN = 19, X86_EX_ZEROPAD = 20,
	X86_EFAULT = 14,
};

/* The types whose instruction is a memory access that may take a page
 * fault: user accesses (UACCESS, COPY, UCOPY_LEN, FAULT, FAULT_MCE_SAFE:
 * xsave to a signal frame, IMM_REG with -EFAULT: unsafe_get_user,
 * futex), BPF's probe reads, load_unaligned_zeropad() (ZEROPAD: a
 * kernel address, whose fault runs exc_page_fault too) and ENCLS
 * (FAULT_SGX).  exc_page_fault runs handle_mm_fault() for them. */
static bool x86_page_fault(uint32_t data)
{
	uint32_t type = data & 0xff;

	if (type == X86_EX_IMM_REG)
		return (int32_t)data >> 16 == -X86_EFAULT;
	return type == X86_EX_FAULT || type == X86_EX_UACCESS || type == X86_EX_COPY ||
	       type == X86_EX_BPF || type == X86_EX_FAULT_MCE_SAFE || type == X86_EX_FAULT_SGX ||
	       type == X86_EX_UCOPY_LEN || type == X86_EX_ZEROPAD;
}

/* The others fault with #GP: rdmsr/wrmsr (RDMSR*, WRMSR*), segment
 * loads (CLEAR_FS, POP_REG, IMM_REG 0: __loadsegment_simple), xrstor
 * (FPU_RESTORE), DEFAULT (rdmsr_safe_regs, asm_load_gs_index).  A few
 * raise another vector with a handler of the same shape (KVM's emulator
 * #DE, vmread #UD, fwait #MF): doc/accuracy.md.  The MCE types run on
 * #MC's own IST stack (copy_mc, the MSR accesses of the MCE handler). */
static bool x86_general_protection(uint32_t data)
{
	uint32_t type = data & 0xff;

	return !x86_page_fault(data) && type != X86_EX_WRMSR_IN_MCE &&
	       type != X86_EX_RDMSR_IN_MCE && type != X86_EX_DEFAULT_MCE_SAFE;
}

/* include/asm-generic/bug.h:33-49, Linux 6.1: with relative pointers
 * and CONFIG_DEBUG_BUGVERBOSE a bug_entry is {int bug_addr_disp; int
 * file_disp; unsigned short line; unsigned short flags;}, so the third
 * word's top halfword holds the flags; BUGFLAG_WARNING (12) marks a
 * WARN().  exc_invalid_op() returns as soon as handle_bug() reports a
 * WARN (arch/x86/kernel/traps.c:345-346, 324-327; lib/bug.c:197-201),
 * but goes on to irqentry_enter() and do_error_trap() for a BUG()
 * (348-350): annotations/linux.ann cuts those calls below <warning>.
 * An 8-byte entry (no BUGVERBOSE) keeps its flags at offset 4, which
 * traps() does not read: it counts as a BUG(), the deeper of the two. */
#define X86_BUGFLAG_WARNING 1u

static bool x86_warning(uint32_t data)
{
	return (data >> 16) & X86_BUGFLAG_WARNING;
}

static bool x86_bug(uint32_t data)
{
	return !x86_warning(data);
}

static const struct trap_kind x86_64_traps[] = {
	{ "__ex_table", "<page fault>", "exc_page_fault", X86_64_PT_REGS_FRAME, x86_page_fault },
	{ "__ex_table", "<general protection>", "exc_general_protection", X86_64_PT_REGS_FRAME,
	  x86_general_protection },
	{ "__bug_table", "<warning>", "exc_invalid_op", X86_64_PT_REGS_FRAME, x86_warning },
	{ "__bug_table", "<invalid opcode>", "exc_invalid_op", X86_64_PT_REGS_FRAME, x86_bug },
};

/* AArch64 (arch/arm64/kernel/entry.S kernel_ventry: "sub sp, sp,
 * #PT_REGS_SIZE", 336 bytes of struct pt_regs; entry_handler's "bl
 * el1h_64_sync_handler").  Every fault of an __ex_table entry (a user
 * or kernel access, load_unaligned_zeropad, BPF) is a synchronous abort
 * from EL1 and runs the same handler, as __bug_table's brk does. */
static const struct trap_kind aarch64_traps[] = {
	{ "__ex_table", "<synchronous abort>", "el1h_64_sync_handler", 336, NULL },
	{ "__bug_table", "<brk>", "el1h_64_sync_handler", 336, NULL },
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

/* One entry of a table: the instruction it lists, and its third word
 * (x86's type and immediate; 0 in an 8-byte entry). */
struct ex_entry {
	uint64_t insn;
	uint32_t data;
};

struct trap_state {
	struct cg_image *img;
	struct sp_graph *g;
	struct range *r;
	size_t nr;
	uint32_t *nodes;	/* by kind: the stand-in, shared by every image */
	uint32_t *handlers;	/* by kind: the C handler, SP_NONE if absent */
};

static uint32_t func_holding(const struct trap_state *t, uint64_t addr)
{
	size_t i = sp_search_last_le(t->r, t->nr, range_lo, addr);

	return i < t->nr && addr < t->r[i].hi ? t->r[i].id : SP_NONE;
}

static uint32_t u32_at(const uint8_t *p, bool big)
{
	return big ? (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3] :
		     (uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 | (uint32_t)p[1] << 8 | p[0];
}

/* The instruction entry i names: its first word is relative to itself. */
static uint64_t entry_insn(const uint8_t *d, uint64_t base, size_t stride, size_t i, bool big)
{
	return base + i * stride + (uint64_t)(int64_t)(int32_t)u32_at(d + i * stride, big);
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

/* A linked image's table: the words hold the offsets. */
static size_t linked_entries(const struct sp_elf *e, const GElf_Shdr *sh, const uint8_t *d,
			     bool big, struct ex_entry **out, size_t *stride_out)
{
	size_t stride = entry_size(e, d, sh->sh_addr, sh->sh_size, big), n, i;

	*stride_out = stride;
	n = stride ? sh->sh_size / stride : 0;
	*out = sp_xcalloc(n + 1, sizeof(**out));
	for (i = 0; i < n; i++) {
		(*out)[i].insn = entry_insn(d, sh->sh_addr, stride, i, big);
		(*out)[i].data = stride == 12 ? u32_at(d + i * stride + 8, big) : 0;
	}
	return n;
}

/* The relocation section that applies to section index target. */
static Elf_Scn *rela_for(Elf *elf, size_t target, GElf_Shdr *rsh)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(elf, scn)))
		if (gelf_getshdr(scn, rsh) && rsh->sh_type == SHT_RELA && rsh->sh_info == target)
			return scn;
	return NULL;
}

/* A module's table: the words are 0, each instruction word relocated
 * (R_X86_64_PC32, R_AARCH64_PREL32: S + A - P, so the instruction is at
 * S + A).  12-byte entries unless a relocation sits at offset 8 of one
 * (an 8-byte entry's fixup word). */
static size_t module_entries(struct trap_state *t, Elf_Scn *scn, const GElf_Shdr *sh,
			     const uint8_t *d, bool big, struct ex_entry **out, size_t *stride_out)
{
	const struct sp_elf *e = cg_elf(t->img);
	size_t stride = sh->sh_size % 12 ? 8 : 12, n = 0, i, nr;
	GElf_Shdr rsh;
	Elf_Scn *rs = rela_for(e->elf, elf_ndxscn(scn), &rsh);
	Elf_Data *rd = rs ? elf_getdata(rs, NULL) : NULL;
	GElf_Rela r;

	nr = rd && rsh.sh_entsize ? rd->d_size / rsh.sh_entsize : 0;
	for (i = 0; stride == 12 && i < nr && i <= INT32_MAX; i++)
		if (gelf_getrela(rd, (int)i, &r) && r.r_offset % 12 == 8)
			stride = 8;
	if (sh->sh_size % stride)
		nr = 0;
	*stride_out = stride;
	*out = sp_xcalloc(nr + 1, sizeof(**out));
	for (i = 0; i < nr && i <= INT32_MAX; i++) {
		const char *undef;
		uint64_t v;

		if (!gelf_getrela(rd, (int)i, &r) || r.r_offset % stride ||
		    r.r_offset + stride > sh->sh_size ||
		    !sp_elf_sym_value(e, GELF_R_SYM(r.r_info), &v, &undef, NULL))
			continue;
		(*out)[n].insn = v + (uint64_t)r.r_addend;
		(*out)[n++].data = stride == 12 ? u32_at(d + r.r_offset + 8, big) : 0;
	}
	return n;
}

/* The stand-in of kind k, made at its first use: its frame, and its
 * call to the handler (when no image has one, its calls are not all
 * known: partial). */
static uint32_t entry_node(struct trap_state *t, size_t kind, const struct trap_kind *k)
{
	uint32_t id;
	struct sp_func *f;

	if (t->nodes[kind] != SP_NONE)
		return t->nodes[kind];
	id = t->nodes[kind] = sp_graph_add_func(t->g);
	f = &t->g->funcs[id];
	f->name = sp_intern(t->g, k->node);
	f->flags = SP_F_EXCEPTION_ENTRY | (t->handlers[kind] == SP_NONE ? SP_F_CALLS_INCOMPLETE : 0);
	f->self = k->bytes;
	f->qual = SP_QUAL_STATIC;
	f->src = SP_SRC_ENTRY;
	if (t->handlers[kind] != SP_NONE)
		sp_graph_add_edge(t->g, id, t->handlers[kind], SP_EDGE_CALL, 0);
	return id;
}

static void add_trap(struct trap_state *t, uint32_t from, uint32_t node)
{
	sp_graph_add_edge(t->g, from, node, SP_EDGE_CALL, 0);
	t->g->edges[t->g->nedges - 1].flags = SP_EDGE_F_EXCEPTION;
}

/* Does entry x's fault take the exception k stands for?  An 8-byte
 * entry has no type (x86 before Linux 5.16: its handler was a
 * function): it counts as a page fault, the exception most are for,
 * and an 8-byte bug_entry as a BUG() (no BUGFLAG_WARNING in 3). */
static bool traps(const struct trap_kind *k, const struct ex_entry *x, size_t stride)
{
	if (!k->takes)
		return true;
	return k->takes(stride == 12 ? x->data : X86_EX_UACCESS);
}

/* One table: an edge from each function that holds a listed
 * instruction, once per function. */
static void read_table(struct trap_state *t, size_t kind, const struct trap_kind *k,
		       uint8_t *seen)
{
	const struct sp_elf *e = cg_elf(t->img);
	const char *ident = elf_getident(e->elf, NULL);
	bool big = ident && ident[EI_DATA] == ELFDATA2MSB;
	Elf_Scn *scn = NULL;
	size_t i, n, shstrndx;

	if (elf_getshdrstrndx(e->elf, &shstrndx))
		return;
	while ((scn = elf_nextscn(e->elf, scn))) {
		struct ex_entry *x;
		size_t stride;
		const char *name;
		Elf_Data *d;
		GElf_Shdr sh;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_PROGBITS ||
		    !(name = elf_strptr(e->elf, shstrndx, sh.sh_name)) || strcmp(name, k->table) ||
		    !(d = elf_getdata(scn, NULL)) || d->d_size != sh.sh_size)
			continue;
		n = e->type == ET_REL ? module_entries(t, scn, &sh, d->d_buf, big, &x, &stride) :
					linked_entries(e, &sh, d->d_buf, big, &x, &stride);
		for (i = 0; i < n; i++) {
			uint32_t f = func_holding(t, x[i].insn);

			if (f == SP_NONE || seen[f - t->img->func_first] ||
			    !traps(k, &x[i], stride))
				continue;
			seen[f - t->img->func_first] = 1;
			add_trap(t, f, entry_node(t, kind, k));
		}
		free(x);
	}
}

static void collect_ranges(struct trap_state *t)
{
	uint32_t i;

	t->nr = 0;
	t->r = sp_xmalloc(((size_t)t->img->func_end - t->img->func_first + 1) * sizeof(*t->r));
	for (i = t->img->func_first; i < t->img->func_end; i++) {
		const struct sp_func *f = &t->g->funcs[i];

		if ((f->flags & SP_F_HAS_CODE) && !(f->flags & SP_F_EXTERNAL) && f->size)
			t->r[t->nr++] = (struct range){ f->addr, f->addr + f->size, i };
	}
	qsort(t->r, t->nr, sizeof(*t->r), range_cmp);
}

/* Each kind's handler, a function with code in any of the images (a
 * module's faults run vmlinux's handler). */
static void find_handlers(struct trap_state *t, const struct trap_kind *kinds, size_t n)
{
	uint32_t i;
	size_t k;

	for (k = 0; k < n; k++)
		t->handlers[k] = t->nodes[k] = SP_NONE;
	for (i = 0; i < t->g->nfuncs; i++) {
		const struct sp_func *f = &t->g->funcs[i];

		for (k = 0; f->symbol && !(f->flags & SP_F_EXTERNAL) && k < n; k++)
			if (t->handlers[k] == SP_NONE && !strcmp(f->symbol, kinds[k].handler))
				t->handlers[k] = i;
	}
}

static const struct trap_kind *kinds_of(uint16_t machine, size_t *n)
{
	if (sp_arch(machine)->id == SP_ARCH_X86_64) {
		*n = sizeof(x86_64_traps) / sizeof(x86_64_traps[0]);
		return x86_64_traps;
	}
	if (sp_arch(machine)->id == SP_ARCH_AARCH64) {
		*n = sizeof(aarch64_traps) / sizeof(aarch64_traps[0]);
		return aarch64_traps;
	}
	*n = 0;
	return NULL;
}

void cg_add_exceptions(struct cg_image **imgs, size_t nimgs, struct sp_graph *g)
{
	const struct trap_kind *kinds;
	struct trap_state t = { NULL, g, NULL, 0, NULL, NULL };
	uint32_t nodes[8], handlers[8];
	size_t n, k, i;

	if (!nimgs || !(kinds = kinds_of(cg_elf(imgs[0])->machine, &n)))
		return;
	t.nodes = nodes;
	t.handlers = handlers;
	find_handlers(&t, kinds, n);
	for (i = 0; i < nimgs; i++) {
		if (cg_elf(imgs[i])->machine != cg_elf(imgs[0])->machine)
			continue;
		t.img = imgs[i];
		collect_ranges(&t);
		for (k = 0; k < n; k++) {
			uint8_t *seen = sp_xcalloc((size_t)t.img->func_end - t.img->func_first + 1, 1);

			read_table(&t, k, &kinds[k], seen);
			free(seen);
		}
		free(t.r);
	}
}
