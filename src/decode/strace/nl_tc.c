// SPDX-License-Identifier: GPL-2.0
/*
 * Traffic control messages (struct tcmsg and TCA_* attributes: `tc qdisc
 * show`, classes, filters, chains) and per-device IP settings (struct
 * netconfmsg, NETCONFA_*: `ip netconf`) as strace 6.1 shows them. A
 * qdisc's options and extended statistics depend on its kind and stay
 * bytes, as strace leaves them.
 */
#include <linux/netlink.h>
#include <linux/gen_stats.h>
#include <linux/netconf.h>
#include <linux/pkt_sched.h>
#include <linux/rtnetlink.h>
#include <string.h>
#include <sys/socket.h>

#include "decode/strace/strace_int.h"
#include "decode/strace/netlink_int.h"

/* struct gnet_stats_basic: a u64 then a u32, packed. */
static int nla_stats_basic(struct nl *n, uint64_t a, uint32_t len, const void *arg)
{
	uint8_t b[12];
	uint64_t bytes;
	uint32_t packets;

	(void)arg;
	if (len < sizeof(b))
		return 0;
	if (!st_fetch(n->s, n->phase, a, b, sizeof(b)))
		return 1;
	memcpy(&bytes, b, sizeof(bytes));
	memcpy(&packets, b + 8, sizeof(packets));
	sb_printf(n->s->o, "{bytes=%llu, packets=%u}", (unsigned long long)bytes, packets);
	return 1;
}

static int nla_rate_est(struct nl *n, uint64_t a, uint32_t len, const void *arg)
{
	struct gnet_stats_rate_est r;

	(void)arg;
	if (len < sizeof(r))
		return 0;
	if (st_fetch(n->s, n->phase, a, &r, sizeof(r)))
		sb_printf(n->s->o, "{bps=%u, pps=%u}", r.bps, r.pps);
	return 1;
}

static int nla_rate_est64(struct nl *n, uint64_t a, uint32_t len, const void *arg)
{
	struct gnet_stats_rate_est64 r;

	(void)arg;
	if (len < sizeof(r))
		return 0;
	if (st_fetch(n->s, n->phase, a, &r, sizeof(r)))
		sb_printf(n->s->o, "{bps=%llu, pps=%llu}", (unsigned long long)r.bps,
			  (unsigned long long)r.pps);
	return 1;
}

static int nla_stats_queue(struct nl *n, uint64_t a, uint32_t len, const void *arg)
{
	struct gnet_stats_queue q;

	(void)arg;
	if (len < sizeof(q))
		return 0;
	if (st_fetch(n->s, n->phase, a, &q, sizeof(q)))
		sb_printf(n->s->o, "{qlen=%u, backlog=%u, drops=%u, requeues=%u, overlimits=%u}",
			  q.qlen, q.backlog, q.drops, q.requeues, q.overlimits);
	return 1;
}

static const struct nla_desc stats2_nla[] = {
	[TCA_STATS_BASIC] = { nla_stats_basic, NULL },
	[TCA_STATS_RATE_EST] = { nla_rate_est, NULL },
	[TCA_STATS_QUEUE] = { nla_stats_queue, NULL },
	[TCA_STATS_RATE_EST64] = { nla_rate_est64, NULL },
	[7] = { nla_stats_basic, NULL },	/* TCA_STATS_BASIC_HW */
	[8] = { nla_u64, NULL },		/* TCA_STATS_PKT64 */
};
static const struct nla_set stats2_set = NLA_SET(&x_tca_stats, "TCA_STATS_???", stats2_nla);

static int nla_stats2(struct nl *n, uint64_t a, uint32_t len, const void *arg)
{
	(void)arg;
	nl_attrs(n, a, len, &stats2_set);
	return 1;
}

/* struct tc_stats, the old statistics. */
static int nla_tc_stats(struct nl *n, uint64_t a, uint32_t len, const void *arg)
{
	struct tc_stats t;

	(void)arg;
	if (len < sizeof(t))
		return 0;
	if (st_fetch(n->s, n->phase, a, &t, sizeof(t)))
		sb_printf(n->s->o,
			  "{bytes=%llu, packets=%u, drops=%u, overlimits=%u, bps=%u, pps=%u, "
			  "qlen=%u, backlog=%u}",
			  (unsigned long long)t.bytes, t.packets, t.drops, t.overlimits, t.bps,
			  t.pps, t.qlen, t.backlog);
	return 1;
}

static const struct nla_desc tca_nla[] = {
	[TCA_KIND] = { nla_str, NULL },
	[TCA_STATS] = { nla_tc_stats, NULL },
	[TCA_FCNT] = { nla_u32, NULL },
	[TCA_STATS2] = { nla_stats2, NULL },
	[11] = { nla_u32, NULL },	/* TCA_CHAIN */
	[12] = { nla_u8, NULL },	/* TCA_HW_OFFLOAD */
	[13] = { nla_u32, NULL },	/* TCA_INGRESS_BLOCK */
	[14] = { nla_u32, NULL },	/* TCA_EGRESS_BLOCK */
};
static const struct nla_set tca_set = NLA_SET(&x_tca, "TCA_???", tca_nla);

void nl_tcmsg(struct nl *n, uint64_t a, uint32_t len)
{
	struct tcmsg m;
	int ok = 0;

	nl_family(n, "tcm_family");
	if (len >= sizeof(m)) {
		ok = nl_fixed(n, a, &m, sizeof(m)) ? 1 : 2;
		if (ok == 1) {
			sb_puts(n->s->o, "tcm_ifindex=");
			pr_ifindex(n->s, (unsigned int)m.tcm_ifindex);
			sb_printf(n->s->o, ", tcm_handle=%u, tcm_parent=%u, tcm_info=%u",
				  m.tcm_handle, m.tcm_parent, m.tcm_info);
		}
	}
	nl_tail(n, ok, a, len, sizeof(m), &tca_set);
}

static const struct nla_desc netconf_nla[] = {
	[NETCONFA_IFINDEX] = { nla_ifindex, NULL },
	[NETCONFA_FORWARDING] = { nla_s32, NULL },
	[NETCONFA_RP_FILTER] = { nla_s32, NULL },
	[NETCONFA_MC_FORWARDING] = { nla_s32, NULL },
	[NETCONFA_PROXY_NEIGH] = { nla_s32, NULL },
	[NETCONFA_IGNORE_ROUTES_WITH_LINKDOWN] = { nla_s32, NULL },
	[7] = { nla_s32, NULL },	/* NETCONFA_INPUT */
	[8] = { nla_s32, NULL },	/* NETCONFA_BC_FORWARDING */
};
static const struct nla_set netconf_set = NLA_SET(&x_netconfa, "NETCONFA_???", netconf_nla);

/* struct netconfmsg is its family alone. */
void nl_netconf(struct nl *n, uint64_t a, uint32_t len)
{
	sb_puts(n->s->o, "{ncm_family=");
	pr_xval(n->s, &x_sock_family, n->af, "AF_???");
	sb_putc(n->s->o, '}');
	if (len > NLMSG_ALIGN(sizeof(struct netconfmsg))) {
		sb_puts(n->s->o, ", ");
		nl_attrs(n, a + NLMSG_ALIGN(sizeof(struct netconfmsg)),
			 len - NLMSG_ALIGN(sizeof(struct netconfmsg)), &netconf_set);
	}
}
