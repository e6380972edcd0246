/*
 * dwarf.c - one pass over .debug_info collecting subprograms and call sites.
 *
 * Only the DIEs that can hold code or calls are entered (subprograms,
 * inlined subroutines, lexical blocks, namespaces); types and variables are
 * skipped with their whole subtree.  DIEs skipped this way that turn out to
 * be needed (a member function's declaration, a DIE in another unit) are
 * read on demand by dw_sub_at().  A large image's units are shared out
 * between two threads, one Dwarf_Debug each (split.c).
 */
#include "dwarf/dwarf.h"

#include <stdlib.h>
#include <string.h>

#include "common/path.h"
#include "common/search.h"
#include "common/xalloc.h"
#include "dwarf/compat.h"

#define MAX_DIE_DEPTH 256	/* hostile input: nesting deeper than any compiler's */

struct walk_cu {
	uint32_t cu;		/* graph CU index */
	uint16_t version;
	uint64_t base;		/* CU base address for DWARF 4 range lists */
	uint8_t *sib_by_abbrev;	/* NULL or SIB_ABBREVS entries, see has_sibling */
	uint8_t *var_by_abbrev;	/* opts.vars: DW_VAR_ABBREVS entries, vars.c */
};

/* Abbreviation codes whose DW_AT_sibling presence is remembered per CU:
 * GCC numbers a CU's abbreviations from 1 and uses a few hundred. */
#define SIB_ABBREVS 1024
enum { SIB_UNKNOWN, SIB_NO, SIB_YES };

static int die_off(Dwarf_Debug dbg, Dwarf_Die die, Dwarf_Off *off)
{
	Dwarf_Error derr = NULL;

	if (dwarf_dieoffset(die, off, &derr) == DW_DLV_OK)
		return 0;
	dw_drop_error(dbg, &derr);
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
		dw_drop_error(dbg, &derr);
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
	dw_drop_error(dbg, &derr);
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

int dw_sibling(Dwarf_Debug dbg, Dwarf_Die die, Dwarf_Die *next, Dwarf_Error *derr)
{
	return next_sibling(dbg, die, false, NULL, next, derr, 0);
}

int dw_sibling_checked(Dwarf_Debug dbg, Dwarf_Die die, bool checked, Dwarf_Die *next,
		       Dwarf_Error *derr)
{
	return next_sibling(dbg, die, checked, NULL, next, derr, 0);
}

const char *dw_cu_file(const struct dw_image *dw, uint32_t cu, Dwarf_Unsigned n)
{
	const struct dw_cu_files *f;
	Dwarf_Unsigned i;

	if (cu < dw->cu_first || cu - dw->cu_first >= dw->ncus)
		return NULL;
	f = &dw->files[cu - dw->cu_first];
	if (!f->names || n < (Dwarf_Unsigned)f->base || f->count <= 0)
		return NULL;
	/* unsigned: a DW_AT_decl_file near 2^64 must not wrap to a negative index */
	i = n - (Dwarf_Unsigned)f->base;
	if (i >= (Dwarf_Unsigned)f->count)
		return NULL;
	return f->names[i];
}

/* ---- ranges ---- */

static void add_xrange(struct dw_image *dw, struct dw_sub *s, uint64_t lo, uint64_t hi)
{
	if (hi <= lo)
		return;
	if (!s->nranges)
		s->range_first = (uint32_t)dw->nxranges;
	SP_ALLOC_GROW(dw->xranges, dw->nxranges + 1, dw->xranges_cap);
	dw->xranges[dw->nxranges].lo = lo;
	dw->xranges[dw->nxranges].hi = hi;
	dw->nxranges++;
	s->nranges++;
}

static int read_ranges4(struct dw_image *dw, Dwarf_Die die, Dwarf_Attribute a,
			const struct walk_cu *wc, struct dw_sub *s)
{
	Dwarf_Off off, real;
	Dwarf_Ranges *r;
	Dwarf_Signed n, i;
	Dwarf_Unsigned bytes;
	Dwarf_Error derr = NULL;
	uint64_t base = wc->base;

	if (dwarf_global_formref(a, &off, &derr) != DW_DLV_OK ||
	    dwarf_get_ranges_b(dw->dbg, off, die, &real, &r, &n, &bytes, &derr) != DW_DLV_OK) {
		dw_drop_error(dw->dbg, &derr);
		return 0;	/* an unreadable range list loses one function, not the run */
	}
	for (i = 0; i < n; i++) {
		if (r[i].dwr_type == DW_RANGES_ADDRESS_SELECTION)
			base = r[i].dwr_addr2;
		else if (r[i].dwr_type == DW_RANGES_ENTRY)
			add_xrange(dw, s, base + r[i].dwr_addr1, base + r[i].dwr_addr2);
	}
	dwarf_ranges_dealloc(dw->dbg, r, n);
	return 0;
}

static int read_ranges5(struct dw_image *dw, Dwarf_Attribute a, struct dw_sub *s)
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
			add_xrange(dw, s, lo, hi);
	}
	dwarf_dealloc_rnglists_head(head);
	dw_drop_error(dw->dbg, &derr);
	return 0;
