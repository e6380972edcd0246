/*
 * lines.c - the line table headers of .debug_line: each unit's file
 * names, read here instead of by dwarf_srcfiles (which parsed more, and
 * recorded each of its allocations, 10 % of a kernel's run), and a look
 * over the DWARF 5 headers before libdwarf reads them.
 *
 * The check:   libdwarf 20210528's dwarf_srcfiles reads one
 * past its include directory array when a file entry's directory index
 * equals the directory count (found by fuzz_elf: strlen on a wild
 * pointer), so a file naming a directory that does not exist makes the
 * section corrupt here.  Only what can be decoded is judged: a header
 * that does not fit, or a form this does not know, is left to libdwarf,
 * which reports those itself.  Versions 2-4 are left to libdwarf too
 * (it checks their directory index).
 */
#include "dwarf/dwarf.h"

#include <stdlib.h>
#include <string.h>

#include "common/strbuf.h"
#include "common/xalloc.h"

struct rd {
	const unsigned char *p;
	uint64_t off, end;
	bool short_;		/* read past end: stop judging this table */
};

static uint64_t rd_le(struct rd *r, unsigned n)
{
	uint64_t v = 0;

	if (r->short_ || r->end - r->off < n) {
		r->short_ = true;
		return 0;
	}
	while (n--)
		v = v << 8 | r->p[r->off + n];
	return v;
}

static uint64_t rd_fixed(struct rd *r, unsigned n)
{
	uint64_t v = rd_le(r, n);

	if (!r->short_)
		r->off += n;
	return v;
}

static uint64_t rd_uleb(struct rd *r)
{
	uint64_t v = 0;
	unsigned shift = 0;

	while (!r->short_) {
		unsigned char b;

		if (r->off >= r->end) {
			r->short_ = true;
			break;
		}
		b = r->p[r->off++];
		if (shift < 64)
			v |= (uint64_t)(b & 0x7f) << shift;
		shift += 7;
		if (!(b & 0x80))
			break;
	}
	return v;
}

static void rd_skip(struct rd *r, uint64_t n)
{
	if (r->short_ || r->end - r->off < n)
		r->short_ = true;
	else
		r->off += n;
}

static void rd_skip_string(struct rd *r)
{
	while (!r->short_ && rd_fixed(r, 1))
		;
}

/* An inline string, moving past it; NULL when it is cut. */
static const char *rd_cstring(struct rd *r)
{
	const char *str = (const char *)r->p + r->off;

	rd_skip_string(r);
	return r->short_ ? NULL : str;
}

/* The standard_opcode_lengths: opcode_base - 1 bytes after it. */
static void rd_skip_opcode_lengths(struct rd *r)
{
	uint64_t opcode_base = rd_fixed(r, 1);

	if (opcode_base)
		rd_skip(r, opcode_base - 1);
}

/* A table's unit length at r->off: r->end becomes the table's end, and
 * *offsize 4, or 8 in 64-bit DWARF; false when it does not fit. */
static bool rd_unit(struct rd *r, unsigned *offsize)
{
	uint64_t len;
	unsigned hdr;

	if (r->short_ || r->off > r->end ||
	    !dw_unit_length(r->p + r->off, r->end - r->off, false, &len, &hdr))
		return false;
	*offsize = hdr == 12 ? 8 : 4;
	r->off += hdr;
	r->end = r->off + len;
	return true;
}

/* A version 5 header from after its version to its directory format. */
static void rd_skip_v5_fields(struct rd *r, unsigned offsize)
{
	rd_skip(r, 2);		/* address size, segment selector size */
	rd_skip(r, offsize);	/* header_length */
	rd_skip(r, 5);		/* min_inst_length .. line_range */
	rd_skip_opcode_lengths(r);
}

/* Read one attribute value of FORM; false for a form not known here.
 * Constants come back in *val, everything else is skipped. */
