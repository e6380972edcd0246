#!/bin/sh
# --indirect=types types a load past the end of the struct its pointer
# points to by the structs of the code's unit that hold that struct: C
# reads there only through a pointer cast to a larger struct, one that
# begins with it (the kernel's inet_csk(sk), tcp_sk(sk): a struct sock
# at 0 in a struct inet_connection_sock), as it names a container_of
# below a struct.  conn_sk(sk)->af_ops->mtu_reduced(sk) loads af_ops at
# 40 from a struct sock of 24 bytes:
#
#   release_a  a.c: the structs that hold a sock there (inet_sock, too
#              small; conn_sock and tcp_sock, its af_ops) agree: struct
#              conn_ops.mtu_reduced, mtu_v4 and mtu_v6 (ops_v4, ops_v6)
#   release_b  b.c: raw_sock holds a sock too, a struct peer * at 40:
#              the unit does not say which, address-taken
#
# Debian's kernel: tcp_release_cb()'s
# inet_csk(sk)->icsk_af_ops->mtu_reduced(sk) (net/ipv4/tcp_output.c:1117),
# address-taken before, is struct inet_connection_sock_af_ops.mtu_reduced:
# the .mtu_reduced of its objects in the 6.1 source.
. tests/e2e/lib.sh
[ "$(uname -m)" = x86_64 ] || skip "the instruction pass is x86-64's"
command -v gcc >/dev/null || skip "no gcc"

b=$OUT/build
mkdir -p "$b"
cat >"$b/sock.h" <<'C'
#define NOIPA __attribute__((noipa))
struct sock { long state; long refs; void *data; };
struct conn_ops { long (*mtu_reduced)(struct sock *); long (*send)(struct sock *, long); };
struct inet_sock { struct sock sk; long addr; };
struct conn_sock { struct inet_sock inet; long rto; const struct conn_ops *af_ops; };
struct tcp_sock { struct conn_sock conn; long snd_una; };
/* inet_csk(): the cast to the struct that begins with sk */
static inline struct conn_sock *conn_sk(struct sock *sk) { return (struct conn_sock *)sk; }
long release_a(struct sock *sk);
long release_b(struct sock *sk);
C
cat >"$b/a.c" <<'C'
#include "sock.h"
NOIPA long release_a(struct sock *sk) { return conn_sk(sk)->af_ops->mtu_reduced(sk); }
C
cat >"$b/b.c" <<'C'
#include "sock.h"
struct peer { long id; };
struct raw_sock { struct sock sk; long proto, hash; const struct peer *peer; };
NOIPA long peer_id(struct raw_sock *r) { return r->peer->id; }
NOIPA long release_b(struct sock *sk) { return conn_sk(sk)->af_ops->mtu_reduced(sk); }
C
cat >"$b/main.c" <<'C'
#include "sock.h"
NOIPA long mtu_v4(struct sock *sk) { return sk->state + 1; }
NOIPA long mtu_v6(struct sock *sk) { return sk->state + 2; }
NOIPA long send_v4(struct sock *sk, long n) { return sk->state + n; }
NOIPA long other(struct sock *sk) { return sk->refs; }
const struct conn_ops ops_v4 = { mtu_v4, send_v4 }, ops_v6 = { mtu_v6, send_v4 };
long (*volatile hook)(struct sock *) = other;
int main(int argc, char **argv)
{
	struct tcp_sock t = { .conn = { .af_ops = &ops_v4 } };
	struct conn_sock c = { .af_ops = &ops_v6 };
	(void)argv;
	t.conn.inet.sk.state = argc;
	return (int)((release_a(&t.conn.inet.sk) + release_b(&c.inet.sk) + hook(&c.inet.sk)) & 1);
}
C
(cd "$b" && gcc -O2 -g -fno-pie -no-pie -o sock main.c a.c b.c) >"$OUT/build.log" 2>&1 ||
	{ fail "cannot compile: $(head -3 "$OUT/build.log")"; finish; exit; }
"$b/sock" >/dev/null 2>&1
rc=$?
[ "$rc" -le 1 ] || fail "the program does not run (exit $rc)"
run_sp --json --indirect=types --no-libs "$b/sock"
expect_rc 0 "--indirect=types"
cp "$OUT/stdout" "$OUT/sock.json"
expect_eq "release_a: the unit's holders agree" "$(icall_sites "$OUT/sock.json" release_a)" \
	'[["field", "struct conn_ops.mtu_reduced", ["mtu_v4", "mtu_v6"]]]'
expect_eq "release_b: raw_sock holds a struct peer * there" \
	"$(jget "$OUT/sock.json" "[s['resolved_by'] for s in j['indirect_calls'] if s['function'] == 'release_b']")" \
	'["address-taken"]'

debian_kernel_part
debian_typed_report "$OUT/vmlinux.json"
src=${STACKPROF_LINUX_SRC:-/tmp/stackprof-kernel/linux-dwarf4}
if [ -d "$src/net" ]; then
	want=$(grep -rhE '^\s*\.mtu_reduced\s*=' "$src/net" --include='*.c' |
		sed 's/.*= *\([a-z_0-9]*\).*/\1/' | sort -u | tr '\n' ' ')
else
	want="tcp_v4_mtu_reduced tcp_v6_mtu_reduced "
fi
expect_eq "tcp_release_cb's icsk_af_ops->mtu_reduced" \
	"$(jget "$OUT/vmlinux.json" "[(s['resolved_by'], s['type'], ' '.join(sorted(s['targets'])) + ' ') for s in j['indirect_calls'] if s['function'] == 'tcp_release_cb' and s['line'] == 1117]")" \
	"[[\"field\", \"struct inet_connection_sock_af_ops.mtu_reduced\", \"$want\"]]"
rm -f "$OUT/vmlinux.json"
finish
