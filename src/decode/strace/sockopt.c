// SPDX-License-Identifier: GPL-2.0
/*
 * setsockopt and getsockopt as strace 6.1 prints them (its net.c): the
 * level and option names, and the value by the option's type:
 *
 *   setsockopt(3, SOL_IP, IP_ADD_MEMBERSHIP, {imr_multiaddr=inet_addr(...),
 *              imr_interface=inet_addr(...)}, 8)
 *   getsockopt(3, SOL_SOCKET, SO_ERROR, [ECONNREFUSED], [4])
 *
 * an int when the length is an int's, else the bytes. A value shorter
 * than its struct shows its address when set; when got, the fields the
 * returned length covers, and the bytes of a field it cuts in hex.
 */
#include <linux/filter.h>
#include <linux/if_packet.h>
#include <linux/netlink.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

#include <sonde/syscalls.h>
#include "decode/strace/strace_int.h"

/* linux/icmp.h's, which clashes with netinet/in.h */
#define ICMP_FILTER 1

static void pr_sockopt_name(struct st *s, int level, uint32_t name, int get)
{
	const char *dflt;
	const struct xlat *x = sockopt_xlat(level, name, get, &dflt);

	if (x)
		pr_xval(s, x, name, dflt);
	else
		pr_uint(s, name);
}

/* fd, level and name, as both calls start. */
static void pr_sockopt_head(struct st *s, int level, uint32_t name, int get)
{
	pr_fd(s, (int)st_arg(s, 0));
	st_sep(s);
	/* sic: strace's default name has two question marks */
	pr_xval(s, &x_sol, (uint32_t)level, "SOL_??");
	st_sep(s);
	pr_sockopt_name(s, level, name, get);
	st_sep(s);
}

/*
 * SOL_NETLINK values are ints (an address when set with fewer bytes),
 * but for the group bitmap of NETLINK_LIST_MEMBERSHIPS: [1, 0].
 */
static void pr_netlink_optval(struct st *s, int phase, uint32_t name, uint64_t a,
			      uint64_t len)
{
	uint8_t groups[256];
	size_t n;

	if (name != NETLINK_LIST_MEMBERSHIPS || phase != SONDE_PL_EXIT) {
		if (phase == SONDE_PL_ENTRY && len < sizeof(int))
			pr_addr(s, a);
		else
			ps_int(s, phase, a);
		return;
	}
	n = st_fetch_upto(s, phase, a, groups, len < sizeof(groups) ? len : sizeof(groups));
	if (n)
		pr_local_array(s, groups, n, sizeof(uint32_t), pr_uint);
}

/* What strace shows of a value it has no struct for. */
static void pr_plain_optval(struct st *s, int phase, uint64_t a, uint64_t len)
{
	if (len == sizeof(int))
		ps_int(s, phase, a);
	else
		pr_buf(s, phase, a, len, 0);
}

/*
 * A field of a struct got back with len bytes: whole when len covers it,
 * the bytes it has in hex when len cuts it, nothing past len. Returns
 * whether the caller prints the field's value.
 */
static int field_len(struct st *s, const char *name, const void *v, size_t off,
		     size_t size, size_t len)
{
	if (len <= off)
		return 0;
	st_field(s, name);
	if (len >= off + size)
		return 1;
	pr_quoted(s, (const uint8_t *)v + off, len - off, 0, 0, 1);
	return 0;
}

static void pr_get_linger(struct st *s, uint64_t a, size_t len)
{
	struct linger l;

	if (!st_fetch(s, SONDE_PL_EXIT, a, &l, len < sizeof(l) ? len : sizeof(l)))
		return;
	st_obj_begin(s);
	if (field_len(s, "l_onoff", &l, offsetof(struct linger, l_onoff), 4, len))
		pr_int(s, (uint64_t)l.l_onoff);
	if (field_len(s, "l_linger", &l, offsetof(struct linger, l_linger), 4, len))
		pr_int(s, (uint64_t)l.l_linger);
	st_obj_end(s);
}

static void pr_get_ucred(struct st *s, uint64_t a, size_t len)
{
	struct ucred u;

	if (!st_fetch(s, SONDE_PL_EXIT, a, &u, len < sizeof(u) ? len : sizeof(u)))
		return;
	st_obj_begin(s);
	if (field_len(s, "pid", &u, offsetof(struct ucred, pid), 4, len))
		pr_pid(s, (uint64_t)u.pid);
	if (field_len(s, "uid", &u, offsetof(struct ucred, uid), 4, len))
		pr_id(s, u.uid);
	if (field_len(s, "gid", &u, offsetof(struct ucred, gid), 4, len))
		pr_id(s, u.gid);
	st_obj_end(s);
}

/* PACKET_STATISTICS: struct tpacket_stats, or tpacket_stats_v3's three
 * counters (TPACKET_V3 sockets). */