static bool rd_form(struct rd *r, uint64_t form, unsigned offsize, uint64_t *val)
{
	*val = 0;
	switch (form) {
	case DW_FORM_data1: case DW_FORM_strx1: *val = rd_fixed(r, 1); return true;
	case DW_FORM_data2: case DW_FORM_strx2: *val = rd_fixed(r, 2); return true;
	case DW_FORM_strx3: *val = rd_fixed(r, 3); return true;
	case DW_FORM_data4: case DW_FORM_strx4: *val = rd_fixed(r, 4); return true;
	case DW_FORM_data8: *val = rd_fixed(r, 8); return true;
	case DW_FORM_data16: rd_skip(r, 16); return true;
	case DW_FORM_udata: case DW_FORM_strx: *val = rd_uleb(r); return true;
	case DW_FORM_sdata: rd_uleb(r); return true;	/* same length */
	case DW_FORM_string: rd_skip_string(r); return true;
	case DW_FORM_strp: case DW_FORM_line_strp: case DW_FORM_strp_sup:
	case DW_FORM_sec_offset: rd_skip(r, offsize); return true;
	case DW_FORM_block: rd_skip(r, rd_uleb(r)); return true;
	case DW_FORM_block1: rd_skip(r, rd_fixed(r, 1)); return true;
	case DW_FORM_block2: rd_skip(r, rd_fixed(r, 2)); return true;
	case DW_FORM_block4: rd_skip(r, rd_fixed(r, 4)); return true;
	default: return false;
	}
}

struct entry_format {
	unsigned n;
	uint64_t type[255], form[255];
};

static void read_format(struct rd *r, struct entry_format *ef)
{
	unsigned i;

	ef->n = (unsigned)rd_fixed(r, 1);
	for (i = 0; i < ef->n; i++) {
		ef->type[i] = rd_uleb(r);
		ef->form[i] = rd_uleb(r);
	}
}

/* Read COUNT entries of format EF.  With MAX_DIR, false when an entry's
 * directory index is MAX_DIR or more; a form not known stops the walk
 * (short_ set), true. */
static bool read_entries(struct rd *r, const struct entry_format *ef, uint64_t count,
			 unsigned offsize, const uint64_t *max_dir)
{
	uint64_t i, v;
	unsigned k;

	for (i = 0; i < count && !r->short_; i++)
		for (k = 0; k < ef->n && !r->short_; k++) {
			if (!rd_form(r, ef->form[k], offsize, &v))
				r->short_ = true;
			else if (max_dir && ef->type[k] == DW_LNCT_directory_index &&
				 !r->short_ && v >= *max_dir)
				return false;
		}
	return true;
}

/* False when the version 5 header at r->off names a directory past the
 * end of its directory table. */
static bool header_ok(struct rd *r, unsigned offsize)
{
	struct entry_format ef;
	uint64_t ndirs, nfiles;

	if (rd_fixed(r, 2) != 5)
		return true;
	rd_skip_v5_fields(r, offsize);
	read_format(r, &ef);
	ndirs = rd_uleb(r);
	if (!read_entries(r, &ef, ndirs, offsize, NULL) || r->short_)
		return true;
	read_format(r, &ef);
	nfiles = rd_uleb(r);
	return read_entries(r, &ef, nfiles, offsize, &ndirs);
}

bool dw_lines_ok(const unsigned char *p, uint64_t size)
{
	uint64_t off = 0;

	while (off < size) {
		struct rd r = { .p = p, .off = off, .end = size };
		unsigned offsize;

		if (!rd_unit(&r, &offsize))
			return true;	/* libdwarf reports a table that does not fit */
		off = r.end;
		if (!header_ok(&r, offsize))
			return false;
	}
	return true;
}

/* ---- the file names ---- */

/* Read one string of FORM (an inline string, or an offset into
 * .debug_str or .debug_line_str); NULL when it is none of those or
 * points outside its section. */
static const char *rd_string(struct rd *r, uint64_t form, unsigned offsize,
			     const struct dw_secs *s)
{
	const struct dw_section *in;
	uint64_t off;

	switch (form) {
	case DW_FORM_string:
		return rd_cstring(r);
	case DW_FORM_strp:
		in = &s->str;
		break;
	case DW_FORM_line_strp:
		in = &s->line_str;
		break;
	default:
		return NULL;
	}
	off = rd_fixed(r, offsize);
	if (r->short_ || !in->data || off >= in->size ||
	    !memchr(in->data + off, 0, in->size - off))
		return NULL;
	return (const char *)in->data + off;
}

static bool absolute(const char *path)
{
	return path[0] == '/';
}

/* dir and a '/' after it unless it ends in one; nothing for no dir */
static void add_dir(struct sp_strbuf *b, const char *dir)
{
	size_t n = dir ? strlen(dir) : 0;

	if (n)
		sp_strbuf_addf(b, "%s%s", dir, dir[n - 1] == '/' ? "" : "/");
}

/* dir/name into b, as dwarf_srcfiles joins them: name alone when it is
 * absolute; else under dir, and under comp_dir too when dir is relative
 * or missing (b is reused: its length goes back to 0). */
