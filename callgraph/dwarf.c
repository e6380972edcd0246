/*
 * dwarf.c - one pass over .debug_info collecting subprograms and call sites.
 *
 * Only the DIEs that can hold code or calls are entered (subprograms,
 * inlined subroutines, lexical blocks, namespaces); types and variables are
 * skipped with their whole subtree.  DIEs skipped this way that turn out to
 * be needed (a member function's declaration, a DIE in another unit) are
 * read on demand by cg_sub_at().  A large image's units are shared out
 * between two threads, one Dwarf_Debug each (split.c).
 */
#include "callgraph/internal.h"

#include <string.h>

#include "callgraph/dwarf_compat.h"
#include "common/xalloc.h"

#define MAX_DIE_DEPTH 256	/* hostile input: nesting deeper than any compiler's */

struct walk_cu {
	uint32_t cu;		/* graph CU index */
	uint16_t version;
	uint64_t base;		/* CU base address for DWARF 4 range lists */
	uint8_t *sib_by_abbrev;	/* NULL or SIB_ABBREVS entries, see has_sibling */
};

/* Abbreviation codes whose DW_AT_sibling presence is remembered per CU:
 * GCC numbers a CU's abbreviations from 1 and uses a few hundred. */
#define SIB_ABBREVS 1024
enum { SIB_UNKNOWN, SIB_NO, SIB_YES };

int cg_dwarf_err(struct cg_image *img, Dwarf_Error derr, struct sp_err *err,
		 const char *what)
{
	sp_err_set(err, "'%s': %s: %s", img->path, what,
		   derr ? dwarf_errmsg(derr) : "corrupt DWARF");
	if (derr)
		dwarf_dealloc_error(img->dbg, derr);
	return -1;
}

static int die_off(Dwarf_Debug dbg, Dwarf_Die die, Dwarf_Off *off)
{
	Dwarf_Error derr = NULL;

	if (dwarf_dieoffset(die, off, &derr) == DW_DLV_OK)
		return 0;
	if (derr)
		dwarf_dealloc_error(dbg, derr);
	return -1;
}

/* Whether die has a DW_AT_sibling.  Every DIE of one abbreviation has the
 * same attributes, so the answer is kept per code: asking each DIE cost a
 * tenth of a kernel run. */
static bool has_sibling(Dwarf_Debug dbg, Dwarf_Die die, uint8_t *by_abbrev)
{
	Dwarf_Error derr = NULL;
	Dwarf_Bool yes = false;
	int code = dwarf_die_abbrev_code(die);
	bool cached = by_abbrev && code > 0 && code < SIB_ABBREVS;

	if (cached && by_abbrev[code] != SIB_UNKNOWN)
		return by_abbrev[code] == SIB_YES;
	if (dwarf_hasattr(die, DW_AT_sibling, &yes, &derr) != DW_DLV_OK) {
		if (derr)
			dwarf_dealloc_error(dbg, derr);
		return false;
	}
	if (cached)
		by_abbrev[code] = yes ? SIB_YES : SIB_NO;
	return yes;
}

static int next_sibling(Dwarf_Debug dbg, Dwarf_Die die, bool checked, uint8_t *by_abbrev,
			Dwarf_Die *next, Dwarf_Error *derr, int depth);

/* Whether libdwarf can step over die's subtree without looping.  To find
 * the sibling of a DIE with children and no DW_AT_sibling, libdwarf
 * 20210528 walks the subtree, jumping over each inner DIE's children by
 * its DW_AT_sibling; one that points at its own DIE sends it round
 * forever (found by fuzz_elf).  GCC omits DW_AT_sibling only on a last
 * child, and the walk has usually been through those already (checked),
 * so on real DWARF this walks small subtrees: call sites' parameters. */
