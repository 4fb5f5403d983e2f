// SPDX-License-Identifier: GPL-2.0
/*
 * The link attributes (IFLA_*) strace 6.1 decodes as nested lists or
 * structs, shown by `ip link` under -v: IFLA_MAP, IFLA_LINKINFO (its kind;
 * the kind's data and statistics stay bytes), IFLA_XDP, IFLA_AF_SPEC (the
 * IPv4 and IPv6 per-device settings and counters), IFLA_PROP_LIST,
 * IFLA_PROTO_DOWN_REASON.
 */
#include <linux/netlink.h>
#include <linux/if_link.h>
#include <sys/socket.h>

#include "decode/strace/strace_int.h"
#include "decode/strace/netlink_int.h"

/* struct rtnl_link_ifmap, up to its port (its tail is padding). */
int nla_ifla_map(struct nl *n, uint64_t a, uint32_t len, const void *arg)
{
	struct rtnl_link_ifmap m;
	const uint32_t size = offsetof(struct rtnl_link_ifmap, port) + sizeof(m.port);

	(void)arg;
	if (len < size)
		return 0;
	if (!st_fetch(n->s, n->phase, a, &m, size))
		return 1;
	sb_puts(n->s->o, "{mem_start=");
	pr_hex(n->s, m.mem_start);
	nl_field(n, "mem_end");
	pr_hex(n->s, m.mem_end);
	nl_field(n, "base_addr");
	pr_hex(n->s, m.base_addr);
	sb_printf(n->s->o, ", irq=%u, dma=%u, port=%u}", m.irq, m.dma, m.port);
	return 1;
}

/* A descriptor, with -y its path. */
int nla_fd(struct nl *n, uint64_t a, uint32_t len, const void *arg)
{
	int32_t fd;

	(void)arg;
	if (len < sizeof(fd))
		return 0;
	if (st_fetch(n->s, n->phase, a, &fd, sizeof(fd)))
		pr_fd(n->s, fd);
	return 1;
}

/* IFLA_INFO_KIND: a string up to its NUL. */
static int nla_info_kind(struct nl *n, uint64_t a, uint32_t len, const void *arg)
{
	(void)arg;
	pr_cstr_max(n->s, n->phase, a, len);
	return 1;
}

static const struct nla_desc info_nla[] = {
	[IFLA_INFO_KIND] = { nla_info_kind, NULL },
	[IFLA_INFO_SLAVE_KIND] = { nla_str, NULL },
};
static const struct nla_set info_set = NLA_SET(&x_ifla_info, "IFLA_INFO_???", info_nla);

int nla_ifla_linkinfo(struct nl *n, uint64_t a, uint32_t len, const void *arg)
{
	(void)arg;
	nl_attrs(n, a, len, &info_set);
	return 1;
}

static const struct nla_xlat xdp_attached_x = { &x_xdp_attached, "XDP_ATTACHED_???", 1 };

/* XDP_FLAGS_*: a u32, strace prints it without a default comment. */
static int nla_xdp_flags(struct nl *n, uint64_t a, uint32_t len, const void *arg)
{
	uint32_t v;

	(void)arg;
	if (len < sizeof(v))
		return 0;
	if (st_fetch(n->s, n->phase, a, &v, sizeof(v)))
		pr_flags(n->s, &x_xdp_flags, v, "XDP_FLAGS_???");
	return 1;
}

static const struct nla_desc xdp_nla[] = {
	[IFLA_XDP_FD] = { nla_fd, NULL },
	[IFLA_XDP_ATTACHED] = { nla_xval, &xdp_attached_x },
	[IFLA_XDP_FLAGS] = { nla_xdp_flags, NULL },
	[IFLA_XDP_PROG_ID] = { nla_u32, NULL },
	[5] = { nla_u32, NULL },	/* IFLA_XDP_DRV_PROG_ID */
	[6] = { nla_u32, NULL },	/* IFLA_XDP_SKB_PROG_ID */
	[7] = { nla_u32, NULL },	/* IFLA_XDP_HW_PROG_ID */
	[8] = { nla_fd, NULL },		/* IFLA_XDP_EXPECTED_FD */
};
static const struct nla_set xdp_set = NLA_SET(&x_ifla_xdp, "IFLA_XDP_???", xdp_nla);

int nla_ifla_xdp(struct nl *n, uint64_t a, uint32_t len, const void *arg)
{
	(void)arg;
	nl_attrs(n, a, len, &xdp_set);
	return 1;
}

/* -------- IFLA_AF_SPEC -------- */

/* Arrays of per-device values with their index named: arg is the
 * struct nla_idx of the array. */
struct nla_idx {
	const struct xlat *x;
	const char *dflt;
	uint8_t esz, sgn;
};

static int nla_idx_array(struct nl *n, uint64_t a, uint32_t len, const void *arg)
{
	const struct nla_idx *o = arg;

	if (len < o->esz)
		return 0;
	nl_idx_array(n, a, len / o->esz, o->esz, o->sgn, o->x, o->dflt);
	return 1;
}

