/*
 * cfi.c - frames from the call frame information, where .su has none.
 *
 * Assembly and libraries built without -fstack-usage have no .su row, but
 * their code usually has CFI (.debug_frame, .eh_frame): for every
 * instruction it says where the canonical frame address is, and while
 * the CFA is "stack pointer + N", N is how far the stack pointer has
 * moved since the caller's call instruction.  The largest N is the frame
 * in .su's own convention: GCC's .su counts the return address on x86
 * (a leaf that pushes nothing is 8 on x86-64, CFA = %rsp + 8 at its entry;
 * one that does "push %rbp; mov %rsp,%rbp" is 16, the CFA offset after
 * the push), and on arm64/ARM the CFA at entry is sp + 0.  With -v the
 * frames stage compares the two where both exist.
 *
 * Once a row puts the CFA on another register (a frame pointer) or an
 * expression, later stack-pointer moves are not described: such a
 * function gets no CFI frame here, never a guess.
 *
 * libdwarf parses every FDE of a section before it answers for one: at a
 * million functions 1 s and 300 MB, when only crt1's _start lacks a .su
 * row.  So when few functions ask, each one's FDE is found through
 * .eh_frame_hdr's sorted table and libdwarf is shown a window of
 * .eh_frame holding just that FDE and a copy of its CIE, placed so that
 * the FDE keeps its address (its pc-relative fields still mean the same).
 *
 * libdwarf reads the CFI, here and nowhere else in the tree: the CIEs,
 * FDEs and the rows of their CFA programs.  It is shown an image's
 * .debug_frame and .eh_frame through its object-access interface (an
 * object's relocated by object.c), and no other section.
 */
#include "dwarf/internal.h"

#include <libdwarf.h>
#include <stdlib.h>
#include <string.h>

#include "common/search.h"
#include "common/xalloc.h"

/* ---- what libdwarf is shown ---- */

/* An image's CFI sections, one of them maybe a window (below). */
struct cfi_obj {
	struct dw_obj *o;
	struct dw_section win;		/* bytes shown as section win.ndx, or none */
	Dwarf_Obj_Access_Interface iface;
};

/* Free *derr, if any: the one way a Dwarf_Error dies.  With no dbg,
 * libdwarf malloc'ed the error on its own: ours to free all the same
 * (found by fuzz_elf). */
static void drop_error(Dwarf_Debug dbg, Dwarf_Error *derr)
{
	if (*derr)
		dwarf_dealloc_error(dbg, *derr);
	*derr = NULL;
}

static bool cfi_section(const struct dw_secinfo *h)
{
	return !strcmp(h->name, ".debug_frame") || !strcmp(h->name, ".eh_frame");
}

static int get_section_info(void *obj, Dwarf_Half i, Dwarf_Obj_Access_Section *out,
			    int *error)
{
	struct cfi_obj *c = obj;
	struct dw_secinfo h;

	(void)error;
	memset(out, 0, sizeof(*out));
	out->name = "";		/* any other section: nothing libdwarf knows */
	if (!dw_obj_section_header(c->o, i, &h))
		return DW_DLV_NO_ENTRY;
	if (!cfi_section(&h))
		return DW_DLV_OK;
	out->addr = h.s.addr;
	out->size = h.s.size;
	if (c->win.data && i == c->win.ndx) {
		out->addr = c->win.addr;
		out->size = c->win.size;
	}
	out->name = h.name;
	out->type = h.type;
	out->link = h.link;
	out->info = h.info;
	out->entrysize = h.entsize;
	return DW_DLV_OK;
}

static Dwarf_Endianness get_byte_order(void *obj)
{
	return ((struct cfi_obj *)obj)->o->msb ? DW_OBJECT_MSB : DW_OBJECT_LSB;
}

static Dwarf_Small get_length_size(void *obj)
{
	(void)obj;
	return 4;	/* 32-bit DWARF offsets, as libdwarf's own ELF reader says */
}

static Dwarf_Small get_pointer_size(void *obj)
{
	return ((struct cfi_obj *)obj)->o->elf64 ? 8 : 4;
}

static Dwarf_Unsigned get_section_count(void *obj)
{
	return ((struct cfi_obj *)obj)->o->nsec;
}

