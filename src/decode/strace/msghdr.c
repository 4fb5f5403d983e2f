// SPDX-License-Identifier: GPL-2.0
/*
 * struct msghdr and its control messages, and the calls that pass them
 * (sendmsg, recvmsg, sendmmsg, recvmmsg), in strace's syntax:
 *   {msg_name={sa_family=AF_INET, ...}, msg_namelen=128 => 16,
 *    msg_iov=[...], msg_iovlen=1, msg_control=[{cmsg_len=28,
 *    cmsg_level=SOL_IP, cmsg_type=IP_PKTINFO, cmsg_data={...}}],
 *    msg_controllen=32, msg_flags=MSG_TRUNC}
 * A received message is shown as the kernel wrote it back: msg_namelen,
 * msg_controllen, msg_flags and the control data are exit memory (the
 * recorder reads the struct again at exit, bpf/capture.bpf.h cap_msghdr);
 * the name length the caller offered is entry memory.
 */
#include <net/if.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

#include "decode/strace/strace_int.h"

/* An SCM_RIGHTS member: a descriptor, -y names it. */
static void pr_elem_fd(struct st *s, uint64_t v)
{
	pr_fd(s, (int)v);
}

static void pr_cmsg_fds(struct st *s, const uint8_t *d, size_t len)
{
	pr_local_array(s, d, len, sizeof(int), pr_elem_fd);
}

static void pr_cmsg_uints(struct st *s, const uint8_t *d, size_t len)
{
	pr_local_array(s, d, len, sizeof(uint32_t), pr_uint);
}

static void pr_cmsg_bytes(struct st *s, const uint8_t *d, size_t len)
{
	pr_local_array(s, d, len, 1, pr_hex);
}

static void pr_cmsg_creds(struct st *s, const uint8_t *d, size_t len)
{
	struct ucred u;

	(void)len;
	memcpy(&u, d, sizeof(u));
	st_obj_begin(s);
	st_field(s, "pid");
	pr_pid(s, (uint64_t)u.pid);
	st_field(s, "uid");
	pr_uint(s, u.uid);
	st_field(s, "gid");
	pr_uint(s, u.gid);
	st_obj_end(s);
}

static void pr_cmsg_str(struct st *s, const uint8_t *d, size_t len)
{
	pr_quoted(s, d, len, 0, 0, 0);
}

static void pr_cmsg_sockaddr(struct st *s, const uint8_t *d, size_t len)
{
	pr_sockaddr_bytes(s, d, len < sizeof(struct sockaddr_storage) ?
				len : sizeof(struct sockaddr_storage));
}

/* An interface by name, as the tracer's network namespace knows it:
 * if_nametoindex("lo"), else the number. */
void pr_ifindex(struct st *s, unsigned int idx)
{
	char name[IF_NAMESIZE], q[4 * IF_NAMESIZE], num[16], sym[4 * IF_NAMESIZE + 24];

	if (s->j || !if_indextoname(idx, name)) {
		pr_uint(s, idx);
		return;
	}
	snprintf(num, sizeof(num), "%u", idx);
	snprintf(sym, sizeof(sym), "if_nametoindex(\"%s\")",
		 st_quote_name(s, name, q, sizeof(q)));
	pr_symexpr(s, num, sym);
}

static void pr_cmsg_pktinfo(struct st *s, const uint8_t *d, size_t len)
{
	struct in_pktinfo pi;

	(void)len;
	memcpy(&pi, d, sizeof(pi));
	st_obj_begin(s);
	st_field(s, "ipi_ifindex");
	pr_ifindex(s, (unsigned int)pi.ipi_ifindex);
	st_field(s, "ipi_spec_dst");
	pr_inet_addr(s, &pi.ipi_spec_dst);
	st_field(s, "ipi_addr");
	pr_inet_addr(s, &pi.ipi_addr);
	st_obj_end(s);
}

/* The control messages strace decodes, given at least min_len bytes of
 * data; others show their type only. */