static bool subtree_skippable(Dwarf_Debug dbg, Dwarf_Die die, uint8_t *by_abbrev,
			      int depth)
{
	Dwarf_Die child = NULL, next;
	Dwarf_Error derr = NULL;
	Dwarf_Half has_children = 0;
	int res;

	if (dwarf_die_abbrev_children_flag(die, &has_children) != DW_DLV_OK ||
	    !has_children)
		return true;
	if (depth > MAX_DIE_DEPTH)
		return false;
	/* libdwarf jumps by die's own DW_AT_sibling; next_sibling checks where */
	if (has_sibling(dbg, die, by_abbrev))
		return true;
	res = dwarf_child(die, &child, &derr);
	while (res == DW_DLV_OK) {
		res = next_sibling(dbg, child, false, by_abbrev, &next, &derr, depth + 1);
		dwarf_dealloc_die(child);
		child = next;
	}
	if (derr)
		dwarf_dealloc_error(dbg, derr);
	return res == DW_DLV_NO_ENTRY;
}

/* libdwarf 20210528 refuses a DW_AT_sibling that points before its DIE
 * but follows one pointing at the DIE itself forever, at the top
 * (offsets that only grow end every walk) or deep inside a subtree it
 * skips (subtree_skippable).  checked: every child of die was stepped
 * over by this function already, so its subtree is known to be safe. */
static int next_sibling(Dwarf_Debug dbg, Dwarf_Die die, bool checked, uint8_t *by_abbrev,
			Dwarf_Die *next, Dwarf_Error *derr, int depth)
{
	Dwarf_Off here = 0, there = 0;
	int res;

	*next = NULL;
	if (die && !checked && !subtree_skippable(dbg, die, by_abbrev, depth))
		return DW_DLV_ERROR;
	res = dwarf_siblingof_b(dbg, die, true, next, derr);
	if (res != DW_DLV_OK || !die)
		return res;
	if (!die_off(dbg, die, &here) && !die_off(dbg, *next, &there) && there > here)
		return DW_DLV_OK;
	dwarf_dealloc_die(*next);
	*next = NULL;
	return DW_DLV_ERROR;
}

int cg_sibling(Dwarf_Debug dbg, Dwarf_Die die, Dwarf_Die *next, Dwarf_Error *derr)
{
	return next_sibling(dbg, die, false, NULL, next, derr, 0);
}

const char *cg_cu_file(struct cg_image *img, uint32_t cu, Dwarf_Unsigned n)
{
	const struct cg_cu_files *f;
	Dwarf_Unsigned i;

	if (cu < img->cu_first || cu - img->cu_first >= img->ncus_own)
		return NULL;
	f = &img->files[cu - img->cu_first];
	if (!f->names || n < (Dwarf_Unsigned)f->base || f->count <= 0)
		return NULL;
	/* unsigned: a DW_AT_decl_file near 2^64 must not wrap to a negative index */
	i = n - (Dwarf_Unsigned)f->base;
	if (i >= (Dwarf_Unsigned)f->count)
		return NULL;
	return f->names[i];
}

/* ---- ranges ---- */

static void add_xrange(struct cg_image *img, struct cg_sub *s, uint64_t lo, uint64_t hi)
{
	if (hi <= lo)
		return;
	if (!s->nranges)
		s->range_first = (uint32_t)img->nxranges;
	SP_ALLOC_GROW(img->xranges, img->nxranges + 1, img->xranges_cap);
	img->xranges[img->nxranges].lo = lo;
	img->xranges[img->nxranges].hi = hi;
	img->xranges[img->nxranges].func = SP_NONE;
	img->nxranges++;
	s->nranges++;
}

static int read_ranges4(struct cg_image *img, Dwarf_Die die, Dwarf_Attribute a,
			const struct walk_cu *wc, struct cg_sub *s)
{
	Dwarf_Off off, real;
	Dwarf_Ranges *r;
	Dwarf_Signed n, i;
	Dwarf_Unsigned bytes;
	Dwarf_Error derr = NULL;
	uint64_t base = wc->base;

	if (dwarf_global_formref(a, &off, &derr) != DW_DLV_OK ||
	    dwarf_get_ranges_b(img->dbg, off, die, &real, &r, &n, &bytes, &derr) != DW_DLV_OK) {
		if (derr)
			dwarf_dealloc_error(img->dbg, derr);
		return 0;	/* an unreadable range list loses one function, not the run */
	}
	for (i = 0; i < n; i++) {
		if (r[i].dwr_type == DW_RANGES_ADDRESS_SELECTION)
			base = r[i].dwr_addr2;
		else if (r[i].dwr_type == DW_RANGES_ENTRY)
			add_xrange(img, s, base + r[i].dwr_addr1, base + r[i].dwr_addr2);
	}
	dwarf_ranges_dealloc(img->dbg, r, n);
	return 0;
}

