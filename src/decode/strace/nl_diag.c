// SPDX-License-Identifier: GPL-2.0
/*
 * NETLINK_SOCK_DIAG payloads as strace 6.1 shows them (what `ss` sends
 * and receives): inet requests and replies (struct inet_diag_req_v2,
 * inet_diag_req, inet_diag_msg, INET_DIAG_* attributes) and UNIX ones
 * (struct unix_diag_req, unix_diag_msg, UNIX_DIAG_*), netlink ones
 * (netlink_diag_req, netlink_diag_msg) and packet requests. Requests are
 * the messages with NLM_F_REQUEST. Other families (and packet replies)
 * show their family and the rest of their bytes.
 */
#include <linux/netlink.h>
#include <linux/inet_diag.h>
#include <linux/netlink_diag.h>
#include <linux/packet_diag.h>
#include <linux/sock_diag.h>
#include <linux/unix_diag.h>
#include <arpa/inet.h>
#include <sys/socket.h>
#include <sys/sysmacros.h>

#include "decode/strace/strace_int.h"
#include "decode/strace/netlink_int.h"

/* TCPDIAG_GETSOCK, DCCPDIAG_GETSOCK: the old request struct. */
#define TCPDIAG_GETSOCK 18
#define DCCPDIAG_GETSOCK 19

static void pr_cookie(struct nl *n, const uint32_t c[2])
{
	sb_printf(n->s->o, "[%u, %u]", c[0], c[1]);
}

/* An IPv4 address in a 16-byte field: -X shows all 16 bytes. */
static void pr_inet_field(struct nl *n, const uint32_t *f)
{
	char num[16 * 4 + 3], buf[INET_ADDRSTRLEN], q[4 * INET_ADDRSTRLEN], sym[96];
	const uint8_t *b = (const uint8_t *)f;
	size_t k = 0;

	num[k++] = '"';
	for (int i = 0; i < 16; i++)
		k += (size_t)snprintf(num + k, sizeof(num) - k, "\\x%02x", b[i]);
	snprintf(num + k, sizeof(num) - k, "\"");
	inet_ntop(AF_INET, f, buf, sizeof(buf));
	snprintf(sym, sizeof(sym), "inet_addr(\"%s\")", st_quote_name(n->s, buf, q, sizeof(q)));
	pr_symexpr(n->s, num, sym);
}

/* An address of family af in a 16-byte field: idiag_src=inet_addr(...),
 * inet_pton(AF_INET6, "::1", &idiag_src), else the bytes. */
static void pr_sockid_addr(struct nl *n, const char *name, const uint32_t *f, uint8_t af)
{
	struct st *s = n->s;
	char buf[64], q[256];

	if (af == AF_INET6 && s->opt->xlat == SONDE_XLAT_ABBREV) {
		inet_ntop(AF_INET6, f, buf, sizeof(buf));
		sb_printf(s->o, ", inet_pton(AF_INET6, \"%s\", &%s)",
			  st_quote_name(s, buf, q, sizeof(q)), name);
		return;
	}
	nl_field(n, name);
	if (af == AF_INET)
		pr_inet_field(n, f);
	else if (af == AF_INET6)
		pr_inet6_addr(s, f);
	else
		pr_quoted(s, (const uint8_t *)f, 16, 0, 0, 1);
}

static void pr_sockid(struct nl *n, const struct inet_diag_sockid *id, uint8_t af)
{
	struct st *s = n->s;

	sb_puts(s->o, "{idiag_sport=");
	pr_wrapped_u(s, "htons", ntohs(id->idiag_sport), &id->idiag_sport, 2);
	nl_field(n, "idiag_dport");
	pr_wrapped_u(s, "htons", ntohs(id->idiag_dport), &id->idiag_dport, 2);
	pr_sockid_addr(n, "idiag_src", id->idiag_src, af);
	pr_sockid_addr(n, "idiag_dst", id->idiag_dst, af);
	nl_field(n, "idiag_if");
	pr_ifindex(s, id->idiag_if);
	nl_field(n, "idiag_cookie");
	pr_cookie(n, id->idiag_cookie);
	sb_putc(s->o, '}');
}