static const struct {
	int level, type;
	size_t min_len;
	void (*fn)(struct st *s, const uint8_t *d, size_t len);
} cmsg_printers[] = {
	{ SOL_SOCKET, SCM_RIGHTS, sizeof(int), pr_cmsg_fds },
	{ SOL_SOCKET, SCM_CREDENTIALS, sizeof(struct ucred), pr_cmsg_creds },
	{ SOL_SOCKET, 3 /* SCM_SECURITY */, 1, pr_cmsg_str },
	{ SOL_SOCKET, 29 /* SO_TIMESTAMP_OLD */, 1, pr_cmsg_timeval },
	{ SOL_SOCKET, 35 /* SO_TIMESTAMPNS_OLD */, 1, pr_cmsg_timespec },
	{ SOL_SOCKET, 37 /* SO_TIMESTAMPING_OLD */, 1, pr_cmsg_timestamping },
	{ SOL_SOCKET, 63 /* SO_TIMESTAMP_NEW */, 1, pr_cmsg_timeval },
	{ SOL_SOCKET, 64 /* SO_TIMESTAMPNS_NEW */, 1, pr_cmsg_timespec },
	{ SOL_SOCKET, 65 /* SO_TIMESTAMPING_NEW */, 1, pr_cmsg_timestamping },
	{ SOL_IP, IP_PKTINFO, sizeof(struct in_pktinfo), pr_cmsg_pktinfo },
	{ SOL_IP, IP_TTL, sizeof(uint32_t), pr_cmsg_uints },
	{ SOL_IP, IP_TOS, 1, pr_cmsg_bytes },
	{ SOL_IP, IP_RECVOPTS, 1, pr_cmsg_bytes },
	{ SOL_IP, IP_RETOPTS, 1, pr_cmsg_bytes },
	{ SOL_IP, IP_RECVERR, CMSG_RECVERR_LEN, pr_cmsg_recverr },
	{ SOL_IP, IP_ORIGDSTADDR, sizeof(struct sockaddr_in), pr_cmsg_sockaddr },
	{ SOL_IP, 23 /* IP_CHECKSUM */, sizeof(uint32_t), pr_cmsg_uints },
	{ SOL_IP, 3 /* SCM_SECURITY */, 1, pr_cmsg_str },
};

static void pr_cmsg_type_data(struct st *s, const struct cmsghdr *c, const uint8_t *d,
			      size_t dlen)
{
	if (c->cmsg_level == SOL_SOCKET) {
		pr_xval(s, &x_scm, (uint32_t)c->cmsg_type, "SCM_???");
	} else if (c->cmsg_level == SOL_IP) {
		pr_xval(s, &x_ip_cmsg, (uint32_t)c->cmsg_type, "IP_???");
	} else {
		pr_hex(s, (uint32_t)c->cmsg_type);
		return;
	}
	for (size_t i = 0; i < sizeof(cmsg_printers) / sizeof(cmsg_printers[0]); i++) {
		if (cmsg_printers[i].level != c->cmsg_level ||
		    cmsg_printers[i].type != c->cmsg_type || dlen < cmsg_printers[i].min_len)
			continue;
		st_field(s, "cmsg_data");
		cmsg_printers[i].fn(s, d, dlen);
		return;
	}
}

/* One cmsg whose header is at b and of which len bytes were read;
 * returns its cmsg_len. */
static uint64_t pr_cmsg(struct st *s, const uint8_t *b, size_t len)
{
	struct cmsghdr c;
	size_t n;

	memcpy(&c, b, sizeof(c));
	n = c.cmsg_len < len ? c.cmsg_len : len;
	st_obj_begin(s);
	st_field(s, "cmsg_len");
	pr_ulong(s, c.cmsg_len);
	st_field(s, "cmsg_level");
	pr_xval(s, &x_sol, (uint32_t)c.cmsg_level, "SOL_???");
	st_field(s, "cmsg_type");
	pr_cmsg_type_data(s, &c, b + sizeof(c), n > sizeof(c) ? n - sizeof(c) : 0);
	st_obj_end(s);
	return c.cmsg_len;
}

/*
 * The control buffer, len bytes: cmsgs while a header fits, each
 * advanced by its aligned length. Bytes left over that hold no whole
 * header end the array with "..." and their address (strace's rules).
 */
static void pr_cmsgs(struct st *s, int phase, uint64_t addr, uint64_t len)
{
	const size_t hdr = sizeof(struct cmsghdr);
	uint8_t b[1024];
	size_t n, off = 0, left;

	if (len < hdr) {
		pr_addr(s, addr);
		return;
	}
	n = len < sizeof(b) ? (size_t)len : sizeof(b);
	left = n = st_fetch_upto(s, phase, addr, b, n);
	if (!n)
		return;
	st_arr_begin(s);
	while (left >= hdr) {
		uint64_t clen;

		st_elem(s);
		clen = pr_cmsg(s, b + off, left);
		if (clen < hdr) {
			left -= hdr;
			break;
		}
		clen = (clen + sizeof(long) - 1) & ~(uint64_t)(sizeof(long) - 1);
		if (clen >= left) {
			left = 0;
			break;
		}
		off += clen;
		left -= clen;
	}
	if (!s->j && (left || n < len)) {
		st_elem(s);
		sb_puts(s->o, "...");
		if (left)
			sb_printf(s->o, " /* %#llx */", (unsigned long long)(addr + n - left));
	}
	st_arr_end(s);
}

