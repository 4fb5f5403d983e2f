// SPDX-License-Identifier: GPL-2.0
/*
 * NETLINK_ROUTE payloads as strace 6.1 shows them: links (struct
 * ifinfomsg and IFLA_* attributes, the nested ones in nl_link.c),
 * addresses (struct ifaddrmsg, IFA_*)
 * and routes (struct rtmsg, RTA_*). Other rtnetlink messages show their
 * family and the rest of their bytes.
 */
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/if_addr.h>
#include <linux/if_link.h>
#include <sys/socket.h>

#include "decode/strace/strace_int.h"
#include "decode/strace/netlink_int.h"

/* -------- struct printers for attribute values -------- */

/*
 * struct rtnl_link_stats and rtnl_link_stats64: the members up to
 * tx_compressed, then those strace 6.1 knows (rx_nohandler; and
 * rx_otherhost_dropped for the 64-bit one) when the value holds them.
 */
static const char *const link_stats[] = {
	"rx_packets", "tx_packets", "rx_bytes", "tx_bytes", "rx_errors",
	"tx_errors", "rx_dropped", "tx_dropped", "multicast", "collisions",
	"rx_length_errors", "rx_over_errors", "rx_crc_errors",
	"rx_frame_errors", "rx_fifo_errors", "rx_missed_errors",
	"tx_aborted_errors", "tx_carrier_errors", "tx_fifo_errors",
	"tx_heartbeat_errors", "tx_window_errors", "rx_compressed",
	"tx_compressed", "rx_nohandler", "rx_otherhost_dropped",
};
#define STATS_MIN 23 /* through tx_compressed */

static int nla_link_stats(struct nl *n, uint64_t a, uint32_t len, const void *arg)
{
	/* arg: the width of a member, 4 or 8 */
	size_t w = (size_t)(uintptr_t)arg;
	size_t full = w == 8 ? 25 : 24, cnt;
	uint64_t v[25];

	if (len >= full * w)
		cnt = full;
	else if (len == STATS_MIN * w)
		cnt = STATS_MIN;
	else
		return 0;
	for (size_t i = 0; i < cnt; i++) {
		uint32_t v32 = 0;

		if (w == 8 ? !st_peek(n->s, n->phase, a + i * w, &v[i], w) :
			     !st_peek(n->s, n->phase, a + i * w, &v32, w)) {
			pr_unfetched(n->s, n->phase, a);
			return 1;
		}
		if (w == 4)
			v[i] = v32;
	}
	for (size_t i = 0; i < cnt; i++)
		sb_printf(n->s->o, "%s%s=%llu", i ? ", " : "{", link_stats[i],
			  (unsigned long long)v[i]);
	sb_putc(n->s->o, '}');
	return 1;
}

static int nla_ifa_cacheinfo(struct nl *n, uint64_t a, uint32_t len, const void *arg)
{
	struct ifa_cacheinfo ci;

	(void)arg;
	if (len < sizeof(ci))
		return 0;
	if (!st_fetch(n->s, n->phase, a, &ci, sizeof(ci)))
		return 1;
	/* strace 6.1 never names the infinite lifetime (0xffffffff), not
	 * even with -X verbose */
	sb_printf(n->s->o, "{ifa_prefered=%u, ifa_valid=%u, cstamp=%u, tstamp=%u}",
		  ci.ifa_prefered, ci.ifa_valid, ci.cstamp, ci.tstamp);
	return 1;
}

static int nla_rta_cacheinfo(struct nl *n, uint64_t a, uint32_t len, const void *arg)
{
	struct rta_cacheinfo ci;

	(void)arg;
	if (len < sizeof(ci))
		return 0;
	if (!st_fetch(n->s, n->phase, a, &ci, sizeof(ci)))
		return 1;
	sb_printf(n->s->o,
		  "{rta_clntref=%u, rta_lastuse=%u, rta_expires=%u, rta_error=%u, "
		  "rta_used=%u, rta_id=%#x, rta_ts=%u, rta_tsage=%u}",
		  ci.rta_clntref, ci.rta_lastuse, ci.rta_expires, ci.rta_error,
		  ci.rta_used, ci.rta_id, ci.rta_ts, ci.rta_tsage);
	return 1;
}

int nla_rt_table(struct nl *n, uint64_t a, uint32_t len, const void *arg)
{
	uint32_t v;

	(void)arg;
	if (len < sizeof(v))
		return 0;
	if (st_fetch(n->s, n->phase, a, &v, sizeof(v)))
		nl_xval_bare(n, &x_rt_table, v);
	return 1;
}