static int load_section(void *obj, Dwarf_Half i, Dwarf_Small **data, int *error)
{
	struct cfi_obj *c = obj;
	struct dw_secinfo h;
	const unsigned char *p;

	(void)error;
	if (c->win.data && i == c->win.ndx) {
		*data = (Dwarf_Small *)c->win.data;
		return DW_DLV_OK;
	}
	if (!dw_obj_section_header(c->o, i, &h) || !cfi_section(&h) ||
	    !(p = dw_obj_load(c->o, i)))
		return DW_DLV_NO_ENTRY;
	*data = (Dwarf_Small *)p;
	return DW_DLV_OK;
}

static const Dwarf_Obj_Access_Methods methods = {
	get_section_info, get_byte_order, get_length_size, get_pointer_size,
	get_section_count, load_section, NULL,
};

/*
 * libdwarf 20210528 asks a process-wide hook for section flags while it
 * sets up any object, and its own ELF reader (dwarf_init_b) points the
 * hook at itself: an object set up after an executable would be read as
 * that reader's.  Point it at this object's sections for the setup.  Weak:
 * later libdwarf releases have no such hook.
 */
extern int (*_dwarf_get_elf_flags_func_ptr)(void *obj, Dwarf_Half i,
					     Dwarf_Unsigned *flags,
					     Dwarf_Unsigned *align, int *error)
	__attribute__((weak));

static int get_section_flags(void *obj, Dwarf_Half i, Dwarf_Unsigned *flags,
			     Dwarf_Unsigned *align, int *error)
{
	struct dw_secinfo h;

	(void)error;
	*flags = *align = 0;
	if (dw_obj_section_header(((struct cfi_obj *)obj)->o, i, &h)) {
		*flags = h.flags;
		*align = h.align;
	}
	return DW_DLV_OK;
}

/* A Dwarf_Debug over c's sections; NULL when there is no CFI to read. */
static Dwarf_Debug cfi_dwarf(struct cfi_obj *c)
{
	Dwarf_Debug dbg = NULL;
	Dwarf_Error derr = NULL;

	c->iface.object = c;
	c->iface.methods = &methods;
	if (&_dwarf_get_elf_flags_func_ptr)
		_dwarf_get_elf_flags_func_ptr = get_section_flags;
	if (dwarf_object_init_b(&c->iface, NULL, NULL, DW_GROUPNUMBER_ANY, &dbg, &derr) !=
	    DW_DLV_OK) {
		drop_error(NULL, &derr);
		return NULL;
	}
	return dbg;
}

static void cfi_dwarf_close(Dwarf_Debug dbg)
{
	Dwarf_Error derr = NULL;

	dwarf_object_finish(dbg, &derr);
	drop_error(NULL, &derr);
}

/* ---- the frames ---- */

struct cfi_list {
	Dwarf_Cie *cies;
	Dwarf_Signed ncies;
	Dwarf_Fde *fdes;
	Dwarf_Signed nfdes;
};

static bool load_list(Dwarf_Debug dbg, bool eh, struct cfi_list *l)
{
	Dwarf_Error derr = NULL;
	int res = eh ? dwarf_get_fde_list_eh(dbg, &l->cies, &l->ncies, &l->fdes,
					     &l->nfdes, &derr) :
		       dwarf_get_fde_list(dbg, &l->cies, &l->ncies, &l->fdes,
					  &l->nfdes, &derr);

	if (res == DW_DLV_OK)
		return true;
	/* unreadable CFI gives no frames: those functions stay unknown */
	drop_error(dbg, &derr);
	memset(l, 0, sizeof(*l));
	return false;
}

/*
 * The largest CFA offset from the stack pointer over the rows of fde in
 * [lo, hi); false when a row has the CFA anywhere else.
 */
static bool fde_frame(Dwarf_Debug dbg, Dwarf_Fde fde, Dwarf_Addr lo, Dwarf_Addr hi,
		      Dwarf_Signed sp, uint64_t *frame)
{
	Dwarf_Addr pc = lo;
	uint64_t best = 0;

	for (;;) {
		Dwarf_Small type = 0;
		Dwarf_Signed relevant = 0, reg = 0, off = 0;
		Dwarf_Ptr block = NULL;
		Dwarf_Addr row = 0, next = 0;
		Dwarf_Bool more = 0;
		Dwarf_Error derr = NULL;

		if (dwarf_get_fde_info_for_cfa_reg3_b(fde, pc, &type, &relevant, &reg, &off,
						      &block, &row, &more, &next,
						      &derr) != DW_DLV_OK) {
			drop_error(dbg, &derr);
			return false;
		}
		if (type != DW_EXPR_OFFSET || !relevant || reg != sp || off < 0)
			return false;
		if ((uint64_t)off > best)
			best = (uint64_t)off;
		/* next > pc: every step moves forward, so the loop ends */
		if (!more || next <= pc || next >= hi)
			break;
		pc = next;
	}
	*frame = best;
	return true;
}

