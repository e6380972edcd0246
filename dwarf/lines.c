/*
 * lines_check.c - look over the DWARF 5 line table headers in .debug_line
 * before libdwarf does.  libdwarf 20210528's dwarf_srcfiles reads one
 * past its include directory array when a file entry's directory index
 * equals the directory count (found by fuzz_elf: strlen on a wild
 * pointer), so a file naming a directory that does not exist makes the
 * section corrupt here.  Only what can be decoded is judged: a header
 * that does not fit, or a form this does not know, is left to libdwarf,
 * which reports those itself.  Versions 2-4 are left to libdwarf too
 * (it checks their directory index).
 */
#include "dwarf/dwarf.h"

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
	uint64_t ndirs, nfiles, opcode_base;

	if (rd_fixed(r, 2) != 5)
		return true;
	rd_skip(r, 2);		/* address size, segment selector size */
	rd_skip(r, offsize);	/* header_length */
	rd_skip(r, 5);		/* min_inst_length .. line_range */
	opcode_base = rd_fixed(r, 1);
	if (opcode_base)
		rd_skip(r, opcode_base - 1);	/* standard_opcode_lengths */
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
		uint64_t len = rd_fixed(&r, 4);
		unsigned offsize = 4;

		if (len == 0xffffffffu) {
			len = rd_fixed(&r, 8);
			offsize = 8;
		}
		if (r.short_ || len > size - r.off)
			return true;	/* libdwarf reports a table that does not fit */
		off = r.off + len;
		r.end = off;
		if (!header_ok(&r, offsize))
			return false;
	}
	return true;
}
