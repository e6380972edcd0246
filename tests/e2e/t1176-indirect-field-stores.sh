#!/bin/sh
# --indirect=types: what the stores into a member say, and the layers a
# chain goes through.  A driver struct embeds the port whose callbacks
# the core calls (up->port.in, serial8250's up->port.serial_in); a
# callback one pointer further out (ref->data->release, percpu_ref's),
# and another struct's member copied into it (p->f = q->g: it holds
# what that one holds);
# a setup function that picks a pair of callbacks by a cmov and by a
# switch whose paths join at the stores (serial8250's set_io_from_upio);
# a NULL written into a member (movq $0, and pxor's 16 zero bytes);
# and an escape: a struct of another type copied whole over one
# (movdqu/movups), whose member must fall back to its prototype.  Each
# site's targets are checked against the source, then against what an
# instrumented run takes (tests/e2e/icall_check.py, as t1170).
. tests/e2e/lib.sh
[ "$(uname -m)" = x86_64 ] || skip "the instruction pass is x86-64's"
command -v gcc >/dev/null || skip "no gcc"

cat >"$OUT/ml.c" <<'C'
#include <string.h>
struct port { int iotype; int (*in)(struct port *, int); void (*out)(struct port *, int, int); };
struct uart { int flags; struct port port; void (*pm)(struct uart *); };
int mem_in(struct port *p, int o) { return p->iotype + o; }
int io_in(struct port *p, int o) { return p->iotype - o; }
int au_in(struct port *p, int o) { return p->iotype * o; }
int hub_in(struct port *p, int o) { return p->iotype ^ o; }
int tsi_in(struct port *p, int o) { return p->iotype | o; }
void mem_out(struct port *p, int o, int v) { p->iotype = o + v; }
void io_out(struct port *p, int o, int v) { p->iotype = o - v; }
void au_out(struct port *p, int o, int v) { p->iotype = o * v; }
void hub_out(struct port *p, int o, int v) { p->iotype = o ^ v; }
void tsi_out(struct port *p, int o, int v) { p->iotype = o | v; }
int never_in(struct port *p, int o) { return p->iotype & o; }
void uart_pm(struct uart *u) { u->flags++; }
__attribute__((noinline)) void set_io(struct port *p)
{
	switch (p->iotype) {
	case 3: p->in = au_in; p->out = au_out; break;
	case 5: p->in = hub_in; p->out = hub_out; break;
	case 6: p->in = tsi_in; p->out = tsi_out; break;
	default:
		p->in = p->iotype == 2 ? mem_in : io_in;
		p->out = p->iotype == 2 ? mem_out : io_out;
	}
}
__attribute__((noinline)) int uart_read(struct uart *up, int o) { return up->port.in(&up->port, o); }
__attribute__((noinline)) void uart_write(struct uart *up, int o, int v) { up->port.out(&up->port, o, v); }
struct ref_data { long count; void (*release)(struct ref_data *); };
struct ref { long x; struct ref_data *data; };
void ref_release(struct ref_data *d) { d->count = -1; }
void ref_other(struct ref_data *d) { d->count = -2; }
__attribute__((noinline)) void ref_set(struct ref *r, int c) { r->data->release = c ? ref_other : ref_release; }
__attribute__((noinline)) void ref_put(struct ref *r) { r->data->release(r->data); }
__attribute__((noinline)) void ref_kill(struct ref *r) { r->data->release = NULL; }
struct hold { int n; void (*keep)(struct ref_data *); };
void held_fn(struct ref_data *d) { d->count = 3; }
__attribute__((noinline)) void hold_set(struct hold *h) { h->keep = held_fn; }
__attribute__((noinline)) void ref_copy(struct ref *r, const struct hold *h) { r->data->release = h->keep; }
struct two { void (*a)(struct ref_data *); void (*b)(struct ref_data *); };
__attribute__((noinline)) void two_clear(struct two *t) { memset(t, 0, sizeof(*t)); }
struct shadow { long count; void (*fn)(struct ref_data *); };
void shadow_fn(struct ref_data *d) { d->count = 7; }
struct esc_data { long count; void (*cb)(struct ref_data *); };
struct esc { struct esc_data *data; };
void esc_fn(struct ref_data *d) { d->count = 9; }
__attribute__((noinline)) void esc_init(struct esc *e, const struct shadow *s) { memcpy(e->data, s, sizeof(*s)); }
__attribute__((noinline)) void esc_set(struct esc *e) { e->data->cb = esc_fn; }
__attribute__((noinline)) void esc_call(struct esc *e) { e->data->cb((struct ref_data *)e->data); }
static const struct shadow sh = { 0, shadow_fn };
int main(int argc, char **argv)
{
	static struct ref_data d;
	static struct esc_data ed;
	static struct two tw;
	static struct hold h;
	struct uart u = { 0, { argc, 0, 0 }, uart_pm };
	struct ref r = { 0, &d };
	struct esc e = { &ed };
	(void)argv;
	set_io(&u.port);
	uart_write(&u, 1, uart_read(&u, 2));
	ref_set(&r, argc > 4);
	hold_set(&h);
	if (argc == 3)
		ref_copy(&r, &h);
	ref_put(&r);
	ref_kill(&r);
	two_clear(&tw);
	esc_set(&e);
	if (argc > 1)
		esc_init(&e, &sh);
	esc_call(&e);
	return (int)d.count + u.port.iotype;
}
C
gcc -O2 -g -fno-pie -no-pie -o "$OUT/ml" "$OUT/ml.c" || fail "gcc"
dis=$OUT/ml.dis
objdump -d --no-show-raw-insn "$OUT/ml" >"$dis"
# the shapes this test is about
awk '/<set_io>:/,/ret/' "$dis" | grep -q cmov || skip_part "gcc picked set_io's callbacks by no cmov"
awk '/<ref_kill>:/,/ret/' "$dis" | grep -Eq 'movq +\$0x0,' || skip_part "gcc wrote ref_kill's NULL by no movq \$0"
awk '/<esc_init>:/,/ret/' "$dis" | grep -q movups || skip_part "gcc copied struct shadow by no movups"

