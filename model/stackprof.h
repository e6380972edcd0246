/*
 * stackprof.h - the one in-memory model shared by every stage.
 *
 * Loaders (callgraph/, su/) fill a struct sp_graph; analysis/ annotates
 * each function's struct sp_result; report/ only reads it through a
 * const pointer.  Every name and path is interned in graph->strs, so two
 * names are equal exactly when their pointers are.
 */
#ifndef STACKPROF_H
#define STACKPROF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/arena.h"
#include "common/strtab.h"

#define SP_NONE UINT32_MAX

/* What .su says about a frame; UNKNOWN means no frame data at all. */
enum sp_qual {
	SP_QUAL_UNKNOWN = 0,
	SP_QUAL_STATIC,
	SP_QUAL_DYNAMIC,	/* "dynamic": size not known at compile time */
	SP_QUAL_BOUNDED,	/* "dynamic,bounded": bytes is an upper bound */
};

/* Where a frame size came from (frames/frames.h decides). */
enum sp_frame_src {
	SP_SRC_NONE = 0,
	SP_SRC_SU,
	SP_SRC_CFI,
	SP_SRC_ANNOT,
	SP_SRC_CODE,	/* the stack pointer followed through the code */
	SP_SRC_ORC,	/* a kernel's ORC tables, objtool's (x86-64) */
	SP_SRC_ENTRY,	/* what an exception's entry pushes (pt_regs) */
	SP_SRC_JIT,	/* the bound on code made at run time (<bpf jit>) */
	SP_SRC_INLINED,	/* an inlined copy's node (SP_F_INLINED): 0, in its caller's */
	SP_SRC__COUNT
};

/* sp_func.flags */
#define SP_F_HAS_CODE		(1u << 0) /* has an address range in the image */
#define SP_F_EXTERNAL		(1u << 1) /* declared only: not defined in the image */
#define SP_F_CALLS_INCOMPLETE	(1u << 2) /* DWARF does not claim to list all calls */
#define SP_F_SYMTAB_ONLY	(1u << 3) /* known from the ELF symbol table only */
#define SP_F_RECURSIVE		(1u << 4) /* set by analysis: in a cycle */
#define SP_F_IRQ_HANDLER	(1u << 5) /* irqreturn_t f(int, void *): passed to request_irq */
#define SP_F_SYSCALL		(1u << 6) /* a syscall wrapper symbol names its address */
#define SP_F_INDIRECT_ANNOTATED	(1u << 7) /* --annotate 'calls' lists its indirect targets */
#define SP_F_INDIRECT_ASSUMED	(1u << 8) /* --indirect=address-taken gave its targets */
#define SP_F_BUDGET		(1u << 9) /* --annotate 'entry': sp_func.budget applies */
#define SP_F_DEPTH_BOUNDED	(1u << 10) /* set by analysis: its cycle has a rec_depth */
#define SP_F_INDIRECT_TYPED	(1u << 11) /* its assumed targets were narrowed to the
					    * prototypes its call sites name */
#define SP_F_ANY_TAKEN		(1u << 12) /* --indirect=types: no function but a stand-in
					    * for every address-taken one, which the
					    * calls nothing is known of go through (one
					    * edge each instead of thousands); frame 0 */
#define SP_F_EXCEPTION_ENTRY	(1u << 13) /* no function but the entry of an exception
					    * taken on the interrupted stack: its frame
					    * what the CPU and the entry code push */
#define SP_F_IFUNC		(1u << 14) /* an IFUNC: its code is the resolver, a call
					    * runs what it picks (tail edges to each) */
#define SP_F_LAZY		(1u << 15) /* a lazily bound PLT slot: the first call runs
					    * the dynamic linker's resolver first */
#define SP_F_RESOLVER		(1u << 16) /* ld.so's _dl_runtime_resolve_*: its frame
					    * holds an XSAVE area the CPU sizes */
#define SP_F_NOT_GIVEN		(1u << 17) /* no function but a stand-in for the code of
					    * modules not given that a member nothing
					    * stores may hold (named SP_MODULE_CODE
					    * "struct X.m>"); frame unknown: partial */