static const struct nla_idx ipv4_conf = { &x_ipv4_devconf, "IPV4_DEVCONF_???", 4, 1 };
static const struct nla_idx ipv6_conf = { &x_ipv6_devconf, "DEVCONF_???", 4, 1 };
static const struct nla_idx ipv6_stats = { &x_ipstats_mib, "IPSTATS_MIB_???", 8, 0 };
static const struct nla_idx icmp6_stats = { &x_icmp6_mib, "ICMP6_MIB_???", 8, 0 };

static const struct nla_desc inet_nla[] = {
	[IFLA_INET_CONF] = { nla_idx_array, &ipv4_conf },
};
static const struct nla_set inet_set = NLA_SET(&x_ifla_inet, "IFLA_INET_???", inet_nla);

/* struct ifla_cacheinfo of IPv6. */
static int nla_inet6_cacheinfo(struct nl *n, uint64_t a, uint32_t len, const void *arg)
{
	struct ifla_cacheinfo ci;

	(void)arg;
	if (len < sizeof(ci))
		return 0;
	if (st_fetch(n->s, n->phase, a, &ci, sizeof(ci)))
		sb_printf(n->s->o,
			  "{max_reasm_len=%u, tstamp=%u, reachable_time=%u, retrans_time=%u}",
			  ci.max_reasm_len, ci.tstamp, ci.reachable_time, ci.retrans_time);
	return 1;
}

/* IFLA_INET6_TOKEN: an IPv6 address whatever the message's family. */
static int nla_in6_addr(struct nl *n, uint64_t a, uint32_t len, const void *arg)
{
	uint8_t af = n->af;
	int r;

	n->af = AF_INET6;
	r = len < 16 ? 0 : nla_inet(n, a, len, arg);
	n->af = af;
	return r;
}

static const struct nla_xlat inet6_flags_x = { &x_inet6_if_flags, "IF_???", 4 };
static const struct nla_xlat agm_x = { &x_in6_addr_gen_mode, "IN6_ADDR_GEN_MODE_???", 1 };

static const struct nla_desc inet6_nla[] = {
	[IFLA_INET6_FLAGS] = { nla_flags, &inet6_flags_x },
	[IFLA_INET6_CONF] = { nla_idx_array, &ipv6_conf },
	[IFLA_INET6_STATS] = { nla_idx_array, &ipv6_stats },
	[IFLA_INET6_CACHEINFO] = { nla_inet6_cacheinfo, NULL },
	[IFLA_INET6_ICMP6STATS] = { nla_idx_array, &icmp6_stats },
	[IFLA_INET6_TOKEN] = { nla_in6_addr, NULL },
	[IFLA_INET6_ADDR_GEN_MODE] = { nla_xval, &agm_x },
};
static const struct nla_set inet6_set = NLA_SET(&x_ifla_inet6, "IFLA_INET6_???", inet6_nla);

static int nla_af_inet(struct nl *n, uint64_t a, uint32_t len, const void *arg)
{
	(void)arg;
	nl_attrs(n, a, len, &inet_set);
	return 1;
}

static int nla_af_inet6(struct nl *n, uint64_t a, uint32_t len, const void *arg)
{
	(void)arg;
	nl_attrs(n, a, len, &inet6_set);
	return 1;
}

/* The attribute types of IFLA_AF_SPEC are address families. */
static const struct nla_desc af_spec_nla[] = {
	[AF_INET] = { nla_af_inet, NULL },
	[AF_INET6] = { nla_af_inet6, NULL },
};
static const struct nla_set af_spec_set = NLA_SET(&x_sock_family, "AF_???", af_spec_nla);

int nla_ifla_af_spec(struct nl *n, uint64_t a, uint32_t len, const void *arg)
{
	(void)arg;
	nl_attrs(n, a, len, &af_spec_set);
	return 1;
}

/* -------- IFLA_PROP_LIST, IFLA_PROTO_DOWN_REASON -------- */

static const struct nla_desc prop_nla[] = {
	[53] = { nla_str, NULL },	/* IFLA_ALT_IFNAME */
};
static const struct nla_set prop_set = NLA_SET(&x_ifla, "IFLA_???", prop_nla);

int nla_ifla_prop_list(struct nl *n, uint64_t a, uint32_t len, const void *arg)
{
	(void)arg;
	nl_attrs(n, a, len, &prop_set);
	return 1;
}

static const struct nla_desc reason_nla[] = {
	[1] = { nla_x32, NULL },	/* IFLA_PROTO_DOWN_REASON_MASK */
	[2] = { nla_x32, NULL },	/* IFLA_PROTO_DOWN_REASON_VALUE */
};
static const struct nla_set reason_set = NLA_SET(&x_ifla_proto_down_reason,
						 "IFLA_PROTO_DOWN_REASON_???", reason_nla);

int nla_ifla_proto_down_reason(struct nl *n, uint64_t a, uint32_t len, const void *arg)
{
	(void)arg;
	nl_attrs(n, a, len, &reason_set);
	return 1;
}
