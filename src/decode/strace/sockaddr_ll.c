// SPDX-License-Identifier: GPL-2.0
/*
 * Packet sockets as strace 6.1 shows them: socket's protocol, an
 * ethernet protocol in network order (htons(ETH_P_ALL)), and struct
 * sockaddr_ll:
 *
 *   {sa_family=AF_PACKET, sll_protocol=htons(ETH_P_ALL),
 *    sll_ifindex=if_nametoindex("lo"), sll_hatype=ARPHRD_ETHER,
 *    sll_pkttype=PACKET_HOST, sll_halen=6, sll_addr=[0x1, 0x2, ...]}
 */
#include <arpa/inet.h>
#include <linux/if_packet.h>
#include <stdio.h>
#include <string.h>

#include "decode/strace/strace_int.h"
#include "decode/strace/netlink_int.h"

XLAT_DEF(x_eth_p, 0,
	 XN(0x1, "ETH_P_802_3"), XN(0x2, "ETH_P_AX25"), XN(0x3, "ETH_P_ALL"),
	 XN(0x4, "ETH_P_802_2"), XN(0x5, "ETH_P_SNAP"), XN(0x6, "ETH_P_DDCMP"),
	 XN(0x7, "ETH_P_WAN_PPP"), XN(0x8, "ETH_P_PPP_MP"), XN(0x9, "ETH_P_LOCALTALK"),
	 XN(0xc, "ETH_P_CAN"), XN(0xd, "ETH_P_CANFD"), XN(0xe, "ETH_P_CANXL"),
	 XN(0x10, "ETH_P_PPPTALK"), XN(0x11, "ETH_P_TR_802_2"), XN(0x15, "ETH_P_MOBITEX"),
	 XN(0x16, "ETH_P_CONTROL"), XN(0x17, "ETH_P_IRDA"), XN(0x18, "ETH_P_ECONET"),
	 XN(0x19, "ETH_P_HDLC"), XN(0x1a, "ETH_P_ARCNET"), XN(0x1b, "ETH_P_DSA"),
	 XN(0x1c, "ETH_P_TRAILER"), XN(0x60, "ETH_P_LOOP"), XN(0xf5, "ETH_P_PHONET"),
	 XN(0xf6, "ETH_P_IEEE802154"), XN(0xf7, "ETH_P_CAIF"), XN(0xf8, "ETH_P_XDSA"),
	 XN(0xf9, "ETH_P_MAP"), XN(0xfa, "ETH_P_MCTP"), XN(0x200, "ETH_P_PUP"),
	 XN(0x201, "ETH_P_PUPAT"), XN(0x600, "ETH_P_802_3_MIN"), XN(0x800, "ETH_P_IP"),
	 XN(0x805, "ETH_P_X25"), XN(0x806, "ETH_P_ARP"), XN(0x8ff, "ETH_P_BPQ"),
	 XN(0xa00, "ETH_P_IEEEPUP"), XN(0xa01, "ETH_P_IEEEPUPAT"),
	 XN(0x22eb, "ETH_P_ERSPAN2"), XN(0x22f0, "ETH_P_TSN"), XN(0x4305, "ETH_P_BATMAN"),
	 XN(0x6000, "ETH_P_DEC"), XN(0x6001, "ETH_P_DNA_DL"), XN(0x6002, "ETH_P_DNA_RC"),
	 XN(0x6003, "ETH_P_DNA_RT"), XN(0x6004, "ETH_P_LAT"), XN(0x6005, "ETH_P_DIAG"),
	 XN(0x6006, "ETH_P_CUST"), XN(0x6007, "ETH_P_SCA"), XN(0x6558, "ETH_P_TEB"),
	 XN(0x8035, "ETH_P_RARP"), XN(0x809b, "ETH_P_ATALK"), XN(0x80f3, "ETH_P_AARP"),
	 XN(0x8100, "ETH_P_8021Q"), XN(0x8137, "ETH_P_IPX"), XN(0x86dd, "ETH_P_IPV6"),
	 XN(0x8808, "ETH_P_PAUSE"), XN(0x8809, "ETH_P_SLOW"), XN(0x883e, "ETH_P_WCCP"),
	 XN(0x8847, "ETH_P_MPLS_UC"), XN(0x8848, "ETH_P_MPLS_MC"),
	 XN(0x884c, "ETH_P_ATMMPOA"), XN(0x8863, "ETH_P_PPP_DISC"),
	 XN(0x8864, "ETH_P_PPP_SES"), XN(0x886c, "ETH_P_LINK_CTL"),
	 XN(0x8884, "ETH_P_ATMFATE"), XN(0x888e, "ETH_P_PAE"), XN(0x8899, "ETH_P_REALTEK"),
	 XN(0x88a2, "ETH_P_AOE"), XN(0x88a8, "ETH_P_8021AD"), XN(0x88b5, "ETH_P_802_EX1"),
	 XN(0x88be, "ETH_P_ERSPAN"), XN(0x88c7, "ETH_P_PREAUTH"), XN(0x88ca, "ETH_P_TIPC"),
	 XN(0x88cc, "ETH_P_LLDP"), XN(0x88e3, "ETH_P_MRP"), XN(0x88e5, "ETH_P_MACSEC"),
	 XN(0x88e7, "ETH_P_8021AH"), XN(0x88f5, "ETH_P_MVRP"), XN(0x88f7, "ETH_P_1588"),
	 XN(0x88f8, "ETH_P_NCSI"), XN(0x88fb, "ETH_P_PRP"), XN(0x8902, "ETH_P_CFM"),
	 XN(0x8906, "ETH_P_FCOE"), XN(0x890d, "ETH_P_TDLS"), XN(0x8914, "ETH_P_FIP"),
	 XN(0x8915, "ETH_P_IBOE"), XN(0x8917, "ETH_P_80221"), XN(0x892f, "ETH_P_HSR"),
	 XN(0x894f, "ETH_P_NSH"), XN(0x9000, "ETH_P_LOOPBACK"), XN(0x9100, "ETH_P_QINQ1"),
	 XN(0x9200, "ETH_P_QINQ2"), XN(0x9300, "ETH_P_QINQ3"), XN(0xdada, "ETH_P_EDSA"),
	 XN(0xdadb, "ETH_P_DSA_8021Q"), XN(0xe001, "ETH_P_DSA_A5PSW"),
	 XN(0xed3e, "ETH_P_IFE"), XN(0xfbfb, "ETH_P_AF_IUCV"));

