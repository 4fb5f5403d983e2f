// SPDX-License-Identifier: GPL-2.0
/*
 * Socket addresses and iovec arrays, in strace's syntax (msghdr is in
 * msghdr.c):
 *   {sa_family=AF_INET, sin_port=htons(80), sin_addr=inet_addr("1.2.3.4")}
 *   [{iov_base="hello", iov_len=5}, ...]
 * JSON names socket addresses by what they hold rather than by their C
 * members: {"family":"AF_INET","port":80,"addr":"127.0.0.1"}.
 */
#include <arpa/inet.h>
#include <linux/if_packet.h>
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
	st_obj_begin(s);
	st_field2(s, "sa_family", "family");
	pr_xval(s, &x_sock_family, fam, "AF_???");
}

static void pr_sun(struct st *s, const uint8_t *p, size_t len)
{
	const char *path = (const char *)p + 2;
	size_t n = len - 2;

	if (len <= 2) {
		st_obj_end(s);
		return;
	}
	st_field2(s, "sun_path", "path");
	if (path[0] == 0) {
		/* Abstract socket: the name is every byte after the NUL. */
		if (s->j) {
			pr_quoted(s, (const uint8_t *)path + 1, n - 1, 0, 0, 0);
			st_field(s, "abstract");
			st_jbool(s, 1);
		} else {
			sb_putc(s->o, '@');
			pr_quoted(s, (const uint8_t *)path + 1, n - 1, 0, 0, 0);
		}
	} else {
		pr_quoted(s, (const uint8_t *)path, strnlen(path, n), 0, 0, 0);
	}
	st_obj_end(s);
}

/* The bytes of a network-order field as -X raw shows them: "\x00\x50". */
void net_bytes(char *buf, size_t len, const void *p, size_t n)
{
	size_t k = 0;

	k += (size_t)snprintf(buf + k, len - k, "\"");
	for (size_t i = 0; i < n && k < len; i++)
		k += (size_t)snprintf(buf + k, len - k, "\\x%02x", ((const uint8_t *)p)[i]);
	if (k < len)
		snprintf(buf + k, len - k, "\"");
}

const char *st_quote_name(const struct st *s, const char *in, char *buf, size_t len)
{
	size_t k = 0;

	if (s->opt->xstr != 2)
		return in;
	buf[0] = 0;
	for (size_t i = 0; in[i] && k + 5 <= len; i++)
		k += (size_t)snprintf(buf + k, len - k, "\\x%02x", (uint8_t)in[i]);
	return buf;
}

/* htons(80) in text (-X: "\x00\x50" /\* htons(80) *\/), 80 in JSON;
 * raw points at the field's bytes in network order. */
void pr_wrapped_u(struct st *s, const char *fn, unsigned int v, const void *raw,
		  size_t n)
{
	char num[40], sym[32];

	if (s->j) {
		st_juint(s, v);
		return;
	}
	net_bytes(num, sizeof(num), raw, n);
	snprintf(sym, sizeof(sym), "%s(%u)", fn, v);
	pr_symexpr(s, num, sym);
}

void pr_inet_addr(struct st *s, const void *addr)
{
	char buf[INET_ADDRSTRLEN];

	inet_ntop(AF_INET, addr, buf, sizeof(buf));
	if (s->j) {
		st_jstr(s, buf);
	} else {
		char num[40], sym[96], q[4 * INET_ADDRSTRLEN];

		net_bytes(num, sizeof(num), addr, 4);
		snprintf(sym, sizeof(sym), "inet_addr(\"%s\")",
			 st_quote_name(s, buf, q, sizeof(q)));
		pr_symexpr(s, num, sym);
	}
}

