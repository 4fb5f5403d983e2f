// SPDX-License-Identifier: GPL-2.0
/*
 * Socket ioctls (request type 0x89, <linux/sockios.h>), as strace 6.1
 * decodes them whatever the descriptor: the interface requests' struct
 * ifreq (the name, then the member the request reads or writes: an
 * address, the hardware address, the flags, the MTU...), SIOCGIFCONF's
 * list of interfaces, the int requests (owner, process group, out-of-band
 * mark, queue), the bridge requests. A "get" request prints the name at
 * entry and the value at exit; a failed one only the name. The recorder
 * reads the 40 bytes of a struct ifreq and SIOCGIFCONF's list
 * (bpf/ioctl.h). An i386 caller's ifreq and ifconf hold 32-bit longs and
 * pointers: those calls keep the generic form (docs/strace-differences.md).
 */
#include <linux/if.h>
#include <linux/if_arp.h>
#include <linux/sockios.h>
#include <string.h>
#include <sys/ioctl.h>

#include "decode/strace/netlink_int.h"
#include "decode/strace/strace_int.h"

#define IFREQ_SIZE 40 /* struct ifreq on x86-64 */

/* The bytes of a link-layer address of device type t, the kernel's
 * address length of that type (ETH_ALEN...), as strace takes them; all
 * of sa_data for the types without one. */
static size_t hwaddr_len(unsigned int t, size_t max)
{
	static const struct {
		uint16_t type;
		uint8_t len;
	} lens[] = {
		{ ARPHRD_NETROM, 7 },
		{ ARPHRD_ETHER, 6 },
		{ ARPHRD_AX25, 7 },
		{ ARPHRD_IEEE802, 6 },
		{ ARPHRD_ARCNET, 1 },
		{ ARPHRD_DLCI, 2 },
		{ ARPHRD_IEEE1394, 16 },
		{ ARPHRD_EUI64, 8 },
		{ ARPHRD_INFINIBAND, 20 },
		{ ARPHRD_SLIP, 0 },
		{ ARPHRD_ROSE, 5 },
		{ ARPHRD_X25, 0 },
		{ ARPHRD_CAN, 0 },
		{ ARPHRD_MCTP, 1 },
		{ ARPHRD_PPP, 0 },
		{ ARPHRD_RAWHDLC, 0 },
		{ ARPHRD_RAWIP, 0 },
		{ ARPHRD_TUNNEL, 4 },
		{ ARPHRD_TUNNEL6, 16 },
		{ ARPHRD_LOOPBACK, 6 },
		{ ARPHRD_LOCALTLK, 1 },
		{ ARPHRD_FDDI, 6 },
		{ ARPHRD_SIT, 4 },
		{ ARPHRD_IPDDP, 0 },
		{ ARPHRD_IPGRE, 4 },
		{ ARPHRD_PIMREG, 0 },
		{ ARPHRD_HIPPI, 6 },
		{ ARPHRD_IRDA, 4 },
		{ ARPHRD_IEEE80211, 6 },
		{ ARPHRD_IEEE80211_PRISM, 6 },
		{ ARPHRD_IEEE80211_RADIOTAP, 6 },
		{ ARPHRD_IEEE802154, 8 },
		{ ARPHRD_IEEE802154_MONITOR, 8 },
		{ ARPHRD_PHONET, 1 },
		{ ARPHRD_PHONET_PIPE, 1 },
		{ ARPHRD_CAIF, 0 },
		{ ARPHRD_IP6GRE, 16 },
		{ ARPHRD_NETLINK, 0 },
		{ ARPHRD_6LOWPAN, 8 },
		{ ARPHRD_VSOCKMON, 0 },
	};

	for (size_t i = 0; i < sizeof(lens) / sizeof(lens[0]); i++)
		if (lens[i].type == t)
			return lens[i].len < max ? lens[i].len : max;
	return max;
}

/* {sa_family=ARPHRD_ETHER, sa_data=52:54:00:12:34:56}: -X raw the 14
 * bytes in hex, -X verbose both. */