#define SP_F_IRQ_THREAD		(1u << 18) /* an irq_handler_t given as the thread_fn of
					    * request_threaded_irq() & co, never as a
					    * handler: it runs in the IRQ's kernel thread */

#define SP_F_INLINED		(1u << 19) /* no function but the calls a function makes
					    * from inside the copies of one callee GCC
					    * inlined into it (named "FUNC/CALLEE", made
					    * only for the annotations that name it):
					    * frame 0, its caller's holds it */
#define SP_F_DECLARED		(1u << 20) /* no DWARF defines it (assembly; or
					    * only the assembler's DIE, with no
					    * prototype): its sp_func.decl_die is
					    * a C declaration */
#define SP_F_NEST_POOLED	(1u << 21) /* set by analysis: a once/nest function
					    * whose count the solver, over its limit,
					    * kept only in a budget shared with others
					    * (sp_graph.nest): its cuts are coarser */
#define SP_F_HYPERVISOR		(1u << 22) /* no function but the code a hypervisor
					    * put in a page the kernel calls (named
					    * SP_HYPERVISOR_CODE "VAR>"); frame
					    * unknown: partial */

#define SP_F_OBJECT_DECL	(1u << 23) /* set by --indirect=types: a global of no
					    * prototype known that C declares only as
					    * an object (extern char f[]): no typed
					    * pointer reaches it without a cast */

#define SP_F_ASSUME		(1u << 24) /* an --annotate 'assume' line names it
					    * (sp_func.assume_bits): a total
					    * that reaches it is assumed */

/* The name of an SP_F_NOT_GIVEN stand-in, before its member's. */
#define SP_MODULE_CODE "<module code: "
/* The name of an SP_F_HYPERVISOR stand-in, before its variable's. */
#define SP_HYPERVISOR_CODE "<hypervisor code: "

/* Why a total is unbounded or partial; index into sp_result.witness. */
enum sp_cause {
	SP_CAUSE_DYNAMIC = 0,	/* dynamic (unbounded) frame: unbounded */
	SP_CAUSE_RECURSION,	/* recursion cycle: unbounded */
	SP_CAUSE_INDIRECT,	/* indirect call: unbounded */
	SP_CAUSE_UNKNOWN,	/* callee without frame data: partial */
	SP_CAUSE_INCOMPLETE,	/* calls not listed in DWARF: partial */
	/* neither unbounded nor partial, but said: the total rests on them */
	SP_CAUSE_ASSUMED,	/* indirect targets assumed (address taken) */
	SP_CAUSE_DEPTH,		/* recursion bounded by an annotated depth */
	SP_CAUSE_NEST,		/* a cycle through a once/nest function, bounded by
				 * the activations of it that one stack can hold */
	SP_CAUSE_ASSUMPTION,	/* an --annotate 'assume' line (SP_F_ASSUME) */
	SP_CAUSE__COUNT
};