fail:
	dw_drop_error(dw->dbg, &derr);
	return 0;
}

/* ---- attribute readers ---- */

static uint64_t attr_addr(Dwarf_Debug dbg, Dwarf_Attribute a)
{
	Dwarf_Addr v = 0;
	Dwarf_Error derr = NULL;

	if (dwarf_formaddr(a, &v, &derr) != DW_DLV_OK && derr)
		dw_drop_error(dbg, &derr);
	return v;
}

static bool attr_flag(Dwarf_Debug dbg, Dwarf_Attribute a)
{
	Dwarf_Bool v = 0;
	Dwarf_Error derr = NULL;

	if (dwarf_formflag(a, &v, &derr) != DW_DLV_OK && derr)
		dw_drop_error(dbg, &derr);
	return v != 0;
}

static const char *attr_string(struct dw_image *dw, Dwarf_Attribute a)
{
	char *s = NULL;
	Dwarf_Error derr = NULL;

	/* the string lives in libdwarf's section data: intern a copy */
	if (dwarf_formstring(a, &s, &derr) != DW_DLV_OK) {
		dw_drop_error(dw->dbg, &derr);
		return NULL;
	}
	return sp_intern(dw->g, s);
}

/* A call target expression that is just DW_OP_addr is a direct call. */
static void attr_call_target(Dwarf_Debug dbg, Dwarf_Attribute a, struct dw_site *site)
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
	dw_drop_error(dbg, &derr);
}

/* ---- subprograms and call sites ---- */