/* The fixed part of a message after its family byte; 1 when read, 2
 * when not (the address printed), 0 when the payload is too short. */
static int diag_fixed(struct nl *n, uint64_t a, uint32_t len, void *p, size_t size)
{
	if (len < size)
		return 0;
	return st_fetch(n->s, n->phase, a + 1, (uint8_t *)p + 1, size - 1) ? 1 : 2;
}

/* "..." for a short payload, the closing brace, then the attributes
 * when the struct was read. */
static void diag_tail(struct nl *n, int ok, uint64_t a, uint32_t len, size_t size,
		      const struct nla_set *set)
{
	if (!ok)
		sb_puts(n->s->o, "...");
	sb_putc(n->s->o, '}');
	if (ok == 1 && set && len > NLMSG_ALIGN(size)) {
		sb_puts(n->s->o, ", ");
		nl_attrs(n, a + NLMSG_ALIGN(size), len - NLMSG_ALIGN(size), set);
	}
}

static void diag_family(struct nl *n, const char *name)
{
	sb_printf(n->s->o, "{%s=", name);
	pr_xval(n->s, &x_sock_family, n->af, "AF_???");
	sb_puts(n->s->o, ", ");
}

/* -------- inet -------- */

static const struct nla_set inet_req_set = { &x_inet_diag_req_attrs,
					     "INET_DIAG_REQ_???", NULL, 0 };

static void inet_req_v2(struct nl *n, uint64_t a, uint32_t len)
{
	struct inet_diag_req_v2 r;
	int ok;

	diag_family(n, "sdiag_family");
	ok = diag_fixed(n, a, len, &r, sizeof(r));
	if (ok == 1) {
		sb_puts(n->s->o, "sdiag_protocol=");
		pr_xval(n->s, &x_ipproto, r.sdiag_protocol, "IPPROTO_???");
		nl_field(n, "idiag_ext");
		pr_flags(n->s, &x_inet_diag_ext, r.idiag_ext, "1<<INET_DIAG_\?\?\?-1");
		nl_field(n, "idiag_states");
		pr_flags(n->s, &x_tcp_state_flags, r.idiag_states, "1<<TCP_???");
		nl_field(n, "id");
		pr_sockid(n, &r.id, n->af);
	}
	diag_tail(n, ok, a, len, sizeof(r), &inet_req_set);
}

static void inet_req_compat(struct nl *n, uint64_t a, uint32_t len)
{
	struct inet_diag_req r;
	int ok;

	diag_family(n, "idiag_family");
	ok = diag_fixed(n, a, len, &r, sizeof(r));
	if (ok == 1) {
		sb_printf(n->s->o, "idiag_src_len=%u, idiag_dst_len=%u", r.idiag_src_len,
			  r.idiag_dst_len);
		nl_field(n, "idiag_ext");
		pr_flags(n->s, &x_inet_diag_ext, r.idiag_ext, "1<<INET_DIAG_\?\?\?-1");
		nl_field(n, "id");
		pr_sockid(n, &r.id, n->af);
		nl_field(n, "idiag_states");
		pr_flags(n->s, &x_tcp_state_flags, r.idiag_states, "1<<TCP_???");
		sb_printf(n->s->o, ", idiag_dbs=%u", r.idiag_dbs);
	}
	diag_tail(n, ok, a, len, sizeof(r), &inet_req_set);
}

/* Structs of u32 members, printed whole when the value holds them. */
static int nla_u32s(struct nl *n, uint64_t a, uint32_t len, const char *const *names,
		    unsigned int cnt)
{
	uint32_t v[8];

	if (len < cnt * 4)
		return 0;
	if (!st_fetch(n->s, n->phase, a, v, cnt * 4))
		return 1;
	for (unsigned int i = 0; i < cnt; i++)
		sb_printf(n->s->o, "%s%s=%u", i ? ", " : "{", names[i], v[i]);
	sb_putc(n->s->o, '}');
	return 1;
}

static int nla_inet_meminfo(struct nl *n, uint64_t a, uint32_t len, const void *arg)
{
	static const char *const f[] = { "idiag_rmem", "idiag_wmem", "idiag_fmem",
					 "idiag_tmem" };

	(void)arg;
	return nla_u32s(n, a, len, f, 4);
}