static void join_path(struct sp_strbuf *b, const char *comp_dir, const char *dir,
		      const char *name)
{
	b->len = 0;
	if (!absolute(name) && dir && *dir && !absolute(dir))
		add_dir(b, comp_dir);
	if (!absolute(name) && dir && *dir)
		add_dir(b, dir);
	else if (!absolute(name))
		add_dir(b, comp_dir);
	sp_strbuf_addf(b, "%s", name);
}

#define MAX_DIRS 4096	/* a unit's include directories read here */

struct dirs {
	const char *v[MAX_DIRS];
	uint64_t n;
};

/* DWARF 5: an entry format's directories or files, their path and
 * directory fields; false on a form this does not read. */
static bool read_v5_entries(struct rd *r, const struct entry_format *ef, uint64_t count,
			    unsigned offsize, const struct dw_secs *s, struct dirs *d,
			    const char *comp_dir, struct sp_strbuf *b, dw_file_fn add, void *ctx)
{
	uint64_t i, v;
	unsigned k;

	for (i = 0; i < count; i++) {
		const char *path = NULL;
		uint64_t dir = 0;

		for (k = 0; k < ef->n; k++) {
			if (ef->type[k] == DW_LNCT_path)
				path = rd_string(r, ef->form[k], offsize, s);
			else if (!rd_form(r, ef->form[k], offsize, &v))
				return false;
			else if (ef->type[k] == DW_LNCT_directory_index)
				dir = v;
			if (r->short_)
				return false;
		}
		if (!path)
			return false;
		if (!add) {		/* the directory table */
			if (d->n >= MAX_DIRS)
				return false;
			d->v[d->n++] = path;
			continue;
		}
		if (dir >= d->n)
			return false;
		join_path(b, comp_dir, d->v[dir], path);
		add(ctx, b->buf);
	}
	return true;
}

static bool read_v5(struct rd *r, unsigned offsize, const struct dw_secs *s,
		    const char *comp_dir, struct sp_strbuf *b, struct dirs *d,
		    dw_file_fn add, void *ctx)
{
	struct entry_format ef;
	uint64_t n;

	rd_skip_v5_fields(r, offsize);
	read_format(r, &ef);
	n = rd_uleb(r);
	if (r->short_ || !read_v5_entries(r, &ef, n, offsize, s, d, NULL, b, NULL, NULL))
		return false;
	read_format(r, &ef);
	n = rd_uleb(r);
	return !r->short_ && read_v5_entries(r, &ef, n, offsize, s, d, comp_dir, b, add, ctx);
}

/* Versions 2-4: strings until an empty one; a file's directory 0 is the
 * compilation directory, n the nth include directory. */
static bool read_v4(struct rd *r, uint16_t version, unsigned offsize, const char *comp_dir,
		    struct sp_strbuf *b, struct dirs *d, dw_file_fn add, void *ctx)
{
	uint64_t dir;
	const char *name;

	rd_skip(r, offsize);				/* header_length */
	rd_skip(r, version >= 4 ? 5 : 4);		/* min_inst_length .. line_range */
	rd_skip_opcode_lengths(r);
	while ((name = rd_cstring(r)) && *name) {
		if (d->n >= MAX_DIRS)
			return false;
		d->v[d->n++] = name;
	}
	for (;;) {
		if (!(name = rd_cstring(r)))
			return false;
		if (!*name)
			return true;
		dir = rd_uleb(r);
		rd_uleb(r);	/* modification time */
		rd_uleb(r);	/* length */
		if (r->short_ || dir > d->n)
			return false;
		join_path(b, comp_dir, dir ? d->v[dir - 1] : NULL, name);
		add(ctx, b->buf);
	}
}

int dw_line_files(const struct dw_secs *s, uint64_t off, const char *comp_dir,
		  dw_file_fn add, void *ctx)
{
	struct rd r = { .p = s->line.data, .off = off, .end = s->line.size };
	struct sp_strbuf b = { 0 };
	struct dirs *d;
	unsigned offsize;
	uint16_t version;
	bool ok;

	/* rd_le() reads little-endian numbers */
	if (s->msb || !s->line.data || off >= s->line.size || !rd_unit(&r, &offsize))
		return -1;
	version = (uint16_t)rd_fixed(&r, 2);
	if (r.short_ || version < 2 || version > 5)
		return -1;
	/* 32 KB of pointers, per unit: not zeroed, only n is read first */
	d = sp_xmalloc(sizeof(*d));
	d->n = 0;
	ok = version == 5 ? read_v5(&r, offsize, s, comp_dir, &b, d, add, ctx) :
			    read_v4(&r, version, offsize, comp_dir, &b, d, add, ctx);
	free(d);
	free(b.buf);
	return ok ? 0 : -1;
}