static int read_ranges5(struct cg_image *img, Dwarf_Attribute a, struct cg_sub *s)
{
	Dwarf_Rnglists_Head head;
	Dwarf_Unsigned count, global, val, i;
	Dwarf_Half form;
	Dwarf_Error derr = NULL;
	Dwarf_Off off;
	int ok;

	if (dwarf_whatform(a, &form, &derr) != DW_DLV_OK)
		goto fail;
	if (form == DW_FORM_rnglistx)
		ok = dwarf_formudata(a, &val, &derr);
	else {
		ok = dwarf_global_formref(a, &off, &derr);
		val = off;
	}
	if (ok != DW_DLV_OK ||
	    dwarf_rnglists_get_rle_head(a, form, val, &head, &count, &global, &derr) != DW_DLV_OK)
		goto fail;
	for (i = 0; i < count; i++) {
		unsigned len, code;
		Dwarf_Unsigned raw1, raw2, lo, hi;
		Dwarf_Bool noaddr = 0;

		if (dwarf_get_rnglists_entry_fields_a(head, i, &len, &code, &raw1, &raw2,
						      &noaddr, &lo, &hi, &derr) != DW_DLV_OK)
			break;
		if (code != DW_RLE_end_of_list && code != DW_RLE_base_address &&
		    code != DW_RLE_base_addressx && !noaddr)
			add_xrange(img, s, lo, hi);
	}
	dwarf_dealloc_rnglists_head(head);
	if (derr)
		dwarf_dealloc_error(img->dbg, derr);
	return 0;
fail:
	if (derr)
		dwarf_dealloc_error(img->dbg, derr);
	return 0;
}

/* ---- attribute readers ---- */

static Dwarf_Off attr_ref(Dwarf_Debug dbg, Dwarf_Attribute a)
{
	Dwarf_Off off = 0;
	Dwarf_Error derr = NULL;

	if (dwarf_global_formref(a, &off, &derr) != DW_DLV_OK) {
		if (derr)
			dwarf_dealloc_error(dbg, derr);
		return 0;
	}
	return off;
}

uint64_t cg_attr_udata(Dwarf_Debug dbg, Dwarf_Attribute a)
{
	Dwarf_Unsigned v = 0;
	Dwarf_Signed sv = 0;
	Dwarf_Error derr = NULL;

	if (dwarf_formudata(a, &v, &derr) == DW_DLV_OK)
		return v;
	if (derr)
		dwarf_dealloc_error(dbg, derr), derr = NULL;
	/* 20210528's formudata refuses DW_FORM_implicit_const, which GCC uses
	 * for decl_file and decl_column; formsdata reads it */
	if (dwarf_formsdata(a, &sv, &derr) == DW_DLV_OK && sv >= 0)
		return (uint64_t)sv;
	if (derr)
		dwarf_dealloc_error(dbg, derr);
	return 0;
}

static uint64_t attr_addr(Dwarf_Debug dbg, Dwarf_Attribute a)
{
	Dwarf_Addr v = 0;
	Dwarf_Error derr = NULL;

	if (dwarf_formaddr(a, &v, &derr) != DW_DLV_OK && derr)
		dwarf_dealloc_error(dbg, derr);
	return v;
}

static bool attr_flag(Dwarf_Debug dbg, Dwarf_Attribute a)
{
	Dwarf_Bool v = 0;
	Dwarf_Error derr = NULL;

	if (dwarf_formflag(a, &v, &derr) != DW_DLV_OK && derr)
		dwarf_dealloc_error(dbg, derr);
	return v != 0;
}

static const char *attr_string(struct cg_image *img, Dwarf_Attribute a)
{
	char *s = NULL;
	Dwarf_Error derr = NULL;

	/* the string lives in libdwarf's section data: intern a copy */
	if (dwarf_formstring(a, &s, &derr) != DW_DLV_OK) {
		if (derr)
			dwarf_dealloc_error(img->dbg, derr);
		return NULL;
	}
	return sp_intern(img->g, s);
}

