#!/bin/sh
# The direct-call cycles of net/, security/ and ext4 that the "net,
# security, file systems" sections of annotations/linux.ann (facts) and
# annotations/linux-assumed.ann (assumptions) bound, on Debian's 6.1
# cloud kernel: each line of the sections applies without 'optional'
# (every name and call it gives is the kernel's), and each cycle is given
# as an unbounded recursion without its section and by no function with
# it (the rest of both files applied every time, so that other cycles do
# not hide these).  The facts: the ICMP error sent below ICMP's own push
# (v4 and v6), MPTCP's SYN fallback, neigh_destroy() and EVM's xattr
# write calling themselves, SELinux type bounds, an ext4 EA inode's ACL,
# BPF redirects and neighbour garbage collection, AppArmor's securityfs
# table and namespace subtree; the AppArmor profile trees the section
# says no line bounds stay unbounded.  The assumptions: an skb's
# frag_list (freeing, pulling, trimming), a cloned skb's zerocopy frags,
# IPsec bundles, UDP receive below UDP receive (v4 and v6), ext4's
# extra-isize expansion and migration, a BPF redirect's neighbour output;
# the function each counts or cuts carries the line's "assumed by
# annotation" reason and is assumed.
# Needs the unpacked debug kernel (another one:
# STACKPROF_DEBIAN_VMLINUX=PATH); skips without it.
. tests/e2e/lib.sh

vmlinux=${STACKPROF_DEBIAN_VMLINUX:-/tmp/debian-kernel/root/usr/lib/debug/boot/vmlinux-6.1.0-47-cloud-amd64}
[ -r "$vmlinux" ] || skip "no Debian debug kernel at $vmlinux"
no_kernel_under_asan

# section FILE MODE: FILE with the section's lines dropped, or with
# MODE strict, kept without 'optional'
section()
{
	awk -v mode="$2" '
		/^# ---- net, security, file systems/ { on = 1 }
		/^# ---- end of net, security, file systems/ { on = 0 }
		on && /^optional / { if (mode == "strict") { sub(/^optional /, ""); print } ; next }
		{ print }' "$1"
}
for f in linux linux-assumed; do
	section annotations/$f.ann strict >"$OUT/$f.with.ann"
	section annotations/$f.ann drop >"$OUT/$f.without.ann"
done
expect_eq "the section's lines in annotations/linux.ann" \
	"$(diff "$OUT/linux.with.ann" "$OUT/linux.without.ann" | grep -c '^<')" 13
expect_eq "the section's lines in annotations/linux-assumed.ann" \
	"$(diff "$OUT/linux-assumed.with.ann" "$OUT/linux-assumed.without.ann" | grep -c '^<')" 10

facts="icmp=ip_output,ip_finish_output,__ip_finish_output,ip_fragment,__icmp_send,icmp_push_reply,ip_push_pending_frames
icmp6=ip6_output,ip6_finish_output,ip6_fragment,icmp6_send,icmpv6_push_pending_frames,ip6_push_pending_frames,ip6_send_skb,ip6_local_out
mptcp=__tcp_transmit_skb,mptcp_syn_options,tcp_shutdown,tcp_send_fin,__tcp_push_pending_frames,tcp_write_xmit
neigh_destroy=neigh_destroy
evm=evm_inode_post_setxattr,evm_update_evmxattr,__vfs_setxattr_noperm,security_inode_post_setxattr
selinux=context_struct_compute_av,type_attribute_bounds_av
ext4_acl=__ext4_set_acl,ext4_xattr_set_handle,ext4_xattr_ibody_set,ext4_xattr_inode_lookup_create,__ext4_new_inode,ext4_init_acl
bpf=__dev_queue_xmit,skb_do_redirect,__bpf_redirect
neigh_gc=neigh_remove_one,neigh_cleanup_and_release,__neigh_notify,rtnl_notify,nlmsg_notify,netlink_unicast,__netlink_deliver_tap,__dev_queue_xmit,skb_do_redirect,__neigh_create,___neigh_create
aa_create=entry_create_dir
aa_remove=entry_remove_dir
aa_subtree=__aa_labelset_update_subtree"
profiles="aa_rmdir=__aafs_profile_rmdir
aa_free=aa_label_kref,label_free_switch,aa_free_profile"
assumed="skb_free=kfree_skb_reason,skb_release_data
pull=__pskb_pull_tail
trim=___pskb_trim
ubufs=pskb_expand_head,skb_copy_ubufs
dst=dst_destroy,dst_release_immediate
udp=ip_protocol_deliver_rcu,udp_rcv,__udp4_lib_rcv,udp_queue_rcv_skb
udp6=ip6_protocol_deliver_rcu,udpv6_rcv,__udp6_lib_rcv,udpv6_queue_rcv_skb
ext4_isize=__ext4_mark_inode_dirty,__ext4_expand_extra_isize,ext4_expand_extra_isize_ea,ext4_xattr_ibody_set,ext4_xattr_inode_lookup_create
neigh_hh=neigh_hh_output,__dev_queue_xmit,skb_do_redirect
ext_idx=free_ext_idx"

