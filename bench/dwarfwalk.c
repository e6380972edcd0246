/*
 * dwarfwalk.c - the peer of `stackprof vmlinux` in bench/run.sh: a bare
 * libdwarf walk that visits every DIE of every compile unit and reads its
 * attribute list (name and form of each attribute), and nothing more.  It
 * is what "read all of .debug_info" costs; stackprof must cost less.
 *
 *	bench/dwarfwalk FILE		prints the DIE and attribute counts
 */
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#include <dwarf.h>
#include <libdwarf.h>

struct counts {
	unsigned long dies, attrs;
};

static void read_attrs(Dwarf_Debug dbg, Dwarf_Die die, struct counts *c)
{
	Dwarf_Attribute *attrs = NULL;
	Dwarf_Signed n = 0, i;
	Dwarf_Error derr = NULL;

	if (dwarf_attrlist(die, &attrs, &n, &derr) != DW_DLV_OK)
		return;
	for (i = 0; i < n; i++) {
		Dwarf_Half at, form;

		if (dwarf_whatattr(attrs[i], &at, &derr) == DW_DLV_OK &&
		    dwarf_whatform(attrs[i], &form, &derr) == DW_DLV_OK)
			c->attrs++;
		dwarf_dealloc(dbg, attrs[i], DW_DLA_ATTR);
	}
	dwarf_dealloc(dbg, attrs, DW_DLA_LIST);
}

static void walk(Dwarf_Debug dbg, Dwarf_Die die, struct counts *c)
{
	Dwarf_Die child = NULL, next = NULL;
	Dwarf_Error derr = NULL;
	int res;

	c->dies++;
	read_attrs(dbg, die, c);
	res = dwarf_child(die, &child, &derr);
	while (res == DW_DLV_OK) {
		walk(dbg, child, c);
		res = dwarf_siblingof_b(dbg, child, 1, &next, &derr);
		dwarf_dealloc_die(child);
		child = next;
	}
}

int main(int argc, char **argv)
{
	Dwarf_Debug dbg = NULL;
	Dwarf_Error derr = NULL;
	struct counts c = { 0, 0 };
	int fd;

	if (argc != 2) {
		fprintf(stderr, "usage: dwarfwalk FILE\n");
		return 2;
	}
	fd = open(argv[1], O_RDONLY);
	if (fd < 0 || dwarf_init_b(fd, DW_DLC_READ, DW_GROUPNUMBER_ANY, NULL, NULL,
				   &dbg, &derr) != DW_DLV_OK) {
		fprintf(stderr, "dwarfwalk: cannot read DWARF of '%s'\n", argv[1]);
		return 2;
	}
	for (;;) {
		Dwarf_Unsigned hlen, abbrev, typeoff, next;
		Dwarf_Half version, asize, lsize, esize, cutype;
		Dwarf_Sig8 sig;
		Dwarf_Die cu = NULL;

		if (dwarf_next_cu_header_d(dbg, 1, &hlen, &version, &abbrev, &asize,
					   &lsize, &esize, &sig, &typeoff, &next,
					   &cutype, &derr) != DW_DLV_OK)
			break;
		if (dwarf_siblingof_b(dbg, NULL, 1, &cu, &derr) != DW_DLV_OK)
			continue;
		walk(dbg, cu, &c);
		dwarf_dealloc_die(cu);
	}
	printf("%lu DIEs, %lu attributes\n", c.dies, c.attrs);
	dwarf_finish(dbg, &derr);
	close(fd);
	return 0;
}