void pr_inet6_addr(struct st *s, const void *addr)
{
	char buf[INET6_ADDRSTRLEN], num[80], sym[4 * INET6_ADDRSTRLEN + 24];
	char q[4 * INET6_ADDRSTRLEN];

	inet_ntop(AF_INET6, addr, buf, sizeof(buf));
	if (s->j) {
		st_jstr(s, buf);
		return;
	}
	net_bytes(num, sizeof(num), addr, 16);
	snprintf(sym, sizeof(sym), "inet_pton(AF_INET6, \"%s\")",
		 st_quote_name(s, buf, q, sizeof(q)));
	pr_symexpr(s, num, sym);
}

void pr_inet6_field(struct st *s, const char *name, const char *jname, const void *addr)
{
	char buf[INET6_ADDRSTRLEN], q[4 * INET6_ADDRSTRLEN];

	if (s->j || s->opt->xlat != SONDE_XLAT_ABBREV) {
		st_field2(s, name, jname);
		pr_inet6_addr(s, addr);
		return;
	}
	inet_ntop(AF_INET6, addr, buf, sizeof(buf));
	st_elem(s);
	sb_printf(s->o, "inet_pton(AF_INET6, \"%s\", &%s)", st_quote_name(s, buf, q, sizeof(q)),
		  name);
}

static void pr_inet(struct st *s, const uint8_t *p)
{
	struct sockaddr_in in;

	memcpy(&in, p, sizeof(in));
	st_field2(s, "sin_port", "port");
	pr_wrapped_u(s, "htons", ntohs(in.sin_port), &in.sin_port, 2);
	st_field2(s, "sin_addr", "addr");
	pr_inet_addr(s, &in.sin_addr);
	st_obj_end(s);
}

static void pr_inet6(struct st *s, const uint8_t *p)
{
	struct sockaddr_in6 in6;

	memcpy(&in6, p, sizeof(in6));
	st_field2(s, "sin6_port", "port");
	pr_wrapped_u(s, "htons", ntohs(in6.sin6_port), &in6.sin6_port, 2);
	st_field2(s, "sin6_flowinfo", "flowinfo");
	pr_wrapped_u(s, "htonl", ntohl(in6.sin6_flowinfo), &in6.sin6_flowinfo, 4);
	pr_inet6_field(s, "sin6_addr", "addr", &in6.sin6_addr);
	st_field2(s, "sin6_scope_id", "scope_id");
	/* an interface only for the link-local scopes */
	if (IN6_IS_ADDR_LINKLOCAL(&in6.sin6_addr) || IN6_IS_ADDR_MC_LINKLOCAL(&in6.sin6_addr))
		pr_ifindex(s, in6.sin6_scope_id);
	else
		pr_uint(s, in6.sin6_scope_id);
	st_obj_end(s);
}

void pr_sockaddr_bytes(struct st *s, const uint8_t *p, size_t len)
{
	uint16_t fam;

	if (len < 2) {
		if (s->j) {
			st_obj_begin(s);
			st_obj_end(s);
		} else {
			sb_puts(s->o, "{sa_family=???}");
		}
		return;
	}
	memcpy(&fam, p, 2);
	pr_family(s, fam);
	if (fam == AF_INET && len >= sizeof(struct sockaddr_in)) {
		pr_inet(s, p);
		return;
	}
	if (fam == AF_INET6 && len >= sizeof(struct sockaddr_in6)) {
		pr_inet6(s, p);
		return;
	}
	if (fam == AF_PACKET && len >= sizeof(struct sockaddr_ll)) {
		pr_sockaddr_ll(s, p);
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
		/* strace shows the padding when something is in it */
		if (nl.nl_pad && !s->j) {
			st_field(s, "nl_pad");
			pr_hex(s, nl.nl_pad);
		}
		st_field2(s, "nl_pid", "pid");
		/* strace prints the port id as an int; JSON keeps it unsigned */
		if (s->j)
			pr_uint(s, nl.nl_pid);
		else
			pr_pid(s, nl.nl_pid);
		st_field2(s, "nl_groups", "groups");
		if (s->j)
			st_juint(s, nl.nl_groups);
		else
			sb_printf(s->o, "%#08x", nl.nl_groups);
		st_obj_end(s);
		return;
	}
	st_field2(s, "sa_data", "data");
	pr_quoted(s, p + 2, len - 2, 0, 0, 0);
	st_obj_end(s);
}