static int nla_vegas(struct nl *n, uint64_t a, uint32_t len, const void *arg)
{
	static const char *const f[] = { "tcpv_enabled", "tcpv_rttcnt", "tcpv_rtt",
					 "tcpv_minrtt" };

	(void)arg;
	return nla_u32s(n, a, len, f, 4);
}

static int nla_bbr(struct nl *n, uint64_t a, uint32_t len, const void *arg)
{
	struct tcp_bbr_info b;

	(void)arg;
	if (len < sizeof(b))
		return 0;
	if (st_fetch(n->s, n->phase, a, &b, sizeof(b)))
		sb_printf(n->s->o,
			  "{bbr_bw_lo=%#x, bbr_bw_hi=%#x, bbr_min_rtt=%u, "
			  "bbr_pacing_gain=%u, bbr_cwnd_gain=%u}",
			  b.bbr_bw_lo, b.bbr_bw_hi, b.bbr_min_rtt, b.bbr_pacing_gain,
			  b.bbr_cwnd_gain);
	return 1;
}

static int nla_dctcp(struct nl *n, uint64_t a, uint32_t len, const void *arg)
{
	struct tcp_dctcp_info d;

	(void)arg;
	if (len < sizeof(d))
		return 0;
	if (st_fetch(n->s, n->phase, a, &d, sizeof(d)))
		sb_printf(n->s->o,
			  "{dctcp_enabled=%u, dctcp_ce_state=%u, dctcp_alpha=%u, "
			  "dctcp_ab_ecn=%u, dctcp_ab_tot=%u}",
			  d.dctcp_enabled, d.dctcp_ce_state, d.dctcp_alpha, d.dctcp_ab_ecn,
			  d.dctcp_ab_tot);
	return 1;
}

/* RCV_SHUTDOWN and SEND_SHUTDOWN are not in the UAPI: strace shows the
 * number, and the names in a comment. */
static int nla_shutdown(struct nl *n, uint64_t a, uint32_t len, const void *arg)
{
	struct st *s = n->s;
	uint8_t v;

	(void)arg;
	if (len < sizeof(v))
		return 0;
	if (!st_fetch(s, n->phase, a, &v, sizeof(v)))
		return 1;
	if (!v || s->opt->xlat == SONDE_XLAT_RAW) {
		sb_printf(s->o, v ? "%#x" : "0", v);
		return 1;
	}
	sb_printf(s->o, "%#x /* ", v);
	sb_flags(s->o, &x_shutdown_flags, v);
	if (!(v & 3))
		sb_puts(s->o, "???_SHUTDOWN");
	sb_puts(s->o, " */");
	return 1;
}

/* struct inet_diag_sockopt: the bits that are set. */
static int nla_sockopt(struct nl *n, uint64_t a, uint32_t len, const void *arg)
{
	static const char *const bits[] = {
		"recverr", "is_icsk", "freebind", "hdrincl", "mc_loop", "transparent",
		"mc_all", "nodefrag", "bind_address_no_port", "recverr_rfc4884",
		"defer_connect",
	};
	uint16_t v;
	int first = 1;

	(void)arg;
	if (len < sizeof(v))
		return 0;
	if (!st_fetch(n->s, n->phase, a, &v, sizeof(v)))
		return 1;
	sb_putc(n->s->o, '{');
	for (unsigned int i = 0; i < sizeof(bits) / sizeof(bits[0]); i++) {
		if (!(v & (1u << i)))
			continue;
		sb_printf(n->s->o, "%s%s=1", first ? "" : ", ", bits[i]);
		first = 0;
	}
	if (v >> 11)
		sb_printf(n->s->o, "%sunused=%#x", first ? "" : ", ", v >> 11);
	sb_putc(n->s->o, '}');
	return 1;
}

