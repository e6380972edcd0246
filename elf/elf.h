/*
 * elf.h - the ELF stage: an image's sections, symbols, PLT and branch
 * relocations, read once with libelf.
 *
 * Code is found by address: sp_elf_code_at() gives the bytes of an
 * executable section, sp_elf_next_code_sym() walks the function symbols
 * whose code the later stages decode, and on ARM sp_elf_next_run() cuts
 * a function into its ARM, Thumb and literal-pool stretches.  A
 * relocatable object (.o, .ko) has its allocated sections laid out one
 * after the other, as a linker would, so that every function has an
 * address of its own.  Names are interned in the graph's string table.
 */
#ifndef SP_ELF_H
#define SP_ELF_H

#include <gelf.h>
#include <stdbool.h>
#include <stdint.h>

#include "common/error.h"
#include "elf/arch.h"
#include "common/u64map.h"
#include "stackprof.h"

struct sp_elf_sym {
	uint64_t addr, size;
	const char *name;	/* interned */
	uint8_t bind;		/* STB_* */
	bool thumb;		/* ARM: bit 0 of st_value was set (addr has it clear) */
	bool untyped;		/* STT_NOTYPE with a size: assembly's code */
	bool ifunc;		/* STT_GNU_IFUNC: its code is the resolver that
				 * picks the implementation a call runs */
};

/* ARM mapping symbols ($a, $t, $d) mark where ARM code, Thumb code and
 * literal-pool data start inside the code sections. */
struct sp_elf_map {
	uint64_t addr;
	char kind;		/* 'a', 't' or 'd' */
};

/* A stretch of instructions of one kind inside a function. */
struct sp_elf_run {
	uint64_t addr, end;
	bool thumb;
};

struct sp_elf_code {		/* one executable section */
	uint64_t addr, size;
	const unsigned char *bytes;	/* NULL for SHT_NOBITS */
	bool is_plt;
};

/* A branch in a relocatable object: its displacement is filled in by the
 * linker, so the target is the relocation's symbol. */
struct sp_elf_reloc {
	uint64_t target;	/* where it lands, when its symbol is defined here */
	const char *name;	/* interned symbol name when undefined (another ELF) */
};

struct sp_elf {
	int fd;
	Elf *elf;
	uint16_t machine;
	const struct sp_arch *arch;	/* the machine's row of elf/arch.c */
	uint16_t type;		/* ET_EXEC, ET_DYN, ET_REL */
	struct sp_elf_sym *syms;	/* FUNC symbols, sorted by address */
	size_t nsyms;
	struct sp_elf_code *code;
	size_t ncode;
	struct sp_u64map sym_by_addr;	/* address -> index of its best symbol */
	struct sp_elf_map *maps;	/* ARM mapping symbols, sorted by address */
	size_t nmaps;
	const char **plt_names;		/* name of each PLT stub, by slot */
	size_t nplt;
	uint64_t *plt_irel;		/* by slot: an IRELATIVE slot's resolver, else 0 */
	uint64_t plt_base, plt_stride;	/* stub i is at plt_base + i * plt_stride */
	/* x86-64's .plt.got: stubs that jump through a GOT entry the dynamic
	 * linker fills at load time (GLOB_DAT: a function whose address is
	 * also taken, libc's calls to its own malloc and free) */
	const char **got_names;		/* name of each stub's function, or NULL */
	size_t ngot;
	uint64_t got_base, got_stride;
	/* the version of a library's symbol each undefined dynamic symbol
	 * asks for (.gnu.version_r), by interned name */
	struct sp_u64map need_at;	/* name -> index in needed_versions */
	const char **needed_versions;	/* interned: "GLIBC_2.2.5" */
	size_t nneeded_versions;
	/* ET_REL: every allocated section gets its own address range, as a
	 * linker would lay it out, so that -ffunction-sections code does not
	 * all start at 0 (reloc.c relocates the DWARF to the same layout) */
	uint64_t *sec_base;		/* by section index, 0 when not allocated */
	size_t nsec;
	Elf_Scn *symtab;		/* .symtab, for relocations */
	bool stripped;			/* no .symtab: the symbols are .dynsym's */
	struct sp_elf_reloc *relocs;	/* branch relocations of the code */
	size_t nrelocs;
	struct sp_u64map reloc_at;	/* address of the relocated field -> relocs index */
};

int sp_elf_open(struct sp_elf *e, struct sp_graph *g, const char *path, struct sp_err *err);
void sp_elf_close(struct sp_elf *e);
/* Bytes of code at addr (at least len of them), or NULL. */
const unsigned char *sp_elf_code_at(const struct sp_elf *e, uint64_t addr, size_t len);
bool sp_elf_in_plt(const struct sp_elf *e, uint64_t addr);
/* The external function a PLT stub jumps to (interned), or NULL. */
const char *sp_elf_plt_name(const struct sp_elf *e, uint64_t addr);
/* The version of name (interned) the image's reference to it asks for
 * ("GLIBC_2.2.5", interned), or NULL when it asks none. */