static void pr_tpacket_stats(struct st *s, uint64_t a, size_t len)
{
	static const char *const names[] = { "tp_packets", "tp_drops", "tp_freeze_q_cnt" };
	uint32_t v[3];

	if (!st_fetch(s, SONDE_PL_EXIT, a, v, len < sizeof(v) ? len : sizeof(v)))
		return;
	st_obj_begin(s);
	for (size_t i = 0; i < 3; i++)
		if (field_len(s, names[i], v, i * sizeof(v[0]), sizeof(v[0]), len))
			pr_uint(s, v[i]);
	st_obj_end(s);
}

/* An errno value as strace's print_err: ECONNREFUSED (-X raw: 111,
 * -X verbose: 111 /\* ECONNREFUSED *\/), a number without a name as is. */
static void pr_errno_val(struct st *s, uint32_t e)
{
	if (s->j)
		pr_uint(s, e);
	else
		pr_errno_text(s, e, 0);
}

/* SO_ERROR: the pending error by name, [ECONNREFUSED]; fewer bytes than
 * an int in hex. */
static void pr_get_error(struct st *s, uint64_t a, size_t len)
{
	uint32_t e;

	if (len < sizeof(e)) {
		pr_buf(s, SONDE_PL_EXIT, a, len, 1);
		return;
	}
	if (!st_fetch(s, SONDE_PL_EXIT, a, &e, sizeof(e)))
		return;
	st_arr_begin(s);
	st_elem(s);
	pr_errno_val(s, e);
	st_arr_end(s);
}

static void pr_getsockopt_val(struct st *s, int level, uint32_t name, uint64_t a, int ulen,
			      int rlen)
{
	/* the kernel never returns a length <= 0 to a call that succeeded */
	if (ulen <= 0 || rlen <= 0 || !a) {
		pr_addr(s, a);
		return;
	}
	if (level == SOL_NETLINK) {
		/* the group bitmap is as long as both lengths allow */
		pr_netlink_optval(s, SONDE_PL_EXIT, name, a, ulen < rlen ? ulen : rlen);
		return;
	}
	if (level == SOL_SOCKET && name == SO_LINGER)
		pr_get_linger(s, a, rlen);
	else if (level == SOL_SOCKET && name == SO_PEERCRED)
		pr_get_ucred(s, a, rlen);
	else if (level == SOL_SOCKET && name == SO_ERROR)
		pr_get_error(s, a, rlen);
	else if (level == SOL_RAW && name == ICMP_FILTER)
		pr_icmp_filter(s, SONDE_PL_EXIT, a, rlen);
	else if (level == SOL_PACKET && name == PACKET_STATISTICS)
		pr_tpacket_stats(s, a, rlen);
	else if (level == SOL_SOCKET && name == SO_GET_FILTER && (uint16_t)rlen == (uint32_t)rlen)
		/* the program's instructions, rlen of them (strace -v
		 * shows them; the recorder keeps rlen bytes) */
		pr_addr(s, a);
	else
		pr_plain_optval(s, SONDE_PL_EXIT, a, rlen);
}

static void pr_set_linger(struct st *s, uint64_t a, int len)
{
	struct linger l;

	(void)len;
	if (!st_fetch(s, SONDE_PL_ENTRY, a, &l, sizeof(l)))
		return;
	st_obj_begin(s);
	st_field(s, "l_onoff");
	pr_int(s, (uint64_t)l.l_onoff);
	st_field(s, "l_linger");
	pr_int(s, (uint64_t)l.l_linger);
	st_obj_end(s);
}

/* struct ip_mreq, also the start of a struct ip_mreqn. */
static void pr_ip_mreq(struct st *s, uint64_t a, int len)
{
	struct ip_mreq m;

	(void)len;
	if (!st_fetch(s, SONDE_PL_ENTRY, a, &m, sizeof(m)))
		return;
	st_obj_begin(s);
	st_field(s, "imr_multiaddr");
	pr_inet_addr(s, &m.imr_multiaddr);
	st_field(s, "imr_interface");
	pr_inet_addr(s, &m.imr_interface);
	st_obj_end(s);
}

static void pr_ipv6_mreq(struct st *s, uint64_t a, int len)
{
	struct ipv6_mreq m;

	(void)len;
	if (!st_fetch(s, SONDE_PL_ENTRY, a, &m, sizeof(m)))
		return;
	st_obj_begin(s);
	pr_inet6_field(s, "ipv6mr_multiaddr", "multiaddr", &m.ipv6mr_multiaddr);
	st_field(s, "ipv6mr_interface");
	pr_ifindex(s, m.ipv6mr_interface);
	st_obj_end(s);
}

static void pr_group_req(struct st *s, uint64_t a, int len)
{
	struct group_req g;

	(void)len;
	if (!st_fetch(s, SONDE_PL_ENTRY, a, &g, sizeof(g)))
		return;
	st_obj_begin(s);
	st_field(s, "gr_interface");
	pr_ifindex(s, g.gr_interface);
	st_field(s, "gr_group");
	pr_sockaddr_bytes(s, (const uint8_t *)&g.gr_group, sizeof(g.gr_group));
	st_obj_end(s);
}