static const struct nla_desc inet_nla[] = {
	[INET_DIAG_MEMINFO] = { nla_inet_meminfo, NULL },
	[INET_DIAG_VEGASINFO] = { nla_vegas, NULL },
	[INET_DIAG_CONG] = { nla_str, NULL },
	[INET_DIAG_TOS] = { nla_u8, NULL },
	[INET_DIAG_TCLASS] = { nla_u8, NULL },
	[INET_DIAG_SKMEMINFO] = { nla_meminfo, NULL },
	[INET_DIAG_SHUTDOWN] = { nla_shutdown, NULL },
	[INET_DIAG_DCTCPINFO] = { nla_dctcp, NULL },
	[INET_DIAG_PROTOCOL] = { nla_u8, NULL },
	[INET_DIAG_SKV6ONLY] = { nla_u8, NULL },
	[INET_DIAG_MARK] = { nla_u32, NULL },
	[INET_DIAG_BBRINFO] = { nla_bbr, NULL },
	[INET_DIAG_CLASS_ID] = { nla_u32, NULL },
	[21] = { nla_u64, NULL },	/* INET_DIAG_CGROUP_ID */
	[22] = { nla_sockopt, NULL },	/* INET_DIAG_SOCKOPT */
};
static const struct nla_set inet_set = NLA_SET(&x_inet_diag_attrs, "INET_DIAG_???",
					       inet_nla);

static void inet_msg(struct nl *n, uint64_t a, uint32_t len)
{
	struct inet_diag_msg m;
	int ok;

	diag_family(n, "idiag_family");
	ok = diag_fixed(n, a, len, &m, sizeof(m));
	if (ok == 1) {
		sb_puts(n->s->o, "idiag_state=");
		pr_xval(n->s, &x_tcp_states, m.idiag_state, "TCP_???");
		sb_printf(n->s->o, ", idiag_timer=%u, idiag_retrans=%u, id=", m.idiag_timer,
			  m.idiag_retrans);
		pr_sockid(n, &m.id, n->af);
		sb_printf(n->s->o,
			  ", idiag_expires=%u, idiag_rqueue=%u, idiag_wqueue=%u, "
			  "idiag_uid=%u, idiag_inode=%u",
			  m.idiag_expires, m.idiag_rqueue, m.idiag_wqueue, m.idiag_uid,
			  m.idiag_inode);
	}
	diag_tail(n, ok, a, len, sizeof(m), &inet_set);
}

/* -------- unix -------- */

static void unix_req(struct nl *n, uint64_t a, uint32_t len)
{
	struct unix_diag_req r;
	int ok;

	diag_family(n, "sdiag_family");
	ok = diag_fixed(n, a, len, &r, sizeof(r));
	if (ok == 1) {
		sb_printf(n->s->o, "sdiag_protocol=%u, udiag_states=", r.sdiag_protocol);
		pr_flags(n->s, &x_tcp_state_flags, r.udiag_states, "1<<TCP_???");
		sb_printf(n->s->o, ", udiag_ino=%u, udiag_show=", r.udiag_ino);
		pr_flags(n->s, &x_unix_diag_show, r.udiag_show, "UDIAG_SHOW_???");
		nl_field(n, "udiag_cookie");
		pr_cookie(n, r.udiag_cookie);
	}
	diag_tail(n, ok, a, len, sizeof(r), NULL);
}

static int nla_unix_vfs(struct nl *n, uint64_t a, uint32_t len, const void *arg)
{
	struct unix_diag_vfs v;

	(void)arg;
	if (len < sizeof(v))
		return 0;
	if (!st_fetch(n->s, n->phase, a, &v, sizeof(v)))
		return 1;
	sb_puts(n->s->o, "{udiag_vfs_dev=");
	pr_dev(n->s, major(v.udiag_vfs_dev), minor(v.udiag_vfs_dev));
	sb_printf(n->s->o, ", udiag_vfs_ino=%u}", v.udiag_vfs_ino);
	return 1;
}

static int nla_unix_icons(struct nl *n, uint64_t a, uint32_t len, const void *arg)
{
	uint32_t v;

	(void)arg;
	if (len < sizeof(v))
		return 0;
	sb_putc(n->s->o, '[');
	for (uint32_t i = 0; i < len / 4; i++) {
		if (i)
			sb_puts(n->s->o, ", ");
		if (st_array_cut(n->s, i)) {
			sb_puts(n->s->o, "...");
			break;
		}
		if (!st_fetch(n->s, n->phase, a + 4 * i, &v, sizeof(v)))
			break;
		sb_printf(n->s->o, "%u", v);
	}
	sb_putc(n->s->o, ']');
	return 1;
}

