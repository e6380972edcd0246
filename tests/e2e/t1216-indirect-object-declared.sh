#!/bin/sh
# --indirect=types: an assembly function of no prototype known that C
# declares only as an object (the kernel's `extern char
# core_restore_code[];`, whose address hibernate.c copies as bytes) is
# no target of a prototype site: a typed pointer reaches it only after a
# cast of an object's address (assumed none).  It stays a target of a
# site that knows no type.
#
#   do_quiet  void (*)(void): quiet, asm_hook (no C declaration at all)
#             and local_code (declared `extern char local_code[]`, but
#             a local symbol: the name may be another's); not
#             restore_code (a global, declared `extern char
#             restore_code[]`)
#   do_any    a void * called (its address taken: its callers are not
#             all seen): every address-taken function (the JSON lists
#             none), restore_code too
#
# -v says how many were left out of the prototype sites.
. tests/e2e/lib.sh
[ "$(uname -m)" = x86_64 ] || skip "the instruction pass is x86-64's"
command -v gcc >/dev/null || skip "no gcc"

b=$OUT/build
mkdir -p "$b"
cat >"$b/asm.S" <<'S'
	.text
	.globl restore_code
	.type restore_code, @function
restore_code:
	xor %eax, %eax
	ret
	.size restore_code, .-restore_code
	.globl asm_hook
	.type asm_hook, @function
asm_hook:
	xor %eax, %eax
	ret
	.size asm_hook, .-asm_hook
	.data
	.globl hooks
hooks:
	.quad asm_hook
S
cat >"$b/objs.c" <<'C'
typedef void (*quiet_fn)(void);
extern char restore_code[];
extern char local_code[];
extern void *hooks[];
__asm__(".text\n.type local_code, @function\nlocal_code:\n\tret\n"
	".size local_code, .-local_code\n");

static int calls;
__attribute__((noinline)) void quiet(void) { calls++; }

const void *volatile image = restore_code;
const void *volatile local = local_code;
void *slots[] = { quiet, 0 };

__attribute__((noinline)) quiet_fn pick_quiet(int i) { return (quiet_fn)(i ? hooks[0] : slots[0]); }
__attribute__((noinline)) void do_quiet(int i) { pick_quiet(i)(); }
__attribute__((noinline)) void do_any(void *p) { ((quiet_fn)p)(); }
void (*volatile call_any)(void *) = do_any;

int main(int argc, char **argv)
{
	(void)argv;
	do_quiet(argc - 1);
	call_any(quiet);
	return calls > 1000;
}
C
(
	cd "$b" && gcc -O2 -g -fno-pie -no-pie -o objs objs.c asm.S
) >"$OUT/build.log" 2>&1 || { fail "cannot build: $(head -3 "$OUT/build.log")"; finish; exit; }
readelf --debug-dump=info "$b/objs" 2>/dev/null | grep -A3 "DW_TAG_variable" |
	grep -q "DW_AT_name.*restore_code" || skip "gcc wrote no declaration of restore_code"

run_sp -v --json --indirect=types --no-libs "$b/objs"
expect_rc 0 "--indirect=types"
j=$OUT/objs.json
cp "$OUT/stdout" "$j"
site()
{
	jget "$j" "[[s['resolved_by'], sorted(s['targets'] or [])] for s in j['indirect_calls'] if s['function'] == '$1']"
}
expect_eq "do_quiet" "$(site do_quiet)" \
	'[["prototype", ["asm_hook", "local_code", "quiet"]]]'
expect_eq "do_any" "$(site do_any)" '[["address-taken", []]]'
grep -q "address-taken functions (1 of no prototype known declared only as objects)" \
	"$OUT/stderr" || fail "-v: $(grep 'address-taken functions' "$OUT/stderr")"
finish
