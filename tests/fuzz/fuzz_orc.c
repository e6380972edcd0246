/*
 * fuzz_orc.c - libFuzzer harness for the ORC reader (elf/orc.c): the
 * input is opened as an ELF image in memory, its allocated sections laid
 * out one after the other (as callgraph/elf.c lays out an object's), the
 * table read, and every row's range asked for a frame and an end.
 * Seeded with tests/e2e/orc/hand.S, linked and as an object (make fuzz).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "elf/orc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Section i at base[i]: allocated ones from 64 KiB on, 16 bytes apart. */
static uint64_t *layout(Elf *elf, size_t *nsec)
{
	Elf_Scn *scn = NULL;
	uint64_t *base, next = 0x10000;
	GElf_Shdr sh;

	if (elf_getshdrnum(elf, nsec) || *nsec > 65536)
		return NULL;
	base = calloc(*nsec + 1, sizeof(*base));
	while (base && (scn = elf_nextscn(elf, scn))) {
		size_t ndx = elf_ndxscn(scn);

		if (!gelf_getshdr(scn, &sh) || !(sh.sh_flags & SHF_ALLOC) || ndx >= *nsec ||
		    sh.sh_size > UINT32_MAX)
			continue;
		base[ndx] = next;
		next += (sh.sh_size + 31) & ~(uint64_t)15;
	}
	return base;
}

static void ask(const struct orc_table *t)
{
	uint64_t frame;
	size_t i;

	for (i = 0; i < t->n; i++) {
		uint64_t lo = t->rows[i].ip;
		uint64_t hi = i + 1 < t->n ? t->rows[i + 1].ip : lo + 16;

		orc_frame(t, lo, hi, &frame);
		orc_frame(t, lo, lo + 4096, &frame);
		orc_can_end(t, hi);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *copy = malloc(size ? size : 1);
	struct orc_table t;
	struct sp_err err;
	struct orc_layout l;
	Elf *elf;

	if (!copy)
		return 0;
	memcpy(copy, data, size);
	elf_version(EV_CURRENT);
	elf = elf_memory(copy, size);
	if (elf) {
		uint64_t *base = layout(elf, &l.nsec);

		l.sec_base = base;
		if (!orc_table_read(&t, elf, base ? &l : NULL, "fuzz", &err)) {
			ask(&t);
			orc_table_release(&t);
		}
		free(base);
		elf_end(elf);
	}
	free(copy);
	return 0;
}