void pr_sockaddr(struct st *s, int phase, uint64_t addr, uint64_t len)
{
	uint8_t b[sizeof(struct sockaddr_storage)];
	size_t n;

	if (!addr) {
		pr_addr(s, 0);
		return;
	}
	if ((int)len <= 0) {
		pr_unfetched(s, phase, addr);
		return;
	}
	n = len < sizeof(b) ? (size_t)len : sizeof(b);
	n = st_fetch_upto(s, phase, addr, b, n);
	if (n)
		pr_sockaddr_bytes(s, b, n);
}

/*
 * iovec array: data_len is how many bytes the elements' buffers hold in
 * total (the return value for reads; the sum of iov_len for writes);
 * IOV_ADDRS instead shows iov_base as an address (the buffers of a
 * failed read). strace shows at most -s elements, then "...".
 */
/* Bytes of an iovec: 16, or 8 (two 32-bit words) in an i386 call. */
static unsigned int iov_size(const struct st *s)
{
	return 2 * st_ptr_size(s->sc);
}

/* Element i of an iovec array. */
static int iov_get(struct st *s, int phase, uint64_t addr, uint64_t i, uint64_t *base,
		   uint64_t *len)
{
	uint32_t w[2];
	struct iovec v;

	if (iov_size(s) == sizeof(w)) {
		if (!st_peek(s, phase, addr + i * sizeof(w), w, sizeof(w)))
			return 0;
		*base = w[0];
		*len = w[1];
		return 1;
	}
	if (!st_peek(s, phase, addr + i * sizeof(v), &v, sizeof(v)))
		return 0;
	*base = (uint64_t)(uintptr_t)v.iov_base;
	*len = v.iov_len;
	return 1;
}

void pr_iov(struct st *s, int phase, uint64_t addr, uint64_t cnt,
	    uint64_t data_len)
{
	uint64_t left = data_len, base, len;
	/* The array itself is an input: entry memory, else exit memory. */
	int aphase = SONDE_PL_ENTRY;

	if (!addr) {
		pr_addr(s, 0);
		return;
	}
	if (cnt && !iov_get(s, aphase, addr, 0, &base, &len))
		aphase = SONDE_PL_EXIT;
	if (cnt > 1024 || (cnt && !iov_get(s, aphase, addr, 0, &base, &len))) {
		pr_unfetched(s, aphase, addr);
		return;
	}
	st_arr_begin(s);
	for (uint64_t i = 0; i < cnt; i++) {
		uint64_t n;

		st_elem(s);
		if (st_array_cut(s, i)) {
			sb_puts(s->o, "...");
			break;
		}
		if (!iov_get(s, aphase, addr, i, &base, &len)) {
			pr_unfetched(s, aphase, addr + i * iov_size(s));
			break;
		}
		n = len < left ? len : left;
		st_obj_begin(s);
		st_field(s, "iov_base");
		if (data_len == IOV_ADDRS)
			pr_addr(s, base);
		else if (s->iov_nl)
			pr_netlink(s, phase, base, n, s->iov_nlproto);
		else
			pr_buf(s, phase, base, n, 0);
		st_field(s, "iov_len");
		pr_ulong(s, len);
		st_obj_end(s);
		left -= n;
	}
	st_arr_end(s);
}

void pr_local_array(struct st *s, const uint8_t *d, size_t len, size_t esz,
		    void (*pr)(struct st *s, uint64_t v))
{
	st_arr_begin(s);
	for (size_t i = 0; (i + 1) * esz <= len; i++) {
		uint32_t v = 0;

		st_elem(s);
		if (st_array_cut(s, i)) {
			sb_puts(s->o, "...");
			break;
		}
		memcpy(&v, d + i * esz, esz); /* little-endian: a byte is its value */
		pr(s, v);
	}
	st_arr_end(s);
}