static void pr_ifr_hwaddr(struct st *s, const struct sockaddr *a)
{
	st_obj_begin(s);
	st_field(s, "sa_family");
	pr_xval(s, &x_arphrd, a->sa_family, "ARPHRD_???");
	st_field(s, "sa_data");
	pr_hwaddr(s, (const uint8_t *)a->sa_data, sizeof(a->sa_data),
		  hwaddr_len(a->sa_family, sizeof(a->sa_data)));
	st_obj_end(s);
}

/* A name of IFNAMSIZ bytes: up to its NUL, "..." when it has none. */
static void pr_ifname(struct st *s, const char *field, const char *name)
{
	size_t n = strnlen(name, IFNAMSIZ);

	st_field(s, field);
	pr_quoted(s, (const uint8_t *)name, n < IFNAMSIZ ? n : IFNAMSIZ - 1, 0, n == IFNAMSIZ, 0);
}

static void pr_ifmap(struct st *s, const struct ifmap *m)
{
	st_field(s, "ifr_map");
	st_obj_begin(s);
	pr_hex_field(s, "mem_start", m->mem_start);
	pr_hex_field(s, "mem_end", m->mem_end);
	pr_hex_field(s, "base_addr", m->base_addr);
	pr_hex_field(s, "irq", m->irq);
	pr_hex_field(s, "dma", m->dma);
	pr_hex_field(s, "port", m->port);
	st_obj_end(s);
}

static void pr_addr_field(struct st *s, const char *name, const struct sockaddr *a)
{
	st_field(s, name);
	pr_sockaddr_bytes(s, (const uint8_t *)a, sizeof(*a));
}

/* The member of the union request req reads or writes. */
static void pr_ifr_value(struct st *s, uint32_t req, const struct ifreq *r)
{
	switch (req) {
	case SIOCSIFADDR:
	case SIOCGIFADDR:
		return pr_addr_field(s, "ifr_addr", &r->ifr_addr);
	case SIOCSIFDSTADDR:
	case SIOCGIFDSTADDR:
		return pr_addr_field(s, "ifr_dstaddr", &r->ifr_dstaddr);
	case SIOCSIFBRDADDR:
	case SIOCGIFBRDADDR:
		return pr_addr_field(s, "ifr_broadaddr", &r->ifr_broadaddr);
	case SIOCSIFNETMASK:
	case SIOCGIFNETMASK:
		return pr_addr_field(s, "ifr_netmask", &r->ifr_netmask);
	case SIOCADDMULTI:
	case SIOCDELMULTI:
	case SIOCGIFHWADDR:
	case SIOCSIFHWADDR:
	case SIOCSIFHWBROADCAST:
		st_field(s, "ifr_hwaddr");
		return pr_ifr_hwaddr(s, &r->ifr_hwaddr);
	case SIOCSIFFLAGS:
	case SIOCGIFFLAGS:
		st_field(s, "ifr_flags");
		return pr_flags(s, &x_iff, (uint16_t)r->ifr_flags, "IFF_???");
	case SIOCGIFINDEX:
		return pr_int_field(s, "ifr_ifindex", r->ifr_ifindex);
	case SIOCSIFMETRIC:
	case SIOCGIFMETRIC:
		return pr_int_field(s, "ifr_metric", r->ifr_metric);
	case SIOCSIFMTU:
	case SIOCGIFMTU:
		return pr_int_field(s, "ifr_mtu", r->ifr_mtu);
	case SIOCSIFSLAVE:
	case SIOCGIFSLAVE:
		return pr_ifname(s, "ifr_slave", r->ifr_slave);
	case SIOCSIFNAME:
		return pr_ifname(s, "ifr_newname", r->ifr_newname);
	case SIOCGIFNAME:
		return pr_ifname(s, "ifr_name", r->ifr_name);
	case SIOCSIFTXQLEN:
	case SIOCGIFTXQLEN:
		return pr_int_field(s, "ifr_qlen", r->ifr_qlen);
	case SIOCSIFMAP:
	case SIOCGIFMAP:
		return pr_ifmap(s, &r->ifr_map);
	}
}

/* A "set": the name and the value, both given. */
static void pr_ifreq_set(struct st *s, uint32_t req, uint64_t a)
{
	struct ifreq r;

	if (!st_fetch(s, SONDE_PL_ENTRY, a, &r, IFREQ_SIZE))
		return;
	st_obj_begin(s);
	pr_ifname(s, "ifr_name", r.ifr_name);
	pr_ifr_value(s, req, &r);
	st_obj_end(s);
}