/* A call target expression that is just DW_OP_addr is a direct call. */
static void attr_call_target(Dwarf_Debug dbg, Dwarf_Attribute a, struct cg_site *site)
{
	Dwarf_Unsigned len = 0;
	Dwarf_Ptr p = NULL;
	Dwarf_Error derr = NULL;
	Dwarf_Half form = 0;
	Dwarf_Block *blk = NULL;
	const unsigned char *b;

	site->computed = true;
	if (dwarf_whatform(a, &form, &derr) != DW_DLV_OK)
		goto out;
	if (form == DW_FORM_exprloc) {
		if (dwarf_formexprloc(a, &len, &p, &derr) != DW_DLV_OK)
			goto out;
	} else if (dwarf_formblock(a, &blk, &derr) == DW_DLV_OK) {
		len = blk->bl_len;
		p = blk->bl_data;
	}
	b = p;
	if (b && len == 9 && b[0] == DW_OP_addr) {
		uint64_t v = 0;
		int i;

		for (i = 8; i >= 1; i--)	/* little-endian targets only */
			v = v << 8 | b[i];
		site->target = v;
		site->computed = false;
	}
out:
	if (blk)
		dwarf_dealloc(dbg, blk, DW_DLA_BLOCK);
	if (derr)
		dwarf_dealloc_error(dbg, derr);
}

/* ---- subprograms and call sites ---- */

static void sub_attr(struct cg_image *img, Dwarf_Die die, Dwarf_Attribute a,
		     Dwarf_Half at, const struct walk_cu *wc, struct cg_sub *s,
		     bool *has_high)
{
	Dwarf_Debug dbg = img->dbg;

	switch (at) {
	case DW_AT_name:
		s->name = attr_string(img, a);
		break;
	case DW_AT_linkage_name:
	case DW_AT_MIPS_linkage_name:
		s->linkage = attr_string(img, a);
		break;
	case DW_AT_low_pc:
		s->lo = attr_addr(dbg, a);
		break;
	case DW_AT_high_pc:
		*has_high = true;
		break;
	case DW_AT_ranges:
		if (wc->version >= 5)
			read_ranges5(img, a, s);
		else
			read_ranges4(img, die, a, wc, s);
		break;
	case DW_AT_abstract_origin:
		s->origin = attr_ref(dbg, a);
		break;
	case DW_AT_specification:
		s->spec = attr_ref(dbg, a);
		break;
	case DW_AT_decl_file:
		s->file = cg_cu_file(img, wc->cu, cg_attr_udata(dbg, a));
		break;
	case DW_AT_decl_line:
		s->line = (uint32_t)cg_attr_udata(dbg, a);
		break;
	case DW_AT_decl_column:
		s->col = (uint32_t)cg_attr_udata(dbg, a);
		break;
	case DW_AT_declaration:
		s->declaration = attr_flag(dbg, a);
		break;
	case DW_AT_call_all_calls:
	case DW_AT_GNU_all_call_sites:
		s->all_calls = attr_flag(dbg, a);
		break;
	}
}

static uint32_t read_sub(struct cg_image *img, Dwarf_Die die,
			 const struct walk_cu *wc, struct sp_err *err)
{
	Dwarf_Attribute *attrs = NULL;
	Dwarf_Signed n = 0, i;
	Dwarf_Error derr = NULL;
	Dwarf_Off off;
	struct cg_sub *s;
	bool has_high = false;
	uint32_t idx;

	if (dwarf_dieoffset(die, &off, &derr) != DW_DLV_OK) {
		cg_dwarf_err(img, derr, err, "bad DIE");
		return SP_NONE;
	}
	SP_BIG_GROW(img->subs, img->nsubs + 1, img->subs_cap);
	idx = (uint32_t)img->nsubs++;
	s = &img->subs[idx];
	memset(s, 0, sizeof(*s));
	s->off = off;
	s->cu = wc->cu;
	s->func = SP_NONE;
	if (dwarf_attrlist(die, &attrs, &n, &derr) == DW_DLV_ERROR) {
		cg_dwarf_err(img, derr, err, "bad attribute list");
		return SP_NONE;
	}
	for (i = 0; i < n; i++) {
		Dwarf_Half at;

		if (dwarf_whatattr(attrs[i], &at, &derr) == DW_DLV_OK)
			sub_attr(img, die, attrs[i], at, wc, s, &has_high);
		else if (derr)
			dwarf_dealloc_error(img->dbg, derr), derr = NULL;
	}
	if (n > 0)
		cg_dealloc_attrs(img->dbg, attrs, n);
	if (has_high) {
		Dwarf_Addr hi;
		Dwarf_Half form;
		enum Dwarf_Form_Class cls;

		if (dwarf_highpc_b(die, &hi, &form, &cls, &derr) == DW_DLV_OK)
			s->hi = cls == DW_FORM_CLASS_CONSTANT ? s->lo + hi : hi;
		else if (derr)
			dwarf_dealloc_error(img->dbg, derr);
	}
	if (!s->hi && s->nranges) {
		s->lo = img->xranges[s->range_first].lo;
		s->hi = img->xranges[s->range_first].hi;
	}
	sp_u64map_put(&img->sub_by_off, off, idx);
	return idx;
}

