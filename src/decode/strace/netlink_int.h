/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Netlink messages, decoded as strace 6.1 shows them (netlink.c): the
 * nlmsghdr walk, NLMSG_ERROR, attribute lists; per protocol payloads
 * (nl_route.c). Text output only: the JSON sink keeps the raw bytes.
 */
#ifndef SONDE_STRACE_NETLINK_INT_H
#define SONDE_STRACE_NETLINK_INT_H

#include <stdint.h>

struct st;
struct nlmsghdr;

/* What a buffer is being decoded with. */
struct nl {
	struct st *s;
	int phase;  /* memory the buffer is in */
	int proto;  /* NETLINK_ROUTE...; -1 when the socket's is unknown */
	uint8_t af; /* the address family of the message being decoded */
};

/*
 * An attribute's value printer: prints len bytes at a and returns 1, or
 * returns 0 without printing when the value does not fit its type
 * (strace then shows the bytes).
 */
typedef int (*nla_fn)(struct nl *n, uint64_t a, uint32_t len, const void *arg);

struct nla_desc {
	nla_fn fn;
	const void *arg;
};

/* An attribute list: names of its types, the default name, printers by
 * type. */
struct nla_set {
	const struct xlat *names;
	const char *dflt;
	const struct nla_desc *d;
	unsigned int n;
};

#define NLA_SET(x, dflt, tab) { x, dflt, tab, sizeof(tab) / sizeof(tab[0]) }

/* netlink.c */
void nl_attrs(struct nl *n, uint64_t a, uint32_t len, const struct nla_set *set);
/* Value printers for nla_desc (arg: see each). */
int nla_u8(struct nl *n, uint64_t a, uint32_t len, const void *arg);
int nla_u16(struct nl *n, uint64_t a, uint32_t len, const void *arg);
int nla_u32(struct nl *n, uint64_t a, uint32_t len, const void *arg);
int nla_u64(struct nl *n, uint64_t a, uint32_t len, const void *arg);
int nla_s32(struct nl *n, uint64_t a, uint32_t len, const void *arg);
int nla_x32(struct nl *n, uint64_t a, uint32_t len, const void *arg);
int nla_str(struct nl *n, uint64_t a, uint32_t len, const void *arg);
int nla_ifindex(struct nl *n, uint64_t a, uint32_t len, const void *arg);
int nla_hwaddr(struct nl *n, uint64_t a, uint32_t len, const void *arg);
/* An address of the message's family (n->af). */
int nla_inet(struct nl *n, uint64_t a, uint32_t len, const void *arg);
/* A flag set or a named value, arg a struct nla_xlat. */
struct nla_xlat {
	const struct xlat *x;
	const char *dflt;
	uint8_t size; /* bytes read */
};
int nla_flags(struct nl *n, uint64_t a, uint32_t len, const void *arg);
int nla_xval(struct nl *n, uint64_t a, uint32_t len, const void *arg);

/* An array of n members of esz (4 or 8) bytes printed with their index
 * named by x: [[SK_MEMINFO_RCVBUF]=131072, ...]; sgn: signed members. */
void nl_idx_array(struct nl *n, uint64_t a, uint32_t cnt, uint32_t esz, int sgn,
		  const struct xlat *x, const char *dflt);
/* A struct member after the first: ", name=". */
void nl_field(struct nl *n, const char *name);
/* A value of a table strace prints as a bare number when it has no name
 * (printxval with no default). */
void nl_xval_bare(struct nl *n, const struct xlat *x, uint64_t v);
/* The socket's memory counters, SK_MEMINFO_* indexed. */
int nla_meminfo(struct nl *n, uint64_t a, uint32_t len, const void *arg);

/* nl_route.c: the rtnetlink struct's tail: "..." when the payload is too
 * short (ok 0), the brace, then its attributes when the struct was read
 * (ok 1; 2: it could not be). */