static int nla_unix_rqlen(struct nl *n, uint64_t a, uint32_t len, const void *arg)
{
	static const char *const f[] = { "udiag_rqueue", "udiag_wqueue" };

	(void)arg;
	return nla_u32s(n, a, len, f, 2);
}

/* A uid: -1 as -1, as strace prints ids. */
static int nla_uid(struct nl *n, uint64_t a, uint32_t len, const void *arg)
{
	uint32_t v;

	(void)arg;
	if (len < sizeof(v))
		return 0;
	if (!st_fetch(n->s, n->phase, a, &v, sizeof(v)))
		return 1;
	if (v == UINT32_MAX)
		sb_puts(n->s->o, "-1");
	else
		sb_printf(n->s->o, "%u", v);
	return 1;
}

static const struct nla_desc unix_nla[] = {
	[UNIX_DIAG_NAME] = { nla_str, NULL },
	[UNIX_DIAG_VFS] = { nla_unix_vfs, NULL },
	[UNIX_DIAG_PEER] = { nla_u32, NULL },
	[UNIX_DIAG_ICONS] = { nla_unix_icons, NULL },
	[UNIX_DIAG_RQLEN] = { nla_unix_rqlen, NULL },
	[UNIX_DIAG_MEMINFO] = { nla_meminfo, NULL },
	[UNIX_DIAG_SHUTDOWN] = { nla_u8, NULL },
	[7] = { nla_uid, NULL },	/* UNIX_DIAG_UID */
};
static const struct nla_set unix_set = NLA_SET(&x_unix_diag_attrs, "UNIX_DIAG_???",
					       unix_nla);

static void unix_msg(struct nl *n, uint64_t a, uint32_t len)
{
	struct unix_diag_msg m;
	int ok;

	diag_family(n, "udiag_family");
	ok = diag_fixed(n, a, len, &m, sizeof(m));
	if (ok == 1) {
		sb_puts(n->s->o, "udiag_type=");
		pr_xval(n->s, &x_sock_type, m.udiag_type, "SOCK_???");
		nl_field(n, "udiag_state");
		pr_xval(n->s, &x_tcp_states, m.udiag_state, "TCP_???");
		sb_printf(n->s->o, ", udiag_ino=%u, udiag_cookie=", m.udiag_ino);
		pr_cookie(n, m.udiag_cookie);
	}
	diag_tail(n, ok, a, len, sizeof(m), &unix_set);
}

/* -------- netlink, packet -------- */

/* The protocol a netlink diag request asks for: NDIAG_PROTO_ALL too. */
static void pr_ndiag_proto(struct nl *n, uint8_t p)
{
	if (p == 255)
		pr_sym(n->s, n->s->opt->xlat == SONDE_XLAT_RAW ? "0xff" :
			     n->s->opt->xlat == SONDE_XLAT_VERBOSE ?
			     "0xff /* NDIAG_PROTO_ALL */" : "NDIAG_PROTO_ALL");
	else
		pr_xval(n->s, &x_nl_protocols, p, "NETLINK_???");
}

static void netlink_req(struct nl *n, uint64_t a, uint32_t len)
{
	struct netlink_diag_req r;
	int ok;

	diag_family(n, "sdiag_family");
	ok = diag_fixed(n, a, len, &r, sizeof(r));
	if (ok == 1) {
		sb_puts(n->s->o, "sdiag_protocol=");
		pr_ndiag_proto(n, r.sdiag_protocol);
		sb_printf(n->s->o, ", ndiag_ino=%u, ndiag_show=", r.ndiag_ino);
		pr_flags(n->s, &x_netlink_diag_show, r.ndiag_show, "NDIAG_SHOW_???");
		nl_field(n, "ndiag_cookie");
		pr_cookie(n, r.ndiag_cookie);
	}
	diag_tail(n, ok, a, len, sizeof(r), NULL);
}