static void site_attr(struct cg_image *img, Dwarf_Attribute a, Dwarf_Half at,
		      struct cg_site *site)
{
	Dwarf_Debug dbg = img->dbg;

	switch (at) {
	case DW_AT_call_return_pc:
	case DW_AT_low_pc:	/* DW_TAG_GNU_call_site: the return address */
		site->ret_pc = attr_addr(dbg, a);
		break;
	case DW_AT_call_pc:
		site->call_pc = attr_addr(dbg, a);
		break;
	case DW_AT_call_origin:
	case DW_AT_abstract_origin:
		site->origin = attr_ref(dbg, a);
		break;
	case DW_AT_call_target:
	case DW_AT_GNU_call_site_target:
		attr_call_target(dbg, a, site);
		break;
	case DW_AT_call_tail_call:
	case DW_AT_GNU_tail_call:
		site->tail = attr_flag(dbg, a);
		break;
	case DW_AT_type:	/* DWARF 5: the type of the called function */
		site->type = attr_ref(dbg, a);
		break;
	}
}

static int read_site(struct cg_image *img, Dwarf_Die die, uint32_t sub, struct sp_err *err)
{
	Dwarf_Attribute *attrs = NULL;
	Dwarf_Signed n = 0, i;
	Dwarf_Error derr = NULL;
	struct cg_site *site;

	SP_BIG_GROW(img->sites, img->nsites + 1, img->sites_cap);
	site = &img->sites[img->nsites];
	memset(site, 0, sizeof(*site));
	site->sub = sub;
	if (dwarf_attrlist(die, &attrs, &n, &derr) == DW_DLV_ERROR)
		return cg_dwarf_err(img, derr, err, "bad call site");
	for (i = 0; i < n; i++) {
		Dwarf_Half at;

		if (dwarf_whatattr(attrs[i], &at, &derr) == DW_DLV_OK)
			site_attr(img, attrs[i], at, site);
		else if (derr)
			dwarf_dealloc_error(img->dbg, derr), derr = NULL;
	}
	if (n > 0)
		cg_dealloc_attrs(img->dbg, attrs, n);
	/* Clang places a tail call by its jump (DW_AT_call_pc) and gives no
	 * return address: the end of the jump stands for one */
	if (!site->ret_pc && site->call_pc) {
		unsigned len = insn_jump_len_at(&img->elf, site->call_pc);

		site->ret_pc = site->call_pc + (len ? len : 1);
		site->no_decode = !len;
	}
	if (site->ret_pc)
		img->nsites++;
	img->stats.call_sites++;
	return 0;
}

/* ---- the walk ---- */

static int walk_children(struct cg_image *img, Dwarf_Die parent, const struct walk_cu *wc,
			 uint32_t sub, int depth, struct sp_err *err);