/* -------- attribute tables -------- */

static const struct nla_xlat ifa_flags_x = { &x_ifa_f, "IFA_F_???", 4 };
static const struct nla_xlat ifla_event_x = { &x_ifla_events, "IFLA_EVENT_???", 4 };
static const struct nla_xlat rtext_x = { &x_rtext_filter, "RTEXT_FILTER_???", 4 };

static const struct nla_desc ifla_nla[] = {
	[IFLA_ADDRESS] = { nla_hwaddr, NULL },
	[IFLA_BROADCAST] = { nla_hwaddr, NULL },
	[IFLA_IFNAME] = { nla_str, NULL },
	[IFLA_MTU] = { nla_u32, NULL },
	[IFLA_LINK] = { nla_u32, NULL },
	[IFLA_QDISC] = { nla_str, NULL },
	[IFLA_STATS] = { nla_link_stats, (void *)4 },
	[IFLA_MASTER] = { nla_u32, NULL },
	[IFLA_TXQLEN] = { nla_u32, NULL },
	[IFLA_MAP] = { nla_ifla_map, NULL },
	[IFLA_WEIGHT] = { nla_u32, NULL },
	[IFLA_OPERSTATE] = { nla_u8, NULL },
	[IFLA_LINKMODE] = { nla_u8, NULL },
	[IFLA_LINKINFO] = { nla_ifla_linkinfo, NULL },
	[IFLA_NET_NS_PID] = { nla_u32, NULL },
	[IFLA_IFALIAS] = { nla_str, NULL },
	[IFLA_NUM_VF] = { nla_u32, NULL },
	[IFLA_STATS64] = { nla_link_stats, (void *)8 },
	[IFLA_AF_SPEC] = { nla_ifla_af_spec, NULL },
	[IFLA_GROUP] = { nla_u32, NULL },
	[IFLA_NET_NS_FD] = { nla_fd, NULL },
	[IFLA_EXT_MASK] = { nla_flags, &rtext_x },
	[IFLA_PROMISCUITY] = { nla_u32, NULL },
	[IFLA_NUM_TX_QUEUES] = { nla_u32, NULL },
	[IFLA_NUM_RX_QUEUES] = { nla_u32, NULL },
	[IFLA_CARRIER] = { nla_u8, NULL },
	[IFLA_CARRIER_CHANGES] = { nla_u32, NULL },
	[IFLA_LINK_NETNSID] = { nla_s32, NULL },
	[IFLA_PHYS_PORT_NAME] = { nla_str, NULL },
	[IFLA_PROTO_DOWN] = { nla_u8, NULL },
	[IFLA_GSO_MAX_SEGS] = { nla_u32, NULL },
	[IFLA_GSO_MAX_SIZE] = { nla_u32, NULL },
	[IFLA_XDP] = { nla_ifla_xdp, NULL },
	[IFLA_EVENT] = { nla_xval, &ifla_event_x },
	[IFLA_NEW_NETNSID] = { nla_s32, NULL },
	[IFLA_IF_NETNSID] = { nla_s32, NULL },
	[IFLA_CARRIER_UP_COUNT] = { nla_u32, NULL },
	[IFLA_CARRIER_DOWN_COUNT] = { nla_u32, NULL },
	[IFLA_NEW_IFINDEX] = { nla_ifindex, NULL },
	[IFLA_MIN_MTU] = { nla_u32, NULL },
	[IFLA_MAX_MTU] = { nla_u32, NULL },
	[52] = { nla_ifla_prop_list, NULL },	/* IFLA_PROP_LIST */
	[53] = { nla_str, NULL },	/* IFLA_ALT_IFNAME */
	[54] = { nla_hwaddr, NULL },	/* IFLA_PERM_ADDRESS */
	[55] = { nla_ifla_proto_down_reason, NULL },	/* IFLA_PROTO_DOWN_REASON */
	[56] = { nla_str, NULL },	/* IFLA_PARENT_DEV_NAME */
	[57] = { nla_str, NULL },	/* IFLA_PARENT_DEV_BUS_NAME */
	[58] = { nla_u32, NULL },	/* IFLA_GRO_MAX_SIZE */
	[59] = { nla_u32, NULL },	/* IFLA_TSO_MAX_SIZE */
	[60] = { nla_u32, NULL },	/* IFLA_TSO_MAX_SEGS */
	[61] = { nla_u32, NULL },	/* IFLA_ALLMULTI */
};
static const struct nla_set ifla_set = NLA_SET(&x_ifla, "IFLA_???", ifla_nla);