const char *sp_elf_needed_version(const struct sp_elf *e, const char *name);
/* The IFUNC resolver whose choice a PLT stub of the image's own jumps to
 * (an IRELATIVE slot: libc's calls to memcpy), or 0. */
uint64_t sp_elf_plt_irelative(const struct sp_elf *e, uint64_t addr);
/*
 * A stripped image's function symbols from its separate debug file
 * (Debian's libc6-dbg: .symtab with the local functions, at the same
 * addresses); the dynamic symbols are dropped for them.  0 when read,
 * -1 when the file cannot be (the image keeps its own).
 */
int sp_elf_read_debug_syms(struct sp_elf *e, struct sp_graph *g, const char *path,
			   struct sp_err *err);
/* The image's GNU build-id note: *len bytes at *id; false when none. */
bool sp_elf_build_id(const struct sp_elf *e, const unsigned char **id, size_t *len);
/* Has the image .symtab, or only .dynsym (stripped)? */
bool sp_elf_has_symtab(const struct sp_elf *e);
bool sp_elf_is_code(const struct sp_elf *e, uint64_t addr);
/* Whether name is one of the kernel's return thunks: a jump there returns. */
bool sp_elf_return_thunk(const char *name);
/* The allocated section named name: its address (a relocatable object's
 * as laid out) and size; false when there is none, or it is at 0. */
bool sp_elf_section(const struct sp_elf *e, const char *name, uint64_t *addr, uint64_t *size);
/* The same, at 0 too: the x86-64 kernel links its per-cpu area,
 * .data..percpu, at 0 (a variable's address is its offset in each CPU's
 * copy). */
bool sp_elf_find_section(const struct sp_elf *e, const char *name, uint64_t *addr,
			 uint64_t *size);
/* A linked image's bytes [addr, addr + len) in the file, in one
 * allocated section; NULL when none holds them, or in a relocatable
 * object (its bytes wait for relocations). */
const unsigned char *sp_elf_bytes_at(const struct sp_elf *e, uint64_t addr, uint64_t len);
/* A linked image's allocated writable sections that are not code nor
 * thread-local, nor at 0 (the x86-64 kernel's per-cpu area), each
 * [v[2i], v[2i + 1]), in section order: *n of them in a malloc'ed array
 * (NULL when none, and for a relocatable object). */
uint64_t *sp_elf_writable_data(const struct sp_elf *e, size_t *n);
/* Each named entry of .symtab, in table order, undefined ones included:
 * fn(arg, sym, name).  Nothing when the image has no .symtab. */
void sp_elf_each_symbol(const struct sp_elf *e,
			void (*fn)(void *arg, const GElf_Sym *sym, const char *name),
			void *arg);
/* The next symbol from *i on that starts a function's code: sized, not in
 * the PLT, not inside the one before (aliases, labels).  *i and *end (0 to
 * begin) carry the walk; NULL at the end. */
const struct sp_elf_sym *sp_elf_next_code_sym(const struct sp_elf *e, size_t *i,
					      uint64_t *end);
/* ET_REL: the relocation of the branch whose 4-byte displacement (x86) or
 * instruction (arm64) ends at site, or NULL. */
const struct sp_elf_reloc *sp_elf_branch_reloc(const struct sp_elf *e, uint64_t site);
/* Each pointer-sized word of data a relocation writes, fn(arg, addr,
 * value): a linked image's RELATIVE relocations (B + A, the image at its
 * link address; REL's need none, the word holds it), an object's
 * absolute relocations of its allocated data (S + A; a REL addend stays
 * in the word), at addresses of the laid-out sections.  g interns an
 * undefined symbol's name (may be NULL). */
typedef void sp_elf_data_reloc_fn(void *arg, uint64_t addr, uint64_t value);
void sp_elf_each_data_reloc(const struct sp_elf *e, struct sp_graph *g,
			    sp_elf_data_reloc_fn *fn, void *arg);
/* ET_REL: the value of symbol index i in the laid-out sections; false when
 * undefined (*name is then its name, interned in g) or unreadable. */
bool sp_elf_sym_value(const struct sp_elf *e, size_t i, uint64_t *value,
		      const char **name, struct sp_graph *g);
/* The next run of instructions at or after *pc and before end, skipping
 * ARM literal pools; thumb is the mode when no mapping symbol says.  False
 * when none is left.  *pc moves past the run. */
bool sp_elf_next_run(const struct sp_elf *e, uint64_t *pc, uint64_t end, bool thumb,
		     struct sp_elf_run *run);
/* ARM: is the code at addr Thumb?  From the mapping symbols, else from
 * the function symbol there; false on other machines. */
bool sp_elf_thumb_at(const struct sp_elf *e, uint64_t addr);

#endif
