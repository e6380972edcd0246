/* kernel.h - the kernel's own call mechanisms (kernel.c); for sites.c. */
#ifndef SP_IND_KERNEL_H
#define SP_IND_KERNEL_H

#include "indirect/run.h"

struct ind_kernel {
	struct ind_run *r;
	const struct fallback *fb;
	uint32_t jit;			/* <bpf jit>, SP_NONE until a site needs it */
	bool named, classes_read;
	struct sp_u64map by_name;	/* interned name -> function id */
	struct sp_u64map classes;	/* __traceiter_NAME's id -> __bpf_trace_CLASS's */
	struct ids scratch;
	uint32_t class_probes;		/* class probes found by name */
	uint64_t edges;			/* assumed edges <bpf jit> got */
};

void ind_kernel_init(struct ind_kernel *k, struct ind_run *r, const struct fallback *fb);
void ind_kernel_release(struct ind_kernel *k);
/* The targets of site s if a kernel mechanism makes it (how), else NONE
 * and nothing added; *desc names the mechanism's object. */
enum sp_resolved ind_kernel_targets(struct ind_kernel *k, const struct ind_site *s,
				    struct ids *out, const char **desc);

#endif