static const struct nla_desc ifa_nla[] = {
	[IFA_ADDRESS] = { nla_inet, NULL },
	[IFA_LOCAL] = { nla_inet, NULL },
	[IFA_LABEL] = { nla_str, NULL },
	[IFA_BROADCAST] = { nla_inet, NULL },
	[IFA_ANYCAST] = { nla_inet, NULL },
	[IFA_CACHEINFO] = { nla_ifa_cacheinfo, NULL },
	[IFA_MULTICAST] = { nla_inet, NULL },
	[IFA_FLAGS] = { nla_flags, &ifa_flags_x },
	[IFA_RT_PRIORITY] = { nla_u32, NULL },
	[10] = { nla_s32, NULL },	/* IFA_TARGET_NETNSID */
};
static const struct nla_set ifa_set = NLA_SET(&x_ifa, "IFA_???", ifa_nla);

static const struct nla_desc rtax_nla[] = {
	[RTAX_LOCK] = { nla_u32, NULL },
	[RTAX_MTU] = { nla_u32, NULL },
	[RTAX_WINDOW] = { nla_u32, NULL },
	[RTAX_RTT] = { nla_u32, NULL },
	[RTAX_RTTVAR] = { nla_u32, NULL },
	[RTAX_SSTHRESH] = { nla_u32, NULL },
	[RTAX_CWND] = { nla_u32, NULL },
	[RTAX_ADVMSS] = { nla_u32, NULL },
	[RTAX_REORDERING] = { nla_u32, NULL },
	[RTAX_HOPLIMIT] = { nla_u32, NULL },
	[RTAX_INITCWND] = { nla_u32, NULL },
	[RTAX_FEATURES] = { nla_u32, NULL },
	[RTAX_RTO_MIN] = { nla_u32, NULL },
	[RTAX_INITRWND] = { nla_u32, NULL },
	[RTAX_QUICKACK] = { nla_u32, NULL },
	[RTAX_CC_ALGO] = { nla_str, NULL },
};
static const struct nla_set rtax_set = NLA_SET(&x_rtax, "RTAX_???", rtax_nla);

static int nla_rta_metrics(struct nl *n, uint64_t a, uint32_t len, const void *arg)
{
	(void)arg;
	nl_attrs(n, a, len, &rtax_set);
	return 1;
}

static int nla_rta_multipath(struct nl *n, uint64_t a, uint32_t len, const void *arg);

static const struct nla_desc rta_nla[] = {
	[RTA_DST] = { nla_inet, NULL },
	[RTA_SRC] = { nla_inet, NULL },
	[RTA_IIF] = { nla_ifindex, NULL },
	[RTA_OIF] = { nla_ifindex, NULL },
	[RTA_GATEWAY] = { nla_inet, NULL },
	[RTA_PRIORITY] = { nla_u32, NULL },
	[RTA_PREFSRC] = { nla_inet, NULL },
	[RTA_METRICS] = { nla_rta_metrics, NULL },
	[RTA_MULTIPATH] = { nla_rta_multipath, NULL },
	[RTA_PROTOINFO] = { nla_u32, NULL },
	[RTA_FLOW] = { nla_u32, NULL },
	[RTA_CACHEINFO] = { nla_rta_cacheinfo, NULL },
	[RTA_MP_ALGO] = { nla_u32, NULL },
	[RTA_TABLE] = { nla_rt_table, NULL },
	[RTA_MARK] = { nla_u32, NULL },
	[RTA_NEWDST] = { nla_inet, NULL },
	[RTA_PREF] = { nla_u8, NULL },
	[RTA_EXPIRES] = { nla_u64, NULL },
	[RTA_UID] = { nla_u32, NULL },
	[RTA_TTL_PROPAGATE] = { nla_u8, NULL },
	[RTA_IP_PROTO] = { nla_u8, NULL },
	[RTA_SPORT] = { nla_u16, NULL },
	[RTA_DPORT] = { nla_u16, NULL },
};
static const struct nla_set rta_set = NLA_SET(&x_rta, "RTA_???", rta_nla);