/* The analysis result of one function, filled by sp_analyze(). */
struct sp_result {
	uint64_t total;		/* bounded: the worst path in bytes, the bound;
				 * unbounded: certain, the lower bound (JSON
				 * "lower_bound").  While solving: the worst path's */
	uint32_t next;		/* next function on the worst path over every call,
				 * assumed ones too; SP_NONE at its end */
	uint8_t next_kind;	/* enum sp_edge_kind of the edge to next */
	uint8_t next_flags;	/* SP_EDGE_F_* of the edge to next */
	uint8_t next_how;	/* ... and its sp_edge.how */
	/*
	 * The deepest path over calls that certainly exist: edges without
	 * SP_EDGE_F_ASSUMED, no --indirect=address-taken set, no stand-in.
	 * An unbounded total reports it (its path starts along certain_next),
	 * as a lower bound must be a path the program has; a bounded one
	 * reports the worst path, assumed calls included.
	 */
	uint64_t certain;
	uint32_t certain_next;	/* SP_NONE at its end */
	uint8_t certain_kind, certain_flags, certain_how;
	bool via_assumed;	/* the worst path (along next) takes an assumed call */
	uint32_t certain_seg;	/* a once/nest function: seg's certain twin */
	uint64_t assumed_lb;	/* unbounded: the worst path's bytes when it takes an
				 * assumed call and goes deeper than total (JSON
				 * "assumed_lower_bound"), else 0 */
	bool bounded;		/* no DYNAMIC/RECURSION/INDIRECT cause reachable */
	bool partial;		/* an UNKNOWN/INCOMPLETE cause reachable */
	bool overflow;		/* total saturated at UINT64_MAX */
	bool assumed;		/* an ASSUMED or ASSUMPTION cause reachable:
				 * bounded by assumption */
	uint64_t assume_lines;	/* the 'assume' lines it rests on: bits as
				 * sp_func.assume_bits */
	uint32_t scc;		/* strongly connected component id */
	uint32_t seg;		/* a once/nest function: its worst path below
				 * it in graph->segs (SP_NONE: none) */
	uint32_t cycle;		/* a once/nest function: its shortest cycle, a
				 * segment ending in itself (SP_NONE: none) */
	/* One reachable function that exhibits each cause (SP_NONE if none):
	 * the nearest one found, so the report can name it. */
	uint32_t witness[SP_CAUSE__COUNT];
};

struct sp_func {
	const char *name;	/* source name; the .su spelling once matched */
	const char *symbol;	/* ELF symbol name, or NULL */
	const char *file;	/* declaring file as .su/DWARF name it, or NULL */
	const char *lib;	/* the shared library whose function it is
				 * ("libc.so.6"), NULL for the inputs' own */
	uint32_t line, col;	/* declaration line/column, 0 when unknown */
	uint64_t addr;		/* entry address (0 for external functions) */
	uint64_t size;		/* bytes of code at addr */
	uint32_t cu;		/* index into graph->cus, SP_NONE if none */
	uint64_t die;		/* DIE offset of the concrete entry, 0 if none */
	uint64_t origin_die;	/* DIE offset of its abstract origin, 0 if none */
	uint64_t decl_die;	/* a function DWARF gives no code (an ICF thunk,
				 * assembly): the one DIE of its name without
				 * code that says its prototype, 0 if none */
	uint64_t self;		/* own frame in bytes (valid when qual != UNKNOWN) */
	enum sp_qual qual;
	enum sp_frame_src src;
	uint32_t red_zone;	/* x86-64 leaf: bytes it uses below %rsp beyond its
				 * frame, which .su and CFI do not count */
	const char *dyn_cause;	/* e.g. "VLA 'buf' at a.c:5", NULL if unknown */
	uint32_t flags;		/* SP_F_* */
	uint32_t n_indirect;	/* indirect call sites in this function */
	const char *proto;	/* interned prototype, "int(int,char*)", for
				 * --indirect=address-taken; NULL if unknown */
	uint32_t assumed;	/* --indirect=address-taken: its indirect calls'
				 * targets, the blocks that sp_graph.assumed's
				 * lists[assumed..] names; SP_NONE if none */
	uint64_t assume_bits;	/* --annotate 'assume' lines that name it: bit
				 * i is graph->assume_lines[i], the last bit
				 * every line from SP_ASSUME_BITS - 1 on */
	uint32_t rec_depth;	/* --annotate 'recursion': most activations of
				 * each function of its cycle, 0 when none */
	uint64_t budget;	/* --annotate 'entry' budget, when SP_F_BUDGET */
	uint32_t nest;		/* --annotate once/nest: most activations of it on
				 * one stack at once (once: 1), 0 when not said;
				 * SP_NEST_CONTEXT: only an ancestor of 'below'
				 * lines, any number; SP_NEST_PER, SP_NEST_HOLDER:
				 * the FUNC or a HOLDER of 'nest FUNC per'
				 * (graph->pers) */
	uint32_t original;	/* a copy that an 'ignore ... from' line made:
				 * the function it copies, whose once/nest
				 * count it shares (SP_NONE: not a copy) */
	uint32_t edge_first;	/* into graph->edges, valid after finalize */
	uint32_t edge_count;
	struct sp_result res;
};

