// SPDX-License-Identifier: GPL-2.0
/*
 * Socket addresses, iovec arrays and msghdr, in strace's syntax:
 *   {sa_family=AF_INET, sin_port=htons(80), sin_addr=inet_addr("1.2.3.4")}
 *   [{iov_base="hello", iov_len=5}, ...]
 *   {msg_name=NULL, msg_namelen=0, msg_iov=[...], msg_iovlen=1, ...}
 */
#include <arpa/inet.h>
#include <linux/netlink.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <sys/un.h>

#include "decode/strace/strace_int.h"

static void pr_family(struct st *s, unsigned int fam)
{
	sb_puts(s->o, "{sa_family=");
	pr_xval(s, &x_sock_family, fam, "AF_???");
}

static void pr_sun(struct st *s, const uint8_t *p, size_t len)
{
	const char *path = (const char *)p + 2;
	size_t n = len - 2;

	if (len <= 2) {
		sb_putc(s->o, '}');
		return;
	}
	sb_puts(s->o, ", sun_path=");
	if (path[0] == 0) {
		/* Abstract socket: the name is every byte after the NUL. */
		sb_putc(s->o, '@');
		pr_quoted(s, (const uint8_t *)path + 1, n - 1, 0, 0, 0);
	} else {
		pr_quoted(s, (const uint8_t *)path, strnlen(path, n), 0, 0, 0);
	}
	sb_putc(s->o, '}');
}

void pr_sockaddr_bytes(struct st *s, const uint8_t *p, size_t len)
{
	uint16_t fam;
	char buf[INET6_ADDRSTRLEN];

	if (len < 2) {
		sb_puts(s->o, "{sa_family=???}");
		return;
	}
	memcpy(&fam, p, 2);
	pr_family(s, fam);
	if (fam == AF_INET && len >= sizeof(struct sockaddr_in)) {
		struct sockaddr_in in;

		memcpy(&in, p, sizeof(in));
		inet_ntop(AF_INET, &in.sin_addr, buf, sizeof(buf));
		sb_printf(s->o, ", sin_port=htons(%u), sin_addr=inet_addr(\"%s\")}",
			  ntohs(in.sin_port), buf);
		return;
	}
	if (fam == AF_INET6 && len >= sizeof(struct sockaddr_in6)) {
		struct sockaddr_in6 in6;

		memcpy(&in6, p, sizeof(in6));
		inet_ntop(AF_INET6, &in6.sin6_addr, buf, sizeof(buf));
		sb_printf(s->o, ", sin6_port=htons(%u), sin6_flowinfo=htonl(%u), inet_pton(AF_INET6, \"%s\", &sin6_addr), sin6_scope_id=%u}",
			  ntohs(in6.sin6_port), ntohl(in6.sin6_flowinfo), buf,
			  in6.sin6_scope_id);
		return;
	}
	if (fam == AF_UNIX) {
		pr_sun(s, p, len > sizeof(struct sockaddr_un) ?
				     sizeof(struct sockaddr_un) : len);
		return;
	}
	if (fam == AF_NETLINK && len >= sizeof(struct sockaddr_nl)) {
		struct sockaddr_nl nl;

		memcpy(&nl, p, sizeof(nl));
		sb_printf(s->o, ", nl_pid=%u, nl_groups=%08x}", nl.nl_pid,
			  nl.nl_groups);
		return;
	}
	sb_puts(s->o, ", sa_data=");
	pr_quoted(s, p + 2, len - 2, 0, 0, 0);
	sb_putc(s->o, '}');
}

void pr_sockaddr(struct st *s, int phase, uint64_t addr, uint64_t len)
{
	uint8_t b[sizeof(struct sockaddr_storage)];
	size_t n;

	if (!addr) {
		sb_puts(s->o, "NULL");
		return;
	}
	if ((int)len <= 0) {
		pr_addr(s, addr);
		return;
	}
	n = len < sizeof(b) ? (size_t)len : sizeof(b);
	n = st_fetch_upto(s, phase, addr, b, n);
	if (n)
		pr_sockaddr_bytes(s, b, n);
}

/*
 * iovec array: data_len is how many bytes the elements' buffers hold in
 * total (the return value for reads; the sum of iov_len for writes).
 * strace shows at most -s elements, then "...".
 */