run_sp --json --no-libs --indirect=types "$OUT/ml"
expect_rc 0 "--indirect=types"
cp "$OUT/stdout" "$OUT/ml.json"
site()
{
	jget "$OUT/ml.json" "[(s['resolved_by'], s.get('type'), sorted(s['targets'])) for s in j['indirect_calls'] if s['function'] == '$1']"
}
expect_eq "up->port.in: the embedded struct's member, each value set_io picks" \
	"$(site uart_read)" \
	'[["field", "struct port.in", ["au_in", "hub_in", "io_in", "mem_in", "tsi_in"]]]'
expect_eq "up->port.out" "$(site uart_write)" \
	'[["field", "struct port.out", ["au_out", "hub_out", "io_out", "mem_out", "tsi_out"]]]'
expect_eq "r->data->release: one pointer further out, what hold.keep holds copied in, the NULL no target" \
	"$(site ref_put)" '[["field", "struct ref_data.release", ["held_fn", "ref_other", "ref_release"]]]'
# the memcpy writes esc_data.cb with a value of unknown origin
# (shadow_fn, through struct shadow): the member falls back to every
# function of its prototype's class, esc_fn and shadow_fn among them
expect_eq "e->data->cb after a whole struct of another type is copied over it" \
	"$(jget "$OUT/ml.json" "[(s['resolved_by'], all(n in s['targets'] for n in ('esc_fn', 'shadow_fn', 'ref_release'))) for s in j['indirect_calls'] if s['function'] == 'esc_call']")" \
	'[["prototype", true]]'

# what a run takes (each branch: argc 1, 2, 3, 5, 6)
b=$OUT/build
mkdir -p "$b"
cp "$OUT/ml.c" tests/oracle/icall_trace.c "$b/"
(
	cd "$b" &&
	gcc -O2 -g -fno-pie -finstrument-functions -c ml.c &&
	gcc -O2 -g -fno-pie -c icall_trace.c &&
	gcc -no-pie -o ml ml.o icall_trace.o
) >"$OUT/build.log" 2>&1 || { fail "cannot build: $(head -3 "$OUT/build.log")"; finish; exit; }
rm -f "$OUT/trace.txt"
for n in 0 1 2 4 5; do
	# shellcheck disable=SC2046
	ICALL_TRACE=$OUT/trace.txt "$b/ml" $(seq "$n") >/dev/null 2>&1
done
run_sp --json --no-libs --indirect=types "$b/ml"
expect_rc 0 "--indirect=types, instrumented"
cp "$OUT/stdout" "$OUT/mlt.json"
# uart_read and uart_write (5 ports each), ref_put (3), esc_call (2);
# main's u.pm is a direct call to uart_pm
icall_pairs "$b/ml" "$OUT/mlt.json" 15
finish
