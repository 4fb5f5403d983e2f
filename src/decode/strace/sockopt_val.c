// SPDX-License-Identifier: GPL-2.0
/*
 * Socket option values of raw ICMP and packet sockets and a few
 * SOL_SOCKET ones, as strace 6.1 prints them in setsockopt and
 * getsockopt (the callers in sockopt.c checked the length each needs):
 *
 *   ICMP_FILTER       ~[ICMP_ECHOREPLY ICMP_DEST_UNREACH]
 *   PACKET_ADD_MEMBERSHIP  {mr_ifindex=..., mr_type=PACKET_MR_PROMISC,
 *                      mr_alen=6, mr_address=01:02:03:04:05:06}
 *   PACKET_RX_RING    {tp_block_size=4096, tp_block_nr=4, ...}
 *   SO_ATTACH_FILTER  {len=2, filter=0x7ffd...}
 *   SO_TXREHASH       [SOCK_TXREHASH_ENABLED]
 */
#include <linux/filter.h>
#include <linux/if_packet.h>
#include <stdio.h>
#include <string.h>

#include "decode/strace/strace_int.h"

XLAT_DEF(x_icmp_type, 0,
	 XN(0, "ICMP_ECHOREPLY"), XN(3, "ICMP_DEST_UNREACH"), XN(4, "ICMP_SOURCE_QUENCH"),
	 XN(5, "ICMP_REDIRECT"), XN(8, "ICMP_ECHO"), XN(11, "ICMP_TIME_EXCEEDED"),
	 XN(12, "ICMP_PARAMETERPROB"), XN(13, "ICMP_TIMESTAMP"),
	 XN(14, "ICMP_TIMESTAMPREPLY"), XN(15, "ICMP_INFO_REQUEST"),
	 XN(16, "ICMP_INFO_REPLY"), XN(17, "ICMP_ADDRESS"), XN(18, "ICMP_ADDRESSREPLY"));

XLAT_DEF(x_packet_mr, 0,
	 XN(0, "PACKET_MR_MULTICAST"), XN(1, "PACKET_MR_PROMISC"),
	 XN(2, "PACKET_MR_ALLMULTI"), XN(3, "PACKET_MR_UNICAST"));

XLAT_DEF(x_txrehash, 1,
	 XN(255, "SOCK_TXREHASH_DEFAULT"), XN(0, "SOCK_TXREHASH_DISABLED"),
	 XN(1, "SOCK_TXREHASH_ENABLED"));

/*
 * The ICMP types a raw socket filters out, as a set of 32 bits like a
 * signal mask: the set bits, or ~[the clear ones] when most are set.
 * strace reads the bits over all ones, so a short value sets the rest.
 */
void pr_icmp_filter(struct st *s, int phase, uint64_t a, int len)
{
	uint32_t bits = ~0u;
	size_t n = (size_t)len < sizeof(bits) ? (size_t)len : sizeof(bits);
	int inv;

	if (len <= 0) {
		pr_addr(s, a);
		return;
	}
	if (!st_fetch(s, phase, a, &bits, n))
		return;
	inv = __builtin_popcount(bits) > 16;
	if (inv && !s->j)
		sb_putc(s->o, '~');
	st_arr_begin(s);
	for (uint32_t i = 0; i < 32; i++) {
		if ((int)(~bits >> i & 1) != inv)
			continue;
		if (s->j)
			st_elem(s);
		else if (s->nitems[s->depth]++)
			sb_putc(s->o, ' ');
		pr_xval(s, &x_icmp_type, i, "ICMP_???");
	}
	st_arr_end(s);
}

void pr_hwaddr(struct st *s, const uint8_t *p, size_t n_raw, size_t n)
{
	char num[32 * 4 + 3], sym[32 * 3 + 1];
	size_t k = 0;

	if (n_raw > 32)
		n_raw = 32;
	if (n > n_raw)
		n = n_raw;
	net_bytes(num, sizeof(num), p, n_raw);
	sym[0] = 0;
	for (size_t i = 0; i < n; i++)
		k += (size_t)snprintf(sym + k, sizeof(sym) - k, "%s%02x", i ? ":" : "", p[i]);
	if (s->j)
		st_jstr(s, sym);
	else
		pr_symexpr(s, num, sym);
}

void pr_packet_mreq(struct st *s, uint64_t a, int len)
{
	struct packet_mreq m;
	size_t n;

	(void)len;
	if (!st_fetch(s, SONDE_PL_ENTRY, a, &m, sizeof(m)))
		return;
	st_obj_begin(s);
	st_field(s, "mr_ifindex");
	pr_ifindex(s, (unsigned int)m.mr_ifindex);
	st_field(s, "mr_type");
	pr_xval(s, &x_packet_mr, m.mr_type, "PACKET_MR_???");
	st_field(s, "mr_alen");
	pr_uint(s, m.mr_alen);
	st_field(s, "mr_address");
	/* mr_alen bytes (at most its 8) as a MAC address */
	n = m.mr_alen < sizeof(m.mr_address) ? m.mr_alen : sizeof(m.mr_address);
	pr_hwaddr(s, m.mr_address, n, n);
	st_obj_end(s);
}

void pr_tpacket_req(struct st *s, uint64_t a, int len)
{
	struct tpacket_req r;

	(void)len;
	if (!st_fetch(s, SONDE_PL_ENTRY, a, &r, sizeof(r)))
		return;
	st_obj_begin(s);
	pr_u32_field(s, "tp_block_size", r.tp_block_size);
	pr_u32_field(s, "tp_block_nr", r.tp_block_nr);
	pr_u32_field(s, "tp_frame_size", r.tp_frame_size);
	pr_u32_field(s, "tp_frame_nr", r.tp_frame_nr);
	st_obj_end(s);
}

/* A classic BPF program given to a socket: its length and where its
 * instructions are (the recorder does not read them: strace -v shows
 * them). */
void pr_sock_fprog_set(struct st *s, uint64_t a, int len)
{
	struct sock_fprog p;

	(void)len;
	if (!st_fetch(s, SONDE_PL_ENTRY, a, &p, sizeof(p)))
		return;
	st_obj_begin(s);
	pr_u32_field(s, "len", p.len);
	st_field(s, "filter");
	pr_addr(s, (uint64_t)(uintptr_t)p.filter);
	st_obj_end(s);
}

void pr_txrehash(struct st *s, uint64_t a, int len)
{
	int v;

	(void)len;
	if (!st_fetch(s, SONDE_PL_ENTRY, a, &v, sizeof(v)))
		return;
	st_arr_begin(s);
	st_elem(s);
	pr_xval(s, &x_txrehash, (uint32_t)v, "SOCK_TXREHASH_???");
	st_arr_end(s);
}
