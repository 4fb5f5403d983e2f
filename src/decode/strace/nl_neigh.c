// SPDX-License-Identifier: GPL-2.0
/*
 * Neighbours (struct ndmsg, NDA_* attributes: `ip neigh`) and routing
 * rules (struct fib_rule_hdr, FRA_*: `ip rule`) as strace 6.1 shows them.
 */
#include <arpa/inet.h>
#include <endian.h>
#include <linux/netlink.h>
#include <linux/fib_rules.h>
#include <linux/neighbour.h>
#include <sys/socket.h>

#include "decode/strace/strace_int.h"
#include "decode/strace/netlink_int.h"

static int nla_nda_cacheinfo(struct nl *n, uint64_t a, uint32_t len, const void *arg)
{
	struct nda_cacheinfo ci;

	(void)arg;
	if (len < sizeof(ci))
		return 0;
	if (st_fetch(n->s, n->phase, a, &ci, sizeof(ci)))
		sb_printf(n->s->o,
			  "{ndm_confirmed=%u, ndm_used=%u, ndm_updated=%u, ndm_refcnt=%u}",
			  ci.ndm_confirmed, ci.ndm_used, ci.ndm_updated, ci.ndm_refcnt);
	return 1;
}

/* A port in network order: htons(4789), whatever -X says. */
static int nla_be16(struct nl *n, uint64_t a, uint32_t len, const void *arg)
{
	uint16_t v;

	(void)arg;
	if (len < sizeof(v))
		return 0;
	if (st_fetch(n->s, n->phase, a, &v, sizeof(v)))
		sb_printf(n->s->o, "htons(%u)", ntohs(v));
	return 1;
}

static const struct nla_xlat ip_proto_x = { &x_ipproto, "IPPROTO_???", 0 };
static const struct nla_xlat ntf_ext_x = { &x_ntf_ext, "NTF_EXT_???", 4 };
static const struct nla_xlat nud_x = { &x_nud, "NUD_???", 2 };
static const struct nla_xlat ntf_x = { &x_ntf, "NTF_???", 1 };

static const struct nla_desc nda_nla[] = {
	[NDA_DST] = { nla_inet, NULL },
	[NDA_LLADDR] = { nla_hwaddr, NULL },
	[NDA_CACHEINFO] = { nla_nda_cacheinfo, NULL },
	[NDA_PROBES] = { nla_u32, NULL },
	[NDA_VLAN] = { nla_u16, NULL },
	[NDA_PORT] = { nla_be16, NULL },
	[NDA_VNI] = { nla_u32, NULL },
	[NDA_IFINDEX] = { nla_ifindex, NULL },
	[NDA_MASTER] = { nla_ifindex, NULL },
	[NDA_LINK_NETNSID] = { nla_u32, NULL },
	[NDA_SRC_VNI] = { nla_u32, NULL },
	[12] = { nla_xval, &ip_proto_x },	/* NDA_PROTOCOL */
	[13] = { nla_u32, NULL },		/* NDA_NH_ID */
	[15] = { nla_flags, &ntf_ext_x },	/* NDA_FLAGS_EXT */
	[16] = { nla_flags, &nud_x },		/* NDA_NDM_STATE_MASK */
	[17] = { nla_flags, &ntf_x },		/* NDA_NDM_FLAGS_MASK */
};
static const struct nla_set nda_set = NLA_SET(&x_nda, "NDA_???", nda_nla);

void nl_ndmsg(struct nl *n, uint64_t a, uint32_t len)
{
	struct ndmsg m;
	int ok = 0;

	nl_family(n, "ndm_family");
	if (len >= sizeof(m)) {
		ok = nl_fixed(n, a, &m, sizeof(m)) ? 1 : 2;
		if (ok == 1) {
			sb_puts(n->s->o, "ndm_ifindex=");
			pr_ifindex(n->s, (unsigned int)m.ndm_ifindex);
			nl_field(n, "ndm_state");
			pr_flags(n->s, &x_nud, m.ndm_state, "NUD_???");
			nl_field(n, "ndm_flags");
			pr_flags(n->s, &x_ntf, m.ndm_flags, "NTF_???");
			nl_field(n, "ndm_type");
			pr_xval(n->s, &x_rtn, m.ndm_type, "RTN_???");
		}
	}
	nl_tail(n, ok, a, len, sizeof(m), &nda_set);
}