/* The CFI frame of the function whose code starts at addr. */
static bool frame_at(Dwarf_Debug dbg, const struct cfi_list *l, uint64_t addr,
		     Dwarf_Signed sp, uint64_t *frame)
{
	Dwarf_Fde fde = NULL;
	Dwarf_Addr lo = 0, hi = 0;
	Dwarf_Error derr = NULL;
	int res;

	if (!l->nfdes)
		return false;
	res = dwarf_get_fde_at_pc(l->fdes, addr, &fde, &lo, &hi, &derr);
	if (res != DW_DLV_OK) {
		drop_error(dbg, &derr);
		return false;
	}
	/* an FDE of the function around addr says nothing of addr's own */
	return lo == addr && fde_frame(dbg, fde, lo, hi, sp, frame);
}

/* ---- one function's FDE through .eh_frame_hdr ---- */

enum { EH_PE_UDATA4 = 0x03, EH_PE_SDATA4 = 0x0b, EH_PE_DATAREL_SDATA4 = 0x3b };

struct eh_index {
	struct dw_section hdr, frame;
	uint32_t count;		/* entries of hdr's table, from byte 12 */
	bool msb;
};

static uint32_t u32_at(const struct eh_index *x, const unsigned char *p)
{
	return (uint32_t)dw_read_uint(p, 4, x->msb);
}

/* The table GNU ld writes: version 1, a 4-byte .eh_frame pointer and
 * count, then (start, FDE) pairs relative to the header, by start. */
static bool eh_index_open(struct dw_obj *o, struct eh_index *x)
{
	const unsigned char *h;

	memset(x, 0, sizeof(*x));
	x->msb = o->msb;
	if (!dw_obj_section(o, ".eh_frame_hdr", &x->hdr) ||
	    !dw_obj_section(o, ".eh_frame", &x->frame) || x->hdr.size < 12)
		return false;
	h = x->hdr.data;
	if (h[0] != 1 || ((h[1] & 0x0f) != EH_PE_UDATA4 && (h[1] & 0x0f) != EH_PE_SDATA4) ||
	    h[2] != EH_PE_UDATA4 || h[3] != EH_PE_DATAREL_SDATA4)
		return false;
	x->count = u32_at(x, h + 8);
	return x->count <= (x->hdr.size - 12) / 8;
}

/* Entry i of the table: a function's start and its FDE, both relative
 * to the header. */
static uint64_t eh_entry(const struct eh_index *x, size_t i, int field)
{
	const unsigned char *p = x->hdr.data + 12 + 8 * i + 4 * field;

	return x->hdr.addr + (uint64_t)(int64_t)(int32_t)u32_at(x, p);
}

static uint64_t eh_start(const void *base, size_t i)
{
	return eh_entry(base, i, 0);
}

/* The .eh_frame offset of the FDE that starts at addr, or UINT64_MAX. */
static uint64_t eh_fde_of(const struct eh_index *x, uint64_t addr)
{
	size_t i = sp_search_first_ge(x, x->count, eh_start, addr);

	if (i >= x->count || eh_entry(x, i, 0) != addr)
		return UINT64_MAX;
	return eh_entry(x, i, 1) - x->frame.addr;
}

/* Bytes of the record (CIE or FDE) at off, length field included; 0 when
 * it does not fit or is 64-bit DWARF. */
static uint64_t record_size(const struct eh_index *x, uint64_t off)
{
	uint32_t len;

	if (off > x->frame.size || x->frame.size - off < 8)
		return 0;
	len = u32_at(x, x->frame.data + off);
	if (!len || len == 0xffffffff || len > x->frame.size - off - 4)
		return 0;
	return 4 + (uint64_t)len;
}

/*
 * The window for the FDE at fde: a copy of its CIE, the FDE itself with its
 * CIE pointer (the distance back from that field) made to reach the copy,
 * and a terminator; based so that the FDE keeps its address.  win->data
 * is malloc'ed; false when the records do not parse.
 */
