#!/bin/sh
# --indirect=types follows the kernel's static calls: a call of the
# trampoline __SCT__NAME reaches the function it jumps to first (its own
# code) and every function a __static_call_update(&__SCK__NAME,
# __SCT__NAME, func) call gives it (static_call_update()'s expansion),
# each found as a call through that func argument would be: one site per
# trampoline, named by its key __SCK__NAME.  In
# miniature, a user-space program with the same names (the trampolines
# in assembly, __static_call_update storing only):
#
#   __SCT__tick  jumps to tick_initial; static-call: tick_fast (use_fast's
#                constant), tick_slow (set_tick passes its argument on,
#                main gives tick_slow), tick_ops (use_ops loads cur.tick,
#                cur a copy of ops_a), tick_a and tick_b (use_pick's
#                choice: a constant on each path)
#   __SCT__tock  returns; static-call: none (use_none gives NULL),
#                tick_any (use_which names its trampoline by a variable:
#                every trampoline stored in memory, __SCT__tock, gets it)
#
# (t1185 checks Debian's kernel: __SCT__x86_pmu_handle_irq.)
. tests/e2e/lib.sh
[ "$(uname -m)" = x86_64 ] || skip "the instruction pass is x86-64's"
command -v gcc >/dev/null || skip "no gcc"

b=$OUT/build
mkdir -p "$b"
cat >"$b/scall.c" <<'C'
#define NOIPA __attribute__((noipa))
struct static_call_key { void *func; };
struct ops { void (*tick)(int); int n; };
struct static_call_key __SCK__tick, __SCK__tock;
extern void __SCT__tick(int);
extern void __SCT__tock(int);
__asm__(".text\n"
	".globl __SCT__tick\n.type __SCT__tick, @function\n"
	"__SCT__tick:\n\tjmp tick_initial\n.size __SCT__tick, .-__SCT__tick\n"
	".globl __SCT__tock\n.type __SCT__tock, @function\n"
	"__SCT__tock:\n\tret\n.size __SCT__tock, .-__SCT__tock\n");
int hits;
NOIPA void tick_initial(int x) { hits += x; }
NOIPA void tick_fast(int x) { hits += 2 * x; }
NOIPA void tick_slow(int x) { hits += 3 * x; }
NOIPA void tick_ops(int x) { hits += 4 * x; }
NOIPA void tick_any(int x) { hits += 5 * x; }
NOIPA void tick_a(int x) { hits += 6 * x; }
NOIPA void tick_b(int x) { hits += 7 * x; }
NOIPA void __static_call_update(struct static_call_key *key, void *tramp, void *func)
{
	key->func = func;
	(void)tramp;
}
const struct ops ops_a = { tick_ops, 1 };
struct ops cur;
void *volatile which;
NOIPA void use_fast(void) { __static_call_update(&__SCK__tick, (void *)__SCT__tick, (void *)tick_fast); }
NOIPA void set_tick(void (*f)(int)) { __static_call_update(&__SCK__tick, (void *)__SCT__tick, (void *)f); }
NOIPA void use_ops(void) { __static_call_update(&__SCK__tick, (void *)__SCT__tick, (void *)cur.tick); }
NOIPA void use_none(void) { __static_call_update(&__SCK__tock, (void *)__SCT__tock, 0); }
NOIPA void use_pick(int c)
{
	void (*f)(int) = tick_a;

	if (c > 3)
		f = tick_b;
	__static_call_update(&__SCK__tick, (void *)__SCT__tick, (void *)f);
}
NOIPA void use_which(void) { __static_call_update(&__SCK__tock, which, (void *)tick_any); }
int main(int argc, char **argv)
{
	(void)argv;
	cur = ops_a;
	__SCT__tick(1);
	use_fast();
	set_tick(tick_slow);
	use_ops();
	use_none();
	use_pick(argc);
	if (argc > 1)
		which = (void *)__SCT__tock;
	use_which();
	__SCT__tock(2);
	return hits & 1;
}
C
for pie in "-fno-pie -no-pie" "-fpie -pie"; do
	# shellcheck disable=SC2086
	gcc -O2 -g $pie -o "$b/scall" "$b/scall.c" >"$OUT/build.log" 2>&1 ||
		{ fail "cannot build: $(head -3 "$OUT/build.log")"; finish; exit; }
	run_sp --json --no-libs --indirect=types "$b/scall"
	expect_rc 0 "--indirect=types ($pie)"
	python3 - "$OUT/stdout" >"$OUT/scall.txt" <<'PY' || fail "reading the report"
import json, sys
j = json.load(open(sys.argv[1]))
names = [f["name"] for f in j["functions"]]
for s in j["indirect_calls"]:
    if names[s["function"]].startswith("__SCT__"):
        print(names[s["function"]], s["resolved_by"], s["type"],
              sorted(names[i] for i in j["target_sets"][s["targets"]]))
for f in j["functions"]:
    if f["name"].startswith("__SCT__"):
        print(f["name"], "calls", sorted({names[c["id"]] for c in f["calls"]}))
PY
	expect_eq "static calls ($pie)" "$(cat "$OUT/scall.txt")" \
"__SCT__tick static-call __SCK__tick ['tick_a', 'tick_b', 'tick_fast', 'tick_ops', 'tick_slow']
__SCT__tock static-call __SCK__tock ['tick_any']
__SCT__tick calls ['tick_a', 'tick_b', 'tick_fast', 'tick_initial', 'tick_ops', 'tick_slow']
__SCT__tock calls ['tick_any']"
done
run_sp -v --no-libs --indirect=types "$b/scall"
grep -q "^stackprof: indirect calls: .*, 2 static-call" "$OUT/stderr" ||
	fail "-v: '$(grep 'indirect calls' "$OUT/stderr" | head -1)'"

finish