# none: neither section; facts: linux.ann's; all: both
for r in none facts all; do
	l=without a=without
	[ "$r" = none ] || l=with
	[ "$r" = all ] && a=with
	# the schema is checked on the last report (run_sp), the same kind
	if [ "$r" = all ]; then
		run_sp --json --annotate "$OUT/linux.$l.ann" --annotate "$OUT/linux-assumed.$a.ann" "$vmlinux"
	else
		"$SP" --json --annotate "$OUT/linux.$l.ann" --annotate "$OUT/linux-assumed.$a.ann" "$vmlinux" \
			>"$OUT/stdout" 2>"$OUT/stderr"
		rc=$?
	fi
	expect_rc 0 "the kernel with the sections' lines: $r"
	for set in facts profiles assumed; do
		# shellcheck disable=SC2046 # one argument per cycle
		python3 tests/e2e/cycles_named.py "$OUT/stdout" $(eval echo \$$set) >"$OUT/$r.$set.txt"
	done
	[ "$r" = all ] && cp "$OUT/stdout" "$OUT/all.json"
done
positive='import json,sys; print(min(json.load(open(sys.argv[1])).values()) > 0)'
expect_eq "without linux.ann's lines each of its cycles is unbounded" "$(python3 -c "$positive" "$OUT/none.facts.txt")" True
expect_eq "with them no function gives one" "$(cat "$OUT/facts.facts.txt")" \
	'{"icmp": 0, "icmp6": 0, "mptcp": 0, "neigh_destroy": 0, "evm": 0, "selinux": 0, "ext4_acl": 0, "bpf": 0, "neigh_gc": 0, "aa_create": 0, "aa_remove": 0, "aa_subtree": 0}'
expect_eq "the AppArmor profile trees stay unbounded" "$(python3 -c "$positive" "$OUT/all.profiles.txt")" True
expect_eq "without linux-assumed.ann's lines each of its cycles is unbounded" "$(python3 -c "$positive" "$OUT/facts.assumed.txt")" True
expect_eq "with them no function gives one" "$(cat "$OUT/all.assumed.txt")" \
	'{"skb_free": 0, "pull": 0, "trim": 0, "ubufs": 0, "dst": 0, "udp": 0, "udp6": 0, "ext4_isize": 0, "neigh_hh": 0, "ext_idx": 0}'

# each assumption's function: [its line's reason, assumed]
grep -n '^assume ' "$OUT/linux-assumed.with.ann" | sed 's/  *#.*//' >"$OUT/assume-lines.txt"
got=$(python3 - "$OUT/all.json" "$OUT/linux-assumed.with.ann" "$OUT/assume-lines.txt" <<'PY'
import json, sys
F = json.load(open(sys.argv[1]))["functions"]
out = []
for line in open(sys.argv[3]):
    no, d = line.rstrip("\n").split(":", 1)
    d = d[len("assume "):]
    name = d.split()[1]
    if not any(n in d for n in ("skb_release_data", "__pskb_pull_tail", "___pskb_trim", "pskb_expand_head", "dst_destroy",
                                "udp_queue_rcv_skb", "udpv6_queue_rcv_skb", "__ext4_expand_extra_isize", "skb_do_redirect", "free_ext_idx")):
        continue
    reason = "assumed by annotation: %s:%s: %s" % (sys.argv[2], no, d)
    fs = [f for f in F if f["name"] == name]
    out.append(bool(fs) and all(reason in f["reasons"] and f["assumed"] for f in fs))
print(len(out), all(out))
PY
)
expect_eq "each assumption's function carries its reason, assumed" "$got" "10 True"
finish