static bool eh_window(const struct eh_index *x, uint64_t fde, struct dw_section *win)
{
	uint64_t fde_size = record_size(x, fde), cie, cie_size;
	unsigned char *buf;
	uint32_t back;
	int i;

	if (!fde_size || !(back = u32_at(x, x->frame.data + fde + 4)) || back > fde + 4)
		return false;
	cie = fde + 4 - back;
	cie_size = record_size(x, cie);
	if (!cie_size || cie + cie_size > fde || u32_at(x, x->frame.data + cie + 4) != 0)
		return false;
	buf = sp_xcalloc(1, cie_size + fde_size + 4);
	memcpy(buf, x->frame.data + cie, cie_size);
	memcpy(buf + cie_size, x->frame.data + fde, fde_size);
	back = (uint32_t)cie_size + 4;
	for (i = 0; i < 4; i++)
		buf[cie_size + 4 + (x->msb ? 3 - i : i)] = (unsigned char)(back >> (8 * i));
	win->ndx = x->frame.ndx;
	win->data = buf;
	win->size = cie_size + fde_size + 4;
	win->addr = x->frame.addr + fde - cie_size;
	return true;
}

/* The CFI frame of the function at addr from .eh_frame, libdwarf shown
 * only the FDE that starts there. */
static bool eh_frame_at(struct dw_obj *o, const struct eh_index *x, uint64_t addr,
			Dwarf_Signed sp, uint64_t *frame)
{
	struct cfi_obj view = { .o = o };
	struct cfi_list l;
	Dwarf_Debug dbg;
	bool found = false;
	uint64_t fde = eh_fde_of(x, addr);

	if (fde == UINT64_MAX || !eh_window(x, fde, &view.win))
		return false;
	if ((dbg = cfi_dwarf(&view))) {
		if (load_list(dbg, true, &l)) {
			found = frame_at(dbg, &l, addr, sp, frame);
			dwarf_fde_cie_list_dealloc(dbg, l.cies, l.ncies, l.fdes, l.nfdes);
		}
		cfi_dwarf_close(dbg);
	}
	free((void *)view.win.data);
	return found;
}

/* ---- the source ---- */

struct dw_cfi {
	struct cfi_obj view;		/* the image's CFI sections, whole */
	Dwarf_Debug dbg;
	Dwarf_Signed sp;
	struct cfi_list lists[2];	/* .debug_frame, .eh_frame */
	struct eh_index eh;
	bool eh_each;			/* .eh_frame's FDEs one by one */
};

/*
 * Look the FDEs up one by one?  A window costs about 6 us, libdwarf's
 * list about 1 us an FDE: while fewer than an eighth of the FDEs are
 * wanted.  *x is then open.
 */
static bool one_by_one(struct dw_image *dw, size_t wanted, enum dw_cfi_lookup how,
		       struct eh_index *x)
{
	/* an object's .eh_frame is not relocated: its addresses would lie */
	if (dw->elf->type == ET_REL || how == DW_CFI_LIST || !eh_index_open(dw->st->cfi, x))
		return false;
	return how == DW_CFI_ONE_BY_ONE || (uint64_t)wanted * 8 <= x->count;
}

struct dw_cfi *dw_cfi_open(struct dw_image *dw, size_t wanted, enum dw_cfi_lookup how)
{
	Dwarf_Signed sp = dw->elf->arch->sp;
	struct dw_cfi *c;

	if (sp < 0)
		return NULL;
	c = sp_xcalloc(1, sizeof(*c));
	c->view.o = dw->st->cfi;
	if (!(c->dbg = cfi_dwarf(&c->view))) {
		free(c);
		return NULL;
	}
	c->sp = sp;
	load_list(c->dbg, false, &c->lists[0]);
	c->eh_each = one_by_one(dw, wanted, how, &c->eh);
	/* an object's .eh_frame is not relocated: its addresses would lie */
	if (dw->elf->type != ET_REL && !c->eh_each)
		load_list(c->dbg, true, &c->lists[1]);
	return c;
}

bool dw_cfi_frame(struct dw_cfi *c, uint64_t addr, uint64_t *frame)
{
	if (frame_at(c->dbg, &c->lists[0], addr, c->sp, frame))
		return true;
	return c->eh_each ? eh_frame_at(c->view.o, &c->eh, addr, c->sp, frame) :
	       frame_at(c->dbg, &c->lists[1], addr, c->sp, frame);
}

void dw_cfi_close(struct dw_cfi *c)
{
	int k;

	if (!c)
		return;
	for (k = 0; k < 2; k++)
		if (c->lists[k].nfdes || c->lists[k].ncies)
			dwarf_fde_cie_list_dealloc(c->dbg, c->lists[k].cies, c->lists[k].ncies,
						   c->lists[k].fdes, c->lists[k].nfdes);
	cfi_dwarf_close(c->dbg);
	free(c);
}