enum sp_edge_kind {
	SP_EDGE_CALL = 0,	/* callee frame stacks on the caller's */
	SP_EDGE_TAIL,		/* tail call: callee replaces the caller's frame */
};

/* sp_edge.flags: where an edge that no call instruction shows came from */
#define SP_EDGE_F_ANNOTATED	(1u << 0) /* an --annotate 'calls' target */
#define SP_EDGE_F_ASSUMED	(1u << 1) /* an indirect call's target (--indirect) */
#define SP_EDGE_F_EXCEPTION	(1u << 2) /* a trap the code may take (__ex_table,
					   * __bug_table) into an exception entry */

/* How an indirect call's targets were found (--indirect=types). */
enum sp_resolved {
	SP_RES_NONE = 0,
	SP_RES_TABLE,		/* the words of a table or global pointer */
	SP_RES_FIELD,		/* what a struct member holds anywhere */
	SP_RES_PROTOTYPE,	/* the address-taken functions of its type */
	SP_RES_ADDRESS_TAKEN,	/* every address-taken function */
	SP_RES_ANNOTATION,	/* --annotate 'calls' */
	SP_RES_TRACEPOINT,	/* the probes a tracepoint's iterator may call */
	SP_RES_BPF,		/* a BPF program: the interpreters, <bpf jit> */
	SP_RES_PARAVIRT,	/* a word of the kernel's pv_ops table */
	SP_RES_ARGUMENT,	/* what every caller passes in the register it
				 * calls through (DWARF call site values) */
	SP_RES_STATIC_CALL,	/* a static call's trampoline: the functions
				 * static_call_update() gives it */
	SP_RES_EXPORTED,	/* a member nothing in the images stores: the
				 * functions a kernel exports to modules of its
				 * type, and the modules' code (not given) */
	SP_RES__COUNT
};

struct sp_edge {
	uint32_t from, to;	/* function ids */
	uint8_t kind;		/* enum sp_edge_kind */
	uint8_t flags;		/* SP_EDGE_F_* */
	uint8_t how;		/* SP_EDGE_F_ASSUMED: enum sp_resolved, NONE when
				 * --indirect=address-taken made it */
	uint64_t pc;		/* return address of the call (0 when unknown) */
};

struct sp_cu {
	const char *name;	/* DW_AT_name, as given to the compiler */
	const char *comp_dir;	/* DW_AT_comp_dir, or NULL */
	const char *producer;	/* DW_AT_producer, or NULL */
	uint16_t dwarf_version;
};

/* What DWARF says about a variable-length array's bound (--vla). */
enum sp_vla_kind {
	SP_VLA_RUNTIME = 0,	/* bound computed at run time: a real VLA */
	SP_VLA_CONSTANT,	/* a VLA in the source that the optimiser sized
				 * at compile time (kernel max()): "accidental" */
	SP_VLA_FRAME,		/* bound read from the frame: -O0, cannot tell */
	SP_VLA_ALLOCA,		/* dynamic frame without any VLA: alloca() */
};

/* One VLA (or alloca user), found by frames_find_vlas(). */
struct sp_vla {
	uint32_t func;		/* the function whose frame holds it */
	const char *name;	/* variable, NULL for SP_VLA_ALLOCA */
	const char *file;	/* its declaration (the function's for alloca) */
	uint32_t line, col;
	enum sp_vla_kind kind;
	uint64_t bytes;		/* the array's size when SP_VLA_CONSTANT, else 0 */
};

/* A frame a source gives one function up front (.su rows, annotations),
 * for the frames stage to decide with the others (frames/frames.h). */
struct sp_frame {
	uint32_t func;
	enum sp_qual qual;	/* STATIC, DYNAMIC or BOUNDED */
	uint64_t bytes;
};

struct sp_frames {
	struct sp_frame *v;
	size_t n, cap;
};

void sp_frames_add(struct sp_frames *l, uint32_t func, enum sp_qual qual, uint64_t bytes);
void sp_frames_release(struct sp_frames *l);