static void pr_icmp_filter_set(struct st *s, uint64_t a, int len)
{
	pr_icmp_filter(s, SONDE_PL_ENTRY, a, len);
}

/*
 * The values strace decodes when set: a shorter value (or, exact, one
 * of another length) shows its address.
 */
static const struct set_dec {
	int level;
	uint32_t name;
	uint32_t len;
	uint8_t exact;
	void (*fn)(struct st *s, uint64_t a, int len);
} set_decs[] = {
	{ SOL_SOCKET, SO_LINGER, sizeof(struct linger), 0, pr_set_linger },
	{ SOL_SOCKET, SO_ATTACH_FILTER, sizeof(struct sock_fprog), 1, pr_sock_fprog_set },
	{ SOL_SOCKET, SO_ATTACH_REUSEPORT_CBPF, sizeof(struct sock_fprog), 1,
	  pr_sock_fprog_set },
	{ SOL_SOCKET, SO_TXREHASH, sizeof(int), 0, pr_txrehash },
	{ SOL_IP, IP_ADD_MEMBERSHIP, sizeof(struct ip_mreq), 0, pr_ip_mreq },
	{ SOL_IP, IP_DROP_MEMBERSHIP, sizeof(struct ip_mreq), 0, pr_ip_mreq },
	{ SOL_IP, MCAST_JOIN_GROUP, sizeof(struct group_req), 1, pr_group_req },
	{ SOL_IP, MCAST_LEAVE_GROUP, sizeof(struct group_req), 1, pr_group_req },
	{ SOL_IPV6, IPV6_ADD_MEMBERSHIP, sizeof(struct ipv6_mreq), 0, pr_ipv6_mreq },
	{ SOL_IPV6, IPV6_DROP_MEMBERSHIP, sizeof(struct ipv6_mreq), 0, pr_ipv6_mreq },
	{ SOL_IPV6, IPV6_JOIN_ANYCAST, sizeof(struct ipv6_mreq), 0, pr_ipv6_mreq },
	{ SOL_IPV6, IPV6_LEAVE_ANYCAST, sizeof(struct ipv6_mreq), 0, pr_ipv6_mreq },
	{ SOL_IPV6, MCAST_JOIN_GROUP, sizeof(struct group_req), 1, pr_group_req },
	{ SOL_IPV6, MCAST_LEAVE_GROUP, sizeof(struct group_req), 1, pr_group_req },
	{ SOL_PACKET, PACKET_ADD_MEMBERSHIP, sizeof(struct packet_mreq), 1, pr_packet_mreq },
	{ SOL_PACKET, PACKET_DROP_MEMBERSHIP, sizeof(struct packet_mreq), 1, pr_packet_mreq },
	{ SOL_PACKET, PACKET_RX_RING, sizeof(struct tpacket_req), 1, pr_tpacket_req },
	{ SOL_PACKET, PACKET_TX_RING, sizeof(struct tpacket_req), 1, pr_tpacket_req },
	{ SOL_RAW, ICMP_FILTER, 0, 0, pr_icmp_filter_set },
};

static void pr_setsockopt_val(struct st *s, int level, uint32_t name, uint64_t a, int len)
{
	if (level == SOL_NETLINK) {
		pr_netlink_optval(s, SONDE_PL_ENTRY, name, a, (uint32_t)len);
		return;
	}
	for (size_t i = 0; a && i < sizeof(set_decs) / sizeof(set_decs[0]); i++) {
		const struct set_dec *d = &set_decs[i];

		if (d->level != level || d->name != name)
			continue;
		if (len < (int)d->len || (d->exact && len != (int)d->len))
			pr_addr(s, a);
		else
			d->fn(s, a, len);
		return;
	}
	pr_plain_optval(s, SONDE_PL_ENTRY, a, (uint32_t)len);
}

void dec_setsockopt(struct st *s)
{
	int level = (int)st_arg(s, 1);
	uint32_t name = (uint32_t)st_arg(s, 2);

	pr_sockopt_head(s, level, name, 0);
	pr_setsockopt_val(s, level, name, st_arg(s, 3), (int)st_arg(s, 4));
	st_sep(s);
	pr_int(s, (uint64_t)(int64_t)(int)st_arg(s, 4));
}

void dec_getsockopt(struct st *s)
{
	int level = (int)st_arg(s, 1);
	uint32_t name = (uint32_t)st_arg(s, 2);
	int in = 0, out = 0;
	uint64_t lp = st_arg(s, 4);
	int have_in = st_peek(s, SONDE_PL_ENTRY, lp, &in, sizeof(in));
	int have_out = st_ok(s) && st_peek(s, SONDE_PL_EXIT, lp, &out, sizeof(out));

	pr_sockopt_head(s, level, name, 1);
	st_entry_end(s);
	if (have_out)
		pr_getsockopt_val(s, level, name, st_arg(s, 3), have_in ? in : out, out);
	else
		pr_addr(s, st_arg(s, 3));
	st_sep(s);
	pr_inout(s, have_in, in, have_out, out, lp);
}
