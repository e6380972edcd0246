#!/bin/sh
# --indirect=types matches prototypes as C lets a program call through a
# cast: a callback of `int (*)(void *, enum style, char *, ...)` is set by
# an init function that receives it as an argument, from f, declared
# `int f(void *, enum style, const char *, ...)`, and from g, declared
# `int g(struct buf *, enum style, const char *, ...)` and cast.  The
# call through the member must reach both (every object pointer is one
# class, qualifiers do not count), and not h, whose first parameter is a
# pointer to a function.  The run takes both calls, and each pair must be
# among the site's targets (tests/e2e/icall_check.py).
. tests/e2e/lib.sh
[ "$(uname -m)" = x86_64 ] || skip "the instruction pass is x86-64's"
command -v gcc >/dev/null || skip "no gcc"

b=$OUT/build
mkdir -p "$b"
cp tests/oracle/icall_trace.c "$b/"
cat >"$b/style.c" <<'C'
#include <stdarg.h>
#include <stdio.h>
enum style { PLAIN, LOUD };
struct buf { char text[64]; int n; };
typedef int (*emit_fn)(void *, enum style, char *, ...);
struct printer { emit_fn emit; void *ctx; };

int f(void *ctx, enum style s, const char *fmt, ...)
{
	va_list ap;
	int n;
	(void)ctx;
	va_start(ap, fmt);
	n = vprintf(fmt, ap) + (int)s;
	va_end(ap);
	return n;
}
int g(struct buf *b, enum style s, const char *fmt, ...)
{
	va_list ap;
	int n;
	va_start(ap, fmt);
	n = vsnprintf(b->text, sizeof(b->text), fmt, ap);
	va_end(ap);
	b->n = n;
	return n + (int)s;
}
int h(int (*cb)(int), enum style s, const char *fmt, ...) { return cb((int)s) + (fmt != 0); }
int twice(int x) { return 2 * x; }

__attribute__((noinline)) void printer_init(struct printer *p, emit_fn emit, void *ctx)
{
	p->emit = emit;
	p->ctx = ctx;
}
__attribute__((noinline)) int say(struct printer *p, const char *word)
{
	return p->emit(p->ctx, LOUD, (char *)word, 1);
}
int main(int argc, char **argv)
{
	static struct buf out;
	struct printer p;
	(void)argv;
	if (argc > 1)
		printer_init(&p, (emit_fn)g, &out);
	else
		printer_init(&p, f, 0);
	return say(&p, "%d\n") + h(twice, PLAIN, "") > 1000;
}
C
(
	cd "$b" &&
	gcc -O2 -g -fno-pie -finstrument-functions -c style.c &&
	gcc -O2 -g -fno-pie -c icall_trace.c &&
	gcc -no-pie -o style style.o icall_trace.o
) >"$OUT/build.log" 2>&1 || { fail "cannot build: $(head -3 "$OUT/build.log")"; finish; exit; }

ICALL_TRACE=$OUT/trace.txt "$b/style" >/dev/null 2>&1 || fail "style failed"
ICALL_TRACE=$OUT/trace.txt "$b/style" x >/dev/null 2>&1 || fail "style x failed"
run_sp --json --indirect=types "$b/style"
expect_rc 0 "--indirect=types"
cp "$OUT/stdout" "$OUT/style.json"
t=$(jget "$OUT/style.json" "[sorted(set(s['targets']) & {'f', 'g', 'h'}) for s in j['indirect_calls'] if s['function'] == 'say']")
expect_eq "p->emit reaches f and g, not h" "$t" '[["f", "g"]]'
icall_pairs "$b/style" "$OUT/style.json"
finish