/* An indirect call site whose DWARF names the called function's type. */
struct sp_icall {
	uint32_t func;		/* the caller */
	const char *proto;	/* interned, as sp_func.proto; its class
				 * (sp_proto_class) once sp_assume_address_taken ran */
};

/*
 * The worst path below a once/nest function is not its callees' own:
 * below it, a call back into it (or into another such function past
 * its count) does not happen, so analysis/nest.c keeps each such path
 * as a segment: the steps after the function, then maybe the segment
 * of the once/nest function it ends in.
 */
struct sp_path_step {
	uint32_t func;
	uint8_t kind;		/* enum sp_edge_kind of the edge that reaches it */
	uint8_t flags;		/* SP_EDGE_F_* of that edge */
	uint8_t how;		/* its enum sp_resolved */
};

struct sp_path_seg {
	uint32_t first, n;	/* graph->steps[first .. first + n) */
	uint32_t cont;		/* the segment that goes on, SP_NONE at the end */
};

/*
 * --indirect=address-taken: the functions an indirect call may reach,
 * kept as sets instead of one edge per caller and target (a distribution
 * kernel's 4,807 callers and 41,010 address-taken functions would be 197
 * million edges).  ids holds blocks of function ids, each sorted: block
 * SP_ASSUMED_ALL every address-taken function, the others split them by
 * prototype, SP_ASSUMED_UNTYPED those whose prototype is unknown.  A
 * caller reaches the union of the blocks its list names; the solver and
 * the reasons read the sets as they are, sp_graph_expand_assumed() turns
 * them into SP_EDGE_F_ASSUMED edges for what lists every edge.
 */
#define SP_ASSUMED_ALL 0u
#define SP_ASSUMED_UNTYPED 1u

struct sp_assumed {
	uint32_t *ids;		/* block b is ids[first[b] .. first[b + 1]) */
	uint32_t *first;	/* nblocks + 1 entries */
	uint32_t nblocks;
	uint32_t *block_of;	/* by function id (nfuncs of them): its prototype's
				 * block, SP_NONE when its address is not taken */
	uint32_t nfuncs;
	uint32_t *lists;	/* the callers' block lists, each ended by SP_NONE */
	uint32_t nlists, lists_cap;
};

/* One indirect call site and its targets (--indirect=types). */
struct sp_isite {
	uint32_t func;		/* the caller */
	uint64_t addr;		/* the call or jump instruction */
	const char *file;	/* its source line (--json), NULL when unknown */
	uint32_t line;
	bool tail;		/* a jump */
	uint8_t how;		/* enum sp_resolved */
	const char *type;	/* "struct file_operations.read_iter", or NULL */
	uint32_t ntargets;	/* how many */
	uint32_t first;		/* its targets' function ids in g->isite_targets;
				 * SP_NONE for every address-taken function */
};

/* sp_func.nest of a function that only 'ignore ... below' lines name as
 * the ancestor: not bounded, only on the stack or not. */
#define SP_NEST_CONTEXT UINT32_MAX
/* sp_func.nest of the FUNC of 'nest FUNC per HOLDER...' (its count is
 * how many HOLDER activations are below it), and of a HOLDER without a
 * count of its own. */
#define SP_NEST_PER	(UINT32_MAX - 1)
#define SP_NEST_HOLDER	(UINT32_MAX - 2)

/* Does sp_func.nest give a count of its own (once, nest DEPTH)? */
static inline bool sp_nest_counted(uint32_t nest)
{
	return nest && nest < SP_NEST_HOLDER;
}

/*
 * One HOLDER of 'nest FUNC per HOLDER...' (--annotate): each activation
 * of holder on a stack lets func be on it once more; func is on it at
 * most as often as the activations of its holders below it (a
 * struct va_format that a frame below holds for each %pV that prints
 * one: analysis/nest.c).
 */
struct sp_nest_per {
	uint32_t func, holder;
};