XLAT_DEF(x_packet_type, 0,
	 XE(PACKET_HOST), XE(PACKET_BROADCAST), XE(PACKET_MULTICAST), XE(PACKET_OTHERHOST),
	 XE(PACKET_OUTGOING), XE(PACKET_LOOPBACK), XE(PACKET_USER), XE(PACKET_KERNEL));

void pr_eth_proto(struct st *s, uint16_t net)
{
	if (s->j) {
		pr_xval(s, &x_eth_p, ntohs(net), "ETH_P_???");
		return;
	}
	sb_puts(s->o, "htons(");
	pr_xval(s, &x_eth_p, ntohs(net), "ETH_P_???");
	sb_putc(s->o, ')');
}

/* sll_protocol: htons(ETH_P_IP); with -X the bytes, and that as a
 * comment. */
static void pr_sll_protocol(struct st *s, uint16_t net)
{
	const char *name = xlat_name(&x_eth_p, ntohs(net));
	char num[16], sym[64];

	if (s->j) {
		pr_eth_proto(s, net);
		return;
	}
	net_bytes(num, sizeof(num), &net, sizeof(net));
	if (name)
		snprintf(sym, sizeof(sym), "htons(%s)", name);
	else if (ntohs(net))
		snprintf(sym, sizeof(sym), "htons(%#x /* ETH_P_??? */)", ntohs(net));
	else
		snprintf(sym, sizeof(sym), "htons(0 /* ETH_P_??? */)");
	pr_symexpr(s, num, sym);
}

/* sll_addr: sll_halen bytes (at most the 8 it has, "..." past them) as
 * strace prints them, "%#02x" each; none when sll_halen is 0. */
static void pr_sll_addr(struct st *s, const struct sockaddr_ll *ll)
{
	size_t n = ll->sll_halen < sizeof(ll->sll_addr) ? ll->sll_halen : sizeof(ll->sll_addr);

	if (!ll->sll_halen)
		return;
	st_field(s, "sll_addr");
	st_arr_begin(s);
	for (size_t i = 0; i < n; i++) {
		st_elem(s);
		if (s->j)
			st_juint(s, ll->sll_addr[i]);
		else
			sb_printf(s->o, "%#02x", ll->sll_addr[i]);
	}
	if (n < ll->sll_halen && !s->j) {
		st_elem(s);
		sb_puts(s->o, "...");
	}
	st_arr_end(s);
}

void pr_sockaddr_ll(struct st *s, const uint8_t *p)
{
	struct sockaddr_ll ll;

	memcpy(&ll, p, sizeof(ll));
	st_field(s, "sll_protocol");
	pr_sll_protocol(s, ll.sll_protocol);
	st_field(s, "sll_ifindex");
	pr_ifindex(s, (unsigned int)ll.sll_ifindex);
	st_field(s, "sll_hatype");
	pr_xval(s, &x_arphrd, ll.sll_hatype, "ARPHRD_???");
	st_field(s, "sll_pkttype");
	pr_xval(s, &x_packet_type, ll.sll_pkttype, "PACKET_???");
	st_field(s, "sll_halen");
	pr_uint(s, ll.sll_halen);
	pr_sll_addr(s, &ll);
	st_obj_end(s);
}