/* A "get": what names the interface at entry, the value at exit. */
static void pr_ifreq_get(struct st *s, uint32_t req, uint64_t a)
{
	struct ifreq r;

	if (!st_fetch(s, SONDE_PL_ENTRY, a, &r, IFREQ_SIZE))
		return;
	st_obj_begin(s);
	if (req == SIOCGIFNAME)
		pr_int_field(s, "ifr_ifindex", r.ifr_ifindex);
	else
		pr_ifname(s, "ifr_name", r.ifr_name);
	st_entry_end(s);
	if (st_ok(s) && st_peek(s, SONDE_PL_EXIT, a, &r, IFREQ_SIZE))
		pr_ifr_value(s, req, &r);
	st_obj_end(s);
}

/* ifc_len: "80 / * 2 * sizeof(struct ifreq) * /" when whole ifreqs. */
static void pr_ifc_len(struct st *s, int len)
{
	unsigned int n = (unsigned int)len / IFREQ_SIZE;

	if (s->j) {
		st_jint(s, len);
		return;
	}
	sb_printf(s->o, "%d", len);
	if (len > 0 && n * IFREQ_SIZE == (unsigned int)len)
		sb_printf(s->o, " /* %u * sizeof(struct ifreq) */", n);
}

static void pr_ifconf_ifreq(struct st *s, const void *e)
{
	struct ifreq r;

	memcpy(&r, e, sizeof(r));
	st_obj_begin(s);
	pr_ifname(s, "ifr_name", r.ifr_name);
	pr_addr_field(s, "ifr_addr", &r.ifr_addr);
	st_obj_end(s);
}

/*
 * SIOCGIFCONF: with no buffer the kernel says the length the list needs;
 * with one it fills it and says the length it used ("640 => 80" when
 * that differs from what was given). JSON: "ifc_len" is the length
 * given, "ifc_len_out" the one returned.
 */
static void pr_ifconf(struct st *s, uint64_t a)
{
	struct ifconf in, out;
	int have_out;

	if (!st_fetch(s, SONDE_PL_ENTRY, a, &in, sizeof(in)))
		return;
	st_obj_begin(s);
	st_field(s, "ifc_len");
	if (in.ifc_buf || s->j)
		pr_ifc_len(s, in.ifc_len);
	st_entry_end(s);
	have_out = st_ok(s) && st_peek(s, SONDE_PL_EXIT, a, &out, sizeof(out));
	if (have_out && (!in.ifc_buf || in.ifc_len != out.ifc_len)) {
		if (s->j)
			st_jkey(s, "ifc_len_out");
		else if (in.ifc_buf)
			sb_puts(s->o, " => ");
		pr_ifc_len(s, out.ifc_len);
	} else if (!have_out && !in.ifc_buf && !s->j) {
		pr_ifc_len(s, in.ifc_len);
	}
	st_field(s, "ifc_buf");
	if (!have_out || !in.ifc_buf)
		pr_addr(s, (uint64_t)(uintptr_t)in.ifc_buf);
	else
		pr_mem_array_of(s, SONDE_PL_EXIT, (uint64_t)(uintptr_t)out.ifc_buf,
				(unsigned int)out.ifc_len / IFREQ_SIZE, IFREQ_SIZE,
				pr_ifconf_ifreq);
	st_obj_end(s);
}

/* ioctl_sock's share of the int requests; 1 when req is one. */
static int ioctl_sock_int(struct st *s, uint32_t req, uint64_t a)
{
	switch (req) {
	case FIOGETOWN:
	case SIOCATMARK:
	case SIOCGIFENCAP:
	case SIOCGPGRP:
	case SIOCOUTQNSD:
		st_sep(s);
		ps_int_out(s, a);
		return 1;
	case FIOSETOWN:
	case SIOCSIFENCAP:
	case SIOCSPGRP:
		st_sep(s);
		ps_int(s, SONDE_PL_ENTRY, a);
		return 1;
	}
	return 0;
}

/* The requests strace shows the argument of as an address (NULL for 0):
 * routes, ARP, bonding, time stamps... */