/*
 * A call that does not happen while ancestor is on the stack below its
 * caller (--annotate: ignore FUNC CALLEE below ANCESTOR); elsewhere it
 * does.  analysis/nest.c drops it below each activation of ancestor,
 * which for that is a once/nest function (sp_func.nest).  With 'unless
 * RESET...' it happens again while one of graph->below_unless[unless_first
 * .. + nunless) is on the stack too (wherever: below the ancestor or
 * above it), those once/nest functions as well.
 */
struct sp_below {
	uint32_t from, to;	/* the call */
	uint32_t ancestor;
	uint32_t unless_first, nunless;
};

/*
 * A node standing for the calls that func makes from inside the copies
 * of callee that GCC inlined into it (SP_F_INLINED): those calls' edges
 * start at it, and func calls it, so that an annotation can name the
 * inlined copy as an ancestor ("FUNC/CALLEE").
 */
struct sp_inlined {
	uint32_t func;
	const char *callee;	/* interned: the inlined function's name */
	uint32_t node;
};

/* The bits of sp_func.assume_bits and sp_result.assume_lines. */
#define SP_ASSUME_BITS 64

struct sp_graph {
	struct sp_arena arena;	/* nodes' strings and small data */
	struct sp_strtab strs;	/* interned names and paths */
	const char *binary;	/* path of the ELF, as given */
	uint16_t machine;	/* ELF e_machine */

	struct sp_func *funcs;
	uint32_t nfuncs, funcs_cap;
	struct sp_edge *edges;	/* sorted by (from, to, kind) after finalize */
	uint32_t nedges, edges_cap;
	/* Calls made after the code loaded the stack pointer from something
	 * other than itself (call_on_irqstack, a task switch): the callee runs
	 * on another stack, so these are no edges of any total; the reports
	 * list them and the kernel summary takes their callees as entries of
	 * that stack.  In the order found. */
	struct sp_edge *switches;
	uint32_t nswitches, switches_cap;
	struct sp_cu *cus;
	uint32_t ncus, cus_cap;
	struct sp_vla *vlas;	/* filled only by frames_find_vlas() (--vla) */
	uint32_t nvlas, vlas_cap;
	struct sp_icall *icalls;	/* --indirect=address-taken: typed sites */
	uint32_t nicalls, icalls_cap;
	struct sp_below *belows;	/* --annotate ignore ... below */
	uint32_t nbelows, belows_cap;
	uint32_t *below_unless;		/* ... unless: function ids */
	uint32_t nbelow_unless, below_unless_cap;
	struct sp_nest_per *pers;	/* --annotate nest FUNC per HOLDER */
	uint32_t npers, pers_cap;
	struct sp_inlined *inlined;	/* the nodes of inlined copies, by func */
	uint32_t ninlined, inlined_cap;
	const char **assume_lines;	/* --annotate assume: each line applied,
					 * "FILE:LINE: DIRECTIVE ..." (interned) */
	uint32_t nassume_lines, assume_lines_cap;
	struct sp_path_seg *segs;	/* filled by sp_analyze() (once/nest) */
	uint32_t nsegs, segs_cap;
	struct sp_path_step *steps;
	uint32_t nsteps, steps_cap;
	struct sp_assumed assumed;	/* --indirect=address-taken: the targets */
	struct sp_isite *isites;	/* --indirect=types: by caller, then address */
	uint32_t nisites, isites_cap;
	uint32_t *isite_targets;
	uint32_t nisite_targets, isite_targets_cap;
	bool indirect_typed;	/* --indirect=types ran: the reports list isites */

	/* once/nest (analysis/nest.c): the most contexts of exact counts it
	 * solves before counting coarser (0: its own, 65536), and what it did */
	uint32_t nest_limit;
	struct sp_nest_stats {
		uint32_t functions;	/* annotated with a count or as ancestors */
		uint32_t contexts;	/* solved, in the last attempt */
		uint32_t solves;	/* of them, by a solve of their region's
					 * sub-graph (the others had the same
					 * inputs as one of these) */
		uint32_t exact_limit;	/* when coarser: the exact attempt's limit */
		uint32_t pooled;	/* counted in the budget: 0 when exact */
		uint32_t budget;	/* their activations on one stack, at most */
		uint32_t forgotten;	/* 'below' ancestors whose presence keys
					 * no longer keep: their calls stay */
		uint32_t since;		/* 'below' ancestors whose presence keys
					 * keep only since the last activation
					 * of a pooled function */
	} nest;

