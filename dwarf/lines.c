/*
 * lines.c - the line tables of .debug_line: each unit's file names, read
 * from its header, and the rows its line number program makes (the
 * source line of an address).  A file naming a directory its table does
 * not have, a header or a program cut short, give nothing of the table.
 */
#include "dwarf/internal.h"

#include <stdlib.h>
#include <string.h>

#include "common/search.h"
#include "common/strbuf.h"
#include "common/xalloc.h"

/* A line table's header, as far as it is read. */
struct header {
	struct dw_bytes b;	/* the table, read up to where the header is */
	uint16_t version;
	unsigned offsize;	/* 4, or 8 in 64-bit DWARF */
	/* what the line number program is run with (read_fields) */
	const unsigned char *program;	/* its first opcode */
	uint8_t addr_size;		/* DWARF 5's; before, 0: the unit's */
	uint8_t min_inst, max_ops, line_range, opcode_base;
	int8_t line_base;
	const unsigned char *opcode_lengths;	/* of the standard opcodes 1.. */
};

/* The table at off of the section [p, p + size): its unit length and
 * version; false when they do not fit. */
static bool header_open(struct header *h, const unsigned char *p, uint64_t size, uint64_t off,
			bool msb)
{
	uint64_t len;
	unsigned hdr;

	if (off >= size || !dw_unit_length(p + off, size - off, msb, &len, &hdr))
		return false;
	h->offsize = hdr == 12 ? 8 : 4;
	dw_bytes_init(&h->b, p + off + hdr, len, msb);
	h->version = (uint16_t)dw_bytes_uint(&h->b, 2);
	return !h->b.bad;
}

/* From after the version to the directories: the fields the program is
 * run with. */
static void read_fields(struct header *h)
{
	struct dw_bytes *b = &h->b;
	uint64_t len;

	if (h->version >= 5) {
		h->addr_size = (uint8_t)dw_bytes_uint(b, 1);
		dw_bytes_skip(b, 1);			/* segment selector size */
	}
	len = dw_bytes_uint(b, h->offsize);		/* header_length */
	h->program = dw_bytes_left(b) >= len ? b->p + len : NULL;
	h->min_inst = (uint8_t)dw_bytes_uint(b, 1);
	h->max_ops = h->version >= 4 ? (uint8_t)dw_bytes_uint(b, 1) : 1;
	dw_bytes_skip(b, 1);				/* default_is_stmt */
	h->line_base = (int8_t)dw_bytes_sint(b, 1);
	h->line_range = (uint8_t)dw_bytes_uint(b, 1);
	h->opcode_base = (uint8_t)dw_bytes_uint(b, 1);
	h->opcode_lengths = h->opcode_base ? dw_bytes_skip(b, h->opcode_base - 1u) : b->p;
}

/* Read one value of form; false for a form not known here.  Constants
 * come back in *val, everything else is stepped over. */
static bool read_form(struct header *h, uint64_t form, uint64_t *val)
{
	struct dw_bytes *b = &h->b;

	*val = 0;
	switch (form) {
	case DW_FORM_data1: case DW_FORM_strx1: *val = dw_bytes_uint(b, 1); return true;
	case DW_FORM_data2: case DW_FORM_strx2: *val = dw_bytes_uint(b, 2); return true;
	case DW_FORM_strx3: *val = dw_bytes_uint(b, 3); return true;
	case DW_FORM_data4: case DW_FORM_strx4: *val = dw_bytes_uint(b, 4); return true;
	case DW_FORM_data8: *val = dw_bytes_uint(b, 8); return true;
	case DW_FORM_data16: dw_bytes_skip(b, 16); return true;
	case DW_FORM_udata: case DW_FORM_strx: *val = dw_bytes_uleb(b); return true;
	case DW_FORM_sdata: dw_bytes_sleb(b); return true;
	case DW_FORM_string: dw_bytes_string(b); return true;
	case DW_FORM_strp: case DW_FORM_line_strp: case DW_FORM_strp_sup:
	case DW_FORM_sec_offset: dw_bytes_skip(b, h->offsize); return true;
	case DW_FORM_block: dw_bytes_skip(b, dw_bytes_uleb(b)); return true;
	case DW_FORM_block1: dw_bytes_skip(b, dw_bytes_uint(b, 1)); return true;
	case DW_FORM_block2: dw_bytes_skip(b, dw_bytes_uint(b, 2)); return true;
	case DW_FORM_block4: dw_bytes_skip(b, dw_bytes_uint(b, 4)); return true;
	default: return false;
	}
}