void pr_iov(struct st *s, int phase, uint64_t addr, uint64_t cnt,
	    uint64_t data_len)
{
	struct iovec v;
	uint64_t left = data_len;
	/* The array itself is an input: entry memory, else exit memory. */
	int aphase = SONDE_PL_ENTRY;

	if (!addr) {
		sb_puts(s->o, "NULL");
		return;
	}
	if (cnt && !st_peek(s, aphase, addr, &v, sizeof(v)))
		aphase = SONDE_PL_EXIT;
	if (cnt > 1024 || (cnt && !st_peek(s, aphase, addr, &v, sizeof(v)))) {
		pr_addr(s, addr);
		return;
	}
	sb_putc(s->o, '[');
	for (uint64_t i = 0; i < cnt; i++) {
		uint64_t base, n;

		if (i)
			sb_puts(s->o, ", ");
		if (st_array_cut(s, i)) {
			sb_puts(s->o, "...");
			break;
		}
		if (!st_peek(s, aphase, addr + i * sizeof(v), &v, sizeof(v))) {
			pr_addr(s, addr + i * sizeof(v));
			break;
		}
		base = (uint64_t)(uintptr_t)v.iov_base;
		n = v.iov_len < left ? v.iov_len : left;
		sb_puts(s->o, "{iov_base=");
		pr_buf(s, phase, base, n, 0);
		sb_printf(s->o, ", iov_len=%zu}", v.iov_len);
		left -= n;
	}
	sb_putc(s->o, ']');
}

static void pr_cmsgs(struct st *s, int phase, uint64_t addr, uint64_t len)
{
	uint8_t b[1024];
	size_t n, off = 0;
	int first = 1;

	n = len < sizeof(b) ? (size_t)len : sizeof(b);
	n = st_fetch_upto(s, phase, addr, b, n);
	if (!n)
		return;
	sb_putc(s->o, '[');
	while (off + sizeof(struct cmsghdr) <= n) {
		struct cmsghdr c;
		size_t dlen;

		memcpy(&c, b + off, sizeof(c));
		if (!first)
			sb_puts(s->o, ", ");
		first = 0;
		sb_printf(s->o, "{cmsg_len=%zu, cmsg_level=", (size_t)c.cmsg_len);
		pr_xval(s, &x_sol, (uint64_t)c.cmsg_level, "SOL_???");
		sb_puts(s->o, ", cmsg_type=");
		dlen = c.cmsg_len > sizeof(c) ? c.cmsg_len - sizeof(c) : 0;
		if (off + sizeof(c) + dlen > n)
			dlen = n - off - sizeof(c);
		if (c.cmsg_level == SOL_SOCKET && c.cmsg_type == SCM_RIGHTS) {
			sb_puts(s->o, "SCM_RIGHTS, cmsg_data=[");
			for (size_t i = 0; i + sizeof(int) <= dlen; i += sizeof(int)) {
				int fd;

				memcpy(&fd, b + off + sizeof(c) + i, sizeof(fd));
				if (i)
					sb_puts(s->o, ", ");
				pr_fd(s, fd);
			}
			sb_puts(s->o, "]}");
		} else if (c.cmsg_level == SOL_SOCKET &&
			   c.cmsg_type == SCM_CREDENTIALS && dlen >= 12) {
			struct ucred u;

			memcpy(&u, b + off + sizeof(c), sizeof(u));
			sb_printf(s->o, "SCM_CREDENTIALS, cmsg_data={pid=%d, uid=%u, gid=%u}}",
				  u.pid, u.uid, u.gid);
		} else {
			sb_printf(s->o, "%#x, cmsg_data=", (unsigned)c.cmsg_type);
			pr_quoted(s, b + off + sizeof(c), dlen, 0, 0, 0);
			sb_putc(s->o, '}');
		}
		if (c.cmsg_len < sizeof(c))
			break;
		off += (c.cmsg_len + sizeof(size_t) - 1) & ~(sizeof(size_t) - 1);
	}
	sb_putc(s->o, ']');
}

/*
 * msghdr: the struct itself is read from entry memory (its fields are
 * inputs); the buffers it points to from phase memory, data_len bytes.
 */
void pr_msghdr(struct st *s, int phase, uint64_t addr, uint64_t data_len)
{
	struct msghdr m;

	if (!st_peek(s, SONDE_PL_ENTRY, addr, &m, sizeof(m)) &&
	    !st_peek(s, SONDE_PL_EXIT, addr, &m, sizeof(m))) {
		pr_addr(s, addr);
		return;
	}
	sb_puts(s->o, "{msg_name=");
	if (m.msg_name)
		pr_sockaddr(s, phase, (uint64_t)(uintptr_t)m.msg_name, m.msg_namelen);
	else
		sb_puts(s->o, "NULL");
	sb_printf(s->o, ", msg_namelen=%u, msg_iov=", m.msg_namelen);
	pr_iov(s, phase, (uint64_t)(uintptr_t)m.msg_iov, m.msg_iovlen, data_len);
	sb_printf(s->o, ", msg_iovlen=%zu", (size_t)m.msg_iovlen);
	if (m.msg_controllen) {
		sb_puts(s->o, ", msg_control=");
		pr_cmsgs(s, phase, (uint64_t)(uintptr_t)m.msg_control,
			 m.msg_controllen);
	}
	sb_printf(s->o, ", msg_controllen=%zu, msg_flags=", (size_t)m.msg_controllen);
	pr_flags(s, &x_msg_flags, (unsigned)m.msg_flags, "MSG_???");
	sb_putc(s->o, '}');
}