/*
 * msg_name and msg_namelen. A received name is as long as the kernel
 * says, at most as long as the buffer offered; a length the kernel
 * changed shows both: msg_namelen=128 => 16. Returns the name's address
 * family, -1 when there is none to read.
 */
static int pr_msg_name(struct st *s, int phase, uint64_t addr, const struct msghdr *m)
{
	struct msghdr in;
	sa_family_t fam;
	int len = (int)m->msg_namelen;
	int changed = phase == SONDE_PL_EXIT &&
		      st_peek(s, SONDE_PL_ENTRY, addr, &in, sizeof(in)) &&
		      in.msg_namelen != m->msg_namelen;

	if (changed && (int)in.msg_namelen < len)
		len = (int)in.msg_namelen;
	st_field(s, "msg_name");
	if (m->msg_name)
		pr_sockaddr(s, phase, (uint64_t)(uintptr_t)m->msg_name, (uint64_t)len);
	else
		pr_addr(s, 0);
	st_field(s, "msg_namelen");
	if (changed && !s->j)
		sb_printf(s->o, "%d => ", (int)in.msg_namelen);
	pr_int(s, (uint64_t)(int)m->msg_namelen);
	if (!m->msg_name || len < (int)sizeof(fam) ||
	    !st_peek(s, phase, (uint64_t)(uintptr_t)m->msg_name, &fam, sizeof(fam)))
		return -1;
	return fam;
}

/*
 * msghdr: the struct and the buffers it points to from phase memory,
 * data_len bytes of message (the struct from the other phase's copy when
 * phase has none).
 */
void pr_msghdr(struct st *s, int phase, uint64_t addr, uint64_t data_len)
{
	int other = phase == SONDE_PL_EXIT ? SONDE_PL_ENTRY : SONDE_PL_EXIT;
	struct msghdr m;

	if (!st_peek(s, phase, addr, &m, sizeof(m)) && !st_peek(s, other, addr, &m, sizeof(m))) {
		pr_unfetched(s, SONDE_PL_ENTRY, addr);
		return;
	}
	st_obj_begin(s);
	/* strace decodes the buffers as netlink messages when the name is
	 * a netlink address, whatever the descriptor. */
	s->iov_nl = pr_msg_name(s, phase, addr, &m) == AF_NETLINK && !s->j;
	s->iov_nlproto = st_netlink_proto(s, (int)st_arg(s, 0));
	st_field(s, "msg_iov");
	pr_iov(s, phase, (uint64_t)(uintptr_t)m.msg_iov, m.msg_iovlen, data_len);
	s->iov_nl = 0;
	st_field(s, "msg_iovlen");
	pr_ulong(s, m.msg_iovlen);
	if (m.msg_controllen) {
		st_field(s, "msg_control");
		pr_cmsgs(s, phase, (uint64_t)(uintptr_t)m.msg_control, m.msg_controllen);
	}
	st_field(s, "msg_controllen");
	pr_ulong(s, m.msg_controllen);
	st_field(s, "msg_flags");
	pr_flags(s, &x_msg_flags, (unsigned)m.msg_flags, "MSG_???");
	st_obj_end(s);
}

/* A failed recvmsg: strace shows the name length it was given only. */
static void pr_msghdr_namelen(struct st *s, uint64_t addr)
{
	struct msghdr in;

	if (!addr || !st_peek(s, SONDE_PL_ENTRY, addr, &in, sizeof(in))) {
		pr_unfetched(s, SONDE_PL_ENTRY, addr);
		return;
	}
	st_obj_begin(s);
	st_field(s, "msg_namelen");
	pr_int(s, (uint64_t)(int)in.msg_namelen);
	st_obj_end(s);
}

void dec_sendmsg(struct st *s)
{
	pr_fd(s, (int)st_arg(s, 0));
	st_sep(s);
	pr_msghdr(s, SONDE_PL_ENTRY, st_arg(s, 1), UINT64_MAX);
	st_sep(s);
	pr_flags(s, &x_msg_flags, (uint32_t)st_arg(s, 2), "MSG_???");
}