/* -1 on error, 1 when die's children were walked, else 0 */
static int visit(struct cg_image *img, Dwarf_Die die, const struct walk_cu *wc,
		 uint32_t sub, int depth, struct sp_err *err)
{
	Dwarf_Half tag;
	Dwarf_Error derr = NULL;

	if (dwarf_tag(die, &tag, &derr) != DW_DLV_OK)
		return cg_dwarf_err(img, derr, err, "bad DIE tag");
	switch (tag) {
	case DW_TAG_subprogram:
		sub = read_sub(img, die, wc, err);
		if (sub == SP_NONE)
			return -1;
		if (img->subs[sub].declaration)
			return 0;
		return walk_children(img, die, wc, sub, depth + 1, err) ? -1 : 1;
	case DW_TAG_call_site:
	case DW_TAG_GNU_call_site:
		return read_site(img, die, sub, err);
	case DW_TAG_inlined_subroutine:
	case DW_TAG_lexical_block:
	case DW_TAG_try_block:
	case DW_TAG_catch_block:
	case DW_TAG_namespace:
		return walk_children(img, die, wc, sub, depth + 1, err) ? -1 : 1;
	}
	return 0;
}

static int sibling_err(struct cg_image *img, Dwarf_Die die, struct sp_err *err)
{
	Dwarf_Off off = 0;

	die_off(img->dbg, die, &off);
	dwarf_dealloc_die(die);
	return sp_err_set(err, "'%s': corrupt DWARF: a DW_AT_sibling at or under the DIE at "
			  "0x%llx does not point past its DIE", img->path, (unsigned long long)off);
}

static int walk_children(struct cg_image *img, Dwarf_Die parent, const struct walk_cu *wc,
			 uint32_t sub, int depth, struct sp_err *err)
{
	Dwarf_Die child = NULL, next;
	Dwarf_Error derr = NULL;
	int res, walked;

	if (depth > MAX_DIE_DEPTH)
		return sp_err_set(err, "'%s': DWARF DIEs nested too deeply", img->path);
	res = dwarf_child(parent, &child, &derr);
	while (res == DW_DLV_OK) {
		walked = visit(img, child, wc, sub, depth, err);
		if (walked < 0) {
			dwarf_dealloc_die(child);
			return -1;
		}
		res = next_sibling(img->dbg, child, walked, wc->sib_by_abbrev, &next, &derr, depth);
		if (res == DW_DLV_ERROR && !derr)
			return sibling_err(img, child, err);
		dwarf_dealloc_die(child);
		child = next;
	}
	if (res == DW_DLV_ERROR)
		return cg_dwarf_err(img, derr, err, "corrupt DWARF");
	return 0;
}

static const char *die_string(struct cg_image *img, Dwarf_Die die, Dwarf_Half at)
{
	Dwarf_Attribute a;
	Dwarf_Error derr = NULL;
	const char *s = NULL;

	if (dwarf_attr(die, at, &a, &derr) == DW_DLV_OK) {
		s = attr_string(img, a);
		dwarf_dealloc(img->dbg, a, DW_DLA_ATTR);
	} else if (derr) {
		dwarf_dealloc_error(img->dbg, derr);
	}
	return s;
}

static void read_cu_files(struct cg_image *img, Dwarf_Die cu_die, struct walk_cu *wc)
{
	struct cg_cu_files *f = &img->files[wc->cu - img->cu_first];
	Dwarf_Error derr = NULL;
	Dwarf_Signed i;
	char **names = NULL;
	int res;

	f->base = wc->version >= 5 ? 0 : 1;
	f->names = NULL;
	f->count = 0;
	if (img->srcfiles_lock)
		pthread_mutex_lock(img->srcfiles_lock);
	res = dwarf_srcfiles(cu_die, &names, &f->count, &derr);
	if (img->srcfiles_lock)
		pthread_mutex_unlock(img->srcfiles_lock);
	if (res != DW_DLV_OK) {
		if (derr)
			dwarf_dealloc_error(img->dbg, derr);
		f->count = 0;
		return;
	}
	/* libdwarf's list and line-table context would live to dwarf_finish:
	 * 12 MB on a kernel; the interned names are shared across CUs */
	f->names = sp_xmalloc((size_t)(f->count ? f->count : 1) * sizeof(*f->names));
	for (i = 0; i < f->count; i++)
		f->names[i] = sp_intern(img->g, names[i]);
	cg_dealloc_srcfiles(img->dbg, names, f->count);
}

static uint32_t begin_cu(struct cg_image *img, Dwarf_Die cu_die, uint16_t version,
			 struct walk_cu *wc)
{
	struct sp_graph *g = img->g;
	uint32_t cu = sp_graph_add_cu(g);
	Dwarf_Addr lo = 0;
	Dwarf_Error derr = NULL;
	Dwarf_Off off = 0;