static void sub_attr(struct dw_image *dw, Dwarf_Die die, Dwarf_Attribute a,
		     Dwarf_Half at, const struct walk_cu *wc, struct dw_sub *s,
		     bool *has_high)
{
	Dwarf_Debug dbg = dw->dbg;

	switch (at) {
	case DW_AT_name:
		s->name = attr_string(dw, a);
		break;
	case DW_AT_linkage_name:
	case DW_AT_MIPS_linkage_name:
		s->linkage = attr_string(dw, a);
		break;
	case DW_AT_low_pc:
		s->lo = attr_addr(dbg, a);
		break;
	case DW_AT_high_pc:
		*has_high = true;
		break;
	case DW_AT_ranges:
		if (wc->version >= 5)
			read_ranges5(dw, a, s);
		else
			read_ranges4(dw, die, a, wc, s);
		break;
	case DW_AT_abstract_origin:
		s->origin = dw_attr_ref(dbg, a);
		break;
	case DW_AT_specification:
		s->spec = dw_attr_ref(dbg, a);
		break;
	case DW_AT_decl_file:
		s->file = dw_cu_file(dw, wc->cu, dw_attr_udata(dbg, a));
		break;
	case DW_AT_decl_line:
		s->line = (uint32_t)dw_attr_udata(dbg, a);
		break;
	case DW_AT_decl_column:
		s->col = (uint32_t)dw_attr_udata(dbg, a);
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

static uint32_t read_sub(struct dw_image *dw, Dwarf_Die die,
			 const struct walk_cu *wc, struct sp_err *err)
{
	Dwarf_Attribute *attrs = NULL;
	Dwarf_Signed n = 0, i;
	Dwarf_Error derr = NULL;
	Dwarf_Off off;
	struct dw_sub *s;
	bool has_high = false;
	uint32_t idx;

	if (dwarf_dieoffset(die, &off, &derr) != DW_DLV_OK) {
		dw_error(dw->path, dw->dbg, &derr, err, "bad DIE");
		return SP_NONE;
	}
	SP_BIG_GROW(dw->subs, dw->nsubs + 1, dw->subs_cap);
	idx = (uint32_t)dw->nsubs++;
	s = &dw->subs[idx];
	memset(s, 0, sizeof(*s));
	s->off = off;
	s->cu = wc->cu;
	s->func = SP_NONE;
	if (dwarf_attrlist(die, &attrs, &n, &derr) == DW_DLV_ERROR) {
		dw_error(dw->path, dw->dbg, &derr, err, "bad attribute list");
		return SP_NONE;
	}
	for (i = 0; i < n; i++) {
		Dwarf_Half at;

		if (dwarf_whatattr(attrs[i], &at, &derr) == DW_DLV_OK)
			sub_attr(dw, die, attrs[i], at, wc, s, &has_high);
		else
			dw_drop_error(dw->dbg, &derr);
	}
	if (n > 0)
		dw_dealloc_attrs(dw->dbg, attrs, n);
	if (has_high) {
		Dwarf_Addr hi;
		Dwarf_Half form;
		enum Dwarf_Form_Class cls;

		if (dwarf_highpc_b(die, &hi, &form, &cls, &derr) == DW_DLV_OK)
			s->hi = cls == DW_FORM_CLASS_CONSTANT ? s->lo + hi : hi;
		else
			dw_drop_error(dw->dbg, &derr);
	}
	if (!s->hi && s->nranges) {
		s->lo = dw->xranges[s->range_first].lo;
		s->hi = dw->xranges[s->range_first].hi;
	}
	sp_u64map_put(&dw->sub_by_off, off, idx);
	return idx;
}

static void site_attr(struct dw_image *dw, Dwarf_Attribute a, Dwarf_Half at,
		      struct dw_site *site)
{
	Dwarf_Debug dbg = dw->dbg;

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
		site->origin = dw_attr_ref(dbg, a);
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
		site->type = dw_attr_ref(dbg, a);
		break;
	}
}

static int read_site(struct dw_image *dw, Dwarf_Die die, uint32_t sub, struct sp_err *err)
{
	Dwarf_Attribute *attrs = NULL;
	Dwarf_Signed n = 0, i;
	Dwarf_Error derr = NULL;
	struct dw_site *site;

	SP_BIG_GROW(dw->sites, dw->nsites + 1, dw->sites_cap);
	site = &dw->sites[dw->nsites];
	memset(site, 0, sizeof(*site));
	site->sub = sub;
	if (dwarf_attrlist(die, &attrs, &n, &derr) == DW_DLV_ERROR)
		return dw_error(dw->path, dw->dbg, &derr, err, "bad call site");
	for (i = 0; i < n; i++) {
		Dwarf_Half at;

		if (dwarf_whatattr(attrs[i], &at, &derr) == DW_DLV_OK)
			site_attr(dw, attrs[i], at, site);
		else
			dw_drop_error(dw->dbg, &derr);
	}
	if (n > 0)
		dw_dealloc_attrs(dw->dbg, attrs, n);
	/* Clang places a tail call by its jump (DW_AT_call_pc) and gives no
	 * return address: the graph builder reads the jump for one */
	if (site->ret_pc || site->call_pc)
		dw->nsites++;
	dw->call_sites++;
	return 0;
}

/* ---- the walk ---- */

static int walk_children(struct dw_image *dw, Dwarf_Die parent, const struct walk_cu *wc,
			 uint32_t sub, int depth, struct sp_err *err);

/* -1 on error, 1 when die's children were walked, else 0 */
static int visit(struct dw_image *dw, Dwarf_Die die, const struct walk_cu *wc,
		 uint32_t sub, int depth, struct sp_err *err)
{
	Dwarf_Half tag;
	Dwarf_Error derr = NULL;

	if (dwarf_tag(die, &tag, &derr) != DW_DLV_OK)
		return dw_error(dw->path, dw->dbg, &derr, err, "bad DIE tag");
	switch (tag) {
	case DW_TAG_subprogram:
		sub = read_sub(dw, die, wc, err);
		if (sub == SP_NONE)
			return -1;
		if (dw->subs[sub].declaration)
			return 0;
		return walk_children(dw, die, wc, sub, depth + 1, err) ? -1 : 1;
	case DW_TAG_call_site:
	case DW_TAG_GNU_call_site:
		return read_site(dw, die, sub, err);
	case DW_TAG_variable:
		return wc->var_by_abbrev ? dw_read_var(dw, die, wc->var_by_abbrev) : 0;
	case DW_TAG_inlined_subroutine:
	case DW_TAG_lexical_block:
	case DW_TAG_try_block:
	case DW_TAG_catch_block:
	case DW_TAG_namespace:
		return walk_children(dw, die, wc, sub, depth + 1, err) ? -1 : 1;
	}
	return 0;
}

static int sibling_err(struct dw_image *dw, Dwarf_Die die, struct sp_err *err)
{
	Dwarf_Off off = 0;

	die_off(dw->dbg, die, &off);
	dwarf_dealloc_die(die);
	return sp_err_set(err, "'%s': corrupt DWARF: a DW_AT_sibling at or under the DIE at "
			  "0x%llx does not point past its DIE", dw->path, (unsigned long long)off);
}

static int walk_children(struct dw_image *dw, Dwarf_Die parent, const struct walk_cu *wc,
			 uint32_t sub, int depth, struct sp_err *err)
{
	Dwarf_Die child = NULL, next;
	Dwarf_Error derr = NULL;
	int res, walked;

	if (depth > MAX_DIE_DEPTH)
		return sp_err_set(err, "'%s': DWARF DIEs nested too deeply", dw->path);
	res = dwarf_child(parent, &child, &derr);
	while (res == DW_DLV_OK) {
		walked = visit(dw, child, wc, sub, depth, err);
		if (walked < 0) {
			dwarf_dealloc_die(child);
			return -1;
		}
		res = next_sibling(dw->dbg, child, walked, wc->sib_by_abbrev, &next, &derr, depth);
		if (res == DW_DLV_ERROR && !derr)
			return sibling_err(dw, child, err);
		dwarf_dealloc_die(child);
		child = next;
	}
	if (res == DW_DLV_ERROR)
		return dw_error(dw->path, dw->dbg, &derr, err, "corrupt DWARF");
	return 0;
}

static const char *die_string(struct dw_image *dw, Dwarf_Die die, Dwarf_Half at)
{
	Dwarf_Attribute a;
	Dwarf_Error derr = NULL;
	const char *s = NULL;

	if (dwarf_attr(die, at, &a, &derr) == DW_DLV_OK) {
		s = attr_string(dw, a);
		dwarf_dealloc(dw->dbg, a, DW_DLA_ATTR);
	} else if (derr) {
		dw_drop_error(dw->dbg, &derr);
	}
	return s;
}

struct file_list {
	struct dw_image *dw;
	struct dw_cu_files *f;
	const char *comp_dir;
	size_t cap;
};

static void add_file(void *ctx, const char *path)
{
	struct file_list *l = ctx;

	SP_ALLOC_GROW(l->f->names, (size_t)l->f->count + 1, l->cap);
	l->f->names[l->f->count++] = sp_intern(l->dw->g, sp_path_in_dir(path, l->comp_dir));
}

/* The unit's file names from its line table header, read by lines.c;
 * false when that cannot (libdwarf then tries, and says what is wrong). */
static bool read_line_files(struct dw_image *dw, Dwarf_Die cu_die, struct dw_cu_files *f,
			    const char *comp_dir)
{
	struct file_list l = { .dw = dw, .f = f, .comp_dir = comp_dir };
	uint64_t off;

	if (!dw_attr_offset(dw->dbg, cu_die, DW_AT_stmt_list, &off))
		return false;
	if (!dw_line_files(&dw->lines, off, comp_dir, add_file, &l))
		return true;
	free(f->names);
	f->names = NULL;
	f->count = 0;
	return false;
}

static void read_cu_files(struct dw_image *dw, Dwarf_Die cu_die, struct walk_cu *wc)
{
	const char *comp_dir = dw->g->cus[wc->cu].comp_dir;
	struct dw_cu_files *f = &dw->files[wc->cu - dw->cu_first];
	Dwarf_Error derr = NULL;
	Dwarf_Signed i;
	char **names = NULL;
	int res;

	f->base = wc->version >= 5 ? 0 : 1;
	f->names = NULL;
	f->count = 0;
	if (read_line_files(dw, cu_die, f, comp_dir))
		return;
	if (dw->srcfiles_lock)
		pthread_mutex_lock(dw->srcfiles_lock);
	res = dwarf_srcfiles(cu_die, &names, &f->count, &derr);
	if (dw->srcfiles_lock)
		pthread_mutex_unlock(dw->srcfiles_lock);
	if (res != DW_DLV_OK) {
		dw_drop_error(dw->dbg, &derr);
		f->count = 0;
		return;
	}
	/* libdwarf's list and line-table context would live to dwarf_finish:
	 * 12 MB on a kernel; the interned names are shared across CUs.
	 * libdwarf joins comp_dir to every relative name, so that a kernel
	 * built with O= reads "debian/build/build_amd64/net/socket.c" where
	 * the build says "net/socket.c": the reports show the latter. */
	f->names = sp_xmalloc((size_t)(f->count ? f->count : 1) * sizeof(*f->names));
	for (i = 0; i < f->count; i++)
		f->names[i] = sp_intern(dw->g, sp_path_in_dir(names[i], comp_dir));
	dw_dealloc_srcfiles(dw->dbg, names, f->count);
}

static uint32_t begin_cu(struct dw_image *dw, Dwarf_Die cu_die, uint16_t version,
			 struct walk_cu *wc)
{
	struct sp_graph *g = dw->g;
	uint32_t cu = sp_graph_add_cu(g);
	Dwarf_Addr lo = 0;
	Dwarf_Error derr = NULL;
	Dwarf_Off off = 0;

	g->cus[cu].name = die_string(dw, cu_die, DW_AT_name);
	g->cus[cu].comp_dir = die_string(dw, cu_die, DW_AT_comp_dir);
	g->cus[cu].producer = die_string(dw, cu_die, DW_AT_producer);
	g->cus[cu].dwarf_version = version;
	if (dwarf_lowpc(cu_die, &lo, &derr) != DW_DLV_OK && derr)
		dw_drop_error(dw->dbg, &derr);
	if (dwarf_dieoffset(cu_die, &off, &derr) != DW_DLV_OK && derr)
		dw_drop_error(dw->dbg, &derr);
	dw->ncus = cu - dw->cu_first + 1;
	dw->files = sp_xrealloc(dw->files, dw->ncus * sizeof(*dw->files));
	dw->cu_die_off = sp_xrealloc(dw->cu_die_off,
				      dw->ncus * sizeof(*dw->cu_die_off));
	dw->cu_die_off[cu - dw->cu_first] = off;
	wc->cu = cu;
	wc->version = version;
	wc->base = lo;
	read_cu_files(dw, cu_die, wc);
	return cu;
}

static void report_progress(const struct dw_image *dw, const struct dw_units *u,
			    bool end)
{
	uint32_t done = atomic_load(&u->done);

	if (!dw->opts.progress || !u->total)
		return;
	if (u->other)
		done += atomic_load(u->other);
	if (end || done > u->total)
		done = u->total;
	dw->opts.progress(dw->opts.progress_arg, dw->path, done, u->total);
}

static int walk_unit(struct dw_image *dw, uint16_t version, struct sp_err *err)
{
	Dwarf_Die cu_die = NULL;
	Dwarf_Error derr = NULL;
	struct walk_cu wc;
	uint8_t sib_by_abbrev[SIB_ABBREVS] = { 0 };
	uint8_t var_by_abbrev[DW_VAR_ABBREVS] = { 0 };
	int res = dwarf_siblingof_b(dw->dbg, NULL, true, &cu_die, &derr);

	if (res == DW_DLV_ERROR)
		return dw_error(dw->path, dw->dbg, &derr, err, "corrupt compile unit");
	if (res != DW_DLV_OK)
		return 0;
	begin_cu(dw, cu_die, version, &wc);
	wc.sib_by_abbrev = sib_by_abbrev;
	wc.var_by_abbrev = dw->opts.vars ? var_by_abbrev : NULL;
	res = walk_children(dw, cu_die, &wc, SP_NONE, 0, err);
	dwarf_dealloc_die(cu_die);
	return res;
}

int dw_walk_units(struct dw_image *dw, struct dw_units *u, struct sp_err *err)
{
	uint64_t off = 0;	/* where the unit whose header is read next starts */

	for (;;) {
		Dwarf_Unsigned hlen, abbrev_off, typeoff, next;
		Dwarf_Half version, asize, lsize, esize, cutype;
		Dwarf_Sig8 sig;
		Dwarf_Error derr = NULL;
		int res;

		res = dwarf_next_cu_header_d(dw->dbg, true, &hlen, &version, &abbrev_off,
					     &asize, &lsize, &esize, &sig, &typeoff,
					     &next, &cutype, &derr);
		if (res == DW_DLV_NO_ENTRY || (res == DW_DLV_OK && off >= u->to))
			break;
		if (res != DW_DLV_OK)
			return dw_error(dw->path, dw->dbg, &derr, err, "corrupt compile unit header");
		/* libdwarf reads headers in order: the other walker's are skipped */
		if (off >= u->from) {
			if (walk_unit(dw, version, err))
				return -1;
			dw_obj_info_done(u->obj, &u->dropped, next);
			atomic_fetch_add(&u->done, 1);
			report_progress(dw, u, false);
		}
		off = next;
	}
	return 0;
}

/* .debug_info from which a second thread walks the later units: below
 * it, starting the thread and a second libdwarf costs more than it saves */
#define SPLIT_WALK_DEFAULT (16u << 20)

/* Where the second walker starts, 0 for one walker. */
static uint64_t split_point(const struct dw_image *dw)
{
	const struct dw_obj *o = &dw->obj;
	uint64_t min = dw->opts.split_min ? dw->opts.split_min :
		       SPLIT_WALK_DEFAULT;

	/* two threads share only read-only mapped sections: an object's
	 * relocated copies and libelf's own reads are not for sharing */
	if (!o->map || dw->elf->type == ET_REL || o->info_size < min)
		return 0;
	return dw_obj_middle_unit(o);
}

int dw_walk(struct dw_image *dw, const struct dw_walk_opts *opts, struct sp_err *err)
{
	struct dw_units u = { .to = UINT64_MAX, .obj = &dw->obj };
	struct dw_split *w = NULL;
	uint64_t split;

	dw->opts = *opts;
	split = split_point(dw);
	dw_line_secs_init(&dw->obj, &dw->lines);

	if (dw->opts.progress)
		u.total = dw_obj_count_units(&dw->obj);
	if (split)
		w = dw_split_start(dw, split);
	if (w) {
		u.to = split;
		u.other = dw_split_done(w);
	}
	if (dw_walk_units(dw, &u, err)) {
		if (w)
			dw_split_abandon(w);
		return -1;
	}
	/* the second walker's units come after these, as in one walk */
	if (w && dw_split_finish(w, dw, err))
		return -1;
	report_progress(dw, &u, true);
	return 0;
}

/* ---- opening and closing ---- */

int dw_open(struct dw_image *dw, const char *path, const struct sp_elf *e,
	    struct sp_graph *g, struct sp_err *err)
{
	Dwarf_Error derr = NULL;
	int res;

	memset(dw, 0, sizeof(*dw));
	dw->path = path;
	dw->elf = e;
	dw->g = g;
	dw->cu_first = g->ncus;
	if (dw_check_lists(e, path, err))
		return -1;
	/* every image through the object interface: libdwarf then reads the
	 * sections where they are mapped instead of copying them to the heap
	 * (ET_REL objects get relocated copies).  libdwarf's record of every
	 * object it hands out stays on: dwarf_set_de_alloc_flag(0) saves
	 * about 9 % of a run, but libdwarf 20210528 then leaks the errors it
	 * makes and drops itself on corrupt DWARF (fuzz_elf found one inside
	 * dwarf_highpc_b), which only dwarf_finish reclaims */
	res = dw_obj_init(&dw->obj, e, &dw->dbg, &derr);
	if (res == DW_DLV_NO_ENTRY)
		return sp_err_set(err, "'%s': no DWARF debug information (build with -g)", path);
	if (res != DW_DLV_OK) {
		dw->dbg = NULL;
		sp_err_set(err, "'%s': cannot read DWARF: %s", path,
			   derr ? dwarf_errmsg(derr) : "unknown error");
		dw_drop_error(NULL, &derr);
		return -1;
	}
	sp_u64map_init(&dw->sub_by_off, 4096);
	return 0;
}

void dw_release_walk(struct dw_image *dw)
{
	sp_big_free(dw->subs, dw->subs_cap * sizeof(*dw->subs));
	dw->subs = NULL;
	dw->nsubs = dw->subs_cap = 0;
	sp_big_free(dw->sites, dw->sites_cap * sizeof(*dw->sites));
	dw->sites = NULL;
	dw->nsites = dw->sites_cap = 0;
	free(dw->xranges);
	dw->xranges = NULL;
	dw->nxranges = dw->xranges_cap = 0;
	if (dw->sub_by_off.nslots)
		sp_u64map_release(&dw->sub_by_off);
	if (dw->split_by_off.nslots)
		sp_u64map_release(&dw->split_by_off);
}

void dw_release_records(struct dw_image *dw)
{
	uint32_t i;

	for (i = 0; dw->files && i < dw->ncus; i++)
		free(dw->files[i].names);
	free(dw->files);
	free(dw->cu_die_off);
	free(dw->vars);
	dw_release_walk(dw);
}

void dw_park(struct dw_image *dw)
{
	Dwarf_Error derr = NULL;

	if (!dw->dbg || dw->pins)
		return;
	dwarf_object_finish(dw->dbg, &derr);
	dw_drop_error(NULL, &derr);
	dw->dbg = NULL;
	dw->parked = true;
	dw_obj_free_copies(&dw->obj);
	dw_obj_drop(&dw->obj);
}

void dw_resume(struct dw_image *dw)
{
	Dwarf_Error derr = NULL;

	if (!dw->parked)
		return;
	dw->parked = false;
	/* it opened before over the same bytes: a failure now leaves the
	 * image without DWARF, as a corrupt one, and its readers cope */
	if (dw_obj_open_again(&dw->obj, &dw->dbg, &derr) != DW_DLV_OK) {
		dw->dbg = NULL;
		dw_drop_error(NULL, &derr);
	}
}

Dwarf_Debug dw_take_spare(struct dw_image *dw)
{
	Dwarf_Debug dbg = dw->spare;

	dw->spare = NULL;
	return dbg;
}

void dw_close(struct dw_image *dw)
{
	Dwarf_Error derr = NULL;

	dw_release_records(dw);
	if (dw->dbg)
		dwarf_object_finish(dw->dbg, &derr);
	dw_drop_error(NULL, &derr);
	if (dw->spare)
		dwarf_object_finish(dw->spare, &derr);
	dw_drop_error(NULL, &derr);
	dw_obj_release(&dw->obj);
	memset(dw, 0, sizeof(*dw));
}

/* ---- on-demand reads ---- */

static uint64_t die_off_at(const void *base, size_t i)
{
	return ((const Dwarf_Off *)base)[i];
}

static uint32_t cu_of_die_offset(const struct dw_image *dw, Dwarf_Off cu_off)
{
	/* CU DIE offsets increase in walk order */
	size_t i = sp_search_first_ge(dw->cu_die_off, dw->ncus, die_off_at, cu_off);

	return i < dw->ncus && dw->cu_die_off[i] == cu_off ? dw->cu_first + (uint32_t)i : SP_NONE;
}

/* The subs index of the DIE at off, SP_NONE when not read. */
static uint32_t sub_index(const struct dw_image *dw, Dwarf_Off off)
{
	uint32_t idx;

	if (dw->split_by_off.nslots && off >= dw->split_off) {
		idx = sp_u64map_get(&dw->split_by_off, off);
		if (idx != SP_NONE)
			return (uint32_t)(dw->split_base + idx);
	}
	return sp_u64map_get(&dw->sub_by_off, off);
}

uint32_t dw_sub_at(struct dw_image *dw, Dwarf_Off off)
{
	uint32_t idx = sub_index(dw, off);
	Dwarf_Die die = NULL;
	Dwarf_Error derr = NULL;
	Dwarf_Off cu_off = 0;
	Dwarf_Half tag = 0;
	struct walk_cu wc = { 0 };

	if (idx != SP_NONE || !off)
		return idx;
	if (dwarf_offdie_b(dw->dbg, off, true, &die, &derr) != DW_DLV_OK)
		goto out;
	if (dwarf_tag(die, &tag, &derr) != DW_DLV_OK || tag != DW_TAG_subprogram ||
	    dwarf_CU_dieoffset_given_die(die, &cu_off, &derr) != DW_DLV_OK)
		goto out;
	wc.cu = cu_of_die_offset(dw, cu_off);
	if (wc.cu == SP_NONE)
		goto out;
	wc.version = dw->g->cus[wc.cu].dwarf_version;
	idx = read_sub(dw, die, &wc, NULL);
out:
	dw_drop_error(dw->dbg, &derr);
	if (die)
		dwarf_dealloc_die(die);
	return idx;
}

void dw_sub_resolve(struct dw_image *dw, uint32_t idx, struct dw_decl *out)
{
	int hops;

	memset(out, 0, sizeof(*out));
	out->abstract = SP_NONE;
	if (idx != SP_NONE && dw->subs[idx].origin)
		out->abstract = dw_sub_at(dw, dw->subs[idx].origin);
	for (hops = 0; idx != SP_NONE && hops < DW_MAX_ORIGIN_HOPS; hops++) {
		const struct dw_sub *s = &dw->subs[idx];
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
		idx = dw_sub_at(dw, up);	/* may move dw->subs: s is dead now */
	}
}