	/* .su statistics, filled by su_match() */
	uint32_t su_rows;	/* rows read */
	uint32_t su_matched;	/* rows given to a function */
	uint32_t su_files;	/* .su files read */
	bool finalized;		/* the edges are sorted and indexed: sp_graph_finalize() */
};

void sp_graph_init(struct sp_graph *g);
void sp_graph_release(struct sp_graph *g);
/* Returns the id of a new zeroed function (cu = SP_NONE, res.next = SP_NONE). */
uint32_t sp_graph_add_func(struct sp_graph *g);
/* A copy of function f, of no call yet, which stands for f on a stack
 * (sp_func.original: f's own original, when f is a copy): its id. */
uint32_t sp_graph_copy_func(struct sp_graph *g, uint32_t f);
/* A result before any solving: nothing next, no component, no witness. */
void sp_result_init(struct sp_result *r);
void sp_graph_add_edge(struct sp_graph *g, uint32_t from, uint32_t to,
		       enum sp_edge_kind kind, uint64_t pc);
/* Room for nfuncs more functions and nedges more edges, when a loader
 * knows: one allocation instead of a copy at each doubling (a million
 * functions are 200 MB). */
void sp_graph_reserve(struct sp_graph *g, size_t nfuncs, size_t nedges);
/* A stack switch from -> to at return address pc (graph->switches). */
void sp_graph_add_switch(struct sp_graph *g, uint32_t from, uint32_t to, uint64_t pc);
uint32_t sp_graph_add_cu(struct sp_graph *g);
void sp_graph_add_icall(struct sp_graph *g, uint32_t func, const char *proto);
/* A new zeroed indirect call site (first = SP_NONE); may move g->isites. */
struct sp_isite *sp_graph_add_isite(struct sp_graph *g);
/* Keep ids[0..n) as the targets of site s; returns n. */
uint32_t sp_graph_set_isite_targets(struct sp_graph *g, struct sp_isite *s,
				    const uint32_t *ids, uint32_t n);
/* Sort edges, drop duplicates (a CALL and a TAIL to the same callee stay
 * two edges; a duplicate keeps only the flags all copies share, so a real
 * call is never marked assumed, and of assumed ones the least certain
 * how), set edge_first/edge_count.  sp_analyze() does it once when the
 * edges changed (sp_graph_add_edge, or code that removes or redirects
 * edges and clears g->finalized). */
void sp_graph_finalize(struct sp_graph *g);
/* The order sp_graph_finalize() sorts the edges in (qsort: caller,
 * callee, kind, pc). */
int sp_edge_cmp(const void *a, const void *b);
const char *sp_intern(struct sp_graph *g, const char *s);
/* The class of an interned prototype that C lets be called through any
 * of its members (object pointers one class, "void*"), interned; the
 * prototype itself when it cannot be read, NULL for NULL. */
const char *sp_proto_class(struct sp_graph *g, const char *proto);
/* The prototype as a C compiler's type checks compare two, interned:
 * an enum one with the integer types it may be compatible with (int,
 * unsigned int), qualifiers dropped; NULL for NULL.  A kernel's calls
 * reach only the functions of their own (indirect/sites.c). */
const char *sp_proto_strict(struct sp_graph *g, const char *proto);
/* The DIE that says f's prototype: its C declaration's when assembly
 * defines it (SP_F_DECLARED), its abstract origin's, its own, or that of
 * the one DIE of its name without code; 0 when none. */
uint64_t sp_func_proto_die(const struct sp_func *f);

/* --indirect=address-taken (model/assumed.c).  f's block list, NULL when
 * it assumes no targets. */
const uint32_t *sp_assumed_blocks(const struct sp_graph *g, const struct sp_func *f);
/* Does from's set hold to? */
bool sp_assumes(const struct sp_graph *g, uint32_t from, uint32_t to);
/* The union of from's blocks that skip (NULL, or a flag per block) does
 * not name, sorted; *out is malloc'ed (NULL when empty). */