void nl_tail(struct nl *n, int ok, uint64_t a, uint32_t len, size_t size,
	     const struct nla_set *set);
void nl_family(struct nl *n, const char *name);
/* The struct after its family byte: 1 when read, else 0 (the address
 * printed). */
int nl_fixed(struct nl *n, uint64_t a, void *p, size_t size);
/* A routing table number (RTA_TABLE, FRA_TABLE). */
int nla_rt_table(struct nl *n, uint64_t a, uint32_t len, const void *arg);

/* nl_link.c: the link attributes strace decodes nested or as structs. */
int nla_ifla_map(struct nl *n, uint64_t a, uint32_t len, const void *arg);
int nla_ifla_linkinfo(struct nl *n, uint64_t a, uint32_t len, const void *arg);
int nla_ifla_xdp(struct nl *n, uint64_t a, uint32_t len, const void *arg);
int nla_ifla_af_spec(struct nl *n, uint64_t a, uint32_t len, const void *arg);
int nla_ifla_prop_list(struct nl *n, uint64_t a, uint32_t len, const void *arg);
int nla_ifla_proto_down_reason(struct nl *n, uint64_t a, uint32_t len, const void *arg);
int nla_fd(struct nl *n, uint64_t a, uint32_t len, const void *arg);

/* nl_neigh.c: neighbours (struct ndmsg) and rules (struct fib_rule_hdr),
 * the payload at a, len bytes, whose family n->af holds. */
void nl_ndmsg(struct nl *n, uint64_t a, uint32_t len);
void nl_fib_rule(struct nl *n, uint64_t a, uint32_t len);

/* nl_genl.c: the generic netlink families of the printing host, by id. */
const struct xlat *nl_genl_families(void);

/* nl_tc.c: traffic control (struct tcmsg) and netconf (struct
 * netconfmsg) messages. */
void nl_tcmsg(struct nl *n, uint64_t a, uint32_t len);
void nl_netconf(struct nl *n, uint64_t a, uint32_t len);

/* nl_route.c, nl_diag.c: a NETLINK_ROUTE or NETLINK_SOCK_DIAG message's
 * payload; 0 when strace leaves it to the generic printers
 * (NLMSG_DONE). */
int nl_route_payload(struct nl *n, uint16_t type, uint64_t a, uint32_t len);
int nl_diag_payload(struct nl *n, const struct nlmsghdr *h, uint64_t a, uint32_t len);

extern const struct xlat x_nlmsg_ctl, x_nlmsg_route, x_nlmsg_sock_diag, x_nlmsg_audit,
	x_nlm_f, x_nlm_f_get, x_nlm_f_new, x_nlm_f_del, x_nlm_f_ack,
	x_nlmsgerr_attrs, x_nla_f, x_arphrd, x_iff, x_ifla, x_rtext_filter,
	x_ifa, x_ifa_f, x_rt_scope, x_rta, x_rtax, x_rt_table,
	x_rtprot, x_rtn, x_rtm_f, x_rtnh_f, x_iptos, x_tcp_states,
	x_tcp_state_flags, x_inet_diag_ext, x_inet_diag_attrs,
	x_inet_diag_req_attrs, x_shutdown_flags, x_sk_meminfo, x_unix_diag_show,
	x_unix_diag_attrs, x_netlink_diag_show, x_netlink_diag_attrs,
	x_netlink_diag_flags, x_packet_diag_show, x_ipv4_devconf, x_ipv6_devconf,
	x_ipstats_mib, x_icmp6_mib, x_ifla_inet, x_ifla_inet6, x_inet6_if_flags,
	x_in6_addr_gen_mode, x_ifla_xdp, x_xdp_attached, x_xdp_flags, x_ifla_info,
	x_ifla_events, x_ifla_proto_down_reason, x_nud, x_ntf, x_ntf_ext, x_nda,
	x_fr_act, x_fib_rule_flags, x_fra, x_netconfa, x_tca, x_tca_stats;

#endif