void dec_recvmsg(struct st *s)
{
	pr_fd(s, (int)st_arg(s, 0));
	st_sep(s);
	st_entry_end(s);
	if (st_ok(s))
		pr_msghdr(s, SONDE_PL_EXIT, st_arg(s, 1), (uint64_t)s->ret);
	else
		pr_msghdr_namelen(s, st_arg(s, 1));
	st_sep(s);
	pr_flags(s, &x_msg_flags, (uint32_t)st_arg(s, 2), "MSG_???");
}

/* struct mmsghdr: a msghdr then the byte count of that message. */
#define MMSG_SIZE 64

static void pr_mmsgs(struct st *s, int phase, uint64_t a, uint64_t n)
{
	uint32_t len;

	st_arr_begin(s);
	for (uint64_t i = 0; i < n; i++) {
		uint64_t m = a + i * MMSG_SIZE;

		st_elem(s);
		if (st_array_cut(s, i)) {
			sb_puts(s->o, "...");
			break;
		}
		if (!st_peek(s, SONDE_PL_EXIT, m + 56, &len, sizeof(len)) &&
		    !st_peek(s, SONDE_PL_ENTRY, m + 56, &len, sizeof(len)))
			len = 0;
		st_obj_begin(s);
		st_field(s, "msg_hdr");
		pr_msghdr(s, phase, m, phase == SONDE_PL_EXIT ? len : UINT64_MAX);
		st_field(s, "msg_len");
		pr_uint(s, len);
		st_obj_end(s);
	}
	st_arr_end(s);
}

void dec_sendmmsg(struct st *s)
{
	uint64_t n = (uint32_t)st_arg(s, 2);

	pr_fd(s, (int)st_arg(s, 0));
	st_sep(s);
	st_entry_end(s);
	if (st_ok(s) && s->ret > 0 && st_have_array(s, SONDE_PL_ENTRY, st_arg(s, 1),
						      (uint64_t)s->ret, MMSG_SIZE))
		pr_mmsgs(s, SONDE_PL_ENTRY, st_arg(s, 1), (uint64_t)s->ret);
	else
		pr_addr(s, st_arg(s, 1));
	st_sep(s);
	pr_uint(s, n);
	st_sep(s);
	pr_flags(s, &x_msg_flags, (uint32_t)st_arg(s, 3), "MSG_???");
}

/* After the count: " (left {tv_sec=0, tv_nsec=999992937})", the time
 * the kernel wrote back into the timeout, or " (Timeout)" for none. */
static void recvmmsg_result(struct st *s)
{
	uint64_t ts = st_arg(s, 4);
	struct strbuf b;
	struct st t;

	if (!st_ok(s))
		return;
	if (!s->ret) {
		if (!s->j)
			sb_puts(&s->rv_aux, " (Timeout)");
		return;
	}
	/* strace shows it with the messages only (-e verbose=) */
	if (!ts || !sonde_call_mem(s->c, SONDE_PL_EXIT, ts, 16) || !st_deref(s))
		return;
	st_res_begin(s, &t, &b, "left");
	sb_puts(&b, " (left ");
	ps_timespec(&t, SONDE_PL_EXIT, ts);
	sb_putc(&b, ')');
	st_res_end(s, &t, &b);
}

void dec_recvmmsg(struct st *s)
{
	pr_fd(s, (int)st_arg(s, 0));
	st_sep(s);
	st_entry_end(s);
	/* No message received: an empty array, as strace shows it (its
	 * address when -e verbose= leaves the call out). */
	if (st_ok(s) && st_deref(s) &&
	    (!s->ret || st_have_array(s, SONDE_PL_ENTRY, st_arg(s, 1), (uint64_t)s->ret,
				      MMSG_SIZE)))
		pr_mmsgs(s, SONDE_PL_EXIT, st_arg(s, 1), (uint64_t)s->ret);
	else
		pr_addr(s, st_arg(s, 1));
	st_sep(s);
	pr_uint(s, st_arg(s, 2));
	st_sep(s);
	pr_flags(s, &x_msg_flags, (uint32_t)st_arg(s, 3), "MSG_???");
	st_sep(s);
	ps_timespec(s, SONDE_PL_ENTRY, st_arg(s, 4));
	recvmmsg_result(s);
}
