/*
 * dwarf_compat.h - the few libdwarf calls whose spelling changed between
 * Debian's 20210528 release and the later 0.x API, wrapped once so the
 * loader reads the same either way.
 */
#ifndef SP_DWARF_COMPAT_H
#define SP_DWARF_COMPAT_H

#include <dwarf.h>
#include <libdwarf.h>

static inline int dw_dwarf_init(int fd, Dwarf_Debug *dbg, Dwarf_Error *derr)
{
	/* 20210528: the access argument (DW_DLC_READ) is still present */
	return dwarf_init_b(fd, DW_DLC_READ, DW_GROUPNUMBER_ANY, NULL, NULL,
			    dbg, derr);
}

static inline void dw_dealloc_attrs(Dwarf_Debug dbg, Dwarf_Attribute *attrs,
				    Dwarf_Signed n)
{
	Dwarf_Signed i;

	for (i = 0; i < n; i++)
		dwarf_dealloc(dbg, attrs[i], DW_DLA_ATTR);
	dwarf_dealloc(dbg, attrs, DW_DLA_LIST);
}

static inline void dw_dealloc_srcfiles(Dwarf_Debug dbg, char **names,
				       Dwarf_Signed n)
{
	Dwarf_Signed i;

	for (i = 0; i < n; i++)
		dwarf_dealloc(dbg, names[i], DW_DLA_STRING);
	dwarf_dealloc(dbg, names, DW_DLA_LIST);
}

static inline void dw_dealloc_string(Dwarf_Debug dbg, char *s)
{
	dwarf_dealloc(dbg, s, DW_DLA_STRING);
}

#endif