static int sock_req_addr(uint32_t req)
{
	static const uint32_t reqs[] = {
		SIOCADDDLCI,
		SIOCADDRT,
		SIOCBONDCHANGEACTIVE,
		SIOCBONDENSLAVE,
		SIOCBONDINFOQUERY,
		SIOCBONDRELEASE,
		SIOCBONDSETHWADDR,
		SIOCBONDSLAVEINFOQUERY,
		SIOCDARP,
		SIOCDELDLCI,
		SIOCDELRT,
		SIOCDIFADDR,
		SIOCDRARP,
		SIOCETHTOOL,
		SIOCGARP,
		SIOCGHWTSTAMP,
		SIOCGIFBR,
		SIOCGIFCOUNT,
		SIOCGIFMEM,
		SIOCGIFPFLAGS,
		SIOCGIFVLAN,
		SIOCGMIIPHY,
		SIOCGMIIREG,
		SIOCGRARP,
		SIOCGSKNS,
		SIOCGSTAMP_OLD,
		SIOCGSTAMP_NEW,
		SIOCGSTAMPNS_OLD,
		SIOCGSTAMPNS_NEW,
		SIOCRTMSG,
		SIOCSARP,
		SIOCSHWTSTAMP,
		SIOCSIFBR,
		SIOCSIFLINK,
		SIOCSIFMEM,
		SIOCSIFPFLAGS,
		SIOCSIFVLAN,
		SIOCSMIIREG,
		SIOCSRARP,
		SIOCWANDEV,
	};

	for (size_t i = 0; i < sizeof(reqs) / sizeof(reqs[0]); i++)
		if (reqs[i] == req)
			return 1;
	return 0;
}

int ioctl_sock(struct st *s, uint32_t req, uint64_t a)
{
	struct ifreq r;

	if (((req >> 8) & 0xff) != 0x89 || (s->sc->hdr.flags & SONDE_SC_COMPAT))
		return 0;
	if (ioctl_sock_int(s, req, a))
		return 1;
	if (sock_req_addr(req)) {
		st_sep(s);
		pr_addr(s, a);
		return 1;
	}
	st_sep(s);
	switch (req) {
	case SIOCGIFCONF:
		pr_ifconf(s, a);
		return 1;
	case SIOCBRADDBR:
	case SIOCBRDELBR:
		pr_cstr_max(s, SONDE_PL_ENTRY, a, IFNAMSIZ - 1);
		return 1;
	case SIOCBRADDIF:
	case SIOCBRDELIF:
		if (!st_fetch(s, SONDE_PL_ENTRY, a, &r, offsetof(struct ifreq, ifr_ifindex) + 4))
			return 1;
		st_obj_begin(s);
		st_field(s, "ifr_ifindex");
		pr_ifindex(s, (unsigned int)r.ifr_ifindex);
		st_obj_end(s);
		return 1;
	case SIOCADDMULTI:
	case SIOCDELMULTI:
	case SIOCSIFADDR:
	case SIOCSIFBRDADDR:
	case SIOCSIFDSTADDR:
	case SIOCSIFFLAGS:
	case SIOCSIFHWADDR:
	case SIOCSIFHWBROADCAST:
	case SIOCSIFMAP:
	case SIOCSIFMETRIC:
	case SIOCSIFMTU:
	case SIOCSIFNAME:
	case SIOCSIFNETMASK:
	case SIOCSIFSLAVE:
	case SIOCSIFTXQLEN:
		pr_ifreq_set(s, req, a);
		return 1;
	case SIOCGIFADDR:
	case SIOCGIFBRDADDR:
	case SIOCGIFDSTADDR:
	case SIOCGIFFLAGS:
	case SIOCGIFHWADDR:
	case SIOCGIFINDEX:
	case SIOCGIFMAP:
	case SIOCGIFMETRIC:
	case SIOCGIFMTU:
	case SIOCGIFNAME:
	case SIOCGIFNETMASK:
	case SIOCGIFSLAVE:
	case SIOCGIFTXQLEN:
		pr_ifreq_get(s, req, a);
		return 1;
	}
	/* the others: the argument in hex, as for any request */
	pr_hex(s, a);
	return 1;
}