static const struct nla_xlat ndiag_flags_x = { &x_netlink_diag_flags, "NDIAG_FLAG_???", 4 };

static const struct nla_desc netlink_nla[] = {
	[NETLINK_DIAG_MEMINFO] = { nla_meminfo, NULL },
	[NETLINK_DIAG_FLAGS] = { nla_flags, &ndiag_flags_x },
};
static const struct nla_set netlink_set = NLA_SET(&x_netlink_diag_attrs,
						  "NETLINK_DIAG_???", netlink_nla);

static void netlink_msg(struct nl *n, uint64_t a, uint32_t len)
{
	struct netlink_diag_msg m;
	int ok;

	diag_family(n, "ndiag_family");
	ok = diag_fixed(n, a, len, &m, sizeof(m));
	if (ok == 1) {
		sb_puts(n->s->o, "ndiag_type=");
		pr_xval(n->s, &x_sock_type, m.ndiag_type, "SOCK_???");
		nl_field(n, "ndiag_protocol");
		pr_xval(n->s, &x_nl_protocols, m.ndiag_protocol, "NETLINK_???");
		nl_field(n, "ndiag_state");
		pr_xval(n->s, &x_tcp_states, m.ndiag_state, "TCP_???");
		sb_printf(n->s->o,
			  ", ndiag_portid=%u, ndiag_dst_portid=%u, ndiag_dst_group=%u, "
			  "ndiag_ino=%u, ndiag_cookie=",
			  m.ndiag_portid, m.ndiag_dst_portid, m.ndiag_dst_group, m.ndiag_ino);
		pr_cookie(n, m.ndiag_cookie);
	}
	diag_tail(n, ok, a, len, sizeof(m), &netlink_set);
}

static void packet_req(struct nl *n, uint64_t a, uint32_t len)
{
	struct packet_diag_req r;
	int ok;

	diag_family(n, "sdiag_family");
	ok = diag_fixed(n, a, len, &r, sizeof(r));
	if (ok == 1) {
		sb_printf(n->s->o, "sdiag_protocol=%u, pdiag_ino=%u, pdiag_show=",
			  r.sdiag_protocol, r.pdiag_ino);
		pr_flags(n->s, &x_packet_diag_show, r.pdiag_show, "PACKET_SHOW_???");
		nl_field(n, "pdiag_cookie");
		pr_cookie(n, r.pdiag_cookie);
	}
	diag_tail(n, ok, a, len, sizeof(r), NULL);
}

/* Families without a decoder: {family=AF_VSOCK, data="..."}. */
static void diag_other(struct nl *n, uint64_t a, uint32_t len)
{
	sb_puts(n->s->o, "{family=");
	pr_xval(n->s, &x_sock_family, n->af, "AF_???");
	if (len > 1) {
		sb_puts(n->s->o, ", data=");
		pr_buf(n->s, n->phase, a + 1, len - 1, 1);
	}
	sb_putc(n->s->o, '}');
}

int nl_diag_payload(struct nl *n, const struct nlmsghdr *h, uint64_t a, uint32_t len)
{
	int req = h->nlmsg_flags & NLM_F_REQUEST;

	if (h->nlmsg_type == NLMSG_DONE)
		return 0;
	if (!st_fetch(n->s, n->phase, a, &n->af, 1))
		return 1;
	if (len <= 1) {
		diag_other(n, a, len);
		return 1;
	}
	switch (n->af) {
	case AF_UNIX:
		(req ? unix_req : unix_msg)(n, a, len);
		break;
	case AF_INET:
	case AF_INET6:
		if (!req)
			inet_msg(n, a, len);
		else if (h->nlmsg_type == TCPDIAG_GETSOCK || h->nlmsg_type == DCCPDIAG_GETSOCK)
			inet_req_compat(n, a, len);
		else
			inet_req_v2(n, a, len);
		break;
	case AF_NETLINK:
		(req ? netlink_req : netlink_msg)(n, a, len);
		break;
	case AF_PACKET:
		/* replies are not decoded */
		(req ? packet_req : diag_other)(n, a, len);
		break;
	default:
		diag_other(n, a, len);
	}
	return 1;
}
