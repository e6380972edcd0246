/*
 * cursor.c - reading DIEs by offset, unit after unit.
 *
 * libdwarf 20210528 finds the unit of the DIE dwarf_offdie_b asks for by
 * walking its list of units from the first, unless the DIE is in the
 * unit its header iterator is at: at a kernel's 2,000 units and a
 * million DIEs read at random, that walk was most of a run.  So readers
 * that read many DIEs sort their work by DIE offset and move the
 * iterator along to the unit of each (dwarf_next_cu_header_d, which
 * starts over at the first unit after the last).
 */
#include "dwarf/internal.h"

void dw_cursor_seek(struct dw_cursor *c, Dwarf_Off off)
{
	int wraps = 0;

	if (c->broken || (off >= c->lo && off < c->hi))
		return;
	while (wraps < 2) {
		Dwarf_Unsigned hlen, abbrev_off, typeoff, next;
		Dwarf_Half version, asize, lsize, esize, cutype;
		Dwarf_Sig8 sig;
		Dwarf_Error derr = NULL;
		Dwarf_Die cu = NULL;
		Dwarf_Off cu_off = 0;
		int res = dwarf_next_cu_header_d(c->dbg, true, &hlen, &version, &abbrev_off,
						 &asize, &lsize, &esize, &sig, &typeoff, &next,
						 &cutype, &derr);

		if (res == DW_DLV_NO_ENTRY) {
			wraps++;	/* the next call starts over at the first unit */
			continue;
		}
		if (res != DW_DLV_OK ||
		    dwarf_siblingof_b(c->dbg, NULL, true, &cu, &derr) != DW_DLV_OK ||
		    dwarf_dieoffset(cu, &cu_off, &derr) != DW_DLV_OK) {
			dw_drop_error(c->dbg, &derr);
			if (cu)
				dwarf_dealloc_die(cu);
			c->broken = true;
			return;
		}
		dwarf_dealloc_die(cu);
		c->lo = cu_off;
		c->hi = next;
		c->units++;
		if (off >= c->lo && off < c->hi)
			return;
	}
}

void dw_cursor_seek_dropping(struct dw_cursor *c, const struct dw_image *dw, Dwarf_Off off)
{
	uint32_t before = c->units;

	dw_cursor_seek(c, off);
	if (c->units / 64 != before / 64)
		dw_done_reading(dw);
}