/* One next hop: {rtnh_len=.., ...}, or [{...}, its attributes]. */
static void rtnh_one(struct nl *n, const struct rtnexthop *nh, uint64_t a, uint32_t l)
{
	const uint32_t off = RTNH_ALIGN(sizeof(*nh));

	if (l > off)
		sb_putc(n->s->o, '[');
	sb_printf(n->s->o, "{rtnh_len=%u, rtnh_flags=", nh->rtnh_len);
	pr_flags(n->s, &x_rtnh_f, nh->rtnh_flags, "RTNH_F_???");
	sb_printf(n->s->o, ", rtnh_hops=%u, rtnh_ifindex=", nh->rtnh_hops);
	pr_ifindex(n->s, (unsigned int)nh->rtnh_ifindex);
	sb_putc(n->s->o, '}');
	if (l <= off)
		return;
	sb_puts(n->s->o, ", ");
	nl_attrs(n, a + off, l - off, &rta_set);
	sb_putc(n->s->o, ']');
}

/* RTA_MULTIPATH: struct rtnexthop each followed by its attributes. */
static int nla_rta_multipath(struct nl *n, uint64_t a, uint32_t len, const void *arg)
{
	struct rtnexthop nh;
	uint64_t cur = a;
	uint32_t left = len;
	int arr = 0;

	(void)arg;
	if (len < sizeof(nh))
		return 0;
	while (st_fetch(n->s, n->phase, cur, &nh, sizeof(nh))) {
		uint32_t l = nh.rtnh_len < left ? nh.rtnh_len : left;

		if (cur == a && nh.rtnh_len < len) {
			sb_putc(n->s->o, '[');
			arr = 1;
		}
		if (cur > a)
			sb_puts(n->s->o, ", ");
		rtnh_one(n, &nh, cur, l);
		if (RTNH_ALIGN(l) >= left || !RTNH_ALIGN(l))
			break;
		cur += RTNH_ALIGN(l);
		left -= RTNH_ALIGN(l);
	}
	if (arr)
		sb_putc(n->s->o, ']');
	return 1;
}

/* -------- messages -------- */

/* The fixed part of a message after its family, read whole: fails
 * (printing the address) when it is not there. */
int nl_fixed(struct nl *n, uint64_t a, void *p, size_t size)
{
	return st_fetch(n->s, n->phase, a + 1, (uint8_t *)p + 1, size - 1);
}

void nl_family(struct nl *n, const char *name)
{
	sb_printf(n->s->o, "{%s=", name);
	pr_xval(n->s, &x_sock_family, n->af, "AF_???");
	sb_puts(n->s->o, ", ");
}

/* After the struct: its attributes, when it was shown whole. */
void nl_tail(struct nl *n, int ok, uint64_t a, uint32_t len, size_t size,
	     const struct nla_set *set)
{
	if (!ok)
		sb_puts(n->s->o, "...");
	sb_putc(n->s->o, '}');
	if (ok == 1 && len > NLMSG_ALIGN(size)) {
		sb_puts(n->s->o, ", ");
		nl_attrs(n, a + NLMSG_ALIGN(size), len - NLMSG_ALIGN(size), set);
	}
}

static void nl_ifinfomsg(struct nl *n, uint64_t a, uint32_t len)
{
	struct ifinfomsg m;
	int ok = 0;

	nl_family(n, "ifi_family");
	if (len >= sizeof(m)) {
		ok = nl_fixed(n, a, &m, sizeof(m)) ? 1 : 2;
		if (ok == 1) {
			sb_puts(n->s->o, "ifi_type=");
			pr_xval(n->s, &x_arphrd, m.ifi_type, "ARPHRD_???");
			nl_field(n, "ifi_index");
			pr_ifindex(n->s, (unsigned int)m.ifi_index);
			nl_field(n, "ifi_flags");
			pr_flags(n->s, &x_iff, m.ifi_flags, "IFF_???");
			nl_field(n, "ifi_change");
			pr_hex(n->s, m.ifi_change);
		}
	}
	nl_tail(n, ok, a, len, sizeof(m), &ifla_set);
}

