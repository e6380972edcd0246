/*
 * passes.h - an image's code, every function decoded once and each pass
 * run over its instructions.
 *
 *	insn_image_start(&code, &elf, opts, &err);	a thread of its own
 *	... the DWARF walk, on the main thread ...
 *	insn_image_finish(&code, path, &err);	the main thread helps, joins
 *	code.calls, insn_image_func(&code, addr, size)	what the passes found
 *	insn_image_release(&code);
 *
 * The function symbols (sp_elf_next_code_sym) are decoded in chunks of
 * 64, each claimed by the thread or, in insn_image_finish, the main
 * thread, into results of its own that are joined in address order.
 * Each symbol is decoded into one struct insn array and the passes run
 * over it: the calls
 * and jumps (insn_calls_pass), the x86-64 red zone (insn_red_zone), the
 * stack arguments a call pushes (insn_pushed_args), and, when asked, the
 * function addresses the code loads (insn_addr_loads) and the indirect
 * calls and function-pointer stores (insn_icalls_pass, icall.h).  A function whose
 * extent no symbol gives is decoded when first asked for.
 */
#ifndef SP_INSN_PASSES_H
#define SP_INSN_PASSES_H

#include <pthread.h>
#include <stdatomic.h>

#include "common/error.h"
#include "insn/icall.h"
#include "insn/insn.h"

/* A call or jump the call pass keeps (the merge into the graph decides). */
struct insn_call {
	uint64_t site;		/* the address after the instruction */
	uint64_t target;	/* a direct one's target, else 0 */
	uint8_t branch;		/* enum insn_branch: how the call pass counts it */
	uint8_t groups;		/* INSN_G_CALL, INSN_G_JUMP: how capstone does */
	bool direct;		/* target is known */
	bool switched;		/* made on another stack (insn_stack_frame) */
};

/* insn_func.flags */
#define INSN_FUNC_WHOLE		(1u << 0) /* decoded to its end */
#define INSN_FUNC_LEAF		(1u << 1) /* x86-64: decoded whole, and calls nothing */
#define INSN_FUNC_ALLOCA	(1u << 2) /* x86: the stack pointer moves by a register */
#define INSN_FUNC_PUSHED	(1u << 3) /* x86: a call's stack arguments were pushed */
#define INSN_FUNC_NO_BYTES	(1u << 4) /* a stretch of it has no bytes in the file */
#define INSN_FUNC_FRAME		(1u << 5) /* frame: what the code shows (insn_stack_frame) */
#define INSN_FUNC_DYNAMIC	(1u << 6) /* ... and the stack pointer moves by a register */
#define INSN_FUNC_BOUNDED	(1u << 7) /* ... by no more than a mask lets it */

/* A list of them. */
struct insn_calls {
	struct insn_call *v;	/* by site */
	size_t n, cap;
};

/* What the passes found in one function's code. */
struct insn_func {
	uint64_t addr, size;
	uint64_t pushed_callee;	/* INSN_FUNC_PUSHED: that call's target, 0 when dynamic */
	uint64_t frame;		/* INSN_FUNC_FRAME: bytes, as .su counts them */
	uint32_t red_zone;	/* INSN_FUNC_LEAF: bytes used below the stack pointer */
	uint8_t flags;		/* INSN_FUNC_* */
};

/* Code addresses the code loads (addr_taken). */
struct insn_loads {
	uint64_t *v;
	size_t n, cap;
};

/* A constant a direct call or tail jump passes in an argument register,
 * as the code loads it just before (callargs.c): a function's address,
 * or 0. */
struct insn_carg {
	uint64_t ret;		/* the address after the branch */
	uint64_t value;
	uint8_t reg;		/* DWARF number */
};

/* A list of them, by ret. */
struct insn_cargs {
	struct insn_carg *v;
	size_t n, cap;
};

/* An IFUNC symbol's resolver and the function addresses its code loads:
 * the implementations it may return (libc's memcpy picks one of
 * __memcpy_avx_unaligned_erms, __memcpy_sse2_unaligned... by the CPU). */
struct insn_ifunc {
	uint64_t resolver, target;
};

struct insn_ifuncs {
	struct insn_ifunc *v;
	size_t n, cap;
};

/* The results of a run of function symbols, decoded by one thread. */
struct insn_chunk {
	struct insn_func *funcs;
	size_t nfuncs, funcs_cap;
	struct insn_calls calls;
	struct insn_loads loads;
	struct insn_ifuncs ifuncs;
	struct insn_icalls icalls;	/* its thunks are the image's */
	struct insn_cargs cargs;
	struct insn_loads drefs;	/* insn_data_refs' */
};

struct insn_image {
	const struct sp_elf *elf;
	bool addr_taken;	/* run insn_addr_loads too */
	struct insn_calls calls;	/* of every function symbol, by site */
	struct insn_func *funcs;	/* by address: one per function symbol */
	size_t nfuncs, funcs_cap;
	struct insn_loads loads;	/* addr_taken */
	struct insn_loads gap_loads;	/* those of the code no symbol covers */
	struct insn_ifuncs ifuncs;	/* of every IFUNC symbol, by resolver */
	bool typed;		/* run insn_icalls_pass too (--indirect=types) */
	struct insn_icalls icalls;	/* its indirect calls and stores */
	struct insn_cargs cargs;	/* typed: constant arguments, by ret */
	struct insn_loads landings;	/* ... the static branches' targets */
	struct insn_sbranch *sbranches;	/* ... and sites, by site */
	size_t nsbranches;
	bool landings_known;
	/* typed, x86-64: the writable data (insn_range), and the addresses
	 * there the code takes or writes other than by a store the store
	 * pass reads (insn_data_refs), sorted once joined */
	struct insn_range *wdata;
	size_t nwdata;
	bool drefs_known;
	struct insn_loads drefs, gap_drefs;
	uint64_t decoded;	/* instructions the thread decoded */
	/* the function symbols to decode, in chunks claimed in turn */
	const struct sp_elf_sym **syms;
	size_t nsyms, nchunks;
	struct insn_chunk *chunks;
	_Atomic size_t next_chunk;
	pthread_t thread;
	bool started, failed;
	/* the main thread's decoder, for functions no symbol gives */
	struct insn_decoder *here;
	struct insn_buf buf;
	struct insn_func asked;	/* the last such function's results */
	struct insn_calls asked_calls;
};

