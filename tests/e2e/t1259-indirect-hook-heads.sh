#!/bin/sh
# --indirect=types: a call through a union of function types walked from
# a list head (the kernel's LSM hooks: hlist_for_each_entry(P,
# &security_hook_heads.NAME, list) P->hook.NAME(...)) reaches the
# functions the data's hook entries pair with that head (HOOK_INIT(NAME,
# fn): { .head = &heads.NAME, .hook = { .NAME = fn } }), as add_hooks()
# links each entry into its own head's list only.  Two "LSMs", alpha and
# beta; the expected targets are read from the HOOK_INIT lines below:
#
#   sec_file_open  of another prototype than its hook: file_open's
#                  (the caller's prototype names no member: before,
#                  every function of the union)
#   sec_task_kill  task_kill's, and task_free's at the inlined
#                  sec_task_free()'s walk (before: task_kill's there,
#                  the caller's prototype)
#   sec_file_lock  calls the first entry's hook only, no walk: file_lock's
#   walk_from      starts at a parameter, no head: the union's every
#                  function, as before
#
# A build with -finstrument-functions is traced: every pair a run takes
# must be among the site's targets (tests/e2e/icall_check.py).
. tests/e2e/lib.sh
[ "$(uname -m)" = x86_64 ] || skip "the instruction pass is x86-64's"
command -v gcc >/dev/null || skip "no gcc"

b=$OUT/build
mkdir -p "$b"
cat >"$b/lsm.c" <<'C'
#include <stddef.h>
#define NOIPA __attribute__((noipa))
struct hlist_node { struct hlist_node *next, **pprev; };
struct hlist_head { struct hlist_node *first; };
struct file { int mode; };
struct task { int pid; };
union hook_options {
	int (*file_open)(struct file *f);
	int (*file_lock)(struct file *f);
	int (*task_kill)(struct task *t, int sig);
	void (*task_free)(struct task *t);
};
struct hook_heads {
	struct hlist_head file_open;
	struct hlist_head file_lock;
	struct hlist_head task_kill;
	struct hlist_head task_free;
};
struct hook_list {
	struct hlist_node list;
	struct hlist_head *head;
	union hook_options hook;
	const char *lsm;
};
struct hook_heads heads;
#define HOOK_INIT(NAME, fn) { .head = &heads.NAME, .hook = { .NAME = fn } }
#define for_each_hook(P, NAME) \
	for (P = (struct hook_list *)heads.NAME.first; P; P = (struct hook_list *)P->list.next)

NOIPA int alpha_file_open(struct file *f) { return f->mode == 7; }
NOIPA int alpha_task_kill(struct task *t, int sig) { return t->pid == sig; }
NOIPA void alpha_task_free(struct task *t) { t->pid = 0; }
NOIPA int beta_file_open(struct file *f) { return f->mode == 9; }
NOIPA int beta_file_lock(struct file *f) { return f->mode == 11; }
NOIPA void beta_task_free(struct task *t) { t->pid = -1; }

static struct hook_list alpha_hooks[] = {
	HOOK_INIT(file_open, alpha_file_open),
	HOOK_INIT(task_kill, alpha_task_kill),
	HOOK_INIT(task_free, alpha_task_free),
};
static struct hook_list beta_hooks[] = {
	HOOK_INIT(file_open, beta_file_open),
	HOOK_INIT(file_lock, beta_file_lock),
	HOOK_INIT(task_free, beta_task_free),
};

/* security_add_hooks(): each entry into its own head's list */
NOIPA void add_hooks(struct hook_list *h, int n, const char *lsm)
{
	for (int i = 0; i < n; i++) {
		h[i].lsm = lsm;
		h[i].list.next = h[i].head->first;
		if (h[i].head->first)
			h[i].head->first->pprev = &h[i].list.next;
		h[i].head->first = &h[i].list;
		h[i].list.pprev = &h[i].head->first;
	}
}

