/* kernel.h - the kernel's own call mechanisms (kernel.c); for sites.c. */
#ifndef SP_IND_KERNEL_H
#define SP_IND_KERNEL_H

#include "indirect/run.h"

/* The elements of array a. */
#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

#define IND_BPF_RUNNERS 2	/* bpf.c's runners */

struct ind_kernel {
	struct ind_run *r;
	const struct fallback *fb;
	uint32_t jit;			/* <bpf jit>, SP_NONE until a site needs it */
	uint32_t hypercall;		/* <hypervisor code: hv_hypercall_pg>, SP_NONE
					 * until a site needs it */
	bool named, classes_read;
	struct sp_u64map by_name;	/* interned name -> function id */
	struct sp_u64map classes;	/* __traceiter_NAME's id -> __bpf_trace_CLASS's */
	struct sp_u64map class_of;	/* a class's probe's id -> its __bpf_trace_CLASS's */
	struct ids scratch;
	uint32_t class_probes;		/* class probes found by name */
	bool probes_read, probes_ok;	/* k->probes read; holds every probe */
	struct ids probes;		/* the functions registered as a probe, sorted */
	uint32_t probe_export;		/* an exported function that registers one */
	uint64_t edges;			/* assumed edges <bpf jit> got */
	/* bpf.c */
	struct ids idle_ops;		/* map operations no program calls, sorted */
	uint32_t helper_drops;		/* ... left out of the map helpers' calls */
	uint32_t run_jit[IND_BPF_RUNNERS];		/* <bpf jit: raw tracepoint>, <bpf jit: lsm
					 * cgroup>, SP_NONE until needed */
	bool sets_made;
	struct ids helpers, other;	/* a program's calls: the helpers; the map
					 * operations, emitted calls, kfuncs */
	struct ids interp;		/* the interpreter's calls: other but the
					 * kfuncs, and interpreters_args' functions */
	bool interp_ok;			/* interpreters_args read */
	uint32_t run_helpers[IND_BPF_RUNNERS];	/* their helpers, SP_NONE: every one */
	uint32_t interp_fn;		/* ___bpf_prog_run, once a call of it is
					 * resolved, else SP_NONE */
	bool cb_read;
	struct ids cb_callers;		/* the functions that call a program's
					 * callback, sorted */
	bool dtors_read;
	struct ids dtors;		/* a map's kptr destructors */
	/* members nothing stores (exported.c) */
	bool kernel;			/* an image exports to modules */
	bool *kernel_image;		/* by image: it does, or is a module */
	uint8_t *marks;			/* by function id < nmarks: exported */
	uint32_t nmarks;
	struct fallback exported;	/* the functions exported to modules */
	struct sp_u64map modules;	/* a key (or 2^32 + an exported function
					 * id) -> its <module code: ...> stand-in */
};

/* A kernel's mechanisms in run r: first the functions the images export
 * (k->marks), whose prototypes are read with the address-taken ones;
 * then, once they are, ind_kernel_ready with the address-taken
 * functions' fallback. */
void ind_kernel_init(struct ind_kernel *k, struct ind_run *r);
void ind_kernel_ready(struct ind_kernel *k, const struct fallback *fb);
void ind_kernel_release(struct ind_kernel *k);
/* The targets of site s if a kernel mechanism makes it (how), else NONE
 * and nothing added; *desc names the mechanism's object. */
enum sp_resolved ind_kernel_targets(struct ind_kernel *k, const struct ind_site *s,
				    struct ids *out, const char **desc);

/* The function of image named name (interned), SP_NONE when none. */
uint32_t ind_kernel_func_named(struct ind_kernel *k, uint32_t image, const char *name);
/* The address-taken functions of exactly prototype proto (interned), not
 * of its class, into out. */
void ind_kernel_exact_typed(struct ind_kernel *k, const char *proto, struct ids *out);

/* A call through a struct bpf_prog's bpf_func (bpf.c): the interpreters
 * and <bpf jit> (BPF); else NONE and nothing added. */
enum sp_resolved ind_bpf_targets(struct ind_kernel *k, const struct ind_site *s, struct ids *out,
				 const char **desc);
/* A map helper's call of the map's operation (a struct bpf_map_ops
 * member, site s, its targets out->v[n..]): those no program may call
 * left out. */
void ind_bpf_map_helper(struct ind_kernel *k, const struct ind_site *s, struct ids *out,
			uint32_t n);
/* Once every other site is resolved: the calls of <bpf jit: raw
 * tracepoint>, when a site needed it. */
void ind_bpf_finish(struct ind_kernel *k);

/* A call through a member of a struct nothing in the images stores
 * (exported.c): on a kernel, what a module can store there, the
 * functions exported to modules of its prototype and the module's own
 * code (EXPORTED); else NONE and nothing added. */
enum sp_resolved ind_exported_targets(struct ind_kernel *k, const struct ind_site *s,
				      struct ids *out, const char **desc);
/* A call through a member that holds what the images store (field) and
 * an argument of an exported function (ind_key.module): a module may
 * pass its own there, so what it can store is added, as for a member
 * nothing stores (EXPORTED); NONE when the member is written unseen too
 * (ind_key.local: the prototype's fallback then). */
enum sp_resolved ind_exported_module(struct ind_kernel *k, const struct ind_site *s,
				     struct ids *out, const char **desc);
/* A callback argument that the modules' callers of exported function
 * func may pass (args.c's outside), of prototype proto: the functions
 * exported to modules of that prototype and the modules' own code, a
 * stand-in per such function ("<module code: the callers of FUNC>"),
 * into out. */
void ind_exported_args(struct ind_kernel *k, uint32_t func, const char *proto, struct ids *out);
/* Is function id exported to modules? */
bool ind_exported(const struct ind_kernel *k, uint32_t id);
/* The stand-in of the code of the modules' callers of exported function
 * func ("<module code: the callers of FUNC>"). */
uint32_t ind_exported_callers(struct ind_kernel *k, uint32_t func);
/* The functions the images export, marked in k->marks (when a kernel);
 * ready: their fallback, once their prototypes are read. */
void ind_exported_init(struct ind_kernel *k);
void ind_exported_ready(struct ind_kernel *k);
void ind_exported_release(struct ind_kernel *k);

#endif