static void nl_ifaddrmsg(struct nl *n, uint64_t a, uint32_t len)
{
	struct ifaddrmsg m;
	int ok = 0;

	nl_family(n, "ifa_family");
	if (len >= sizeof(m)) {
		ok = nl_fixed(n, a, &m, sizeof(m)) ? 1 : 2;
		if (ok == 1) {
			sb_printf(n->s->o, "ifa_prefixlen=%u", m.ifa_prefixlen);
			nl_field(n, "ifa_flags");
			pr_flags(n->s, &x_ifa_f, m.ifa_flags, "IFA_F_???");
			nl_field(n, "ifa_scope");
			nl_xval_bare(n, &x_rt_scope, m.ifa_scope);
			nl_field(n, "ifa_index");
			pr_ifindex(n->s, m.ifa_index);
		}
	}
	nl_tail(n, ok, a, len, sizeof(m), &ifa_set);
}

static void nl_rtmsg(struct nl *n, uint64_t a, uint32_t len)
{
	struct rtmsg m;
	int ok = 0;

	nl_family(n, "rtm_family");
	if (len >= sizeof(m)) {
		ok = nl_fixed(n, a, &m, sizeof(m)) ? 1 : 2;
		if (ok == 1) {
			sb_printf(n->s->o, "rtm_dst_len=%u, rtm_src_len=%u", m.rtm_dst_len,
				  m.rtm_src_len);
			nl_field(n, "rtm_tos");
			pr_flags(n->s, &x_iptos, m.rtm_tos, "IPTOS_TOS_???");
			nl_field(n, "rtm_table");
			nl_xval_bare(n, &x_rt_table, m.rtm_table);
			nl_field(n, "rtm_protocol");
			pr_xval(n->s, &x_rtprot, m.rtm_protocol, "RTPROT_???");
			nl_field(n, "rtm_scope");
			nl_xval_bare(n, &x_rt_scope, m.rtm_scope);
			nl_field(n, "rtm_type");
			pr_xval(n->s, &x_rtn, m.rtm_type, "RTN_???");
			nl_field(n, "rtm_flags");
			pr_flags(n->s, &x_rtm_f, m.rtm_flags, "RTM_F_???");
		}
	}
	nl_tail(n, ok, a, len, sizeof(m), &rta_set);
}

/* A message sonde has no decoder for: {family=AF_INET, data="..."}. */
static void nl_family_data(struct nl *n, uint64_t a, uint32_t len)
{
	sb_puts(n->s->o, "{family=");
	pr_xval(n->s, &x_sock_family, n->af, "AF_???");
	if (len > 1) {
		sb_puts(n->s->o, ", data=");
		pr_buf(n->s, n->phase, a + 1, len - 1, 1);
	}
	sb_putc(n->s->o, '}');
}

int nl_route_payload(struct nl *n, uint16_t type, uint64_t a, uint32_t len)
{
	if (type == NLMSG_DONE)
		return 0;
	if (!st_fetch(n->s, n->phase, a, &n->af, 1))
		return 1;
	switch (type) {
	case RTM_NEWLINK: case RTM_DELLINK: case RTM_GETLINK: case RTM_SETLINK:
		nl_ifinfomsg(n, a, len);
		break;
	case RTM_NEWADDR: case RTM_DELADDR: case RTM_GETADDR:
	case RTM_GETANYCAST: case RTM_GETMULTICAST:
		nl_ifaddrmsg(n, a, len);
		break;
	case RTM_NEWROUTE: case RTM_DELROUTE: case RTM_GETROUTE:
		nl_rtmsg(n, a, len);
		break;
	case RTM_NEWNEIGH: case RTM_DELNEIGH:
		nl_ndmsg(n, a, len);
		break;
	case RTM_GETNEIGH:
		/* a bridge's neighbours are asked for with a link's struct */
		(n->af == AF_BRIDGE ? nl_ifinfomsg : nl_ndmsg)(n, a, len);
		break;
	case RTM_NEWRULE: case RTM_DELRULE: case RTM_GETRULE:
		nl_fib_rule(n, a, len);
		break;
	case RTM_NEWQDISC: case RTM_DELQDISC: case RTM_GETQDISC:
	case RTM_NEWTCLASS: case RTM_DELTCLASS: case RTM_GETTCLASS:
	case RTM_NEWTFILTER: case RTM_DELTFILTER: case RTM_GETTFILTER:
	case RTM_NEWCHAIN: case RTM_DELCHAIN: case RTM_GETCHAIN:
		nl_tcmsg(n, a, len);
		break;
	case RTM_NEWNETCONF: case RTM_DELNETCONF: case RTM_GETNETCONF:
		nl_netconf(n, a, len);
		break;
	default:
		nl_family_data(n, a, len);
		break;
	}
	return 1;
}