/* a wrapper of another prototype than its hook's */
NOIPA int sec_file_open(struct file *f, int flags)
{
	struct hook_list *P;
	int rc = 0;

	if (flags & 1)
		return 0;
	for_each_hook(P, file_open) {
		rc = P->hook.file_open(f);
		if (rc)
			break;
	}
	return rc;
}

static inline __attribute__((always_inline)) void sec_task_free(struct task *t)
{
	struct hook_list *P;

	for_each_hook(P, task_free)
		P->hook.task_free(t);
}

/* a wrapper of its hook's prototype, with another hook inlined */
NOIPA int sec_task_kill(struct task *t, int sig)
{
	struct hook_list *P;
	int rc = 0;

	for_each_hook(P, task_kill) {
		rc = P->hook.task_kill(t, sig);
		if (rc)
			break;
	}
	if (rc)
		sec_task_free(t);
	return rc;
}

/* only the first entry's hook (security_xfrm_state_pol_flow_match()) */
NOIPA int sec_file_lock(struct file *f)
{
	struct hook_list *P = (struct hook_list *)heads.file_lock.first;

	return P ? P->hook.file_lock(f) : 0;
}

/* a walk from an element a caller passes: no head says which hook */
NOIPA int walk_from(struct hook_list *P, struct file *f)
{
	int rc = 0;

	for (; P; P = (struct hook_list *)P->list.next)
		rc |= P->hook.file_lock(f);
	return rc;
}

int main(int argc, char **argv)
{
	struct file f = { argc };
	struct task t = { argc };

	(void)argv;
	add_hooks(alpha_hooks, sizeof(alpha_hooks) / sizeof(alpha_hooks[0]), "alpha");
	add_hooks(beta_hooks, sizeof(beta_hooks) / sizeof(beta_hooks[0]), "beta");
	return (sec_file_open(&f, argc + 1) + sec_task_kill(&t, 1) +
		sec_file_lock(&f) + walk_from((struct hook_list *)heads.file_lock.first, &f)) & 1;
}
C
icall_build lsm || { finish; exit; }
# what this test is about: each walk loads its head at a fixed address
objdump -d --no-show-raw-insn "$b/lsm" | awk '/<sec_task_kill>:/, /^$/' >"$OUT/kill.s"
[ "$(grep -c 'mov  *0x[0-9a-f]*(%rip),%r.*<heads+0x1[08]>' "$OUT/kill.s")" = 2 ] ||
	skip "gcc did not load both heads in sec_task_kill"

# the functions HOOK_INIT pairs with head NAME (all: any), from the source
hooks_of()
{
	sed -n "s/^.*HOOK_INIT($1, \\([a-z_]*\\)).*$/\\1/p" "$b/lsm.c" |
		python3 -c 'import json, sys; print(json.dumps(sorted(sys.stdin.read().split())))'
}
all=$(hooks_of '[a-z_]*')
[ "$(hooks_of task_free)" = '["alpha_task_free", "beta_task_free"]' ] ||
	fail "the source's task_free hooks: $(hooks_of task_free)"

run_sp --json --indirect=types --no-libs "$b/lsm"
expect_rc 0 "--indirect=types"
j=$OUT/lsm.json
cp "$OUT/stdout" "$j"
expect_eq "sec_file_open" "$(icall_sites "$j" sec_file_open)" \
	"[[\"field\", \"union hook_options from heads+0\", $(hooks_of file_open)]]"
expect_eq "sec_task_kill" "$(icall_sites "$j" sec_task_kill)" \
	"[[\"field\", \"union hook_options from heads+0x10\", $(hooks_of task_kill)], [\"field\", \"union hook_options from heads+0x18\", $(hooks_of task_free)]]"
expect_eq "sec_file_lock" "$(icall_sites "$j" sec_file_lock)" \
	"[[\"field\", \"union hook_options from heads+0x8\", $(hooks_of file_lock)]]"
expect_eq "walk_from" "$(jget "$j" "[sorted(s['targets']) for s in j['indirect_calls'] if s['function'] == 'walk_from']")" \
	"[$all]"
icall_traced 7
finish