/* DWARF 5's description of a directory or file entry: its fields. */
struct entry_format {
	unsigned n;
	uint64_t type[255], form[255];
};

static void read_format(struct header *h, struct entry_format *ef)
{
	unsigned i;

	ef->n = (unsigned)dw_bytes_uint(&h->b, 1);
	for (i = 0; i < ef->n; i++) {
		ef->type[i] = dw_bytes_uleb(&h->b);
		ef->form[i] = dw_bytes_uleb(&h->b);
	}
}

/* ---- the file names ---- */

/* One string of form (an inline string, or an offset into .debug_str
 * or .debug_line_str); NULL when it is none of those or points outside
 * its section. */
static const char *read_string(struct header *h, uint64_t form, const struct dw_secs *s)
{
	const struct dw_section *in;
	uint64_t off;

	switch (form) {
	case DW_FORM_string:
		return dw_bytes_string(&h->b);
	case DW_FORM_strp:
		in = &s->str;
		break;
	case DW_FORM_line_strp:
		in = &s->line_str;
		break;
	default:
		return NULL;
	}
	off = dw_bytes_uint(&h->b, h->offsize);
	if (h->b.bad || !in->data || off >= in->size ||
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

/* What the names are joined with, and where they go. */
struct names {
	const struct dw_secs *s;
	const char *comp_dir;
	const char **dirs;
	size_t ndirs, dirs_cap;
	struct sp_strbuf path;
	dw_file_fn add;
	void *ctx;
};

static void add_name(struct names *n, const char *dir, const char *name)
{
	join_path(&n->path, n->comp_dir, dir, name);
	n->add(n->ctx, n->path.buf);
}

/* DWARF 5: an entry format's directories (files false) or files, their
 * path and directory fields; false on a form this does not read. */
static bool read_v5_entries(struct header *h, const struct entry_format *ef, uint64_t count,
			    bool files, struct names *n)
{
	uint64_t i, v;
	unsigned k;

	for (i = 0; i < count; i++) {
		const char *path = NULL;
		uint64_t dir = 0;

		for (k = 0; k < ef->n; k++) {
			if (ef->type[k] == DW_LNCT_path)
				path = read_string(h, ef->form[k], n->s);
			else if (!read_form(h, ef->form[k], &v))
				return false;
			else if (ef->type[k] == DW_LNCT_directory_index)
				dir = v;
			if (h->b.bad)
				return false;
		}
		if (!path || (files && dir >= n->ndirs))
			return false;
		if (files) {
			add_name(n, n->dirs[dir], path);
			continue;
		}
		SP_ALLOC_GROW(n->dirs, n->ndirs + 1, n->dirs_cap);
		n->dirs[n->ndirs++] = path;
	}
	return true;
}

static bool read_v5(struct header *h, struct names *n)
{
	struct entry_format ef;
	uint64_t count;

	read_format(h, &ef);
	count = dw_bytes_uleb(&h->b);
	if (h->b.bad || !read_v5_entries(h, &ef, count, false, n))
		return false;
	read_format(h, &ef);
	count = dw_bytes_uleb(&h->b);
	return !h->b.bad && read_v5_entries(h, &ef, count, true, n);
}

/* Versions 2-4: strings until an empty one; a file's directory 0 is the
 * compilation directory, n the nth include directory. */
static bool read_v4(struct header *h, struct names *n)
{
	uint64_t dir;
	const char *name;

	while ((name = dw_bytes_string(&h->b)) && *name) {
		SP_ALLOC_GROW(n->dirs, n->ndirs + 1, n->dirs_cap);
		n->dirs[n->ndirs++] = name;
	}
	for (;;) {
		if (!(name = dw_bytes_string(&h->b)))
			return false;
		if (!*name)
			return true;
		dir = dw_bytes_uleb(&h->b);
		dw_bytes_uleb(&h->b);	/* modification time */
		dw_bytes_uleb(&h->b);	/* length */
		if (h->b.bad || dir > n->ndirs)
			return false;
		add_name(n, dir ? n->dirs[dir - 1] : NULL, name);
	}
}

int dw_line_files(const struct dw_secs *s, uint64_t off, const char *comp_dir,
		  dw_file_fn add, void *ctx)
{
	struct names n = { .s = s, .comp_dir = comp_dir, .add = add, .ctx = ctx };
	struct header h;
	bool ok;

	if (!s->line.data || !header_open(&h, s->line.data, s->line.size, off, s->msb) ||
	    h.version < 2 || h.version > 5)
		return -1;
	read_fields(&h);
	ok = h.version == 5 ? read_v5(&h, &n) : read_v4(&h, &n);
	free(n.dirs);
	free(n.path.buf);
	return !ok ? -1 : h.version == 5 ? 0 : 1;
}

/* ---- the line number program ---- */

/* The state machine's registers that make a row. */
struct regs {
	uint64_t addr, file, line;
	uint64_t op_index;
};

/* DWARF 5 numbers the files from 0: its file register starts at 0, as
 * libdwarf and the reports before this reader took it (the standard
 * says 1, and says 0 is the unit's primary file; GCC writes its
 * DW_LNS_set_file before most rows either way). */
static void regs_reset(struct regs *r, uint16_t version)
{
	r->addr = 0;
	r->op_index = 0;
	r->file = version >= 5 ? 0 : 1;
	r->line = 1;
}

static void add_row(struct dw_lines *l, const struct regs *r, bool end)
{
	SP_ALLOC_GROW(l->v, l->n + 1, l->cap);
	l->v[l->n].addr = r->addr;
	l->v[l->n].line = end ? 0 : (uint32_t)r->line;	/* nothing after an end */
	l->v[l->n++].file = (uint32_t)r->file;
}

/* The address moved on by ops operations. */
static void advance(const struct header *h, struct regs *r, uint64_t ops)
{
	if (h->max_ops < 2) {
		r->addr += h->min_inst * ops;
		return;
	}
	r->addr += h->min_inst * ((r->op_index + ops) / h->max_ops);
	r->op_index = (r->op_index + ops) % h->max_ops;
}

/* An extended opcode (after its 0): its length, then what it is. */
static void extended(struct header *h, struct regs *r, struct dw_lines *l)
{
	struct dw_bytes *b = &h->b;
	uint64_t len = dw_bytes_uleb(b);
	const unsigned char *op = dw_bytes_skip(b, len);
	struct dw_bytes x;

	if (!op || !len)
		return;
	dw_bytes_init(&x, op + 1, len - 1, b->msb);
	switch (op[0]) {
	case DW_LNE_end_sequence:
		add_row(l, r, true);
		regs_reset(r, h->version);
		break;
	case DW_LNE_set_address:
		if (len - 1 > 8 || len < 2)
			b->bad = true;
		r->addr = dw_bytes_uint(&x, (unsigned)(len - 1));
		r->op_index = 0;
		break;
	}
}

/* A standard opcode other than 0. */
static void standard(struct header *h, struct regs *r, struct dw_lines *l, uint8_t op)
{
	struct dw_bytes *b = &h->b;
	uint64_t i;

	switch (op) {
	case DW_LNS_copy:
		add_row(l, r, false);
		return;
	case DW_LNS_advance_pc:
		advance(h, r, dw_bytes_uleb(b));
		return;
	case DW_LNS_advance_line:
		r->line += (uint64_t)dw_bytes_sleb(b);
		return;
	case DW_LNS_set_file:
		r->file = dw_bytes_uleb(b);
		return;
	case DW_LNS_const_add_pc:
		advance(h, r, (255u - h->opcode_base) / h->line_range);
		return;
	case DW_LNS_fixed_advance_pc:
		r->addr += dw_bytes_uint(b, 2);
		r->op_index = 0;
		return;
	case DW_LNS_negate_stmt: case DW_LNS_set_basic_block:
	case DW_LNS_set_prologue_end: case DW_LNS_set_epilogue_begin:
		return;
	}
	/* DW_LNS_set_column, DW_LNS_set_isa, and an opcode of a later
	 * version: as many LEB128 operands as the header says */
	for (i = 0; i < h->opcode_lengths[op - 1] && !b->bad; i++)
		dw_bytes_uleb(b);
}

/* The rows of the program of the table h: false when it is cut. */
static bool run_program(struct header *h, struct dw_lines *l)
{
	struct dw_bytes *b = &h->b;
	struct regs r;

	if (!h->program || !h->line_range || !h->opcode_base || h->b.bad)
		return false;
	b->p = h->program;
	regs_reset(&r, h->version);
	while (dw_bytes_left(b)) {
		uint8_t op = (uint8_t)dw_bytes_uint(b, 1);

		if (op >= h->opcode_base) {	/* a special opcode */
			unsigned adjusted = op - h->opcode_base;

			advance(h, &r, adjusted / h->line_range);
			r.line += (uint64_t)(int64_t)(h->line_base + (int)(adjusted % h->line_range));
			add_row(l, &r, false);
		} else if (!op) {
			extended(h, &r, l);
		} else {
			standard(h, &r, l, op);
		}
	}
	return !b->bad;
}

static int by_addr(const void *pa, const void *pb)
{
	const struct dw_line_row *a = pa, *b = pb;

	return (a->addr > b->addr) - (a->addr < b->addr);
}

int dw_line_rows(const struct dw_secs *s, uint64_t off, struct dw_lines *l)
{
	struct header h;

	l->n = 0;
	if (!s->line.data || !header_open(&h, s->line.data, s->line.size, off, s->msb) ||
	    h.version < 2 || h.version > 5)
		return -1;
	read_fields(&h);
	if (!run_program(&h, l)) {
		l->n = 0;
		return -1;
	}
	/* in the order the program made them, where addresses are equal */
	if (l->n)
		qsort(l->v, l->n, sizeof(*l->v), by_addr);
	return 0;
}

int dw_lines_read(struct dw_reader *r, uint32_t cu, struct dw_lines *l)
{
	struct dw_image *dw = r->dw;
	struct dw_entry e;
	struct dw_val v;
	uint64_t off;
	int res = -1;

	l->dw = dw;
	l->cu = cu;
	l->n = 0;
	if (cu < dw->cu_first || cu - dw->cu_first >= dw->ncus)
		return -1;
	dw_reader_begin(r);
	if (dw_entry_at(r, dw->st->cu_die_off[cu - dw->cu_first], &e) &&
	    dw_entry_attr(&e, DW_AT_stmt_list, &v) && dw_val_offset(&v, &off))
		res = dw_line_rows(e.u->secs, off, l);
	dw_reader_end(r);
	return res;
}

static uint64_t row_addr(const void *base, size_t i)
{
	return ((const struct dw_line_row *)base)[i].addr;
}

bool dw_lines_find(const struct dw_lines *l, uint64_t addr, uint32_t *line,
		   const char **file)
{
	size_t k = sp_search_last_le(l->v, l->n, row_addr, addr);

	if (k >= l->n || !l->v[k].line)
		return false;
	*line = l->v[k].line;
	*file = dw_cu_file(l->dw, l->cu, l->v[k].file);
	return true;
}

void dw_lines_release(struct dw_lines *l)
{
	free(l->v);
	memset(l, 0, sizeof(*l));
}