	g->cus[cu].name = die_string(img, cu_die, DW_AT_name);
	g->cus[cu].comp_dir = die_string(img, cu_die, DW_AT_comp_dir);
	g->cus[cu].producer = die_string(img, cu_die, DW_AT_producer);
	g->cus[cu].dwarf_version = version;
	if (dwarf_lowpc(cu_die, &lo, &derr) != DW_DLV_OK && derr)
		dwarf_dealloc_error(img->dbg, derr), derr = NULL;
	if (dwarf_dieoffset(cu_die, &off, &derr) != DW_DLV_OK && derr)
		dwarf_dealloc_error(img->dbg, derr);
	img->ncus_own = cu - img->cu_first + 1;
	img->files = sp_xrealloc(img->files, img->ncus_own * sizeof(*img->files));
	img->cu_die_off = sp_xrealloc(img->cu_die_off,
				      img->ncus_own * sizeof(*img->cu_die_off));
	img->cu_die_off[cu - img->cu_first] = off;
	wc->cu = cu;
	wc->version = version;
	wc->base = lo;
	read_cu_files(img, cu_die, wc);
	return cu;
}

static void report_progress(const struct cg_image *img, const struct cg_units *u,
			    bool end)
{
	uint32_t done = atomic_load(&u->done);

	if (!img->opts.progress || !u->total)
		return;
	if (u->other)
		done += atomic_load(u->other);
	if (end || done > u->total)
		done = u->total;
	img->opts.progress(img->opts.progress_arg, img->path, done, u->total);
}

static int walk_unit(struct cg_image *img, uint16_t version, struct sp_err *err)
{
	Dwarf_Die cu_die = NULL;
	Dwarf_Error derr = NULL;
	struct walk_cu wc;
	uint8_t sib_by_abbrev[SIB_ABBREVS] = { 0 };
	int res = dwarf_siblingof_b(img->dbg, NULL, true, &cu_die, &derr);

	if (res == DW_DLV_ERROR)
		return cg_dwarf_err(img, derr, err, "corrupt compile unit");
	if (res != DW_DLV_OK)
		return 0;
	begin_cu(img, cu_die, version, &wc);
	wc.sib_by_abbrev = sib_by_abbrev;
	res = walk_children(img, cu_die, &wc, SP_NONE, 0, err);
	dwarf_dealloc_die(cu_die);
	return res;
}

int cg_dwarf_walk_units(struct cg_image *img, struct cg_units *u, struct sp_err *err)
{
	uint64_t off = 0;	/* where the unit whose header is read next starts */

	for (;;) {
		Dwarf_Unsigned hlen, abbrev_off, typeoff, next;
		Dwarf_Half version, asize, lsize, esize, cutype;
		Dwarf_Sig8 sig;
		Dwarf_Error derr = NULL;
		int res;

		res = dwarf_next_cu_header_d(img->dbg, true, &hlen, &version, &abbrev_off,
					     &asize, &lsize, &esize, &sig, &typeoff,
					     &next, &cutype, &derr);
		if (res == DW_DLV_NO_ENTRY || (res == DW_DLV_OK && off >= u->to))
			break;
		if (res != DW_DLV_OK)
			return cg_dwarf_err(img, derr, err, "corrupt compile unit header");
		/* libdwarf reads headers in order: the other walker's are skipped */
		if (off >= u->from) {
			if (walk_unit(img, version, err))
				return -1;
			cg_dwobj_info_done(u->dwobj, &u->dropped, next);
			atomic_fetch_add(&u->done, 1);
			report_progress(img, u, false);
		}
		off = next;
	}
	return 0;
}

/* .debug_info from which a second thread walks the later units: below
 * it, starting the thread and a second libdwarf costs more than it saves */
#define SPLIT_WALK_DEFAULT (16u << 20)