size_t sp_assumed_targets(const struct sp_graph *g, uint32_t from, const uint8_t *skip,
			  uint32_t **out);
/* The edges the sets stand for beyond the graph's own: what a graph with
 * them expanded would count more, after sp_graph_finalize(). */
uint64_t sp_assumed_edges(const struct sp_graph *g);
/* Turn the set of function id (every function's when id is SP_NONE)
 * into CALL edges flagged SP_EDGE_F_ASSUMED, as reports that list each
 * edge read them; the graph is finalized again when every set is. */
void sp_graph_expand_assumed(struct sp_graph *g, uint32_t id);
void sp_assumed_release(struct sp_assumed *a);

/*
 * Every call out of a function, assumed targets included, in the order
 * and with the flags sp_graph_finalize() would give them expanded:
 *
 *	struct sp_calls it;
 *	struct sp_edge e;
 *	sp_calls_begin(&it, g, id, NULL);
 *	while (sp_calls_next(&it, &e)) ...
 *	sp_calls_end(&it);
 *
 * skip (NULL, or a flag per block) leaves those blocks' targets out.
 */
struct sp_calls {
	const struct sp_edge *e, *end;	/* the function's own edges */
	uint32_t *targets;		/* its assumed targets, sorted */
	size_t ntargets, next;
	uint32_t from;
};
void sp_calls_begin(struct sp_calls *it, const struct sp_graph *g, uint32_t from,
		    const uint8_t *skip);
bool sp_calls_next(struct sp_calls *it, struct sp_edge *out);
void sp_calls_end(struct sp_calls *it);

/* A function without edges gives an empty loop without touching
 * g->edges, which is NULL in a graph that has none (NULL + 0 is
 * undefined in C; found by fuzz_elf). */
#define sp_func_for_each_edge(g, f, e) \
	for ((e) = (f)->edge_count ? (g)->edges + (f)->edge_first : NULL; \
	     (e) && (e) < (g)->edges + (f)->edge_first + (f)->edge_count; (e)++)

/* Does the total rest on an assumption: indirect targets assumed
 * (address taken, types) or an 'assume' annotation line? */
static inline bool sp_result_assumed(const struct sp_result *r)
{
	return r->witness[SP_CAUSE_ASSUMED] != SP_NONE ||
	       r->witness[SP_CAUSE_ASSUMPTION] != SP_NONE;
}

/* Causes that make a total unbounded (as opposed to partial). */
static inline bool sp_cause_unbounded(enum sp_cause c)
{
	return c == SP_CAUSE_DYNAMIC || c == SP_CAUSE_RECURSION ||
	       c == SP_CAUSE_INDIRECT;
}

const char *sp_qual_name(enum sp_qual q);	/* "static", "dynamic", ... */
/* "su", "orc", "cfi", "code", "annotation"; NULL for SP_SRC_NONE */
const char *sp_frame_src_name(enum sp_frame_src src);
/* Is the frame read from the binary (ORC, CFI, the code), not given by
 * the user's build (.su) or the user (an annotation)?  Reports mark it. */
static inline bool sp_frame_src_read(enum sp_frame_src src)
{
	return src == SP_SRC_ORC || src == SP_SRC_CFI || src == SP_SRC_CODE;
}
const char *sp_resolved_name(enum sp_resolved r);	/* "table", "field", ... */
/* A system call's outermost C function as sys_call_table names it:
 * "__x64_sys_read", "__arm64_sys_read"... (model/kernel.c). */
bool sp_syscall_wrapper_name(const char *s);

/* The bytes a frame adds to a path: its frame (0 when unknown) plus the
 * red zone it uses. */
static inline uint64_t sp_frame_bytes(const struct sp_func *f)
{
	uint64_t self = f->qual != SP_QUAL_UNKNOWN ? f->self : 0;

	return self > UINT64_MAX - f->red_zone ? UINT64_MAX : self + f->red_zone;
}

#endif