/* struct fib_rule_uid_range and fib_rule_port_range: {start=, end=}. */
static int nla_range(struct nl *n, uint64_t a, uint32_t len, const void *arg)
{
	/* arg: the width of a bound, 4 (uids) or 2 (ports) */
	size_t w = (size_t)(uintptr_t)arg;
	uint32_t v[2] = { 0, 0 };
	uint16_t p[2];

	if (len < 2 * w)
		return 0;
	if (!st_fetch(n->s, n->phase, a, w == 4 ? (void *)v : (void *)p, 2 * w))
		return 1;
	if (w == 2) {
		v[0] = p[0];
		v[1] = p[1];
	}
	sb_printf(n->s->o, "{start=%u, end=%u}", v[0], v[1]);
	return 1;
}

/* A tunnel id in network order: htobe64(N). */
static int nla_be64(struct nl *n, uint64_t a, uint32_t len, const void *arg)
{
	uint64_t v;

	(void)arg;
	if (len < sizeof(v))
		return 0;
	if (st_fetch(n->s, n->phase, a, &v, sizeof(v)))
		sb_printf(n->s->o, "htobe64(%llu)", (unsigned long long)be64toh(v));
	return 1;
}

static const struct nla_xlat rt_proto_x = { &x_rtprot, "RTPROT_???", 1 };

static const struct nla_desc fra_nla[] = {
	[FRA_DST] = { nla_inet, NULL },
	[FRA_SRC] = { nla_inet, NULL },
	[FRA_IIFNAME] = { nla_str, NULL },
	[FRA_GOTO] = { nla_u32, NULL },
	[FRA_PRIORITY] = { nla_u32, NULL },
	[FRA_FWMARK] = { nla_u32, NULL },
	[FRA_FLOW] = { nla_u32, NULL },
	[FRA_TUN_ID] = { nla_be64, NULL },
	[FRA_SUPPRESS_IFGROUP] = { nla_u32, NULL },
	[FRA_SUPPRESS_PREFIXLEN] = { nla_u32, NULL },
	[FRA_TABLE] = { nla_rt_table, NULL },
	[FRA_FWMASK] = { nla_u32, NULL },
	[FRA_OIFNAME] = { nla_str, NULL },
	[19] = { nla_u8, NULL },		/* FRA_L3MDEV */
	[20] = { nla_range, (void *)4 },	/* FRA_UID_RANGE */
	[21] = { nla_xval, &rt_proto_x },	/* FRA_PROTOCOL */
	[22] = { nla_xval, &ip_proto_x },	/* FRA_IP_PROTO */
	[23] = { nla_range, (void *)2 },	/* FRA_SPORT_RANGE */
	[24] = { nla_range, (void *)2 },	/* FRA_DPORT_RANGE */
};
static const struct nla_set fra_set = NLA_SET(&x_fra, "FRA_???", fra_nla);

void nl_fib_rule(struct nl *n, uint64_t a, uint32_t len)
{
	struct fib_rule_hdr m;
	int ok = 0;

	nl_family(n, "family");
	if (len >= sizeof(m)) {
		ok = nl_fixed(n, a, &m, sizeof(m)) ? 1 : 2;
		if (ok == 1) {
			sb_printf(n->s->o, "dst_len=%u, src_len=%u", m.dst_len, m.src_len);
			nl_field(n, "tos");
			pr_flags(n->s, &x_iptos, m.tos, "IPTOS_TOS_???");
			nl_field(n, "table");
			pr_xval(n->s, &x_rt_table, m.table, "RT_TABLE_???");
			nl_field(n, "action");
			pr_xval(n->s, &x_fr_act, m.action, "FR_ACT_???");
			nl_field(n, "flags");
			pr_flags(n->s, &x_fib_rule_flags, m.flags, "FIB_RULE_???");
		}
	}
	nl_tail(n, ok, a, len, sizeof(m), &fra_set);
}