/* Where the second walker starts, 0 for one walker. */
static uint64_t split_point(const struct cg_image *img)
{
	const struct cg_dwobj *o = &img->dwobj;
	uint64_t min = img->opts.split_walk_min ? img->opts.split_walk_min :
		       SPLIT_WALK_DEFAULT;

	/* two threads share only read-only mapped sections: an object's
	 * relocated copies and libelf's own reads are not for sharing */
	if (!o->map || img->elf.type == ET_REL || o->info_size < min)
		return 0;
	return cg_dwobj_middle_unit(o);
}

int cg_dwarf_walk(struct cg_image *img, struct sp_err *err)
{
	struct cg_units u = { .to = UINT64_MAX, .dwobj = &img->dwobj };
	uint64_t split = split_point(img);
	struct cg_split *w = NULL;

	if (img->opts.progress)
		u.total = cg_dwobj_count_units(&img->dwobj);
	if (split)
		w = cg_split_start(img, split);
	if (w) {
		u.to = split;
		u.other = cg_split_done(w);
	}
	if (cg_dwarf_walk_units(img, &u, err)) {
		if (w)
			cg_split_abandon(w);
		return -1;
	}
	/* the second walker's units come after these, as in one walk */
	if (w && cg_split_finish(w, img, err))
		return -1;
	report_progress(img, &u, true);
	return 0;
}

/* ---- on-demand reads ---- */

static uint32_t cu_of_die_offset(const struct cg_image *img, Dwarf_Off cu_off)
{
	uint32_t lo = 0, hi = img->ncus_own;

	/* CU DIE offsets increase in walk order */
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (img->cu_die_off[mid] < cu_off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < img->ncus_own && img->cu_die_off[lo] == cu_off ?
	       img->cu_first + lo : SP_NONE;
}

/* The subs index of the DIE at off, SP_NONE when not read. */
static uint32_t sub_index(const struct cg_image *img, Dwarf_Off off)
{
	uint32_t idx;

	if (img->split_by_off.nslots && off >= img->split_off) {
		idx = sp_u64map_get(&img->split_by_off, off);
		if (idx != SP_NONE)
			return (uint32_t)(img->split_base + idx);
	}
	return sp_u64map_get(&img->sub_by_off, off);
}

uint32_t cg_sub_at(struct cg_image *img, Dwarf_Off off)
{
	uint32_t idx = sub_index(img, off);
	Dwarf_Die die = NULL;
	Dwarf_Error derr = NULL;
	Dwarf_Off cu_off = 0;
	Dwarf_Half tag = 0;
	struct walk_cu wc = { 0 };

	if (idx != SP_NONE || !off)
		return idx;
	if (dwarf_offdie_b(img->dbg, off, true, &die, &derr) != DW_DLV_OK)
		goto out;
	if (dwarf_tag(die, &tag, &derr) != DW_DLV_OK || tag != DW_TAG_subprogram ||
	    dwarf_CU_dieoffset_given_die(die, &cu_off, &derr) != DW_DLV_OK)
		goto out;
	wc.cu = cu_of_die_offset(img, cu_off);
	if (wc.cu == SP_NONE)
		goto out;
	wc.version = img->g->cus[wc.cu].dwarf_version;
	idx = read_sub(img, die, &wc, NULL);
out:
	if (derr)
		dwarf_dealloc_error(img->dbg, derr);
	if (die)
		dwarf_dealloc_die(die);
	return idx;
}

#define MAX_ORIGIN_HOPS 16	/* abstract_origin/specification chains are short;
				 * a longer one is a reference cycle */

void cg_sub_resolve(struct cg_image *img, uint32_t idx, struct cg_decl *out)
{
	int hops;

	memset(out, 0, sizeof(*out));
	out->abstract = SP_NONE;
	if (idx != SP_NONE && img->subs[idx].origin)
		out->abstract = cg_sub_at(img, img->subs[idx].origin);
	for (hops = 0; idx != SP_NONE && hops < MAX_ORIGIN_HOPS; hops++) {
		const struct cg_sub *s = &img->subs[idx];
		Dwarf_Off up = s->origin ? s->origin : s->spec;

		if (!out->name)
			out->name = s->name;
		if (!out->linkage)
			out->linkage = s->linkage;
		if (!out->file && s->file) {
			out->file = s->file;
			out->line = s->line;
			out->col = s->col;
		}
		if (!up)
			break;
		idx = cg_sub_at(img, up);	/* may move img->subs: s is dead now */
	}
}