/* Start the thread over e's code (false from the start when e's machine
 * has no decoder: nothing is decoded then).  addr_taken: also collect the
 * addresses the code loads (for --indirect=address-taken); typed: the
 * indirect calls and stores with their chains (--indirect=types). */
int insn_image_start(struct insn_image *c, const struct sp_elf *e, bool addr_taken,
		     bool typed, struct sp_err *err);
/* Wait for the thread; "'PATH': capstone cannot decode ..." when it could
 * not open its decoder. */
int insn_image_finish(struct insn_image *c, const char *path, struct sp_err *err);
void insn_image_release(struct insn_image *c);
/* What the passes found in the code [addr, addr + size): a function
 * symbol's results, else decoded now (NULL without bytes or decoder).
 * Valid until the next call. */
const struct insn_func *insn_image_func(struct insn_image *c, uint64_t addr, uint64_t size);
/* The results of the function symbol at addr, whatever its size; NULL
 * when the thread decoded none there. */
const struct insn_func *insn_image_func_at(const struct insn_image *c, uint64_t addr);
/* The calls and jumps of f, one of the two above: *n of them. */
const struct insn_call *insn_image_calls(const struct insn_image *c,
					 const struct insn_func *f, size_t *n);
/* Does the code take or write an address in [lo, hi) other than by a
 * store the store pass reads (insn_data_refs)?  True too when that is
 * not known (not typed, not x86-64, a relocatable object). */
bool insn_image_data_ref(const struct insn_image *c, uint64_t lo, uint64_t hi);
/* Instructions decoded, by the thread and on demand. */
uint64_t insn_image_decoded(const struct insn_image *c);

/* ---- the passes, over one function's instructions ---- */

/* Append every branch either counting keeps (a call-pass kind, or a
 * call or jump to capstone) to out.  Stops at a gap. */
void insn_calls_pass(struct insn_calls *out, const struct insn *v, size_t n);
/* x86-64: true for a leaf decoded to its end, with *red_zone the bytes it
 * uses below its deepest stack pointer (see redzone.c); false otherwise. */
bool insn_red_zone(const struct insn *v, size_t n, uint64_t end, uint32_t *red_zone);
/* What insn_stack_frame reads of a function's stack. */
struct insn_stack_res {
	uint64_t frame;		/* bytes, as .su counts them */
	bool dynamic;		/* sp also moves by a register's value */
	bool bounded;		/* ... by no more than a mask lets it, counted */
	uint64_t *switched;	/* the return addresses of the calls made after
				 * sp was loaded from something other than
				 * itself: on another stack (malloc'ed) */
	size_t nswitched, switched_cap;
};

/* The frame [start, end)'s code shows, in .su's convention: the deepest
 * the stack pointer goes on any path on this stack (x86: and the return
 * address).  False when it cannot be told (see stack.c); out->switched
 * is then empty, and kept for the next call either way. */
bool insn_stack_frame(const struct insn *v, size_t n, uint16_t machine, uint64_t start,
		      uint64_t end, struct insn_stack_res *out);
/* x86-64: the kernel's static branches' targets, sorted, into out (the
 * code shows no jump there), and when branches is not NULL each site
 * with its target, sorted by site; false when they cannot be read (a
 * module's, before relocation). */
bool insn_static_landings(const struct sp_elf *e, struct insn_loads *out,
			  struct insn_sbranch **branches, size_t *nbranches);
/* x86-64: append the constants the direct calls and tail jumps of
 * v[0..n) pass in argument registers (callargs.c) to out; landings:
 * insn_static_landings', NULL when they are not known (no values then). */
void insn_call_args(const struct sp_elf *e, const struct insn_loads *landings,
		    struct insn_cargs *out, const struct insn *v, size_t n);
/* x86: sets INSN_FUNC_ALLOCA or INSN_FUNC_PUSHED (and pushed_callee). */
void insn_pushed_args(const struct insn *v, size_t n, struct insn_func *out);
/* An address range [lo, hi). */
struct insn_range {
	uint64_t lo, hi;
};

/* Is addr in one of the ranges w[0..n) (sorted, apart)? */
bool insn_in_ranges(const struct insn_range *w, size_t n, uint64_t addr);
/* x86-64: append to out the addresses in w[0..nw) (sorted, apart: the
 * writable data) that v[0..n) takes (an immediate, a lea's address, a
 * compare's aside) or writes through a memory operand (its address
 * apart from the registers), except, when stores_read, the stores
 * insn_icalls_pass reads at a fixed address (up to a gap, where that
 * pass stops). */
void insn_data_refs(const struct insn_range *w, size_t nw, struct insn_loads *out,
		    const struct insn *v, size_t n, bool stores_read);
/* x86: append the code addresses that immediates and RIP-relative lea's
 * load (branches aside) to out. */
void insn_addr_loads(const struct sp_elf *e, struct insn_loads *out, const struct insn *v,
		     size_t n);

#endif
